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
    /// Where the overlays that settle the reviewed contradictions go.
    pub suggest_overlays: Option<&'a Path>,
}

/// What the validators are held to.
#[derive(Debug, Clone, Copy)]
pub enum Oracle<'a> {
    /// A folder (or file) of op_api gtests, read as C++.
    Tests(&'a Path),
    /// Unit-test calls as data (`ut-calls.jsonl`).
    Calls(&'a Path),
    /// The docs' own example programs (for audit: no oracle).
    Examples,
}

impl<'a> Oracle<'a> {
    /// The oracle the flags name (clap makes them exclusive).
    pub fn of(tests: Option<&'a Path>, calls: Option<&'a Path>) -> Self {
        match (tests, calls) {
            (Some(t), _) => Oracle::Tests(t),
            (None, Some(c)) => Oracle::Calls(c),
            (None, None) => Oracle::Examples,
        }
    }
}

/// The calls of the oracle against the docs' validators. Exit 1 when a reviewed list of
/// contradictions is given and the false rejections do not match it exactly.
pub fn run(oracle: Oracle, docs: &Path, inputs: Inputs, format: AuditFormat) -> Outcome {
    let Inputs {
        overlays,
        headers,
        contradictions: list_path,
        suggest_overlays,
    } = inputs;
    let mut ops = load_docs(docs)?;
    if let Some(dir) = overlays {
        for d in apply_overlays(&mut ops, dir)? {
            eprintln!("conform: {}:{}: {}", d.file, d.line, d.message);
        }
    }
    crate::pipeline::apply_rules(&mut ops);
    let mut report = match oracle {
        Oracle::Tests(tests) => crate::conform::run(tests, &ops)?,
        Oracle::Calls(calls) => crate::conform::run_calls(calls, &ops)?,
        Oracle::Examples => crate::conform::run_examples(&ops)?,
    };
    if let Some(dir) = headers {
        let protos = drift::prototypes(dir)?;
        report.drift = Some(drift::compare(&ops, &protos));
    }
    if let Some(path) = list_path {
        let list = contradictions::load(path)?;
        contradictions::apply(&mut report, &list, &path.display().to_string());
    }
    if let Some(dir) = suggest_overlays {
        match crate::conform::suggest::write(&report, dir) {
            Ok(written) => {
                for path in written {
                    eprintln!("conform: wrote {}", path.display());
                }
            }
            // Someone's file where an overlay would go: reported, nothing written.
            Err(e @ crate::conform::ConformError::NotOurs(_)) => {
                eprintln!("conform: {e}");
                return Err(Failure::Input);
            }
            Err(e) => return Err(e.into()),
        }
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
