//! Rust emission of the formats rules (`Family::Formats`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn formats_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::FormatIn { param, allowed } => {
                let list = allowed.iter().map(format_tokens);
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::format_in(&#ts, &[#(#list),*])))
            }
            Rule::FormatSame { params } => self.tensors_pred(params, quote!(pred::format_same)),
            other => wrong_family(other),
        }
    }
}
