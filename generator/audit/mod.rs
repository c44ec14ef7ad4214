//! `aclgen audit`: for every documented error condition, is it a rule, is it tested, does the test
//! pass — and which checks does the validator make that no doc lists.
//!
//! "Tested" means a synthesized case (the ones `gen` writes as JSON, gtest and Rust tests) makes
//! that condition's rule reject a call, and the rule interpreter returns the expected status and
//! condition for every such case (`cases_pass`; the generated Rust validators are held equal to
//! the interpreter by the generated crate's differential tests). Cases made from the rule agree
//! with the rule by construction, so "passing" needs more: something independent of the rule
//! agrees with it, CANN's own unit tests (`--tests`: the calls it rejects are the ones CANN
//! rejects) or the doc's own call example (the rule accepts the call CANN documents as valid).
//! Otherwise the condition is "unverified". A rule that rejects the doc's example fails the
//! audit (gen demotes such a rule, so only IR made some other way has one).

pub mod manual;

use crate::cases::{self, CaseSet};
use crate::ir::{ErrorCase, Mapping, OpIr};
use aclnn_runtime::{check, CheckedRule, Factor, Rule};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub ops: Vec<OpAudit>,
    pub summary: Totals,
    /// Totals per error code (161001, 161002, ...).
    pub by_code: BTreeMap<u32, Totals>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OpAudit {
    pub op: String,
    pub conditions: Vec<ConditionAudit>,
    /// Checks the validator makes that no error row lists (inferred from parameter constraints).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inferred: Vec<InferredAudit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConditionAudit {
    pub code: u32,
    pub name: String,
    pub condition: String,
    /// The rules implementing it, `manual: <reason>`, or `missing`.
    pub rule: String,
    pub tested: bool,
    /// Every synthesized case of its rules returns the expected status and condition.
    pub cases_pass: bool,
    /// Tested, its cases pass, and something independent agrees (`verified_by`).
    pub passing: bool,
    /// What agrees with its rules besides their own cases: `unit tests` (CANN's), `doc
    /// example`, or nothing (`None`: unverified).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verified_by: Option<&'static str>,
    /// Its rules reject a call of the doc's own example (the audit fails).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rejects_example: bool,
    /// Why it is not tested, when it is mapped but no case exercises it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untested_reason: Option<String>,
    /// The alternative of an "A，或B" condition its rules leave out, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
    /// With `--tests`: what CANN's own unit tests say about this condition's rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ut: Option<UtVerdict>,
}

/// CANN's unit-test calls this condition's rule rejected, and how many of them CANN's test
/// expects to fail with the same code (the rest are calls CANN accepts or rejects otherwise).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct UtVerdict {
    pub fired: usize,
    pub agreed: usize,
}

impl UtVerdict {
    fn text(&self) -> String {
        match (self.fired, self.agreed) {
            (0, _) => "not exercised".into(),
            (f, a) if f == a => format!("agrees ({a}/{f})"),
            (f, a) => format!("DISAGREES ({a}/{f} agree)"),
        }
    }
}

/// Fills each condition's `ut` verdict from a conform run over CANN's unit tests.
pub fn attach_unit_tests(report: &mut Report, conform: &crate::conform::Report) {
    let mut fired: BTreeMap<(&str, &str), UtVerdict> = BTreeMap::new();
    for c in conform.cases.iter().filter(|c| c.got != 0) {
        let v = fired
            .entry((c.op.as_str(), c.condition.as_str()))
            .or_default();
        v.fired += 1;
        v.agreed += usize::from(c.agree);
    }
    for op in &mut report.ops {
        for c in &mut op.conditions {
            let verdict = fired
                .get(&(op.op.as_str(), c.condition.as_str()))
                .copied()
                .unwrap_or_default();
            if verdict.fired > 0 && verdict.agreed == verdict.fired && c.verified_by.is_none() {
                c.verified_by = Some("unit tests");
            }
            c.passing = c.tested && c.cases_pass && c.verified_by.is_some() && !c.rejects_example;
            c.ut = Some(verdict);
        }
    }
    report.totals();
}

#[derive(Debug, Clone, Serialize)]
pub struct InferredAudit {
    pub code: u32,
    pub rule: String,
    pub tested: bool,
    pub passing: bool,
    /// Why no case exercises it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untested_reason: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub conditions: usize,
    pub mapped: usize,
    /// Mapped conditions whose rules leave one alternative out.
    pub partly: usize,
    pub tested: usize,
    pub passing: usize,
    /// Tested with passing cases, but nothing independent agrees with the rules.
    pub unverified: usize,
    /// Conditions whose rules reject the doc's own example.
    pub rejects_example: usize,
}

