//! `aclgen gen`: regenerate every artifact from the specs (CI runs it with `--check`).

use super::{Failure, GenArgs, Outcome};
use crate::generate::{generate, GenOptions, GenReport, ProofCounts};

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
    eprint!("{}", report.problems);
    let proof = report.proof;
    if proof != ProofCounts::default() {
        eprintln!(
            "gen: {} rule(s) demoted to manual (rule-demoted), {} op(s) without a valid call \
             (no-valid-call), {} op(s) refused",
            proof.demoted, proof.no_valid_call, proof.refused
        );
    }
    print_summary(&report, args.check)?;
    if report.input_failed {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// The one-line summary (with `--check`, the stale files first); stale files fail the check.
fn print_summary(report: &GenReport, check: bool) -> Outcome {
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
            return Err(Failure::Input);
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
    Ok(())
}
