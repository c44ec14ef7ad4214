//! The predicates behind every rule, on typed values. The interpreter (`crate::check`) and the
//! generated validators both call these, so a rule means the same thing in both; what differs
//! is how arguments are bound to rule parameters and in which order rules run.
//!
//! Each predicate returns `Err(message)` saying what in the call broke it.

use crate::vocab::{DType, Format};
use crate::{AclnnError, Arg, TensorDesc, TensorState};

/// A tensor with the label messages use: the parameter name, or `name[i]` for a list element.
pub type Named<'a> = (String, &'a TensorDesc);

/// A single tensor parameter (`None` = null pointer: nothing to check).
pub fn one<'a>(name: &str, t: Option<&'a TensorDesc>) -> Vec<Named<'a>> {
    t.map(|t| (name.to_string(), t)).into_iter().collect()
}

/// A tensor-list parameter.
pub fn list<'a>(name: &str, ts: Option<&'a [TensorDesc]>) -> Vec<Named<'a>> {
    ts.unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("{name}[{i}]"), t))
        .collect()
}

/// An argument read as `T` by `read`; `None` when null, an error naming `what` it is not.
fn arg_as<T>(
    name: &str,
    a: Option<&Arg>,
    read: impl FnOnce(&Arg) -> Option<T>,
    what: &str,
) -> Result<Option<T>, String> {
    match a.filter(|a| !a.is_null()) {
        None => Ok(None),
        Some(a) => read(a)
            .map(Some)
            .ok_or_else(|| format!("{name} is not {what}")),
    }
}

/// The integer value of a (non-null) argument; `None` when null.
pub fn arg_int(name: &str, a: Option<&Arg>) -> Result<Option<i64>, String> {
    arg_as(name, a, Arg::as_int, "an integer")
}

/// The elements of a list argument as integers; `None` when null.
pub fn arg_int_list(name: &str, a: Option<&Arg>) -> Result<Option<Vec<i64>>, String> {
    arg_as(name, a, Arg::as_int_list, "an integer list")
}

/// The length of a list argument (array or tensor list); `None` when null.
pub fn arg_list_len(name: &str, a: Option<&Arg>) -> Result<Option<usize>, String> {
    arg_as(name, a, Arg::list_len, "a list")
}

/// A numeric argument (integer, double or scalar); `None` when null.
fn arg_number(name: &str, a: Option<&Arg>) -> Result<Option<f64>, String> {
    arg_as(name, a, Arg::as_f64, "a number")
}

/// Binds a predicate's result to the documented error: its status code and condition.
pub fn report(code: u32, condition: &str, result: Result<(), String>) -> Result<(), AclnnError> {
    result.map_err(|message| AclnnError::new(code, condition, message))
}

/// Whether a `When` condition holds: the attribute (or its element `index`) is among `values`
/// (`negate`: is not). A null or absent attribute, or a missing element, never holds.
pub fn when(a: Option<&Arg>, index: Option<usize>, values: &[i64], negate: bool) -> bool {
    let value = match (a.filter(|a| !a.is_null()), index) {
        (None, _) => return false,
        (Some(Arg::Bool(b)), None) => Some(*b as i64),
        (Some(a), None) => a.as_int(),
        (Some(a), Some(i)) => a.as_int_list().and_then(|v| v.get(i).copied()),
    };
    match value {
        None => false,
        Some(v) => values.contains(&v) != negate,
    }
}

/// Whether a `WhenStr` condition holds: the string attribute is one of `values`, compared
/// exactly (`negate`: is none of them). A null or absent attribute, or one of another kind,
/// never holds.
pub fn when_str(a: Option<&Arg>, values: &[&str], negate: bool) -> bool {
    match a.filter(|a| !a.is_null()).and_then(Arg::as_str) {
        None => false,
        Some(v) => values.contains(&v) != negate,
    }
}

/// Whether a `WhenAnyElem` condition holds: some element of the integer list attribute lies in
/// `[min, max]` (a missing bound is open). A null, absent or empty list, or an argument of
/// another kind, never holds.
pub fn when_any_elem(a: Option<&Arg>, min: Option<i64>, max: Option<i64>) -> bool {
    let Some(list) = a.filter(|a| !a.is_null()).and_then(Arg::as_int_list) else {
        return false;
    };
    list.iter()
        .any(|v| min.is_none_or(|m| *v >= m) && max.is_none_or(|m| *v <= m))
}

/// Whether a `WhenTensor` condition holds: the argument is in `state`. A list of tensors is in a
/// shape state when one is empty (`Empty`) or every one is (the others); an argument that is no
/// tensor is in no shape state.
pub fn when_tensor(a: Option<&Arg>, state: &TensorState) -> bool {
    let a = a.filter(|a| !a.is_null());
    let ts: &[TensorDesc] = match a {
        Some(Arg::Tensor(t)) => std::slice::from_ref(t),
        Some(Arg::TensorList(ts)) => ts,
        _ => &[],
    };
    let every = |f: &dyn Fn(&TensorDesc) -> bool| !ts.is_empty() && ts.iter().all(f);
    match state {
        TensorState::Null => a.is_none(),
        TensorState::Present => a.is_some(),
        TensorState::Empty => ts.iter().any(TensorDesc::is_empty),
        TensorState::NotEmpty => every(&|t| !t.is_empty()),
        TensorState::Rank { ranks, negate } => every(&|t| ranks.contains(&t.rank()) != *negate),
    }
}

/// The rejection of a rule that expects a tensor and got another kind of argument.
pub fn not_a_tensor(name: &str) -> Result<(), String> {
    Err(format!("{name} is not a tensor"))
}

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn product_supported(product: &str, supported: &[&str]) -> Result<(), String> {
    if supported.contains(&product) {
        Ok(())
    } else {
        Err(format!(
            "the op does not support product {product} (supported: {})",
            join(supported)
        ))
    }
}

pub fn not_null(name: &str, present: bool) -> Result<(), String> {
    if present {
        Ok(())
    } else {
        Err(format!("{name} is a null pointer"))
    }
}

/// A pointer the doc says must be null (a reserved parameter).
pub fn is_null(name: &str, present: bool) -> Result<(), String> {
    if present {
        Err(format!("{name} is not a null pointer"))
    } else {
        Ok(())
    }
}

/// Whether any of the tensors has one of `dtypes` (the condition of a `WhenDtype`).
pub fn has_dtype(ts: &[Named], dtypes: &[DType]) -> bool {
    ts.iter().any(|(_, t)| dtypes.contains(&t.dtype))
}

/// `allowed` is the product's list; `None` means the doc gives none for this product.
pub fn dtype_in(ts: &[Named], allowed: Option<&[DType]>, product: &str) -> Result<(), String> {
    let Some(allowed) = allowed else {
        return Ok(());
    };
    match ts.iter().find(|(_, t)| !allowed.contains(&t.dtype)) {
        None => Ok(()),
        Some((name, t)) => Err(unsupported_dtype(name, t.dtype, product, allowed)),
    }
}

fn unsupported_dtype(name: &str, dtype: DType, product: &str, allowed: &[DType]) -> String {
    format!(
        "{name} has dtype {dtype} which {product} does not support here (supported: {})",
        join(allowed)
    )
}

