//! Predicates on dtypes: allowed lists per product, equality, promotion and casts.

use super::*;

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
