//! Files → disk: the only stage that writes. Checks every path before anything is written,
//! writes atomically and only what changed, removes only what an earlier run listed in its
//! manifest, renders `--check` reports, and remembers a run's fingerprint so an unchanged one
//! is skipped.

mod check;
pub mod fingerprint;
mod manifest;
mod plan;

pub use check::check_report;
pub use manifest::{is_recordable, slash_path, Manifest, OpInputs, MANIFEST};
pub use plan::{apply, plan, Plan};

use std::path::{Path, PathBuf};

/// Counts for the one-line summary.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
}

/// Why gen writes nothing: a path it may not write, or an I/O error (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A path outside the output folder, reserved, generated twice, or inside `--kernels`.
    #[error("{0}")]
    Refused(String),
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

impl WriteError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        WriteError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}
