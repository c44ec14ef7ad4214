//! The only part of `gen` that touches the disk: checks every path before anything is written,
//! writes atomically and only what changed, removes what an earlier run generated and is no longer
//! wanted (per the manifest, never anything else), and renders `--check` reports.

use super::manifest::{slash_path, Manifest, OpInputs, MANIFEST};
use super::{Refused, WriteError};
use crate::emit::check_path;
use crate::emit::{OutFile, Owned};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What bringing the output folder up to date takes. It borrows the emitted files: a full corpus
/// run emits tens of megabytes, which must not be held twice.
#[derive(Debug, Default)]
pub struct Plan<'a> {
    /// Files to create (`old` is `None`) or rewrite, manifest included.
    pub writes: Vec<PendingWrite<'a>>,
    pub unchanged: usize,
    /// Files listed in the old manifest that are no longer generated.
    pub removals: Vec<PathBuf>,
    /// The manifest the plan writes.
    pub manifest: Manifest,
}

#[derive(Debug)]
pub struct PendingWrite<'a> {
    pub file: Cow<'a, OutFile>,
    pub old: Option<String>,
}

impl Plan<'_> {
    pub fn is_fresh(&self) -> bool {
        self.writes.is_empty() && self.removals.is_empty()
    }
}

/// Compares the wanted files with the output folder. `keep_owners` are ops that failed this run:
/// their files from the last run stay (listed, not removed). `forbidden` folders (`--kernels`)
/// must not receive any file. Validates every path before anything is written.
pub fn plan<'a>(
    out: &Path,
    files: &'a [Owned],
    old: &Manifest,
    keep_owners: &BTreeSet<String>,
    forbidden: &[PathBuf],
    inputs: &BTreeMap<String, OpInputs>,
) -> Result<Plan<'a>, WriteError> {
    let mut manifest = Manifest {
        inputs: inputs.clone(),
        ..Manifest::default()
    };
    for owned in files {
        check_path(&owned.file.path).map_err(Refused::from)?;
        let key = slash_path(&owned.file.path);
        if key == MANIFEST {
            return Err(Refused::Reserved.into());
        }
        if let Some(other) = manifest.entries.insert(key.clone(), owned.owner.clone()) {
            return Err(Refused::GeneratedTwice {
                path: key,
                first: other,
                second: owned.owner.clone(),
            }
            .into());
        }
    }
    refuse_forbidden(out, files, forbidden)?;
    // The kept owners' old entries, in one sorted pass (an incremental gen keeps thousands).
    let keep: std::collections::HashSet<&str> = keep_owners.iter().map(String::as_str).collect();
    let kept: BTreeMap<String, String> = old
        .entries
        .iter()
        .filter(|(path, owner)| {
            keep.contains(owner.as_str()) && !manifest.entries.contains_key(*path)
        })
        .map(|(path, owner)| (path.clone(), owner.clone()))
        .collect();
    let emitted = std::mem::replace(&mut manifest.entries, kept);
    manifest.entries.extend(emitted);

    let manifest_file = OutFile {
        path: PathBuf::from(MANIFEST),
        contents: manifest.render(),
    };
    let wanted: Vec<Cow<'a, OutFile>> = files
        .iter()
        .map(|o| Cow::Borrowed(&o.file))
        .chain([Cow::Owned(manifest_file)])
        .collect();
    // Reading the old files is most of a no-change run: on all cores.
    let olds = read_all_existing(out, &wanted)?;
    let mut plan = Plan::default();
    for (file, old_text) in wanted.into_iter().zip(olds) {
        if old_text.as_deref() == Some(file.contents.as_str()) {
            plan.unchanged += 1;
        } else {
            plan.writes.push(PendingWrite {
                file,
                old: old_text,
            });
        }
    }
    for (path, owner) in &old.entries {
        // A kept owner's files are all still listed.
        if !keep.contains(owner.as_str())
            && !manifest.entries.contains_key(path)
            && out.join(path).is_file()
        {
            plan.removals.push(PathBuf::from(path));
        }
    }
    plan.manifest = manifest;
    Ok(plan)
}

