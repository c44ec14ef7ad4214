//! `aclgen show`: the IR of docs and specs as JSON or YAML.

use super::paths::{expand_inputs, Input};
use super::{DataFormat, Failure, Outcome};
use crate::diag::render_short;
use crate::ir::{OpIr, Severity};
use crate::read::DocRead;
use std::path::PathBuf;

/// Reads every path; unreadable ones are reported and make the command exit 2 at the end.
/// Reads every file on all cores; results keep the order of `paths`. A specs folder gives its
/// merged IR, what gen generates from (overlays applied, rules made).
/// `rules`: a single file's ops get their rules too (a folder's always have them).
fn read_all(paths: &[PathBuf], rules: bool) -> Result<(Vec<DocRead>, Vec<String>), Failure> {
    use rayon::prelude::*;
    let inputs = expand_inputs(paths, false)?;
    let results: Vec<Result<DocRead, String>> = inputs
        .par_iter()
        .map(|input| match input {
            Input::File(f) => crate::specs::read_file(f)
                .map(|mut read| {
                    if rules {
                        crate::pipeline::apply_rules(&mut read.ops);
                    }
                    read
                })
                .map_err(|e| e.to_string()),
            Input::Specs { dir, .. } => crate::pipeline::load(dir)
                .map(|specs| DocRead {
                    ops: specs.ops,
                    diagnostics: specs.diagnostics,
                })
                .map_err(|e| e.to_string()),
        })
        .collect();
    let mut reads = Vec::new();
    let mut unreadable = Vec::new();
    for result in results {
        match result {
            Ok(r) => reads.push(r),
            Err(e) => unreadable.push(e),
        }
    }
    Ok((reads, unreadable))
}

fn print(data: &impl serde::Serialize, format: DataFormat) -> Result<String, Failure> {
    match format {
        DataFormat::Json => serde_json::to_string_pretty(data),
        DataFormat::Yaml => serde_yaml::to_string(data).map_err(serde::ser::Error::custom),
    }
    .map_err(|e| Failure::usage(e.to_string()))
}

fn finish(reads: &[DocRead], unreadable: Vec<String>) -> Outcome {
    if !unreadable.is_empty() {
        return Err(Failure::Usage(unreadable.join("\n")));
    }
    let errors = reads
        .iter()
        .flat_map(DocRead::all_diagnostics)
        .any(|d| d.severity == Severity::Error);
    if errors {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// `aclgen show`: the IR as JSON (or YAML) on stdout, diagnostics on stderr. `manual`: the
/// conditions no rule checks, by kind of reason, instead (as text unless a format is asked).
pub fn run(paths: &[PathBuf], format: Option<DataFormat>, manual: bool) -> Outcome {
    // The report is about what the rules left, so a single doc gets its rules too.
    let (reads, unreadable) = read_all(paths, manual)?;
    let ops: Vec<&OpIr> = reads.iter().flat_map(|r| r.ops.iter()).collect();
    let out = match (manual, format) {
        (true, None) => {
            crate::audit::manual::render_text(&crate::audit::manual::manual_report(&ops))
        }
        (true, Some(format)) => print(&crate::audit::manual::manual_report(&ops), format)?,
        (false, format) => print(&ops, format.unwrap_or(DataFormat::Json))?,
    };
    println!("{out}");
    for r in &reads {
        for d in r.all_diagnostics() {
            eprintln!("{}", render_short(&d));
        }
    }
    finish(&reads, unreadable)
}
