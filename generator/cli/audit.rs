//! `aclgen audit`: which documented error conditions are checked and tested.

use super::{AuditFormat, Failure, Outcome};
use crate::audit::{attach_unit_tests, audit, render_markdown, render_table};
use std::path::Path;

pub use super::conform::Oracle;

pub fn run(
    specs: &Path,
    format: AuditFormat,
    min_coverage: Option<f64>,
    oracle: Oracle,
) -> Outcome {
    let loaded = crate::pipeline::load(specs)?;
    let mut report = audit(&loaded.ops);
    if report.summary.conditions == 0 {
        // 0 of 0 is not 100%: an empty folder, binary files or docs without error rows.
        eprintln!(
            "error: audit: no documented error condition in {} ({} op(s) read); nothing to audit",
            specs.display(),
            loaded.ops.len()
        );
        return Err(Failure::Input);
    }
    let ut = match oracle {
        Oracle::Tests(tests) => Some(crate::conform::run(tests, &loaded.ops)?),
        Oracle::Calls(calls) => Some(crate::conform::run_calls(calls, &loaded.ops)?),
        Oracle::Examples => None,
    };
    if let Some(ut) = ut {
        attach_unit_tests(&mut report, &ut);
    }
    let text = match format {
        AuditFormat::Json => serde_json::to_string_pretty(&report)?,
        AuditFormat::Table => render_table(&report),
        AuditFormat::Markdown => render_markdown(&report),
    };
    println!("{text}");
    if report.summary.rejects_example > 0 {
        eprintln!(
            "audit: {} condition(s) have rules that reject the doc's own call example",
            report.summary.rejects_example
        );
        return Err(Failure::Input);
    }
    match min_coverage {
        Some(min) if report.summary.coverage() < min => {
            eprintln!(
                "audit: coverage {:.1}% is below --min-coverage {min}%",
                report.summary.coverage()
            );
            Err(Failure::Input)
        }
        _ => Ok(()),
    }
}
