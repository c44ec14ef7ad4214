//! Skipping a `gen` that has nothing to do, the way cargo skips a fresh crate.
//!
//! The fingerprint of a run hashes what decides its output — the contents of every file below
//! the specs, templates and kernels folders, and the identity of the aclgen binary — together
//! with the size and modification time of every file the last run generated (so a hand edit or
//! a deleted file is noticed). A run stores it beside the manifest with its exit status and
//! diagnostics; the next run with the same fingerprint writes nothing, replays them and reports
//! the tree up to date. The same without the specs (`base`) tells a run where only specs changed:
//! it reads again only the ops whose inputs changed. The file is machine-local
//! (mtimes, the binary) and git-ignored; a fresh clone has none and does the full run.

use super::Manifest;
use crate::diag::Diagnostic;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet};
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

/// The fingerprints of a run: `run` equal means nothing to do; `base` (everything but the specs)
/// equal means only specs changed, so only their ops need work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprints {
    pub run: String,
    pub base: String,
}

/// What a run's fingerprints are made of, kept so a run can recompute them after writing by
/// looking again only at the files it wrote.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The aclgen binary, the templates and the kernels.
    tools: u64,
    /// SipHash-1-3 of each spec file's contents, by path (as `input` walks them).
    pub specs: BTreeMap<PathBuf, u64>,
    /// Size and mtime of the manifest and of every file it lists, by path in the output folder.
    outputs: BTreeMap<String, u64>,
    /// The manifest as it was (read once per run).
    pub manifest: Manifest,
}

impl Snapshot {
    /// Looks at every input and output, or `None` when something cannot be read or there is no
    /// earlier run (then the run simply goes the full way).
    pub fn take(args: &Inputs) -> Option<Snapshot> {
        // No manifest, no earlier run to skip to: a first gen hashes nothing.
        let manifest = Manifest::read(args.out).ok()?;
        if manifest.entries.is_empty() {
            return None;
        }
        let mut h = DefaultHasher::new();
        binary_identity(&mut h)?;
        for dir in [args.templates, args.kernels] {
            dir.hash(&mut h);
            let files = sorted_files(dir)?;
            digests(&files, contents_digest)?.hash(&mut h);
        }
        let specs = sorted_files(args.specs)?;
        let spec_digests = digests(&specs, spec_digest)?;
        Some(Snapshot {
            tools: h.finish(),
            specs: specs.into_iter().zip(spec_digests).collect(),
            outputs: output_digests(args.out, &manifest)?,
            manifest,
        })
    }

    pub fn fingerprints(&self) -> Fingerprints {
        let mut h = DefaultHasher::new();
        self.tools.hash(&mut h);
        self.outputs.hash(&mut h);
        // The count the full run reports: every listed file and the manifest itself.
        let count = self.outputs.len();
        let base = format!("{:016x} {count}", h.finish());
        self.specs.hash(&mut h);
        let run = format!("{:016x} {count}", h.finish());
        Fingerprints { run, base }
    }

    /// The snapshot after a run that changed only the outputs `touched` and wrote `manifest`:
    /// the inputs are as they were, the other outputs are looked at again only if newly listed.
    pub fn after_write(
        self,
        out: &Path,
        manifest: Manifest,
        touched: &BTreeSet<String>,
    ) -> Option<Snapshot> {
        // Every output the run created, rewrote or removed is in `touched`: the others keep
        // their digests, and only the touched ones (and the manifest) are looked at again.
        let mut outputs = self.outputs;
        for path in touched.iter().map(String::as_str).chain([super::MANIFEST]) {
            if path == super::MANIFEST || manifest.entries.contains_key(path) {
                outputs.insert(path.to_string(), metadata_digest(&out.join(path))?);
            } else {
                outputs.remove(path);
            }
        }
        if outputs.len() != manifest.entries.len() + 1 {
            // A file listed now that the run did not write (or one dropped unseen): look again.
            outputs = output_digests(out, &manifest)?;
        }
        Some(Snapshot {
            outputs,
            manifest,
            ..self
        })
    }
}

