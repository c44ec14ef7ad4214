//! `aclgen lint`: every problem of docs and specs with file:line and the source line.

use super::paths::{expand_inputs, Input};
use super::{Failure, Outcome, ReportFormat};
use crate::conform::drift;
use crate::diag::lint_text;
use crate::ir::{Diagnostic, Severity};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `aclgen lint`: every problem with file:line:column and the source line; with `headers`, also
/// where a doc's prototype differs from CANN's header. A specs folder is read as gen reads it, so
/// its errors are exactly what gen refuses (an overlay naming an op or parameter no doc has).
pub fn run(
    paths: &[PathBuf],
    format: ReportFormat,
    errors_only: bool,
    headers: Option<&Path>,
) -> Outcome {
    use rayon::prelude::*;
    let inputs = expand_inputs(paths, true)?;
    let headers = match headers {
        Some(dir) => Some(
            drift::header_prototypes(dir)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", dir.display())))?,
        ),
        None => None,
    };
    // Each file is read, its diagnostics kept and its IR dropped at once, on all cores: lint
    // holds no ops, so its memory does not grow with the corpus.
    let results: Vec<Result<Vec<Vec<Diagnostic>>, String>> = inputs
        .par_iter()
        .map(|input| {
            let mut groups = match input {
                Input::File(f) => lint_file(f, headers.as_ref()).map(|d| vec![d]),
                Input::Specs { dir, only } => lint_specs(dir, only.as_deref(), headers.as_ref()),
            }?;
            if errors_only {
                for diags in &mut groups {
                    diags.retain(|d| d.severity == Severity::Error);
                }
            }
            Ok(groups)
        })
        .collect();
    let mut per_file = Vec::new();
    let mut unreadable = Vec::new();
    for result in results {
        match result {
            Ok(groups) => per_file.extend(groups),
            Err(msg) => unreadable.push(msg),
        }
    }
    let count = |s: Severity| {
        per_file
            .iter()
            .flatten()
            .filter(|d| d.severity == s)
            .count()
    };
    match format {
        ReportFormat::Text => {
            print!("{}", lint_text(&per_file));
            eprintln!(
                "{} file(s): {} error(s), {} warning(s)",
                per_file.len(),
                count(Severity::Error),
                count(Severity::Warning)
            );
        }
        ReportFormat::Json => {
            let diags: Vec<&Diagnostic> = per_file.iter().flatten().collect();
            let out =
                serde_json::to_string_pretty(&diags).map_err(|e| Failure::usage(e.to_string()))?;
            println!("{out}");
        }
    }
    for u in &unreadable {
        eprintln!("error: {u}");
    }
    if !unreadable.is_empty() {
        return Err(Failure::Usage(format!(
            "{} path(s) could not be read",
            unreadable.len()
        )));
    }
    if count(Severity::Error) > 0 {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// One doc or spec file's diagnostics.
fn lint_file(file: &Path, headers: Option<&drift::Headers>) -> Result<Vec<Diagnostic>, String> {
    let read = crate::specs::read_file(file).map_err(|e| e.to_string())?;
    let mut diags = read.all_diagnostics();
    if let Some(headers) = headers {
        diags.extend(drift_warnings(&read.ops, headers));
    }
    Ok(diags)
}

/// A specs folder's diagnostics as gen sees them (merged, overlays applied, rules made), one
/// group per file; with `only`, that file's.
fn lint_specs(
    dir: &Path,
    only: Option<&Path>,
    headers: Option<&drift::Headers>,
) -> Result<Vec<Vec<Diagnostic>>, String> {
    let specs = crate::pipeline::load(dir).map_err(|e| e.to_string())?;
    let mut all: Vec<Diagnostic> = specs.diagnostics;
    all.extend(specs.ops.iter().flat_map(|o| o.diagnostics.iter().cloned()));
    if let Some(headers) = headers {
        all.extend(drift_warnings(&specs.ops, headers));
    }
    if let Some(only) = only {
        // The diagnostics of that one file, wherever they were raised.
        let only = only.canonicalize().unwrap_or_else(|_| only.to_path_buf());
        let same = |d: &Diagnostic| Path::new(&d.file).canonicalize().is_ok_and(|p| p == only);
        all.retain(same);
        return Ok(vec![sorted(all)]);
    }
    // Every file read counts, with or without diagnostics.
    let mut by_file: BTreeMap<String, Vec<Diagnostic>> = crate::specs::input_files(dir)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|f| (f.to_string_lossy().into_owned(), Vec::new()))
        .collect();
    for d in all {
        by_file.entry(d.file.clone()).or_default().push(d);
    }
    Ok(by_file.into_values().map(sorted).collect())
}

/// One file's diagnostics in line order, each once.
fn sorted(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.sort_by(|a, b| {
        (a.line, a.column, &a.code, &a.message).cmp(&(b.line, b.column, &b.code, &b.message))
    });
    diags.dedup();
    diags
}

/// `header-drift` warnings of `ops`, quoting each prototype's line from its file.
fn drift_warnings(ops: &[crate::ir::OpIr], headers: &drift::Headers) -> Vec<Diagnostic> {
    let mut found = drift::diagnostics(ops, headers);
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    for d in &mut found {
        let text = texts.entry(d.file.clone()).or_insert_with(|| {
            std::fs::read(&d.file)
                .map(|bytes| crate::read::decode::decode(&bytes).text)
                .unwrap_or_default()
        });
        if let Some(line) = d.line.checked_sub(1).and_then(|i| text.lines().nth(i)) {
            d.source_line = line.to_string();
        }
    }
    found
}
