//! `aclgen validate --op OP --call CALL.json`: one first-phase call against an op's rules.

use super::{Failure, Outcome};
use crate::ir::{OpIr, Severity};
use crate::rules::{parse_call, result_json, CallError};
use serde_json::Value;
use std::path::Path;

pub fn run(
    op: &str,
    call: &Path,
    case: Option<&str>,
    spec: Option<&Path>,
    specs: &Path,
) -> Outcome {
    let ir = load_op(op, spec, specs)?;
    let bytes = std::fs::read(call)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", call.display())))?;
    let value: Value = serde_json::from_slice(&bytes)
        .map_err(|e| Failure::usage(format!("{}: invalid JSON: {e}", call.display())))?;
    let value =
        pick_case(value, case).map_err(|e| Failure::usage(format!("{}: {e}", call.display())))?;
    let call = parse_call(&ir, &value)
        .map_err(|e: CallError| Failure::usage(format!("{}: {e}", call.display())))?;
    println!("{}", result_json(&crate::rules::validate_call(&ir, &call)));
    Ok(())
}

/// The call to check: the file itself, or with `--case` the named case's call from a generated
/// case file (`{"cases": [{"case", "call", ...}]}`).
fn pick_case(value: Value, case: Option<&str>) -> Result<Value, CallError> {
    let cases = value.get("cases").and_then(Value::as_array);
    match (cases, case) {
        (None, None) => Ok(value),
        (None, Some(name)) => Err(CallError(format!(
            "--case {name} given, but this is a single call, not a case file"
        ))),
        (Some(cases), wanted) => {
            let names: Vec<&str> = cases
                .iter()
                .filter_map(|c| c.get("case").and_then(Value::as_str))
                .collect();
            let Some(wanted) = wanted else {
                return Err(CallError(format!(
                    "a case file with {} cases; pick one with --case (e.g. {})",
                    names.len(),
                    names.first().copied().unwrap_or("NAME")
                )));
            };
            cases
                .iter()
                .find(|c| c.get("case").and_then(Value::as_str) == Some(wanted))
                .and_then(|c| c.get("call").cloned())
                .ok_or_else(|| {
                    CallError(format!(
                        "no case `{wanted}`; the file has: {}",
                        names.join(", ")
                    ))
                })
        }
    }
}

/// The op from `--spec` (one doc or YAML) or from the project's specs, with its rules.
fn load_op(op: &str, spec: Option<&Path>, specs: &Path) -> Result<OpIr, Failure> {
    let wanted = op.strip_prefix("aclnn").unwrap_or(op);
    let ops = match spec {
        Some(path) => {
            let mut ops = read_one(path)?;
            crate::pipeline::apply_rules(&mut ops);
            ops
        }
        None => crate::pipeline::load(specs)?.ops,
    };
    let names: Vec<String> = ops.iter().map(|o| o.op.clone()).collect();
    ops.into_iter().find(|o| o.op == wanted).ok_or_else(|| {
        Failure::usage(format!(
            "no op `{wanted}` in {} (ops: {})",
            spec.unwrap_or(specs).display(),
            names.join(", ")
        ))
    })
}

/// One doc or YAML spec; its errors are reported and refuse the call (exit 1).
fn read_one(path: &Path) -> Result<Vec<OpIr>, Failure> {
    let read = crate::specs::read_file(path)?;
    let errors: Vec<_> = read
        .diagnostics
        .iter()
        .chain(read.ops.iter().flat_map(|o| &o.diagnostics))
        .filter(|d| d.severity == Severity::Error)
        .cloned()
        .collect();
    if !errors.is_empty() {
        eprint!("{}", crate::diag::render(&errors));
        return Err(Failure::Input);
    }
    Ok(read.ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_case_file_needs_case_and_a_call_refuses_it() {
        let file = json!({"cases": [
            {"case": "null_self", "call": {"product": "ascend910b", "args": {}}},
            {"case": "baseline_ascend910b", "call": {"product": "ascend910b", "args": {"x": 1}}},
        ]});
        let picked = pick_case(file.clone(), Some("baseline_ascend910b")).unwrap();
        assert_eq!(picked["args"]["x"], 1);
        let err = pick_case(file.clone(), None).unwrap_err();
        assert!(
            err.0.contains("--case") && err.0.contains("2 cases"),
            "{err}"
        );
        let err = pick_case(file, Some("nope")).unwrap_err();
        assert!(err.0.contains("null_self, baseline_ascend910b"), "{err}");
        let call = json!({"product": "ascend910b", "args": {}});
        assert_eq!(pick_case(call.clone(), None).unwrap(), call);
        assert!(pick_case(call, Some("x")).is_err());
    }
}