/// Metadata digests of the manifest and the files it lists, on all cores.
fn output_digests(out: &Path, manifest: &Manifest) -> Option<BTreeMap<String, u64>> {
    use rayon::prelude::*;
    let paths: Vec<&str> = std::iter::once(super::MANIFEST)
        .chain(manifest.entries.keys().map(String::as_str))
        .collect();
    let digests: Vec<u64> = paths
        .par_iter()
        .map(|p| metadata_digest(&out.join(p)))
        .collect::<Option<_>>()?;
    Some(paths.into_iter().map(str::to_string).zip(digests).collect())
}

/// `Snapshot::take(args)`'s fingerprints.
pub fn of_run(args: &Inputs) -> Option<Fingerprints> {
    Snapshot::take(args).map(|s| s.fingerprints())
}

fn sorted_files(dir: &Path) -> Option<Vec<PathBuf>> {
    crate::files::files_below(dir).ok()
}

/// One digest per file, in the files' order, computed on all cores (a corpus run stats 5,000
/// outputs and reads 500 docs); `None` when any file cannot be read.
fn digests(files: &[PathBuf], digest: fn(&Path) -> Option<u64>) -> Option<Vec<u64>> {
    use rayon::prelude::*;
    files.par_iter().map(|file| digest(file)).collect()
}

/// A spec file's contents under SipHash-1-3 with zero keys: a fixed algorithm, so the per-op
/// hashes the manifest records from these are the same on every machine.
pub fn spec_digest(path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let mut h = siphasher::sip::SipHasher13::new();
    h.write(&bytes);
    Some(h.finish())
}

/// The layout of the stored record: a record of another version is no record (the run goes
/// the full way), never an error. 2: diagnostics stored as diagnostics, not as printed text.
pub const VERSION: u32 = 2;

/// What the last run reported, replayed when nothing changed since, and per op and per spec
/// file, so a run that reads only some ops again can still say everything the full run would.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRun {
    /// `VERSION` when stored.
    pub version: u32,
    pub fingerprint: String,
    pub base: String,
    /// Generated files (and the manifest) it vouches for.
    pub files: usize,
    /// It exited 1 (problems in the input).
    pub failed: bool,
    /// What it reported, by op and by spec file.
    pub diagnostics: RunDiagnostics,
}

impl Default for LastRun {
    fn default() -> Self {
        LastRun {
            version: VERSION,
            fingerprint: String::new(),
            base: String::new(),
            files: 0,
            failed: false,
            diagnostics: RunDiagnostics::default(),
        }
    }
}

/// Everything a gen reports about its inputs, as diagnostics, in the order gen prints them:
/// errors of spec files that gave no op, each refused op's problems, warnings, proofs (each by
/// op name).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunDiagnostics {
    /// Errors of spec files that belong to no op's IR (a YAML spec that does not parse), by file
    /// relative to the specs folder.
    pub file_errors: BTreeMap<String, Vec<Diagnostic>>,
    /// Each refused op's problems (its error diagnostics, or why emit refused it).
    pub op_problems: BTreeMap<String, Vec<Diagnostic>>,
    /// Each op's warnings that do not refuse it (no kernel body).
    pub op_warnings: BTreeMap<String, Vec<Diagnostic>>,
    /// Each op's proof diagnostics (rules demoted, no valid call).
    pub op_proofs: BTreeMap<String, Vec<Diagnostic>>,
}

impl RunDiagnostics {
    /// Every diagnostic in the order gen prints them, with the op it is about (`None` for the
    /// errors of a spec file that gave no op).
    pub fn in_order(&self) -> impl Iterator<Item = (Option<&str>, &Diagnostic)> {
        let files = self.file_errors.values().flatten().map(|d| (None, d));
        files
            .chain(by_op(&self.op_problems))
            .chain(by_op(&self.op_warnings))
            .chain(by_op(&self.op_proofs))
    }
}

fn by_op(
    map: &BTreeMap<String, Vec<Diagnostic>>,
) -> impl Iterator<Item = (Option<&str>, &Diagnostic)> {
    map.iter()
        .flat_map(|(op, diags)| diags.iter().map(move |d| (Some(op.as_str()), d)))
}

