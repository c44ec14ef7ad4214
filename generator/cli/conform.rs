//! `aclgen conform`: the validators against CANN's own op_api unit tests.

use super::{AuditFormat, Failure, Outcome};
use crate::conform::{
    apply_overlays, contradictions, drift, load_docs, render_markdown, render_table,
};
use std::path::Path;

/// What conform reads besides the tests and docs.
pub struct Inputs<'a> {
    pub overlays: Option<&'a Path>,
    pub headers: Option<&'a Path>,
    pub contradictions: Option<&'a Path>,
}

/// With `tests`, their calls; without, the docs' own example programs. Exit 1 when a reviewed
/// list of contradictions is given and the false rejections do not match it exactly.
pub fn run(tests: Option<&Path>, docs: &Path, inputs: Inputs, format: AuditFormat) -> Outcome {
    let Inputs {
        overlays,
        headers,
        contradictions: list_path,
    } = inputs;
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
    if let Some(path) = list_path {
        let list = contradictions::load(path)?;
        contradictions::apply(&mut report, &list, &path.display().to_string());
    }
    match format {
        AuditFormat::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        AuditFormat::Table => print!("{}", render_table(&report)),
        AuditFormat::Markdown => print!("{}", render_markdown(&report)),
    }
    match &report.contradictions {
        Some(review) if !review.is_exact() => {
            eprintln!(
                "conform: {} false rejections the reviewed list {} does not name, {} entries it \
                 names that no longer occur",
                review.unreviewed.len(),
                review.list,
                review.stale.len()
            );
            Err(Failure::Input)
        }
        _ => Ok(()),
    }
}
