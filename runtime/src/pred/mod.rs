//! The predicates behind every rule, on typed values. The interpreter (`crate::check`) and the
//! generated validators both call these, so a rule means the same thing in both; what differs
//! is how arguments are bound to rule parameters and in which order rules run.
//!
//! Each predicate returns `Err(message)` saying what in the call broke it.

use crate::vocab::{DType, Format};
use crate::{AclnnError, Arg, TensorDesc, TensorState};

mod dtypes;
mod shapes;
mod values;

pub use dtypes::*;
pub use shapes::*;
pub use values::*;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn td(shape: &[i64]) -> TensorDesc {
        TensorDesc::new(shape, DType::Float32, Format::Nd)
    }

    #[test]
    fn a_reduced_shape_drops_or_keeps_the_dims_and_states_nothing_it_cannot() {
        assert_eq!(reduced_shape(&[2, 3, 4], &[1, -1], false), Some(vec![2]));
        assert_eq!(
            reduced_shape(&[2, 3, 4], &[1, 1], true),
            Some(vec![2, 1, 4])
        );
        assert_eq!(reduced_shape(&[], &[-1], false), Some(vec![]));
        assert_eq!(reduced_shape(&[2, 3], &[2], false), None);
        let (self_, empty) = (td(&[2, 3]), td(&[2, 0, 4]));
        let x = vec![("self".to_string(), &self_)];
        let outs: Vec<TensorDesc> = [&[2][..], &[2, 1], &[2, 3], &[], &[7], &[2, 4]]
            .iter()
            .map(|s| td(s))
            .collect();
        let out = |i: usize| vec![("out".to_string(), &outs[i])];
        assert!(shape_reduced(&out(0), &x, "dims", Some(&[1]), Some(&[0])).is_ok());
        assert!(shape_reduced(&out(1), &x, "dims", Some(&[1]), Some(&[1])).is_ok());
        let err = shape_reduced(&out(2), &x, "dims", Some(&[1]), Some(&[0]));
        assert_eq!(
            err.unwrap_err(),
            "out has shape [2, 3] but self [2, 3] reduced over dims [1] gives [2]"
        );
        // An empty or null dims list, or an empty base: CANN accepts what the caller gives.
        assert!(shape_reduced(&out(3), &x, "dims", Some(&[]), Some(&[1])).is_ok());
        assert!(shape_reduced(&out(4), &x, "dims", None, Some(&[0])).is_ok());
        let empty = vec![("self".to_string(), &empty)];
        assert!(shape_reduced(&out(5), &empty, "dims", Some(&[1]), Some(&[1])).is_ok());
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
    fn a_padded_shape_grows_the_last_dims_by_pairs() {
        let self_ = td(&[1, 2, 4]);
        let base = one("self", Some(&self_));
        let padded = |shape: &[i64], list: &[i64]| {
            shape_padded(&one("out", Some(&td(shape))), &base, "padding", Some(list))
        };
        // The first pair pads the last dim, the second the one before it.
        assert!(padded(&[1, 8, 6], &[1, 1, 3, 3]).is_ok());
        assert!(padded(&[1, 6, 8], &[1, 1, 3, 3]).is_err());
        assert!(padded(&[1, 2, 4], &[1, 1]).is_err());
        assert!(padded(&[2, 2, 6], &[1, 1]).is_err());
        assert!(padded(&[1, 2, 2], &[-1, -1]).is_ok());
        // An odd list, or more pairs than dims, is another rule's concern; so is a null list.
        assert!(padded(&[9], &[1, 1, 1]).is_ok());
        assert!(padded(&[9], &[1, 1, 1, 1, 1, 1, 1, 1]).is_ok());
        assert!(shape_padded(&one("out", Some(&td(&[1]))), &base, "padding", None).is_ok());
    }

    #[test]
    fn pads_stay_below_the_dims_they_pad() {
        let self_ = td(&[1, 2, 4]);
        let ts = one("self", Some(&self_));
        let below = |list: &[i64]| pads_below_dims("padding", Some(list), &ts);
        // The first pair pads the last dim (4), the second the one before it (2).
        assert!(below(&[3, 3, 1, 1]).is_ok());
        let err = below(&[1, 1, 2, 0]).unwrap_err();
        assert_eq!(err, "padding[2] = 2 is not below dim -2 of self (2)");
        assert!(below(&[4, 0]).is_err());
        assert!(below(&[-5, 3]).is_ok());
        // An odd list, or more pairs than dims, is another rule's concern; so is a null list.
        assert!(below(&[9, 9, 9]).is_ok());
        assert!(below(&[9, 9, 9, 9, 9, 9, 9, 9]).is_ok());
        assert!(pads_below_dims("padding", None, &ts).is_ok());
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
