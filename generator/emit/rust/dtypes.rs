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
            Rule::DtypePromotable { params } => match self.scalars(params) {
                None => self.tensors_pred(params, quote!(pred::dtype_promotable)),
                Some((names, ss)) => {
                    let ts = self.tensors(&names);
                    self.tensor_rule(&names, quote!(pred::dtype_promotable_with(&#ts, &#ss)))
                }
            },
            Rule::DtypeCastable { from, to } => {
                let t = self.tensors(&[to]);
                match self.scalars(from) {
                    None => {
                        let names: Vec<&String> = from.iter().chain(std::iter::once(to)).collect();
                        let f = self.tensors(&from.iter().collect::<Vec<_>>());
                        self.tensor_rule(&names, quote!(pred::dtype_castable(&#f, &#t)))
                    }
                    Some((mut names, ss)) => {
                        let f = self.tensors(&names);
                        names.push(to);
                        let body = quote!(pred::dtype_castable_with(&#f, &#ss, &#t));
                        self.tensor_rule(&names, body)
                    }
                }
            }
            Rule::ScalarCastable { scalars, to, dtype } => {
                let mut tensors: Vec<&String> = to.iter().collect();
                let target = match (dtype, self.scalars(to)) {
                    (Some(d), _) => {
                        let d = dtype_tokens(d);
                        quote!(Some(#d))
                    }
                    (None, None) => {
                        let ts = self.tensors(&tensors);
                        quote!(pred::promoted_dtype(&#ts))
                    }
                    (None, Some((others, ss))) => {
                        tensors = others;
                        let ts = self.tensors(&tensors);
                        quote!(pred::promoted_dtype_with(&#ts, &#ss))
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
                self.tensor_rule(&tensors, body)
            }
            other => wrong_family(other),
        }
    }

    /// The operands of a promotion that are `aclScalar` parameters, as a `Vec<NamedScalar>`
    /// expression, with the others (tensors); `None` when there is none, so a tensor-only rule
    /// keeps its tensor-only predicate.
    fn scalars<'a>(&self, params: &'a [String]) -> Option<(Vec<&'a String>, TokenStream)> {
        let (scalars, others): (Vec<&String>, Vec<&String>) = params
            .iter()
            .partition(|p| self.kind(p) == Some(Kind::Scalar));
        if scalars.is_empty() {
            return None;
        }
        let pairs = scalars.iter().map(|s| {
            let id = ident_for(s);
            quote!((#s, #id))
        });
        Some((others, quote!(pred::scalars(&[#(#pairs),*]))))
    }
}
