//! `aclgen import`: docs → normalized YAML specs, never overwriting a person's spec.

use super::{Failure, Outcome};
use crate::ir::Severity;
use std::path::{Path, PathBuf};

pub fn run(docs: &[PathBuf], out: &Path, force: bool) -> Outcome {
    let imported = crate::specs::import(docs, out, force)?;
    eprint!("{}", crate::diag::render(&imported.diagnostics));
    for path in &imported.written {
        println!("wrote {}", path.display());
    }
    if imported
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
    {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}
