//! C++ emission of the nulls rules (`Family::Nulls`), as `emit/rust/nulls.rs` (a documented
//! null-pointer row of its own is CANN's `OP_CHECK_NULL`: `Emitter::check`).

use super::*;

impl Emitter<'_> {
    pub(super) fn nulls_rule(&self, rule: &Rule) -> String {
        match rule {
            Rule::NotNull { params } => {
                let checks: Vec<String> = params
                    .iter()
                    .map(|p| format!("pred::not_null({}, {})", literal(p), self.present(p)))
                    .collect();
                first_error(&checks)
            }
            Rule::IsNull { param } => {
                format!("pred::is_null({}, {})", literal(param), self.present(param))
            }
            other => wrong_family(other),
        }
    }
}
