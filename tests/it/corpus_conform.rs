//! Over both dev sets of `../shared/corpus` (ops-nn and ops-math-dev, written by two teams): the
//! doc-generated validators against CANN's own op_api unit tests, as data (`ut-calls.jsonl`:
//! each call with the status CANN returns; `aclgen conform --calls`), and the docs' prototypes
//! against CANN's headers, as data (`prototypes.jsonl`). Prints the figures and fails below the
//! floors.
//!
//! The floors are a ratchet per dev set at the figures reached (raise them as the mechanism
//! improves; never lower them): a change that helps one set and costs the other fails. They were
//! set when the calls came as data (issue 48), measured with the project's overlays; the targets
//! of issue 50 are in `TARGETS`.

use std::path::{Path, PathBuf};

/// One dev set's floors in % (a ceiling for false rejections) and the calls it must check.
struct Floors {
    agreement: f64,
    false_rejections: f64,
    nullptr: f64,
    invalid: f64,
    /// Calls the reader must turn into checked cases (so a regression cannot raise the agreement
    /// by skipping hard calls).
    checked: usize,
    /// False rejections the reviewed list does not name (the reader's, not the doc's).
    unreviewed: usize,
    /// Docs whose first-phase prototype is compared with a header, and how many may differ.
    prototypes_compared: usize,
    prototypes_drift: usize,
}

/// ops-nn: 3,342 of 3,371 calls checked; every false rejection a reviewed doc contradiction.
const OPS_NN: Floors = Floors {
    agreement: 92.99,
    false_rejections: 1.52,
    nullptr: 96.7,
    invalid: 84.3,
    checked: 3342,
    unreviewed: 0,
    prototypes_compared: 408,
    prototypes_drift: 24,
};

/// ops-math-dev, the docs of another team: 2,375 of 2,451 calls checked. Set at 87.2% agreement,
/// 4.06% false rejections and 70.4% of 161002 when the calls came as data; issue 50's first
/// mechanisms (a null the doc gives a meaning, a rank before a tensor's name, a part of a shape,
/// "指针为空", a dtype joined by 且) took false rejections to 2.6% (33 of the 35 reviewed doc
/// contradictions, `ops-math-dev-contradictions.yaml`) and agreement to 87.8%, and 161002 to 69.6%: the six
/// 161002 calls lost were caught by the misreadings those mechanisms removed (an empty 3-D self
/// rejected by "二维self不支持为空tensor", Logdet's out tied to self's whole shape), for another
/// reason than CANN's. "在支持范围之外" read as "不在支持的范围之内" (the table's shapes are the range
/// the row points at) took 161002 to 72.5% and agreement to 88.8%; an empty tensor with a zero in
/// named dims ("self为空tensor且存在非第一维度的值为0") to 73.7% and 89.2%.
/// Issue 50's reader mechanisms, 161002 from 73.7% (602/817), ops-nn unchanged throughout:
/// - "无法推导为out的类型" a cast, not a promotion: +9 (74.8%).
/// - a bare comparison after "，或" ("self维度大于8，或小于2"): +2, and one reviewed contradiction
///   (Triu's empty 1-D self), so false rejections 36 of 1,331, all reviewed but the two before.
/// - an alternative naming no tensor is of the one before ("…或者最后两维的大小不一致"): +1.
/// - "传入的min大于max" a relation of the two aclScalars: +2.
/// - "X的数值不合法（…、…）" each way an error, "指向同一个维度" a repetition: +2.
/// - a list's elements beyond "输入tensor的维度范围": the axis its description bounds: +1.
/// - an integer list beside tensors in a vague shape row takes the table's length: +3.
/// - a relation in the 维度(shape) column ("与self保持一致") is the shape's: +1.
/// - lists "的长度不一致" have one length: +1; "存在等于0的元素" no element holds 0: +1.
/// - "数据类型不在支持的范围内或不一致" both errors: +1.
/// - "out的size不等于bins" an element count against the attribute: +1.
/// - "传入的tensor或out是空指针" the noun tensor is the inputs: 161001 96.9% → 97.4% (+1).
/// - "broadcast后的shape不等于selfRef的shape" the input's own shape: +4.
/// - "推导出来的数据类型为COMPLEX64或COMPLEX128" a complex operand: +4.
/// - "out在0和1维度上的size大小与self、vec2的size…" per-dim equalities: +2.
/// - "out的shape不是[1]" a shape in numbers: +0 (read, no call of the sets at stake).
/// - "[-dimNum, dimNum -1],dimNum为self的维度大小" an axis range over a defined symbol: +1.
/// - "0：表示…。1：表示…" an enumeration of the attribute: +1.
/// - sentences each under their own condition, "当self为实数时"/"当self为COMPLEX64时": +3.
///
/// Together: 161002 78.6% (642/817), 161001 97.4%, agreement 90.9%.
/// Issue 50's second round (reader-50b), 161002 from 78.6% (642/817), ops-nn unchanged:
/// - a padded shape (`ShapePadded`): "out最后一维的值不等于self最后一维的值加padding的两个值", a
///   backward's "gradOutput的shape需要与reflection_pad2d正向传播的output一致", "out的shape与实际输出
///   shape不匹配" where out's description states the sum: +13 (80.2%), agreement 91.4%.
/// - pads below the dims they pad (`PadsBelowDims`): "padding的数值大于等于self对应维度的值": +7
///   (81.0%), agreement 91.7%.
/// - a cast row with no direction of its own ("self与out的数据类型不满足互转换关系") takes the one a
///   description states ("out数据类型需要可转换为self的数据类型"): Histc's false rejection gone;
///   NormalTensorTensor's, the table's "数据类型与std的数据类型一致", reviewed as the doc's: false
///   rejections 35 of 1,331 (2.63%), every one reviewed.
/// - a doc with no product section states its dtype column for every product ("`FLOAT16/FLOAT/
///   BFLOAT16`", "out dtype 不是 BOOL"): +4 (81.5%), agreement 91.9%.
/// - a reduced output held to its reduction (`ShapeReduced`) by "out shape与实际不匹配", "self与out
///   的shape不满足计算公式中的推导规则", "stdOut的shape出现如下情况会出错": +8 (82.5%), agreement
///   92.3%; an empty dims list or an empty self holds nothing (CANN accepts what the caller gives).
const OPS_MATH_DEV: Floors = Floors {
    agreement: 92.25,
    false_rejections: 2.63,
    nullptr: 97.3,
    invalid: 82.45,
    checked: 2375,
    unreviewed: 0,
    prototypes_compared: 252,
    prototypes_drift: 11,
};

