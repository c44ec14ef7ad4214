//! The kernel side of an op's Ascend C project: tiling data and function (op_host/) and the
//! kernel skeleton (op_kernel/) into which the hand-written body from `kernels/` is filled.

use super::OutFile;
use crate::ir::OpIr;
use std::path::Path;

/// The tiling and kernel files of one op, paths relative to the output folder.
pub fn kernel_files(
    op: &OpIr,
    kernels_dir: &Path,
    templates: &tera::Tera,
) -> Result<Vec<OutFile>, String> {
    let _ = (op, kernels_dir, templates);
    Ok(Vec::new())
}
