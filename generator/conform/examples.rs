//! A doc's own example programs (调用示例) as calls CANN documents as valid: a validator that
//! rejects its doc's example contradicts the doc, or the doc contradicts itself. Works on any
//! doc, with no unit tests at hand.

use super::{check_call, find_op, ut, ConformError, Report, SkipKind, SkipReason};
use crate::ir::{OpIr, Role};
use std::collections::BTreeSet;

/// Checks the example programs of every doc the ops were read from.
pub fn run_examples(ops: &[OpIr]) -> Result<Report, ConformError> {
    let docs: BTreeSet<&str> = ops
        .iter()
        .flat_map(|o| o.sources.iter())
        .map(String::as_str)
        // Docs in any form (markdown, scraped text); YAML specs have no example program.
        .filter(|s| !(s.ends_with(".yaml") || s.ends_with(".yml")))
        .collect();
    let mut report = Report::default();
    for doc in docs {
        let path = std::path::Path::new(doc);
        let bytes = std::fs::read(path).map_err(|e| ConformError::io(path, e))?;
        report.files += 1;
        for program in crate::read::example_programs(&bytes) {
            let read = ut::read_example(&program.code, program.line);
            report.add_read(doc, &read);
            let named = (!program.products.is_empty()).then_some(program.products.as_slice());
            for call in &read.calls {
                let at = format!("{doc}:{}", call.line);
                let checked = match changed_before(call, ops, doc) {
                    Some(reason) => Err(SkipReason {
                        kind: SkipKind::Unmapped,
                        test: call.test.clone(),
                        reason,
                    }),
                    None => check_call(call, ops, doc, named),
                };
                report.add(at, checked);
            }
        }
    }
    report.skipped.sort();
    Ok(report)
}

/// Why an argument's value is no longer the one the example created: an earlier call of
/// another op wrote it (an output or in-place parameter there, or an op no doc describes).
fn changed_before(call: &ut::UtCall, ops: &[OpIr], doc: &str) -> Option<String> {
    call.passed_before
        .iter()
        .enumerate()
        .find_map(|(i, earlier)| {
            let earlier = earlier.as_ref()?;
            let api = earlier.api.trim_end_matches("GetWorkspaceSize");
            let written = match find_op(ops, api, doc) {
                None => true,
                Some(op) => op
                    .workspace_fn()
                    .and_then(|f| f.params.get(earlier.position))
                    .and_then(|p| op.params.iter().find(|q| q.name == p.name))
                    .is_none_or(|p| {
                        matches!(
                            p.role,
                            Role::OutputTensor | Role::InOutTensor | Role::OutputTensorList
                        )
                    }),
            };
            written.then(|| {
                format!(
                    "argument {} was passed to {} on line {} first, which may change it in place",
                    i + 1,
                    earlier.api,
                    earlier.line
                )
            })
        })
}
