//! `aclgen conform`: the validators against CANN's own op_api unit tests.

use super::{AuditFormat, Failure, Outcome};
use crate::conform::{apply_overlays, drift, load_docs, render_markdown, render_table};
use std::path::Path;

/// With `tests`, their calls; without, the docs' own example programs.
pub fn run(
    tests: Option<&Path>,
    docs: &Path,
    overlays: Option<&Path>,
    headers: Option<&Path>,
    format: AuditFormat,
) -> Outcome {
    let mut ops = load_docs(docs)?;
    if let Some(dir) = overlays {
        for d in apply_overlays(&mut ops, dir)? {
            eprintln!("conform: {}:{}: {}", d.file, d.line, d.message);
        }
    }
    crate::pipeline::apply_rules(&mut ops);
    let mut report = match tests {
        Some(tests) => crate::conform::run(tests, &ops)?,
        None => crate::conform::run_examples(&ops)?,
    };
    if let Some(dir) = headers {
        let protos = drift::header_prototypes(dir)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", dir.display())))?;
        report.drift = Some(drift::compare(&ops, &protos));
    }
    match format {
        AuditFormat::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        AuditFormat::Table => print!("{}", render_table(&report)),
        AuditFormat::Markdown => print!("{}", render_markdown(&report)),
    }
    Ok(())
}
