//! The differential's inputs: pseudo-random calls of every public `pred` function, each with the
//! text the Rust predicate gives (`expected`). The C++ side (`Differential.CasesFromRust` in
//! `tests/fixtures/cpp/pred_test.cpp`) reads the same JSON, builds real opbase objects from it and
//! prints its own text for each; the two must be equal.
//!
//! A case: `f` names the function; `a`/`b` are named tensors, `x`/`y` arguments, `n` integers, `o`
//! optional integers, `s` strings (or null), `l`/`m` integer lists (or null), `d` dtypes, `fm`
//! formats, `ss` string lists, `flag` a bool, `fl`/`fr` `ProductsEqual` factors.

use aclnn_runtime::pred::{self, FactorValue, Named};
use aclnn_runtime::{Arg, DType, Format, TensorDesc, TensorState};
use serde_json::{json, Value};

/// xorshift64*: the same cases on every run and machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    fn opt(&mut self, lo: i64, hi: i64) -> Option<i64> {
        if self.chance(30) {
            None
        } else {
            Some(self.int(lo, hi))
        }
    }
}

/// Dtypes a tensor can have on both sides (aclCreateTensor takes an aclDataType).
const TENSOR_DTYPES: &[DType] = &[
    DType::Float32,
    DType::Float16,
    DType::BFloat16,
    DType::Float64,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
    DType::Bool,
    DType::Complex64,
    DType::Complex128,
    DType::Complex32,
    DType::String,
    DType::Int4,
    DType::HiFloat8,
];

/// Every dtype op::DataType has (all but HFLOAT32, a compute mode).
fn any_dtype(r: &mut Rng) -> DType {
    let all: Vec<DType> = DType::ALL
        .iter()
        .copied()
        .filter(|d| *d != DType::HFloat32)
        .collect();
    r.pick(&all)
}

/// Formats op::Format has (all but NLC).
fn any_format(r: &mut Rng) -> Format {
    let all: Vec<Format> = Format::ALL
        .iter()
        .copied()
        .filter(|f| *f != Format::Nlc)
        .collect();
    r.pick(&all)
}

const DIMS: &[i64] = &[1, 1, 2, 2, 3, 3, 4, 5, 8, 16, 0, -1];
const STRS: &[&str] = &[
    "NCHW", "NHWC", "NDHWC", "NCDHW", "nhwc ", " NC", "N", "C", "", "round", "floor", "INVALID",
];

