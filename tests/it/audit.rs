//! `aclgen audit`: the seed ops' documented conditions are mapped, tested and passing; the
//! formats and --min-coverage behave; the corpus audit runs and prints its summary.

use std::path::Path;
use std::process::Output;

use crate::common;

use common::repo;

fn aclgen(args: &[&str]) -> Output {
    common::aclgen_in(args, &repo())
}

fn json_report(specs: &str) -> serde_json::Value {
    let out = aclgen(&["audit", "--specs", specs, "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("audit --format json prints JSON")
}

#[test]
fn seed_ops_are_mapped_tested_and_passing() {
    let report = json_report("specs");
    let summary = &report["summary"];
    let conditions = summary["conditions"].as_u64().unwrap();
    let mapped = summary["mapped"].as_u64().unwrap();
    println!("seed ops: {summary}");
    assert!(conditions >= 25, "{summary}");
    assert!(
        mapped * 100 >= conditions * 90,
        "below 90% mapped: {summary}"
    );
    // A team may keep its own docs in specs/ beside the seeds: only the seed ops are held here.
    let ops: Vec<&serde_json::Value> = report["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|op| crate::common::SEED_OPS.iter().any(|s| op["op"] == *s))
        .collect();
    assert_eq!(ops.len(), 4);
    for op in ops {
        for c in op["conditions"].as_array().unwrap() {
            let rule = c["rule"].as_str().unwrap();
            if rule != "missing" && !rule.starts_with("manual") {
                assert_eq!(c["tested"], true, "{} untested: {c}", op["op"]);
                assert_eq!(c["cases_pass"], true, "{} failing: {c}", op["op"]);
                // Passing needs something independent: the doc's example where it has one.
                assert_eq!(
                    c["passing"],
                    c.get("verified_by").is_some(),
                    "{}: {c}",
                    op["op"]
                );
                assert!(c.get("rejects_example").is_none(), "{}: {c}", op["op"]);
            } else {
                assert!(
                    rule.starts_with("manual: "),
                    "a condition with no rule and no reason: {c}"
                );
            }
        }
    }
}

#[test]
fn min_coverage_decides_the_exit_code() {
    let report = json_report("specs");
    let s = &report["summary"];
    let coverage = 100.0 * s["passing"].as_f64().unwrap() / s["conditions"].as_f64().unwrap();
    let below = format!("{}", (coverage - 1.0).floor());
    let above = format!("{}", (coverage + 1.0).ceil());
    assert_eq!(
        aclgen(&["audit", "--min-coverage", &below]).status.code(),
        Some(0)
    );
    let out = aclgen(&["audit", "--min-coverage", &above]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("below --min-coverage"));
}

#[test]
fn table_and_markdown_render_every_op() {
    let table = String::from_utf8(aclgen(&["audit"]).stdout).unwrap();
    let markdown = String::from_utf8(aclgen(&["audit", "--format", "markdown"]).stdout).unwrap();
    for op in [
        "AdaptiveAvgPool3dBackward",
        "AdaptiveMaxPool3dBackward",
        "AdaptiveAvgPool2dBackward",
        "AvgPool2dBackward",
    ] {
        assert!(table.contains(op), "{table}");
        assert!(markdown.contains(&format!("| {op} |")), "{markdown}");
    }
    assert!(table.contains("total:"), "{table}");
    assert!(markdown.starts_with("## aclgen audit"), "{markdown}");
}

#[test]
fn audit_of_the_whole_corpus() {
    let docs = repo().join("../shared/corpus/ops-nn/docs");
    if !docs.is_dir() {
        println!("../shared/corpus is absent: corpus audit skipped");
        return;
    }
    let report = json_report(docs.to_str().unwrap());
    let s = &report["summary"];
    println!(
        "corpus audit (ops-nn): {} ops, {s}",
        report["ops"].as_array().unwrap().len()
    );
    println!("corpus audit by code: {}", report["by_code"]);
    // 526 docs describe 560 ops under 496 distinct names: docs of one op are reconciled.
    assert!(report["ops"].as_array().unwrap().len() >= 490, "{s}");
    assert!(s["conditions"].as_u64().unwrap() >= 2000, "{s}");
    // Whatever is tested must pass its cases (a failing case is a bug in rules or cases, not in
    // the doc): it is then passing (verified by the doc's example) or unverified. gen demotes a
    // rule that rejects the doc's example, so none is left.
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(n("tested"), n("passing") + n("unverified"), "{s}");
    assert_eq!(n("rejects_example"), 0, "{s}");
}

#[test]
fn a_missing_specs_folder_is_a_usage_error() {
    let out = aclgen(&[
        "audit",
        "--specs",
        Path::new("no/such/dir").to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// 0 of 0 conditions is no coverage at all: an empty folder or one of binary files fails.
#[test]
fn an_audit_with_no_documented_condition_fails() {
    let empty = tempfile::tempdir().unwrap();
    let binary = tempfile::tempdir().unwrap();
    std::fs::write(binary.path().join("a.bin"), [0u8, 1, 2, 0, 255, 0]).unwrap();
    for dir in [empty.path(), binary.path()] {
        let out = aclgen(&[
            "audit",
            "--specs",
            dir.to_str().unwrap(),
            "--min-coverage",
            "90",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("no documented error condition"), "{stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("100.0%"));
    }
}

/// Every condition that is not tested says why, in every format. Seed 003 without its overlay
/// has one ("传入的divisorOverride不在支持范围内" names no bound), where the project's specs have
/// none.
#[test]
fn audit_says_why_a_condition_has_no_test() {
    let specs = tempfile::tempdir().unwrap();
    let docs = specs.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    let seed = "003-aclnnAvgPool2dBackward.txt";
    std::fs::copy(repo().join("specs/docs").join(seed), docs.join(seed)).unwrap();
    let specs = specs.path().to_str().unwrap();
    let report = json_report(specs);
    let mut untested = 0;
    for op in report["ops"].as_array().unwrap() {
        for c in op["conditions"].as_array().unwrap() {
            if c["tested"] == false {
                untested += 1;
                assert!(c["untested_reason"].is_string(), "no reason: {c}");
            } else {
                assert!(c["untested_reason"].is_null(), "{c}");
            }
        }
    }
    assert!(untested > 0, "seed 003 alone has a manual condition");
    let table = String::from_utf8(aclgen(&["audit", "--specs", specs]).stdout).unwrap();
    assert!(table.matches("not tested: ").count() >= untested, "{table}");
    let markdown = aclgen(&["audit", "--specs", specs, "--format", "markdown"]).stdout;
    let markdown = String::from_utf8(markdown).unwrap();
    assert!(markdown.contains("❌ checked by hand"), "{markdown}");
}

/// `audit --calls`: CANN's unit-test calls as data are the oracle of each condition; on the seed
/// ops, ops-nn's calls of their APIs exercise the documented conditions and agree with them but
/// for two doc contradictions: CANN accepts an NHWC gradOutput of AdaptiveAvgPool2dBackward
/// (seed 002 lists NCHW and NCL) and a DOUBLE one of AdaptiveAvgPool3dBackward (seed 000 lists
/// BFLOAT16, FLOAT16 and FLOAT32).
#[test]
fn canns_calls_as_data_verify_the_seed_ops_conditions() {
    let calls = repo().join("../shared/corpus/ops-nn/ut-calls.jsonl");
    if !calls.is_file() {
        println!("skipped: ../shared/corpus/ops-nn/ut-calls.jsonl is absent");
        return;
    }
    let out = aclgen(&[
        "audit",
        "--format",
        "json",
        "--calls",
        calls.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let verdicts: Vec<&serde_json::Value> = report["ops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|op| op["conditions"].as_array().unwrap())
        .filter_map(|c| c.get("ut"))
        .collect();
    let exercised = verdicts
        .iter()
        .filter(|v| v["fired"].as_u64() > Some(0))
        .count();
    let disagree: Vec<String> = report["ops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|op| {
            op["conditions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["ut"]["fired"] != c["ut"]["agreed"])
                .map(move |c| format!("{} {}", op["op"].as_str().unwrap(), c["ut"]))
        })
        .collect();
    println!(
        "audit --calls on the seed ops: {exercised} conditions exercised, {} disagree",
        disagree.len()
    );
    assert!(exercised >= 5, "only {exercised} conditions exercised");
    assert_eq!(
        disagree,
        [
            r#"AdaptiveAvgPool2dBackward {"agreed":5,"fired":6}"#,
            r#"AdaptiveAvgPool3dBackward {"agreed":3,"fired":5}"#
        ]
    );
    // The flags name one oracle each.
    let both = aclgen(&["audit", "--calls", "x.jsonl", "--tests", "y"]);
    assert_eq!(both.status.code(), Some(2));
}
