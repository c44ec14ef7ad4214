//! `aclgen lint`: every problem of docs and specs with file:line and the source line.

use super::paths::expand_paths;
use super::{Failure, Outcome, ReportFormat};
use crate::conform::drift;
use crate::diag::lint_text;
use crate::ir::{Diagnostic, Severity};
use std::path::{Path, PathBuf};

/// `aclgen lint`: every problem with file:line:column and the source line; with `headers`, also
/// where a doc's prototype differs from CANN's header.
pub fn run(
    paths: &[PathBuf],
    format: ReportFormat,
    errors_only: bool,
    headers: Option<&Path>,
) -> Outcome {
    use rayon::prelude::*;
    let files = expand_paths(paths)?;
    let headers = match headers {
        Some(dir) => Some(
            drift::header_prototypes(dir)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", dir.display())))?,
        ),
        None => None,
    };
    // Each file is read, its diagnostics kept and its IR dropped at once, on all cores: lint
    // holds no ops, so its memory does not grow with the corpus.
    let results: Vec<Result<Vec<Diagnostic>, String>> = files
        .par_iter()
        .map(|f| match crate::specs::read_file(f) {
            Ok(read) => {
                let mut diags = read.all_diagnostics();
                if let Some(headers) = &headers {
                    diags.extend(drift_warnings(f, &read.ops, headers));
                }
                if errors_only {
                    diags.retain(|d| d.severity == Severity::Error);
                }
                Ok(diags)
            }
            Err(e) => Err(e.to_string()),
        })
        .collect();
    let mut per_file = Vec::new();
    let mut unreadable = Vec::new();
    for result in results {
        match result {
            Ok(diags) => per_file.push(diags),
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

/// `header-drift` warnings of one file, quoting the prototype's line.
fn drift_warnings(
    file: &Path,
    ops: &[crate::ir::OpIr],
    headers: &drift::Headers,
) -> Vec<Diagnostic> {
    let mut found = drift::diagnostics(ops, headers);
    if found.is_empty() {
        return found;
    }
    let text = std::fs::read(file)
        .map(|bytes| crate::read::decode::decode(&bytes).text)
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    for d in &mut found {
        if let Some(line) = d.line.checked_sub(1).and_then(|i| lines.get(i)) {
            d.source_line = line.to_string();
        }
    }
    found
}
