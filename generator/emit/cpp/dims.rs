//! C++ emission of the dims rules (`Family::Dims`), as `emit/rust/dims.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn dims_rule(&self, rule: &Rule) -> String {
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
                    format!("pred::dims_equal({l}, {lhs_dim}, {r}, {rhs_dim})"),
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
                    &format!("pred::dim_multiple_of({ts}, d, {by})"),
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
                self.tensor_rule(
                    &[param],
                    format!(
                        "pred::dim_in_range({ts}, {dim}, {}, {})",
                        opt_i64(*min),
                        opt_i64(*max)
                    ),
                )
            }
            Rule::DimMatchesChannel {
                param,
                dim,
                tensor,
                layout_attr,
            } => {
                let (p, t) = (self.tensors(&[param]), self.tensors(&[tensor]));
                let body = match layout_attr {
                    None => format!("pred::dim_matches_channel({p}, {dim}, {t}, std::nullopt)"),
                    Some(a) => scoped(&format!(
                        "auto r = pred::arg_str({}, {}); if (!r.ok()) {{ return r.err; }} \
                         return pred::dim_matches_channel({p}, {dim}, {t}, r.value);",
                        literal(a),
                        self.arg(a)
                    )),
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
                    &format!("pred::dims_scaled({l}, {r}, d, {num}, {den})"),
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
                    &format!("pred::shape_same_except({l}, {r}, d)"),
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
                    None => format!("pred::dims_at_most({l}, {r}, std::nullopt)"),
                    Some(_) => self.at_dim(
                        0,
                        except_attr.as_ref(),
                        &format!("pred::dims_at_most({l}, {r}, std::optional<int64_t>(d))"),
                    ),
                };
                self.tensor_rule(&[lhs, rhs], body)
            }
            other => wrong_family(other),
        }
    }
}
