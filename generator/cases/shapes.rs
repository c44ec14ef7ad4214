//! Cases of the shapes rules (`Family::Shapes`): calls that break a rule, derived
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
        Rule::RankIn { .. }
        | Rule::RankSame { .. }
        | Rule::ShapeSame { .. }
        | Rule::ShapeMatchesList { .. }
        | Rule::ShapeFromList { .. }
        | Rule::ShapePadded { .. }
        | Rule::ShapeReduced { .. } => ranks_and_shapes(op, rules, rule, base, product),
        Rule::Broadcastable { .. }
        | Rule::BroadcastTogether { .. }
        | Rule::BroadcastShape { .. }
        | Rule::DimsPositive { .. }
        | Rule::NotEmpty { .. }
        | Rule::NumelIn { .. }
        | Rule::Contiguous { .. }
        | Rule::ElementCountMax { .. }
        | Rule::ProductsEqual { .. } => extents(op, rules, rule, base, product),
        _ => Vec::new(),
    }
}

/// Ranks and whole shapes.
fn ranks_and_shapes(
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
        Rule::RankIn { param, min, max } => {
            let mut ranks = vec![max + 1];
            if *min > 0 {
                ranks.push(min - 1);
            }
            let calls = ranks
                .iter()
                .flat_map(|r| {
                    let shape = vec![2i64; *r];
                    let one = shape.clone();
                    [
                        set_tensors(base, std::slice::from_ref(param), move |t| {
                            t.shape = one.clone()
                        }),
                        set_tensors(base, &shape_mates(param), move |t| t.shape = shape.clone()),
                    ]
                })
                .collect();
            vec![(format!("rank_{param}_out_of_range"), calls)]
        }
        Rule::RankSame { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            // The last tensor first; then the others, for when the last one's shape is pinned
            // by another rule (out's shape is self's).
            let mut order: Vec<&String> = vec![last];
            order.extend(params.iter().rev().skip(1));
            let calls = order
                .into_iter()
                .flat_map(|p| {
                    [
                        set_tensors(base, std::slice::from_ref(p), |t| t.shape.push(2)),
                        set_tensors(base, std::slice::from_ref(p), |t| {
                            t.shape.pop();
                        }),
                    ]
                })
                .collect();
            vec![(format!("rank_{last}_differs"), calls)]
        }
        Rule::ShapeSame { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            let calls = (0..tensor_of(base, last).map_or(0, |t| t.rank()))
                .rev()
                .map(|d| set_tensors(base, std::slice::from_ref(last), move |t| t.shape[d] += 1))
                .collect();
            vec![(format!("shape_{last}_differs"), calls)]
        }
        Rule::ShapeMatchesList { param, .. } => {
            let calls = vec![set_tensors(base, std::slice::from_ref(param), |t| {
                if let Some(last) = t.shape.last_mut() {
                    *last += 1;
                }
            })];
            vec![(format!("shape_{param}_differs_from_list"), calls)]
        }
        Rule::ShapeFromList {
            param,
            base: from,
            list,
        } => {
            // One of the list's dims, then one of the dims the base keeps.
            let last = set_tensors(base, std::slice::from_ref(param), bump_dim(-1));
            let kept = tensor_of(base, from)
                .zip(int_list(base, list))
                .and_then(|(b, l)| b.rank().checked_sub(l.len()))
                .filter(|k| *k > 0)
                .map(|_| set_tensors(base, std::slice::from_ref(param), bump_dim(0)));
            vec![(
                format!("shape_{param}_not_from_{from}_and_{list}"),
                std::iter::once(last).chain(kept).collect(),
            )]
        }
        Rule::ShapePadded {
            param,
            base: from,
            list,
        } => {
            // A padded dim, then a dim the padding keeps (where the list leaves one).
            let last = set_tensors(base, std::slice::from_ref(param), bump_dim(-1));
            let kept = tensor_of(base, from)
                .zip(int_list(base, list))
                .filter(|(b, l)| l.len() / 2 < b.rank())
                .map(|_| set_tensors(base, std::slice::from_ref(param), bump_dim(0)));
            vec![(
                format!("shape_{param}_not_{from}_padded_by_{list}"),
                std::iter::once(last).chain(kept).collect(),
            )]
        }
        Rule::ShapeReduced {
            param,
            base: from,
            dims,
            ..
        } => {
            // One dim more than the reduction leaves (a 0-d result has none to change).
            let wrong = set_tensors(base, std::slice::from_ref(param), |t| t.shape.push(2));
            vec![(
                format!("shape_{param}_not_{from}_reduced_over_{dims}"),
                vec![wrong],
            )]
        }
        _ => Vec::new(),
    }
}

