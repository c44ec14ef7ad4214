//! Over `../shared/corpus/ops-nn`: the doc-generated validators against CANN's own op_api unit
//! tests (`aclgen conform`). Prints the figures and fails below the floors.
//!
//! The targets of issue 17 are agreement ≥ 95%, false rejections ≤ 1%, and ≥ 90% of the
//! 161001 and of the 161002 cases. They are not reached yet: the floors below are a ratchet at
//! the figures reached so far (raise them as the mechanism improves; never lower them).

use std::path::Path;

/// Floors in % (a ceiling for false rejections), at the figures reached (161002 went from 77.8
/// to 77.2 once, by design: gen demotes rules that reject the doc's own call example, which
/// took 14 false rejections and 10 caught 161002 calls; issue 31's reader mechanisms raised it to
/// 77.5 and agreement to 90.2, then conditions on a tensor's state, tensor–scalar promotion and
/// English words among the Chinese to 77.8 and 90.3; one implementation behind a doc's in-place
/// and out-of-place tables took false rejections from 2.3 to 1.7 and agreement to 90.6, and
/// broadcast relations the parameter table states in English 161002 to 78.1; reading "shape不在
/// 支持的范围之内" as the table's shape statements took it to 78.6 and agreement to 90.8, with two
/// reviewed contradictions more (a table's 4-D index CANN accepts as 2-D), and named layout
/// axes ("在N、C维度上的size") 78.7 and 90.9; tensor lists in plain formats rejecting private
/// ones, fixed-dtype tensors out of "数据类型不一致" groups and "轴超出x的维度数" as an axis range
/// 79.7 and 91.3; a null the 约束说明 allows by name false rejections to 1.7; dims written
/// x.size(i) and enums and file constants in the tests (60 more calls checked) 80.2 and 91.5;
/// a dtype-mismatch row with the table's listed conversions false rejections to 1.6; reading
/// "与X相同" as "与X一致" in the parameter table 161002 to 80.3 and one reviewed contradiction
/// more (42 calls, 1.64%: LayerNormBackward's mean and rstd, mixed precision), the only rise of
/// the ceiling, for a synonym the reader must read alike; output shapes the table states 80.8
/// and agreement 91.8; "和"/"同" for "与" and "保持一致" for "一致" in the table 81.0 and 91.9;
/// an int attribute naming its output's dtype by aclDataType number, requirements joined by 且
/// and required aclnn-object attributes a tensors-only null row leaves out: 161002 81.7, 161001
/// 98.8 (98.9 with "out" as the one output's name), agreement 92.3; baseline when the
/// command was written: agreement 80.7%, false rejections 19.1%, 161001 88.3%, 161002 77.9%).
const MIN_AGREEMENT: f64 = 92.2;
const MAX_FALSE_REJECTIONS: f64 = 1.65;
const MIN_NULLPTR: f64 = 98.8;
const MIN_INVALID: f64 = 81.6;
/// Calls the reader must turn into checked cases (so a reader regression cannot raise the
/// agreement by skipping hard tests).
const MIN_CHECKED: usize = 4960;

const TARGETS: &str = "issue 17 targets: agreement >= 95%, false rejections <= 1%, \
                       161001 >= 90%, 161002 >= 90%";

/// The ops of a folder of CANN docs with their rules, measured as the project ships them: with
/// its overlays (specs/ops) applied and the rules proven as gen proves them (a rule no valid
/// call survives is demoted).
fn shipped_ops(docs: &Path) -> Vec<aclgen::ir::OpIr> {
    let mut ops = aclgen::conform::load_docs(docs).expect("read the ops-nn docs");
    let overlays = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/ops");
    let _ = aclgen::conform::apply_overlays(&mut ops, &overlays).expect("read specs/ops");
    aclgen::pipeline::apply_rules(&mut ops);
    let demoted: Vec<&aclgen::ir::Diagnostic> = ops
        .iter()
        .flat_map(|op| &op.diagnostics)
        .filter(|d| d.code == aclgen::diag::Code::RuleDemoted)
        .collect();
    println!(
        "  rules demoted by gen's proof (rule-demoted): {}",
        demoted.len()
    );
    for d in demoted {
        println!("    {}", d.message);
    }
    ops
}

