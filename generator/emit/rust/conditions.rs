//! Rust emission of the conditions rules (`Family::Conditions`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn conditions_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::When {
                param,
                index,
                values,
                negate,
                rule,
            } => {
                let inner = self.rule(rule);
                let arg = self.as_arg(param);
                let index = match index {
                    Some(i) => {
                        let i = Literal::usize_unsuffixed(*i);
                        quote!(Some(#i))
                    }
                    None => quote!(None),
                };
                quote! {
                    if pred::when(#arg.as_ref(), #index, &[#(#values),*], #negate) { #inner } else { Ok(()) }
                }
            }
            Rule::WhenDtype {
                param,
                dtypes,
                rule,
            } => {
                let inner = self.rule(rule);
                let ts = self.tensors(&[param]);
                let dtypes = dtypes.iter().map(dtype_tokens);
                let held = quote!(pred::has_dtype(&#ts, &[#(#dtypes),*]));
                // An argument of another kind holds no dtype: the inner rule is skipped.
                quote! {
                    if #held { #inner } else { Ok(()) }
                }
            }
            Rule::OnProducts { products, rule } => {
                let inner = self.rule(rule);
                quote! {
                    if [#(#products),*].contains(&product) { #inner } else { Ok(()) }
                }
            }
            other => wrong_family(other),
        }
    }
}
