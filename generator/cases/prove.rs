//! gen proves what it emits: every product the op supports has a call that passes all of its
//! rules (the baseline the cases mutate). A rule that rejects every call gen can build there is
//! not emitted as a rejection: it is demoted to manual, with a diagnostic at its doc line that
//! says which product and why, so a doc's unsatisfiable reading never rejects a user's valid
//! call. The baseline is gen's best construction, not a solver: a demotion says that gen found
//! no valid call, which the diagnostic names, and the figures count.

use super::{baseline, first_failure, supported_products};
use crate::diag::{Code, Diagnostic, Severity};
use crate::ir::{Loc, Mapping, OpIr};
use aclnn_runtime::CheckedRule;

/// Demotes, one at a time, the rules that keep a product without a valid call, until every
/// supported product has one. Returns how many rules were demoted.
pub fn prove(op: &mut OpIr) -> usize {
    let mut demoted = 0;
    // Each round removes one rule, so the rule count bounds the rounds.
    for _ in 0..=op.all_rules().len() {
        let Some((product, blocker, why)) = first_blocker(op) else {
            break;
        };
        demote(op, &blocker, &product, &why);
        demoted += 1;
    }
    if supported_products(op).is_empty() {
        let named: Vec<&str> = op.supported_products().collect();
        let message =
            format!(
            "aclnn{}: the doc marks no product gen knows as supported ({}), so no valid call and \
             no case is synthesized; its validators' tests have nothing to replay",
            op.op,
            if named.is_empty() { "none".to_string() } else { named.join(", ") }
        );
        push_diagnostic(op, Code::NoValidCall, message, None);
    }
    demoted
}

/// The first supported product whose baseline call a rule rejects, that rule and what it says.
fn first_blocker(op: &OpIr) -> Option<(String, CheckedRule, String)> {
    let rules = op.all_rules();
    supported_products(op).into_iter().find_map(|product| {
        let call = baseline(op, &rules, &product);
        let j = first_failure(&rules, &call)?;
        let why = aclnn_runtime::check::eval(&rules[j].rule, &call)
            .err()
            .unwrap_or_default();
        Some((product, rules[j].clone(), why))
    })
}

/// Removes `blocker` from the error row (or the inferred rules) it came from, says why there.
fn demote(op: &mut OpIr, blocker: &CheckedRule, product: &str, why: &str) {
    let reason = format!(
        "no call gen can build on {product} satisfies {} together with the other rules ({why}); \
         not checked",
        blocker.rule.family().name()
    );
    let mut at = None;
    if let Some(error) = op
        .errors
        .iter_mut()
        .find(|e| holds(e.mapping.as_ref(), blocker))
    {
        at = error.source.clone();
        if let Some(Mapping::Rules { rules, unread }) = &mut error.mapping {
            rules.retain(|r| r != blocker);
            if rules.is_empty() {
                error.mapping = Some(Mapping::Manual {
                    reason: reason.clone(),
                });
            } else {
                *unread = Some(match unread.take() {
                    Some(before) => format!("{before}; {reason}"),
                    None => reason.clone(),
                });
            }
        }
    } else if let Some(i) = op.inferred_rules.iter().position(|r| r == blocker) {
        op.inferred_rules.remove(i);
        at = param_loc(op, blocker);
    }
    let message = format!(
        "aclnn{}: the rule read from “{}” is demoted to manual: {reason}",
        op.op, blocker.condition
    );
    push_diagnostic(op, Code::RuleDemoted, message, at);
}

fn holds(mapping: Option<&Mapping>, rule: &CheckedRule) -> bool {
    matches!(mapping, Some(Mapping::Rules { rules, .. }) if rules.contains(rule))
}

/// Where an inferred rule was read: the first parameter it names that has a doc line.
fn param_loc(op: &OpIr, rule: &CheckedRule) -> Option<Loc> {
    let text = serde_json::to_string(&rule.rule).unwrap_or_default();
    op.params
        .iter()
        .filter(|p| text.contains(&format!("\"{}\"", p.name)))
        .find_map(|p| p.source.clone())
}

fn push_diagnostic(op: &mut OpIr, code: Code, message: String, at: Option<Loc>) {
    let at = at.or_else(|| {
        op.sources.first().map(|file| Loc {
            file: file.clone(),
            line: 0,
            column: 0,
        })
    });
    let (file, line, column) = at.map_or((String::new(), 0, 0), |l| (l.file, l.line, l.column));
    op.diagnostics.push(Diagnostic {
        severity: Severity::Warning,
        code,
        message,
        file,
        line,
        column,
        source_line: String::new(),
    });
}