/// `dtype_in` for an `aclScalar` argument (a null one holds no dtype).
pub fn scalar_dtype_in(
    name: &str,
    a: Option<&Arg>,
    allowed: Option<&[DType]>,
    product: &str,
) -> Result<(), String> {
    match (a, allowed) {
        (Some(Arg::Scalar { dtype, .. }), Some(allowed)) if !allowed.contains(dtype) => {
            Err(unsupported_dtype(name, *dtype, product, allowed))
        }
        _ => Ok(()),
    }
}

/// The dtype an `aclDataType` number names ("dstType = 27": BFLOAT16); none for a number
/// `aclDataType` has no dtype for (ACL_DT_UNDEFINED's -1 is none).
pub fn acl_number_dtype(v: i64) -> Option<DType> {
    i32::try_from(v)
        .ok()
        .filter(|n| *n >= 0)
        .and_then(DType::from_acl_value)
}

/// Every tensor has the dtype the `aclDataType` argument `name` holds (absent: not checked).
pub fn dtype_is_arg(ts: &[Named], name: &str, a: Option<&Arg>) -> Result<(), String> {
    let want = match a {
        None => return Ok(()),
        Some(Arg::DataType(d)) => *d,
        // An integer attribute holding an `aclDataType` number ("dstType = 27").
        Some(Arg::Int(v)) => match acl_number_dtype(*v) {
            Some(d) => d,
            None => return Err(format!("{name} = {v} is no aclDataType")),
        },
        Some(_) => return Err(format!("{name} is not an aclDataType")),
    };
    match ts.iter().find(|(_, t)| t.dtype != want) {
        None => Ok(()),
        Some((n, t)) => Err(format!("{n} has dtype {} but {name} is {want}", t.dtype)),
    }
}

pub fn dtype_same(ts: &[Named]) -> Result<(), String> {
    same_by(ts, "dtype", |t| t.dtype.to_string())
}

/// Promotion category: bool < integral < floating < complex; `None` for types that do not promote.
fn category(d: DType) -> Option<u8> {
    use DType::*;
    Some(match d {
        Bool => 0,
        UInt8 | Int8 | Int16 | Int32 | Int64 | UInt16 | UInt32 | UInt64 => 1,
        Float16 | BFloat16 | Float32 | Float64 => 2,
        Complex64 | Complex128 => 3,
        _ => return None,
    })
}

/// The common dtype of two dtypes by aclnn's (PyTorch's) promotion table, if any.
pub fn promote(a: DType, b: DType) -> Option<DType> {
    use DType::*;
    if a == b {
        return Some(a);
    }
    let (ca, cb) = (category(a)?, category(b)?);
    if ca != cb {
        let (hi, lo) = if ca > cb { (a, b) } else { (b, a) };
        return Some(match (hi, lo) {
            (Complex64, Float64) => Complex128,
            _ => hi,
        });
    }
    let signed = |d| matches!(d, Int8 | Int16 | Int32 | Int64);
    Some(match (a, b) {
        (Float16, BFloat16) | (BFloat16, Float16) => Float32,
        (UInt8, Int8) | (Int8, UInt8) => Int16,
        (UInt8, s) | (s, UInt8) if signed(s) => s,
        _ if ca == 1 && signed(a) != signed(b) => return None,
        _ => {
            if a.size_bytes() >= b.size_bytes() {
                a
            } else {
                b
            }
        }
    })
}

/// Whether a value of dtype `from` may be cast to `to`: never down a category
/// (float → integer, complex → real, anything → bool).
pub fn can_cast(from: DType, to: DType) -> bool {
    from == to || matches!((category(from), category(to)), (Some(f), Some(t)) if f <= t)
}

/// A scalar argument's dtype with the label messages use (its parameter name).
pub type NamedScalar = (String, DType);

/// The `aclScalar` arguments among `(name, argument)` pairs (null ones hold no dtype).
pub fn scalars(args: &[(&str, Option<&Arg>)]) -> Vec<NamedScalar> {
    args.iter()
        .filter_map(|(name, a)| match a {
            Some(Arg::Scalar { dtype, .. }) => Some((name.to_string(), *dtype)),
            _ => None,
        })
        .collect()
}

/// The dtype of tensors promoted to `t` with a scalar of dtype `s`, by CANN's tensor–scalar rule:
/// the scalar counts only when its category is above the tensors', and then as its category's
/// default. Followed from CANN's op_api sources (hicann/ops-math `math/mul/.../aclnn_mul.cpp`,
/// `math/add/op_api/aclnn_add.cpp` `PromoteTypeScalar`, used for aclnnAdds on every SoC:
/// `InferTensorScalarDtype` = `CombineCategoriesWithComplex(tensor, GetScalarDefaultDtype(scalar))`,
/// the default being FLOAT for a floating scalar, COMPLEX64 for a complex one, else the scalar's
/// own dtype; a complex scalar keeps a floating tensor's width, COMPLEX32 widened to COMPLEX64 as
/// `aclnn_mul.cpp` does). An integer scalar over bool tensors keeps its own integer dtype there
/// (PyTorch would say INT64): the category, all a cast check looks at, is the same.
pub fn promote_with_scalar(t: DType, s: DType) -> Option<DType> {
    use DType::*;
    let (ct, cs) = (category(t)?, category(s)?);
    if cs <= ct {
        return Some(t);
    }
    Some(match (cs, ct) {
        (3, 2) if t == Float64 => Complex128,
        (3, _) => Complex64,
        (2, _) => Float32,
        _ => s,
    })
}

fn promoted(ts: &[Named], ss: &[NamedScalar]) -> Result<Option<DType>, String> {
    let fail = |d: DType, name: &str, acc: DType| {
        let names: Vec<&str> = ts
            .iter()
            .map(|(n, _)| n.as_str())
            .chain(ss.iter().map(|(n, _)| n.as_str()))
            .collect();
        format!(
            "the dtypes of {} do not promote: {d} ({name}) has no common type with {acc}",
            names.join(", ")
        )
    };
    let mut acc = ts.first().map(|(_, t)| t.dtype);
    for (name, t) in ts.iter().skip(1) {
        let a = acc.unwrap_or(t.dtype);
        acc = Some(promote(a, t.dtype).ok_or_else(|| fail(t.dtype, name, a))?);
    }
    // Scalars alone (no tensor among the operands) promote among themselves.
    let with_tensors = acc.is_some();
    for (name, d) in ss {
        acc = Some(match acc {
            None => *d,
            Some(a) if with_tensors => {
                promote_with_scalar(a, *d).ok_or_else(|| fail(*d, name, a))?
            }
            Some(a) => promote(a, *d).ok_or_else(|| fail(*d, name, a))?,
        });
    }
    Ok(acc)
}

/// The promoted dtype of the tensors; `None` when there are none or they do not promote (which
/// is `dtype_promotable`'s concern).
pub fn promoted_dtype(ts: &[Named]) -> Option<DType> {
    promoted_dtype_with(ts, &[])
}

/// `promoted_dtype` of tensors and `aclScalar` arguments ("alpha无法转换为self和other推导后的数据类型"
/// of aclnnAdds, whose other is a scalar).
pub fn promoted_dtype_with(ts: &[Named], ss: &[NamedScalar]) -> Option<DType> {
    promoted(ts, ss).ok().flatten()
}

