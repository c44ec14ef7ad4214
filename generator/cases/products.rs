//! Cases of the products rules (`Family::Products`): calls that break a rule, derived
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
        Rule::ProductSupported { products } => Product::ALL
            .iter()
            .find(|p| !products.iter().any(|q| q == p.id()))
            .map(|p| {
                vec![(
                    format!("unsupported_product_{}", p.id()),
                    vec![with_product(base, p.id())],
                )]
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}
