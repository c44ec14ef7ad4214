//! Rust emission of the values rules (`Family::Values`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn values_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::ListLenSame { params } => {
                let lens = params.iter().map(|p| {
                    let id = ident_for(p);
                    match self.kind(p) {
                        Some(
                            Kind::IntArray | Kind::FloatArray | Kind::BoolArray | Kind::TensorList,
                        ) => quote!(Ok::<_, String>(#id.map(|v| v.len()))),
                        _ => {
                            let arg = self.as_arg(p);
                            quote!(pred::arg_list_len(#p, #arg.as_ref()))
                        }
                    }
                });
                let names = params.iter();
                quote! {
                    [#((#names, #lens)),*]
                        .into_iter()
                        .map(|(name, len)| len.map(|len| len.map(|len| (name, len))))
                        .collect::<Result<Vec<_>, String>>()
                        .and_then(|lens| pred::list_len_same(&lens.into_iter().flatten().collect::<Vec<_>>()))
                }
            }
            Rule::ListLenIn { param, lens } => {
                let id = ident_for(param);
                let lens = lens.iter().map(|l| Literal::usize_unsuffixed(*l));
                let check = quote!(pred::list_len_in(#param, len, &[#(#lens),*]));
                match self.kind(param) {
                    Some(
                        Kind::IntArray | Kind::FloatArray | Kind::BoolArray | Kind::TensorList,
                    ) => quote!(#id.map_or(Ok(()), |v| { let len = v.len(); #check })),
                    _ => {
                        let arg = self.as_arg(param);
                        quote!(pred::arg_list_len(#param, #arg.as_ref())
                            .and_then(|len| len.map_or(Ok(()), |len| #check)))
                    }
                }
            }
            Rule::ListElemsInRange { param, min, max } => {
                let (min, max) = (opt_i64(*min), opt_i64(*max));
                let id = ident_for(param);
                match self.kind(param) {
                    Some(Kind::IntArray) => quote!(#id.map_or(Ok(()), |v| {
                        pred::list_elems_in_range(#param, v, #min, #max)
                    })),
                    _ => {
                        let arg = self.as_arg(param);
                        quote!(pred::arg_int_list(#param, #arg.as_ref()).and_then(|v| {
                            v.map_or(Ok(()), |v| pred::list_elems_in_range(#param, &v, #min, #max))
                        }))
                    }
                }
            }
            Rule::ListUnique { param } => {
                let list = self.int_list(param);
                quote!(#list.and_then(|v| v.map_or(Ok(()), |v| pred::list_unique(#param, &v))))
            }
            Rule::IntInRange { param, min, max } => {
                let (min, max) = (opt_i64(*min), opt_i64(*max));
                if self.kind(param) == Some(Kind::Int) {
                    self.int_rule(param, quote!(pred::int_in_range(#param, v, #min, #max)))
                } else {
                    // Floats as numbers, lists element by element: as the interpreter does.
                    let arg = self.as_arg(param);
                    quote!(#arg.as_ref().map_or(Ok(()), |a| pred::value_in_range(#param, a, #min, #max)))
                }
            }
            Rule::ValueNot { param, value } => {
                let arg = self.as_arg(param);
                quote!(#arg.as_ref().map_or(Ok(()), |a| pred::value_not(#param, a, #value)))
            }
            Rule::AxisIn { param, tensor } => {
                let ts = self.tensors(&[tensor]);
                let arg = self.as_arg(param);
                self.tensor_rule(
                    &[tensor],
                    quote!(pred::axis_in(#param, #arg.as_ref(), &#ts)),
                )
            }
            Rule::PadsBelowDims { param, tensor } => {
                let ts = self.tensors(&[tensor]);
                let values = self.int_list(param);
                self.tensor_rule(
                    &[tensor],
                    quote!(#values.and_then(|v| pred::pads_below_dims(#param, v.as_deref(), &#ts))),
                )
            }
            Rule::ValueAtMost { lhs, rhs } => {
                let (l, r) = (self.as_arg(lhs), self.as_arg(rhs));
                quote!(pred::value_at_most(#lhs, #l.as_ref(), #rhs, #r.as_ref()))
            }
            Rule::AttrMultipleOf { param, by } => {
                let (v, b) = (self.as_arg(param), self.as_arg(by));
                quote!(pred::attr_multiple_of(#param, #v.as_ref(), #by, #b.as_ref()))
            }
            Rule::IntIn { param, values } => {
                if self.kind(param) == Some(Kind::Int) {
                    self.int_rule(param, quote!(pred::int_in(#param, v, &[#(#values),*])))
                } else {
                    let arg = self.as_arg(param);
                    quote!(pred::arg_ints(#param, #arg.as_ref()).and_then(|vs| vs.map_or(Ok(()), |vs| {
                        vs.into_iter().try_for_each(|v| pred::int_in(#param, v, &[#(#values),*]))
                    })))
                }
            }
            Rule::StrIn { param, values } => {
                if self.kind(param) == Some(Kind::Str) {
                    let id = ident_for(param);
                    quote!(#id.map_or(Ok(()), |v| pred::str_in(#param, v, &[#(#values),*])))
                } else {
                    let arg = self.as_arg(param);
                    quote!(pred::arg_str(#param, #arg.as_ref()).and_then(|v| {
                        v.map_or(Ok(()), |v| pred::str_in(#param, v, &[#(#values),*]))
                    }))
                }
            }
            Rule::ListElemsAtMostFraction { lhs, rhs, num, den } => {
                let (l, r) = (self.int_list(lhs), self.int_list(rhs));
                quote! {
                    #l.and_then(|l| #r.and_then(|r| match (l, r) {
                        (Some(l), Some(r)) => pred::list_elems_at_most_fraction(#lhs, &l, #rhs, &r, #num, #den),
                        _ => Ok(()),
                    }))
                }
            }
            other => wrong_family(other),
        }
    }
}
