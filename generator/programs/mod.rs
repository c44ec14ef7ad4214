//! Reads CANN op_api gtests (`TEST_F` bodies written with the op_api_ut DSL) into calls.
//!
//! The test text is interpreted, not pattern-matched: a tokenizer (`lexer`) and a small
//! evaluator for the C++ subset the tests use — local variables, `vector` literals,
//! `TensorDesc(...)` and its `.ValueRange/.Value/.Precision/.ViewDims` chains, `ScalarDesc`
//! (whose dtype is the C type of its argument), `IntArrayDesc`/`BoolArrayDesc`/`FloatArrayDesc`,
//! `TensorListDesc`, `OP_API_UT(aclnnX, INPUT(...), OUTPUT(...))`, `if`/`for` (range and
//! counted), helper functions and fixture methods defined in the same file, SoC switches
//! (`SocVersionManager`, `SetPlatformSocVersion`, `GetCurrentPlatformInfo().GetSocVersion()`),
//! and `EXPECT_EQ(status, ACLNN_xxx)`. Whatever it cannot evaluate stops that test with a
//! reason and a line: the caller reports it, nothing is dropped silently.

mod lexer;

use aclnn_runtime::{DType, Format};
use lexer::{tokenize, Tok, Token};
use std::collections::BTreeMap;
use std::rc::Rc;

mod example;
mod expr;
mod interp;
mod value;

pub use example::read_example;
use interp::*;
pub use value::describe;
use value::*;

/// The SoC CANN's op_api UT framework runs on unless a test switches it.
pub const DEFAULT_SOC: &str = aclnn_runtime::Product::Ascend910b.info().ut_soc;

/// The C type of a number, which decides the dtype of a `ScalarDesc` made from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberType {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl UtValue {
    fn list(items: Vec<UtValue>) -> UtValue {
        UtValue::List(Rc::new(items))
    }
}

impl NumberType {
    fn dtype(self) -> DType {
        match self {
            NumberType::I8 => DType::Int8,
            NumberType::U8 => DType::UInt8,
            NumberType::I16 => DType::Int16,
            NumberType::U16 => DType::UInt16,
            NumberType::I32 => DType::Int32,
            NumberType::U32 => DType::UInt32,
            NumberType::I64 => DType::Int64,
            NumberType::U64 => DType::UInt64,
            NumberType::F32 => DType::Float32,
            NumberType::F64 => DType::Float64,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, NumberType::F32 | NumberType::F64)
    }
}

/// The C type named by a declaration or cast, as far as a value needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DeclType {
    NumberType(NumberType),
    Bool,
    Other,
}

fn ctype(name: &str) -> DeclType {
    match name {
        "int8_t" | "char" => DeclType::NumberType(NumberType::I8),
        "uint8_t" => DeclType::NumberType(NumberType::U8),
        "int16_t" | "short" => DeclType::NumberType(NumberType::I16),
        "uint16_t" => DeclType::NumberType(NumberType::U16),
        "int" | "int32_t" => DeclType::NumberType(NumberType::I32),
        "uint32_t" | "unsigned" => DeclType::NumberType(NumberType::U32),
        "int64_t" | "long" => DeclType::NumberType(NumberType::I64),
        "uint64_t" | "size_t" => DeclType::NumberType(NumberType::U64),
        "float" => DeclType::NumberType(NumberType::F32),
        "double" => DeclType::NumberType(NumberType::F64),
        "bool" => DeclType::Bool,
        _ => DeclType::Other,
    }
}

/// A tensor as a `TensorDesc` describes it. A dtype or format the runtime vocabulary lacks
/// (`ACL_FORMAT_NC1HWC0_C04`) is kept by name so the call can say why it cannot be checked.
#[derive(Debug, Clone, PartialEq)]
pub struct UtTensor {
    pub shape: Vec<i64>,
    pub dtype: Result<DType, String>,
    pub format: Result<Format, String>,
    pub strides: Option<Vec<i64>>,
}

