//! Rust emission of the nulls rules (`Family::Nulls`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn nulls_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::NotNull { params } => {
                let checks = params.iter().map(|p| {
                    let present = self.present(p);
                    quote!(pred::not_null(#p, #present))
                });
                quote!([#(#checks),*].into_iter().collect::<Result<(), String>>())
            }
            Rule::IsNull { param } => {
                let present = self.present(param);
                quote!(pred::is_null(#param, #present))
            }
            other => wrong_family(other),
        }
    }
}
