//! `aclgen conform` end to end on the project's specs and a hand-written gtest file.

use std::path::Path;
use std::process::Command;

const TESTS: &str = r#"
#include "op_api_ut_common/op_api_ut.h"
class pool_test : public testing::Test {};

TEST_F(pool_test, valid_cdhw_call)
{
    auto gradOutput = TensorDesc({3, 1, 1, 1}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto self = TensorDesc({3, 4, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto out = TensorDesc({3, 4, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto ut = OP_API_UT(aclnnAdaptiveAvgPool3dBackward, INPUT(gradOutput, self), OUTPUT(out));
    uint64_t workspaceSize = 0;
    aclnnStatus aclRet = ut.TestGetWorkspaceSize(&workspaceSize);
    EXPECT_EQ(aclRet, ACLNN_SUCCESS);
}

TEST_F(pool_test, null_self)
{
    auto gradOutput = TensorDesc({2, 3, 1, 1, 1}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto out = TensorDesc({2, 3, 4, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto ut = OP_API_UT(aclnnAdaptiveAvgPool3dBackward, INPUT(gradOutput, nullptr), OUTPUT(out));
    uint64_t workspaceSize = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&workspaceSize), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(pool_test, c_differs)
{
    auto gradOutput = TensorDesc({2, 5, 1, 1, 1}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto self = TensorDesc({2, 3, 4, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto ut = OP_API_UT(aclnnAdaptiveAvgPool3dBackward, INPUT(gradOutput, self), OUTPUT(self));
    uint64_t workspaceSize = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&workspaceSize), ACLNN_ERR_PARAM_INVALID);
}

TEST_F(pool_test, not_read)
{
    switch (1) { default: break; }
}
"#;

#[test]
fn conform_reports_agreement_and_names_what_it_skips() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("test_pool.cpp"), TESTS).expect("write tests");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tests = dir.path().to_str().expect("utf-8 temp path");
    let r = conform_json(&["--tests", tests]);
    assert_eq!(r["tests"], 4);
    assert_eq!(r["overall"]["total"], 3, "{r}");
    assert_eq!(r["overall"]["agree"], 3, "{r}");
    assert_eq!(r["per_code"]["161001"]["agree"], 1);
    let skipped = r["skipped"].as_array().expect("skipped");
    assert_eq!(skipped.len(), 1, "{r}");
    assert_eq!(skipped[0]["kind"], "unreadable");
    assert_eq!(skipped[0]["at"], "test_pool.cpp:36");

    let bad = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(root)
        .args(["conform", "--docs", "specs", "--tests", "/no/such/dir"])
        .output()
        .expect("run aclgen");
    assert_eq!(bad.status.code(), Some(2));
}

/// `conform --examples`: the seed docs' own example programs are calls their validators accept,
/// each named by the doc's file:line; with neither `--tests` nor `--examples` it is a usage error.
#[test]
fn conform_checks_the_docs_own_examples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r = conform_json(&["--examples"]);
    let cases = r["cases"].as_array().expect("cases");
    assert!(cases.len() >= 2, "{r}");
    for c in cases {
        assert_eq!(c["expected"], 0, "{c}");
        assert_eq!(c["agree"], true, "a seed's own example is rejected: {c}");
        assert!(
            c["at"]
                .as_str()
                .is_some_and(|a| a.starts_with("specs/docs/")),
            "{c}"
        );
    }
    assert_eq!(r["skipped"].as_array().map(Vec::len), Some(0), "{r}");

    let neither = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(root)
        .args(["conform", "--docs", "specs"])
        .output()
        .expect("run aclgen");
    assert_eq!(neither.status.code(), Some(2));
}

/// `aclgen conform --docs specs --format json` with `extra`, run in the repo: its report, after
/// checking it exits 0.
fn conform_json(extra: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["conform", "--docs", "specs", "--format", "json"])
        .args(extra)
        .output()
        .expect("run aclgen");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

/// A call CANN's test expects to succeed that the doc's rules reject (gradOutput's C differs
/// from self's), as a doc contradiction would be.
const ACCEPTED_BY_CANN: &str = r#"
#include "op_api_ut_common/op_api_ut.h"
class pool_test : public testing::Test {};

TEST_F(pool_test, c_differs_but_accepted)
{
    auto gradOutput = TensorDesc({2, 5, 1, 1, 1}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto self = TensorDesc({2, 3, 4, 4, 4}, ACL_FLOAT, ACL_FORMAT_NCDHW);
    auto ut = OP_API_UT(aclnnAdaptiveAvgPool3dBackward, INPUT(gradOutput, self), OUTPUT(self));
    uint64_t workspaceSize = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&workspaceSize), ACLNN_SUCCESS);
}
"#;

/// `conform --contradictions`: a false rejection the reviewed list names is marked with its
/// note; one it does not name, or an entry that matches nothing, makes conform exit 1.
#[test]
fn a_reviewed_list_of_contradictions_names_every_false_rejection() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("test_pool.cpp"), ACCEPTED_BY_CANN).expect("write tests");
    let tests = dir.path().join("test_pool.cpp");
    let plain = conform_json(&["--tests", tests.to_str().expect("utf-8")]);
    let fr = &plain["cases"][0];
    assert_eq!(
        (fr["expected"].as_u64(), fr["agree"].as_bool()),
        (Some(0), Some(false)),
        "{plain}"
    );
    let doc = fr["why"]
        .as_str()
        .and_then(|w| w.split(": ").next())
        .and_then(|d| d.rsplit('/').next())
        .expect("doc line")
        .to_string();
    // The call is named by its file (without the line) and test.
    let at = fr["at"].as_str().expect("at");
    let file = at.rsplit_once(':').map_or(at, |(f, _)| f);
    let entry = format!(
        "- file: \"{file}\"\n  test: c_differs_but_accepted\n  product: {}\n  doc: \"{doc}\"\n  \
         note: the doc ties C, CANN does not\n",
        fr["product"].as_str().expect("product")
    );
    let run = |list: &str| {
        let path = dir.path().join("list.yaml");
        std::fs::write(&path, list).expect("write list");
        Command::new(env!("CARGO_BIN_EXE_aclgen"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["conform", "--docs", "specs", "--format", "json", "--tests"])
            .arg(&tests)
            .arg("--contradictions")
            .arg(&path)
            .output()
            .expect("run aclgen")
    };
    let reviewed = run(&entry);
    assert_eq!(
        reviewed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&reviewed.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&reviewed.stdout).expect("json");
    assert_eq!(
        r["cases"][0]["contradiction"],
        "the doc ties C, CANN does not"
    );
    assert_eq!(r["contradictions"]["reviewed"], 1);

    // --suggest-overlays writes the overlay that settles it, with the evidence; it leaves a file
    // it did not write alone (exit 1, nothing written) and needs --contradictions (exit 2).
    let suggested = dir.path().join("suggested");
    let suggest = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_aclgen"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["conform", "--docs", "specs", "--tests"])
            .arg(&tests)
            .args(extra)
            .arg("--suggest-overlays")
            .arg(&suggested)
            .output()
            .expect("run aclgen")
    };
    let list = dir.path().join("list.yaml");
    let list = list.to_str().expect("utf-8");
    assert_eq!(suggest(&["--contradictions", list]).status.code(), Some(0));
    let overlay = std::fs::read_to_string(suggested.join("AdaptiveAvgPool3dBackward.yaml"))
        .expect("the suggested overlay");
    assert!(overlay.contains("kind: overlay"), "{overlay}");
    assert!(overlay.contains("c_differs_but_accepted"), "{overlay}");
    assert!(
        overlay.contains("the doc ties C, CANN does not"),
        "{overlay}"
    );
    std::fs::write(
        suggested.join("AdaptiveAvgPool3dBackward.yaml"),
        "kind: overlay\n",
    )
    .expect("a team's own file");
    let refused = suggest(&["--contradictions", list]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not written by conform"));
    assert_eq!(
        std::fs::read_to_string(suggested.join("AdaptiveAvgPool3dBackward.yaml")).unwrap(),
        "kind: overlay\n"
    );
    assert_eq!(suggest(&[]).status.code(), Some(2));

    let unlisted = run("[]\n");
    assert_eq!(unlisted.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&unlisted.stderr).contains("1 false rejections"));

    let stale = format!("{entry}{}", entry.replace("c_differs_but_accepted", "gone"));
    assert_eq!(run(&stale).status.code(), Some(1));

    let broken = run("- test: x\n  nope: 1\n");
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("list.yaml:"));
}

/// The same call as data (`conform --calls`, the form of `ut-calls.jsonl`): checked alike, named
/// by (file, test), and held to the same reviewed list; a line that is no call is a usage error
/// naming its line.
#[test]
fn calls_as_data_are_checked_and_named_by_file_and_test() {
    let dir = tempfile::tempdir().expect("tempdir");
    let calls = dir.path().join("ut-calls.jsonl");
    let call = |test: &str, c: i64, expect: u32| {
        format!(
            r#"{{"file": "pool_tests_ut_op_api_test_pool.cpp", "test": "{test}", "api": "aclnnAdaptiveAvgPool3dBackward", "product": "ascend910b", "args": {{"gradOutput": {{"shape": [2, {c}, 1, 1, 1], "dtype": "FLOAT32", "format": "NCDHW"}}, "self": {{"shape": [2, 3, 4, 4, 4], "dtype": "FLOAT32", "format": "NCDHW", "storage_shape": [2, 3, 4, 4, 4], "offset": 0}}, "gradInput": {{"shape": [2, 3, 4, 4, 4], "dtype": "FLOAT32", "format": "NCDHW"}}}}, "expect": {expect}, "expect_ne": false}}"#
        )
    };
    let text = [
        call("c_same", 3, 0),
        call("c_differs_but_accepted", 5, 0),
        call("c_differs_rejected", 5, 161002),
        call("null_grad", 3, 161001).replace(
            r#""gradOutput": {"shape": [2, 3, 1, 1, 1], "dtype": "FLOAT32", "format": "NCDHW"}"#,
            r#""gradOutput": null"#,
        ),
    ]
    .join("\n");
    std::fs::write(&calls, text).expect("write calls");
    let r = conform_json(&["--calls", calls.to_str().expect("utf-8")]);
    assert_eq!(r["overall"]["total"], 4, "{r}");
    assert_eq!(r["overall"]["agree"], 3, "{r}");
    assert_eq!(r["false_rejections"]["total"], 2);
    let fr = &r["cases"][1];
    assert_eq!(fr["test"], "c_differs_but_accepted");
    assert_eq!(fr["at"], "pool_tests_ut_op_api_test_pool.cpp");
    assert_eq!(r["cases"][3]["got"], 161001);

    std::fs::write(&calls, "{\"file\": 1}\n").expect("write calls");
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["conform", "--docs", "specs", "--calls"])
        .arg(&calls)
        .output()
        .expect("run aclgen");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ut-calls.jsonl:1: not a call"));
}