/// A value of the test program.
#[derive(Debug, Clone, PartialEq)]
pub enum UtValue {
    Void,
    Int(i64, NumberType),
    Float(f64, NumberType),
    Bool(bool),
    Str(String),
    /// Shared: a value is copied on every read of its variable, and doc examples build vectors
    /// of thousands of elements (copy-on-write through `Rc::make_mut`).
    List(Rc<Vec<UtValue>>),
    DType(Result<DType, String>),
    Format(Result<Format, String>),
    Soc(String),
    /// An `ACLNN_*` / `ACL_SUCCESS` status constant.
    Status(u32, String),
    Tensor(Box<UtTensor>),
    TensorList(Vec<UtTensor>),
    Scalar(Result<DType, String>, f64),
    IntArray(Vec<i64>),
    FloatArray(Vec<f64>),
    BoolArray(Vec<bool>),
    Null,
    Ut(Rc<UtSpec>),
    /// The status of the recorded call with this index.
    Pending(usize),
    /// Something the evaluator does not model (an unknown function's result, `cout`): fine
    /// as long as no call argument or condition needs it.
    Unknown(String),
}

/// `OP_API_UT(api, INPUT(...), OUTPUT(...))`, its arguments captured by value as `make_tuple` does.
#[derive(Debug, Clone, PartialEq)]
pub struct UtSpec {
    pub api: String,
    pub inputs: Vec<UtValue>,
    pub outputs: Vec<UtValue>,
    /// Arguments after `OUTPUT(...)`: the framework passes them after the outputs
    /// (`OP_API_UT(aclnnMv, INPUT(self, vec), OUTPUT(out), cubeMathType)`).
    pub extra: Vec<UtValue>,
    pub line: usize,
}

/// One first-phase call a test makes and the status it expects.
#[derive(Debug, Clone)]
pub struct UtCall {
    pub line: usize,
    pub test: String,
    pub soc: String,
    /// False while the test runs on the build's default SoC (no switch seen).
    pub soc_switched: bool,
    pub ut: Rc<UtSpec>,
    /// `Some((code, name))` once an `EXPECT_EQ` names the status; `ne` when it is `EXPECT_NE`.
    pub expected: Option<(u32, String)>,
    pub ne: bool,
    /// In a doc's example, for each argument: the earlier first-phase call of another API its
    /// variable was passed to, which may have changed it in place (`aclnnTransMatmulWeight`
    /// turns a weight into FRACTAL_NZ). Empty for gtests.
    pub passed_before: Vec<Option<PassedTo>>,
}

/// An argument position of an earlier first-phase call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassedTo {
    pub api: String,
    /// The argument's position in that call.
    pub position: usize,
    pub line: usize,
}

/// A test (or the rest of one) the reader could not evaluate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub line: usize,
    pub test: String,
    pub reason: String,
}

#[derive(Debug, Default)]
pub struct FileRead {
    pub tests: usize,
    pub calls: Vec<UtCall>,
    pub unreadable: Vec<Unreadable>,
}

#[derive(Debug)]
struct Stop {
    line: usize,
    reason: String,
}

type Res<T> = Result<T, Stop>;

enum Flow {
    Normal,
    Break,
    Continue,
    Return(UtValue),
}

/// A function or method defined in the file: its parameters and where its body starts.
#[derive(Debug, Clone)]
struct FuncDef {
    params: Vec<(String, DeclType)>,
    body: usize,
}

struct TestDef {
    fixture: String,
    name: String,
    body: usize,
    line: usize,
}

/// Reads every `TEST_F`/`TEST` of one file.
pub fn read_file(src: &str) -> FileRead {
    let toks = tokenize(src);
    let (funcs, tests) = scan(&toks);
    let mut out = FileRead {
        tests: tests.len(),
        ..Default::default()
    };
    let globals = globals(src, &toks, &funcs);
    for t in &tests {
        let mut it = Interp::new(&toks, &funcs, &t.name);
        it.scopes = vec![globals.clone(), BTreeMap::new()];
        for hook in ["SetUpTestCase", "SetUpTestSuite", "SetUp"] {
            if let Some(f) = funcs.get(&format!("{}::{hook}", t.fixture)) {
                // A fixture's set-up only matters for its SoC switch; the rest may be anything.
                let _ = it.call_def(f, Vec::new(), t.line);
            }
        }
        let result = it.run_body(t.body);
        out.calls.extend(it.calls);
        if let Err(stop) = result {
            out.unreadable.push(Unreadable {
                line: stop.line,
                test: t.name.clone(),
                reason: stop.reason,
            });
        }
    }
    out
}