impl Totals {
    fn add(&mut self, c: &ConditionAudit) {
        self.conditions += 1;
        let mapped = c.rule != "missing" && !c.rule.starts_with("manual");
        self.mapped += usize::from(mapped);
        self.partly += usize::from(mapped && c.unread.is_some());
        self.tested += usize::from(c.tested);
        self.passing += usize::from(c.passing);
        self.unverified += usize::from(c.tested && c.cases_pass && c.verified_by.is_none());
        self.rejects_example += usize::from(c.rejects_example);
    }

    /// Share of documented conditions that are mapped, tested and passing, in percent.
    pub fn coverage(&self) -> f64 {
        if self.conditions == 0 {
            return 100.0;
        }
        100.0 * self.passing as f64 / self.conditions as f64
    }
}

/// Audits ops whose rules the rules stage has filled.
pub fn audit(ops: &[OpIr]) -> Report {
    let ops: Vec<OpAudit> = ops.par_iter().map(audit_op).collect();
    let mut report = Report {
        ops,
        summary: Totals::default(),
        by_code: BTreeMap::new(),
    };
    report.totals();
    report
}

impl Report {
    /// Sums the conditions into `summary` and `by_code` anew.
    fn totals(&mut self) {
        self.summary = Totals::default();
        self.by_code.clear();
        for c in self.ops.iter().flat_map(|o| &o.conditions) {
            self.summary.add(c);
            self.by_code.entry(c.code).or_default().add(c);
        }
    }
}

fn audit_op(op: &OpIr) -> OpAudit {
    let rules = op.all_rules();
    let set = &op.cases;
    let verdicts = rule_verdicts(&rules, set);
    let examples = example_verdicts(op, &rules);
    let conditions = op
        .errors
        .iter()
        .map(|e| {
            let mut c = audit_condition(e, &rules, set, &verdicts);
            let mine = rules_of(e, &rules);
            if let Some(accepted) = &examples {
                c.rejects_example = mine.iter().any(|i| !accepted[*i]);
                if c.tested && !mine.is_empty() && !c.rejects_example {
                    c.verified_by = Some("doc example");
                }
            }
            c.passing = c.tested && c.cases_pass && c.verified_by.is_some() && !c.rejects_example;
            c
        })
        .collect();
    let inferred = rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.inferred)
        .map(|(i, r)| {
            let v = verdicts.get(&i);
            InferredAudit {
                code: r.code,
                rule: describe(&r.rule),
                tested: v.is_some(),
                passing: v.copied().unwrap_or(false),
                untested_reason: v.is_none().then(|| untested_reason(set, &[i])),
            }
        })
        .collect();
    OpAudit {
        op: op.op.clone(),
        conditions,
        inferred,
    }
}

/// For every rule, whether it accepts every call of the doc's own example; `None` when the doc
/// has no example call of the op the reader could bind.
fn example_verdicts(op: &OpIr, rules: &[CheckedRule]) -> Option<Vec<bool>> {
    let examples = cases::example_calls(op);
    if examples.is_empty() {
        return None;
    }
    let mut accepted = vec![true; rules.len()];
    for example in &examples {
        let checked = cases::rules_for_example(rules, example);
        for (i, r) in checked.iter().enumerate() {
            accepted[i] &= aclnn_runtime::check::eval(&r.rule, &example.call).is_ok();
        }
    }
    Some(accepted)
}

/// For every rule some case exercises: whether all its cases give the expected result.
fn rule_verdicts(rules: &[CheckedRule], set: &CaseSet) -> BTreeMap<usize, bool> {
    let mut verdicts = BTreeMap::new();
    for case in &set.cases {
        let Some(i) = case.expect.rule else { continue };
        let ok = match check(rules, &case.call) {
            Err(e) => e.code == case.expect.status && e.condition == case.expect.condition,
            Ok(()) => false,
        };
        let v = verdicts.entry(i).or_insert(true);
        *v &= ok;
    }
    verdicts
}

/// Indices into `rules` of the rules that implement `error`.
fn rules_of(error: &ErrorCase, rules: &[CheckedRule]) -> Vec<usize> {
    let Some(Mapping::Rules { rules: mine, .. }) = &error.mapping else {
        return Vec::new();
    };
    rules
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.inferred && mine.contains(r))
        .map(|(i, _)| i)
        .collect()
}

