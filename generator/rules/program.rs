//! A call of a C++ program the reader evaluated (a doc's call example, a CANN op_api unit test)
//! as the `Call` the rules check: positional arguments bound to the prototype's parameters,
//! each value taken as the parameter's kind.

use crate::ctype::{Base, Integer};
use crate::ir::{CType, OpIr, ParamKind, Role};
use crate::programs::{UtCall, UtTensor, UtValue};
use aclnn_runtime::{Arg, TensorDesc};
use std::collections::BTreeMap;

/// Why a program's call cannot be turned into a `validate` call (counted and named, never
/// dropped).
#[derive(Debug)]
pub struct Unmapped(pub String);

impl From<String> for Unmapped {
    fn from(reason: String) -> Self {
        Unmapped(reason)
    }
}

/// The call's positional arguments bound to the prototype's parameters, and the parameters
/// passed a non-null value of a type `validate` does not check (strings).
pub fn map_args(
    op: &OpIr,
    call: &UtCall,
) -> Result<(BTreeMap<String, Arg>, Vec<String>), Unmapped> {
    let f = op
        .workspace_fn()
        .ok_or_else(|| Unmapped(format!("{} has no first-phase prototype", op.op)))?;
    let params = call_params(f);
    let values: Vec<&UtValue> = call
        .ut
        .inputs
        .iter()
        .chain(&call.ut.outputs)
        .chain(&call.ut.extra)
        .collect();
    if values.len() != params.len() {
        return Err(Unmapped(format!(
            "OP_API_UT passes {} arguments; the doc's {} has {} ({})",
            values.len(),
            f.name,
            params.len(),
            params.join(", ")
        )));
    }
    let (mut args, mut opaque) = (BTreeMap::new(), Vec::new());
    for (name, v) in params.into_iter().zip(values) {
        let Some(p) = op.params.iter().find(|p| p.name == name) else {
            continue;
        };
        if !crate::rules::text::is_checkable(p) {
            continue;
        }
        match to_arg(p.role, &p.ty, v).map_err(|e| Unmapped(format!("{name}: {}", e.0)))? {
            Some(arg) => {
                args.insert(name.to_string(), arg);
            }
            None => opaque.push(name.to_string()),
        }
    }
    Ok((args, opaque))
}

/// The parameters of a first-phase prototype a caller passes: all but the workspace size and
/// executor, which are the framework's.
pub fn call_params(f: &crate::ir::Function) -> Vec<&str> {
    f.params
        .iter()
        .filter(|p| {
            let handle = matches!(p.ty.base(), Base::Executor | Base::Integer(Integer::U64));
            !(handle && p.ty.kind() == ParamKind::Plumbing)
        })
        .map(|p| p.name.as_str())
        .collect()
}

/// One test value as the argument of a parameter (`None`: a type `validate` does not check).
fn to_arg(role: Role, ty: &CType, v: &UtValue) -> Result<Option<Arg>, Unmapped> {
    if *v == UtValue::Null {
        return Ok(Some(Arg::Null));
    }
    let wrong = || {
        Unmapped(format!(
            "{} passed for a `{ty}`",
            crate::programs::describe(v)
        ))
    };
    let arg = match role {
        Role::InputTensorList | Role::OutputTensorList => match v {
            UtValue::TensorList(ts) => {
                Arg::TensorList(ts.iter().map(tensor).collect::<Result<_, _>>()?)
            }
            _ => return Err(wrong()),
        },
        r if r.is_tensor() => match v {
            UtValue::Tensor(t) => Arg::Tensor(tensor(t)?),
            _ => return Err(wrong()),
        },
        _ => return value_arg(ty, v),
    };
    Ok(Some(arg))
}

fn value_arg(ty: &CType, v: &UtValue) -> Result<Option<Arg>, Unmapped> {
    let kind = ty.kind();
    let wrong = || {
        Unmapped(format!(
            "{} passed for a `{ty}`",
            crate::programs::describe(v)
        ))
    };
    let number = |v: &UtValue| match v {
        // An `aclDataType` passed for an integer parameter is its enumerator's value.
        UtValue::DType(Ok(d)) => d.acl_value().map(f64::from),
        UtValue::Int(x, _) => Some(*x as f64),
        UtValue::Float(x, _) => Some(*x),
        UtValue::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    };
    let arg = if kind == ParamKind::IntArray {
        match v {
            UtValue::IntArray(xs) => Arg::IntArray(xs.clone()),
            _ => return Err(wrong()),
        }
    } else if kind == ParamKind::FloatArray {
        match v {
            UtValue::FloatArray(xs) => Arg::FloatArray(xs.clone()),
            _ => return Err(wrong()),
        }
    } else if kind == ParamKind::BoolArray {
        match v {
            UtValue::BoolArray(xs) => Arg::BoolArray(xs.clone()),
            _ => return Err(wrong()),
        }
    } else if kind.is_scalar_like() {
        match v {
            UtValue::Scalar(d, x) => Arg::Scalar {
                dtype: d
                    .clone()
                    .map_err(|n| format!("dtype {n} is not in the vocabulary"))?,
                value: *x,
            },
            _ => return Err(wrong()),
        }
    } else if kind == ParamKind::DataType {
        match v {
            UtValue::DType(d) => Arg::DataType(
                d.clone()
                    .map_err(|n| format!("dtype {n} is not in the vocabulary"))?,
            ),
            _ => return Err(wrong()),
        }
    } else if kind == ParamKind::Bool {
        Arg::Bool(number(v).ok_or_else(wrong)? != 0.0)
    } else if kind == ParamKind::Float {
        Arg::Float(number(v).ok_or_else(wrong)?)
    } else if kind == ParamKind::Str {
        match v {
            // A string literal (or a `char*` variable holding one): its text.
            UtValue::Str(s) => Arg::Str(s.clone()),
            // A string the reader cannot evaluate: non-null, but not checked.
            _ => return Ok(None),
        }
    } else if kind == ParamKind::Int {
        Arg::Int(number(v).ok_or_else(wrong)? as i64)
    } else {
        // Tensors passed as attributes...: `validate` does not check these types.
        return Ok(None);
    };
    Ok(Some(arg))
}

fn tensor(t: &UtTensor) -> Result<TensorDesc, Unmapped> {
    Ok(TensorDesc {
        shape: t.shape.clone(),
        dtype: t
            .dtype
            .clone()
            .map_err(|n| format!("dtype {n} is not in the vocabulary"))?,
        format: t
            .format
            .clone()
            .map_err(|n| format!("format {n} is not in the vocabulary"))?,
        strides: t.strides.clone(),
    })
}
