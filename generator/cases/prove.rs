//! gen proves what it emits: every product the op supports has a call that passes all of its
//! rules (the baseline the cases mutate), and the doc's own call example (调用示例), which CANN
//! documents as valid, passes them too. A rule that rejects every call gen can build, or the
//! doc's example, is not emitted as a rejection: it is demoted to manual, with a diagnostic at
//! its doc line that says which product and why, so a doc's unsatisfiable (or misread)
//! condition never rejects a user's valid call. The baseline is gen's best construction, not a
//! solver: a demotion says that gen found no valid call, which the diagnostic names, and the
//! figures count.

use super::{baseline, first_failure, supported_products};
use crate::diag::{Code, Diagnostic, Severity};
use crate::ir::{Loc, Mapping, OpIr};
use crate::rules::program::map_args;
use aclnn_runtime::CheckedRule;

/// Demotes, one at a time, the rules that keep a product without a valid call, until every
/// supported product has one. Returns how many rules were demoted.
pub fn prove(op: &mut OpIr) -> usize {
    let mut demoted = 0;
    // Each round removes one rule, so the rule count bounds the rounds.
    for _ in 0..=op.all_rules().len() {
        let Some(blocker) = first_blocker(op).or_else(|| example_blocker(op)) else {
            break;
        };
        demote(op, &blocker);
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

/// A rule that rejects a call known to be valid, on a product, and what the rule says of it.
struct Blocker {
    rule: CheckedRule,
    product: String,
    evidence: Evidence,
    why: String,
}

/// The valid call a rule rejects.
enum Evidence {
    /// Every call gen can build (its baseline).
    Baseline,
    /// The call on this line of the doc's call example.
    Example { line: usize },
}

/// The first supported product whose baseline call a rule rejects, that rule and what it says.
fn first_blocker(op: &OpIr) -> Option<Blocker> {
    let rules = op.all_rules();
    supported_products(op).into_iter().find_map(|product| {
        let call = baseline(op, &rules, &product);
        let j = first_failure(&rules, &call)?;
        let why = aclnn_runtime::check::eval(&rules[j].rule, &call)
            .err()
            .unwrap_or_default();
        Some(Blocker {
            rule: rules[j].clone(),
            product,
            evidence: Evidence::Baseline,
            why,
        })
    })
}

/// A call of the doc's own example (调用示例) of this op, bound to its parameters, on the product
/// CANN builds the op's tests for.
pub struct ExampleCall {
    /// Line in the example's code.
    pub line: usize,
    pub call: aclnn_runtime::Call,
    /// Parameters given a non-null value the reader could not evaluate (a string).
    pub opaque: Vec<String>,
}

/// The calls of the op's own example that are evidence: expected to succeed, bound to the
/// prototype, and with no argument an earlier call of another API may have changed.
pub fn example_calls(op: &OpIr) -> Vec<ExampleCall> {
    let Some(code) = op.example.as_deref() else {
        return Vec::new();
    };
    let api = format!("aclnn{}", op.op);
    let product = crate::products::build_product(op).to_string();
    crate::programs::read_example(code, 1)
        .calls
        .iter()
        .filter(|c| c.ut.api == api && matches!(c.expected, Some((0, _))) && !c.ne)
        .filter(|c| c.passed_before.iter().all(Option::is_none))
        .filter_map(|c| {
            let (args, opaque) = map_args(op, c).ok()?;
            Some(ExampleCall {
                line: c.line,
                call: aclnn_runtime::Call {
                    product: product.clone(),
                    args,
                },
                opaque,
            })
        })
        .collect()
}

/// `rules` as they judge an example call: a value the reader could not evaluate is not null,
/// so `NotNull` leaves it out (every other rule skips an absent argument anyway).
pub fn rules_for_example(rules: &[CheckedRule], example: &ExampleCall) -> Vec<CheckedRule> {
    let mut checked = rules.to_vec();
    for r in &mut checked {
        if let aclnn_runtime::Rule::NotNull { params } = &mut r.rule {
            params.retain(|p| !example.opaque.contains(p));
        }
    }
    checked
}

/// The first rule that rejects a call of the doc's own example, and what it says.
fn example_blocker(op: &OpIr) -> Option<Blocker> {
    let rules = op.all_rules();
    example_calls(op).into_iter().find_map(|example| {
        let checked = rules_for_example(&rules, &example);
        let j = first_failure(&checked, &example.call)?;
        let why = aclnn_runtime::check::eval(&checked[j].rule, &example.call)
            .err()
            .unwrap_or_default();
        Some(Blocker {
            rule: rules[j].clone(),
            product: example.call.product.clone(),
            evidence: Evidence::Example { line: example.line },
            why,
        })
    })
}

/// Removes the blocking rule from the error row (or the inferred rules) it came from, and says
/// why there.
fn demote(op: &mut OpIr, b: &Blocker) {
    let (product, why) = (&b.product, &b.why);
    let reason = match b.evidence {
        Evidence::Example { line } => format!(
            "on {product} it rejects the doc's own call example (line {line} of 调用示例: \
             {why}); not checked"
        ),
        Evidence::Baseline => format!(
            "no call gen can build on {product} satisfies {} together with the other rules \
             ({why}); not checked",
            b.rule.rule.family().name()
        ),
    };
    let blocker = &b.rule;
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
                    kind: crate::ir::ManualKind::Demoted,
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
