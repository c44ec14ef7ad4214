//! The project's specs: docs in `specs/docs/`, YAML in `specs/ops/` (full specs, or overlays that
//! correct a doc), merged into one IR per op.

use super::Specs;
use crate::cli::{Failure, Outcome};
use std::path::Path;

/// Reads `docs/` and `ops/` below `dir` into one IR per op, sorted by op name.
pub fn load_specs(dir: &Path) -> Result<Specs, Failure> {
    let _ = dir;
    Err(Failure::usage(
        "load_specs is not implemented yet (reader issue)",
    ))
}

/// `aclgen import`: writes `<out>/<Op>.yaml` for every op of the given docs.
pub fn cmd_import(docs: &[std::path::PathBuf], out: &Path) -> Outcome {
    let _ = (docs, out);
    Err(Failure::usage(
        "`import` is not implemented yet (reader issue)",
    ))
}

/// Reads one YAML spec file (full spec or overlay). Stub until the text layer lands: reports that
/// YAML specs are not read yet.
pub fn read_spec_file(path: &str, text: &str) -> super::DocRead {
    let _ = text;
    super::DocRead {
        ops: Vec::new(),
        diagnostics: vec![crate::ir::Diagnostic::file_level(
            crate::ir::Severity::Error,
            "yaml-unsupported",
            "YAML specs are not read yet (read::specs::read_spec_file is a stub)",
            path,
        )],
    }
}
