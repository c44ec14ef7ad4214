//! Operations on the evaluator's values: arithmetic, comparison, conversion to a declared C
//! type, the constants the tests name, and a value described for a message.

use super::*;

pub(super) fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

pub(super) fn num(v: &UtValue) -> Option<f64> {
    match v {
        UtValue::Int(x, _) => Some(*x as f64),
        UtValue::Float(x, _) => Some(*x),
        UtValue::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

pub(super) fn truthy(v: &UtValue) -> Option<bool> {
    match v {
        UtValue::Bool(b) => Some(*b),
        UtValue::Int(x, _) => Some(*x != 0),
        UtValue::Float(x, _) => Some(*x != 0.0),
        UtValue::Null => Some(false),
        _ => None,
    }
}

pub(super) fn equal(a: &UtValue, b: &UtValue) -> Option<bool> {
    match (a, b) {
        (UtValue::Soc(x), UtValue::Soc(y)) => Some(x == y),
        (UtValue::DType(x), UtValue::DType(y)) => Some(x == y),
        (UtValue::Format(x), UtValue::Format(y)) => Some(x == y),
        (UtValue::Status(x, _), UtValue::Status(y, _)) => Some(x == y),
        (UtValue::Str(x), UtValue::Str(y)) => Some(x == y),
        _ => Some(num(a)? == num(b)?),
    }
}

pub(super) fn arith(op: &str, a: UtValue, b: UtValue) -> Option<UtValue> {
    match (&a, &b) {
        (UtValue::Int(x, t), UtValue::Int(y, _)) => Some(UtValue::Int(
            match op {
                "+" => x.checked_add(*y)?,
                "-" => x.checked_sub(*y)?,
                "*" => x.checked_mul(*y)?,
                "/" => x.checked_div(*y)?,
                "%" => x.checked_rem(*y)?,
                _ => return None,
            },
            *t,
        )),
        _ => {
            let (x, y) = (num(&a)?, num(&b)?);
            let t = match (&a, &b) {
                (UtValue::Float(_, t), _) | (_, UtValue::Float(_, t)) => *t,
                _ => NumberType::F64,
            };
            Some(UtValue::Float(
                match op {
                    "+" => x + y,
                    "-" => x - y,
                    "*" => x * y,
                    "/" => x / y,
                    _ => return None,
                },
                t,
            ))
        }
    }
}

pub(super) fn int_list(v: &UtValue) -> Option<Vec<i64>> {
    match v {
        // `vector<int64_t> out = {{300, 30}}`: the inner braces are the initializer list.
        UtValue::List(items) if items.len() == 1 && matches!(items[0], UtValue::List(_)) => {
            int_list(&items[0])
        }
        UtValue::List(items) => items.iter().map(|x| num(x).map(|f| f as i64)).collect(),
        UtValue::IntArray(v) => Some(v.clone()),
        _ => None,
    }
}

pub(super) fn to_num(n: NumberType, v: UtValue) -> UtValue {
    match v {
        UtValue::Int(x, _) if n.is_float() => UtValue::Float(x as f64, n),
        UtValue::Int(x, _) => UtValue::Int(x, n),
        UtValue::Float(x, _) if n.is_float() => UtValue::Float(x, n),
        UtValue::Float(x, _) => UtValue::Int(x as i64, n),
        UtValue::Bool(b) if !n.is_float() => UtValue::Int(i64::from(b), n),
        other => other,
    }
}

/// A value converted to the declared (or cast-to) C type.
pub(super) fn convert_to(ty: &str, v: UtValue) -> UtValue {
    match (ctype(ty), v) {
        (DeclType::NumberType(n), UtValue::List(items)) => UtValue::list(
            Rc::unwrap_or_clone(items)
                .into_iter()
                .map(|x| to_num(n, x))
                .collect(),
        ),
        (DeclType::NumberType(n), v) => to_num(n, v),
        (DeclType::Bool, v) => truthy(&v).map_or(v, UtValue::Bool),
        (DeclType::Other, v) => v,
    }
}

/// An assignment keeps the variable's C type (`float alpha; alpha = 2;` stays a float).
pub(super) fn convert_like(old: &UtValue, v: UtValue) -> UtValue {
    match old {
        UtValue::Int(_, n) | UtValue::Float(_, n) => to_num(*n, v),
        UtValue::Bool(_) => truthy(&v).map_or(v, UtValue::Bool),
        _ => v,
    }
}

pub(super) fn default_of(ty: &str) -> UtValue {
    match ctype(ty) {
        DeclType::NumberType(n) => to_num(n, UtValue::Int(0, n)),
        DeclType::Bool => UtValue::Bool(false),
        DeclType::Other if ty == "vector" => UtValue::list(Vec::new()),
        DeclType::Other => UtValue::Unknown(ty.to_string()),
    }
}

/// `ACL_FLOAT`, `ACL_FORMAT_ND`, `ACLNN_SUCCESS`, `nullptr`, `true`...
pub(super) fn constant(name: &str) -> Option<UtValue> {
    Some(match name {
        "true" => UtValue::Bool(true),
        "false" => UtValue::Bool(false),
        "nullptr" | "NULL" => UtValue::Null,
        "INFINITY" | "HUGE_VAL" => UtValue::Float(f64::INFINITY, NumberType::F32),
        "NAN" => UtValue::Float(f64::NAN, NumberType::F32),
        "ACL_SUCCESS" | "ACLNN_SUCCESS" => UtValue::Status(0, "ACLNN_SUCCESS".into()),
        n if n.starts_with("ACLNN_") || n.starts_with("ACL_ERROR") => {
            let code = aclnn_runtime::status::code(n).unwrap_or(u32::MAX);
            UtValue::Status(code, n.to_string())
        }
        // aclnn's cube math modes (`aclnn_base.h`), the value of every `cubeMathType`.
        "KEEP_DTYPE" => UtValue::Int(0, NumberType::I8),
        "ALLOW_FP32_DOWN_PRECISION" => UtValue::Int(1, NumberType::I8),
        "USE_FP16" => UtValue::Int(2, NumberType::I8),
        "USE_HF32" => UtValue::Int(3, NumberType::I8),
        "ACL_FRACTAL_Z_3D" => UtValue::Format(Ok(Format::FractalZ3d)),
        n if n.starts_with("ACL_FORMAT_") => {
            let f = &n["ACL_FORMAT_".len()..];
            UtValue::Format(Format::parse(f).ok_or_else(|| f.to_string()))
        }
        "ACL_DT_UNDEFINED" => {
            UtValue::DType(DType::parse("UNDEFINED").ok_or_else(|| "UNDEFINED".into()))
        }
        n if n.starts_with("ACL_") => UtValue::DType(match DType::parse(&n[4..]) {
            Some(d) => Ok(d),
            None => return None,
        }),
        _ => return None,
    })
}

/// A short description of a value for messages.
pub fn describe(v: &UtValue) -> String {
    match v {
        UtValue::Unknown(s) => format!("`{s}` (not modelled)"),
        UtValue::Int(x, _) => x.to_string(),
        UtValue::Float(x, _) => x.to_string(),
        UtValue::Bool(b) => b.to_string(),
        UtValue::Soc(s) => s.clone(),
        UtValue::Status(_, n) => n.clone(),
        UtValue::DType(d) => match d {
            Ok(d) => d.to_string(),
            Err(n) => n.clone(),
        },
        UtValue::Format(f) => match f {
            Ok(f) => f.to_string(),
            Err(n) => n.clone(),
        },
        UtValue::Null => "nullptr".into(),
        UtValue::Tensor(_) => "a tensor".into(),
        UtValue::TensorList(_) => "a tensor list".into(),
        UtValue::Scalar(..) => "a scalar".into(),
        UtValue::List(_) => "a list".into(),
        UtValue::IntArray(_) | UtValue::FloatArray(_) | UtValue::BoolArray(_) => "an array".into(),
        UtValue::Str(s) => format!("\"{s}\""),
        UtValue::Ut(_) => "an OP_API_UT".into(),
        UtValue::Pending(_) => "a status".into(),
        UtValue::Void => "nothing".into(),
    }
}
