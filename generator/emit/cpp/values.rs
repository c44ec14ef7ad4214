//! C++ emission of the values rules (`Family::Values`), as `emit/rust/values.rs`. Every
//! argument is read through `pred::Arg`, as the interpreter reads it.

use super::*;

impl Emitter<'_> {
    pub(super) fn values_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::ListLenSame { params } => {
                let mut body =
                    String::from("std::vector<std::pair<std::string, size_t>> lens; ");
                for p in params {
                    body.push_str(&format!(
                        "{{ auto r = pred::arg_list_len({n}, {a}); if (!r.ok()) {{ return r.err; }} \
                         if (r.value) {{ lens.emplace_back({n}, *r.value); }} }} ",
                        n = literal(p),
                        a = self.arg(p)
                    ));
                }
                body.push_str("return pred::list_len_same(lens);");
                scoped(&body)
            }
            Rule::ListLenIn { param, lens } => with_value(
                &format!("pred::arg_list_len({}, {})", literal(param), self.arg(param)),
                "len",
                &format!(
                    "pred::list_len_in({}, len, std::vector<size_t>{})",
                    literal(param),
                    int_list(lens)
                ),
            ),
            Rule::ListElemsInRange { param, min, max } => with_value(
                &self.int_list(param),
                "v",
                &format!(
                    "pred::list_elems_in_range({}, v, {}, {})",
                    literal(param),
                    opt_i64(*min),
                    opt_i64(*max)
                ),
            ),
            Rule::ListUnique { param } => with_value(
                &self.int_list(param),
                "v",
                &format!("pred::list_unique({}, v)", literal(param)),
            ),
            Rule::IntInRange { param, min, max } => {
                let (min, max) = (opt_i64(*min), opt_i64(*max));
                if self.is_int(param) {
                    format!(
                        "pred::int_in_range({}, static_cast<int64_t>({}), {min}, {max})",
                        literal(param),
                        cpp_ident(param)
                    )
                } else {
                    self.on_arg(param, &format!("pred::value_in_range({}, a, {min}, {max})", literal(param)))
                }
            }
            Rule::ValueNot { param, value } => self.on_arg(
                param,
                &format!("pred::value_not({}, a, {value})", literal(param)),
            ),
            Rule::AxisIn { param, tensor } => {
                let ts = self.tensors(&[tensor]);
                self.tensor_rule(
                    &[tensor],
                    format!("pred::axis_in({}, {}, {ts})", literal(param), self.arg(param)),
                )
            }
            Rule::PadsBelowDims { param, tensor } => {
                let ts = self.tensors(&[tensor]);
                let body = scoped(&format!(
                    "auto r = {}; if (!r.ok()) {{ return r.err; }} \
                     return pred::pads_below_dims({}, r.value ? &*r.value : nullptr, {ts});",
                    self.int_list(param),
                    literal(param)
                ));
                self.tensor_rule(&[tensor], body)
            }
            Rule::ValueAtMost { lhs, rhs } => format!(
                "pred::value_at_most({}, {}, {}, {})",
                literal(lhs),
                self.arg(lhs),
                literal(rhs),
                self.arg(rhs)
            ),
            Rule::AttrMultipleOf { param, by } => format!(
                "pred::attr_multiple_of({}, {}, {}, {})",
                literal(param),
                self.arg(param),
                literal(by),
                self.arg(by)
            ),
            Rule::IntIn { param, values } => {
                let values = format!("std::vector<int64_t>{}", int_list(values));
                if self.is_int(param) {
                    format!(
                        "pred::int_in({}, static_cast<int64_t>({}), {values})",
                        literal(param),
                        cpp_ident(param)
                    )
                } else {
                    with_value(
                        &format!("pred::arg_ints({}, {})", literal(param), self.arg(param)),
                        "vs",
                        &scoped(&format!(
                            "for (int64_t v : vs) {{ std::string e = pred::int_in({}, v, {values}); \
                             if (!e.empty()) {{ return e; }} }} return std::string();",
                            literal(param)
                        )),
                    )
                }
            }
            Rule::StrIn { param, values } => with_value(
                &format!("pred::arg_str({}, {})", literal(param), self.arg(param)),
                "v",
                &format!(
                    "pred::str_in({}, v, std::vector<std::string>{})",
                    literal(param),
                    string_list(values)
                ),
            ),
            Rule::ListElemsAtMostFraction { lhs, rhs, num, den } => scoped(&format!(
                "auto l = {}; if (!l.ok()) {{ return l.err; }} auto r = {}; if (!r.ok()) {{ return r.err; }} \
                 if (!l.value || !r.value) {{ return std::string(); }} \
                 return pred::list_elems_at_most_fraction({}, *l.value, {}, *r.value, {num}, {den});",
                self.int_list(lhs),
                self.int_list(rhs),
                literal(lhs),
                literal(rhs)
            )),
            other => wrong_family(other),
        }
    }

    /// An integer passed by value (`int64_t dim`): checked as the integer itself.
    fn is_int(&self, name: &str) -> bool {
        self.kind(name) == Some(Kind::Value) && self.is_int_type(name)
    }

    /// `check` (an expression in `a`, the argument) when the argument is not null.
    fn on_arg(&self, name: &str, check: &str) -> String {
        scoped(&format!(
            "const pred::Arg a = {}; if (a.is_null()) {{ return std::string(); }} return {check};",
            self.arg(name)
        ))
    }
}
