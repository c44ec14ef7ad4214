//! `conform --calls FILE.jsonl`: CANN's op_api unit-test calls as data, one JSON object a line,
//! as `../shared/corpus/*/ut-calls.jsonl` holds them:
//!
//! ```json
//! {"file": "…test_aclnn_celu.cpp", "test": "l2_celu_normal", "api": "aclnnCelu",
//!  "product": "ascend910b", "args": {"self": {"shape": [2], "dtype": "FLOAT32", "format": "ND"},
//!  "alpha": {"dtype": "FLOAT32", "value": 1.0}, "dtype": {"__dtype": "INT8"}, "out": null},
//!  "expect": 0, "expect_ne": false}
//! ```
//!
//! A call is named by its (file, test). Its arguments are bound to the doc's parameters by name,
//! or, where the test names them otherwise (a doc that renamed a parameter), by position in the
//! doc's prototype; the product is the SoC the test runs on.

use super::{find_op, judge, ConformError, Report, SkipKind, SkipReason, CODES};
use crate::ir::OpIr;
use crate::rules::{checks_values_of, parse_arg, program::call_params};
use aclnn_runtime::Arg;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// One call of a unit test, with the status CANN's implementation returns.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallRecord {
    /// The test file (an op folder's path with `/` as `_`, or a path).
    pub file: String,
    pub test: String,
    /// The aclnn function, without `GetWorkspaceSize`.
    pub api: String,
    /// The product id of the SoC the test sets.
    pub product: String,
    /// Arguments in the call's order.
    pub args: OrderedArgs,
    pub expect: u32,
    /// The test only asserts the status is not `expect`.
    #[serde(default)]
    pub expect_ne: bool,
}

/// A JSON object's members in their written order (serde_json's map sorts them).
#[derive(Debug, Clone, Default)]
pub struct OrderedArgs(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for OrderedArgs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = OrderedArgs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of arguments")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<OrderedArgs, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = m.next_entry::<String, Value>()? {
                    out.push(pair);
                }
                Ok(OrderedArgs(out))
            }
        }
        d.deserialize_map(Members)
    }
}

impl CallRecord {
    /// How reports name the call: `file test`.
    pub fn name(&self) -> String {
        format!("{} {}", self.file, self.test)
    }
}

/// Reads a calls file; a line that is no call is an error naming `file:line`.
pub fn read_calls(path: &Path) -> Result<Vec<CallRecord>, ConformError> {
    let text = std::fs::read_to_string(path).map_err(|e| ConformError::io(path, e))?;
    let mut calls = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let call = serde_json::from_str(line).map_err(|e| ConformError::List {
            path: path.to_path_buf(),
            line: i + 1,
            message: format!("not a call: {e}"),
        })?;
        calls.push(call);
    }
    Ok(calls)
}

