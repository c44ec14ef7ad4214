//! `gen` as a library call: a specs folder → the generated tree, brought up to date (or, with
//! `check`, compared). Reads through `pipeline`, renders through `emit`, writes through `write`;
//! the caller prints the report.

use crate::emit::{self, EmitCtx, Emitted, Owned, SHARED_OWNER};
use crate::ir::{Diagnostic, Severity};
use crate::write::{self, fingerprint, Manifest, Summary};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::PathBuf;

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
    /// Diagnostics and refusals, formatted for stderr.
    pub problems: String,
    /// Some input had errors (exit 1): its ops were refused and their old files kept.
    pub input_failed: bool,
    /// Nothing changed since the last run: its report was replayed and nothing was read.
    pub replayed: bool,
}

/// Runs gen. Nothing is written with `check`, nor when the run stops with an error.
pub fn generate(opts: &GenOptions) -> Result<GenReport, GenError> {
    let inputs = fingerprint::Inputs {
        specs: &opts.specs,
        out: &opts.out,
        kernels: &opts.kernels,
        templates: &opts.templates,
    };
    let current = fingerprint::of_run(&inputs);
    if let Some(last) = current
        .as_deref()
        .and_then(|fp| fingerprint::fresh(&opts.out, fp))
    {
        // Nothing changed since the last run: say what it said, as cargo replays warnings.
        return Ok(GenReport {
            summary: Summary {
                unchanged: last.files,
                ..Summary::default()
            },
            problems: last.problems,
            input_failed: last.failed,
            replayed: true,
            ..GenReport::default()
        });
    }
    let result = gen_full(opts);
    if !opts.check {
        match (&result, fingerprint::of_run(&inputs)) {
            (Ok(report), Some(fp)) => {
                fingerprint::store(&opts.out, &fp, report.input_failed, &report.problems)
            }
            _ => fingerprint::forget(&opts.out),
        }
    }
    result
}

/// A full run: read every spec, emit every file, bring `out` up to date (or compare, with check).
fn gen_full(opts: &GenOptions) -> Result<GenReport, GenError> {
    // Parsing the templates is serial: it overlaps the reading of the specs.
    let (tera, specs) = rayon::join(
        || emit::render::load_templates(&opts.templates),
        || crate::pipeline::load(&opts.specs),
    );
    let tera = tera?;
    let specs = specs?;
    let mut report = GenReport::default();
    let global_errors: Vec<Diagnostic> = specs
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .cloned()
        .collect();
    if !global_errors.is_empty() {
        report
            .problems
            .push_str(&crate::diag::render(&global_errors));
        report.input_failed = true;
    }
    let ctx = EmitCtx {
        tera,
        specs_dir: opts.specs.clone(),
        kernels_dir: opts.kernels.clone(),
    };
    let mut emitted = emit::emit_all(&specs.ops, &ctx)?;
    emitted.keep_all_old = !global_errors.is_empty();
    for problem in &emitted.problems {
        report.problems.push_str(problem);
        report.input_failed = true;
    }
    for warning in &emitted.warnings {
        report.problems.push_str(warning);
    }
    let (summary, stale_report) = sync(&opts.out, &opts.kernels, &emitted, opts.check)?;
    report.summary = summary;
    report.stale_report = stale_report;
    Ok(report)
}

/// Brings `out` up to date with `emitted` (or, with `check`, reports what that would change).
/// Returns the summary and, with `check`, the report of stale files.
pub fn sync(
    out: &std::path::Path,
    kernels: &std::path::Path,
    emitted: &Emitted,
    check: bool,
) -> Result<(Summary, String), write::WriteError> {
    let old = Manifest::read(out)?;
    let mut keep = emitted.failed.clone();
    if emitted.keep_all_old {
        keep.extend(old.entries.values().cloned());
    }
    if !keep.is_empty() {
        // Kept op files include the shared ones (the tiling header): they stay too.
        keep.insert(SHARED_OWNER.to_string());
    }
    let files = with_kept_modules(&emitted.files, &old, &keep);
    let plan = write::plan(out, &files, &old, &keep, &[kernels.to_path_buf()])?;
    let summary = Summary {
        written: plan.writes.len(),
        unchanged: plan.unchanged,
        removed: plan.removals.len(),
    };
    if check {
        return Ok((summary, write::check_report(&plan)));
    }
    write::apply(out, &plan)?;
    Ok((summary, String::new()))
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
