//! C++ emission of the products rules (`Family::Products`), as `emit/rust/products.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn products_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::ProductSupported { products } => {
                format!(
                    "pred::product_supported(product, {})",
                    string_list(products)
                )
            }
            other => wrong_family(other),
        }
    }
}
