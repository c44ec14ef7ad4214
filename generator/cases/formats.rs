//! Cases of the formats rules (`Family::Formats`): calls that break a rule, derived
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
    let format_mates = |p: &str| g.format.members(p, tensor_params(op));
    match rule {
        Rule::FormatIn { param, allowed } => {
            let bad: Vec<Format> = Format::ALL
                .iter()
                .copied()
                .filter(|f| !f.allowed_by(allowed))
                .take(4)
                .collect();
            let calls = bad
                .iter()
                .flat_map(|f| {
                    [
                        set_tensors(base, std::slice::from_ref(param), |t| t.format = *f),
                        set_tensors(base, &format_mates(param), |t| t.format = *f),
                    ]
                })
                .collect();
            vec![(format!("format_{param}_unsupported"), calls)]
        }
        Rule::FormatSame { params } => {
            let Some(last) = params.last() else {
                return Vec::new();
            };
            let current = tensor_of(base, last).map(|t| t.format);
            let mut pool = allowed_formats(op, &active, last).unwrap_or_default();
            pool.extend(Format::ALL.iter().copied());
            let calls = pool
                .into_iter()
                .filter(|f| Some(*f) != current)
                .take(6)
                .map(|f| set_tensors(base, std::slice::from_ref(last), |t| t.format = f))
                .collect();
            vec![(format!("format_{last}_differs"), calls)]
        }
        _ => Vec::new(),
    }
}