/// Checks every call of the file against `ops`.
pub fn run_calls(path: &Path, ops: &[OpIr]) -> Result<Report, ConformError> {
    let calls = read_calls(path)?;
    let mut report = Report {
        files: calls
            .iter()
            .map(|c| c.file.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        tests: calls.len(),
        ..Report::default()
    };
    for call in &calls {
        report.add(call.file.clone(), check_record(call, ops));
    }
    report.skipped.sort();
    Ok(report)
}

fn check_record(call: &CallRecord, ops: &[OpIr]) -> Result<super::CheckedCall, SkipReason> {
    let skip = |kind, reason| SkipReason {
        kind,
        test: call.test.clone(),
        reason,
    };
    if call.expect_ne {
        return Err(skip(
            SkipKind::Status,
            format!(
                "expects a status other than {}: no single expected status",
                call.expect
            ),
        ));
    }
    if !CODES.contains(&call.expect) {
        return Err(skip(
            SkipKind::Status,
            format!(
                "expects {}, not a first-phase parameter status",
                call.expect
            ),
        ));
    }
    let op = find_op(ops, &call.api, &call.file).ok_or_else(|| {
        skip(
            SkipKind::Unmapped,
            format!("no doc has the prototype {}GetWorkspaceSize", call.api),
        )
    })?;
    let product = aclnn_runtime::Product::parse(&call.product).ok_or_else(|| {
        skip(
            SkipKind::Unmapped,
            format!("unknown product {}", call.product),
        )
    })?;
    let (args, opaque) = bind_args(op, &call.args).map_err(|r| skip(SkipKind::Unmapped, r))?;
    Ok(judge(
        op,
        product.id(),
        args,
        &opaque,
        call.expect,
        &call.test,
    ))
}

/// The record's arguments as the doc's parameters: by name where every name is the doc's, else
/// by position in the doc's prototype. Returns the arguments and the parameters passed a value
/// `validate` does not check.
fn bind_args(
    op: &OpIr,
    args: &OrderedArgs,
) -> Result<(BTreeMap<String, Arg>, Vec<String>), String> {
    let f = op
        .workspace_fn()
        .ok_or_else(|| format!("{} has no first-phase prototype", op.op))?;
    let params = call_params(f);
    let by_name = args.0.iter().all(|(n, _)| params.contains(&n.as_str()));
    if !by_name && args.0.len() != params.len() {
        return Err(format!(
            "the test passes {} arguments ({}); the doc's {} has {} ({})",
            args.0.len(),
            args.0
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            f.name,
            params.len(),
            params.join(", ")
        ));
    }
    let (mut bound, mut opaque) = (BTreeMap::new(), Vec::new());
    for (i, (name, value)) in args.0.iter().enumerate() {
        let doc_name = if by_name { name.as_str() } else { params[i] };
        let Some(p) = op.params.iter().find(|p| p.name == doc_name) else {
            continue;
        };
        if !crate::rules::text::is_checkable(p) {
            continue;
        }
        if !checks_values_of(p) {
            if !value.is_null() {
                opaque.push(doc_name.to_string());
            }
            continue;
        }
        let value = as_validate_json(p, value);
        let arg = parse_arg(p, &value, &format!("args.{name}")).map_err(|e| e.0)?;
        bound.insert(doc_name.to_string(), arg);
    }
    Ok((bound, opaque))
}

/// A record's value in `validate`'s CALL.json form: an `aclDataType` argument
/// (`{"__dtype": "INT8"}`) is its name, a tensor keeps shape, dtype, format and strides (its
/// storage shape and offset are the framework's), and a number or bool passed where the C type
/// takes the other is converted as C converts it.
fn as_validate_json(p: &crate::ir::Param, v: &Value) -> Value {
    use crate::ir::ParamKind;
    match v {
        // An `aclDataType` passed for an integer parameter is its enumerator's value.
        Value::Object(o) if o.len() == 1 && p.ty.kind() == ParamKind::Int => o
            .get("__dtype")
            .and_then(Value::as_str)
            .and_then(aclnn_runtime::DType::parse)
            .and_then(|d| d.acl_value())
            .map_or_else(|| v.clone(), Value::from),
        Value::Object(o) if o.len() == 1 && o.contains_key("__dtype") => o["__dtype"].clone(),
        Value::Object(o) if o.contains_key("shape") => {
            let keep = ["shape", "dtype", "format", "strides"];
            Value::Object(
                o.iter()
                    .filter(|(k, _)| keep.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(|x| as_validate_json(p, x)).collect()),
        _ => match p.ty.kind() {
            ParamKind::Bool => v
                .as_f64()
                .map_or_else(|| v.clone(), |x| Value::Bool(x != 0.0)),
            ParamKind::Int => match v {
                Value::Bool(b) => Value::from(i64::from(*b)),
                Value::Number(n) if n.as_i64().is_none() => n
                    .as_f64()
                    .filter(|x| x.fract() == 0.0)
                    .map_or_else(|| v.clone(), |x| Value::from(x as i64)),
                _ => v.clone(),
            },
            ParamKind::Float => match v {
                Value::Bool(b) => Value::from(f64::from(u8::from(*b))),
                _ => v.clone(),
            },
            _ => v.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Param, Role};

    fn op() -> OpIr {
        let text = "# aclnnCelu\n\n```cpp\naclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor* self, \
                    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)\n```\n";
        let mut ops = crate::read::read_doc("celu.md", text.as_bytes()).ops;
        let mut op = ops.remove(0);
        op.params
            .retain(|p| !matches!(p.role, Role::WorkspaceSize | Role::Executor));
        op.params.iter_mut().for_each(|p| p.dtypes.clear());
        op
    }

    fn record(line: &str) -> CallRecord {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn arguments_bind_by_name_or_by_position() {
        let op = op();
        let named = record(
            r#"{"file": "f.cpp", "test": "t", "api": "aclnnCelu", "product": "ascend910b",
                "args": {"self": {"shape": [2], "dtype": "FLOAT32", "format": "ND", "storage_shape": [2], "offset": 0},
                         "alpha": {"dtype": "FLOAT32", "value": 1.0}, "out": null}, "expect": 0}"#,
        );
        let (args, opaque) = bind_args(&op, &named.args).unwrap();
        assert!(opaque.is_empty());
        assert!(matches!(args["self"], Arg::Tensor(_)));
        assert!(args["out"].is_null());
        // The header calls `self` `x`: bound by position.
        let renamed = record(
            r#"{"file": "f.cpp", "test": "t", "api": "aclnnCelu", "product": "ascend910b",
                "args": {"x": {"shape": [2], "dtype": "FLOAT32", "format": "ND"},
                         "alpha": {"dtype": "FLOAT32", "value": 1.0}, "y": null}, "expect": 0}"#,
        );
        let (args, _) = bind_args(&op, &renamed.args).unwrap();
        assert!(matches!(args["self"], Arg::Tensor(_)));
        assert!(args["out"].is_null());
        let short = record(
            r#"{"file": "f.cpp", "test": "t", "api": "aclnnCelu", "product": "ascend910b",
                "args": {"x": null}, "expect": 0}"#,
        );
        let err = bind_args(&op, &short.args).unwrap_err();
        assert!(err.contains("passes 1 arguments (x)"), "{err}");
    }

    #[test]
    fn dtype_arguments_and_c_conversions() {
        let p = |ty: &str| Param {
            name: "p".into(),
            role: Role::Attribute,
            ty: ty.into(),
            ..Default::default()
        };
        let dtype = serde_json::json!({"__dtype": "INT8"});
        assert_eq!(
            as_validate_json(&p("aclDataType"), &dtype),
            serde_json::json!("INT8")
        );
        // ACL_INT8 is 2.
        assert_eq!(
            as_validate_json(&p("int64_t"), &dtype),
            serde_json::json!(2)
        );
        assert_eq!(
            as_validate_json(&p("bool"), &serde_json::json!(1)),
            serde_json::json!(true)
        );
        assert_eq!(
            as_validate_json(&p("int64_t"), &serde_json::json!(2.0)),
            serde_json::json!(2)
        );
        assert_eq!(
            as_validate_json(&p("int64_t"), &serde_json::json!(true)),
            serde_json::json!(1)
        );
        assert_eq!(
            as_validate_json(&p("int64_t"), &serde_json::json!(2.5)),
            serde_json::json!(2.5)
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.jsonl");
        std::fs::write(&path, "\n{\"file\": \"f\"}\n").unwrap();
        let err = read_calls(&path).unwrap_err().to_string();
        assert!(err.contains("calls.jsonl:2: not a call"), "{err}");
    }
}
