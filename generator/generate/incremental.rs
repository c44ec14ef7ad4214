//! A run where only spec files changed since the last one (same aclgen, templates, kernels and
//! untouched outputs): the manifest says which files each op was generated from and their hash,
//! so only the ops whose files changed (and whatever a new file describes) are read and rendered
//! again, with the files all ops share. The other ops keep their files, records and diagnostics.

use super::{errors_by_file, finish, relative_to, GenError, GenOptions, Run, SpecDigests};
use crate::emit::{self, EmitCtx, SHARED_OWNER};
use crate::specs::{SpecFile, Specs};
use crate::write::{fingerprint::LastRun, Manifest};
use std::collections::BTreeSet;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// Rounds of "a file read again names another op, whose files must be read too" before giving
/// up for a full run.
const MAX_ROUNDS: usize = 4;

/// The incremental run, or `None` when it cannot stand in for a full one (no records, nothing
/// but specs changed and yet no op's inputs differ, a spec file that gives an error of its own).
pub(super) fn run(
    opts: &GenOptions,
    old: &Manifest,
    last: &LastRun,
    digests: &SpecDigests,
) -> Result<Option<Run>, GenError> {
    if old.inputs.is_empty() || !last.diagnostics.file_errors.is_empty() {
        return Ok(None);
    }
    // The spec files as the snapshot found them (it walked the specs folder already).
    let found: Vec<PathBuf> = digests.keys().map(|f| opts.specs.join(f)).collect();
    let current: BTreeSet<String> = crate::specs::select_inputs(&opts.specs, &found)
        .map(|p| relative_to(&opts.specs, p))
        .collect();
    let Some((mut affected, mut to_read)) = changed(&opts.specs, old, &current, digests) else {
        return Ok(None);
    };
    // The templates parse on one core while the changed specs are read on the other.
    let (tera, specs) = rayon::join(
        || emit::render::load_templates(&opts.templates),
        || read_closure(opts, old, &current, &mut affected, &mut to_read),
    );
    let Some(specs) = specs? else {
        return Ok(None);
    };
    if !specs.diagnostics.is_empty() && !errors_by_file(&opts.specs, &specs.diagnostics).is_empty()
    {
        return Ok(None);
    }
    let mut ops = specs.ops;
    if shares_a_header(old, &affected, &ops) || links_across(old, &affected, &ops) {
        return Ok(None);
    }
    crate::pipeline::apply_rules(&mut ops);
    let ctx = EmitCtx {
        tera: tera?,
        specs_dir: opts.specs.clone(),
        kernels_dir: opts.kernels.clone(),
    };
    let emitted = emit::emit_all(&ops, &ctx)?;
    let universe: Vec<String> = to_read.iter().cloned().collect();
    let inputs = super::input_records(&opts.specs, &ops, &universe, Some(digests));
    let unchanged = Manifest {
        inputs: old
            .inputs
            .iter()
            .filter(|(op, _)| !affected.contains(*op))
            .map(|(op, r)| (op.clone(), r.clone()))
            .collect(),
        ..Manifest::default()
    };
    let mut run = finish(opts, old, &emitted, &inputs, &unchanged)?;
    // Diagnostics of the ops not read again are what the last run said about them.
    let (now, then) = (&mut run.record.diagnostics, &last.diagnostics);
    for (kept, last) in [
        (&mut now.op_problems, &then.op_problems),
        (&mut now.op_warnings, &then.op_warnings),
        (&mut now.op_proofs, &then.op_proofs),
    ] {
        for (op, diags) in last.iter().filter(|(op, _)| !affected.contains(*op)) {
            kept.insert(op.clone(), diags.clone());
        }
    }
    run.report.summary.unchanged += old
        .entries
        .values()
        .filter(|owner| unchanged.inputs.contains_key(*owner) && *owner != SHARED_OWNER)
        .count();
    run.report.diagnostics = run.record.diagnostics.clone();
    run.report.proof = super::ProofCounts::of(&run.record);
    run.report.input_failed = !run.record.diagnostics.op_problems.is_empty();
    run.report.reread = Some(affected.into_iter().collect());
    Ok(Some(run))
}

/// Ops whose recorded inputs changed (a file edited or deleted) and the files to read again:
/// theirs, and every file no op recorded (new). `None` when nothing recorded changed.
fn changed(
    specs: &Path,
    old: &Manifest,
    current: &BTreeSet<String>,
    digests: &SpecDigests,
) -> Option<(BTreeSet<String>, BTreeSet<String>)> {
    let known: BTreeSet<&String> = old.inputs.values().flat_map(|r| &r.files).collect();
    let new_files: Vec<&String> = current.iter().filter(|f| !known.contains(f)).collect();
    let mut affected: BTreeSet<String> = old
        .inputs
        .iter()
        .filter(|(_, r)| {
            r.files.iter().any(|f| !current.contains(f))
                || hash_files(specs, &r.files, Some(digests)) != Some(r.hash)
        })
        .map(|(op, _)| op.clone())
        .collect();
    if affected.is_empty() && new_files.is_empty() {
        return None;
    }
    if !new_files.is_empty() {
        // A new file may describe nothing: the files that gave no op are read with it, so the
        // record of such files stays whole.
        affected.insert(SHARED_OWNER.to_string());
    }
    let mut to_read: BTreeSet<String> = new_files.into_iter().cloned().collect();
    for op in &affected {
        if let Some(r) = old.inputs.get(op) {
            to_read.extend(r.files.iter().filter(|f| current.contains(*f)).cloned());
        }
    }
    Some((affected, to_read))
}

