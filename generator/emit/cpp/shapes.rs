//! C++ emission of the shapes rules (`Family::Shapes`), as `emit/rust/shapes.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn shapes_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::RankSame { params } => self.tensors_pred(params, "rank_same"),
            Rule::ShapeSame { params } => self.tensors_pred(params, "shape_same"),
            Rule::RankIn { param, min, max } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], format!("pred::rank_in({ts}, {min}, {max})"))
            }
            Rule::ShapeMatchesList {
                param,
                list,
                trailing,
            } => {
                let ts = self.tensors(&[param]);
                let body = scoped(&format!(
                    "auto r = {}; if (!r.ok()) {{ return r.err; }} \
                     return pred::shape_matches_list({ts}, {}, r.value ? &*r.value : nullptr, {trailing});",
                    self.int_list(list),
                    literal(list)
                ));
                self.tensor_rule(&[param], body)
            }
            Rule::ShapeFromList { param, base, list } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let body = scoped(&format!(
                    "auto r = {}; if (!r.ok()) {{ return r.err; }} \
                     return pred::shape_from_list({ts}, {bs}, {}, r.value ? &*r.value : nullptr);",
                    self.int_list(list),
                    literal(list)
                ));
                self.tensor_rule(&[param, base], body)
            }
            Rule::ShapePadded { param, base, list } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let body = scoped(&format!(
                    "auto r = {}; if (!r.ok()) {{ return r.err; }} \
                     return pred::shape_padded({ts}, {bs}, {}, r.value ? &*r.value : nullptr);",
                    self.int_list(list),
                    literal(list)
                ));
                self.tensor_rule(&[param, base], body)
            }
            Rule::ShapeReduced {
                param,
                base,
                dims,
                keepdim,
            } => {
                let (ts, bs) = (self.tensors(&[param]), self.tensors(&[base]));
                let body = scoped(&format!(
                    "auto d = pred::arg_ints({dl}, {da}); if (!d.ok()) {{ return d.err; }} \
                     auto k = pred::arg_ints({kl}, {ka}); if (!k.ok()) {{ return k.err; }} \
                     return pred::shape_reduced({ts}, {bs}, {dl}, d.value, k.value);",
                    dl = literal(dims),
                    da = self.arg(dims),
                    kl = literal(keepdim),
                    ka = self.arg(keepdim),
                ));
                self.tensor_rule(&[param, base], body)
            }
            Rule::Broadcastable { from, to, dims } => {
                let (f, t) = (self.tensors(&[from]), self.tensors(&[to]));
                let dims = match dims {
                    Some(d) => format!("&{}", self.constant("std::vector<int64_t>", int_list(d))),
                    None => "static_cast<const std::vector<int64_t>*>(nullptr)".to_string(),
                };
                self.tensor_rule(
                    &[from, to],
                    format!("pred::broadcastable({f}, {t}, {dims})"),
                )
            }
            Rule::BroadcastTogether { params } => self.tensors_pred(params, "broadcast_together"),
            Rule::BroadcastShape { params, out } => {
                let names: Vec<&String> = params.iter().collect();
                let (ts, o) = (self.tensors(&names), self.tensors(&[out]));
                let all: Vec<&String> = params.iter().chain([out]).collect();
                self.tensor_rule(&all, format!("pred::broadcast_shape({ts}, {o})"))
            }
            Rule::DimsPositive { param, allow_zero } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], format!("pred::dims_positive({ts}, {allow_zero})"))
            }
            Rule::NumelIn { param, values } => {
                let ts = self.tensors(&[param]);
                let values = format!("std::vector<int64_t>{}", int_list(values));
                self.tensor_rule(&[param], format!("pred::numel_in({ts}, {values})"))
            }
            Rule::NotEmpty { param } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], format!("pred::not_empty({ts})"))
            }
            Rule::Contiguous { param } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], format!("pred::contiguous({ts})"))
            }
            Rule::ElementCountMax { param, dims, max } => {
                let ts = self.tensors(&[param]);
                self.tensor_rule(
                    &[param],
                    format!("pred::element_count_max({ts}, {dims}, {max})"),
                )
            }
            Rule::ProductsEqual { lhs, rhs } => {
                let (lt, rt) = (Factor::product_text(lhs), Factor::product_text(rhs));
                let l: Vec<String> = lhs.iter().map(|f| self.factor(f)).collect();
                let r: Vec<String> = rhs.iter().map(|f| self.factor(f)).collect();
                format!(
                    "pred::products_equal({}, std::vector<pred::Res<int64_t>>{{{}}}, {}, std::vector<pred::Res<int64_t>>{{{}}})",
                    literal(&lt),
                    l.join(", "),
                    literal(&rt),
                    r.join(", ")
                )
            }
            other => wrong_family(other),
        }
    }
}
