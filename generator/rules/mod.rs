//! Stage 2: documented error conditions become executable rules (`ErrorCase::mapping`).

use crate::cli::Outcome;
use std::path::Path;

pub fn cmd_validate(op: &str, call: &Path, spec: Option<&Path>, specs: &Path) -> Outcome {
    let _ = (op, call, spec, specs);
    Err(crate::cli::Failure::usage(
        "`validate` is not implemented yet (validators issue)",
    ))
}
