//! `aclgen validate`: documented statuses for hand-picked calls, and usage errors (exit 2) that
//! name the bad field of CALL.json.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::repo;

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/rules/AvgPool2dBackward.yaml")
}

/// Runs `aclgen validate` with CALL.json written to a temp file; extra args after.
fn validate(op: &str, call: &str, extra: &[&str]) -> Output {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("call.json");
    std::fs::write(&path, call).expect("write call");
    Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .current_dir(repo())
        .args(["validate", "--op", op, "--call"])
        .arg(&path)
        .args(extra)
        .output()
        .expect("run aclgen")
}

fn status_of(op: &str, spec: &Path, call: &Value) -> Value {
    let out = validate(
        op,
        &call.to_string(),
        &["--spec", spec.to_str().expect("utf-8 path")],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("validate prints JSON")
}

fn t(shape: &[i64], dtype: &str) -> Value {
    json!({"shape": shape, "dtype": dtype, "format": "NCHW"})
}

/// The example call of the AvgPool2dBackward doc, in `dtype`, on `product`.
fn pool_call(product: &str, dtype: &str) -> Value {
    json!({"product": product, "args": {
        "gradOutput": t(&[1, 16, 1, 1], dtype), "self": t(&[1, 16, 4, 4], dtype),
        "kernelSize": [4, 4], "stride": [1, 1], "padding": [0, 0],
        "ceilMode": false, "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1,
        "gradInput": t(&[1, 16, 4, 4], dtype)}})
}

fn with_arg(mut call: Value, name: &str, v: Value) -> Value {
    call["args"][name] = v;
    call
}

#[test]
fn doc_example_call_passes() {
    let r = status_of(
        "AvgPool2dBackward",
        &fixture(),
        &pool_call("ascend910b", "FLOAT32"),
    );
    assert_eq!(r["status"], 0, "{r}");
    assert_eq!(r["name"], "ACLNN_SUCCESS");
}

#[test]
fn bfloat16_depends_on_product() {
    let on_910b = status_of(
        "AvgPool2dBackward",
        &fixture(),
        &pool_call("ascend910b", "BFLOAT16"),
    );
    assert_eq!(on_910b["status"], 0, "{on_910b}");
    let on_910 = status_of(
        "AvgPool2dBackward",
        &fixture(),
        &pool_call("ascend910", "BFLOAT16"),
    );
    assert_eq!(on_910["status"], 161002, "{on_910}");
    assert_eq!(
        on_910["condition"],
        "传入的gradOutput或gradInput的数据类型/数据格式不在支持的范围之内。"
    );
    assert!(on_910["message"]
        .as_str()
        .unwrap_or("")
        .contains("BFLOAT16"));
}

#[test]
fn null_pointer_and_absent_argument_are_161001() {
    let call = with_arg(pool_call("ascend910b", "FLOAT32"), "padding", Value::Null);
    let r = status_of("AvgPool2dBackward", &fixture(), &call);
    assert_eq!(r["status"], 161001, "{r}");
    assert_eq!(r["name"], "ACLNN_ERR_PARAM_NULLPTR");
    let mut call = pool_call("ascend910b", "FLOAT32");
    call["args"].as_object_mut().map(|a| a.remove("gradInput"));
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call)["status"],
        161001
    );
    // stride is not in the doc's null list: null stride passes.
    let call = with_arg(pool_call("ascend910b", "FLOAT32"), "stride", Value::Null);
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call)["status"],
        0
    );
}

#[test]
fn attribute_rules_reject_with_their_condition() {
    let cases = [
        ("cubeMathType", json!(4), "传入的cubeMathType不在支持范围内。"),
        ("kernelSize", json!([4, 4, 4]), "传入的gradOutput、self、kernelSize、stride或gradInput维度不在支持范围内。"),
        ("padding", json!([3, 0]), "属性padding超过kernelSize对应位置的1/2，例如paddingH=2，kernelSizeH=2，paddingH>kernelSizeH*1/2。"),
    ];
    for (name, value, condition) in cases {
        let r = status_of(
            "AvgPool2dBackward",
            &fixture(),
            &with_arg(pool_call("ascend910b", "FLOAT32"), name, value),
        );
        assert_eq!(r["status"], 161002, "{name}: {r}");
        assert_eq!(r["condition"], condition, "{name}");
    }
}

#[test]
fn divisor_override_range_holds_on_some_products_only() {
    let call = |product| with_arg(pool_call(product, "FLOAT32"), "divisorOverride", json!(300));
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call("ascend910"))["status"],
        161002
    );
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call("ascend910b"))["status"],
        0
    );
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call("ascend950"))["status"],
        0
    );
}

#[test]
fn an_unsupported_product_is_rejected_only_where_a_row_says_so() {
    // The fixture marks Atlas 200I/500 A2 (ascend310b) unsupported, but no error row says the
    // call fails there; CANN's op_api has no product check of its own.
    let call = pool_call("ascend310b", "FLOAT32");
    assert_eq!(
        status_of("AvgPool2dBackward", &fixture(), &call)["status"],
        0
    );
    // A row that does say so is a rule.
    let dir = tempfile::tempdir().expect("tempdir");
    let spec = dir.path().join("AvgPool2dBackward.yaml");
    let yaml = std::fs::read_to_string(fixture()).expect("fixture");
    let row = "  - {code: 161002, name: ACLNN_ERR_PARAM_INVALID, condition: 当前硬件平台不支持该算子。}\n";
    let yaml = yaml.replacen("errors:\n", &format!("errors:\n{row}"), 1);
    std::fs::write(&spec, yaml).expect("write spec");
    let r = status_of("AvgPool2dBackward", &spec, &call);
    assert_eq!(r["status"], 161002, "{r}");
    assert!(
        r["message"]
            .as_str()
            .unwrap_or("")
            .contains("does not support product ascend310b"),
        "{r}"
    );
}

#[test]
fn malformed_calls_are_usage_errors_naming_the_field() {
    let spec = fixture();
    let spec = spec.to_str().expect("utf-8");
    let cases = [
        ("{not json", "invalid JSON"),
        (r#"{"product": "ascend910b"}"#, "`args`"),
        (r#"{"product": "ascend9", "args": {}}"#, "`product`"),
        (
            r#"{"product": "ascend910b", "args": {"bogus": 1}}"#,
            "`args.bogus`: unknown argument",
        ),
        (
            r#"{"product": "ascend910b", "args": {"self": {"shape": [1, "x"], "dtype": "FLOAT32"}}}"#,
            "`args.self.shape[1]`",
        ),
        (
            r#"{"product": "ascend910b", "args": {"self": {"shape": [1], "dtype": "FLOAT32", "fmt": "ND"}}}"#,
            "`args.self.fmt`",
        ),
        (
            r#"{"product": "ascend910b", "args": {"ceilMode": "yes"}}"#,
            "`args.ceilMode`",
        ),
        (
            r#"{"product": "ascend910b", "args": {"kernelSize": [1.5]}}"#,
            "`args.kernelSize[0]`",
        ),
    ];
    for (call, expected) in cases {
        let out = validate("AvgPool2dBackward", call, &["--spec", spec]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{call}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{call}: expected {expected} in {stderr}"
        );
    }
}

#[test]
fn unknown_op_is_a_usage_error() {
    let out = validate(
        "NoSuchOp",
        &pool_call("ascend910b", "FLOAT32").to_string(),
        &["--spec", fixture().to_str().expect("utf-8")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("AvgPool2dBackward"));
}
