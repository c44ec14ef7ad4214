//! Cases of the conditions rules (`Family::Conditions`): calls that break a rule, derived
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
        _ => Vec::new(),
    }
}
