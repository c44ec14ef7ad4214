//! Stage 1: docs and YAML specs in, `OpIr` out. Never panics: every problem is a diagnostic.

pub mod decode;
pub mod scraped;
pub mod specs;

pub use specs::{cmd_import, load_specs};

use crate::cli::{DataFormat, Outcome, ReportFormat};
use crate::ir::{Diagnostic, OpIr};
use std::path::PathBuf;

/// What one input file yields: its ops (a doc may describe several, e.g. `aclnnElu&aclnnInplaceElu`)
/// and problems that belong to no op.
#[derive(Debug, Default)]
pub struct DocRead {
    pub ops: Vec<OpIr>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The project's specs: docs and YAML overlays merged into one IR per op, sorted by op name.
#[derive(Debug, Default)]
pub struct Specs {
    pub ops: Vec<OpIr>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads one doc from its bytes; `path` is used for provenance only.
pub fn read_doc(path: &str, bytes: &[u8]) -> DocRead {
    let _ = (path, bytes);
    unimplemented!("doc reader: owned by the reader issue")
}

pub fn cmd_show(paths: &[PathBuf], format: DataFormat) -> Outcome {
    let _ = (paths, format);
    Err(crate::cli::Failure::usage(
        "`show` is not implemented yet (reader issue)",
    ))
}

pub fn cmd_lint(paths: &[PathBuf], format: ReportFormat) -> Outcome {
    let _ = (paths, format);
    Err(crate::cli::Failure::usage(
        "`lint` is not implemented yet (reader issue)",
    ))
}