fn shape(r: &mut Rng) -> Vec<i64> {
    let rank = r.pick(&[0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    (0..rank).map(|_| r.pick(DIMS)).collect()
}

fn tensor_like(r: &mut Rng, base: &[i64]) -> TensorDesc {
    let mut s = base.to_vec();
    if r.chance(40) {
        s = shape(r);
    } else if !s.is_empty() && r.chance(30) {
        let i = r.below(s.len());
        s[i] = r.pick(DIMS);
    }
    let dtype = if r.chance(50) {
        DType::Float32
    } else {
        r.pick(TENSOR_DTYPES)
    };
    let format = if r.chance(50) {
        Format::Nd
    } else {
        any_format(r)
    };
    let mut t = TensorDesc::new(&s, dtype, format);
    if r.chance(20) {
        t.strides = Some(s.iter().map(|_| r.int(0, 24)).collect());
    }
    t
}

/// One to three named tensors: plain ones, or the elements of a list or two (`xs[i]`).
fn tensors(r: &mut Rng, base: &[i64]) -> Vec<(String, TensorDesc)> {
    let mut out = Vec::new();
    match r.below(4) {
        0 => {}
        1 | 2 => {
            for name in ["a", "b", "c"].iter().take(1 + r.below(3)) {
                out.push((name.to_string(), tensor_like(r, base)));
            }
        }
        _ => {
            let len = 1 + r.below(3);
            for list in ["xs", "ys"].iter().take(1 + r.below(2)) {
                for i in 0..len {
                    out.push((format!("{list}[{i}]"), tensor_like(r, base)));
                }
            }
            if r.chance(40) {
                out.push(("out".to_string(), tensor_like(r, base)));
            }
        }
    }
    out
}

fn nonempty(r: &mut Rng, base: &[i64]) -> Vec<(String, TensorDesc)> {
    let mut ts = tensors(r, base);
    if ts.is_empty() {
        ts.push(("t".to_string(), tensor_like(r, base)));
    }
    ts
}

/// Values exact in a float, so an aclFloatArray or FLOAT32 aclScalar holds them unchanged.
fn float(r: &mut Rng) -> f64 {
    if r.chance(10) {
        // The floats nearest 0.1, 1e20 and 2.5e-7, each exact in a float.
        return r.pick(&[
            0.100_000_001_490_116_12,
            1.000_000_020_040_877_3e20,
            -0.0,
            2.384_185_791_015_625e-7,
            4096.0,
        ]);
    }
    r.int(-32, 32) as f64 / 4.0
}

fn arg(r: &mut Rng) -> Arg {
    let base = shape(r);
    match r.below(13) {
        0 => Arg::Null,
        1 => Arg::Tensor(tensor_like(r, &base)),
        2 => Arg::TensorList((0..r.below(4)).map(|_| tensor_like(r, &base)).collect()),
        3 => {
            let dtype = r.pick(&[
                DType::Float32,
                DType::Float64,
                DType::Int32,
                DType::Int64,
                DType::Int8,
                DType::Bool,
                DType::BFloat16,
                DType::UInt8,
            ]);
            let value = match dtype {
                DType::Bool => r.int(0, 1) as f64,
                DType::Float32 | DType::Float64 | DType::BFloat16 => float(r),
                _ => r.int(-8, 8) as f64,
            };
            Arg::Scalar { dtype, value }
        }
        4 => Arg::Bool(r.chance(50)),
        5 | 6 => Arg::Int(if r.chance(5) {
            r.pick(&[i64::MAX, i64::MIN, 1 << 40, 27, 29, 35])
        } else {
            r.int(-8, 8)
        }),
        7 => Arg::Float(float(r)),
        8 => Arg::IntArray((0..r.below(5)).map(|_| r.int(-3, 8)).collect()),
        9 => Arg::FloatArray((0..r.below(4)).map(|_| float(r)).collect()),
        10 => Arg::BoolArray((0..r.below(4)).map(|_| r.chance(50)).collect()),
        11 => Arg::DataType(any_dtype(r)),
        _ => Arg::Str(r.pick(STRS).to_string()),
    }
}

/// Fewer than `max_len` integers in `[lo, hi]`.
fn ints(r: &mut Rng, max_len: usize, lo: i64, hi: i64) -> Vec<i64> {
    let len = r.below(max_len);
    (0..len).map(|_| r.int(lo, hi)).collect()
}

/// One call of one function, and what the Rust predicate gives for it.
#[derive(Default)]
pub struct Case {
    pub f: &'static str,
    a: Vec<(String, TensorDesc)>,
    b: Vec<(String, TensorDesc)>,
    x: Option<Arg>,
    y: Option<Arg>,
    n: Vec<i64>,
    o: Vec<Option<i64>>,
    s: Vec<Option<String>>,
    l: Option<Vec<i64>>,
    m: Option<Vec<i64>>,
    d: Vec<DType>,
    fm: Vec<Format>,
    ss: Vec<String>,
    flag: bool,
    fl: Vec<FactorValue>,
    fr: Vec<FactorValue>,
}

fn tensor_json(t: &TensorDesc) -> Value {
    serde_json::to_value(t).expect("a TensorDesc serializes")
}

fn arg_json(a: &Arg) -> Value {
    let (k, v) = match a {
        Arg::Null => ("Null", Value::Null),
        Arg::Tensor(t) => ("Tensor", tensor_json(t)),
        Arg::TensorList(ts) => ("TensorList", ts.iter().map(tensor_json).collect()),
        Arg::Scalar { dtype, value } => {
            ("Scalar", json!({"dtype": dtype.as_str(), "value": value}))
        }
        Arg::Bool(b) => ("Bool", json!(b)),
        Arg::Int(i) => ("Int", json!(i)),
        Arg::Float(x) => ("Float", json!(x)),
        Arg::IntArray(v) => ("IntArray", json!(v)),
        Arg::FloatArray(v) => ("FloatArray", json!(v)),
        Arg::BoolArray(v) => ("BoolArray", json!(v)),
        Arg::DataType(d) => ("DataType", json!(d.as_str())),
        Arg::Str(s) => ("Str", json!(s)),
    };
    json!({"k": k, "v": v})
}

fn factors_json(fs: &[FactorValue]) -> Value {
    fs.iter()
        .map(|f| match f {
            Ok(v) => json!({ "v": v }),
            Err(e) => json!({ "err": e }),
        })
        .collect()
}

fn named_json(ts: &[(String, TensorDesc)]) -> Value {
    ts.iter().map(|(n, t)| json!([n, tensor_json(t)])).collect()
}

impl Case {
    pub fn to_json(&self) -> Value {
        json!({
            "f": self.f,
            "a": named_json(&self.a),
            "b": named_json(&self.b),
            "x": arg_json(self.x.as_ref().unwrap_or(&Arg::Null)),
            "y": arg_json(self.y.as_ref().unwrap_or(&Arg::Null)),
            "n": self.n,
            "o": self.o,
            "s": self.s,
            "l": self.l,
            "m": self.m,
            "d": self.d.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
            "fm": self.fm.iter().map(|f| f.as_str()).collect::<Vec<_>>(),
            "ss": self.ss,
            "flag": self.flag,
            "fl": factors_json(&self.fl),
            "fr": factors_json(&self.fr),
        })
    }

    fn s(&self, i: usize) -> &str {
        self.s[i].as_deref().expect("a string")
    }

    /// An argument as generated code passes it: `None` for a null pointer.
    fn x(&self) -> Option<&Arg> {
        self.x.as_ref().filter(|a| !a.is_null())
    }

    fn y(&self) -> Option<&Arg> {
        self.y.as_ref().filter(|a| !a.is_null())
    }

    /// The scalars among `x` and `y`, as generated code passes them.
    fn scalars(&self) -> Vec<pred::NamedScalar> {
        pred::scalars(&[("x", self.x()), ("y", self.y())])
    }
}

fn named(ts: &[(String, TensorDesc)]) -> Vec<Named<'_>> {
    ts.iter().map(|(n, t)| (n.clone(), t)).collect()
}

// What each kind of result prints as; the C++ side prints the same.
fn unit(r: Result<(), String>) -> String {
    match r {
        Ok(()) => "ok".into(),
        Err(e) => format!("err:{e}"),
    }
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("none".into(), |v| format!("some:{v}"))
}

fn opt_list(v: Option<Vec<i64>>) -> String {
    v.map_or("none".into(), |v| {
        format!(
            "some:{}",
            v.iter().map(|x| format!("{x},")).collect::<String>()
        )
    })
}

fn res<T>(r: Result<Option<T>, String>, show: impl Fn(Option<T>) -> String) -> String {
    match r {
        Ok(v) => show(v),
        Err(e) => format!("err:{e}"),
    }
}

/// Every function the differential calls.
pub const FUNCTIONS: &[&str] = &[
    "acl_number_dtype",
    "dtype_same",
    "dtype_promotable",
    "promoted_dtype",
    "format_same",
    "rank_same",
    "shape_same",
    "broadcast_together",
    "not_empty",
    "contiguous",
    "dtype_castable",
    "dtype_promotable_with",
    "dtype_castable_with",
    "promoted_dtype_with",
    "scalars",
    "broadcast_shape",
    "has_dtype",
    "dtype_in",
    "dtype_is_arg",
    "format_in",
    "rank_in",
    "shape_matches_list",
    "shape_from_list",
    "dims_equal",
    "dim_multiple_of",
    "dim_in_range",
    "channel_axis",
    "layout_channel_axis",
    "dim_matches_channel",
    "dims_scaled",
    "shape_same_except",
    "dims_at_most",
    "broadcastable",
    "dims_positive",
    "numel_in",
    "axis_in",
    "factor_dim",
    "factor_dims_from",
    "factor_numel",
    "element_count_max",
    "promote",
    "promote_with_scalar",
    "can_cast",
    "scalar_dtype_in",
    "scalar_castable",
    "arg_int",
    "arg_int_list",
    "arg_list_len",
    "arg_ints",
    "arg_str",
    "when",
    "when_str",
    "when_any_elem",
    "when_tensor",
    "value_in_range",
    "value_not",
    "value_at_most",
    "attr_multiple_of",
    "int_in_range",
    "int_in",
    "str_in",
    "list_len_in",
    "list_len_same",
    "list_elems_in_range",
    "list_unique",
    "list_elems_at_most_fraction",
    "bounds_text",
    "products_equal",
    "not_a_tensor",
    "not_null",
    "is_null",
    "product_supported",
    // Last, so that the cases of the others keep their draws.
    "shape_padded",
    "pads_below_dims",
    "shape_reduced",
];

/// A random call of `f`.
pub fn generate(f: &'static str, r: &mut Rng) -> Case {
    let base = shape(r);
    let mut c = Case {
        f,
        a: tensors(r, &base),
        b: tensors(r, &base),
        x: Some(arg(r)),
        y: Some(arg(r)),
        n: vec![r.int(-5, 5), r.int(-5, 5), r.int(-3, 3)],
        o: vec![r.opt(-5, 8), r.opt(-5, 8)],
        s: vec![Some("k".into()), Some("by".into()), Some("c".into())],
        flag: r.chance(50),
        ..Case::default()
    };
    specialize(&mut c, r, &base);
    c
}

/// The inputs a function needs beyond the common ones.
fn specialize(c: &mut Case, r: &mut Rng, base: &[i64]) {
    match c.f {
        "has_dtype" | "dtype_in" | "scalar_dtype_in" => {
            c.d = (0..r.below(4)).map(|_| r.pick(TENSOR_DTYPES)).collect();
            c.s = vec![
                Some("x".into()),
                Some(r.pick(&["ascend910b", "ascend310p"]).into()),
            ];
            if c.f == "dtype_in" {
                c.s[0] = Some(r.pick(&["ascend910b", "ascend310p"]).into());
            }
        }
        "promote" | "can_cast" | "promote_with_scalar" => c.d = vec![any_dtype(r), any_dtype(r)],
        // aclDataType numbers, some of them none (-1, 5, 14, 42...).
        "acl_number_dtype" => c.n[0] = r.int(-3, 45),
        // Mostly scalars (of any dtype a tensor can have), sometimes null or another kind.
        "dtype_promotable_with" | "dtype_castable_with" | "promoted_dtype_with" | "scalars" => {
            for slot in [&mut c.x, &mut c.y] {
                if r.chance(80) {
                    let dtype = r.pick(TENSOR_DTYPES);
                    *slot = Some(Arg::Scalar {
                        dtype,
                        value: r.int(-8, 8) as f64,
                    });
                }
            }
        }
        "scalar_castable" => c.d = (0..r.below(2)).map(|_| any_dtype(r)).collect(),
        "format_in" => c.fm = (0..1 + r.below(3)).map(|_| any_format(r)).collect(),
        "rank_in" | "factor_dims_from" => c.n = vec![r.int(0, 5), r.int(0, 5)],
        "element_count_max" => {
            c.n = vec![r.int(0, 5), r.pick(&[0, 1, 6, 24, 100, i32::MAX as i64])]
        }
        "shape_matches_list" | "shape_from_list" | "broadcastable" => {
            c.l = if r.chance(15) {
                None
            } else if c.f == "broadcastable" {
                Some(ints(r, 3, -4, 3))
            } else {
                let skip = r.below(base.len() + 1);
                Some(base[skip..].to_vec())
            };
        }
        "shape_reduced" => {
            // Dims in and out of range (some repeated, some empty or null), keepdim as 0/1 or
            // null; sometimes `a` is exactly the reduced `b`.
            c.l = (!r.chance(15)).then(|| ints(r, 4, -4, 3));
            c.m = (!r.chance(10)).then(|| vec![i64::from(r.chance(50))]);
            let reduced =
                c.b.first()
                    .zip(c.l.as_deref())
                    .zip(c.m.as_deref())
                    .and_then(|(((_, t), l), k)| {
                        pred::reduced_shape(&t.shape, l, k.first() == Some(&1))
                    });
            if let (Some(shape), true) = (reduced, r.chance(50)) {
                for (_, t) in &mut c.a {
                    t.shape = shape.clone();
                    t.strides = None;
                }
            }
        }
        "shape_padded" => {
            // Pairs of pads, sometimes of odd length; sometimes `a` is exactly the padded `b`.
            let len = if r.chance(15) { 3 } else { 2 * r.below(3) };
            let pads: Vec<i64> = (0..len).map(|_| r.int(-1, 2)).collect();
            c.l = (!r.chance(15)).then_some(pads);
            let padded =
                c.b.first()
                    .zip(c.l.as_deref())
                    .and_then(|((_, t), l)| pred::padded_shape(&t.shape, l));
            if let (Some(shape), true) = (padded, r.chance(50)) {
                for (_, t) in &mut c.a {
                    t.shape = shape.clone();
                    t.strides = None;
                }
            }
        }
        "pads_below_dims" => {
            // Pairs of small pads (some at or above the dims of 1 to 3), sometimes an odd list.
            let len = if r.chance(15) { 3 } else { 2 * r.below(3) };
            let pads: Vec<i64> = (0..len).map(|_| r.int(-1, 3)).collect();
            c.l = (!r.chance(15)).then_some(pads);
        }
        "layout_channel_axis" | "channel_axis" => {
            c.a = nonempty(r, base);
            c.s = vec![Some(r.pick(STRS).into())];
        }
        "dim_matches_channel" => {
            c.s = vec![if r.chance(40) {
                None
            } else {
                Some(r.pick(STRS).into())
            }];
        }
        "dims_scaled" => {
            c.n = vec![
                r.int(-3, 3),
                r.pick(&[1, 2, 1, 3, i64::MAX]),
                r.pick(&[1, 2, 1, 4, i64::MAX]),
            ]
        }
        "numel_in" | "int_in" => c.l = Some(ints(r, 4, 0, 24)),
        "list_elems_in_range" => c.l = Some(ints(r, 5, -6, 9)),
        "list_len_in" => {
            c.l = Some(ints(r, 4, 0, 4));
            c.n = vec![r.int(0, 4)];
        }
        "when_tensor" => {
            // Mostly tensors and lists, whose shapes decide the state.
            if r.chance(60) {
                let base = shape(r);
                c.x = Some(if r.chance(70) {
                    Arg::Tensor(tensor_like(r, &base))
                } else {
                    Arg::TensorList((0..r.below(4)).map(|_| tensor_like(r, &base)).collect())
                });
            }
            c.s = vec![Some(
                r.pick(&["null", "present", "empty", "not_empty", "rank", "rank"])
                    .into(),
            )];
            c.l = Some(ints(r, 3, 0, 4));
        }
        "when" => {
            c.o = vec![if r.chance(50) {
                None
            } else {
                Some(r.int(0, 4))
            }];
            c.l = Some(ints(r, 4, -1, 3));
        }
        "when_str" => {
            // Mostly strings, some of them among the values.
            if r.chance(60) {
                c.x = Some(Arg::Str(r.pick(STRS).into()));
            }
            c.ss = (0..r.below(4)).map(|_| r.pick(STRS).to_string()).collect();
        }
        "when_any_elem" => {
            // Mostly integer lists, whose elements decide; bounds in `o`.
            if r.chance(60) {
                c.x = Some(Arg::IntArray(
                    (0..r.below(5)).map(|_| r.int(-3, 3)).collect(),
                ));
            }
            c.o = vec![r.opt(-2, 2), r.opt(-2, 2)];
        }
        "str_in" | "product_supported" => {
            c.s = vec![Some("mode".into()), Some(r.pick(STRS).into())];
            c.ss = (0..r.below(4)).map(|_| r.pick(STRS).to_string()).collect();
            if c.f == "product_supported" {
                c.s = vec![Some(r.pick(&["ascend910b", "ascend310p", "kirin"]).into())];
                c.ss = (0..r.below(3))
                    .map(|_| r.pick(&["ascend910b", "ascend910_93", "kirin"]).to_string())
                    .collect();
            }
        }
        "list_len_same" => {
            let lens = ints(r, 4, 0, 2);
            c.s = (0..lens.len()).map(|i| Some(format!("p{i}"))).collect();
            c.l = Some(lens);
        }
        "list_unique" => c.l = Some(ints(r, 5, 0, 3)),
        "list_elems_at_most_fraction" => {
            c.l = Some(ints(r, 4, 0, 6));
            c.m = Some(ints(r, 4, 0, 6));
            c.n = vec![r.pick(&[1, 2, 3, i64::MAX]), r.pick(&[1, 2, 1, i64::MAX])];
        }
        "products_equal" => {
            let factors = |r: &mut Rng| -> Vec<FactorValue> {
                (0..r.below(4))
                    .map(|i| match r.below(10) {
                        0 => Err(format!("f{i} is not an integer")),
                        1 => Ok(None),
                        2 => Ok(Some(i64::MAX)),
                        _ => Ok(Some(r.int(0, 6))),
                    })
                    .collect()
            };
            c.fl = factors(r);
            c.fr = factors(r);
            c.s = vec![Some("a*b".into()), Some("c".into())];
        }
        _ => {}
    }
    if c.f == "dims_positive" || c.f == "not_empty" {
        c.a = nonempty(r, base);
    }
}

/// What `aclnn_runtime::pred` gives for the case, as text.
pub fn expected(c: &Case) -> String {
    let (a, b) = (named(&c.a), named(&c.b));
    let n = &c.n;
    let (o0, o1) = (
        c.o.first().copied().flatten(),
        c.o.get(1).copied().flatten(),
    );
    match c.f {
        "dtype_same" => unit(pred::dtype_same(&a)),
        "dtype_promotable" => unit(pred::dtype_promotable(&a)),
        "promoted_dtype" => opt(pred::promoted_dtype(&a)),
        "format_same" => unit(pred::format_same(&a)),
        "rank_same" => unit(pred::rank_same(&a)),
        "shape_same" => unit(pred::shape_same(&a)),
        "broadcast_together" => unit(pred::broadcast_together(&a)),
        "not_empty" => unit(pred::not_empty(&a)),
        "contiguous" => unit(pred::contiguous(&a)),
        "dtype_castable" => unit(pred::dtype_castable(&a, &b)),
        "dtype_promotable_with" => unit(pred::dtype_promotable_with(&a, &c.scalars())),
        "dtype_castable_with" => unit(pred::dtype_castable_with(&a, &c.scalars(), &b)),
        "promoted_dtype_with" => opt(pred::promoted_dtype_with(&a, &c.scalars())),
        "scalars" => c
            .scalars()
            .iter()
            .map(|(n, d)| format!("{n}:{d},"))
            .collect(),
        "broadcast_shape" => unit(pred::broadcast_shape(&a, &b)),
        "has_dtype" => pred::has_dtype(&a, &c.d).to_string(),
        "dtype_in" => unit(pred::dtype_in(&a, c.flag.then_some(&c.d[..]), c.s(0))),
        "dtype_is_arg" => unit(pred::dtype_is_arg(&a, c.s(0), c.x())),
        "format_in" => unit(pred::format_in(&a, &c.fm)),
        "rank_in" => unit(pred::rank_in(&a, n[0] as usize, n[1] as usize)),
        "shape_matches_list" => unit(pred::shape_matches_list(&a, c.s(0), c.l.as_deref(), c.flag)),
        "shape_from_list" => unit(pred::shape_from_list(&a, &b, c.s(0), c.l.as_deref())),
        "shape_padded" => unit(pred::shape_padded(&a, &b, c.s(0), c.l.as_deref())),
        "shape_reduced" => unit(pred::shape_reduced(
            &a,
            &b,
            c.s(0),
            c.l.as_deref(),
            c.m.as_deref(),
        )),
        "pads_below_dims" => unit(pred::pads_below_dims(c.s(0), c.l.as_deref(), &a)),
        "dims_equal" => unit(pred::dims_equal(&a, n[0], &b, n[1])),
        "dim_multiple_of" => unit(pred::dim_multiple_of(&a, n[0], n[1])),
        "dim_in_range" => unit(pred::dim_in_range(&a, n[0], o0, o1)),
        "channel_axis" => pred::channel_axis(a[0].1).to_string(),
        "layout_channel_axis" => opt(pred::layout_channel_axis(a[0].1, c.s(0))),
        "dim_matches_channel" => unit(pred::dim_matches_channel(&a, n[0], &b, c.s[0].as_deref())),
        "dims_scaled" => unit(pred::dims_scaled(&a, &b, n[0], n[1], n[2])),
        "shape_same_except" => unit(pred::shape_same_except(&a, &b, n[0])),
        "dims_at_most" => unit(pred::dims_at_most(&a, &b, o0)),
        "broadcastable" => unit(pred::broadcastable(&a, &b, c.l.as_deref())),
        "dims_positive" => unit(pred::dims_positive(&a, c.flag)),
        "numel_in" => unit(pred::numel_in(&a, c.l.as_deref().unwrap_or_default())),
        "axis_in" => unit(pred::axis_in(c.s(0), c.x(), &a)),
        "factor_dim" => opt(pred::factor_dim(&a, n[0])),
        "factor_dims_from" => opt(pred::factor_dims_from(&a, n[0] as usize)),
        "factor_numel" => opt(pred::factor_numel(&a)),
        "element_count_max" => unit(pred::element_count_max(&a, n[0] as usize, n[1])),
        _ => expected_value(c, o0, o1),
    }
}

fn expected_value(c: &Case, o0: Option<i64>, o1: Option<i64>) -> String {
    let n = &c.n;
    let l = || c.l.clone().unwrap_or_default();
    let null = Arg::Null;
    let x = c.x.as_ref().unwrap_or(&null);
    match c.f {
        "promote" => opt(pred::promote(c.d[0], c.d[1])),
        "acl_number_dtype" => opt(pred::acl_number_dtype(n[0])),
        "promote_with_scalar" => opt(pred::promote_with_scalar(c.d[0], c.d[1])),
        "can_cast" => pred::can_cast(c.d[0], c.d[1]).to_string(),
        "scalar_dtype_in" => unit(pred::scalar_dtype_in(
            c.s(0),
            c.x(),
            c.flag.then_some(&c.d[..]),
            c.s(1),
        )),
        "scalar_castable" => unit(pred::scalar_castable(c.s(0), c.x(), c.d.first().copied())),
        "arg_int" => res(pred::arg_int(c.s(0), c.x()), opt),
        "arg_int_list" => res(pred::arg_int_list(c.s(0), c.x()), opt_list),
        "arg_list_len" => res(pred::arg_list_len(c.s(0), c.x()), opt),
        "arg_ints" => res(pred::arg_ints(c.s(0), c.x()), opt_list),
        "arg_str" => res(pred::arg_str(c.s(0), c.x()), opt),
        "when_tensor" => pred::when_tensor(c.x(), &tensor_state(c)).to_string(),
        "when" => pred::when(c.x(), o0.map(|i| i as usize), &l(), c.flag).to_string(),
        "when_str" => {
            let values: Vec<&str> = c.ss.iter().map(String::as_str).collect();
            pred::when_str(c.x(), &values, c.flag).to_string()
        }
        "when_any_elem" => pred::when_any_elem(c.x(), o0, o1).to_string(),
        "value_in_range" => unit(pred::value_in_range(c.s(0), x, o0, o1)),
        "value_not" => unit(pred::value_not(c.s(0), x, n[0])),
        "value_at_most" => unit(pred::value_at_most(c.s(0), c.x(), c.s(1), c.y())),
        "attr_multiple_of" => unit(pred::attr_multiple_of(c.s(0), c.x(), c.s(1), c.y())),
        "int_in_range" => unit(pred::int_in_range(c.s(0), n[0], o0, o1)),
        "int_in" => unit(pred::int_in(c.s(0), n[0], &l())),
        "str_in" => unit(pred::str_in(c.s(0), c.s(1), &c.ss)),
        "list_len_in" => {
            let lens: Vec<usize> = l().iter().map(|v| *v as usize).collect();
            unit(pred::list_len_in(c.s(0), n[0] as usize, &lens))
        }
        "list_len_same" => {
            let lens: Vec<(&str, usize)> = l()
                .iter()
                .enumerate()
                .map(|(i, v)| (c.s(i), *v as usize))
                .collect();
            unit(pred::list_len_same(&lens))
        }
        "list_elems_in_range" => unit(pred::list_elems_in_range(c.s(0), &l(), o0, o1)),
        "list_unique" => unit(pred::list_unique(c.s(0), &l())),
        "list_elems_at_most_fraction" => unit(pred::list_elems_at_most_fraction(
            c.s(0),
            &l(),
            c.s(1),
            c.m.as_deref().unwrap_or_default(),
            n[0],
            n[1],
        )),
        "bounds_text" => pred::bounds_text(o0, o1),
        "products_equal" => unit(pred::products_equal(c.s(0), &c.fl, c.s(1), &c.fr)),
        "not_a_tensor" => unit(pred::not_a_tensor(c.s(0))),
        "not_null" => unit(pred::not_null(c.s(0), c.flag)),
        "is_null" => unit(pred::is_null(c.s(0), c.flag)),
        "product_supported" => {
            let supported: Vec<&str> = c.ss.iter().map(String::as_str).collect();
            unit(pred::product_supported(c.s(0), &supported))
        }
        f => panic!("no expectation for {f}"),
    }
}

/// The `TensorState` a `when_tensor` case names: its kind in `s[0]`, ranks in `l`, negate in `flag`.
fn tensor_state(c: &Case) -> TensorState {
    match c.s(0) {
        "null" => TensorState::Null,
        "present" => TensorState::Present,
        "empty" => TensorState::Empty,
        "not_empty" => TensorState::NotEmpty,
        _ => TensorState::Rank {
            ranks: c.l.iter().flatten().map(|r| *r as usize).collect(),
            negate: c.flag,
        },
    }
}
