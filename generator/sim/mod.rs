//! Runs an op's generated tiling and hand-written kernel on the CPU through the host emulation.

use crate::cli::Outcome;
use std::path::Path;

pub fn cmd_sim(op: &str, call: &Path, specs: &Path, generated: &Path, kernels: &Path) -> Outcome {
    let _ = (op, call, specs, generated, kernels);
    Err(crate::cli::Failure::usage(
        "`sim` is not implemented yet (kernels issue)",
    ))
}
