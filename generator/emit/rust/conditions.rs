//! Rust emission of the conditions rules (`Family::Conditions`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;
use aclnn_runtime::TensorState;

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
            Rule::WhenStr {
                param,
                values,
                negate,
                rule,
            } => {
                let inner = self.rule(rule);
                let arg = self.as_arg(param);
                quote! {
                    if pred::when_str(#arg.as_ref(), &[#(#values),*], #negate) { #inner } else { Ok(()) }
                }
            }
            Rule::WhenAnyElem {
                param,
                min,
                max,
                rule,
            } => {
                let inner = self.rule(rule);
                let arg = self.as_arg(param);
                let (min, max) = (opt_i64(*min), opt_i64(*max));
                quote! {
                    if pred::when_any_elem(#arg.as_ref(), #min, #max) { #inner } else { Ok(()) }
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
            Rule::WhenTensor { param, state, rule } => {
                let inner = self.rule(rule);
                let arg = self.as_arg(param);
                let state = tensor_state_tokens(state);
                quote! {
                    if pred::when_tensor(#arg.as_ref(), &#state) { #inner } else { Ok(()) }
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

/// A `TensorState` as a Rust expression (the path is spelled out: only these rules name it).
fn tensor_state_tokens(state: &TensorState) -> TokenStream {
    match state {
        TensorState::Null => quote!(aclnn_runtime::TensorState::Null),
        TensorState::Present => quote!(aclnn_runtime::TensorState::Present),
        TensorState::Empty => quote!(aclnn_runtime::TensorState::Empty),
        TensorState::NotEmpty => quote!(aclnn_runtime::TensorState::NotEmpty),
        TensorState::Rank { ranks, negate } => {
            let ranks = ranks.iter().map(|r| Literal::usize_unsuffixed(*r));
            quote!(aclnn_runtime::TensorState::Rank { ranks: vec![#(#ranks),*], negate: #negate })
        }
    }
}
