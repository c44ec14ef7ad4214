//! Cases of the nulls rules (`Family::Nulls`): calls that break a rule, derived
//! from a valid baseline.

use super::*;

pub(super) fn mutate(
    _op: &OpIr,
    _rules: &[CheckedRule],
    rule: &Rule,
    base: &Call,
    _product: &str,
) -> NamedCalls {
    match rule {
        Rule::NotNull { params } => params
            .iter()
            .filter(|p| base.args.contains_key(*p))
            .map(|p| (format!("null_{p}"), vec![with_arg(base, p, Arg::Null)]))
            .collect(),
        // The baseline leaves it null; any tensor breaks the rule.
        Rule::IsNull { param } => vec![(
            format!("present_{param}"),
            vec![with_arg(
                base,
                param,
                Arg::Tensor(TensorDesc::new(&[1], DType::Float32, Format::Nd)),
            )],
        )],
        _ => Vec::new(),
    }
}