/// The current text of each wanted file (`None`: absent). A folder that does not exist is looked
/// up once, not once per file in it (a first run creates thousands of files).
fn read_all_existing(
    out: &Path,
    wanted: &[Cow<'_, OutFile>],
) -> Result<Vec<Option<String>>, WriteError> {
    use rayon::prelude::*;
    let mut dir_exists: HashMap<&Path, bool> = HashMap::new();
    let present: Vec<bool> = wanted
        .iter()
        .map(|f| folder_exists(out, f.path.parent(), &mut dir_exists))
        .collect();
    wanted
        .par_iter()
        .zip(present)
        .map(|(f, present)| {
            if present {
                read_existing(&out.join(&f.path))
            } else {
                Ok(None)
            }
        })
        .collect()
}

/// Whether `out/dir` is a folder, asked of the file system only when its parent is one: into a
/// missing `--out`, a first run looks up one folder, not 1,500.
fn folder_exists<'p>(
    out: &Path,
    dir: Option<&'p Path>,
    known: &mut HashMap<&'p Path, bool>,
) -> bool {
    let Some(dir) = dir.filter(|d| !d.as_os_str().is_empty()) else {
        return out.is_dir();
    };
    if let Some(&exists) = known.get(dir) {
        return exists;
    }
    let exists = folder_exists(out, dir.parent(), known) && out.join(dir).is_dir();
    known.insert(dir, exists);
    exists
}

/// The current text of a generated file; `None` when absent. A non-UTF-8 file counts as different.
fn read_existing(path: &Path) -> Result<Option<String>, WriteError> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(String::from_utf8(bytes).unwrap_or_default())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(WriteError::io("read", path, e)),
    }
}

/// Refuses files that would land in a forbidden folder (`--kernels` nested inside `--out`).
fn refuse_forbidden(out: &Path, files: &[Owned], forbidden: &[PathBuf]) -> Result<(), WriteError> {
    let out_abs = absolute(out);
    for dir in forbidden.iter().map(|d| absolute(d)) {
        if out_abs.starts_with(&dir) {
            return Err(Refused::OutInsideForbidden {
                out: out.to_path_buf(),
                folder: dir,
            }
            .into());
        }
        if let Some(owned) = files
            .iter()
            .find(|o| out_abs.join(&o.file.path).starts_with(&dir))
        {
            return Err(Refused::IntoForbidden {
                file: owned.file.path.clone(),
                folder: dir,
            }
            .into());
        }
    }
    Ok(())
}

/// The canonical form of a path when it exists (symlinks resolved), else its absolute form.
fn absolute(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|cwd| cwd.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}

/// Writes and removes what the plan says. Each write is a temp file in the target's folder
/// renamed over the target, so a reader never sees a half-written file; a first gen renames
/// the whole tree into place at once.
pub fn apply(out: &Path, plan: &Plan) -> Result<(), WriteError> {
    if plan.removals.is_empty() && is_absent(out) {
        // Without a staging folder beside `out` (a read-only parent), files go in one by one.
        if let Some(staging) = create_staging_folder(out) {
            return write_fresh_tree(out, &staging, plan);
        }
    }
    fs::create_dir_all(out).map_err(|e| WriteError::io("create", out, e))?;
    let out_abs = absolute(out);
    // The manifest last: if a write fails, the old manifest still lists what earlier runs made.
    let (manifest, others): (Vec<_>, Vec<_>) = plan
        .writes
        .iter()
        .partition(|w| w.file.path == Path::new(MANIFEST));
    prepare_dirs(&out_abs, others.iter().map(|w| w.file.path.as_path()))?;
    write_in_parallel(&out_abs, &others)?;
    for write in manifest {
        write_atomic(&out_abs, &write.file)?;
    }
    for path in &plan.removals {
        remove_generated(&out_abs, path)?;
    }
    Ok(())
}

