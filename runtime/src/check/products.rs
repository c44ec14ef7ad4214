//! The interpreter of the products rules (`Family::Products`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::ProductSupported { products } => {
            let ids: Vec<&str> = products.iter().map(String::as_str).collect();
            pred::product_supported(&call.product, &ids)
        }
        other => Err(wrong_family(other)),
    }
}
