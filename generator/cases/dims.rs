//! Cases of the dims rules (`Family::Dims`): calls that break a rule, derived
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
        Rule::DimsEqual { .. }
        | Rule::DimsScaled { .. }
        | Rule::ShapeSameExcept { .. }
        | Rule::DimsAtMost { .. }
        | Rule::DimMatchesChannel { .. } => dim_relations(op, rules, rule, base, product),
        Rule::DimMultipleOf { .. } | Rule::DimInRange { .. } => {
            dim_bounds(op, rules, rule, base, product)
        }
        _ => Vec::new(),
    }
}

/// One dim against another tensor's.
fn dim_relations(
    _op: &OpIr,
    _rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    _product: &str,
) -> NamedCalls {
    match rule {
        Rule::DimsEqual {
            lhs,
            lhs_dim,
            rhs,
            rhs_dim,
        } => {
            let grow = |d: i64| {
                move |t: &mut TensorDesc| {
                    let i = if d < 0 { t.rank() as i64 + d } else { d };
                    if let Some(x) = usize::try_from(i).ok().and_then(|i| t.shape.get_mut(i)) {
                        *x += 1;
                    }
                }
            };
            // The right side first; the left when changing the right trips another rule
            // (self's shape is pinned to out's, gradOutput's is not). Then the same one rank
            // up, where dims that coincide at the lowest rank part (dim 0 and dim -3 of a CHW
            // tensor are one, of an NCHW tensor two).
            let lifted = with_leading_dim(base);
            let calls = vec![
                set_tensors(base, std::slice::from_ref(rhs), grow(*rhs_dim)),
                set_tensors(base, std::slice::from_ref(lhs), grow(*lhs_dim)),
                set_tensors(&lifted, std::slice::from_ref(rhs), grow(*rhs_dim)),
                set_tensors(&lifted, std::slice::from_ref(lhs), grow(*lhs_dim)),
            ];
            vec![(format!("dim_{rhs}_differs"), calls)]
        }
        Rule::DimMatchesChannel {
            param, dim, tensor, ..
        } => {
            let d = *dim;
            let grow = move |t: &mut TensorDesc| {
                let i = if d < 0 { t.rank() as i64 + d } else { d };
                if let Some(x) = usize::try_from(i).ok().and_then(|i| t.shape.get_mut(i)) {
                    *x += 1;
                }
            };
            let grow_channel = |t: &mut TensorDesc| {
                let axis = aclnn_runtime::pred::channel_axis(t);
                if let Some(x) = t.shape.get_mut(axis) {
                    *x += 1;
                }
            };
            let calls = vec![
                set_tensors(base, std::slice::from_ref(param), grow),
                set_tensors(base, std::slice::from_ref(tensor), grow_channel),
            ];
            vec![(format!("dim_{param}_differs_from_{tensor}_channel"), calls)]
        }
        Rule::DimsScaled {
            lhs,
            rhs,
            dim,
            dim_attr,
            ..
        } => {
            let d = dim_in(base, *dim, dim_attr.as_deref());
            let calls = vec![
                set_tensors(base, std::slice::from_ref(lhs), bump_dim(d)),
                set_tensors(base, std::slice::from_ref(rhs), bump_dim(d)),
            ];
            vec![(format!("dim_{lhs}_not_scaled_{rhs}"), calls)]
        }
        Rule::ShapeSameExcept {
            lhs,
            rhs,
            dim,
            dim_attr,
        } => {
            let d = dim_in(base, *dim, dim_attr.as_deref());
            // Another dim than the excepted one, else one dim more.
            let other = move |t: &mut TensorDesc| {
                let rank = t.rank() as i64;
                let skip = if d < 0 { rank + d } else { d };
                if let Some(i) = (0..rank).find(|i| *i != skip) {
                    t.shape[i as usize] += 1;
                }
            };
            let calls = vec![
                set_tensors(base, std::slice::from_ref(lhs), other),
                set_tensors(base, std::slice::from_ref(lhs), |t| t.shape.push(2)),
            ];
            vec![(format!("shape_{lhs}_differs_from_{rhs}"), calls)]
        }
        Rule::DimsAtMost {
            lhs,
            rhs,
            except_attr,
        } => {
            let skip = except_attr.as_deref().map(|a| dim_in(base, 0, Some(a)));
            // A dim of lhs that may not exceed rhs's, made larger than it.
            let limit = tensor_of(base, rhs)
                .map(|t| t.shape.clone())
                .unwrap_or_default();
            let grow = move |t: &mut TensorDesc| {
                let rank = t.rank() as i64;
                let skip = skip.map(|d| if d < 0 { rank + d } else { d });
                if let Some(i) = (0..rank).find(|i| Some(*i) != skip) {
                    let i = i as usize;
                    t.shape[i] = limit.get(i).copied().unwrap_or(t.shape[i]) + 1;
                }
            };
            vec![(
                format!("shape_{lhs}_exceeds_{rhs}"),
                vec![set_tensors(base, std::slice::from_ref(lhs), grow)],
            )]
        }
        _ => Vec::new(),
    }
}

/// One dim against numbers.
fn dim_bounds(
    op: &OpIr,
    rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    product: &str,
) -> NamedCalls {
    let active = active_rules(rules, product);
    let g = groups(&active);
    let shape_mates = |p: &str| g.shape.members(p, tensor_params(op));
    match rule {
        Rule::DimMultipleOf {
            param,
            dim,
            dim_attr,
            by,
        } => {
            // One more than a multiple is none (by ≥ 2); the tensor's shape mates follow.
            let d = match dim_attr {
                None => *dim,
                Some(a) => base.args.get(a).and_then(Arg::as_int).unwrap_or(0),
            };
            let by = *by;
            let bump = move |t: &mut TensorDesc| {
                let i = if d < 0 { t.rank() as i64 + d } else { d };
                if let Some(x) = usize::try_from(i).ok().and_then(|i| t.shape.get_mut(i)) {
                    *x = (*x / by.max(1)) * by.max(1) + 1;
                }
            };
            let calls = vec![
                set_tensors(base, std::slice::from_ref(param), bump),
                set_tensors(base, &shape_mates(param), bump),
            ];
            vec![(format!("dim_{param}_not_multiple_of_{by}"), calls)]
        }
        Rule::DimInRange {
            param,
            dim,
            min,
            max,
        } => {
            // One below the lower bound (a size is never negative), one above the upper; the
            // tensor's shape mates follow.
            let d = *dim;
            let outside = [
                ("below", min.map(|m| m - 1).filter(|x| *x >= 0)),
                ("above", max.map(|m| m + 1)),
            ];
            outside
                .into_iter()
                .filter_map(|(side, size)| {
                    let size = size?;
                    let set = move |t: &mut TensorDesc| {
                        let i = if d < 0 { t.rank() as i64 + d } else { d };
                        if let Some(x) = usize::try_from(i).ok().and_then(|i| t.shape.get_mut(i)) {
                            *x = size;
                        }
                    };
                    let calls = vec![
                        set_tensors(base, std::slice::from_ref(param), set),
                        set_tensors(base, &shape_mates(param), set),
                    ];
                    Some((format!("dim_{param}_{side}_range"), calls))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}