/// A scalar argument's dtype casts to `to` (nothing to check without a scalar or a target).
pub fn scalar_castable(name: &str, a: Option<&Arg>, to: Option<DType>) -> Result<(), String> {
    match (a, to) {
        (Some(Arg::Scalar { dtype, .. }), Some(to)) if !can_cast(*dtype, to) => Err(format!(
            "{name} has dtype {dtype}, which cannot be cast to {to}"
        )),
        _ => Ok(()),
    }
}

pub fn dtype_promotable(ts: &[Named]) -> Result<(), String> {
    dtype_promotable_with(ts, &[])
}

/// `dtype_promotable` of tensors and `aclScalar` arguments ("self和threshold、value不满足数据类型推导规则").
pub fn dtype_promotable_with(ts: &[Named], ss: &[NamedScalar]) -> Result<(), String> {
    promoted(ts, ss).map(|_| ())
}

pub fn dtype_castable(from: &[Named], to: &[Named]) -> Result<(), String> {
    dtype_castable_with(from, &[], to)
}

/// `dtype_castable` where `aclScalar` arguments take part in the promotion ("self与threshold、value
/// 推导后的数据类型无法转换为指定输出out的类型").
pub fn dtype_castable_with(
    from: &[Named],
    scalars: &[NamedScalar],
    to: &[Named],
) -> Result<(), String> {
    let Some(p) = promoted(from, scalars)? else {
        return Ok(());
    };
    match to.iter().find(|(_, t)| !can_cast(p, t.dtype)) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "the promoted dtype {p} cannot be cast to {name}'s dtype {}",
            t.dtype
        )),
    }
}

pub fn format_in(ts: &[Named], allowed: &[Format]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| !t.format.allowed_by(allowed)) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} has format {} (supported: {})",
            t.format,
            join(allowed)
        )),
    }
}

pub fn format_same(ts: &[Named]) -> Result<(), String> {
    same_by(ts, "format", |t| t.format.to_string())
}

pub fn rank_in(ts: &[Named], min: usize, max: usize) -> Result<(), String> {
    match ts.iter().find(|(_, t)| t.rank() < min || t.rank() > max) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} has {} dims (supported: {})",
            t.rank(),
            if min == max {
                min.to_string()
            } else {
                format!("{min} to {max}")
            }
        )),
    }
}

pub fn rank_same(ts: &[Named]) -> Result<(), String> {
    same_by(ts, "rank", |t| t.rank().to_string())
}

pub fn shape_same(ts: &[Named]) -> Result<(), String> {
    let key = |t: &TensorDesc| format!("{:?}", t.shape);
    let bases: std::collections::BTreeSet<&str> =
        ts.iter().map(|(n, _)| list_element(n).0).collect();
    if bases.len() < 2 || ts.iter().all(|(n, _)| list_element(n).1.is_none()) {
        return same_by(ts, "shape", key);
    }
    // Tensor lists are matched element by element ("x1、x2的shape一致": x1[i] with x2[i]; CANN's
    // foreach examples pass lists whose elements differ); a plain tensor matches every element.
    let plain: Vec<Named> = ts
        .iter()
        .filter(|(n, _)| list_element(n).1.is_none())
        .cloned()
        .collect();
    let mut indices: Vec<usize> = ts.iter().filter_map(|(n, _)| list_element(n).1).collect();
    indices.sort_unstable();
    indices.dedup();
    for i in indices {
        let mut group = plain.clone();
        group.extend(
            ts.iter()
                .filter(|(n, _)| list_element(n).1 == Some(i))
                .cloned(),
        );
        same_by(&group, "shape", key)?;
    }
    Ok(())
}

/// "x2[1]" → ("x2", Some(1)); a plain tensor's name → (name, None).
fn list_element(name: &str) -> (&str, Option<usize>) {
    name.strip_suffix(']')
        .and_then(|head| head.rsplit_once('['))
        .and_then(|(base, i)| i.parse().ok().map(|i| (base, Some(i))))
        .unwrap_or((name, None))
}

/// Every tensor has the first one's `key`; the message names both.
fn same_by(ts: &[Named], what: &str, key: impl Fn(&TensorDesc) -> String) -> Result<(), String> {
    let Some((first_name, first)) = ts.first() else {
        return Ok(());
    };
    let want = key(first);
    match ts.iter().find(|(_, t)| key(t) != want) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} has {what} {} but {first_name} has {want}",
            key(t)
        )),
    }
}

/// Each tensor's shape (or its last `list.len()` dims, when `trailing`) equals `list`.
pub fn shape_matches_list(
    ts: &[Named],
    list_name: &str,
    list: Option<&[i64]>,
    trailing: bool,
) -> Result<(), String> {
    let Some(list) = list else {
        return Ok(());
    };
    for (name, t) in ts {
        let tail = t
            .shape
            .len()
            .checked_sub(list.len())
            .map(|skip| &t.shape[skip..]);
        let ok = if trailing {
            tail == Some(list)
        } else {
            t.shape == list
        };
        if !ok {
            return Err(format!(
                "{name} shape {:?} does not match {list_name} {list:?}{}",
                t.shape,
                if trailing { " in its last dims" } else { "" }
            ));
        }
    }
    Ok(())
}

/// Dim `ld` of every `lhs` tensor equals dim `rd` of every `rhs` tensor (negative = from the end).
/// Each of `ts` has `base`'s shape with its last `list.len()` dims replaced by `list`'s values.
/// A null list or base, or a base with fewer dims than the list, is another rule's concern.
pub fn shape_from_list(
    ts: &[Named],
    base: &[Named],
    list_name: &str,
    list: Option<&[i64]>,
) -> Result<(), String> {
    let Some(list) = list else {
        return Ok(());
    };
    for (bn, b) in base {
        let Some(kept) = b.rank().checked_sub(list.len()) else {
            continue;
        };
        let want: Vec<i64> = b.shape[..kept].iter().chain(list).copied().collect();
        for (name, t) in ts {
            if t.shape != want {
                return Err(format!(
                    "{name} has shape {:?} but {bn} {:?} with {list_name} {list:?} gives {want:?}",
                    t.shape, b.shape
                ));
            }
        }
    }
    Ok(())
}

pub fn dims_equal(lhs: &[Named], ld: i64, rhs: &[Named], rd: i64) -> Result<(), String> {
    let dim = |name: &str, t: &TensorDesc, d: i64| {
        let i = if d < 0 { t.rank() as i64 + d } else { d };
        usize::try_from(i)
            .ok()
            .and_then(|i| t.shape.get(i).copied())
            .ok_or_else(|| format!("{name} has no dim {d} (rank {})", t.rank()))
    };
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            let (a, b) = (dim(ln, l, ld)?, dim(rn, r, rd)?);
            if a != b {
                return Err(format!("{ln} dim {ld} is {a} but {rn} dim {rd} is {b}"));
            }
        }
    }
    Ok(())
}

/// The size of dim `dim` (negative = from the end); `None` when the tensor lacks it.
fn dim_size(t: &TensorDesc, dim: i64) -> Option<i64> {
    let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
    usize::try_from(i)
        .ok()
        .and_then(|i| t.shape.get(i).copied())
}

