//! `aclgen gen`: regenerate every artifact from the specs (CI runs it with `--check`).

use super::{Failure, GenArgs, Outcome, ReportFormat};
use crate::diag::{self, Diagnostic};
use crate::generate::{generate, GenOptions, GenReport, ProofCounts, RunDiagnostics};

impl From<&GenArgs> for GenOptions {
    fn from(args: &GenArgs) -> Self {
        GenOptions {
            specs: args.specs.clone(),
            out: args.out.clone(),
            kernels: args.kernels.clone(),
            templates: args.templates.clone(),
            check: args.check,
        }
    }
}

pub fn run(args: &GenArgs) -> Outcome {
    let report = generate(&GenOptions::from(args))?;
    let fresh = match args.format {
        ReportFormat::Text => print_text(&report, args.check),
        ReportFormat::Json => print_json(&report, args.check)?,
    };
    if report.input_failed || !fresh {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// Diagnostics in the order gen reports them: emit's (`diag::EMIT_CODES`) on one line each,
/// `severity: message`, every other one as `lint` renders it.
fn render_text(diagnostics: &RunDiagnostics) -> String {
    diagnostics
        .in_order()
        .map(|(_, d)| {
            if diag::EMIT_CODES.contains(&d.code) {
                format!("{}: {}\n", d.severity.as_str(), d.message)
            } else {
                diag::render(std::slice::from_ref(d))
            }
        })
        .collect()
}

/// The text report: diagnostics and the proof line on stderr, the summary on stdout. False
/// when `check` found stale files.
fn print_text(report: &GenReport, check: bool) -> bool {
    eprint!("{}", render_text(&report.diagnostics));
    let proof = report.proof;
    if proof != ProofCounts::default() {
        eprintln!(
            "gen: {} rule(s) demoted to manual (rule-demoted), {} op(s) without a valid call \
             (no-valid-call), {} op(s) refused",
            proof.demoted, proof.no_valid_call, proof.refused
        );
    }
    print_summary(report, check)
}

/// `gen --format json`: the counts, what the run was, and every diagnostic in the order the text
/// report prints them.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    check: bool,
    written: usize,
    unchanged: usize,
    removed: usize,
    /// With `check`: files that would be written or removed.
    stale: usize,
    stale_report: &'a str,
    replayed: bool,
    reread: Option<&'a [String]>,
    proof: JsonProof,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(serde::Serialize)]
struct JsonProof {
    demoted: usize,
    no_valid_call: usize,
    refused: usize,
}

/// One diagnostic of the JSON report: the op it is about (none for a spec file that gave no
/// op), then the diagnostic's own fields as `lint --format json` gives them.
#[derive(serde::Serialize)]
struct JsonDiagnostic<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    op: Option<&'a str>,
    #[serde(flatten)]
    diagnostic: &'a Diagnostic,
}

/// The JSON report on stdout. False when `check` found stale files.
fn print_json(report: &GenReport, check: bool) -> Result<bool, Failure> {
    let s = &report.summary;
    let stale = if check { s.written + s.removed } else { 0 };
    let json = JsonReport {
        check,
        written: s.written,
        unchanged: s.unchanged,
        removed: s.removed,
        stale,
        stale_report: &report.stale_report,
        replayed: report.replayed,
        reread: report.reread.as_deref(),
        proof: JsonProof {
            demoted: report.proof.demoted,
            no_valid_call: report.proof.no_valid_call,
            refused: report.proof.refused,
        },
        diagnostics: report
            .diagnostics
            .in_order()
            .map(|(op, diagnostic)| JsonDiagnostic { op, diagnostic })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&json).map_err(|e| Failure::usage(e.to_string()))?;
    println!("{text}");
    Ok(stale == 0)
}

/// The one-line summary (with `--check`, the stale files first). False when files are stale.
fn print_summary(report: &GenReport, check: bool) -> bool {
    let s = &report.summary;
    let unchanged_inputs = if report.replayed {
        " (inputs unchanged)"
    } else {
        ""
    };
    if check {
        let stale = s.written + s.removed;
        if stale > 0 {
            print!("{}", report.stale_report);
            println!("gen --check: {stale} generated files are stale; run `cargo run -- gen`");
            return false;
        }
        let since = if report.replayed {
            " (inputs unchanged since the last gen)"
        } else {
            ""
        };
        println!("gen --check: {} files up to date{since}", s.unchanged);
    } else {
        let reread = match &report.reread {
            Some(ops) => format!(
                " (specs of {} op(s) changed: {})",
                ops.iter().filter(|op| *op != "-").count(),
                ops.iter()
                    .filter(|op| *op != "-")
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        };
        println!(
            "gen: {} files written, {} unchanged, {} removed{unchanged_inputs}{reread}",
            s.written, s.unchanged, s.removed
        );
    }
    true
}
