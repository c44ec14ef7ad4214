//! Test helpers for generated validators (feature `testing`): the generated code and the
//! interpreter must agree. Every call, built from an op's baseline by mutations derived from its
//! rules, gets the same result from both, and every synthesized case its documented status.
//!
//! Hand-written and shared, so the generated crate only binds each op's arguments (`run`) and
//! invokes [`op_tests!`](crate::op_tests).

use crate::{check, AclnnError, Arg, Call, CheckedRule, DType, Format, Product, TensorDesc};
use serde_json::Value;

/// The two tests of a generated op module, given its rules JSON and its `cases.json`; the module
/// defines `fn run(&Call) -> Option<Result<(), AclnnError>>`, binding a call to its typed function.
#[macro_export]
macro_rules! op_tests {
    // An op gen found no valid call for: its tests are there, ignored with gen's reason.
    ($rules:literal, $cases:literal, ignore = $reason:literal) => {
        #[test]
        #[ignore = $reason]
        fn agrees_with_interpreter() {
            $crate::testing::differential(include_str!($rules), run);
        }

        #[test]
        #[ignore = $reason]
        fn cases_return_documented_status() {
            $crate::testing::documented(include_str!($cases), run);
        }
    };
    ($rules:literal, $cases:literal) => {
        #[test]
        fn agrees_with_interpreter() {
            $crate::testing::differential(include_str!($rules), run);
        }

        #[test]
        fn cases_return_documented_status() {
            $crate::testing::documented(include_str!($cases), run);
        }
    };
}