/// Dim `dim` (negative = from the end) of every tensor is a multiple of `by`; a tensor without
/// that dim passes (whether the dim exists is another rule's concern).
pub fn dim_multiple_of(ts: &[Named], dim: i64, by: i64) -> Result<(), String> {
    for (name, t) in ts {
        let Some(x) = dim_size(t, dim) else {
            continue;
        };
        if by != 0 && x % by != 0 {
            return Err(format!("{name} dim {dim} is {x}, not a multiple of {by}"));
        }
    }
    Ok(())
}

/// Dim `dim` (negative = from the end) of every tensor lies in `[min, max]`; a tensor without
/// that dim is skipped.
pub fn dim_in_range(
    ts: &[Named],
    dim: i64,
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    for (name, t) in ts {
        let Some(x) = dim_size(t, dim) else {
            continue;
        };
        if min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
            return Err(format!(
                "{name} dim {dim} is {x}, outside {}",
                bounds_text(min, max)
            ));
        }
    }
    Ok(())
}

/// "[1, 256]", "≥ 1", "≤ 4096".
pub fn bounds_text(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!("[{lo}, {hi}]"),
        (Some(lo), None) => format!("≥ {lo}"),
        (None, Some(hi)) => format!("≤ {hi}"),
        (None, None) => "any size".to_string(),
    }
}

/// The channel axis of a tensor: the last for channels-last formats (NHWC, NDHWC, NLC), else the
/// second (NCHW, NCL, NCDHW, ND with the channel second).
pub fn channel_axis(t: &TensorDesc) -> usize {
    match t.format {
        Format::Nhwc | Format::Ndhwc | Format::Nlc => t.rank().saturating_sub(1),
        _ => 1,
    }
}

/// The channel axis of a tensor whose layout an attribute names ("NHWC", "NCHW", "NDHWC"):
/// the last dim for a channels-last name, else the second; a name of no layout gives `None`.
pub fn layout_channel_axis(t: &TensorDesc, layout: &str) -> Option<usize> {
    let name = layout.trim().to_ascii_uppercase();
    if !name.starts_with('N') || !name.contains('C') || name.len() < 2 {
        return None;
    }
    Some(if name.ends_with('C') {
        t.rank().saturating_sub(1)
    } else {
        1
    })
}

/// Dim `dim` (negative = from the end) of every `ts` tensor equals the channel axis of every `of`
/// tensor (by `layout` when a layout attribute names it, else by the tensor's format); a tensor
/// without the dim (or the channel axis) passes: ranks are other rules' concern.
pub fn dim_matches_channel(
    ts: &[Named],
    dim: i64,
    of: &[Named],
    layout: Option<&str>,
) -> Result<(), String> {
    for (on, o) in of {
        let axis = layout
            .and_then(|l| layout_channel_axis(o, l))
            .unwrap_or_else(|| channel_axis(o));
        let Some(c) = o.shape.get(axis).copied() else {
            continue;
        };
        for (name, t) in ts {
            let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
            let Some(x) = usize::try_from(i)
                .ok()
                .and_then(|i| t.shape.get(i).copied())
            else {
                continue;
            };
            if x != c {
                let layout = layout.map_or_else(|| o.format.to_string(), str::to_string);
                return Err(format!(
                    "{name} dim {dim} is {x} but {on}'s channel axis (dim {axis}, {layout}) is {c}"
                ));
            }
        }
    }
    Ok(())
}

/// Dim `dim` (negative = from the end of each tensor) of every `lhs` tensor times `den` equals the
/// same dim of every `rhs` tensor times `num`; a tensor without the dim passes (ranks are other
/// rules' concern).
pub fn dims_scaled(
    lhs: &[Named],
    rhs: &[Named],
    dim: i64,
    num: i64,
    den: i64,
) -> Result<(), String> {
    let at = |t: &TensorDesc| {
        let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
        usize::try_from(i)
            .ok()
            .and_then(|i| t.shape.get(i).copied())
    };
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            let (Some(a), Some(b)) = (at(l), at(r)) else {
                continue;
            };
            if a.checked_mul(den) != b.checked_mul(num) {
                return Err(format!(
                    "{ln} dim {dim} is {a} but {rn} dim {dim} is {b} (expected {num}/{den} of it)"
                ));
            }
        }
    }
    Ok(())
}

/// Every `lhs` tensor has the rank of every `rhs` tensor and the same dims except `dim` (negative
/// = from the end).
pub fn shape_same_except(lhs: &[Named], rhs: &[Named], dim: i64) -> Result<(), String> {
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            if l.rank() != r.rank() {
                return Err(format!(
                    "{ln} has rank {} but {rn} has rank {}",
                    l.rank(),
                    r.rank()
                ));
            }
            let skip = if dim < 0 { l.rank() as i64 + dim } else { dim };
            let differs = (0..l.rank()).find(|&i| i as i64 != skip && l.shape[i] != r.shape[i]);
            if let Some(i) = differs {
                return Err(format!(
                    "{ln} shape {:?} differs from {rn} shape {:?} at dim {i}, not only at dim {dim}",
                    l.shape, r.shape
                ));
            }
        }
    }
    Ok(())
}

/// Every dim of each `lhs` tensor is at most the same dim of each `rhs` tensor of its rank, but
/// dim `except` (negative = from the end).
pub fn dims_at_most(lhs: &[Named], rhs: &[Named], except: Option<i64>) -> Result<(), String> {
    for (ln, l) in lhs {
        for (rn, r) in rhs.iter().filter(|(_, r)| r.rank() == l.rank()) {
            let skip = except.map(|d| if d < 0 { l.rank() as i64 + d } else { d });
            let over = (0..l.rank()).find(|&i| Some(i as i64) != skip && l.shape[i] > r.shape[i]);
            if let Some(i) = over {
                return Err(format!(
                    "{ln} dim {i} is {} but {rn} dim {i} is {}",
                    l.shape[i], r.shape[i]
                ));
            }
        }
    }
    Ok(())
}

/// Each `from` tensor broadcasts one-way to each `to` tensor: same rank, every dim equal or 1 in
/// `from`; when `dims` is given (negative = from the end), only those dims may differ.
pub fn broadcastable(from: &[Named], to: &[Named], dims: Option<&[i64]>) -> Result<(), String> {
    for (fname, f) in from {
        for (tname, t) in to {
            broadcast_one(fname, f, tname, t, dims)?;
        }
    }
    Ok(())
}