fn audit_condition(
    error: &ErrorCase,
    rules: &[CheckedRule],
    set: &CaseSet,
    verdicts: &BTreeMap<usize, bool>,
) -> ConditionAudit {
    let mine = rules_of(error, rules);
    let rule = match &error.mapping {
        Some(Mapping::Rules { rules, .. }) if !rules.is_empty() => rules
            .iter()
            .map(|r| describe(&r.rule))
            .collect::<Vec<_>>()
            .join("; "),
        Some(Mapping::Manual { reason, .. }) => format!("manual: {reason}"),
        _ => "missing".to_string(),
    };
    let tested_rules: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|i| verdicts.contains_key(i))
        .collect();
    let tested = !tested_rules.is_empty();
    let cases_pass = tested && tested_rules.iter().all(|i| verdicts[i]);
    let untested_reason = match &error.mapping {
        _ if tested => None,
        Some(Mapping::Manual { .. }) => Some("checked by hand (manual): no rule to test".into()),
        _ if mine.is_empty() => Some("no rule implements it, so no case can test it".into()),
        _ => Some(untested_reason(set, &mine)),
    };
    ConditionAudit {
        code: error.code,
        name: error.name.clone(),
        condition: error.condition.clone(),
        rule,
        tested,
        cases_pass,
        passing: false,
        verified_by: None,
        rejects_example: false,
        untested_reason,
        unread: match &error.mapping {
            Some(Mapping::Rules { unread, .. }) => unread.clone(),
            _ => None,
        },
        ut: None,
    }
}

/// Why none of `rules` is exercised: the case synthesizer's reason when it gave one.
fn untested_reason(set: &CaseSet, rules: &[usize]) -> String {
    rules
        .iter()
        .find_map(|i| set.untested.get(i).cloned())
        .unwrap_or_else(|| "an earlier rule rejects every call that would reach it".into())
}

/// `dtype_in(self)`, `not_null(gradOutput, self)`: a rule's kind and the params it names.
pub fn describe(rule: &Rule) -> String {
    let value = serde_json::to_value(rule).unwrap_or_default();
    let kind = value
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or("rule")
        .to_string();
    if let Rule::OnProducts { products, rule } = rule {
        return format!("on[{}] {}", products.join(","), describe(rule));
    }
    if let Rule::ProductsEqual { lhs, rhs } = rule {
        return format!(
            "{kind}({} = {})",
            Factor::product_text(lhs),
            Factor::product_text(rhs)
        );
    }
    if let Rule::BroadcastShape { params, out } = rule {
        return format!("{kind}({} -> {out})", params.join(", "));
    }
    if let Rule::ShapeFromList { param, base, list } | Rule::ShapePadded { param, base, list } =
        rule
    {
        return format!("{kind}({base}, {list} -> {param})");
    }
    if let Rule::ShapeReduced {
        param,
        base,
        dims,
        keepdim,
    } = rule
    {
        return format!("{kind}({base}, {dims}, {keepdim} -> {param})");
    }
    let mut names = Vec::new();
    for key in ["param", "params", "products", "from", "to", "lhs", "rhs"] {
        match value.get(key) {
            Some(serde_json::Value::String(s)) => names.push(s.clone()),
            Some(serde_json::Value::Array(items)) => {
                names.extend(items.iter().filter_map(|i| i.as_str().map(str::to_string)))
            }
            _ => {}
        }
    }
    format!("{kind}({})", names.join(", "))
}