/// True when nothing is at `out`, not even a dangling symlink: a first gen may then build the tree
/// beside it and rename it into place. A folder that exists, even empty, is kept as the user made
/// it (owner, mode, mount).
fn is_absent(out: &Path) -> bool {
    fs::symlink_metadata(out).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A first gen into an absent `out`: every file is written plainly into a staging folder beside
/// it, which is then renamed into place. The tree appears whole or not at all, and the 5,000
/// per-file temp files and renames of an update are not needed.
fn write_fresh_tree(out: &Path, staging: &Path, plan: &Plan) -> Result<(), WriteError> {
    let result = fill_staging_folder(staging, plan)
        .and_then(|()| fs::rename(staging, out).map_err(|e| WriteError::io("create", out, e)));
    if result.is_err() {
        let _ = fs::remove_dir_all(staging);
    }
    result
}

/// `.<out name>.aclgen-new-<pid>-<n>` beside `out`, made with the usual folder permissions;
/// `None` when none can be made there. Staging folders of runs that were killed are removed.
fn create_staging_folder(out: &Path) -> Option<PathBuf> {
    let parent = parent_of(out);
    fs::create_dir_all(parent).ok()?;
    let prefix = format!(".{}.aclgen-new-", out.file_name()?.to_string_lossy());
    remove_abandoned_staging(parent, &prefix);
    (0..100).find_map(|n| {
        let staging = parent.join(format!("{prefix}{}-{n}", std::process::id()));
        fs::create_dir(&staging).ok().map(|()| staging)
    })
}

/// Removes `<prefix><pid>-<n>` folders whose process no longer runs (a gen killed between
/// filling its staging folder and renaming it). Only where `/proc` tells which processes run.
fn remove_abandoned_staging(parent: &Path, prefix: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").is_dir() {
        return;
    }
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split_once('-'))
            .map(|(pid, _)| pid)
        else {
            continue;
        };
        let is_pid = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
        if is_pid && !proc.join(pid).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Nothing but this run writes in the fresh staging folder, so its folders need no checks and
/// are made on all writer threads like the files (one at a time, they took a third of a corpus
/// gen's serial time).
fn fill_staging_folder(staging: &Path, plan: &Plan) -> Result<(), WriteError> {
    let folders: BTreeSet<&Path> = plan
        .writes
        .iter()
        .filter_map(|w| w.file.path.parent())
        .collect();
    let folders: Vec<&Path> = folders.into_iter().collect();
    in_parallel(&folders, |folder| {
        let dir = staging.join(folder);
        fs::create_dir_all(&dir).map_err(|e| WriteError::io("create", &dir, e))
    })?;
    let writes: Vec<&PendingWrite> = plan.writes.iter().collect();
    in_parallel(&writes, |w| {
        let target = staging.join(&w.file.path);
        fs::write(&target, w.file.contents.as_bytes())
            .map_err(|e| WriteError::io("write", &target, e))
    })
}

/// Creates each target folder once and checks it stays inside `--out` (a symlinked folder must
/// not lead the writes elsewhere), instead of once per file. Folders go parents first: one this
/// run creates is a real folder inside a checked parent, so only folders that already existed
/// need a look, and only symlinks among them a canonicalize.
fn prepare_dirs<'p>(
    out_abs: &Path,
    paths: impl Iterator<Item = &'p Path>,
) -> Result<(), WriteError> {
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    for path in paths {
        for ancestor in path.ancestors().skip(1) {
            if ancestor.as_os_str().is_empty() || !dirs.insert(out_abs.join(ancestor)) {
                break;
            }
        }
    }
    for dir in &dirs {
        let fail = |e: std::io::Error| WriteError::io("create", dir, e);
        match fs::create_dir(dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let meta = fs::symlink_metadata(dir).map_err(fail)?;
                let inside = !meta.file_type().is_symlink() || absolute(dir).starts_with(out_abs);
                if !inside || !dir.is_dir() {
                    return Err(Refused::OutsideOutput(dir.clone()).into());
                }
            }
            Err(e) => return Err(fail(e)),
        }
    }
    Ok(())
}