/// The tensors broadcast together: aligned from the end, every dim is 1 or the common size.
pub fn broadcast_together(ts: &[Named]) -> Result<(), String> {
    let rank = ts.iter().map(|(_, t)| t.rank()).max().unwrap_or(0);
    for i in 0..rank {
        let mut size: Option<(i64, &str)> = None;
        for (name, t) in ts {
            let Some(&d) = (i + t.rank())
                .checked_sub(rank)
                .and_then(|j| t.shape.get(j))
            else {
                continue;
            };
            if d == 1 {
                continue;
            }
            match size {
                None => size = Some((d, name)),
                Some((s, other)) if s != d => {
                    return Err(format!(
                        "{name} and {other} do not broadcast: {d} vs {s} at dim {i} from the left of the broadcast shape"
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Each `out` tensor has the shape the `ts` broadcast to.
pub fn broadcast_shape(ts: &[Named], out: &[Named]) -> Result<(), String> {
    broadcast_together(ts)?;
    let rank = ts.iter().map(|(_, t)| t.rank()).max().unwrap_or(0);
    let shape: Vec<i64> = (0..rank)
        .map(|i| {
            ts.iter()
                .filter_map(|(_, t)| (i + t.rank()).checked_sub(rank).map(|j| t.shape[j]))
                .find(|&d| d != 1)
                .unwrap_or(1)
        })
        .collect();
    for (name, o) in out {
        if o.shape != shape {
            let inputs: Vec<&str> = ts.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "{name} has shape {:?} but {} broadcast to {shape:?}",
                o.shape,
                inputs.join(", ")
            ));
        }
    }
    Ok(())
}

/// Lists (named with their lengths) of one length.
pub fn list_len_same(lens: &[(&str, usize)]) -> Result<(), String> {
    let Some((first, want)) = lens.first() else {
        return Ok(());
    };
    match lens.iter().find(|(_, l)| l != want) {
        None => Ok(()),
        Some((name, l)) => Err(format!("{name} has length {l} but {first} has {want}")),
    }
}

fn broadcast_one(
    fname: &str,
    f: &TensorDesc,
    tname: &str,
    t: &TensorDesc,
    dims: Option<&[i64]>,
) -> Result<(), String> {
    let fail = |why: String| {
        Err(format!(
            "{fname} shape {:?} does not broadcast to {tname} shape {:?}: {why}",
            f.shape, t.shape
        ))
    };
    // Without named dims, numpy rules: `from` may have fewer dims, aligned from the end. Named
    // dims ("仅支持HW维度") are positions of one shared rank.
    let lead = match dims {
        None if f.rank() <= t.rank() => t.rank() - f.rank(),
        _ if f.rank() != t.rank() => return fail(format!("{} dims vs {}", f.rank(), t.rank())),
        _ => 0,
    };
    let rank = t.rank() as i64;
    for (i, (&a, &b)) in f.shape.iter().zip(&t.shape[lead..]).enumerate() {
        if a == b {
            continue;
        }
        let i = (i + lead) as i64;
        let may_differ = match dims {
            None => true,
            Some(ds) => ds.iter().any(|&d| d == i || d + rank == i),
        };
        if !may_differ {
            return fail(format!("dim {i} must be equal ({a} vs {b})"));
        }
        if a != 1 {
            return fail(format!("dim {i} is {a}, neither 1 nor {b}"));
        }
    }
    Ok(())
}

pub fn dims_positive(ts: &[Named], allow_zero: bool) -> Result<(), String> {
    let bad = |d: i64| if allow_zero { d < 0 } else { d <= 0 };
    for (name, t) in ts {
        if let Some((i, d)) = t.shape.iter().enumerate().find(|(_, d)| bad(**d)) {
            return Err(format!(
                "{name} dim {i} is {d} (must be {})",
                if allow_zero { ">= 0" } else { "> 0" }
            ));
        }
    }
    Ok(())
}

pub fn not_empty(ts: &[Named]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| t.is_empty()) {
        None => Ok(()),
        Some((name, t)) => Err(format!("{name} is an empty tensor (shape {:?})", t.shape)),
    }
}

pub fn numel_in(ts: &[Named], values: &[i64]) -> Result<(), String> {
    for (name, t) in ts {
        let n = t.numel();
        if !n.is_some_and(|n| values.contains(&n)) {
            return Err(format!(
                "{name} has {} elements (supported: {})",
                n.map_or("too many".to_string(), |n| n.to_string()),
                join(values)
            ));
        }
    }
    Ok(())
}

pub fn contiguous(ts: &[Named]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| !t.is_contiguous()) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} is not contiguous (strides {:?})",
            t.strides.as_deref().unwrap_or_default()
        )),
    }
}

pub fn list_len_in(name: &str, len: usize, lens: &[usize]) -> Result<(), String> {
    if lens.contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "{name} has length {len} (supported: {})",
            join(lens)
        ))
    }
}

fn range_text(min: Option<i64>, max: Option<i64>) -> String {
    let lo = min.map_or("-inf".to_string(), |v| v.to_string());
    let hi = max.map_or("inf".to_string(), |v| v.to_string());
    format!("[{lo}, {hi}]")
}

fn in_range(v: i64, min: Option<i64>, max: Option<i64>) -> bool {
    !matches!(min, Some(m) if v < m) && !matches!(max, Some(m) if v > m)
}

pub fn list_elems_in_range(
    name: &str,
    elems: &[i64],
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    match elems
        .iter()
        .enumerate()
        .find(|(_, v)| !in_range(**v, min, max))
    {
        None => Ok(()),
        Some((i, v)) => Err(format!(
            "{name}[{i}] is {v}, outside {}",
            range_text(min, max)
        )),
    }
}

pub fn list_unique(name: &str, elems: &[i64]) -> Result<(), String> {
    for (i, v) in elems.iter().enumerate() {
        if let Some(j) = elems[..i].iter().position(|w| w == v) {
            return Err(format!("{name}[{j}] and {name}[{i}] are both {v}"));
        }
    }
    Ok(())
}

pub fn int_in_range(name: &str, v: i64, min: Option<i64>, max: Option<i64>) -> Result<(), String> {
    if in_range(v, min, max) {
        Ok(())
    } else {
        Err(format!("{name} is {v}, outside {}", range_text(min, max)))
    }
}

/// An integer attribute (a bool as 0/1), or each element of a list attribute ("dilation的数值不
/// 等于1" is about every element of `dilation`); `None` when null.
pub fn arg_ints(name: &str, a: Option<&Arg>) -> Result<Option<Vec<i64>>, String> {
    match a.filter(|a| !a.is_null()) {
        None => Ok(None),
        // A bool counts as 0/1 ("modulated参数不等于true" holds it to 1).
        Some(Arg::Bool(b)) => Ok(Some(vec![i64::from(*b)])),
        Some(a) => a
            .as_int()
            .map(|v| vec![v])
            .or_else(|| a.as_int_list())
            .map(Some)
            .ok_or_else(|| format!("{name} is not an integer")),
    }
}

/// A range check on a number (integer or floating: "lambda小于0" is about a float) or on every
/// element of a list attribute. Null arguments pass.
pub fn value_in_range(
    name: &str,
    a: &Arg,
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    if a.is_null() {
        return Ok(());
    }
    if let Some(v) = a.as_int() {
        return int_in_range(name, v, min, max);
    }
    if let Some(x) = a.as_f64() {
        let ok = min.is_none_or(|m| x >= m as f64) && max.is_none_or(|m| x <= m as f64);
        return if ok {
            Ok(())
        } else {
            Err(format!("{name} is {x}, outside {}", range_text(min, max)))
        };
    }
    match a.as_int_list() {
        Some(vs) => vs
            .into_iter()
            .try_for_each(|v| int_in_range(name, v, min, max)),
        None => Err(format!("{name} is not a number")),
    }
}

