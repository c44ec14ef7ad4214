//! Skipping a `gen` that has nothing to do, the way cargo skips a fresh crate.
//!
//! The fingerprint of a run hashes what decides its output — the contents of every file below
//! the specs, templates and kernels folders, and the identity of the aclgen binary — together
//! with the size and modification time of every file the last run generated (so a hand edit or
//! a deleted file is noticed). A run stores it beside the manifest with its exit status and
//! diagnostics; the next run with the same fingerprint writes nothing, replays them and reports
//! the tree up to date. The file is machine-local
//! (mtimes, the binary) and git-ignored; a fresh clone has none and does the full run.

use super::Manifest;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

pub const FINGERPRINT: &str = ".aclgen-fingerprint";

/// The folders a run reads and the one it writes.
pub struct Inputs<'a> {
    pub specs: &'a Path,
    pub out: &'a Path,
    pub kernels: &'a Path,
    pub templates: &'a Path,
}

/// The fingerprint of a run of `gen` on `args`, or `None` when something cannot be read (then
/// the run simply goes the full way).
pub fn of_run(args: &Inputs) -> Option<String> {
    // No manifest, no earlier run to skip to: a first gen hashes nothing.
    let manifest = Manifest::read(&args.out).ok()?;
    if manifest.entries.is_empty() {
        return None;
    }
    let mut h = DefaultHasher::new();
    binary_identity(&mut h)?;
    for dir in [args.specs, args.templates, args.kernels] {
        dir.hash(&mut h);
        let mut files = Vec::new();
        collect_files(dir, &mut files)?;
        files.sort();
        digests(&files, contents_digest)?.hash(&mut h);
    }
    let outputs: Vec<PathBuf> = std::iter::once(super::MANIFEST)
        .chain(manifest.entries.keys().map(String::as_str))
        .map(|path| args.out.join(path))
        .collect();
    digests(&outputs, metadata_digest)?.hash(&mut h);
    // The count the full run reports: every listed file and the manifest itself.
    Some(format!(
        "{:016x} {}\n",
        h.finish(),
        manifest.entries.len() + 1
    ))
}

/// One digest per file, in the files' order, computed on all cores (a corpus run stats 5,000
/// outputs and reads 500 docs); `None` when any file cannot be read.
fn digests(files: &[PathBuf], digest: fn(&Path) -> Option<u64>) -> Option<Vec<u64>> {
    use rayon::prelude::*;
    files.par_iter().map(|file| digest(file)).collect()
}

/// What the last run reported, replayed when nothing changed since.
#[derive(Debug, PartialEq, Eq)]
pub struct LastRun {
    /// Generated files (and the manifest) it vouches for.
    pub files: usize,
    /// It exited 1 (problems in the input).
    pub failed: bool,
    /// Its diagnostics, as printed.
    pub problems: String,
}

/// The last run's report, when its stored fingerprint equals `current`.
pub fn fresh(out: &Path, current: &str) -> Option<LastRun> {
    let stored = std::fs::read_to_string(out.join(FINGERPRINT)).ok()?;
    let (head, problems) = stored.split_once('\n')?;
    let (fp, status) = head.rsplit_once(' ')?;
    if fp != current.trim_end() {
        return None;
    }
    Some(LastRun {
        files: fp.split_whitespace().nth(1)?.parse().ok()?,
        failed: status == "failed",
        problems: problems.to_string(),
    })
}

/// Stores the fingerprint of a finished run with its status and diagnostics (best effort: a
/// failure only costs the next run time).
pub fn store(out: &Path, fingerprint: &str, failed: bool, problems: &str) {
    let status = if failed { "failed" } else { "ok" };
    let _ = std::fs::write(
        out.join(FINGERPRINT),
        format!("{} {status}\n{problems}", fingerprint.trim_end()),
    );
}

/// Forgets the stored fingerprint (a run that did not finish must not be skipped next time).
pub fn forget(out: &Path) {
    let _ = std::fs::remove_file(out.join(FINGERPRINT));
}

fn binary_identity(h: &mut DefaultHasher) -> Option<()> {
    let exe = std::env::current_exe().ok()?;
    hash_metadata(&exe, h)?;
    env!("CARGO_PKG_VERSION").hash(h);
    Some(())
}

fn hash_metadata(path: &Path, h: &mut DefaultHasher) -> Option<()> {
    let meta = std::fs::metadata(path).ok()?;
    path.hash(h);
    meta.len().hash(h);
    meta.modified().ok()?.hash(h);
    Some(())
}

fn metadata_digest(path: &Path) -> Option<u64> {
    let mut h = DefaultHasher::new();
    hash_metadata(path, &mut h)?;
    Some(h.finish())
}

fn contents_digest(path: &Path) -> Option<u64> {
    let mut h = DefaultHasher::new();
    path.hash(&mut h);
    std::fs::read(path).ok()?.hash(&mut h);
    Some(h.finish())
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> Option<()> {
    if !dir.exists() {
        return Some(());
    }
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Folders([PathBuf; 4]);

    impl Folders {
        fn inputs(&self) -> Inputs<'_> {
            Inputs {
                specs: &self.0[0],
                out: &self.0[1],
                kernels: &self.0[2],
                templates: &self.0[3],
            }
        }
    }

    fn args(root: &Path) -> Folders {
        Folders(["specs", "out", "kernels", "templates"].map(|d| root.join(d)))
    }

    fn project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["specs/docs", "templates", "kernels", "out"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("specs/docs/a.md"), "# aclnnA").unwrap();
        std::fs::write(dir.path().join("out/a.h"), "int a;").unwrap();
        std::fs::write(
            dir.path().join("out").join(crate::write::MANIFEST),
            "A a.h\n",
        )
        .unwrap();
        dir
    }

    #[test]
    fn same_inputs_and_outputs_give_the_same_fingerprint() {
        let dir = project();
        let a = of_run(&args(dir.path()).inputs()).unwrap();
        assert_eq!(of_run(&args(dir.path()).inputs()), Some(a.clone()));
        store(&dir.path().join("out"), &a, true, "error: x\n");
        let last = fresh(&dir.path().join("out"), &a).unwrap();
        assert_eq!(
            last,
            LastRun {
                files: 2,
                failed: true,
                problems: "error: x\n".into()
            }
        );
    }

    #[test]
    fn an_edited_spec_or_a_deleted_output_changes_it() {
        let dir = project();
        let before = of_run(&args(dir.path()).inputs()).unwrap();
        std::fs::write(dir.path().join("specs/docs/a.md"), "# aclnnB").unwrap();
        let edited = of_run(&args(dir.path()).inputs()).unwrap();
        assert_ne!(before, edited);
        std::fs::remove_file(dir.path().join("out/a.h")).unwrap();
        assert_eq!(of_run(&args(dir.path()).inputs()), None);
    }

    #[test]
    fn no_manifest_means_no_fingerprint() {
        let dir = project();
        std::fs::remove_file(dir.path().join("out").join(crate::write::MANIFEST)).unwrap();
        assert_eq!(of_run(&args(dir.path()).inputs()), None);
    }
}
