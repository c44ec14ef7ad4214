//! `gen` as a library call: a specs folder → the generated tree, brought up to date (or, with
//! `check`, compared). Reads through `pipeline`, renders through `emit`, writes through `write`;
//! the caller prints the report.
//!
//! Three ways a run goes, cheapest first: nothing changed since the last run (its report is
//! replayed, nothing is read); only spec files changed (`incremental`: only their ops are read
//! and rendered again, with what all ops share); anything else (the full run).

mod incremental;

use crate::diag::{Diagnostic, Severity};
use crate::emit::{self, EmitCtx, Emitted, Owned, SHARED_OWNER};
use crate::ir::OpIr;
pub use crate::write::fingerprint::RunDiagnostics;
use crate::write::{self, fingerprint, Manifest, OpInputs, Summary};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each spec file's contents digest, by path relative to the specs folder (`/`-separated).
type SpecDigests = std::collections::HashMap<String, u64>;

/// What `gen` reads and where it writes.
#[derive(Debug, Clone)]
pub struct GenOptions {
    /// The specs folder: `docs/` and `ops/`.
    pub specs: PathBuf,
    /// The generated tree.
    pub out: PathBuf,
    /// Hand-written kernel bodies and tiling choices (read, never written).
    pub kernels: PathBuf,
    /// Tera templates of the C and Ascend C outputs.
    pub templates: PathBuf,
    /// Write nothing; report what would change.
    pub check: bool,
}

impl GenOptions {
    fn fingerprint_inputs(&self) -> fingerprint::Inputs<'_> {
        fingerprint::Inputs {
            specs: &self.specs,
            out: &self.out,
            kernels: &self.kernels,
            templates: &self.templates,
        }
    }
}

