//! Rust emission of the products rules (`Family::Products`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn products_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::ProductSupported { products } => {
                quote!(pred::product_supported(product, &[#(#products),*]))
            }
            other => wrong_family(other),
        }
    }
}