impl LastRun {
    /// The count in a fingerprint (`<hash> <count>`).
    pub fn count_of(fingerprint: &str) -> usize {
        fingerprint
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The last run's record, if there is one this aclgen can read.
pub fn last_run(out: &Path) -> Option<LastRun> {
    let text = std::fs::read_to_string(out.join(FINGERPRINT)).ok()?;
    serde_json::from_str::<LastRun>(&text)
        .ok()
        .filter(|last| last.version == VERSION)
}

/// The last run's report, when its stored fingerprint equals `current`.
pub fn fresh(out: &Path, current: &str) -> Option<LastRun> {
    last_run(out).filter(|last| last.fingerprint == current)
}

/// Stores the record of a finished run (best effort: a failure only costs the next run time).
pub fn store(out: &Path, run: &LastRun) {
    if let Ok(text) = serde_json::to_string(run) {
        let _ = std::fs::write(out.join(FINGERPRINT), text);
    }
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
        assert_eq!(LastRun::count_of(&a.run), 2);
        let run = LastRun {
            fingerprint: a.run.clone(),
            base: a.base.clone(),
            files: 2,
            failed: true,
            diagnostics: RunDiagnostics {
                op_problems: [("A".to_string(), vec![kernel_folder_problem()])].into(),
                ..RunDiagnostics::default()
            },
            ..LastRun::default()
        };
        store(&dir.path().join("out"), &run);
        assert_eq!(fresh(&dir.path().join("out"), &a.run), Some(run));
        assert_eq!(fresh(&dir.path().join("out"), &a.base), None);
    }

    fn kernel_folder_problem() -> Diagnostic {
        Diagnostic::file_level(
            crate::diag::Severity::Error,
            crate::diag::Code::KernelFolder,
            "aclnnA: kernels/a: unexpected x.h; nothing is generated for it",
            "kernels/a",
        )
    }

    /// The record keeps diagnostics as data (code, severity, place), so a replay prints what the
    /// run printed; the stored text is the same for the same record.
    #[test]
    fn the_record_stores_diagnostics_structured_and_deterministically() {
        let dir = project();
        let out = dir.path().join("out");
        let mut run = LastRun {
            fingerprint: "f 2".into(),
            ..LastRun::default()
        };
        for op in ["B", "A"] {
            run.diagnostics
                .op_problems
                .insert(op.to_string(), vec![kernel_folder_problem()]);
        }
        store(&out, &run);
        let text = std::fs::read_to_string(out.join(FINGERPRINT)).unwrap();
        assert!(text.contains(r#""code":"kernel-folder""#), "{text}");
        assert!(text.contains(r#""severity":"error""#), "{text}");
        assert!(text.find(r#""A""#) < text.find(r#""B""#), "{text}");
        store(&out, &run.clone());
        assert_eq!(
            std::fs::read_to_string(out.join(FINGERPRINT)).unwrap(),
            text
        );
        assert_eq!(last_run(&out), Some(run));
        let last = last_run(&out).unwrap();
        let order: Vec<Option<&str>> = last.diagnostics.in_order().map(|(op, _)| op).collect();
        assert_eq!(order, [Some("A"), Some("B")]);
    }

    /// A record an older aclgen stored (diagnostics as printed text, no version) is no record.
    #[test]
    fn a_record_of_another_version_is_ignored() {
        let dir = project();
        let out = dir.path().join("out");
        let old = r#"{"fingerprint":"f 2","base":"b 2","files":2,"failed":true,
            "op_problems":{"A":"error: x\n"},"op_warnings":{},"op_proofs":{},"file_errors":{}}"#;
        std::fs::write(out.join(FINGERPRINT), old).unwrap();
        assert_eq!(last_run(&out), None);
        let newer = serde_json::to_string(&LastRun {
            version: VERSION + 1,
            ..LastRun::default()
        })
        .unwrap();
        std::fs::write(out.join(FINGERPRINT), newer).unwrap();
        assert_eq!(last_run(&out), None);
    }

    #[test]
    fn an_edited_spec_or_a_deleted_output_changes_it() {
        let dir = project();
        let before = of_run(&args(dir.path()).inputs()).unwrap();
        std::fs::write(dir.path().join("specs/docs/a.md"), "# aclnnB").unwrap();
        let edited = of_run(&args(dir.path()).inputs()).unwrap();
        assert_ne!(before.run, edited.run);
        // Only a spec changed: the fingerprint without the specs is the same.
        assert_eq!(before.base, edited.base);
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
