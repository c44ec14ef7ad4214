//! Rust emission of the dims rules (`Family::Dims`): each rule as an expression
//! of type `Result<(), String>` calling `aclnn_runtime::pred`, as the interpreter evaluates it.

use super::*;

impl Emitter<'_> {
    pub(super) fn dims_rule(&self, rule: &Rule) -> TokenStream {
        match rule {
            Rule::DimsEqual {
                lhs,
                lhs_dim,
                rhs,
                rhs_dim,
            } => {
                let (l, r) = (self.tensors(&[lhs]), self.tensors(&[rhs]));
                self.tensor_rule(
                    &[lhs, rhs],
                    quote!(pred::dims_equal(&#l, #lhs_dim, &#r, #rhs_dim)),
                )
            }
            Rule::DimMultipleOf {
                param,
                dim,
                dim_attr,
                by,
            } => {
                let ts = self.tensors(&[param]);
                let body = self.at_dim(
                    *dim,
                    dim_attr.as_ref(),
                    quote!(pred::dim_multiple_of(&#ts, d, #by)),
                );
                self.tensor_rule(&[param], body)
            }
            Rule::DimInRange {
                param,
                dim,
                min,
                max,
            } => {
                let ts = self.tensors(&[param]);
                let (min, max) = (opt_i64(*min), opt_i64(*max));
                self.tensor_rule(&[param], quote!(pred::dim_in_range(&#ts, #dim, #min, #max)))
            }
            Rule::DimMatchesChannel {
                param,
                dim,
                tensor,
                layout_attr,
            } => {
                let (p, t) = (self.tensors(&[param]), self.tensors(&[tensor]));
                let check = |layout| quote!(pred::dim_matches_channel(&#p, #dim, &#t, #layout));
                let body = match layout_attr {
                    None => check(quote!(None)),
                    Some(a) if self.kind(a) == Some(Kind::Str) => {
                        let id = ident_for(a);
                        check(quote!(#id))
                    }
                    Some(a) => {
                        let arg = self.as_arg(a);
                        let inner = check(quote!(layout));
                        quote!(pred::arg_str(#a, #arg.as_ref()).and_then(|layout| #inner))
                    }
                };
                self.tensor_rule(&[param, tensor], body)
            }
            Rule::DimsScaled {
                lhs,
                rhs,
                dim,
                dim_attr,
                num,
                den,
            } => {
                let (l, r) = (self.tensors(&[lhs]), self.tensors(&[rhs]));
                let body = self.at_dim(
                    *dim,
                    dim_attr.as_ref(),
                    quote!(pred::dims_scaled(&#l, &#r, d, #num, #den)),
                );
                self.tensor_rule(&[lhs, rhs], body)
            }
            Rule::ShapeSameExcept {
                lhs,
                rhs,
                dim,
                dim_attr,
            } => {
                let (l, r) = (self.tensors(&[lhs]), self.tensors(&[rhs]));
                let body = self.at_dim(
                    *dim,
                    dim_attr.as_ref(),
                    quote!(pred::shape_same_except(&#l, &#r, d)),
                );
                self.tensor_rule(&[lhs, rhs], body)
            }
            Rule::DimsAtMost {
                lhs,
                rhs,
                except_attr,
            } => {
                let (l, r) = (self.tensors(&[lhs]), self.tensors(&[rhs]));
                let body = match except_attr {
                    None => quote!(pred::dims_at_most(&#l, &#r, None)),
                    Some(_) => self.at_dim(
                        0,
                        except_attr.as_ref(),
                        quote!(pred::dims_at_most(&#l, &#r, Some(d))),
                    ),
                };
                self.tensor_rule(&[lhs, rhs], body)
            }
            other => wrong_family(other),
        }
    }
}
