//! The validators crate (`generated/rust/`): one module and one typed function per op.

use super::OutFile;
use crate::ir::OpIr;

/// Every file of the generated validators crate, paths relative to the output folder.
pub fn rust_crate(ops: &[OpIr]) -> Vec<OutFile> {
    let _ = ops;
    Vec::new()
}
