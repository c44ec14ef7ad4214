//! A reviewed list of false rejections that are doc contradictions (`conform --contradictions`).
//!
//! A call CANN's test accepts and the validator rejects is either a misreading (to fix in the
//! reader) or a doc that states what CANN's code does not check (a dtype its list lacks, a
//! format, a shape relation). Only a person can tell them apart, once; this list records that
//! judgement per call, with the doc line of the rule that fired. Against it, every false
//! rejection is either reviewed or new, and an entry whose call no longer disagrees (or now
//! disagrees through another doc line) is stale: the list stays exact as the reader changes.

use super::{CheckedCall, ConformError, Report};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// One reviewed false rejection.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contradiction {
    /// The test file, as conform names it (`…test_aclnn_celu.cpp`; without the line number a
    /// gtest read from C++ has).
    pub file: String,
    /// The test's name.
    pub test: String,
    /// The product the call ran on (`ascend910b`).
    pub product: String,
    /// The doc file name and line of the rule that rejects the call: `file.md:210`.
    pub doc: String,
    /// Why the doc and CANN's code disagree.
    pub note: String,
}

/// The false rejections of a report against the reviewed list.
#[derive(Debug, Default, Serialize)]
pub struct Review {
    /// The list's file.
    pub list: String,
    /// Calls the list names (a test looping over one call counts each time).
    pub reviewed: usize,
    /// False rejections the list does not name: `test [product] doc:line`.
    pub unreviewed: Vec<String>,
    /// Entries no false rejection matches any more: `test [product] doc:line`.
    pub stale: Vec<String>,
}

impl Review {
    /// Every false rejection is reviewed and every entry still occurs.
    pub fn is_exact(&self) -> bool {
        self.unreviewed.is_empty() && self.stale.is_empty()
    }

    /// "57 calls; unreviewed: 0; stale entries: 0".
    pub fn counts(&self) -> String {
        format!(
            "{} calls; unreviewed: {}; stale entries: {}",
            self.reviewed,
            self.unreviewed.len(),
            self.stale.len()
        )
    }
}

/// Reads a list (YAML sequence of [`Contradiction`]).
pub fn load(path: &Path) -> Result<Vec<Contradiction>, ConformError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConformError::io(path, e))?;
    serde_yaml::from_str(&text).map_err(|e| ConformError::List {
        path: path.to_path_buf(),
        line: e.location().map_or(0, |l| l.line()),
        message: e.to_string(),
    })
}

/// Matches each false rejection of `report` to the list: by test, product and the doc line of
/// the rule that fired.
pub fn review(report: &Report, list: &[Contradiction], list_name: &str) -> Review {
    let mut out = Review {
        list: list_name.to_string(),
        ..Review::default()
    };
    let mut used = BTreeSet::new();
    for call in false_rejections(report) {
        let key = key_of(call);
        match list.iter().position(|c| entry_key(c) == key) {
            Some(i) => {
                out.reviewed += 1;
                used.insert(i);
            }
            None => {
                let line = describe(&key);
                if !out.unreviewed.contains(&line) {
                    out.unreviewed.push(line);
                }
            }
        }
    }
    out.stale = list
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, c)| describe(&entry_key(c)))
        .collect();
    out
}

/// Marks each reviewed false rejection of `report` with its note and records the review.
pub fn apply(report: &mut Report, list: &[Contradiction], list_name: &str) {
    let review = review(report, list, list_name);
    for call in report.cases.iter_mut().filter(|c| is_false_rejection(c)) {
        let key = key_of(call);
        call.contradiction = list
            .iter()
            .find(|c| entry_key(c) == key)
            .map(|c| c.note.clone());
    }
    report.contradictions = Some(review);
}

fn is_false_rejection(c: &CheckedCall) -> bool {
    c.expected == aclnn_runtime::status::SUCCESS && c.got != c.expected
}

fn false_rejections(report: &Report) -> impl Iterator<Item = &CheckedCall> {
    report.cases.iter().filter(|c| is_false_rejection(c))
}

/// A call by (file, test), the product it ran on and the doc line of the rule that fired.
type Key = (String, String, String);