/// Reads `to_read`; when a file names an op it was not known for (a doc now describing another
/// op, an overlay added for an existing one), that op's recorded files join and the read is
/// done again. `None` when that does not settle.
fn read_closure(
    opts: &GenOptions,
    old: &Manifest,
    current: &BTreeSet<String>,
    affected: &mut BTreeSet<String>,
    to_read: &mut BTreeSet<String>,
) -> Result<Option<Specs>, GenError> {
    for name in overlay_ops(&opts.specs, to_read) {
        add_op(old, current, &name, affected, to_read);
    }
    for _ in 0..MAX_ROUNDS {
        let paths: BTreeSet<PathBuf> = to_read.iter().map(|f| opts.specs.join(f)).collect();
        let specs = crate::specs::load_specs_only(&opts.specs, &paths)?;
        let before = to_read.len();
        for op in &specs.ops {
            add_op(old, current, &op.op, affected, to_read);
        }
        if to_read.len() == before {
            return Ok(Some(specs));
        }
    }
    Ok(None)
}

/// `op` is read again, with those of its recorded files that are still there.
fn add_op(
    old: &Manifest,
    current: &BTreeSet<String>,
    op: &str,
    affected: &mut BTreeSet<String>,
    to_read: &mut BTreeSet<String>,
) {
    affected.insert(op.to_string());
    if let Some(r) = old.inputs.get(op) {
        to_read.extend(r.files.iter().filter(|f| current.contains(*f)).cloned());
    }
}

/// The ops the YAML specs among `files` name (an overlay is applied to an op read elsewhere).
fn overlay_ops(specs: &Path, files: &BTreeSet<String>) -> Vec<String> {
    files
        .iter()
        .filter(|f| crate::specs::is_yaml(Path::new(f)))
        .filter_map(|f| {
            let text = std::fs::read_to_string(specs.join(f)).ok()?;
            match crate::specs::parse_spec(f, &text).ok()? {
                SpecFile::Overlay(o) => Some(o.op),
                SpecFile::Full(full) => Some(full.op),
            }
        })
        .collect()
}

/// SipHash-1-3 (a fixed algorithm: the manifest is the same on every machine) of each file's
/// path and contents digest (from `digests` when it has the file, else read now); `None` when a
/// file cannot be read.
pub(super) fn hash_files(
    specs: &Path,
    files: &[String],
    digests: Option<&SpecDigests>,
) -> Option<u64> {
    let mut h = siphasher::sip::SipHasher13::new();
    for f in files {
        let digest = match digests.and_then(|d| d.get(f)) {
            Some(d) => *d,
            None => crate::write::fingerprint::spec_digest(&specs.join(f))?,
        };
        h.write(f.as_bytes());
        h.write_u8(0);
        h.write_u64(digest);
    }
    Some(h.finish())
}

/// Whether an op read again (or gone) is an in-place function or out-of-place op whose partner
/// is not read again: the link between them (`specs::inplace`) decides where both put their
/// files, so only a full run, which sees every op, makes it.
fn links_across(old: &Manifest, affected: &BTreeSet<String>, ops: &[crate::ir::OpIr]) -> bool {
    let mut names: BTreeSet<&str> = ops.iter().map(|op| op.op.as_str()).collect();
    names.extend(affected.iter().map(String::as_str));
    let partner = |name: &str| match crate::specs::inplace::out_of_place_name(name) {
        Some(base) => base.to_string(),
        None => format!("Inplace{name}"),
    };
    names.iter().any(|name| {
        let other = partner(name);
        old.inputs.contains_key(&other) && !affected.contains(&other)
    })
}

/// Whether an op read again (or gone) names a header file an op not read again also has: that
/// header holds both ops' prototypes (`c_header::family_header`), so only a full run writes it.
fn shares_a_header(old: &Manifest, affected: &BTreeSet<String>, ops: &[crate::ir::OpIr]) -> bool {
    let header_of = |path: &str| {
        let mut parts = path.rsplit('/');
        match (parts.next(), parts.next()) {
            (Some(file), Some("op_api")) if file.ends_with(".h") => Some(file.to_string()),
            _ => None,
        }
    };
    let mut names: BTreeSet<String> = ops.iter().map(|op| op.header_name()).collect();
    names.extend(
        old.entries
            .iter()
            .filter(|(_, owner)| affected.contains(*owner))
            .filter_map(|(path, _)| header_of(path)),
    );
    old.entries.iter().any(|(path, owner)| {
        !affected.contains(owner)
            && owner != SHARED_OWNER
            && header_of(path).is_some_and(|h| names.contains(&h))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::OpInputs;

    fn manifest(ops: &[&str]) -> Manifest {
        Manifest {
            inputs: ops
                .iter()
                .map(|op| (op.to_string(), OpInputs::default()))
                .collect(),
            ..Manifest::default()
        }
    }

    fn read(ops: &[&str]) -> (BTreeSet<String>, Vec<crate::ir::OpIr>) {
        let ir = ops
            .iter()
            .map(|op| crate::fixture::op(op, &[], Vec::new()))
            .collect();
        (ops.iter().map(|op| op.to_string()).collect(), ir)
    }

    #[test]
    fn an_in_place_link_to_an_op_not_read_again_needs_a_full_run() {
        let old = manifest(&["Add", "InplaceAdd", "Abs"]);
        for (reread, full) in [
            (&["InplaceAdd"][..], true),
            (&["Add"][..], true),
            (&["Add", "InplaceAdd"][..], false),
            (&["Abs"][..], false),
        ] {
            let (affected, ops) = read(reread);
            assert_eq!(links_across(&old, &affected, &ops), full, "{reread:?}");
        }
    }
}