/// File creation is bound by the file system's latency, not the CPU: more threads than cores
/// keep it busy (measured here: 13,000 files in about 0.6 of one thread's time).
const WRITE_THREADS: usize = 8;

fn write_in_parallel(out_abs: &Path, writes: &[&PendingWrite]) -> Result<(), WriteError> {
    in_parallel(writes, |w| write_file(out_abs, &w.file))
}

/// Runs `work` on every item on `WRITE_THREADS` threads; the first error wins.
fn in_parallel<T: Sync>(
    items: &[T],
    work: impl Fn(&T) -> Result<(), WriteError> + Sync,
) -> Result<(), WriteError> {
    if items.is_empty() {
        return Ok(());
    }
    let chunk = items.len().div_ceil(WRITE_THREADS);
    let work = &work;
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().try_for_each(work)))
            .collect();
        // The scope joins every worker before returning, even after the first error.
        workers.into_iter().try_for_each(|w| {
            w.join()
                .unwrap_or_else(|_| Err(Refused::WriterPanicked.into()))
        })
    })
}

/// A write into a folder `prepare_dirs` made: temp file (created 0644, not 0600) then rename.
fn write_file(out_abs: &Path, file: &OutFile) -> Result<(), WriteError> {
    let target = out_abs.join(&file.path);
    let dir = target.parent().unwrap_or(out_abs);
    let fail = |e: std::io::Error| WriteError::io("write", &target, e);
    let mut tmp = temp_builder().tempfile_in(dir).map_err(fail)?;
    tmp.write_all(file.contents.as_bytes()).map_err(fail)?;
    tmp.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

fn write_atomic(out_abs: &Path, file: &OutFile) -> Result<(), WriteError> {
    prepare_dirs(out_abs, std::iter::once(file.path.as_path()))?;
    write_file(out_abs, file)
}

/// Temp files for generated files: hidden, and created 0644 like ordinary files (tempfile's
/// default is 0600), with no extra chmod per file.
fn temp_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".aclgen-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o644));
    }
    builder
}