/// File-level (and class-level) constants: `enum`s, `static const int64_t X = 1;`, object-like
/// `#define X 1`. A declaration it cannot evaluate is left out (its uses then fail by name).
fn globals(
    src: &str,
    toks: &[Token],
    funcs: &BTreeMap<String, FuncDef>,
) -> BTreeMap<String, UtValue> {
    let mut it = Interp::new(toks, funcs, "");
    for line in src.lines() {
        let mut words = line.split_whitespace();
        if let (Some("#define"), Some(name), Some(value), None) =
            (words.next(), words.next(), words.next(), words.next())
        {
            let v = tokenize(value);
            if let [Token {
                tok: Tok::Int(x, _),
                ..
            }] = v.as_slice()
            {
                it.declare(name.to_string(), UtValue::Int(*x, NumberType::I32));
            } else if let [Token {
                tok: Tok::Float(x, f),
                ..
            }] = v.as_slice()
            {
                it.declare(
                    name.to_string(),
                    UtValue::Float(*x, if *f { NumberType::F32 } else { NumberType::F64 }),
                );
            }
        }
    }
    let mut i = 0;
    while i < toks.len() {
        i = it.global_item(i).max(i + 1);
    }
    it.scopes.into_iter().next().unwrap_or_default()
}

const KEYWORDS: &[&str] = &[
    "if", "for", "while", "switch", "return", "sizeof", "catch", "TEST_F", "TEST", "TEST_P",
];

/// Finds test bodies and function definitions (`name(...) {`, inside classes too).
fn scan(toks: &[Token]) -> (BTreeMap<String, FuncDef>, Vec<TestDef>) {
    let mut funcs = BTreeMap::new();
    let mut tests = Vec::new();
    let mut classes: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].tok {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                if classes.last().is_some_and(|(_, d)| *d > depth) {
                    classes.pop();
                }
            }
            Tok::Ident(k) if (k == "class" || k == "struct") => {
                if let Some(Tok::Ident(name)) = toks.get(i + 1).map(|t| &t.tok) {
                    // A class body (not a forward declaration or `class X var(...)`).
                    let mut j = i + 2;
                    while j < toks.len() && !matches!(toks[j].tok, Tok::Punct("{" | ";" | "(")) {
                        j += 1;
                    }
                    if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::Punct("{"))) {
                        classes.push((name.clone(), depth + 1));
                    }
                }
            }
            Tok::Ident(k) if (k == "TEST_F" || k == "TEST" || k == "TEST_P") => {
                if let Some((fixture, name, body)) = test_header(toks, i) {
                    tests.push(TestDef {
                        fixture,
                        name,
                        body,
                        line: toks[i].line,
                    });
                    i = matching(toks, body).unwrap_or(toks.len());
                    continue;
                }
            }
            Tok::Ident(name) if !KEYWORDS.contains(&name.as_str()) => {
                if let Some((params, body)) = func_header(toks, i) {
                    let key = match classes.last() {
                        Some((class, _)) => format!("{class}::{name}"),
                        None => qualified(toks, i),
                    };
                    funcs.insert(key, FuncDef { params, body });
                    i = matching(toks, body).unwrap_or(toks.len());
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (funcs, tests)
}

/// `enum [class|struct] [Name] [: type] {` (a definition), not `enum Name var = ...;`.
fn is_enum_def(toks: &[Token], i: usize) -> bool {
    toks[i..]
        .iter()
        .find(|t| !matches!(t.tok, Tok::Ident(_) | Tok::Punct(":" | "::")))
        .is_some_and(|t| t.tok == Tok::Punct("{"))
}

/// `X::name` for out-of-class definitions `void X::name(...)`, else `name`.
fn qualified(toks: &[Token], i: usize) -> String {
    let name = ident(toks, i).unwrap_or_default();
    if i >= 2 && matches!(toks[i - 1].tok, Tok::Punct("::")) {
        if let Some(class) = ident(toks, i - 2) {
            return format!("{class}::{name}");
        }
    }
    name
}

fn ident(toks: &[Token], i: usize) -> Option<String> {
    match toks.get(i).map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s.clone()),
        _ => None,
    }
}

