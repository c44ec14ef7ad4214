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
fn read_all(paths: &[PathBuf]) -> Result<(Vec<DocRead>, Vec<String>), Failure> {
    use rayon::prelude::*;
    let inputs = expand_inputs(paths, false)?;
    let results: Vec<Result<DocRead, String>> = inputs
        .par_iter()
        .map(|input| match input {
            Input::File(f) => crate::specs::read_file(f).map_err(|e| e.to_string()),
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

/// `aclgen show`: the IR as JSON (or YAML) on stdout, diagnostics on stderr.
pub fn run(paths: &[PathBuf], format: DataFormat) -> Outcome {
    let (reads, unreadable) = read_all(paths)?;
    let ops: Vec<&OpIr> = reads.iter().flat_map(|r| r.ops.iter()).collect();
    let out = match format {
        DataFormat::Json => {
            serde_json::to_string_pretty(&ops).map_err(|e| Failure::usage(e.to_string()))?
        }
        DataFormat::Yaml => {
            serde_yaml::to_string(&ops).map_err(|e| Failure::usage(e.to_string()))?
        }
    };
    println!("{out}");
    for r in &reads {
        for d in r.all_diagnostics() {
            eprintln!("{}", render_short(&d));
        }
    }
    finish(&reads, unreadable)
}