/// Why gen stopped before writing anything (exit 2). Problems in the specs are not errors: they
/// are in the report.
#[derive(Debug, thiserror::Error)]
pub enum GenError {
    #[error(transparent)]
    Specs(#[from] crate::specs::SpecsError),
    #[error(transparent)]
    Emit(#[from] emit::EmitError),
    #[error(transparent)]
    Write(#[from] write::WriteError),
}

/// How a gen went.
#[derive(Debug, Default)]
pub struct GenReport {
    /// Files written (or, with `check`, stale), unchanged and removed.
    pub summary: Summary,
    /// With `check`: each stale file with a short diff.
    pub stale_report: String,
    /// What it reports about the inputs: errors, refusals, warnings and proofs, by op and file
    /// (the CLI renders them).
    pub diagnostics: RunDiagnostics,
    /// Some input had errors (exit 1): its ops were refused and their old files kept.
    pub input_failed: bool,
    /// Nothing changed since the last run: its report was replayed and nothing was read.
    pub replayed: bool,
    /// Ops read and rendered again by an incremental run (`None`: a full run or a replay).
    pub reread: Option<Vec<String>>,
    /// What gen did so that what it emits holds (`cases::prove`), and the ops it refused.
    pub proof: ProofCounts,
}

/// Rules demoted because no valid call survives them, ops without any valid call, ops refused.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ProofCounts {
    pub demoted: usize,
    pub no_valid_call: usize,
    pub refused: usize,
}

impl ProofCounts {
    fn of(record: &fingerprint::LastRun) -> ProofCounts {
        let count = |code| {
            record
                .diagnostics
                .op_proofs
                .values()
                .flatten()
                .filter(|d| d.code == code)
                .count()
        };
        ProofCounts {
            demoted: count(crate::diag::Code::RuleDemoted),
            no_valid_call: count(crate::diag::Code::NoValidCall),
            refused: record.diagnostics.op_problems.len(),
        }
    }
}

/// Runs gen. Nothing is written with `check`, nor when the run stops with an error.
pub fn generate(opts: &GenOptions) -> Result<GenReport, GenError> {
    let before = fingerprint::Snapshot::take(&opts.fingerprint_inputs());
    let fingerprints = before.as_ref().map(fingerprint::Snapshot::fingerprints);
    let last = fingerprint::last_run(&opts.out);
    if let (Some(fp), Some(last)) = (&fingerprints, &last) {
        if fp.run == last.fingerprint {
            // Nothing changed since the last run: say what it said, as cargo replays warnings.
            return Ok(GenReport {
                summary: Summary {
                    unchanged: last.files,
                    ..Summary::default()
                },
                diagnostics: last.diagnostics.clone(),
                proof: ProofCounts::of(last),
                input_failed: last.failed,
                replayed: true,
                ..GenReport::default()
            });
        }
    }
    let last = last.filter(|last| fingerprints.as_ref().is_some_and(|fp| fp.base == last.base));
    let read_now;
    let old = match &before {
        Some(snapshot) => &snapshot.manifest,
        None => {
            read_now = Manifest::read(&opts.out)?;
            &read_now
        }
    };
    let digests: Option<SpecDigests> = before.as_ref().map(|s| {
        s.specs
            .iter()
            .map(|(path, digest)| (relative_to(&opts.specs, path), *digest))
            .collect()
    });
    let result = match (last, &digests) {
        (Some(last), Some(digests)) if !opts.check => {
            match incremental::run(opts, old, &last, digests)? {
                Some(run) => Ok(run),
                None => gen_full(opts, old, Some(digests)),
            }
        }
        _ => gen_full(opts, old, digests.as_ref()),
    };
    match result {
        Ok(run) if opts.check => Ok(run.report),
        Ok(run) => Ok(store_run(opts, before, run)),
        Err(e) => {
            if !opts.check {
                fingerprint::forget(&opts.out);
            }
            Err(e)
        }
    }
}

/// A finished run: its report, the outputs it wrote or removed, and what the next run needs to
/// replay parts of it.
struct Run {
    report: GenReport,
    touched: BTreeSet<String>,
    /// The manifest the run wrote.
    manifest: Manifest,
    record: fingerprint::LastRun,
}

/// Records the run for the next one: its fingerprints (looking again only at the outputs it
/// touched when the inputs were looked at before it) and its diagnostics.
fn store_run(opts: &GenOptions, before: Option<fingerprint::Snapshot>, run: Run) -> GenReport {
    let after = match before {
        Some(snapshot) => snapshot.after_write(&opts.out, run.manifest, &run.touched),
        None => fingerprint::Snapshot::take(&opts.fingerprint_inputs()),
    };
    let Some(fp) = after.as_ref().map(fingerprint::Snapshot::fingerprints) else {
        fingerprint::forget(&opts.out);
        return run.report;
    };
    fingerprint::store(
        &opts.out,
        &fingerprint::LastRun {
            files: fingerprint::LastRun::count_of(&fp.run),
            fingerprint: fp.run,
            base: fp.base,
            failed: run.report.input_failed,
            ..run.record
        },
    );
    run.report
}

/// A full run: read every spec, emit every file, bring `out` up to date (or compare, with check).
fn gen_full(
    opts: &GenOptions,
    old: &Manifest,
    digests: Option<&SpecDigests>,
) -> Result<Run, GenError> {
    // Parsing the templates is serial: it overlaps the reading of the specs.
    let (tera, specs) = rayon::join(
        || emit::render::load_templates(&opts.templates),
        || crate::pipeline::load(&opts.specs),
    );
    let tera = tera?;
    let specs = specs?;
    let ctx = EmitCtx {
        tera,
        specs_dir: opts.specs.clone(),
        kernels_dir: opts.kernels.clone(),
    };
    let mut emitted = emit::emit_all(&specs.ops, &ctx)?;
    let file_errors = errors_by_file(&opts.specs, &specs.diagnostics);
    let all: Vec<String> = crate::specs::input_files(&opts.specs)?
        .iter()
        .map(|p| relative_to(&opts.specs, p))
        .collect();
    let mut inputs = input_records(&opts.specs, &specs.ops, &all, digests);
    match owners_of_failed_files(old, &file_errors) {
        // The ops last made from a file that fails now keep their files and the record of
        // what they were made from; an op whose files are all gone is removed.
        Some(owners) => {
            for owner in owners {
                if let Some(record) = old.inputs.get(&owner) {
                    inputs
                        .entry(owner.clone())
                        .or_insert_with(|| record.clone());
                }
                emitted.failed.insert(owner);
            }
        }
        None => emitted.keep_all_old = true,
    }
    let mut run = finish(opts, old, &emitted, &inputs, &Manifest::default())?;
    run.record.diagnostics.file_errors = file_errors;
    run.report.diagnostics = run.record.diagnostics.clone();
    run.report.proof = ProofCounts::of(&run.record);
    run.report.input_failed =
        !run.record.diagnostics.file_errors.is_empty() || !emitted.problems.is_empty();
    Ok(run)
}

/// Writes (or checks) the emitted files and records each op's problems for later replays.
/// `unchanged` holds the records of ops not read again (an incremental run).
fn finish(
    opts: &GenOptions,
    old: &Manifest,
    emitted: &Emitted,
    inputs: &BTreeMap<String, OpInputs>,
    unchanged: &Manifest,
) -> Result<Run, GenError> {
    let synced = sync_with(
        &opts.out,
        &opts.kernels,
        old,
        emitted,
        opts.check,
        inputs,
        unchanged,
    )?;
    let record = fingerprint::LastRun {
        diagnostics: RunDiagnostics {
            op_problems: emitted.problems.iter().cloned().collect(),
            op_warnings: emitted.warnings.iter().cloned().collect(),
            op_proofs: emitted.proofs.iter().cloned().collect(),
            ..RunDiagnostics::default()
        },
        ..fingerprint::LastRun::default()
    };
    Ok(Run {
        report: GenReport {
            summary: synced.summary,
            stale_report: synced.stale_report,
            ..GenReport::default()
        },
        touched: synced.touched,
        manifest: synced.manifest,
        record,
    })
}

/// The ops of the last run made from a file that has errors of its own now (it gave no op: a doc
/// or spec that does not parse far enough), by the manifest's `@inputs`. `None` when errors
/// cannot be traced (the last run recorded no inputs): then every old file is kept.
fn owners_of_failed_files(
    old: &Manifest,
    file_errors: &BTreeMap<String, Vec<Diagnostic>>,
) -> Option<BTreeSet<String>> {
    if file_errors.is_empty() {
        return Some(BTreeSet::new());
    }
    if old.inputs.is_empty() && !old.entries.is_empty() {
        return None;
    }
    Some(
        old.inputs
            .iter()
            .filter(|(op, r)| {
                op.as_str() != SHARED_OWNER && r.files.iter().any(|f| file_errors.contains_key(f))
            })
            .map(|(op, _)| op.clone())
            .collect(),
    )
}

/// The errors of the specs folder that belong to no op, by file relative to the folder, in
/// reading order within each file.
fn errors_by_file(specs: &Path, diagnostics: &[Diagnostic]) -> BTreeMap<String, Vec<Diagnostic>> {
    let mut by_file: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        by_file
            .entry(relative_to(specs, Path::new(&d.file)))
            .or_default()
            .push(d.clone());
    }
    by_file
}

/// A spec path as the manifest records it: relative to the specs folder, `/`-separated.
fn relative_to(specs: &Path, path: &Path) -> String {
    write::slash_path(path.strip_prefix(specs).unwrap_or(path))
}

/// Each op's input files and their hash, and (owner `-`) the files of `read` (relative to the
/// specs folder) that gave no op. Empty when a path cannot be recorded (then every run is a full
/// one).
fn input_records(
    specs: &Path,
    ops: &[OpIr],
    read: &[String],
    digests: Option<&SpecDigests>,
) -> BTreeMap<String, OpInputs> {
    let mut records = BTreeMap::new();
    let mut used = BTreeSet::new();
    for op in ops {
        let files: BTreeSet<String> = op
            .sources
            .iter()
            .map(|s| relative_to(specs, Path::new(s)))
            .collect();
        used.extend(files.iter().cloned());
        records.insert(op.op.clone(), files.into_iter().collect::<Vec<_>>());
    }
    let orphans: Vec<String> = read
        .iter()
        .filter(|f| !used.contains(*f))
        .cloned()
        .collect();
    if !orphans.is_empty() {
        records.insert(SHARED_OWNER.to_string(), orphans);
    }
    let recordable = records.iter().all(|(op, files)| {
        write::is_recordable(op) && files.iter().all(|f| write::is_recordable(f))
    });
    if !recordable {
        return BTreeMap::new();
    }
    records
        .into_iter()
        .filter_map(|(op, files)| {
            let hash = incremental::hash_files(specs, &files, digests)?;
            Some((op, OpInputs { hash, files }))
        })
        .collect()
}

/// Brings `out` up to date with `emitted` (or, with `check`, reports what that would change).
/// Returns the summary and, with `check`, the report of stale files.
pub fn sync(
    out: &Path,
    kernels: &Path,
    emitted: &Emitted,
    check: bool,
) -> Result<(Summary, String), write::WriteError> {
    let old = Manifest::read(out)?;
    let synced = sync_with(
        out,
        kernels,
        &old,
        emitted,
        check,
        &BTreeMap::new(),
        &Manifest::default(),
    )?;
    Ok((synced.summary, synced.stale_report))
}

/// What bringing the output folder up to date did.
struct Synced {
    summary: Summary,
    /// With `check`: each stale file with a short diff.
    stale_report: String,
    /// Outputs written or removed.
    touched: BTreeSet<String>,
    /// The manifest written (with `check`, the one that would be).
    manifest: Manifest,
}

/// `sync`, recording the ops' inputs in the manifest. The ops of `unchanged` (an incremental
/// run) keep their files and records as they are.
fn sync_with(
    out: &Path,
    kernels: &Path,
    old: &Manifest,
    emitted: &Emitted,
    check: bool,
    inputs: &BTreeMap<String, OpInputs>,
    unchanged: &Manifest,
) -> Result<Synced, write::WriteError> {
    let mut keep = emitted.failed.clone();
    if emitted.keep_all_old {
        keep.extend(old.entries.values().cloned());
    }
    keep.extend(unchanged.inputs.keys().cloned());
    keep.remove(SHARED_OWNER);
    if !keep.is_empty() {
        // Kept op files include the shared ones (the tiling header): they stay too.
        keep.insert(SHARED_OWNER.to_string());
    }
    // A refused op keeps its files but records what it was read from now: its refusal is
    // replayed until its inputs change.
    let mut records = unchanged.inputs.clone();
    records.extend(inputs.iter().map(|(op, r)| (op.clone(), r.clone())));
    // A run that kept everything old (a spec that does not parse) cannot vouch for any record.
    if emitted.keep_all_old {
        records.clear();
    }
    let files = with_kept_modules(&emitted.files, old, &keep);
    let plan = write::plan(out, &files, old, &keep, &[kernels.to_path_buf()], &records)?;
    let summary = Summary {
        written: plan.writes.len(),
        unchanged: plan.unchanged,
        removed: plan.removals.len(),
    };
    let stale_report = if check {
        write::check_report(&plan)
    } else {
        write::apply(out, &plan)?;
        String::new()
    };
    let touched = plan
        .writes
        .iter()
        .map(|w| write::slash_path(&w.file.path))
        .chain(plan.removals.iter().map(|p| write::slash_path(p)))
        .collect();
    Ok(Synced {
        summary,
        stale_report,
        touched,
        manifest: plan.manifest,
    })
}

/// The emitted files, with a crate root that also declares the validator modules kept from the
/// last run for ops refused now: `lib.rs` and the module files on disk always agree.
fn with_kept_modules<'a>(
    files: &'a [Owned],
    old: &Manifest,
    keep: &BTreeSet<String>,
) -> Cow<'a, [Owned]> {
    let kept: Vec<&str> = old
        .entries
        .iter()
        .filter(|(path, owner)| keep.contains(*owner) && emit::rust::is_op_module(path))
        .map(|(_, owner)| owner.as_str())
        .collect();
    if kept.is_empty() {
        return Cow::Borrowed(files);
    }
    let mut modules: Vec<&str> = files
        .iter()
        .filter(|o| emit::rust::is_op_module(&write::slash_path(&o.file.path)))
        .map(|o| o.owner.as_str())
        .collect();
    modules.extend(kept);
    let root = emit::exempt_from_rustfmt(emit::rust::crate_root(&modules));
    let mut files = files.to_vec();
    files.retain(|o| o.file.path != root.path);
    files.push(Owned {
        owner: SHARED_OWNER.to_string(),
        file: root,
    });
    Cow::Owned(files)
}
