//! `conform --suggest-overlays DIR`: for every false rejection a reviewed list names (a doc
//! contradiction: the doc rejects a call CANN's unit test accepts), the overlay that settles it,
//! one file per op, so a team adopts the widening in one step and keeps the evidence with it.
//!
//! A dtype the doc's column lacks widens that column on that product (the call's dtype joins the
//! list); any other rule cannot be widened by a patch that still states the doc's intent, so the
//! overlay removes the row, and says so. The evidence (test, product, the doc's line, the note of
//! the review) is the overlay's `reason`.

use super::{CheckedCall, ConformError, Report};
use crate::specs::{ErrorMatch, Overlay};
use aclnn_runtime::{Arg, Call, CheckedRule, DType, Rule};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first line of every file this writes: a file without it is someone's, never replaced.
const MARK: &str = "# Written by aclgen conform --suggest-overlays";

/// What would make the validator accept a false rejection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Widening {
    /// Tensor `param`'s dtype column on `product` becomes `dtypes` (the doc's, and the call's).
    Dtype {
        param: String,
        product: String,
        dtypes: Vec<DType>,
    },
    /// The error row (`code`, its condition) goes.
    RemoveRow { code: u32, condition: String },
    /// A rule the parameter table implies (no error row states it): no patch says which table
    /// fact to drop, so the overlay's reason names the rule for the team to edit by hand.
    ByHand { condition: String },
}

