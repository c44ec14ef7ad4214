//! C++ emission of the formats rules (`Family::Formats`), as `emit/rust/formats.rs`.

use super::*;

impl Emitter<'_> {
    pub(super) fn formats_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::FormatIn { param, allowed } => {
                let items: Vec<String> = allowed.iter().filter_map(|f| f.ge_name()).collect();
                let list = self.constant(
                    "std::vector<op::Format>",
                    format!("{{{}}}", items.join(", ")),
                );
                let ts = self.tensors(&[param]);
                self.tensor_rule(&[param], format!("pred::format_in({ts}, {list})"))
            }
            Rule::FormatSame { params } => self.tensors_pred(params, "format_same"),
            other => wrong_family(other),
        }
    }
}