#[test]
fn validators_agree_with_canns_unit_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/ops-nn");
    let (tests, docs) = (root.join("ut/tests"), root.join("docs"));
    if !tests.is_dir() || !docs.is_dir() {
        println!("skipped: ../shared/corpus/ops-nn (ut/tests, docs) is absent");
        return;
    }
    let ops = shipped_ops(&docs);
    let mut r = aclgen::conform::run(&tests, &ops).expect("read the ops-nn unit tests");
    let list_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/conform/ops-nn-contradictions.yaml");
    let list = aclgen::conform::contradictions::load(&list_path).expect("read the reviewed list");
    aclgen::conform::contradictions::apply(&mut r, &list, "ops-nn-contradictions.yaml");
    let (ok, bad, nul, inv) = (
        r.overall,
        r.false_rejection_pct(),
        r.code(161001),
        r.code(161002),
    );
    println!(
        "conform ops-nn: {} files, {} tests, {} calls checked, {} skipped",
        r.files,
        r.tests,
        ok.total,
        r.skipped.len()
    );
    println!(
        "  agreement {:.1}% ({}/{}), false rejections {:.1}% ({}/{}), success {:.1}%, \
         161001 {:.1}% ({}/{}), 161002 {:.1}% ({}/{})",
        ok.pct(),
        ok.agree,
        ok.total,
        bad,
        r.false_rejections.total - r.false_rejections.agree,
        r.false_rejections.total,
        r.code(0).pct(),
        nul.pct(),
        nul.agree,
        nul.total,
        inv.pct(),
        inv.agree,
        inv.total
    );
    println!("  {TARGETS} (not reached; this test is a ratchet at the figures reached)");
    // Every false rejection is a doc contradiction read by hand, never a misreading: a new one
    // (or a reviewed one that went away) fails until the list says what it is.
    let review = r.contradictions.as_ref().expect("reviewed");
    println!(
        "  false rejections reviewed as doc contradictions: {} of {} calls ({} unreviewed, {} \
         stale entries)",
        review.reviewed,
        r.false_rejections.total - r.false_rejections.agree,
        review.unreviewed.len(),
        review.stale.len()
    );
    let headers = root.join("headers");
    if headers.is_dir() {
        let protos = aclgen::conform::drift::header_prototypes(&headers).expect("read headers");
        let d = aclgen::conform::drift::compare(&ops, &protos);
        println!(
            "  drift: {} of {} docs have a first-phase prototype that differs from CANN's header",
            d.drifts.len(),
            d.compared
        );
        assert!(
            d.compared > 300,
            "headers matched for only {} docs",
            d.compared
        );
        for x in &d.drifts {
            assert!(
                x.differences
                    .iter()
                    .all(|l| l.contains("doc ") && l.contains("header ")),
                "{x:?}"
            );
        }
    }
    let mut failures = Vec::new();
    if !review.is_exact() {
        failures.push(format!(
            "false rejections not reviewed as doc contradictions: {:?}; reviewed entries that \
             no longer occur (remove them): {:?}",
            review.unreviewed, review.stale
        ));
    }
    if ok.total < MIN_CHECKED {
        failures.push(format!("only {} calls checked (< {MIN_CHECKED})", ok.total));
    }
    if ok.pct() < MIN_AGREEMENT {
        failures.push(format!("agreement {:.1}% < {MIN_AGREEMENT}%", ok.pct()));
    }
    if bad > MAX_FALSE_REJECTIONS {
        failures.push(format!(
            "false rejections {bad:.1}% > {MAX_FALSE_REJECTIONS}%"
        ));
    }
    if nul.pct() < MIN_NULLPTR {
        failures.push(format!("161001 {:.1}% < {MIN_NULLPTR}%", nul.pct()));
    }
    if inv.pct() < MIN_INVALID {
        failures.push(format!("161002 {:.1}% < {MIN_INVALID}%", inv.pct()));
    }
    assert!(
        failures.is_empty(),
        "agreement with CANN's unit tests fell below the ratchet: {}",
        failures.join("; ")
    );
}

/// Floors for the docs' own example programs (`aclgen conform --examples`): each is a call CANN
/// documents as valid, so every one the validators reject is a misreading or a doc that
/// contradicts itself. Measured when the command was written: 95.1% (462/486).
const MIN_EXAMPLES_ACCEPTED: f64 = 99.3;
const MIN_EXAMPLES_CHECKED: usize = 480;

#[test]
fn validators_accept_the_docs_own_examples() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/ops-nn/docs");
    if !docs.is_dir() {
        println!("skipped: ../shared/corpus/ops-nn/docs is absent");
        return;
    }
    let ops = shipped_ops(&docs);
    let r = aclgen::conform::run_examples(&ops).expect("read the ops-nn docs' examples");
    let ok = r.overall;
    println!(
        "conform ops-nn examples: {} docs, {} programs, {} calls checked, {} skipped; \
         accepted {:.1}% ({}/{})",
        r.files,
        r.tests,
        ok.total,
        r.skipped.len(),
        ok.pct(),
        ok.agree,
        ok.total
    );
    for c in r.cases.iter().filter(|c| !c.agree) {
        println!("  rejected: {} {}: {}", c.at, c.op, c.condition);
    }
    assert!(
        ok.total >= MIN_EXAMPLES_CHECKED,
        "only {} example calls checked (< {MIN_EXAMPLES_CHECKED})",
        ok.total
    );
    assert!(
        ok.pct() >= MIN_EXAMPLES_ACCEPTED,
        "the validators accept {:.1}% of the docs' own examples (< {MIN_EXAMPLES_ACCEPTED}%)",
        ok.pct()
    );
}