/// Broadcasting, sizes, element counts and layout.
fn extents(
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
        Rule::Broadcastable { from, to, .. } => {
            let rank = tensor_of(base, from).map_or(0, |t| t.rank());
            let calls = (0..rank)
                .rev()
                .map(|d| set_tensors(base, std::slice::from_ref(from), move |t| t.shape[d] = 3))
                .collect();
            vec![(format!("shape_{from}_not_broadcastable_to_{to}"), calls)]
        }
        Rule::DimsPositive { param, allow_zero } => {
            let bad = if *allow_zero { -1 } else { 0 };
            let calls = vec![
                set_tensors(base, std::slice::from_ref(param), move |t| {
                    set_first_dim(t, bad)
                }),
                set_tensors(base, &shape_mates(param), move |t| set_first_dim(t, bad)),
            ];
            vec![(format!("dim_{param}_not_positive"), calls)]
        }
        Rule::NotEmpty { param } => {
            let calls = vec![
                set_tensors(base, std::slice::from_ref(param), |t| set_first_dim(t, 0)),
                set_tensors(base, &shape_mates(param), |t| set_first_dim(t, 0)),
            ];
            vec![(format!("empty_{param}"), calls)]
        }
        Rule::Contiguous { param } => {
            let calls = vec![set_tensors(
                base,
                std::slice::from_ref(param),
                make_non_contiguous,
            )];
            vec![(format!("non_contiguous_{param}"), calls)]
        }
        Rule::ElementCountMax { param, dims, max } => {
            let big = max.saturating_add(1);
            let set = move |t: &mut TensorDesc| {
                if let Some(last) = t.shape.last_mut() {
                    *last = big;
                }
            };
            let _ = dims;
            let calls = vec![
                set_tensors(base, std::slice::from_ref(param), set),
                set_tensors(base, &shape_mates(param), set),
            ];
            vec![(format!("numel_{param}_too_large"), calls)]
        }
        Rule::ProductsEqual { lhs, rhs } => {
            // One more in an attribute factor, else in a tensor factor's dims.
            let calls = lhs
                .iter()
                .chain(rhs)
                .filter_map(|f| match f {
                    Factor::Attr(p) => {
                        let v = base.args.get(p).and_then(Arg::as_int)?;
                        Some(with_arg(base, p, Arg::Int(v.saturating_add(1))))
                    }
                    Factor::Dim { param, dim } => Some(set_tensors(
                        base,
                        std::slice::from_ref(param),
                        bump_dim(*dim),
                    )),
                    Factor::DimsFrom { param, .. } | Factor::Numel(param) => {
                        Some(set_tensors(base, std::slice::from_ref(param), |t| {
                            t.shape.push(2)
                        }))
                    }
                })
                .collect();
            let name = lhs.first().map_or("", |f| f.param());
            vec![(format!("product_{name}_mismatch"), calls)]
        }
        Rule::BroadcastTogether { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            let rank = tensor_of(base, last).map_or(0, |t| t.rank());
            let calls = (0..rank)
                .rev()
                .map(|d| set_tensors(base, std::slice::from_ref(last), move |t| t.shape[d] = 3))
                .collect();
            vec![(format!("shape_{last}_not_broadcastable"), calls)]
        }
        Rule::BroadcastShape { out, .. } => {
            // The inputs' broadcast shape stays; the output grows a dim, or one more of a dim.
            let rank = tensor_of(base, out).map_or(0, |t| t.rank());
            let mut calls: Vec<Call> = (0..rank)
                .map(|d| set_tensors(base, std::slice::from_ref(out), move |t| t.shape[d] += 1))
                .collect();
            calls.push(set_tensors(base, std::slice::from_ref(out), |t| {
                t.shape.insert(0, 2);
                t.strides = None;
            }));
            vec![(format!("shape_{out}_not_broadcast_shape"), calls)]
        }
        Rule::NumelIn { param, values } => {
            let n = values.iter().max().map_or(2, |m| m + 1).max(2);
            let calls = vec![set_tensors(base, std::slice::from_ref(param), move |t| {
                t.shape = vec![n]
            })];
            vec![(format!("numel_{param}_not_allowed"), calls)]
        }
        _ => Vec::new(),
    }
}
