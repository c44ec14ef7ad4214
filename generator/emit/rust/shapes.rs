//! Rust emission of the shapes rules (`Family::Shapes`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn shapes_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::RankSame { params } => self.tensors_pred(params, quote!(pred::rank_same)),
            Rule::ShapeSame { params } => self.tensors_pred(params, quote!(pred::shape_same)),
            Rule::RankIn { param, min, max } => {
                let ts = self.tensors(&[param]);
                let (min, max) = (
                    Literal::usize_unsuffixed(*min),
                    Literal::usize_unsuffixed(*max),
                );
                self.tensor_rule(&[param], quote!(pred::rank_in(&#ts, #min, #max)))
            }
            Rule::ShapeMatchesList {
                param,
                list,
                trailing,
            } => {
                let ts = self.tensors(&[param]);
                let values = self.int_list(list);
                self.tensor_rule(
                    &[param],
                    quote!(#values.and_then(|v| pred::shape_matches_list(&#ts, #list, v.as_deref(), #trailing))),
                )
            }
            Rule::ShapeFromList { param, base, list } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let values = self.int_list(list);
                self.tensor_rule(
                    &[param, base],
                    quote!(#values.and_then(|v| pred::shape_from_list(&#ts, &#bs, #list, v.as_deref()))),
                )
            }
            Rule::ShapePadded { param, base, list } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let values = self.int_list(list);
                self.tensor_rule(
                    &[param, base],
                    quote!(#values.and_then(|v| pred::shape_padded(&#ts, &#bs, #list, v.as_deref()))),
                )
            }
            Rule::ShapeReduced {
                param,
                base,
                dims,
                keepdim,
            } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let (d, k) = (self.as_arg(dims), self.as_arg(keepdim));
                self.tensor_rule(
                    &[param, base],
                    quote!(pred::arg_ints(#dims, #d.as_ref()).and_then(|d| {
                        pred::arg_ints(#keepdim, #k.as_ref()).and_then(|k| {
                            pred::shape_reduced(&#ts, &#bs, #dims, d.as_deref(), k.as_deref())
                        })
                    })),
                )
            }
            Rule::Broadcastable { from, to, dims } => {
                let (f, t) = (self.tensors(&[from]), self.tensors(&[to]));
                let dims = match dims {
                    Some(d) => quote!(Some(&[#(#d),*][..])),
                    None => quote!(None),
                };
                self.tensor_rule(&[from, to], quote!(pred::broadcastable(&#f, &#t, #dims)))
            }
            Rule::BroadcastTogether { params } => {
                self.tensors_pred(params, quote!(pred::broadcast_together))
            }
            Rule::BroadcastShape { params, out } => {
                let names: Vec<&String> = params.iter().collect();
                let (ts, o) = (self.tensors(&names), self.tensors(&[out]));
                let all: Vec<&String> = params.iter().chain([out]).collect();
                self.tensor_rule(&all, quote!(pred::broadcast_shape(&#ts, &#o)))
            }
            Rule::DimsPositive { param, allow_zero } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::dims_positive(&#ts, #allow_zero)))
            }
            Rule::NumelIn { param, values } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::numel_in(&#ts, &[#(#values),*])))
            }
            Rule::NotEmpty { param } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::not_empty(&#ts)))
            }
            Rule::Contiguous { param } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], quote!(pred::contiguous(&#ts)))
            }
            Rule::ElementCountMax { param, dims, max } => {
                let ts = self.tensors(&[param]);
                let dims = Literal::usize_unsuffixed(*dims);
                self.tensor_rule(&[param], quote!(pred::element_count_max(&#ts, #dims, #max)))
            }
            Rule::ProductsEqual { lhs, rhs } => {
                let (lt, rt) = (Factor::product_text(lhs), Factor::product_text(rhs));
                let l: Vec<TokenStream> = lhs.iter().map(|f| self.factor(f)).collect();
                let r: Vec<TokenStream> = rhs.iter().map(|f| self.factor(f)).collect();
                quote!(pred::products_equal(#lt, &[#(#l),*], #rt, &[#(#r),*]))
            }
            other => wrong_family(other),
        }
    }
}