/// An argument bound for the typed function: `Some(None)` when null or absent, `None`
/// when it is of another kind (the typed function cannot express that call).
fn optional<'a, T: ?Sized>(
    call: &'a Call,
    name: &str,
    take: impl Fn(&'a Arg) -> Option<&'a T>,
) -> Option<Option<&'a T>> {
    match call.args.get(name).filter(|a| !a.is_null()) {
        None => Some(None),
        Some(arg) => take(arg).map(Some),
    }
}
pub fn tensor<'a>(call: &'a Call, name: &str) -> Option<Option<&'a TensorDesc>> {
    optional(call, name, |a| match a {
        Arg::Tensor(t) => Some(t),
        _ => None,
    })
}
pub fn tensor_list<'a>(call: &'a Call, name: &str) -> Option<Option<&'a [TensorDesc]>> {
    optional(call, name, |a| match a {
        Arg::TensorList(t) => Some(t.as_slice()),
        _ => None,
    })
}
pub fn int_array<'a>(call: &'a Call, name: &str) -> Option<Option<&'a [i64]>> {
    optional(call, name, |a| match a {
        Arg::IntArray(v) => Some(v.as_slice()),
        _ => None,
    })
}
pub fn float_array<'a>(call: &'a Call, name: &str) -> Option<Option<&'a [f64]>> {
    optional(call, name, |a| match a {
        Arg::FloatArray(v) => Some(v.as_slice()),
        _ => None,
    })
}
pub fn bool_array<'a>(call: &'a Call, name: &str) -> Option<Option<&'a [bool]>> {
    optional(call, name, |a| match a {
        Arg::BoolArray(v) => Some(v.as_slice()),
        _ => None,
    })
}
pub fn string<'a>(call: &'a Call, name: &str) -> Option<Option<&'a str>> {
    optional(call, name, Arg::as_str)
}
/// A by-value argument: `None` when null, absent or of another kind.
pub fn bool_value(call: &Call, name: &str) -> Option<bool> {
    match call.args.get(name) {
        Some(Arg::Bool(b)) => Some(*b),
        _ => None,
    }
}
pub fn int_value(call: &Call, name: &str) -> Option<i64> {
    match call.args.get(name) {
        Some(Arg::Int(v)) => Some(*v),
        _ => None,
    }
}
pub fn dtype_value(call: &Call, name: &str) -> Option<DType> {
    match call.args.get(name) {
        Some(Arg::DataType(d)) => Some(*d),
        _ => None,
    }
}
pub fn float_value(call: &Call, name: &str) -> Option<f64> {
    match call.args.get(name) {
        Some(Arg::Float(v)) => Some(*v),
        _ => None,
    }
}
/// Every synthesized case gets its documented status and condition from the generated code.
pub fn documented(json: &str, run: fn(&Call) -> Option<Result<(), AclnnError>>) {
    let file: Value = serde_json::from_str(json).expect("cases.json");
    let cases = file["cases"].as_array().expect("cases");
    assert!(!cases.is_empty(), "no cases");
    for case in cases {
        let name = &case["case"];
        let call: Call = serde_json::from_value(case["call"].clone()).expect("case call");
        let got = run(&call)
            .unwrap_or_else(|| panic!("case {name}: arguments do not fit the generated fn"));
        let status = got.as_ref().err().map_or(0, |e| u64::from(e.code));
        assert_eq!(
            Some(status),
            case["status"].as_u64(),
            "case {name}: {got:?}"
        );
        if let Err(e) = &got {
            assert_eq!(
                Some(e.condition.as_str()),
                case["condition"].as_str(),
                "case {name}"
            );
        }
    }
}
/// Runs every mutation of the op's baseline through both sides.
pub fn differential(json: &str, run: fn(&Call) -> Option<Result<(), AclnnError>>) {
    let spec: Value = serde_json::from_str(json).expect("rules JSON");
    let rules: Vec<CheckedRule> = serde_json::from_value(spec["rules"].clone()).expect("rules");
    let baseline: Call = serde_json::from_value(spec["baseline"].clone()).expect("baseline");
    let calls = mutations(&baseline, &spec["rules"]);
    let mut compared = 0;
    for call in &calls {
        let Some(generated) = run(call) else { continue };
        assert_eq!(generated, check(&rules, call), "call: {call:?}");
        compared += 1;
    }
    assert!(
        compared > calls.len() / 2,
        "only {compared} of {} calls compared",
        calls.len()
    );
}
/// The baseline on every product, each argument nulled, and per-argument changes of
/// dtype, format, shape, value and length, plus the boundary values the rules name.
fn mutations(base: &Call, rules: &Value) -> Vec<Call> {
    let mut out = vec![base.clone()];
    for p in Product::ALL {
        let mut c = base.clone();
        c.product = p.id().to_string();
        out.push(c);
    }
    let numbers = rule_numbers(rules);
    let strings = rule_strings(rules);
    for (name, arg) in &base.args {
        let mut with = |a: Arg| {
            let mut c = base.clone();
            c.args.insert(name.clone(), a);
            out.push(c);
        };
        with(Arg::Null);
        match arg {
            Arg::Tensor(t) => {
                for t in tensor_variants(t) {
                    with(Arg::Tensor(t));
                }
            }
            Arg::TensorList(ts) => {
                with(Arg::TensorList(Vec::new()));
                if let Some(t) = ts.first() {
                    for v in tensor_variants(t) {
                        with(Arg::TensorList(vec![t.clone(), v]));
                    }
                }
            }
            Arg::IntArray(v) => {
                for n in [0usize, 1, 2, 3, 4] {
                    with(Arg::IntArray(vec![v.first().copied().unwrap_or(1); n]));
                }
                for x in numbers.iter().copied().chain([-1, 0, 1, 3, 5]) {
                    with(Arg::IntArray(vec![x; v.len().max(1)]));
                }
            }
            Arg::Int(_) => {
                for x in numbers
                    .iter()
                    .copied()
                    .chain([-300, -1, 0, 1, 2, 3, 4, 300])
                {
                    with(Arg::Int(x));
                }
            }
            Arg::Bool(b) => with(Arg::Bool(!b)),
            Arg::Str(_) => {
                for x in strings
                    .iter()
                    .cloned()
                    .chain(["".to_string(), "x".to_string()])
                {
                    with(Arg::Str(x));
                }
            }
            Arg::Float(_) => {
                for x in [-1.5, 0.0, 2.0] {
                    with(Arg::Float(x));
                }
            }
            _ => {}
        }
    }
    out
}
fn tensor_variants(t: &TensorDesc) -> Vec<TensorDesc> {
    let mut out = Vec::new();
    for d in [
        DType::Float32,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::Int32,
        DType::Int64,
        DType::Bool,
        DType::Float64,
    ] {
        out.push(TensorDesc {
            dtype: d,
            ..t.clone()
        });
    }
    for f in [
        Format::Nd,
        Format::Nchw,
        Format::Ncl,
        Format::Ncdhw,
        Format::Nhwc,
    ] {
        out.push(TensorDesc {
            format: f,
            ..t.clone()
        });
    }
    let mut shapes = vec![
        Vec::new(),
        vec![2; t.rank() + 1],
        vec![2; t.rank().saturating_sub(1)],
        vec![2, 2000, 2000, 2000],
    ];
    for (i, x) in [
        (0usize, 0i64),
        (0, -1),
        (t.rank().saturating_sub(1), 1),
        (t.rank().saturating_sub(1), 3),
    ] {
        let mut s = t.shape.clone();
        if let Some(d) = s.get_mut(i) {
            *d = x;
        }
        shapes.push(s);
    }
    for shape in shapes {
        out.push(TensorDesc { shape, ..t.clone() });
    }
    let mut strided = t.clone();
    strided.strides = Some(vec![1; t.rank()]);
    out.push(strided);
    out
}
/// Strings the rules name (`StrIn` values), and their upper-case spellings.
fn rule_strings(rules: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![rules];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                if map.get("kind").and_then(Value::as_str) == Some("str_in") {
                    for x in map["values"].as_array().into_iter().flatten() {
                        if let Some(x) = x.as_str() {
                            out.extend([x.to_string(), x.to_uppercase()]);
                        }
                    }
                }
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}
/// Numbers the rules name (bounds, enumerations, lengths), and their neighbours.
fn rule_numbers(rules: &Value) -> Vec<i64> {
    let mut out = Vec::new();
    let mut stack = vec![rules];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (k, x) in map {
                    if matches!(k.as_str(), "min" | "max" | "values" | "lens") {
                        let nums: Vec<i64> = match x {
                            Value::Array(a) => a.iter().filter_map(Value::as_i64).collect(),
                            other => other.as_i64().into_iter().collect(),
                        };
                        for n in nums {
                            out.extend([n - 1, n, n + 1]);
                        }
                    } else {
                        stack.push(x);
                    }
                }
            }
            _ => {}
        }
    }
    out.sort();
    out.dedup();
    out
}
