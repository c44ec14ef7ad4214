//! Cases of the dtypes rules (`Family::Dtypes`): calls that break a rule, derived
//! from a valid baseline.

use super::*;

pub(super) fn mutate(
    op: &OpIr,
    rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    product: &str,
) -> NamedCalls {
    let active = active_rules(rules, product);
    let g = groups(&active);
    let dtype_mates = |p: &str| g.dtype.members(p, tensor_params(op));
    match rule {
        Rule::DtypeIn { param, allowed } => {
            let ok = allowed.get(product).cloned().unwrap_or_default();
            let bad: Vec<DType> = DType::ALL
                .iter()
                .copied()
                .filter(|d| !ok.contains(d))
                .take(4)
                .collect();
            if let Some(Arg::Scalar { value, .. }) = base.args.get(param) {
                let calls = bad
                    .iter()
                    .map(|d| {
                        let scalar = Arg::Scalar {
                            dtype: *d,
                            value: *value,
                        };
                        with_arg(base, param, scalar)
                    })
                    .collect();
                return vec![(format!("dtype_{param}_unsupported_on_{product}"), calls)];
            }
            let calls = bad
                .iter()
                .flat_map(|d| {
                    [
                        set_tensors(base, std::slice::from_ref(param), |t| t.dtype = *d),
                        set_tensors(base, &dtype_mates(param), |t| t.dtype = *d),
                    ]
                })
                .collect();
            vec![(format!("dtype_{param}_unsupported_on_{product}"), calls)]
        }
        Rule::DtypeIsArg { param, arg } => {
            let Some(t) = tensor_of(base, param) else {
                return Vec::new();
            };
            let other = [DType::Float16, DType::Int32]
                .into_iter()
                .find(|d| *d != t.dtype)
                .unwrap_or(DType::Float32);
            let named_other = match base.args.get(arg) {
                Some(Arg::DataType(_)) => Arg::DataType(other),
                // Another value the attribute allows, naming another dtype.
                Some(Arg::Int(_)) => match other_allowed_dtype_number(&active, arg, t.dtype) {
                    Some(n) => Arg::Int(n),
                    None => return Vec::new(),
                },
                _ => return Vec::new(),
            };
            vec![(
                format!("dtype_{param}_not_{arg}"),
                vec![with_arg(base, arg, named_other)],
            )]
        }
        Rule::DtypeSame { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            let current = tensor_of(base, last).map(|t| t.dtype);
            let mut pool = allowed_dtypes(op, &active, last, product).unwrap_or_default();
            pool.extend(DType::ALL.iter().copied().filter(|d| d.is_tensor_dtype()));
            let calls = pool
                .into_iter()
                .filter(|d| Some(*d) != current)
                .take(6)
                .map(|d| set_tensors(base, std::slice::from_ref(last), |t| t.dtype = d))
                .collect();
            vec![(format!("dtype_{last}_differs"), calls)]
        }
        Rule::ScalarCastable { scalars, to, dtype } => {
            let Some(target) = cast_target(base, to, *dtype) else {
                return Vec::new();
            };
            let bad = [DType::Complex64, DType::Float32, DType::Int64]
                .into_iter()
                .find(|d| !aclnn_runtime::pred::can_cast(*d, target));
            let Some(bad) = bad else {
                return Vec::new();
            };
            scalars
                .iter()
                .map(|s| {
                    let scalar = Arg::Scalar {
                        dtype: bad,
                        value: 1.0,
                    };
                    (
                        format!("dtype_{s}_not_castable"),
                        vec![with_arg(base, s, scalar)],
                    )
                })
                .collect()
        }
        Rule::DtypePromotable { params } => {
            const UNPROMOTABLE: [DType; 3] = [DType::String, DType::Float8E4M3Fn, DType::HiFloat8];
            // The last tensor, and each scalar (a tensor's dtype list may reject the dtype first).
            let mut cases = Vec::new();
            if let Some(last) = params.iter().rev().find(|p| tensor_of(base, p).is_some()) {
                let calls = UNPROMOTABLE
                    .into_iter()
                    .map(|d| set_tensors(base, std::slice::from_ref(last), move |t| t.dtype = d))
                    .collect();
                cases.push((format!("dtype_{last}_not_promotable"), calls));
            }
            for s in scalars_of(base, params) {
                let calls = UNPROMOTABLE
                    .into_iter()
                    .map(|d| with_scalar_dtype(base, s, d))
                    .collect();
                cases.push((format!("dtype_{s}_not_promotable"), calls));
            }
            cases
        }
        Rule::DtypeCastable { from, to } => {
            let calls = [DType::Bool, DType::Int32, DType::Int8]
                .into_iter()
                .map(|d| set_tensors(base, std::slice::from_ref(to), move |t| t.dtype = d))
                .collect();
            let mut cases = vec![(format!("dtype_{to}_not_castable"), calls)];
            // A scalar of a higher category lifts the promoted dtype past `to` (an INT32 self
            // with a FLOAT value, into an INT32 out).
            for s in scalars_of(base, from) {
                let calls = [DType::Float32, DType::Complex64]
                    .into_iter()
                    .map(|d| with_scalar_dtype(base, s, d))
                    .collect();
                cases.push((format!("dtype_{s}_promotes_past_{to}"), calls));
            }
            cases
        }
        _ => Vec::new(),
    }
}

/// The params that are `aclScalar` arguments on `call`.
fn scalars_of<'a>(call: &Call, params: &'a [String]) -> Vec<&'a String> {
    params
        .iter()
        .filter(|p| matches!(call.args.get(p.as_str()), Some(Arg::Scalar { .. })))
        .collect()
}

/// A copy of `base` whose scalar `name` has dtype `dtype` (its value kept).
fn with_scalar_dtype(base: &Call, name: &str, dtype: DType) -> Call {
    let value = match base.args.get(name) {
        Some(Arg::Scalar { value, .. }) => *value,
        _ => 1.0,
    };
    with_arg(base, name, Arg::Scalar { dtype, value })
}

/// A value of `name`'s `IntIn` rule that names a dtype other than `not`; without such a rule,
/// the number of FLOAT16 or INT32.
fn other_allowed_dtype_number(rules: &[&Rule], name: &str, not: DType) -> Option<i64> {
    let names_other = |n: i64| aclnn_runtime::pred::acl_number_dtype(n).is_some_and(|d| d != not);
    match listed_int_values(rules, name) {
        Some(values) => values.into_iter().find(|n| names_other(*n)),
        None => [DType::Float16, DType::Int32]
            .into_iter()
            .find(|d| *d != not)
            .and_then(DType::acl_value)
            .map(i64::from),
    }
}
