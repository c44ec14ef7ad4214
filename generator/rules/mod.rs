//! Stage 2: documented error conditions become executable rules (`ErrorCase::mapping`).

use crate::cli::Outcome;
use crate::ir::OpIr;
use aclnn_runtime::{AclnnError, Call};
use std::path::Path;

/// Fills `ErrorCase::mapping` of every documented error and `OpIr::inferred_rules`.
pub fn apply(op: &mut OpIr) {
    let _ = op;
}

/// Checks one first-phase call against the op's rules, in aclnn's order.
pub fn validate_call(op: &OpIr, call: &Call) -> Result<(), AclnnError> {
    aclnn_runtime::check(&op.all_rules(), call)
}

pub fn cmd_validate(op: &str, call: &Path, spec: Option<&Path>, specs: &Path) -> Outcome {
    let _ = (op, call, spec, specs);
    Err(crate::cli::Failure::usage(
        "`validate` is not implemented yet (validators issue)",
    ))
}