fn key_of(call: &CheckedCall) -> Key {
    (
        format!("{} {}", file_of(&call.at), call.test),
        call.product.clone(),
        doc_line(&call.why),
    )
}

/// The file of a call's `at`: a gtest's `file.cpp:93` without its line.
pub(super) fn file_of(at: &str) -> &str {
    match at.rsplit_once(':') {
        Some((file, line)) if line.chars().all(|c| c.is_ascii_digit()) => file,
        _ => at,
    }
}

fn entry_key(c: &Contradiction) -> Key {
    (
        format!("{} {}", c.file, c.test),
        c.product.clone(),
        c.doc.clone(),
    )
}

/// `file.md:210` of a disagreement's "…/docs/file.md:210: rule of … fired" (the file name alone,
/// so a list holds wherever the docs are); without a line (a rule no row states), `file.md`.
fn doc_line(why: &str) -> String {
    let first = why.split(": ").next().unwrap_or_default();
    first.rsplit('/').next().unwrap_or(first).to_string()
}

fn describe((test, product, doc): &Key) -> String {
    format!("{test} [{product}] {doc}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(at: &str, expected: u32, got: u32, why: &str) -> CheckedCall {
        CheckedCall {
            at: at.into(),
            test: "case_1".into(),
            op: "Elu".into(),
            product: "ascend910b".into(),
            expected,
            got,
            agree: expected == got,
            condition: String::new(),
            why: why.into(),
            contradiction: None,
            widenings: Vec::new(),
        }
    }

    fn entry(test: &str, doc: &str) -> Contradiction {
        let (file, test) = test.split_once(' ').unwrap();
        Contradiction {
            file: file.into(),
            test: test.into(),
            product: "ascend910b".into(),
            doc: doc.into(),
            note: "the doc's list lacks DOUBLE".into(),
        }
    }

    fn report(cases: Vec<CheckedCall>) -> Report {
        Report {
            cases,
            ..Report::default()
        }
    }

    #[test]
    fn a_listed_false_rejection_is_reviewed_and_an_unlisted_one_is_not() {
        let r = report(vec![
            call(
                "elu.cpp:93",
                0,
                161002,
                "../docs/elu.md:210: rule of \"x\" fired: …",
            ),
            call(
                "elu.cpp:95",
                0,
                161002,
                "../docs/elu.md:212: rule of \"y\" fired: …",
            ),
            // A missed rejection is no false rejection: never listed, never unreviewed.
            call(
                "elu.cpp:97",
                161002,
                0,
                "../docs/elu.md: no documented condition",
            ),
        ]);
        let review = review(&r, &[entry("elu.cpp case_1", "elu.md:210")], "list.yaml");
        assert_eq!(review.reviewed, 1);
        assert_eq!(
            review.unreviewed,
            vec!["elu.cpp case_1 [ascend910b] elu.md:212"]
        );
        assert!(review.stale.is_empty());
        assert!(!review.is_exact());
    }

    #[test]
    fn an_entry_whose_call_now_fails_through_another_row_is_stale() {
        let r = report(vec![call(
            "elu.cpp:93",
            0,
            161002,
            "../docs/elu.md:230: rule of \"z\" fired: …",
        )]);
        let review = review(&r, &[entry("elu.cpp case_1", "elu.md:210")], "list.yaml");
        assert_eq!(review.stale, vec!["elu.cpp case_1 [ascend910b] elu.md:210"]);
        assert_eq!(review.unreviewed.len(), 1);
    }

    #[test]
    fn an_inferred_rule_is_named_by_its_doc_alone() {
        assert_eq!(
            doc_line("../docs/a.md: inferred rule \"x\" fired: y"),
            "a.md"
        );
        assert_eq!(doc_line("d/docs/a&b.md:12: rule of …"), "a&b.md:12");
    }

    #[test]
    fn a_list_with_an_unknown_field_names_its_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("list.yaml");
        std::fs::write(
            &path,
            "- file: a.cpp\n  test: t\n  product: ascend910b\n  doc: a.md:3\n  note: n\n  oops: 1\n",
        )
        .expect("write");
        let err = load(&path).expect_err("unknown field");
        assert!(matches!(err, ConformError::List { line: 6, .. }), "{err}");
    }
}
