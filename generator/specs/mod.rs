//! Stage 2: a specs folder → one merged IR per op. Docs in `docs/` (read by `read`), YAML in
//! `ops/` (full specs, or overlays that correct a doc); the schema is documented in
//! `specs/README.md`.

mod import;
pub mod inplace;
mod load;
mod merge;
pub mod msopgen;
mod overlay;
mod schema;
#[cfg(test)]
mod testing;

pub use import::{import, Imported};
pub use load::{input_files, load_specs, load_specs_only, select_inputs, Specs};
pub use overlay::apply_overlay;
pub use schema::{full_to_yaml, ir_to_full, parse_spec, ErrorMatch, FullSpec, Overlay, SpecFile};

use crate::ir::{Diagnostic, OpIr};
use crate::read::DocRead;
use schema::full_to_ir;
use std::path::{Path, PathBuf};

/// Why a specs folder or file could not be read or written (problems in a file's contents are
/// diagnostics, not errors).
#[derive(Debug, thiserror::Error)]
pub enum SpecsError {
    #[error("specs folder {} does not exist", .0.display())]
    NoFolder(PathBuf),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{op}: cannot serialize the spec: {message}")]
    Serialize { op: String, message: String },
}

impl SpecsError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        SpecsError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Reads one input file: a YAML spec (by extension), msOpGen's op JSON or a doc (any other file;
/// which, and the doc's format, is read from the content).
pub fn read_file(path: &Path) -> Result<DocRead, SpecsError> {
    let bytes = std::fs::read(path).map_err(|e| SpecsError::io(path, e))?;
    let name = path.display().to_string();
    if is_yaml(path) {
        let text = String::from_utf8_lossy(&bytes);
        return Ok(read_spec_file(&name, &text));
    }
    Ok(read_input(&name, &bytes))
}

/// One input of `import`, `show` or `lint` that is not a YAML spec: msOpGen's op JSON (known by
/// its content) or a doc.
pub fn read_input(name: &str, bytes: &[u8]) -> DocRead {
    if msopgen::is_msopgen_json(bytes) {
        return msopgen::read_msopgen(name, bytes);
    }
    crate::read::read_doc(name, bytes)
}

pub fn is_yaml(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}

/// `show` on a YAML spec: a full spec gives its op; an overlay gives nothing on its own (it is
/// applied by `load_specs` to the doc's op) and no diagnostic; a bad file gives its error.
pub fn read_spec_file(path: &str, text: &str) -> DocRead {
    match parse_spec(path, text) {
        Ok(SpecFile::Full(full)) => {
            let mut op = full_to_ir(full, path);
            refresh_generation_problems(&mut op);
            DocRead {
                ops: vec![op],
                diagnostics: Vec::new(),
            }
        }
        Ok(SpecFile::Overlay(_)) => DocRead::default(),
        Err(d) => DocRead {
            ops: Vec::new(),
            diagnostics: vec![d],
        },
    }
}

/// Op names become file names and Rust/C identifiers: `[A-Za-z_][A-Za-z0-9_]*` only.
pub fn is_op_name(name: &str) -> bool {
    crate::ir::is_identifier(name)
}

/// Brings the op's generation problems up to date with its IR (an overlay may have fixed a
/// prototype the doc got wrong, or a merge filled one in). Problems still there keep the doc's
/// source line the reader quoted.
pub fn refresh_generation_problems(op: &mut OpIr) {
    let fresh = op.generation_problems();
    let same = |a: &Diagnostic, b: &Diagnostic| a.code == b.code && a.message == b.message;
    op.diagnostics.retain(|d| {
        !crate::ir::GENERATION_CODES.contains(&d.code) || fresh.iter().any(|f| same(f, d))
    });
    for f in fresh {
        if !op.diagnostics.iter().any(|d| same(d, &f)) {
            op.diagnostics.push(f);
        }
    }
}
