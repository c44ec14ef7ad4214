//! C++ emission of the conditions rules (`Family::Conditions`), as `emit/rust/conditions.rs`: a
//! condition is the test of an `if` around its rule's check (`Emitter::check`), never a ternary.

use super::*;
use aclnn_runtime::TensorState;

impl Emitter<'_> {
    pub(super) fn conditions_rule(&self, rule: &Rule) -> String {
        match self.condition(rule) {
            Some((test, inner)) => format!("({test} ? {} : std::string())", self.rule(inner)),
            None => wrong_family(rule),
        }
    }

    /// A condition rule's test as a C++ `bool` expression, with the rule it guards; `None` for a
    /// rule of another family.
    pub(super) fn condition<'r>(&self, rule: &'r Rule) -> Option<(String, &'r Rule)> {
        Some(match rule {
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
                let test = format!(
                    "pred::when({}, {index}, std::vector<int64_t>{}, {negate})",
                    self.arg(param),
                    int_list(values)
                );
                (test, &**rule)
            }
            Rule::WhenStr {
                param,
                values,
                negate,
                rule,
            } => (
                format!(
                    "pred::when_str({}, std::vector<std::string>{}, {negate})",
                    self.arg(param),
                    string_list(values)
                ),
                &**rule,
            ),
            Rule::WhenAnyElem {
                param,
                min,
                max,
                rule,
            } => (
                format!(
                    "pred::when_any_elem({}, {}, {})",
                    self.arg(param),
                    opt_i64(*min),
                    opt_i64(*max)
                ),
                &**rule,
            ),
            Rule::WhenDtype {
                param,
                dtypes,
                rule,
            } => (
                format!(
                    "pred::has_dtype({}, std::vector<op::DataType>{})",
                    self.tensors(&[param]),
                    dtype_list(dtypes)
                ),
                &**rule,
            ),
            Rule::WhenTensor { param, state, rule } => (
                format!(
                    "pred::when_tensor({}, {})",
                    self.arg(param),
                    tensor_state(state)
                ),
                &**rule,
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
                (test, &**rule)
            }
            _ => return None,
        })
    }
}

/// A `TensorState` as a C++ `pred::TensorState` expression.
fn tensor_state(state: &TensorState) -> String {
    let kind = |k: &str| format!("pred::TensorState{{pred::TensorState::Kind::{k}, {{}}, false}}");
    match state {
        TensorState::Null => kind("Null"),
        TensorState::Present => kind("Present"),
        TensorState::Empty => kind("Empty"),
        TensorState::NotEmpty => kind("NotEmpty"),
        TensorState::Rank { ranks, negate } => {
            let ranks: Vec<String> = ranks.iter().map(usize::to_string).collect();
            format!(
                "pred::TensorState{{pred::TensorState::Kind::Rank, std::vector<size_t>{{{}}}, {negate}}}",
                ranks.join(", ")
            )
        }
    }
}
