//! The seed ops: every documented condition of seeds 000, 001, 003 and 004 is a rule or manual
//! with a reason (at least 90% rules), and hand-picked calls through `aclgen validate --specs
//! specs` return the documented status, including the product-dependent ones.

use aclgen::ir::{Mapping, OpIr};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

use crate::common::repo;

fn read_seed(prefix: &str) -> OpIr {
    let dir = repo().join("specs/docs");
    let path = std::fs::read_dir(&dir)
        .expect("specs/docs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .expect("seed doc");
    let bytes = std::fs::read(&path).expect("read seed");
    let mut ops = aclgen::read::read_doc(&path.display().to_string(), &bytes).ops;
    assert_eq!(ops.len(), 1, "{}", path.display());
    let mut op = ops.remove(0);
    aclgen::rules::apply(&mut op);
    op
}

#[test]
fn seed_conditions_are_rules_or_manual_with_reason() {
    let mut mapped = 0;
    let mut total = 0;
    for seed in ["000", "001", "003", "004"] {
        let op = read_seed(seed);
        assert!(!op.errors.is_empty(), "seed {seed} has an error table");
        for e in &op.errors {
            total += 1;
            match &e.mapping {
                Some(Mapping::Rules { rules, .. }) => {
                    assert!(!rules.is_empty(), "{seed}: {}", e.condition);
                    assert!(rules
                        .iter()
                        .all(|r| r.code == e.code && r.condition == e.condition));
                    mapped += 1;
                }
                Some(Mapping::Manual { reason, .. }) => {
                    assert!(!reason.is_empty(), "{seed}: {}", e.condition);
                    println!("seed {seed}: manual: {} — {reason}", e.condition);
                }
                None => panic!("seed {seed}: unmapped condition {}", e.condition),
            }
        }
    }
    let share = 100.0 * mapped as f64 / total as f64;
    println!(
        "seeds 000/001/003/004: {mapped} of {total} documented conditions are rules ({share:.1}%)"
    );
    assert_eq!(total, 30, "8 + 6 + 8 + 8 documented conditions");
    assert!(share >= 90.0, "{share:.1}%");
}

#[test]
fn seed_002_gets_inferred_rules() {
    let op = read_seed("002");
    if op.errors.is_empty() {
        assert!(op.inferred_rules.len() > 5, "{:?}", op.inferred_rules);
    }
    assert!(op.inferred_rules.iter().all(|r| r.inferred));
    // No product check is inferred from the support list (CANN's op_api has none): a product
    // is rejected only where an error row says so.
    assert!(
        !op.inferred_rules
            .iter()
            .any(|r| matches!(r.rule, aclnn_runtime::Rule::ProductSupported { .. })),
        "{:?}",
        op.inferred_rules
    );
}

/// `aclgen validate --specs specs` on one call; returns the printed JSON.
fn validate(op: &str, call: &Value) -> Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("call.json");
    std::fs::write(&path, call.to_string()).expect("write call");
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(repo())
        .args(["validate", "--op", op, "--specs", "specs", "--call"])
        .arg(&path)
        .output()
        .expect("run aclgen");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn t(shape: &[i64], dtype: &str, format: &str) -> Value {
    json!({"shape": shape, "dtype": dtype, "format": format})
}

fn avgpool2d(product: &str, dtype: &str) -> Value {
    json!({"product": product, "args": {
        "gradOutput": t(&[1, 16, 1, 1], dtype, "NCHW"), "self": t(&[1, 16, 4, 4], dtype, "NCHW"),
        "kernelSize": [4, 4], "stride": [1, 1], "padding": [0, 0], "ceilMode": false,
        "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1,
        "gradInput": t(&[1, 16, 4, 4], dtype, "NCHW")}})
}

fn maxpool3d(product: &str, indices: &str) -> Value {
    json!({"product": product, "args": {
        "gradOutput": t(&[1, 2, 1, 1, 1], "FLOAT32", "ND"), "self": t(&[1, 2, 4, 4, 4], "FLOAT32", "ND"),
        "indices": t(&[1, 2, 1, 1, 1], indices, "ND"), "gradInput": t(&[1, 2, 4, 4, 4], "FLOAT32", "ND")}})
}

fn avgpool3d(grad_output: &[i64]) -> Value {
    json!({"product": "ascend910b", "args": {
        "gradOutput": t(grad_output, "FLOAT16", "NCDHW"), "self": t(&[2, 3, 4, 4, 4], "FLOAT16", "NCDHW"),
        "out": t(&[2, 3, 4, 4, 4], "FLOAT16", "NCDHW")}})
}

#[test]
fn avgpool2d_backward_bfloat16_depends_on_product() {
    let r = validate("AvgPool2dBackward", &avgpool2d("ascend910b", "BFLOAT16"));
    assert_eq!(r["status"], 0, "{r}");
    let r = validate("AvgPool2dBackward", &avgpool2d("ascend910", "BFLOAT16"));
    assert_eq!(r["status"], 161002, "{r}");
    assert!(
        r["condition"].as_str().unwrap_or("").contains("数据类型"),
        "{r}"
    );
    let r = validate("AvgPool2dBackward", &avgpool2d("ascend910", "FLOAT16"));
    assert_eq!(r["status"], 0, "{r}");
}

#[test]
fn adaptive_max_pool3d_backward_int64_indices_are_rejected() {
    let r = validate(
        "AdaptiveMaxPool3dBackward",
        &maxpool3d("ascend910b", "INT64"),
    );
    assert_eq!(r["status"], 161002, "{r}");
    assert!(
        r["message"].as_str().unwrap_or("").contains("indices"),
        "{r}"
    );
    let r = validate(
        "AdaptiveMaxPool3dBackward",
        &maxpool3d("ascend910b", "INT32"),
    );
    assert_eq!(r["status"], 0, "{r}");
    let mut big = maxpool3d("ascend910b", "INT32");
    big["args"]["self"] = t(&[1, 2, 2048, 2048, 2048], "FLOAT32", "ND");
    big["args"]["gradInput"] = big["args"]["self"].clone();
    let r = validate("AdaptiveMaxPool3dBackward", &big);
    assert_eq!(r["status"], 161002, "{r}");
    assert!(
        r["condition"].as_str().unwrap_or("").contains("max int32"),
        "{r}"
    );
}

#[test]
fn adaptive_avg_pool3d_backward_statuses() {
    assert_eq!(
        validate("AdaptiveAvgPool3dBackward", &avgpool3d(&[2, 3, 4, 1, 1]))["status"],
        0
    );
    let r = validate("AdaptiveAvgPool3dBackward", &avgpool3d(&[2, 1, 4, 4, 4]));
    assert_eq!(r["status"], 161002, "NC must match: {r}");
    let r = validate("AdaptiveAvgPool3dBackward", &avgpool3d(&[2, 3, 4, 4]));
    assert_eq!(r["status"], 161002, "{r}");
    let mut null_out = avgpool3d(&[2, 3, 4, 4, 4]);
    null_out["args"]["out"] = Value::Null;
    assert_eq!(
        validate("AdaptiveAvgPool3dBackward", &null_out)["status"],
        161001
    );
    // No product is rejected for the support list alone (no error row of seed 000 says so, and
    // CANN's op_api has no product check): neither the unnamed Atlas 训练系列产品 nor 200I/500
    // A2, which is marked ×.
    for product in ["ascend910", "ascend310b"] {
        let mut call = avgpool3d(&[2, 3, 4, 4, 4]);
        call["product"] = json!(product);
        assert_eq!(
            validate("AdaptiveAvgPool3dBackward", &call)["status"],
            0,
            "{product}"
        );
    }
}

#[test]
fn validate_reads_a_single_doc_with_spec() {
    let doc = Path::new("specs/docs/001-aclnnAdaptiveMaxPool3dBackward.txt");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("call.json");
    std::fs::write(&path, maxpool3d("ascend910b", "INT64").to_string()).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(repo())
        .args(["validate", "--op", "AdaptiveMaxPool3dBackward", "--spec"])
        .arg(doc)
        .arg("--call")
        .arg(&path)
        .output()
        .expect("run aclgen");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(r["status"], 161002, "{r}");
}
