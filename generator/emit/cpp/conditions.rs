//! C++ emission of the conditions rules (`Family::Conditions`), as `emit/rust/conditions.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn conditions_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::When {
                param,
                index,
                values,
                negate,
                rule,
            } => {
                let index = index.map_or("std::nullopt".to_string(), |i| {
                    format!("std::optional<size_t>({i})")
                });
                format!(
                    "(pred::when({}, {index}, std::vector<int64_t>{}, {negate}) ? {} : std::string())",
                    self.arg(param),
                    int_list(values),
                    self.rule(rule)
                )
            }
            Rule::WhenDtype {
                param,
                dtypes,
                rule,
            } => format!(
                "(pred::has_dtype({}, std::vector<op::DataType>{}) ? {} : std::string())",
                self.tensors(&[param]),
                dtype_list(dtypes),
                self.rule(rule)
            ),
            Rule::OnProducts { products, rule } => {
                let test: Vec<String> = products
                    .iter()
                    .map(|p| format!("product == {}", literal(p)))
                    .collect();
                let test = if test.is_empty() {
                    "false".to_string()
                } else {
                    test.join(" || ")
                };
                format!("(({test}) ? {} : std::string())", self.rule(rule))
            }
            other => wrong_family(other),
        }
    }
}
