//! Cases of the values rules (`Family::Values`): calls that break a rule, derived
//! from a valid baseline.

use super::*;

pub(super) fn mutate(
    op: &OpIr,
    rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    product: &str,
) -> NamedCalls {
    match rule {
        Rule::ListLenIn { .. }
        | Rule::ListLenSame { .. }
        | Rule::ListUnique { .. }
        | Rule::ListElemsInRange { .. }
        | Rule::ListElemsAtMostFraction { .. } => list_values(op, rules, rule, base, product),
        Rule::IntInRange { .. }
        | Rule::ValueNot { .. }
        | Rule::IntIn { .. }
        | Rule::StrIn { .. }
        | Rule::AxisIn { .. }
        | Rule::PadsBelowDims { .. }
        | Rule::ValueAtMost { .. }
        | Rule::AttrMultipleOf { .. } => single_values(op, rules, rule, base, product),
        _ => Vec::new(),
    }
}

/// Lengths and elements of list attributes.
fn list_values(
    _op: &OpIr,
    _rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    _product: &str,
) -> NamedCalls {
    match rule {
        Rule::ListLenIn { param, lens } => {
            let elem = int_list(base, param)
                .and_then(|l| l.first().copied())
                .unwrap_or(1);
            let bad = lens.iter().max().map_or(1, |m| m + 1);
            // A list of the kind the baseline passes, one longer than any allowed length.
            let list = match base.args.get(param) {
                Some(Arg::BoolArray(v)) => {
                    Arg::BoolArray(vec![v.first().copied().unwrap_or(false); bad])
                }
                Some(Arg::FloatArray(v)) => {
                    Arg::FloatArray(vec![v.first().copied().unwrap_or(1.0); bad])
                }
                _ => Arg::IntArray(vec![elem; bad]),
            };
            let calls = vec![with_arg(base, param, list)];
            vec![(format!("len_{param}_not_allowed"), calls)]
        }
        Rule::ListElemsInRange { param, min, max } => {
            let Some(list) = int_list(base, param) else {
                return Vec::new();
            };
            let calls = out_of_range(*min, *max)
                .into_iter()
                .map(|v| with_arg(base, param, Arg::IntArray(list.iter().map(|_| v).collect())))
                .collect();
            vec![(format!("value_{param}_out_of_range"), calls)]
        }
        Rule::ListElemsAtMostFraction { lhs, rhs, num, den } => {
            let Some(r) = int_list(base, rhs) else {
                return Vec::new();
            };
            let Some(l) = int_list(base, lhs) else {
                return Vec::new();
            };
            let big: Vec<i64> = (0..l.len())
                .map(|k| {
                    let rk = r.get(k).or(r.first()).copied().unwrap_or(1);
                    den.saturating_mul(rk) / (*num).max(1) + 1
                })
                .collect();
            vec![(
                format!("value_{lhs}_exceeds_{rhs}"),
                vec![with_arg(base, lhs, Arg::IntArray(big))],
            )]
        }
        Rule::ListUnique { param } => {
            let Some(list) = int_list(base, param) else {
                return Vec::new();
            };
            let first = list.first().copied().unwrap_or(0);
            vec![(
                format!("value_{param}_repeated"),
                vec![with_arg(
                    base,
                    param,
                    Arg::IntArray(vec![first; list.len().max(2)]),
                )],
            )]
        }
        Rule::ListLenSame { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            let longer = match base.args.get(last) {
                Some(Arg::TensorList(ts)) => {
                    let mut ts = ts.clone();
                    ts.extend(ts.first().cloned());
                    Some(Arg::TensorList(ts))
                }
                Some(Arg::IntArray(v)) => {
                    Some(Arg::IntArray(v.iter().chain(v.first()).copied().collect()))
                }
                _ => None,
            };
            longer
                .map(|a| vec![(format!("len_{last}_differs"), vec![with_arg(base, last, a)])])
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// Values of single attributes and relations between them.
fn single_values(
    _op: &OpIr,
    _rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    _product: &str,
) -> NamedCalls {
    match rule {
        Rule::IntInRange { param, min, max } => {
            let calls = out_of_range(*min, *max)
                .into_iter()
                .map(|v| with_arg(base, param, number_like(base, param, v)))
                .collect();
            vec![(format!("value_{param}_out_of_range"), calls)]
        }
        Rule::ValueNot { param, value } => {
            let calls = vec![with_arg(base, param, number_like(base, param, *value))];
            vec![(format!("value_{param}_is_{value}"), calls)]
        }
        Rule::IntIn { param, values } => {
            let (lo, hi) = (values.iter().min().copied(), values.iter().max().copied());
            let candidates: Vec<i64> = match base.args.get(param) {
                // A bool holds 0 or 1 only: the one the list lacks.
                Some(Arg::Bool(_)) => (0..=1).filter(|v| !values.contains(v)).collect(),
                _ => [hi.map(|h| h + 1), lo.map(|l| l - 1)]
                    .into_iter()
                    .flatten()
                    .collect(),
            };
            let calls = candidates
                .into_iter()
                .map(|v| with_arg(base, param, number_like(base, param, v)))
                .collect();
            vec![(format!("value_{param}_not_enumerated"), calls)]
        }
        Rule::StrIn { param, values } => {
            // A value the list lacks: a listed one with a suffix, and its upper-case spelling
            // (values compare exactly).
            let first = values.first().cloned().unwrap_or_default();
            let calls = [format!("{first}_x"), first.to_uppercase()]
                .into_iter()
                .filter(|v| !values.contains(v))
                .map(|v| with_arg(base, param, Arg::Str(v)))
                .collect();
            vec![(format!("value_{param}_not_enumerated"), calls)]
        }
        Rule::AxisIn { param, tensor } => {
            let rank = tensor_of(base, tensor).map_or(1, |t| t.rank().max(1)) as i64;
            let arg = match base.args.get(param) {
                Some(Arg::IntArray(v)) => Arg::IntArray(vec![rank; v.len().max(1)]),
                _ => Arg::Int(rank),
            };
            vec![(
                format!("value_{param}_not_a_dim_of_{tensor}"),
                vec![with_arg(base, param, arg)],
            )]
        }
        Rule::PadsBelowDims { param, tensor } => {
            // Every pad as large as the largest dim: none is below the dim it pads.
            let largest =
                tensor_of(base, tensor).map_or(1, |t| t.shape.iter().copied().max().unwrap_or(1));
            let len = match base.args.get(param) {
                Some(Arg::IntArray(v)) => v.len(),
                _ => 0,
            };
            vec![(
                format!("value_{param}_not_below_dims_of_{tensor}"),
                vec![with_arg(
                    base,
                    param,
                    Arg::IntArray(vec![largest.max(1); len]),
                )],
            )]
        }
        Rule::ValueAtMost { lhs, rhs } => {
            let above = match base.args.get(rhs) {
                Some(Arg::Float(r)) => Arg::Float(r + 1.0),
                r => Arg::Int(r.and_then(Arg::as_int).unwrap_or(0).saturating_add(1)),
            };
            vec![(
                format!("value_{lhs}_exceeds_{rhs}"),
                vec![with_arg(base, lhs, above)],
            )]
        }
        Rule::AttrMultipleOf { param, by } => {
            let v = base.args.get(param).and_then(Arg::as_int).unwrap_or(0);
            let call = if v != 0 {
                with_arg(base, by, Arg::Int(v.saturating_abs().saturating_add(1)))
            } else {
                with_arg(&with_arg(base, param, Arg::Int(1)), by, Arg::Int(2))
            };
            vec![(format!("value_{param}_not_multiple_of_{by}"), vec![call])]
        }
        _ => Vec::new(),
    }
}

/// `v` as an argument of the kind the baseline passes for `param` (a float attribute stays a
/// float, a scalar keeps its dtype, each element of a list takes it), so the mutated call still
/// fits the generated function's signature.
fn number_like(base: &Call, param: &str, v: i64) -> Arg {
    match base.args.get(param) {
        Some(Arg::Float(_)) => Arg::Float(v as f64),
        Some(Arg::Scalar { dtype, .. }) => Arg::Scalar {
            dtype: *dtype,
            value: v as f64,
        },
        Some(Arg::IntArray(list)) => Arg::IntArray(vec![v; list.len().max(1)]),
        Some(Arg::Bool(_)) => Arg::Bool(v != 0),
        _ => Arg::Int(v),
    }
}
