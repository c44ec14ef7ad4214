//! Rust emission of the dtypes rules (`Family::Dtypes`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn dtypes_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::DtypeIn { param, allowed } => {
                let arms = products_by_list(allowed).into_iter().map(|(prods, list)| {
                    let list = list.iter().map(dtype_tokens);
                    quote!(#(#prods)|* => Some(&[#(#list),*][..]),)
                });
                let allowed = quote!(match product { #(#arms)* _ => None });
                if self.kind(param) == Some(Kind::Scalar) {
                    let a = self.as_arg(param);
                    return quote!(pred::scalar_dtype_in(#param, #a.as_ref(), #allowed, product));
                }
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::dtype_in(&#ts, #allowed, product)))
            }
            Rule::DtypeSame { params } => self.tensors_pred(params, quote!(pred::dtype_same)),
            Rule::DtypeIsArg { param, arg } => {
                let ts = self.tensors(&[param]);
                let a = self.as_arg(arg);
                self.tensor_rule(
                    &[param],
                    quote!(pred::dtype_is_arg(&#ts, #arg, #a.as_ref())),
                )
            }
            Rule::DtypePromotable { params } => {
                self.tensors_pred(params, quote!(pred::dtype_promotable))
            }
            Rule::DtypeCastable { from, to } => {
                let names: Vec<&String> = from.iter().chain(std::iter::once(to)).collect();
                let f = self.tensors(&from.iter().collect::<Vec<_>>());
                let t = self.tensors(&[to]);
                self.tensor_rule(&names, quote!(pred::dtype_castable(&#f, &#t)))
            }
            Rule::ScalarCastable { scalars, to, dtype } => {
                let target = match dtype {
                    Some(d) => {
                        let d = dtype_tokens(d);
                        quote!(Some(#d))
                    }
                    None => {
                        let ts = self.tensors(&to.iter().collect::<Vec<_>>());
                        quote!(pred::promoted_dtype(&#ts))
                    }
                };
                let checks = scalars.iter().map(|s| {
                    let a = self.as_arg(s);
                    quote!(pred::scalar_castable(#s, #a.as_ref(), target))
                });
                let body = quote!({
                    let target: Option<DType> = #target;
                    Ok(()) #(.and_then(|()| #checks))*
                });
                self.tensor_rule(&to.iter().collect::<Vec<_>>(), body)
            }
            other => wrong_family(other),
        }
    }
}
