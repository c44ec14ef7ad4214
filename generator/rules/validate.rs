//! A first-phase call as JSON (CALL.json of `aclgen validate`) → a `Call` the rules check.
//!
//! CALL.json is parsed by hand from a `serde_json::Value` so that every error names the field
//! it is about (`args.gradOutput.shape[2]`) and is checked against the op's parameter types.

use crate::ir::{CType, OpIr, Param, ParamKind, Role};
use aclnn_runtime::{status, Arg, Call, DType, Format, Product, TensorDesc};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Why a call cannot be checked: it names the field (`args.gradOutput.shape[2]: …`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CallError(pub String);

impl From<String> for CallError {
    fn from(message: String) -> Self {
        CallError(message)
    }
}

impl From<&str> for CallError {
    fn from(message: &str) -> Self {
        CallError(message.to_string())
    }
}

/// The `validate` output: status 0 with empty texts, or the error.
pub fn result_json(result: &Result<(), aclnn_runtime::AclnnError>) -> Value {
    match result {
        Ok(()) => json!({
            "status": status::SUCCESS,
            "name": status::name(status::SUCCESS),
            "condition": "",
            "message": "",
        }),
        Err(e) => json!({
            "status": e.code,
            "name": e.name,
            "condition": e.condition,
            "message": e.message,
        }),
    }
}

/// CALL.json → `Call`, checked against the op's parameters; errors name the field.
pub fn parse_call(op: &OpIr, value: &Value) -> Result<Call, CallError> {
    let obj = value.as_object().ok_or("the call must be a JSON object")?;
    if let Some(k) = obj.keys().find(|k| *k != "product" && *k != "args") {
        return Err(format!("`{k}`: unknown field (expected `product` and `args`)").into());
    }
    let product = obj
        .get("product")
        .ok_or("`product`: missing")?
        .as_str()
        .ok_or("`product`: must be a string")?;
    let product = Product::parse(product).ok_or_else(|| {
        let known: Vec<&str> = Product::ALL.iter().map(|p| p.id()).collect();
        format!(
            "`product`: unknown product `{product}` (known: {})",
            known.join(", ")
        )
    })?;
    let args_value = obj.get("args").ok_or("`args`: missing")?;
    let args_obj = args_value.as_object().ok_or("`args`: must be an object")?;
    let mut args = BTreeMap::new();
    for (name, v) in args_obj {
        let field = format!("args.{name}");
        let param = op
            .params
            .iter()
            .find(|p| p.name == *name && super::text::is_checkable(p))
            .ok_or_else(|| {
                let names: Vec<&str> = op
                    .params
                    .iter()
                    .filter(|p| super::text::is_checkable(p))
                    .map(|p| p.name.as_str())
                    .collect();
                format!(
                    "`{field}`: unknown argument (parameters of {}: {})",
                    op.op,
                    names.join(", ")
                )
            })?;
        args.insert(name.clone(), parse_arg(param, v, &field)?);
    }
    Ok(Call {
        product: product.id().to_string(),
        args,
    })
}

/// One argument of CALL.json for the parameter `p`; `field` names it in errors.
pub fn parse_arg(p: &Param, v: &Value, field: &str) -> Result<Arg, CallError> {
    if v.is_null() {
        return Ok(Arg::Null);
    }
    match p.role {
        Role::InputTensorList | Role::OutputTensorList => {
            let items = v
                .as_array()
                .ok_or(format!("`{field}`: must be an array of tensors"))?;
            let ts = items
                .iter()
                .enumerate()
                .map(|(i, t)| parse_tensor(t, &format!("{field}[{i}]")))
                .collect::<Result<_, _>>()?;
            Ok(Arg::TensorList(ts))
        }
        r if r.is_tensor() => Ok(Arg::Tensor(parse_tensor(v, field)?)),
        _ => parse_value(&p.ty, v, field),
    }
}

fn parse_tensor(v: &Value, field: &str) -> Result<TensorDesc, CallError> {
    let obj = v.as_object().ok_or(format!(
        "`{field}`: must be a tensor object {{shape, dtype, format}} or null"
    ))?;
    if let Some(k) = obj
        .keys()
        .find(|k| !["shape", "dtype", "format", "strides"].contains(&k.as_str()))
    {
        return Err(CallError(format!("`{field}.{k}`: unknown field")));
    }
    let shape = int_list(obj.get("shape"), &format!("{field}.shape"))?
        .ok_or(format!("`{field}.shape`: missing"))?;
    let dtype = enum_field(obj, "dtype", field, DType::parse, DType::ALL)?
        .ok_or(format!("`{field}.dtype`: missing"))?;
    let format =
        enum_field(obj, "format", field, Format::parse, Format::ALL)?.unwrap_or(Format::Nd);
    let strides = int_list(obj.get("strides"), &format!("{field}.strides"))?;
    Ok(TensorDesc {
        shape,
        dtype,
        format,
        strides,
    })
}

fn enum_field<T: std::fmt::Display>(
    obj: &Map<String, Value>,
    key: &str,
    field: &str,
    parse: fn(&str) -> Option<T>,
    all: &[T],
) -> Result<Option<T>, CallError> {
    let Some(v) = obj.get(key) else {
        return Ok(None);
    };
    let s = v
        .as_str()
        .ok_or(format!("`{field}.{key}`: must be a string"))?;
    parse(s).map(Some).ok_or_else(|| {
        let known: Vec<String> = all.iter().map(ToString::to_string).collect();
        CallError::from(format!(
            "`{field}.{key}`: unknown value `{s}` (known: {})",
            known.join(", ")
        ))
    })
}

fn int_list(v: Option<&Value>, field: &str) -> Result<Option<Vec<i64>>, CallError> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let items = v
        .as_array()
        .ok_or(format!("`{field}`: must be an array of integers"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_i64()
                .ok_or_else(|| CallError(format!("`{field}[{i}]`: must be an integer")))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Whether `validate` checks values of this parameter (tensors, lists, scalars, numbers, bools,
/// dtypes, strings); other host types (a `void*`, a handle) are passed through unchecked.
pub fn checks_values_of(p: &Param) -> bool {
    let kind = p.ty.kind();
    p.role.is_tensor()
        || matches!(p.role, Role::InputTensorList | Role::OutputTensorList)
        || kind.is_scalar_like()
        || [
            ParamKind::IntArray,
            ParamKind::FloatArray,
            ParamKind::BoolArray,
            ParamKind::DataType,
            ParamKind::Str,
            ParamKind::Bool,
            ParamKind::Float,
            ParamKind::Int,
        ]
        .contains(&kind)
}

/// A host-side value, by the parameter's C type.
fn parse_value(ty: &CType, v: &Value, field: &str) -> Result<Arg, CallError> {
    let want = |what: &str| CallError(format!("`{field}`: must be {what} (parameter type `{ty}`)"));
    let kind = ty.kind();
    if kind == ParamKind::IntArray {
        return int_list(Some(v), field)?
            .map(Arg::IntArray)
            .ok_or(want("an array of integers"));
    }
    if kind == ParamKind::FloatArray {
        let items = v.as_array().ok_or(want("an array of numbers"))?;
        let xs = items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64()
                    .ok_or(format!("`{field}[{i}]`: must be a number"))
            })
            .collect::<Result<_, _>>()?;
        return Ok(Arg::FloatArray(xs));
    }
    if kind == ParamKind::BoolArray {
        let items = v.as_array().ok_or(want("an array of booleans"))?;
        let xs = items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_bool()
                    .ok_or(format!("`{field}[{i}]`: must be a boolean"))
            })
            .collect::<Result<_, _>>()?;
        return Ok(Arg::BoolArray(xs));
    }
    // An aclScalarList is checked as one scalar: its items share the dtype rules name.
    if kind.is_scalar_like() {
        let obj = v.as_object().ok_or(want("a scalar {dtype, value}"))?;
        if let Some(k) = obj.keys().find(|k| *k != "dtype" && *k != "value") {
            return Err(CallError(format!("`{field}.{k}`: unknown field")));
        }
        let dtype = enum_field(obj, "dtype", field, DType::parse, DType::ALL)?
            .ok_or(format!("`{field}.dtype`: missing"))?;
        let value = obj
            .get("value")
            .and_then(|x| x.as_f64().or_else(|| x.as_bool().map(f64::from)))
            .ok_or(format!("`{field}.value`: missing or not a number"))?;
        return Ok(Arg::Scalar { dtype, value });
    }
    if kind == ParamKind::DataType {
        let s = v.as_str().ok_or(want("a dtype name such as \"FLOAT16\""))?;
        return DType::parse(s).map(Arg::DataType).ok_or_else(|| {
            let known: Vec<String> = DType::ALL.iter().map(ToString::to_string).collect();
            CallError::from(format!(
                "`{field}`: unknown dtype `{s}` (known: {})",
                known.join(", ")
            ))
        });
    }
    if kind == ParamKind::Str {
        return v
            .as_str()
            .map(|s| Arg::Str(s.to_string()))
            .ok_or(want("a string"));
    }
    if kind == ParamKind::Bool {
        return v.as_bool().map(Arg::Bool).ok_or(want("a boolean"));
    }
    if kind == ParamKind::Float {
        return v.as_f64().map(Arg::Float).ok_or(want("a number"));
    }
    if kind == ParamKind::Int {
        return v.as_i64().map(Arg::Int).ok_or(want("an integer"));
    }
    Err(CallError(format!(
        "`{field}`: parameters of type `{ty}` are not supported by validate"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op() -> OpIr {
        let p = |name: &str, role, ty: &str| Param {
            name: name.into(),
            role,
            ty: ty.into(),
            ..Default::default()
        };
        OpIr {
            op: "AvgPool2dBackward".into(),
            params: vec![
                p("gradOutput", Role::InputTensor, "const aclTensor*"),
                p("kernelSize", Role::Attribute, "const aclIntArray*"),
                p("ceilMode", Role::Attribute, "bool"),
                p("divisorOverride", Role::Attribute, "int64_t"),
                p("out", Role::OutputTensor, "aclTensor*"),
                p("workspaceSize", Role::WorkspaceSize, "uint64_t*"),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn parses_the_issue_example() {
        let v: Value = serde_json::from_str(
            r#"{"product": "ascend910b", "args": {"gradOutput": {"shape": [2,2,1,1,1], "dtype": "FLOAT32", "format": "ND"},
                "kernelSize": [4,4], "ceilMode": false, "divisorOverride": 0, "out": null}}"#,
        )
        .unwrap();
        let call = parse_call(&op(), &v).unwrap();
        assert_eq!(call.product, "ascend910b");
        assert_eq!(call.args["kernelSize"], Arg::IntArray(vec![4, 4]));
        assert_eq!(call.args["divisorOverride"], Arg::Int(0));
        assert!(call.args["out"].is_null());
    }

    #[test]
    fn dtype_arguments_and_undefined_tensors() {
        let mut o = op();
        o.params.push(Param {
            name: "dstType".into(),
            role: Role::Attribute,
            ty: "aclDataType".into(),
            ..Default::default()
        });
        let v: Value = serde_json::from_str(
            r#"{"product": "ascend910b", "args": {"dstType": "FLOAT16",
                "gradOutput": {"shape": [2], "dtype": "UNDEFINED"}}}"#,
        )
        .unwrap();
        let call = parse_call(&o, &v).unwrap();
        assert_eq!(call.args["dstType"], Arg::DataType(DType::Float16));
        let Arg::Tensor(t) = &call.args["gradOutput"] else {
            panic!("not a tensor")
        };
        assert_eq!(t.dtype, DType::Undefined);
        let bad: Value =
            serde_json::from_str(r#"{"product": "ascend910b", "args": {"dstType": "FLOAT99"}}"#)
                .unwrap();
        assert!(parse_call(&o, &bad)
            .unwrap_err()
            .0
            .contains("`args.dstType`"));
    }

    #[test]
    fn errors_name_the_field() {
        let err = |s: &str| {
            parse_call(&op(), &serde_json::from_str(s).unwrap())
                .unwrap_err()
                .0
        };
        assert!(err(r#"{"product": "x", "args": {}}"#).contains("`product`"));
        assert!(err(r#"{"product": "ascend910", "args": {"nope": 1}}"#).contains("`args.nope`"));
        assert!(err(r#"{"product": "ascend910", "args": {"gradOutput": {"shape": [1, "a"], "dtype": "FLOAT"}}}"#)
            .contains("`args.gradOutput.shape[1]`"));
        assert!(err(r#"{"product": "ascend910", "args": {"gradOutput": {"shape": [1], "dtype": "FLOAT99"}}}"#)
            .contains("`args.gradOutput.dtype`"));
        assert!(
            err(r#"{"product": "ascend910", "args": {"ceilMode": 1}}"#).contains("`args.ceilMode`")
        );
        assert!(
            err(r#"{"product": "ascend910", "args": {"workspaceSize": 1}}"#)
                .contains("unknown argument")
        );
        assert!(err(r#"{"product": "ascend910"}"#).contains("`args`"));
    }
}