/// Removes one formerly generated file, then the folders it leaves empty (up to `--out`).
fn remove_generated(out_abs: &Path, path: &Path) -> Result<(), WriteError> {
    let target = out_abs.join(path);
    match fs::remove_file(&target) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(WriteError::io("remove", &target, e)),
    }
    let mut dir = target.parent();
    while let Some(d) = dir {
        if d == out_abs || !d.starts_with(out_abs) || fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::check_report;

    fn owned(owner: &str, path: &str, contents: &str) -> Owned {
        Owned {
            owner: owner.to_string(),
            file: OutFile {
                path: PathBuf::from(path),
                contents: contents.to_string(),
            },
        }
    }

    /// What a sync did (the plan borrows the files, which the callers pass as temporaries).
    struct Synced {
        writes: usize,
        unchanged: usize,
        removals: Vec<PathBuf>,
    }

    impl Synced {
        fn is_fresh(&self) -> bool {
            self.writes == 0 && self.removals.is_empty()
        }
    }

    fn sync(out: &Path, files: &[Owned]) -> Synced {
        let old = Manifest::read(out).unwrap();
        let plan = plan(out, files, &old, &BTreeSet::new(), &[], &BTreeMap::new()).unwrap();
        apply(out, &plan).unwrap();
        Synced {
            writes: plan.writes.len(),
            unchanged: plan.unchanged,
            removals: plan.removals.clone(),
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_folders_may_not_lead_outside_out() {
        let tmp = tempfile::tempdir().unwrap();
        let (out, outside) = (tmp.path().join("out"), tmp.path().join("outside"));
        fs::create_dir_all(out.join("inner")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        // Inside `--out`: followed.
        std::os::unix::fs::symlink(out.join("inner"), out.join("alias")).unwrap();
        sync(&out, &[owned("A", "alias/x/a.h", "a\n")]);
        assert_eq!(fs::read_to_string(out.join("inner/x/a.h")).unwrap(), "a\n");
        // Leading outside: refused, and nothing is written there.
        std::os::unix::fs::symlink(&outside, out.join("ops")).unwrap();
        let files = [owned("A", "ops/x/b.h", "b\n")];
        let plan = plan(
            &out,
            &files,
            &Manifest::default(),
            &BTreeSet::new(),
            &[],
            &BTreeMap::new(),
        )
        .unwrap();
        let err = apply(&out, &plan).unwrap_err();
        assert!(
            err.to_string().contains("leads outside the output folder"),
            "{err}"
        );
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
    }

    /// What tells one folder from another at the same path: its inode (`None` off unix, where
    /// the check is skipped).
    #[cfg(unix)]
    fn folder_id(path: &Path) -> Option<u64> {
        fs::metadata(path)
            .ok()
            .map(|meta| std::os::unix::fs::MetadataExt::ino(&meta))
    }

    #[cfg(not(unix))]
    fn folder_id(_path: &Path) -> Option<u64> {
        None
    }

    #[test]
    fn a_first_gen_appears_whole_or_not_at_all() {
        let tmp = tempfile::tempdir().unwrap();
        let beside = |tmp: &Path| fs::read_dir(tmp).unwrap().count();
        // An absent `--out` is filled through a staging folder, which does not stay; an existing
        // empty one is filled in place (the same folder, as its user made it).
        for (name, exists) in [("absent", false), ("empty", true)] {
            let out = tmp.path().join(name);
            if exists {
                fs::create_dir(&out).unwrap();
            }
            let folder_before = folder_id(&out);
            let before = beside(tmp.path()) + usize::from(!exists);
            let synced = sync(&out, &[owned("A", "ops/a/x.h", "a\n")]);
            assert_eq!(synced.writes, 2, "{name}");
            assert_eq!(fs::read_to_string(out.join("ops/a/x.h")).unwrap(), "a\n");
            assert!(Manifest::read(&out)
                .unwrap()
                .entries
                .contains_key("ops/a/x.h"));
            assert_eq!(beside(tmp.path()), before, "{name}: staging folder left");
            if exists {
                assert_eq!(
                    folder_id(&out),
                    folder_before,
                    "existing --out was replaced"
                );
            }
        }
        // The staging folder of a killed run (its pid is gone) is cleared by the next first gen.
        #[cfg(target_os = "linux")]
        {
            let abandoned = tmp.path().join(".again.aclgen-new-4294967295-0");
            fs::create_dir_all(abandoned.join("ops")).unwrap();
            sync(&tmp.path().join("again"), &[owned("A", "a.h", "a\n")]);
            assert!(!abandoned.exists(), "abandoned staging folder kept");
            let live = tmp
                .path()
                .join(format!(".again2.aclgen-new-{}-7", std::process::id()));
            fs::create_dir(&live).unwrap();
            sync(&tmp.path().join("again2"), &[owned("A", "a.h", "a\n")]);
            assert!(live.exists(), "a running gen's staging folder was removed");
            fs::remove_dir(&live).unwrap();
        }
        // A write that fails (a file where its folder must go) leaves no `--out` and no staging.
        let out = tmp.path().join("failed");
        let files = [owned("A", "ops/a", "a\n"), owned("A", "ops/a/x.h", "x\n")];
        let before = beside(tmp.path());
        let plan = plan(
            &out,
            &files,
            &Manifest::default(),
            &BTreeSet::new(),
            &[],
            &BTreeMap::new(),
        )
        .unwrap();
        assert!(apply(&out, &plan).is_err());
        assert!(!out.exists());
        assert_eq!(
            beside(tmp.path()),
            before,
            "staging folder left after a failure"
        );
    }

    #[test]
    fn unsafe_paths_are_refused() {
        for bad in [
            "../x.h",
            "ops/../../x",
            "/etc/passwd",
            "",
            "a/./b",
            "a b",
            "a/..",
            "ops\\x",
            "a//b",
        ] {
            assert!(check_path(Path::new(bad)).is_err(), "{bad:?} accepted");
        }
        assert!(check_path(Path::new("ops/avg_pool2d/op_api/aclnn_x.h")).is_ok());
        assert!(check_path(Path::new(".aclgen-manifest")).is_ok());
    }

    #[test]
    fn manifest_round_trips_and_drops_unsafe_lines() {
        let text = "# c\nAvg ops/a.h\n- rust/src/lib.rs\nEvil ../../etc/passwd\nnoowner\n";
        let manifest = Manifest::parse(text);
        assert_eq!(manifest.entries.len(), 2);
        assert_eq!(Manifest::parse(&manifest.render()), manifest);
    }

    #[test]
    fn second_sync_changes_nothing_and_stale_files_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("gen");
        let first = sync(
            &out,
            &[
                owned("A", "ops/a/x.h", "a\n"),
                owned("B", "ops/b/y.h", "b\n"),
            ],
        );
        assert_eq!(first.writes, 3, "two files and the manifest");
        let again = sync(
            &out,
            &[
                owned("A", "ops/a/x.h", "a\n"),
                owned("B", "ops/b/y.h", "b\n"),
            ],
        );
        assert!(again.is_fresh());
        assert_eq!(again.unchanged, 3);

        fs::write(out.join("ops/b/hand.txt"), "not generated").unwrap();
        let shrunk = sync(&out, &[owned("A", "ops/a/x.h", "a\n")]);
        assert_eq!(shrunk.removals, vec![PathBuf::from("ops/b/y.h")]);
        assert!(!out.join("ops/b/y.h").exists());
        assert!(
            out.join("ops/b/hand.txt").exists(),
            "unlisted file was removed"
        );
    }

    #[test]
    fn failed_owner_keeps_its_files() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        sync(
            out,
            &[
                owned("A", "ops/a/x.h", "a\n"),
                owned("B", "ops/b/y.h", "b\n"),
            ],
        );
        let old = Manifest::read(out).unwrap();
        let keep = BTreeSet::from(["B".to_string()]);
        let files = [owned("A", "ops/a/x.h", "a\n")];
        let plan = plan(out, &files, &old, &keep, &[], &BTreeMap::new()).unwrap();
        assert!(plan.is_fresh(), "{plan:?}");
    }

    #[test]
    fn writes_into_forbidden_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let kernels = out.join("kernels");
        let files = [owned("A", "kernels/a/body.h", "x")];
        let err = plan(
            out,
            &files,
            &Manifest::default(),
            &BTreeSet::new(),
            &[kernels],
            &BTreeMap::new(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("never writes"), "{err}");
    }

    #[test]
    fn duplicate_paths_are_refused() {
        let files = [owned("A", "x.h", "1"), owned("B", "x.h", "2")];
        let dir = tempfile::tempdir().unwrap();
        let err = plan(
            dir.path(),
            &files,
            &Manifest::default(),
            &BTreeSet::new(),
            &[],
            &BTreeMap::new(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("twice"), "{err}");
    }

    #[test]
    fn check_report_lists_and_diffs() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        sync(out, &[owned("A", "a.h", "one\ntwo\n")]);
        let old = Manifest::read(out).unwrap();
        let files = [owned("A", "a.h", "one\nTWO\n"), owned("A", "b.h", "new\n")];
        let plan = plan(out, &files, &old, &BTreeSet::new(), &[], &BTreeMap::new()).unwrap();
        let report = check_report(&plan);
        assert!(report.contains("would change a.h"), "{report}");
        assert!(
            report.contains("-two") && report.contains("+TWO"),
            "{report}"
        );
        assert!(report.contains("would create b.h"), "{report}");
    }
}
