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
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A path gen may not write, and why.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// Not a plain relative path of portable names (`../x`, `/abs`, `a b`).
    #[error(transparent)]
    UnsafePath(#[from] crate::emit::Refusal),
    /// A generated file named like gen's manifest.
    #[error("`{MANIFEST}` is reserved for gen's manifest")]
    Reserved,
    /// Two generated files at one path.
    #[error("`{path}` is generated twice (by {first} and {second})")]
    GeneratedTwice {
        path: String,
        first: String,
        second: String,
    },
    /// `--out` inside a folder gen never writes (`--kernels`).
    #[error("--out {} is inside {}, where gen never writes", out.display(), folder.display())]
    OutInsideForbidden { out: PathBuf, folder: PathBuf },
    /// A generated file that would land in a folder gen never writes (`--kernels` inside `--out`).
    #[error("`{}` would be written into {}, where gen never writes", file.display(), folder.display())]
    IntoForbidden { file: PathBuf, folder: PathBuf },
    /// A folder of the output that is a symlink leading outside it, or not a folder.
    #[error(
        "{} leads outside the output folder or is not a folder; not writing there",
        .0.display()
    )]
    OutsideOutput(PathBuf),
    /// A writer thread panicked (a bug): nothing more is written.
    #[error("a writer thread panicked")]
    WriterPanicked,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reason keeps its parts as data and says what gen always said.
    #[test]
    fn refusals_are_typed_and_read_as_before() {
        let cases: Vec<(Refused, &str)> = vec![
            (
                crate::emit::Refusal::NotRelative("/abs".into()).into(),
                "output path `/abs` is not a plain relative path",
            ),
            (
                Refused::Reserved,
                "`.aclgen-manifest` is reserved for gen's manifest",
            ),
            (
                Refused::GeneratedTwice {
                    path: "a.h".into(),
                    first: "A".into(),
                    second: "B".into(),
                },
                "`a.h` is generated twice (by A and B)",
            ),
            (
                Refused::OutInsideForbidden {
                    out: "k/out".into(),
                    folder: "k".into(),
                },
                "--out k/out is inside k, where gen never writes",
            ),
            (
                Refused::IntoForbidden {
                    file: "ops/x.h".into(),
                    folder: "/o/ops".into(),
                },
                "`ops/x.h` would be written into /o/ops, where gen never writes",
            ),
            (
                Refused::OutsideOutput("/o/ops".into()),
                "/o/ops leads outside the output folder or is not a folder; not writing there",
            ),
        ];
        for (reason, text) in cases {
            assert_eq!(WriteError::from(reason).to_string(), text);
        }
    }
}