/// The number (or each element of a list) is not `value`; a null argument is not checked.
pub fn value_not(name: &str, a: &Arg, value: i64) -> Result<(), String> {
    if a.is_null() {
        return Ok(());
    }
    let hit = if let Some(v) = a.as_int() {
        v == value
    } else if let Some(x) = a.as_f64() {
        x == value as f64
    } else {
        match a.as_int_list() {
            Some(vs) => vs.contains(&value),
            None => return Err(format!("{name} is not a number")),
        }
    };
    if hit {
        Err(format!("{name} is {value}, which is not supported"))
    } else {
        Ok(())
    }
}

pub fn int_in(name: &str, v: i64, values: &[i64]) -> Result<(), String> {
    if values.contains(&v) {
        Ok(())
    } else {
        Err(format!("{name} is {v} (supported: {})", join(values)))
    }
}

/// A string attribute's text; `None` when null.
pub fn arg_str<'a>(name: &str, a: Option<&'a Arg>) -> Result<Option<&'a str>, String> {
    match a.filter(|a| !a.is_null()) {
        None => Ok(None),
        Some(a) => a
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("{name} is not a string")),
    }
}

/// The string attribute is one of `values`, compared exactly.
pub fn str_in<S: AsRef<str>>(name: &str, v: &str, values: &[S]) -> Result<(), String> {
    if values.iter().any(|x| x.as_ref() == v) {
        Ok(())
    } else {
        let supported: Vec<String> = values
            .iter()
            .map(|x| format!("\"{}\"", x.as_ref()))
            .collect();
        Err(format!(
            "{name} is \"{v}\" (supported: {})",
            supported.join(", ")
        ))
    }
}

/// The attribute (an integer, or each element of a list) is a dim index of the first tensor:
/// `[-rank, rank-1]`, with a 0-dim tensor indexed like a 1-dim one. Null arguments pass.
pub fn axis_in(name: &str, a: Option<&Arg>, ts: &[Named]) -> Result<(), String> {
    let Some((tname, t)) = ts.first() else {
        return Ok(());
    };
    let values = match a.filter(|a| !a.is_null()) {
        None => return Ok(()),
        Some(a) => a
            .as_int()
            .map(|v| vec![v])
            .or_else(|| a.as_int_list())
            .ok_or_else(|| format!("{name} is not an integer"))?,
    };
    let r = t.rank().max(1) as i64;
    match values.iter().find(|v| **v < -r || **v >= r) {
        None => Ok(()),
        Some(v) => Err(format!(
            "{name} = {v} is not a dim of {tname} (rank {}): allowed [{}, {}]",
            t.rank(),
            -r,
            r - 1
        )),
    }
}

/// `lhs <= rhs` for two numeric attributes (integers or doubles: "from大于to"); a null one is
/// not checked.
pub fn value_at_most(
    lhs_name: &str,
    lhs: Option<&Arg>,
    rhs_name: &str,
    rhs: Option<&Arg>,
) -> Result<(), String> {
    let l = arg_number(lhs_name, lhs)?;
    let r = arg_number(rhs_name, rhs)?;
    match (l, r) {
        (Some(l), Some(r)) if l > r => Err(format!("{lhs_name} = {l} exceeds {rhs_name} = {r}")),
        _ => Ok(()),
    }
}

/// A tensor factor of `ProductsEqual`: dim `dim` of the tensor (negative = from the end).
pub fn factor_dim(ts: &[Named], dim: i64) -> Option<i64> {
    let (_, t) = ts.first()?;
    let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
    usize::try_from(i)
        .ok()
        .and_then(|i| t.shape.get(i).copied())
}

/// The product of the tensor's dims from `from` on (1 when it has no more).
pub fn factor_dims_from(ts: &[Named], from: usize) -> Option<i64> {
    let (_, t) = ts.first()?;
    t.shape
        .iter()
        .skip(from)
        .try_fold(1i64, |acc, d| acc.checked_mul(*d))
}

pub fn factor_numel(ts: &[Named]) -> Option<i64> {
    ts.first().and_then(|(_, t)| t.numel())
}

/// A factor's value: unknown (`Ok(None)`) or an argument of the wrong kind (`Err`).
pub type FactorValue = Result<Option<i64>, String>;

/// The products of two lists of factors are equal; any unknown factor skips the check.
pub fn products_equal(
    lhs_text: &str,
    lhs: &[FactorValue],
    rhs_text: &str,
    rhs: &[FactorValue],
) -> Result<(), String> {
    let product = |fs: &[FactorValue]| -> Result<Option<i64>, String> {
        let mut acc = Some(1i64);
        for f in fs {
            let f = f.clone()?;
            acc = acc.zip(f).and_then(|(a, f)| a.checked_mul(f));
        }
        Ok(acc)
    };
    match (product(lhs)?, product(rhs)?) {
        (Some(l), Some(r)) if l != r => Err(format!("{lhs_text} is {l} but {rhs_text} is {r}")),
        _ => Ok(()),
    }
}

/// Integer attribute `name` is a multiple of integer attribute `by_name` (a `by` of 0 is not
/// checked).
pub fn attr_multiple_of(
    name: &str,
    value: Option<&Arg>,
    by_name: &str,
    by: Option<&Arg>,
) -> Result<(), String> {
    match (arg_int(name, value)?, arg_int(by_name, by)?) {
        (Some(v), Some(b)) if b != 0 && v % b != 0 => {
            Err(format!("{name} = {v} is not a multiple of {by_name} = {b}"))
        }
        _ => Ok(()),
    }
}

/// Element-wise `num * lhs[i] <= den * rhs[i]`; a missing element repeats the list's first
/// (aclnn expands length-1 lists). Empty lists are not checked.
pub fn list_elems_at_most_fraction(
    lhs_name: &str,
    lhs: &[i64],
    rhs_name: &str,
    rhs: &[i64],
    num: i64,
    den: i64,
) -> Result<(), String> {
    let (Some(&l0), Some(&r0)) = (lhs.first(), rhs.first()) else {
        return Ok(());
    };
    for i in 0..lhs.len().max(rhs.len()) {
        let l = *lhs.get(i).unwrap_or(&l0);
        let r = *rhs.get(i).unwrap_or(&r0);
        if (num as i128) * (l as i128) > (den as i128) * (r as i128) {
            return Err(format!(
                "{lhs_name}[{i}] = {l} exceeds {den}/{num} of {rhs_name}[{i}] = {r}"
            ));
        }
    }
    Ok(())
}

