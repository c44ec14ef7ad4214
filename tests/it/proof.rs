//! gen proves what it emits, on a fixture doc of the project's own: a rule no valid call
//! survives is demoted to manual with a diagnostic at its doc line, gen says how many, and the
//! op still gets a valid baseline and its cases.

use crate::common::{aclgen_in, repo, text};
use std::path::Path;

/// A specs folder holding only `docs` (from tests/fixtures/docs).
fn specs_with(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let docs = dir.path().join("specs/docs");
    std::fs::create_dir_all(&docs).expect("mkdir");
    for doc in names {
        std::fs::copy(repo().join("tests/fixtures/docs").join(doc), docs.join(doc))
            .expect("copy doc");
    }
    dir
}

fn gen(dir: &Path) -> std::process::Output {
    let templates = repo().join("templates");
    let kernels = dir.join("kernels");
    std::fs::create_dir_all(&kernels).expect("mkdir kernels");
    aclgen_in(
        &[
            "gen",
            "--specs",
            "specs",
            "--out",
            "out",
            "--kernels",
            kernels.to_str().expect("utf-8"),
            "--templates",
            templates.to_str().expect("utf-8"),
        ],
        dir,
    )
}

#[test]
fn a_rule_no_call_satisfies_is_demoted_at_its_doc_line() {
    let dir = specs_with(&["aclnnContradict.md"]);
    let out = gen(dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The two rank rows contradict each other: the baseline takes the larger rank, so the row
    // asking for 2 dims is the one demoted, at its table row.
    assert!(
        stderr.contains("warning[rule-demoted]") && stderr.contains("self的维度不等于2"),
        "{stderr}"
    );
    assert!(stderr.contains("aclnnContradict.md:38"), "{stderr}");
    assert!(
        stderr.contains("gen: 1 rule(s) demoted to manual (rule-demoted)"),
        "{stderr}"
    );
    // The op has its valid baseline, and the demoted row is no rejection anywhere.
    let cases = std::fs::read_to_string(dir.path().join("out/ops/contradict/tests/cases.json"))
        .expect("cases.json");
    assert!(
        cases.contains("\"case\":\"baseline_ascend910b\""),
        "{cases}"
    );
    assert!(!cases.contains("self的维度不等于2"), "{cases}");
    assert!(cases.contains("self的维度不等于4"), "{cases}");
}

/// An op and its Inplace variant documented apart, whose call examples include one header: each
/// op's copy of that header declares both APIs (as CANN's `aclnn_atan2.h` does), and an edit of
/// one doc rewrites both copies.
#[test]
fn an_op_and_its_inplace_variant_share_one_header() {
    let dir = specs_with(&["aclnnShare.md", "aclnnInplaceShare.md"]);
    let out = gen(dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let copies = [
        "out/ops/share/op_api/aclnn_share.h",
        "out/ops/inplace_share/op_api/aclnn_share.h",
    ];
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).expect("header");
    for copy in copies {
        let header = read(copy);
        for api in [
            "aclnnShareGetWorkspaceSize",
            "aclnnShare(",
            "aclnnInplaceShareGetWorkspaceSize",
            "aclnnInplaceShare(",
        ] {
            assert!(header.contains(api), "{copy} lacks {api}:\n{header}");
        }
        assert_eq!(
            header
                .matches("#ifndef OP_API_INC_LEVEL2_ACLNN_SHARE_H_")
                .count(),
            1
        );
    }
    assert_eq!(read(copies[0]), read(copies[1]));
    // An edit of the Inplace doc alone reaches the other op's copy too.
    let doc = dir.path().join("specs/docs/aclnnInplaceShare.md");
    let edited = std::fs::read_to_string(&doc).expect("doc").replace(
        "(aclTensor *selfRef, uint64_t",
        "(aclTensor *selfRef, int64_t dim, uint64_t",
    );
    std::fs::write(&doc, edited).expect("edit doc");
    let again = gen(dir.path());
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    for copy in copies {
        assert!(read(copy).contains("int64_t dim"), "{copy} is stale");
    }
}

/// A rule that rejects the doc's own call example (CANN documents that call as valid) is
/// demoted, at its row, naming the example's line.
#[test]
fn a_rule_rejecting_the_docs_own_example_is_demoted() {
    let dir = specs_with(&["aclnnExampleReject.md"]);
    let out = gen(dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("warning[rule-demoted]"), "{stderr}");
    assert!(stderr.contains("aclnnExampleReject.md:38"), "{stderr}");
    assert!(
        stderr.contains("rejects the doc's own call example") && stderr.contains("self has 2 dims"),
        "{stderr}"
    );
    let cases = std::fs::read_to_string(dir.path().join("out/ops/example_reject/tests/cases.json"))
        .expect("cases.json");
    assert!(!cases.contains("self的维度不等于4"), "{cases}");
}

/// The audit of rules that were not proven (IR made some other way than gen's pipeline) fails
/// where a rule rejects the doc's own example, and with the proof that rule is gone.
#[test]
fn audit_fails_a_rule_set_that_rejects_the_docs_example() {
    let doc = repo().join("tests/fixtures/docs/aclnnExampleReject.md");
    let read = aclgen::specs::read_file(&doc).expect("read the doc");
    let mut unproven = read.ops.clone();
    for op in &mut unproven {
        aclgen::rules::apply(op);
        aclgen::pipeline::derive(op);
    }
    let report = aclgen::audit::audit(&unproven);
    assert_eq!(report.summary.rejects_example, 1, "{:?}", report.summary);
    let mut proven = read.ops;
    aclgen::pipeline::apply_rules(&mut proven);
    let report = aclgen::audit::audit(&proven);
    assert_eq!(report.summary.rejects_example, 0, "{:?}", report.summary);
}