fn test_header(toks: &[Token], i: usize) -> Option<(String, String, usize)> {
    if !matches!(toks.get(i + 1)?.tok, Tok::Punct("(")) {
        return None;
    }
    let close = matching(toks, i + 1)?;
    let fixture = ident(toks, i + 2)?;
    let name = ident(toks, close - 1)?;
    matches!(toks.get(close + 1)?.tok, Tok::Punct("{")).then_some((fixture, name, close + 1))
}

/// `type name(params) [const|override]* {`: the parameter names and C types, and the body.
fn func_header(toks: &[Token], i: usize) -> Option<(Vec<(String, DeclType)>, usize)> {
    if !matches!(toks.get(i + 1)?.tok, Tok::Punct("(")) || i == 0 {
        return None;
    }
    // Preceded by a type: an identifier (`void`, `int64_t`), `*`, `&`, `>` or `::` of a qualified name.
    match &toks[i - 1].tok {
        Tok::Ident(k) if k != "return" && k != "new" && k != "else" => {}
        Tok::Punct("*" | "&" | ">" | "::") => {}
        _ => return None,
    }
    let close = matching(toks, i + 1)?;
    let mut j = close + 1;
    while let Some(Tok::Ident(k)) = toks.get(j).map(|t| &t.tok) {
        if k == "const" || k == "override" || k == "noexcept" {
            j += 1;
        } else {
            return None;
        }
    }
    if !matches!(toks.get(j)?.tok, Tok::Punct("{")) {
        return None;
    }
    let mut params = Vec::new();
    for part in split_top(toks, i + 2, close) {
        if part.is_empty() {
            continue;
        }
        // The name is the last identifier before a default `=`; the type is the first known one.
        let end = part
            .iter()
            .position(|&k| matches!(toks[k].tok, Tok::Punct("=")))
            .unwrap_or(part.len());
        let name = part[..end].iter().rev().find_map(|&k| ident(toks, k))?;
        let ty = part[..end]
            .iter()
            .filter_map(|&k| ident(toks, k))
            .map(|s| ctype(&s))
            .find(|t| *t != DeclType::Other)
            .unwrap_or(DeclType::Other);
        if name == "void" {
            continue;
        }
        params.push((name, ty));
    }
    Some((params, j))
}