/// The product of the trailing `dims` dims (all dims when the rank is smaller) is at most `max`.
pub fn element_count_max(ts: &[Named], dims: usize, max: i64) -> Result<(), String> {
    for (name, t) in ts {
        let skip = t.rank().saturating_sub(dims);
        let count = t.shape[skip..]
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d.max(0)));
        match count {
            Some(c) if c <= max => {}
            _ => {
                return Err(format!(
                    "{name}: the product of its last {dims} dims {:?} exceeds {max}",
                    &t.shape[skip..]
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn td(shape: &[i64]) -> TensorDesc {
        TensorDesc::new(shape, DType::Float32, Format::Nd)
    }

    #[test]
    fn string_and_any_element_conditions_never_hold_on_null() {
        let s = Arg::Str("static".into());
        assert!(when_str(Some(&s), &["static", "dynamic"], false));
        assert!(!when_str(Some(&s), &["static"], true));
        assert!(!when_str(Some(&s), &["STATIC"], false));
        assert!(!when_str(None, &["static"], false));
        assert!(!when_str(Some(&Arg::Null), &["static"], true));
        assert!(!when_str(Some(&Arg::Int(1)), &["1"], true));
        let pads = Arg::IntArray(vec![0, -2, 3]);
        assert!(when_any_elem(Some(&pads), Some(1), None));
        assert!(when_any_elem(Some(&pads), None, Some(-1)));
        assert!(when_any_elem(Some(&pads), Some(0), Some(0)));
        assert!(!when_any_elem(Some(&pads), Some(4), None));
        assert!(!when_any_elem(Some(&Arg::IntArray(vec![])), None, None));
        assert!(!when_any_elem(None, None, None));
        assert!(!when_any_elem(Some(&Arg::Int(5)), Some(1), None));
    }

    #[test]
    fn a_reserved_pointer_must_be_null() {
        assert_eq!(is_null("r", false), Ok(()));
        assert_eq!(is_null("r", true), Err("r is not a null pointer".into()));
    }

    #[test]
    fn a_bool_counts_as_zero_or_one_where_an_integer_is_enumerated() {
        assert_eq!(arg_ints("m", Some(&Arg::Bool(true))), Ok(Some(vec![1])));
        assert_eq!(arg_ints("m", Some(&Arg::Bool(false))), Ok(Some(vec![0])));
        assert!(int_in("m", 0, &[1]).is_err());
    }

    #[test]
    fn tensor_lists_have_one_shape_element_by_element() {
        let x1 = [td(&[2, 3]), td(&[1, 3])];
        let x2 = [td(&[2, 3]), td(&[1, 3])];
        let mut ts = list("x1", Some(&x1));
        ts.extend(list("x2", Some(&x2)));
        assert!(shape_same(&ts).is_ok(), "x1[i] matches x2[i]");
        let other = [td(&[2, 3]), td(&[2, 3])];
        let mut ts = list("x1", Some(&x1));
        ts.extend(list("x2", Some(&other)));
        let err = shape_same(&ts).unwrap_err();
        assert!(err.contains("x2[1]") && err.contains("x1[1]"), "{err}");
        // One list alone: all its tensors have one shape.
        assert!(shape_same(&list("x1", Some(&x1))).is_err());
        // A plain tensor matches every element.
        let out = td(&[2, 3]);
        let mut ts = list("x1", Some(&x1));
        ts.extend(one("out", Some(&out)));
        assert!(shape_same(&ts).is_err());
    }

    #[test]
    fn dims_at_most_but_the_excepted_one() {
        let (index, src) = (td(&[2, 5, 3]), td(&[2, 4, 3]));
        let (i, s) = (one("index", Some(&index)), one("src", Some(&src)));
        assert!(dims_at_most(&i, &s, None).is_err());
        assert!(dims_at_most(&i, &s, Some(1)).is_ok());
        assert!(dims_at_most(&i, &s, Some(-2)).is_ok());
        assert!(dims_at_most(&i, &s, Some(0)).is_err());
        // Another rank: another rule's concern.
        assert!(dims_at_most(&i, &one("src", Some(&td(&[1]))), None).is_ok());
    }

    #[test]
    fn a_shape_from_a_base_and_a_list_keeps_the_leading_dims() {
        let self_ = td(&[2, 3, 8, 8]);
        let base = one("self", Some(&self_));
        let from = |shape: &[i64], list: &[i64]| {
            shape_from_list(
                &one("out", Some(&td(shape))),
                &base,
                "outputSize",
                Some(list),
            )
        };
        assert!(from(&[2, 3, 4, 5], &[4, 5]).is_ok());
        assert!(from(&[2, 3, 4, 4], &[4, 5]).is_err());
        assert!(from(&[2, 1, 4, 5], &[4, 5]).is_err());
        assert!(from(&[3, 4, 5], &[4, 5]).is_err());
        // A base shorter than the list is the rank rule's concern; a null list is not checked.
        assert!(from(&[4, 5, 6], &[4, 5, 6, 7, 8]).is_ok());
        assert!(shape_from_list(&one("out", Some(&td(&[1]))), &base, "outputSize", None).is_ok());
    }

    #[test]
    fn an_output_has_the_broadcast_shape_exactly() {
        let (a, b) = (td(&[4, 1, 3]), td(&[5, 1]));
        let ins = [one("a", Some(&a)), one("b", Some(&b))].concat();
        assert!(broadcast_shape(&ins, &one("out", Some(&td(&[4, 5, 3])))).is_ok());
        // Larger than the broadcast shape: every input still broadcasts to it, yet it is wrong.
        let err = broadcast_shape(&ins, &one("out", Some(&td(&[2, 4, 5, 3])))).unwrap_err();
        assert!(err.contains("broadcast to [4, 5, 3]"), "{err}");
        assert!(broadcast_shape(&ins, &one("out", Some(&td(&[4, 1, 3])))).is_err());
        // Inputs that do not broadcast have no broadcast shape.
        let c = td(&[2, 4]);
        let bad = [one("a", Some(&a)), one("c", Some(&c))].concat();
        assert!(broadcast_shape(&bad, &one("out", Some(&td(&[4, 2, 4])))).is_err());
    }

    #[test]
    fn broadcast_only_in_allowed_dims() {
        let g = td(&[2, 3, 1, 1]);
        let s = td(&[2, 3, 4, 5]);
        let hw: &[i64] = &[-2, -1];
        assert!(broadcastable(&one("g", Some(&g)), &one("s", Some(&s)), Some(hw)).is_ok());
        let bad_c = td(&[2, 1, 4, 5]);
        assert!(broadcastable(&one("g", Some(&bad_c)), &one("s", Some(&s)), Some(hw)).is_err());
        assert!(broadcastable(&one("g", Some(&bad_c)), &one("s", Some(&s)), None).is_ok());
        let not_one = td(&[2, 3, 2, 5]);
        assert!(broadcastable(&one("g", Some(&not_one)), &one("s", Some(&s)), None).is_err());
        // Without named dims, numpy rules: fewer dims align from the end; more never fit.
        assert!(broadcastable(&one("g", Some(&td(&[4, 1]))), &one("s", Some(&s)), None).is_ok());
        assert!(broadcastable(&one("g", Some(&td(&[3, 5]))), &one("s", Some(&s)), None).is_err());
        assert!(broadcastable(&one("g", Some(&s)), &one("s", Some(&td(&[4, 5]))), None).is_err());
        assert!(
            broadcastable(&one("g", Some(&td(&[1, 1]))), &one("s", Some(&s)), Some(hw)).is_err()
        );
    }

    #[test]
    fn promotion_follows_the_table() {
        use DType::*;
        assert_eq!(promote(Float16, BFloat16), Some(Float32));
        assert_eq!(promote(Int8, UInt8), Some(Int16));
        assert_eq!(promote(Int32, Float16), Some(Float16));
        assert_eq!(promote(Bool, Int64), Some(Int64));
        assert_eq!(promote(Complex64, Float64), Some(Complex128));
        assert_eq!(promote(String, Float32), None);
        assert!(can_cast(Int32, Float32));
        assert!(!can_cast(Float32, Int32));
        assert!(!can_cast(Int8, Bool));
        assert!(!can_cast(Complex64, Float64));
    }

    #[test]
    fn dims_positive_respects_zero() {
        let z = td(&[2, 0]);
        assert!(dims_positive(&one("z", Some(&z)), true).is_ok());
        assert!(dims_positive(&one("z", Some(&z)), false).is_err());
        let n = td(&[2, -1]);
        assert!(dims_positive(&one("n", Some(&n)), true).is_err());
    }

    #[test]
    fn dim_multiple_of_checks_the_named_dim_only() {
        let t = td(&[3, 16]);
        let ts = one("x", Some(&t));
        assert!(dim_multiple_of(&ts, -1, 8).is_ok());
        assert!(dim_multiple_of(&ts, 0, 2).is_err());
        assert!(
            dim_multiple_of(&ts, 5, 2).is_ok(),
            "a missing dim is not this rule's concern"
        );
    }

    #[test]
    fn the_channel_axis_follows_the_format() {
        let nchw = TensorDesc::new(&[2, 3, 5, 7], DType::Float32, Format::Nchw);
        let nhwc = TensorDesc::new(&[2, 5, 7, 3], DType::Float32, Format::Nhwc);
        let w = td(&[3]);
        let check = |w: &TensorDesc, input: &TensorDesc, layout| {
            dim_matches_channel(&one("w", Some(w)), 0, &one("input", Some(input)), layout)
        };
        for input in [&nchw, &nhwc] {
            assert!(check(&w, input, None).is_ok());
        }
        let w5 = td(&[5]);
        assert!(check(&w5, &nchw, None).is_err());
        assert!(check(&w5, &nhwc, None).is_err());
        // A layout attribute decides over an ND tensor's format.
        let nd = td(&[2, 5, 7, 3]);
        assert!(check(&w, &nd, Some("NHWC")).is_ok());
        assert!(check(&w, &nd, Some("NCHW")).is_err());
        assert!(check(&td(&[5]), &nd, Some("NCHW")).is_ok());
        // A value that names no layout leaves the tensor's format to decide.
        assert!(check(&td(&[5]), &nd, Some("INVALID")).is_ok());
    }

    #[test]
    fn scaled_dims_and_shapes_equal_but_one_dim() {
        let (x, half, other) = (td(&[4, 6]), td(&[4, 3]), td(&[5, 3]));
        let n = |name, t| one(name, Some(t));
        assert!(dims_scaled(&n("out", &half), &n("self", &x), -1, 1, 2).is_ok());
        assert!(dims_scaled(&n("out", &x), &n("self", &x), -1, 1, 2).is_err());
        assert!(dims_scaled(&n("x", &x), &n("dy", &half), 1, 2, 1).is_ok());
        assert!(shape_same_except(&n("out", &half), &n("self", &x), 1).is_ok());
        assert!(shape_same_except(&n("out", &other), &n("self", &x), 1).is_err());
        assert!(shape_same_except(&n("out", &td(&[4])), &n("self", &x), 0).is_err());
    }

    #[test]
    fn scalars_cast_to_the_promoted_dtype() {
        let f = Arg::Scalar {
            dtype: DType::Float32,
            value: 5.9,
        };
        let i = TensorDesc::new(&[2], DType::Int32, Format::Nd);
        let target = promoted_dtype(&one("self", Some(&i)));
        assert!(scalar_castable("alpha", Some(&f), target).is_err());
        // A float other lifts aclnnAdds' INT32 self to FLOAT, which a float alpha casts to.
        let other = scalars(&[("other", Some(&f))]);
        let lifted = promoted_dtype_with(&one("self", Some(&i)), &other);
        assert_eq!(lifted, Some(DType::Float32));
        assert!(scalar_castable("alpha", Some(&f), lifted).is_ok());
        assert!(scalar_castable("alpha", Some(&f), Some(DType::Float16)).is_ok());
        assert!(scalar_castable("alpha", None, target).is_ok());
    }

    #[test]
    fn a_scalar_promotes_only_from_a_higher_category() {
        use DType::*;
        assert_eq!(promote_with_scalar(Int64, Float64), Some(Float32));
        assert_eq!(promote_with_scalar(Bool, Float16), Some(Float32));
        assert_eq!(promote_with_scalar(Float16, Float64), Some(Float16));
        assert_eq!(promote_with_scalar(Int8, Int64), Some(Int8));
        assert_eq!(promote_with_scalar(Bool, Int32), Some(Int32));
        assert_eq!(promote_with_scalar(Int32, Complex128), Some(Complex64));
        assert_eq!(promote_with_scalar(Float64, Complex64), Some(Complex128));
        assert_eq!(promote_with_scalar(Float16, Complex64), Some(Complex64));
        assert_eq!(promote_with_scalar(Complex64, Float64), Some(Complex64));
        assert_eq!(promote_with_scalar(String, Float32), None);
    }

    #[test]
    fn scalars_join_the_promotion_of_tensors() {
        let i32t = TensorDesc::new(&[2], DType::Int32, Format::Nd);
        let f32t = TensorDesc::new(&[2], DType::Float32, Format::Nd);
        let f = Arg::Scalar {
            dtype: DType::Float32,
            value: 0.5,
        };
        let i = Arg::Scalar {
            dtype: DType::Int64,
            value: 1.0,
        };
        let ss = scalars(&[
            ("value", Some(&f)),
            ("alpha", None),
            ("x", Some(&Arg::Int(1))),
        ]);
        assert_eq!(ss, vec![("value".to_string(), DType::Float32)]);
        let me = one("self", Some(&i32t));
        // INT32 with a float scalar promotes to FLOAT, which an INT32 out cannot hold.
        let err = dtype_castable_with(&me, &ss, &me).unwrap_err();
        assert!(err.contains("FLOAT32"), "{err}");
        assert!(dtype_castable_with(&me, &ss, &one("out", Some(&f32t))).is_ok());
        // An integer scalar leaves integer tensors as they are.
        let si = scalars(&[("other", Some(&i))]);
        assert!(dtype_castable_with(&me, &si, &me).is_ok());
        assert!(dtype_castable(&me, &me).is_ok());
        assert!(dtype_promotable_with(&me, &ss).is_ok());
        // Scalars alone promote among themselves.
        assert!(dtype_castable_with(&[], &ss, &me).is_err());
        let u = TensorDesc::new(&[2], DType::UInt32, Format::Nd);
        let bad = [me.clone(), one("other", Some(&u))].concat();
        let err = dtype_promotable_with(&bad, &ss).unwrap_err();
        assert!(err.contains("self, other, value"), "{err}");
    }

    #[test]
    fn element_count_uses_trailing_dims() {
        let t = td(&[2, 1000, 2000, 2000]);
        assert!(element_count_max(&one("t", Some(&t)), 3, i32::MAX as i64).is_err());
        assert!(element_count_max(&one("t", Some(&t)), 2, i32::MAX as i64).is_ok());
    }

    #[test]
    fn list_labels_elements() {
        let ts = vec![td(&[1]), td(&[2])];
        let named = list("xs", Some(&ts));
        let err = shape_same(&named).unwrap_err();
        assert!(err.contains("xs[1]"), "{err}");
    }
}