fn mark(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn totals_line(label: &str, t: &Totals) -> String {
    format!(
        "{label}: {} conditions, {} mapped ({} partly), {} tested, {} passing ({:.1}% covered), \
         {} unverified, {} rejecting the doc's example",
        t.conditions,
        t.mapped,
        t.partly,
        t.tested,
        t.passing,
        t.coverage(),
        t.unverified,
        t.rejects_example
    )
}

pub fn render_table(report: &Report) -> String {
    let mut out = String::new();
    for op in &report.ops {
        let _ = writeln!(out, "{}", op.op);
        for c in &op.conditions {
            let _ = writeln!(
                out,
                "  {:<7} tested={:<3} passing={:<3} {}\n          rule: {}",
                c.code,
                mark(c.tested),
                mark(c.passing),
                one_line(&c.condition),
                c.rule
            );
            if let Some(why) = &c.untested_reason {
                let _ = writeln!(out, "          not tested: {why}");
            }
            if c.rejects_example {
                let _ = writeln!(out, "          REJECTS the doc's own call example");
            } else if c.tested && c.cases_pass {
                let by = c.verified_by.unwrap_or("nothing independent (unverified)");
                let _ = writeln!(out, "          verified by: {by}");
            }
            if let Some(unread) = &c.unread {
                let _ = writeln!(out, "          not checked: {unread}");
            }
            if let Some(ut) = &c.ut {
                let _ = writeln!(out, "          CANN unit tests: {}", ut.text());
            }
        }
        for i in &op.inferred {
            let _ = writeln!(
                out,
                "  {:<7} inferred (no doc row): {} tested={}",
                i.code,
                i.rule,
                mark(i.tested)
            );
            if let Some(why) = &i.untested_reason {
                let _ = writeln!(out, "          not tested: {why}");
            }
        }
    }
    for (code, t) in &report.by_code {
        let _ = writeln!(out, "{}", totals_line(&code.to_string(), t));
    }
    let _ = write!(out, "{}", totals_line("total", &report.summary));
    out
}

pub fn render_markdown(report: &Report) -> String {
    let mut out = String::from("## aclgen audit\n\n");
    let _ = writeln!(out, "{}\n", totals_line("**Total**", &report.summary));
    out.push_str(
        "| op | code | condition | rule | tested | passing |\n|---|---|---|---|---|---|\n",
    );
    for op in &report.ops {
        for c in &op.conditions {
            let tested = match &c.untested_reason {
                Some(why) => format!("❌ {}", one_line(why).replace('|', "\\|")),
                None => mark_icon(c.tested).to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | `{}`{} | {} | {} |",
                op.op,
                c.code,
                one_line(&c.condition).replace('|', "\\|"),
                c.rule.replace('|', "\\|"),
                c.unread
                    .as_ref()
                    .map(|u| format!(" (not checked: {})", one_line(u).replace('|', "\\|")))
                    .unwrap_or_default(),
                tested,
                mark_icon(c.passing)
            );
        }
    }
    out
}

fn mark_icon(b: bool) -> &'static str {
    if b {
        "✅"
    } else {
        "❌"
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::{CheckedCall, Report as Conform};

    fn condition(text: &str) -> ConditionAudit {
        ConditionAudit {
            code: 161002,
            name: "ACLNN_ERR_PARAM_INVALID".into(),
            condition: text.into(),
            rule: "dtype_in(self)".into(),
            tested: true,
            cases_pass: true,
            passing: false,
            verified_by: None,
            rejects_example: false,
            untested_reason: None,
            unread: None,
            ut: None,
        }
    }

    fn case(condition: &str, expected: u32, got: u32) -> CheckedCall {
        CheckedCall {
            at: "t.cpp:1".into(),
            test: "t".into(),
            op: "Foo".into(),
            product: "ascend910b".into(),
            expected,
            got,
            agree: expected == got,
            condition: condition.into(),
            why: String::new(),
            contradiction: None,
            widenings: Vec::new(),
        }
    }

    #[test]
    fn unit_tests_agree_disagree_or_do_not_exercise_a_condition() {
        let mut report = Report {
            ops: vec![OpAudit {
                op: "Foo".into(),
                conditions: vec![condition("a"), condition("b"), condition("c")],
                inferred: Vec::new(),
            }],
            summary: Totals::default(),
            by_code: BTreeMap::new(),
        };
        let ut = Conform {
            cases: vec![
                case("a", 161002, 161002),
                case("a", 161002, 161002),
                case("b", 161002, 161002),
                case("b", 0, 161002),
                case("", 0, 0),
            ],
            ..Default::default()
        };
        attach_unit_tests(&mut report, &ut);
        let texts: Vec<String> = report.ops[0]
            .conditions
            .iter()
            .map(|c| c.ut.unwrap().text())
            .collect();
        assert_eq!(
            texts,
            ["agrees (2/2)", "DISAGREES (1/2 agree)", "not exercised"]
        );
        assert!(render_table(&report).contains("CANN unit tests: DISAGREES (1/2 agree)"));
        // Only the condition CANN's tests agree with is verified, so passing; the others are
        // tested (their cases pass) but unverified.
        let passing: Vec<bool> = report.ops[0].conditions.iter().map(|c| c.passing).collect();
        assert_eq!(passing, [true, false, false]);
        assert_eq!((report.summary.passing, report.summary.unverified), (1, 2));
    }
}
