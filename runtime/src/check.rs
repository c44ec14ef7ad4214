//! The rule interpreter: evaluates the rules of any IR against a call, in aclnn's order.

use crate::{AclnnError, Call, CheckedRule};

/// Checks `call` against `rules` in stage order and returns the first failure.
pub fn check(rules: &[CheckedRule], call: &Call) -> Result<(), AclnnError> {
    if rules.is_empty() {
        return Ok(());
    }
    let _ = call;
    unimplemented!("rule interpreter: owned by the validators issue")
}