/// The widenings that settle a rejected call: one for each rule the call breaks (a call whose
/// input and output dtypes both fall outside their columns needs both).
pub fn widenings(rules: &[CheckedRule], call: &Call) -> Vec<Widening> {
    let mut out: Vec<Widening> = Vec::new();
    for fired in rules
        .iter()
        .filter(|r| aclnn_runtime::check(std::slice::from_ref(*r), call).is_err())
    {
        let w = widening(fired, call);
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// A dtype column widened by the call's dtype, or else the rule's row removed.
fn widening(fired: &CheckedRule, call: &Call) -> Widening {
    let dtype_column = match innermost(&fired.rule) {
        Rule::DtypeIn { param, allowed } => {
            let dtypes = call_dtypes(call.args.get(param));
            let mut list = allowed.get(&call.product).cloned().unwrap_or_default();
            let missing: Vec<DType> = dtypes.into_iter().filter(|d| !list.contains(d)).collect();
            (!missing.is_empty()).then(|| {
                list.extend(missing);
                Widening::Dtype {
                    param: param.clone(),
                    product: call.product.clone(),
                    dtypes: list,
                }
            })
        }
        _ => None,
    };
    dtype_column.unwrap_or_else(|| {
        if fired.inferred {
            Widening::ByHand {
                condition: fired.condition.clone(),
            }
        } else {
            Widening::RemoveRow {
                code: fired.code,
                condition: fired.condition.clone(),
            }
        }
    })
}

/// A rule without the product condition around it.
fn innermost(rule: &Rule) -> &Rule {
    match rule {
        Rule::OnProducts { rule, .. } => innermost(rule),
        other => other,
    }
}

/// The dtypes an argument carries (a tensor's, each of a list's).
fn call_dtypes(arg: Option<&Arg>) -> Vec<DType> {
    match arg {
        Some(Arg::Tensor(t)) => vec![t.dtype],
        Some(Arg::TensorList(ts)) => {
            let mut all: Vec<DType> = ts.iter().map(|t| t.dtype).collect();
            all.dedup();
            all
        }
        _ => Vec::new(),
    }
}

/// One op's overlay (the spec schema's own type, `specs::Overlay`), and the rules of the
/// parameter table no patch settles (said in its `reason`).
#[derive(Debug)]
struct Suggested {
    overlay: Overlay,
    by_hand: Vec<String>,
}

/// The overlays that settle the report's reviewed contradictions, by op.
fn overlays(report: &Report) -> BTreeMap<String, Overlay> {
    let mut by_op: BTreeMap<String, Suggested> = BTreeMap::new();
    let mut evidence: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for call in report.cases.iter().filter(|c| c.contradiction.is_some()) {
        if call.widenings.is_empty() {
            continue;
        }
        let o = by_op.entry(call.op.clone()).or_insert_with(|| Suggested {
            overlay: Overlay::new(&call.op, String::new()),
            by_hand: Vec::new(),
        });
        for w in &call.widenings {
            apply(o, w);
        }
        evidence
            .entry(call.op.clone())
            .or_default()
            .push(evidence_of(call));
    }
    let mut out = BTreeMap::new();
    for (
        op,
        Suggested {
            mut overlay,
            by_hand,
        },
    ) in by_op
    {
        let mut lines = evidence.remove(&op).unwrap_or_default();
        lines.sort();
        lines.dedup();
        overlay.reason = format!(
            "CANN's unit tests accept what the doc rejects (reviewed doc contradictions): {}",
            lines.join("; ")
        );
        if !by_hand.is_empty() {
            overlay.reason.push_str(&format!(
                ". Not settled by this overlay: the parameter table implies {}; edit that \
                 parameter's constraints by hand",
                by_hand.join(", ")
            ));
        }
        out.insert(op, overlay);
    }
    out
}

fn apply(o: &mut Suggested, w: &Widening) {
    match w {
        Widening::Dtype {
            param,
            product,
            dtypes,
        } => {
            let column = (o.overlay.params.entry(param.clone()).or_default())
                .dtypes
                .entry(product.as_str().into())
                .or_default()
                .get_or_insert_with(Vec::new);
            for d in dtypes {
                if !column.contains(d) {
                    column.push(*d);
                }
            }
        }
        Widening::ByHand { condition } => {
            if !o.by_hand.contains(condition) {
                o.by_hand.push(condition.clone());
            }
        }
        Widening::RemoveRow { code, condition } => {
            let row = ErrorMatch {
                code: *code,
                condition: Some(condition.clone()),
            };
            let remove = &mut o.overlay.errors.remove;
            if !remove.contains(&row) {
                remove.push(row);
            }
        }
    }
}

/// "test [product] at doc:line: note".
fn evidence_of(call: &CheckedCall) -> String {
    let doc = call.why.split(": ").next().unwrap_or_default();
    let doc = Path::new(doc)
        .file_name()
        .map_or(doc.to_string(), |f| f.to_string_lossy().into_owned());
    format!(
        "{} {} [{}] rejected by {doc}: {}",
        super::contradictions::file_of(&call.at),
        call.test,
        call.product,
        call.contradiction.as_deref().unwrap_or_default()
    )
}

/// Writes one `<Op>.yaml` per op into `dir` (created), each whole or not at all. Where a file
/// there was not written by this, nothing is written and the error names it. Returns the files
/// written.
pub fn write(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, ConformError> {
    let overlays = overlays(report);
    let path_of = |op: &str| dir.join(format!("{op}.yaml"));
    if let Some(theirs) = overlays
        .keys()
        .map(|op| path_of(op))
        .find(|path| std::fs::read_to_string(path).is_ok_and(|old| !old.starts_with(MARK)))
    {
        return Err(ConformError::NotOurs(theirs));
    }
    std::fs::create_dir_all(dir).map_err(|e| ConformError::io(dir, e))?;
    let mut written = Vec::new();
    for (op, overlay) in overlays {
        let path = path_of(&op);
        let yaml = serde_yaml::to_string(&overlay)
            .map_err(|e| ConformError::io(&path, std::io::Error::other(e.to_string())))?;
        let text = format!(
            "{MARK}: each patch widens the doc to what CANN's unit\n\
             # tests accept. Review it, then move the file into specs/ops.\n{yaml}"
        );
        crate::files::write_atomically(&path, text.as_bytes())
            .map_err(|e| ConformError::io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aclnn_runtime::TensorDesc;

    fn tensor(dtype: DType) -> Arg {
        Arg::Tensor(TensorDesc {
            shape: vec![2],
            dtype,
            format: aclnn_runtime::Format::Nd,
            strides: None,
        })
    }

    fn checked(rule: Rule, condition: &str) -> CheckedRule {
        CheckedRule {
            rule,
            code: 161002,
            condition: condition.into(),
            inferred: false,
        }
    }

    #[test]
    fn a_suggested_overlay_is_written_in_the_spec_schema_and_reads_back() {
        let mut o = Suggested {
            overlay: Overlay::new("Foo", "r".into()),
            by_hand: Vec::new(),
        };
        let dtype = |dtypes: Vec<DType>| Widening::Dtype {
            param: "self".into(),
            product: "ascend910b".into(),
            dtypes,
        };
        apply(&mut o, &dtype(vec![DType::Float32]));
        apply(&mut o, &dtype(vec![DType::Float32, DType::BFloat16]));
        let row = Widening::RemoveRow {
            code: 161002,
            condition: "c".into(),
        };
        apply(&mut o, &row);
        apply(&mut o, &row);
        let yaml = serde_yaml::to_string(&o.overlay).expect("yaml");
        assert_eq!(
            yaml,
            "kind: overlay\nop: Foo\nreason: r\nparams:\n  self:\n    dtypes:\n      ascend910b:\n      \
             - FLOAT32\n      - BFLOAT16\nerrors:\n  remove:\n  - code: 161002\n    condition: c\n"
        );
        match crate::specs::parse_spec("Foo.yaml", &yaml) {
            Ok(crate::specs::SpecFile::Overlay(back)) => assert_eq!(back, o.overlay),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_dtype_the_column_lacks_joins_it_and_any_other_rule_removes_its_row() {
        let rules = vec![
            checked(
                Rule::DtypeIn {
                    param: "self".into(),
                    allowed: [("ascend910b".to_string(), vec![DType::Float32])].into(),
                },
                "self的数据类型不在支持的范围之内。",
            ),
            checked(
                Rule::RankIn {
                    param: "self".into(),
                    min: 2,
                    max: 2,
                },
                "self的维度不等于2。",
            ),
        ];
        let call = |dtype| Call {
            product: "ascend910b".into(),
            args: [("self".to_string(), tensor(dtype))].into(),
        };
        let dtype = Widening::Dtype {
            param: "self".into(),
            product: "ascend910b".into(),
            dtypes: vec![DType::Float32, DType::BFloat16],
        };
        let rank = Widening::RemoveRow {
            code: 161002,
            condition: "self的维度不等于2。".into(),
        };
        assert_eq!(
            widenings(&rules, &call(DType::BFloat16)),
            vec![dtype, rank.clone()]
        );
        assert_eq!(widenings(&rules, &call(DType::Float32)), vec![rank]);
    }
}
