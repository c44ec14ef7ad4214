//! Cases of the conditions rules (`Family::Conditions`): calls that break a rule, derived
//! from a valid baseline.

use super::*;
use aclnn_runtime::TensorState;

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
        Rule::OnProducts { rule, .. } => mutations(op, rules, rule, base, product),
        Rule::WhenDtype {
            param,
            dtypes,
            rule,
        } => {
            // The inner rule's mutations on a base where `param` (and its dtype mates) has the
            // first of `dtypes` the product allows it.
            let allowed = allowed_dtypes(op, &active, param, product);
            let Some(d) = dtypes
                .iter()
                .find(|d| allowed.as_ref().is_none_or(|a| a.contains(d)))
                .copied()
            else {
                return Vec::new();
            };
            let held = set_tensors(base, &dtype_mates(param), |t| t.dtype = d);
            mutations(op, rules, rule, &held, product)
        }
        Rule::WhenTensor { param, state, rule } => {
            // The inner rule's mutations on bases where `param` is in `state`: the base itself
            // when it is, else `param` changed alone or with its shape mates.
            let shape_mates = g.shape.members(param, tensor_params(op));
            satisfy_state(&active, base, param, &shape_mates, state)
                .iter()
                .flat_map(|held| mutations(op, rules, rule, held, product))
                .collect()
        }
        Rule::When {
            param,
            index,
            values,
            negate,
            rule,
        } => {
            let Some(held) = satisfy_when(base, param, *index, values, *negate) else {
                return Vec::new();
            };
            mutations(op, rules, rule, &held, product)
        }
        Rule::WhenStr {
            param,
            values,
            negate,
            rule,
        } => {
            let Some(held) = satisfy_when_str(base, param, values, *negate) else {
                return Vec::new();
            };
            mutations(op, rules, rule, &held, product)
        }
        Rule::WhenAnyElem {
            param,
            min,
            max,
            rule,
        } => {
            let Some(held) = satisfy_when_any_elem(base, param, *min, *max) else {
                return Vec::new();
            };
            mutations(op, rules, rule, &held, product)
        }
        _ => Vec::new(),
    }
}

/// Copies of `base` in which `param` is in `state` (none where no edit gets it there).
fn satisfy_state(
    rules: &[&Rule],
    base: &Call,
    param: &str,
    shape_mates: &[String],
    state: &TensorState,
) -> Vec<Call> {
    if aclnn_runtime::pred::when_tensor(base.args.get(param), state) {
        return vec![base.clone()];
    }
    let alone = [param.to_string()];
    let scopes: Vec<&[String]> = if shape_mates.len() > 1 {
        vec![&alone, shape_mates]
    } else {
        vec![&alone]
    };
    let edits: Vec<Edit> = match state {
        TensorState::Null => return vec![with_arg(base, param, Arg::Null)],
        // The baseline passes every pointer it can.
        TensorState::Present => return Vec::new(),
        TensorState::Empty => vec![Edit::Empty],
        TensorState::NotEmpty => vec![Edit::NotEmpty],
        TensorState::Rank { ranks, negate } => state_ranks(rules, param, ranks, *negate)
            .into_iter()
            .map(Edit::Rank)
            .collect(),
    };
    let mut out = Vec::new();
    for edit in &edits {
        for names in &scopes {
            out.push(set_tensors(base, names, |t| edit.apply(t)));
        }
    }
    out
}

/// A change of shape that puts a tensor in a state.
enum Edit {
    Empty,
    NotEmpty,
    Rank(usize),
}

impl Edit {
    fn apply(&self, t: &mut TensorDesc) {
        match self {
            Edit::Empty => set_first_dim(t, 0),
            Edit::NotEmpty => t.shape.iter_mut().filter(|d| **d == 0).for_each(|d| *d = 2),
            Edit::Rank(r) => set_rank(t, *r),
        }
        t.strides = None;
    }
}

/// Up to two ranks that meet a rank state, those `param`'s `RankIn` allows first.
fn state_ranks(rules: &[&Rule], param: &str, ranks: &[usize], negate: bool) -> Vec<usize> {
    let mut candidates: Vec<usize> = if negate {
        (0..=8).filter(|r| !ranks.contains(r)).collect()
    } else {
        ranks.to_vec()
    };
    let allowed = |r: &usize| {
        rules.iter().all(|rule| match rule {
            Rule::RankIn { param: p, min, max } if p == param => (*min..=*max).contains(r),
            _ => true,
        })
    };
    candidates.sort_by_key(|r| !allowed(r));
    candidates.truncate(2);
    candidates
}

/// The tensor at rank `rank`: its last dims kept, missing leading dims 2.
fn set_rank(t: &mut TensorDesc, rank: usize) {
    let len = t.shape.len();
    t.shape = if rank <= len {
        t.shape[len - rank..].to_vec()
    } else {
        std::iter::repeat_n(2, rank - len)
            .chain(t.shape.iter().copied())
            .collect()
    };
}

/// A copy of `base` in which the `WhenStr` condition holds: the string attribute set to the
/// first of `values` (`negate`: to a string none of them is). None where `param` is no string.
fn satisfy_when_str(base: &Call, param: &str, values: &[String], negate: bool) -> Option<Call> {
    let current = base.args.get(param);
    if !matches!(current, Some(Arg::Str(_)) | Some(Arg::Null) | None) {
        return None;
    }
    if aclnn_runtime::pred::when_str(
        current,
        &values.iter().map(String::as_str).collect::<Vec<_>>(),
        negate,
    ) {
        return Some(base.clone());
    }
    let want = if negate {
        (0..)
            .map(|i| format!("aclgen_other{i}"))
            .find(|s| !values.contains(s))?
    } else {
        values.first()?.clone()
    };
    Some(with_arg(base, param, Arg::Str(want)))
}

/// A copy of `base` in which the `WhenAnyElem` condition holds: the first element of the list
/// attribute (or a one-element list where it is null or empty) set to a value in `[min, max]`.
/// None where `param` is no integer list or the range is empty.
fn satisfy_when_any_elem(
    base: &Call,
    param: &str,
    min: Option<i64>,
    max: Option<i64>,
) -> Option<Call> {
    let current = base.args.get(param);
    if aclnn_runtime::pred::when_any_elem(current, min, max) {
        return Some(base.clone());
    }
    let want = match (min, max) {
        (Some(lo), Some(hi)) if lo > hi => return None,
        (Some(lo), _) => lo,
        (None, Some(hi)) => hi,
        (None, None) => 0,
    };
    let mut v = match current {
        Some(Arg::IntArray(v)) => v.clone(),
        Some(Arg::Null) | None => Vec::new(),
        _ => return None,
    };
    match v.first_mut() {
        Some(first) => *first = want,
        None => v.push(want),
    }
    Some(with_arg(base, param, Arg::IntArray(v)))
}