const TARGETS: &str = "issue 50 targets: ops-math-dev false rejections beyond reviewed \
                       contradictions <= 0.5%, 161002 >= 85%, 161001 >= 98%";

fn dev_set(name: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name);
    if root.join("ut-calls.jsonl").is_file() && root.join("docs").is_dir() {
        Some(root)
    } else {
        println!("skipped: ../shared/corpus/{name} (ut-calls.jsonl, docs) is absent");
        None
    }
}

/// The ops of a folder of CANN docs with their rules, measured as the project ships them: with
/// its overlays (specs/ops) applied and the rules proven as gen proves them (a rule no valid
/// call survives is demoted).
fn shipped_ops(docs: &Path) -> Vec<aclgen::ir::OpIr> {
    let mut ops = aclgen::conform::load_docs(docs).expect("read the docs");
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

/// The reviewed doc contradictions of a dev set, where the project keeps a list for it.
fn reviewed_list(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/fixtures/conform/{name}-contradictions.yaml"));
    path.is_file().then_some(path)
}

fn print_figures(name: &str, r: &aclgen::conform::Report) {
    let (ok, nul, inv) = (r.overall, r.code(161001), r.code(161002));
    println!(
        "conform {name} (ut-calls.jsonl): {} files, {} calls, {} checked, {} skipped",
        r.files,
        r.tests,
        ok.total,
        r.skipped.len()
    );
    println!(
        "  agreement {:.1}% ({}/{}), false rejections {:.2}% ({}/{}), success {:.1}%, \
         161001 {:.1}% ({}/{}), 161002 {:.1}% ({}/{})",
        ok.pct(),
        ok.agree,
        ok.total,
        r.false_rejection_pct(),
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
    if let Some(review) = &r.contradictions {
        let beyond = 100.0 * review.unreviewed.len() as f64 / r.false_rejections.total as f64;
        println!(
            "  false rejections reviewed as doc contradictions: {}; beyond them (the reader's): \
             {} ({beyond:.2}% of the calls CANN accepts); stale entries: {}",
            review.reviewed,
            review.unreviewed.len(),
            review.stale.len()
        );
        for u in &review.unreviewed {
            println!("    the reader's: {u}");
        }
    }
}

/// What falls below a floor, in words.
fn below_floors(r: &aclgen::conform::Report, f: &Floors) -> Vec<String> {
    let mut failures = Vec::new();
    if let Some(review) = r.contradictions.as_ref() {
        if review.unreviewed.len() > f.unreviewed || !review.stale.is_empty() {
            failures.push(format!(
                "false rejections not reviewed as doc contradictions (at most {}): {:?}; \
                 reviewed entries that no longer occur (remove them): {:?}",
                f.unreviewed, review.unreviewed, review.stale
            ));
        }
    }
    let (ok, bad) = (r.overall, r.false_rejection_pct());
    let checks = [
        (
            ok.total < f.checked,
            format!("only {} calls checked (< {})", ok.total, f.checked),
        ),
        (
            ok.pct() < f.agreement,
            format!("agreement {:.2}% < {}%", ok.pct(), f.agreement),
        ),
        (
            bad > f.false_rejections,
            format!("false rejections {bad:.2}% > {}%", f.false_rejections),
        ),
        (
            r.code(161001).pct() < f.nullptr,
            format!("161001 {:.2}% < {}%", r.code(161001).pct(), f.nullptr),
        ),
        (
            r.code(161002).pct() < f.invalid,
            format!("161002 {:.2}% < {}%", r.code(161002).pct(), f.invalid),
        ),
    ];
    failures.extend(checks.into_iter().filter(|(bad, _)| *bad).map(|(_, m)| m));
    failures
}

/// Docs' first-phase prototypes against CANN's headers as data: exact, or drift named with both
/// spellings.
fn prototype_drift(root: &Path, ops: &[aclgen::ir::OpIr], f: &Floors) -> Vec<String> {
    let protos = aclgen::conform::drift::prototypes(&root.join("prototypes.jsonl"))
        .expect("read prototypes.jsonl");
    let d = aclgen::conform::drift::compare(ops, &protos);
    println!(
        "  prototypes: {} docs compared with CANN's headers, {} exact, {} drift",
        d.compared,
        d.compared - d.drifts.len(),
        d.drifts.len()
    );
    for x in &d.drifts {
        assert!(
            x.differences
                .iter()
                .all(|l| l.contains("doc ") && l.contains("header ")),
            "{x:?}"
        );
    }
    let mut failures = Vec::new();
    if d.compared < f.prototypes_compared {
        failures.push(format!(
            "prototypes compared {} < {}",
            d.compared, f.prototypes_compared
        ));
    }
    if d.drifts.len() > f.prototypes_drift {
        failures.push(format!(
            "prototype drift {} > {}",
            d.drifts.len(),
            f.prototypes_drift
        ));
    }
    failures
}

fn conform_dev_set(name: &str, floors: &Floors) {
    let Some(root) = dev_set(name) else { return };
    let ops = shipped_ops(&root.join("docs"));
    let mut r = aclgen::conform::run_calls(&root.join("ut-calls.jsonl"), &ops)
        .expect("read ut-calls.jsonl");
    if let Some(list_path) = reviewed_list(name) {
        let list =
            aclgen::conform::contradictions::load(&list_path).expect("read the reviewed list");
        aclgen::conform::contradictions::apply(&mut r, &list, &list_path.display().to_string());
    }
    print_figures(name, &r);
    println!("  {TARGETS} (this test is a ratchet at the figures reached)");
    let mut failures = below_floors(&r, floors);
    failures.extend(prototype_drift(&root, &ops, floors));
    assert!(
        failures.is_empty(),
        "{name}: agreement with CANN's facts fell below the ratchet: {}",
        failures.join("; ")
    );
}

#[test]
fn validators_agree_with_canns_unit_tests_on_ops_nn() {
    conform_dev_set("ops-nn", &OPS_NN);
}

#[test]
fn validators_agree_with_canns_unit_tests_on_ops_math_dev() {
    conform_dev_set("ops-math-dev", &OPS_MATH_DEV);
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

/// `conform --suggest-overlays`: the overlays it writes for a dev set's reviewed contradictions,
/// applied on top of the project's, settle them: at least 90% of the reviewed calls are no longer
/// rejected. (The rest: rules the parameter table implies, which the overlay leaves to a person,
/// and rows the reader reads together, where another row rejects the call once one goes.)
fn suggested_overlays_settle(name: &str) {
    let Some(root) = dev_set(name) else { return };
    let Some(list_path) = reviewed_list(name) else {
        return;
    };
    let list = aclgen::conform::contradictions::load(&list_path).expect("read the reviewed list");
    let calls = root.join("ut-calls.jsonl");
    let review = |ops: &[aclgen::ir::OpIr]| {
        let mut r = aclgen::conform::run_calls(&calls, ops).expect("read ut-calls.jsonl");
        aclgen::conform::contradictions::apply(&mut r, &list, &list_path.display().to_string());
        r
    };
    let before = review(&shipped_ops(&root.join("docs")));
    let dir = tempfile::tempdir().expect("tempdir");
    let written = aclgen::conform::suggest::write(&before, dir.path()).expect("write overlays");

    let mut ops = aclgen::conform::load_docs(&root.join("docs")).expect("read the docs");
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/ops");
    let _ = aclgen::conform::apply_overlays(&mut ops, &project).expect("read specs/ops");
    let _ = aclgen::conform::apply_overlays(&mut ops, dir.path()).expect("read the suggestions");
    aclgen::pipeline::apply_rules(&mut ops);
    let after = review(&ops);

    let reviewed =
        |r: &aclgen::conform::Report| r.contradictions.as_ref().map_or(0, |c| c.reviewed);
    let (was, still) = (reviewed(&before), reviewed(&after));
    println!(
        "suggest-overlays {name}: {} overlays; {} of {was} reviewed calls settled",
        written.len(),
        was - still
    );
    assert!(was > 0, "{name}: no reviewed contradiction to settle");
    assert!(
        (was - still) as f64 >= 0.9 * was as f64,
        "{name}: the suggested overlays settle {} of {was} reviewed contradictions",
        was - still
    );
}

#[test]
fn suggested_overlays_settle_the_reviewed_contradictions_of_ops_nn() {
    suggested_overlays_settle("ops-nn");
}

#[test]
fn suggested_overlays_settle_the_reviewed_contradictions_of_ops_math_dev() {
    suggested_overlays_settle("ops-math-dev");
}