/// Token index lists of the comma-separated parts of `(open, close)`, at nesting depth 0.
fn split_top(toks: &[Token], from: usize, to: usize) -> Vec<Vec<usize>> {
    let mut parts = vec![Vec::new()];
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().take(to).skip(from) {
        match t.tok {
            Tok::Punct("(" | "{" | "[" | "<") => depth += 1,
            Tok::Punct(")" | "}" | "]" | ">") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                parts.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = parts.last_mut() {
            last.push(k);
        }
    }
    parts
}

/// The index of the bracket closing the one at `open`.
fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let (o, c) = match toks.get(open)?.tok {
        Tok::Punct("(") => ("(", ")"),
        Tok::Punct("{") => ("{", "}"),
        Tok::Punct("[") => ("[", "]"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if t.tok == Tok::Punct(o) {
            depth += 1;
        } else if t.tok == Tok::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> FileRead {
        read_file(&format!("class fx : public testing::Test {{}};\n{body}"))
    }

    #[test]
    fn reads_a_plain_test() {
        let r = read(
            r#"TEST_F(fx, a) {
                auto selfDesc = TensorDesc({2, 3}, ACL_FLOAT, ACL_FORMAT_ND).ValueRange(-2, 2);
                float alpha = 1;
                auto alphaDesc = ScalarDesc(alpha);
                auto outDesc = TensorDesc({2, 3}, ACL_FLOAT16, ACL_FORMAT_ND);
                auto ut = OP_API_UT(aclnnElu, INPUT(selfDesc, alphaDesc, nullptr), OUTPUT(outDesc));
                uint64_t workspaceSize = 0;
                aclnnStatus aclRet = ut.TestGetWorkspaceSize(&workspaceSize);
                EXPECT_EQ(aclRet, ACLNN_ERR_PARAM_INVALID);
            }"#,
        );
        assert_eq!(r.tests, 1);
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        let c = &r.calls[0];
        assert_eq!(c.ut.api, "aclnnElu");
        assert_eq!(c.expected.as_ref().unwrap().0, 161002);
        assert_eq!(c.soc, DEFAULT_SOC);
        assert_eq!(c.line, 10);
        let UtValue::Tensor(t) = &c.ut.inputs[0] else {
            panic!()
        };
        assert_eq!(t.shape, vec![2, 3]);
        assert_eq!(c.ut.inputs[1], UtValue::Scalar(Ok(DType::Float32), 1.0));
        assert_eq!(c.ut.inputs[2], UtValue::Null);
        let UtValue::Tensor(o) = &c.ut.outputs[0] else {
            panic!()
        };
        assert_eq!(o.dtype, Ok(DType::Float16));
    }

    #[test]
    fn string_arguments_keep_their_text() {
        let r = read(
            r#"TEST_F(fx, a) {
                const char* roundMode = "round";
                char fmt[] = "NCHW";
                std::string reduction = "mean";
                auto ut = OP_API_UT(aclnnFoo, INPUT(roundMode, fmt, "tanh", const_cast<char*>("rint"),
                    (char*)reduction.c_str()), OUTPUT());
                uint64_t workspaceSize = 0;
                EXPECT_EQ(ut.TestGetWorkspaceSize(&workspaceSize), ACLNN_SUCCESS);
            }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        let texts: Vec<UtValue> = ["round", "NCHW", "tanh", "rint", "mean"]
            .iter()
            .map(|s| UtValue::Str(s.to_string()))
            .collect();
        assert_eq!(r.calls[0].ut.inputs, texts);
    }

    #[test]
    fn loops_helpers_and_soc_switches() {
        let r = read(
            r#"static void run(vector<int64_t> dims, aclDataType dt, int64_t dim) {
                auto self = TensorDesc(dims, dt, ACL_FORMAT_ND);
                auto ut = OP_API_UT(aclnnFoo, INPUT(self, dim), OUTPUT());
                uint64_t ws = 0;
                EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
            }
            TEST_F(fx, b) {
                vector<aclDataType> list = {ACL_FLOAT, ACL_INT32};
                for (int i = 0; i < list.size(); i++) { run({1, 2}, list[i], i); }
                op::SocVersionManager vm(op::SocVersion::ASCEND950);
                for (auto d : list) {
                    if (GetCurrentPlatformInfo().GetSocVersion() == SocVersion::ASCEND950) {
                        run({3}, d, 1);
                    } else {
                        run({4}, d, 1);
                    }
                }
            }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        assert_eq!(r.calls.len(), 4);
        assert_eq!(r.calls[1].ut.inputs[1], UtValue::Int(1, NumberType::I64));
        assert_eq!(r.calls[2].soc, "ASCEND950");
        let UtValue::Tensor(t) = &r.calls[3].ut.inputs[0] else {
            panic!()
        };
        assert_eq!(
            (t.shape.clone(), t.dtype.clone()),
            (vec![3], Ok(DType::Int32))
        );
    }

    #[test]
    fn what_it_cannot_read_is_named_with_its_line() {
        let r = read("TEST_F(fx, c) {\n int x = 0;\n while (x < 3) { x++; }\n}");
        assert_eq!(r.unreadable.len(), 1);
        assert_eq!(r.unreadable[0].line, 4);
        assert!(r.unreadable[0].reason.contains("while"));
        let r = read("TEST_F(fx, d) {\n if (Mystery()) { }\n}");
        assert_eq!(r.unreadable[0].line, 3);
    }

    #[test]
    fn nested_initializers_and_array_getters() {
        let r = read(
            r#"TEST_F(fx, g) {
                vector<int64_t> out = {{300, 30}};
                auto pad = IntArrayDesc(vector<int64_t>{1, 2});
                int64_t h = pad.Get()[1] + 3;
                auto t = TensorDesc(out, ACL_FLOAT, ACL_FORMAT_ND);
                auto u = TensorDesc({h}, ACL_FLOAT, ACL_FORMAT_ND);
                auto ut = OP_API_UT(aclnnFoo, INPUT(t, u), OUTPUT());
                uint64_t w = 0;
                EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS);
            }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        let shapes: Vec<Vec<i64>> = r.calls[0]
            .ut
            .inputs
            .iter()
            .map(|v| match v {
                UtValue::Tensor(t) => t.shape.clone(),
                _ => Vec::new(),
            })
            .collect();
        assert_eq!(shapes, vec![vec![300, 30], vec![5]]);
    }

    #[test]
    fn fixture_setup_switches_the_soc() {
        let r = read_file(
            r#"class fx : public testing::Test {
                static void SetUpTestCase() { versionManager = std::make_unique<op::SocVersionManager>(op::SocVersion::ASCEND310P); }
            };
            TEST_F(fx, e) { auto ut = OP_API_UT(aclnnFoo, INPUT(), OUTPUT()); uint64_t w; EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_ERR_PARAM_NULLPTR); }"#,
        );
        assert_eq!(r.calls[0].soc, "ASCEND310P");
        assert_eq!(r.calls[0].expected.as_ref().unwrap().0, 161001);
    }

    #[test]
    fn damaged_input_never_panics() {
        for s in [
            "TEST_F(",
            "TEST_F(a, b) {",
            "TEST_F(a, b) { auto x = TensorDesc(",
            "TEST_F(a, b) { for (;;) {} }",
            "TEST_F(a, b) { x[1000] = 2; }",
            "void f() { f(); } TEST_F(a, b) { f(); }",
            "TEST_F(a, b) { auto v = vector<int64_t>{1,2}; v[5]; }",
        ] {
            let _ = read_file(s);
        }
    }

    /// The inputs of each recorded call.
    fn inputs(r: &FileRead) -> Vec<Vec<UtValue>> {
        r.calls.iter().map(|c| c.ut.inputs.clone()).collect()
    }

    #[test]
    fn enum_class_values_have_its_underlying_type() {
        let r = read(
            r#"enum class Mode : int64_t { Off = 3, On, Both = 7 };
            TEST_F(fx, e) {
                auto ut = OP_API_UT(aclnnFoo, INPUT(Mode::Off, Mode::On, Both), OUTPUT());
                uint64_t w = 0;
                EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS);
            }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        let i64s = |xs: &[i64]| -> Vec<UtValue> {
            xs.iter()
                .map(|&x| UtValue::Int(x, NumberType::I64))
                .collect()
        };
        assert_eq!(inputs(&r), vec![i64s(&[3, 4, 7])]);
    }

    #[test]
    fn an_enum_defined_in_a_test_and_a_cast_to_it() {
        let r = read(
            r#"TEST_F(fx, e) {
                enum Kind { A, B = 5, C };
                for (int i = 0; i < 2; i++) {
                    int64_t k = (enum Kind)i;
                    enum Kind c = C;
                    auto ut = OP_API_UT(aclnnFoo, INPUT(k, c, Kind::B), OUTPUT());
                    uint64_t w = 0;
                    EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS);
                }
            }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        let int = |x, n| UtValue::Int(x, n);
        let (i32_, i64_) = (NumberType::I32, NumberType::I64);
        assert_eq!(
            inputs(&r),
            vec![
                vec![int(0, i64_), int(6, i32_), int(5, i32_)],
                vec![int(1, i64_), int(6, i32_), int(5, i32_)],
            ]
        );
    }

    #[test]
    fn functions_see_file_level_constants() {
        let r = read_file(
            r#"namespace {
            constexpr int64_t kMode = 2;
            static const int kOther = kMode + 1;
            }
            class fx : public testing::Test {
            protected:
                void Run() {
                    auto ut = OP_API_UT(aclnnFoo, INPUT(kMode, kOther), OUTPUT());
                    uint64_t w = 0;
                    EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS);
                }
            };
            TEST_F(fx, k) { Run(); }"#,
        );
        assert!(r.unreadable.is_empty(), "{:?}", r.unreadable);
        assert_eq!(
            inputs(&r),
            vec![vec![
                UtValue::Int(2, NumberType::I64),
                UtValue::Int(3, NumberType::I32)
            ]]
        );
    }
}
