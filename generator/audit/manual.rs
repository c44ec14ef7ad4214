//! `aclgen show --manual`: the documented conditions no rule checks, by the kind of reason
//! (`ManualKind`), across every op read: whose gap each is (the reader's, the doc's, the rule
//! vocabulary's scope, a kernel's), so a team sees what to fix in the reader and what in its docs.

use crate::ir::{ManualKind, Mapping, OpIr};
use serde::Serialize;
use std::collections::BTreeMap;

/// The manual rows of a set of ops, by kind.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ManualReport {
    /// Documented error conditions read.
    pub conditions: usize,
    /// Of them, left manual (no rule).
    pub manual: usize,
    /// Read in part: rules for some alternatives, the rest left out (`Mapping::Rules::unread`).
    pub partly_read: usize,
    pub by_kind: BTreeMap<&'static str, KindRows>,
}

/// The rows of one kind of reason.
#[derive(Debug, Clone, Default, Serialize)]
pub struct KindRows {
    pub count: usize,
    pub whose: &'static str,
    pub rows: Vec<ManualRow>,
}

/// One documented condition left manual.
#[derive(Debug, Clone, Serialize)]
pub struct ManualRow {
    pub op: String,
    pub code: u32,
    pub condition: String,
    pub reason: String,
    /// `file:line` of the row in its doc, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// Every manual row of `ops` (whose rules are applied), by kind.
pub fn manual_report(ops: &[&OpIr]) -> ManualReport {
    let mut report = ManualReport::default();
    for op in ops {
        for e in &op.errors {
            report.conditions += 1;
            match &e.mapping {
                Some(Mapping::Manual { kind, reason }) => {
                    report.manual += 1;
                    let rows = report
                        .by_kind
                        .entry(kind.code())
                        .or_insert_with(|| KindRows {
                            whose: kind.whose(),
                            ..KindRows::default()
                        });
                    rows.count += 1;
                    rows.rows.push(ManualRow {
                        op: op.op.clone(),
                        code: e.code,
                        condition: e.condition.clone(),
                        reason: reason.clone(),
                        at: e.source.as_ref().map(|l| format!("{}:{}", l.file, l.line)),
                    });
                }
                Some(Mapping::Rules {
                    unread: Some(_), ..
                }) => report.partly_read += 1,
                _ => {}
            }
        }
    }
    report
}

/// The report as a person reads it: one line per kind (count, whose gap), then its rows.
pub fn render_text(report: &ManualReport) -> String {
    let mut out = format!(
        "{} documented conditions: {} manual, {} read in part\n",
        report.conditions, report.manual, report.partly_read
    );
    for kind in ManualKind::ALL {
        let Some(rows) = report.by_kind.get(kind.code()) else {
            continue;
        };
        out.push_str(&format!(
            "\n{} ({}): {}\n",
            kind.code(),
            rows.whose,
            rows.count
        ));
        for r in &rows.rows {
            let at = r.at.as_deref().unwrap_or(&r.op);
            out.push_str(&format!(
                "  {at} {} {}: {} -- {}\n",
                r.op, r.code, r.condition, r.reason
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ErrorCase, Loc};

    fn row(kind: ManualKind, reason: &str) -> ErrorCase {
        ErrorCase {
            code: 161002,
            condition: format!("condition {reason}"),
            source: Some(Loc {
                file: "doc.md".into(),
                line: 7,
                column: 0,
            }),
            mapping: Some(Mapping::Manual {
                kind,
                reason: reason.into(),
            }),
            ..ErrorCase::default()
        }
    }

    #[test]
    fn rows_are_counted_by_kind_with_their_place() {
        let op = OpIr {
            op: "Toy".into(),
            errors: vec![
                row(ManualKind::Conditional, "a"),
                row(ManualKind::Conditional, "b"),
                row(ManualKind::Unstated, "c"),
                ErrorCase {
                    mapping: Some(Mapping::Rules {
                        rules: Vec::new(),
                        unread: Some("an alternative".into()),
                    }),
                    ..ErrorCase::default()
                },
            ],
            ..OpIr::default()
        };
        let report = manual_report(&[&op]);
        assert_eq!(
            (report.conditions, report.manual, report.partly_read),
            (4, 3, 1)
        );
        assert_eq!(report.by_kind["conditional"].count, 2);
        assert_eq!(report.by_kind["unstated"].whose, "the doc's");
        assert_eq!(
            report.by_kind["unstated"].rows[0].at.as_deref(),
            Some("doc.md:7")
        );
        let text = render_text(&report);
        assert!(
            text.starts_with("4 documented conditions: 3 manual, 1 read in part"),
            "{text}"
        );
        assert!(
            text.contains("conditional (the rule vocabulary's scope): 2"),
            "{text}"
        );
    }
}
