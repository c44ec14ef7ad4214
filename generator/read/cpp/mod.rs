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
pub use example::read_example;

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
    List(Vec<UtValue>),
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

/// Bounds that keep a runaway loop or recursion in a damaged file from hanging the reader.
const MAX_STEPS: usize = 200_000;
const MAX_DEPTH: usize = 32;

struct Interp<'a> {
    toks: &'a [Token],
    funcs: &'a BTreeMap<String, FuncDef>,
    pos: usize,
    scopes: Vec<BTreeMap<String, UtValue>>,
    soc: String,
    soc_switched: bool,
    test: String,
    calls: Vec<UtCall>,
    steps: usize,
    depth: usize,
    /// Reading a doc's example program (`example::read_example`), not a gtest.
    example: bool,
    /// In an example: the first-phase call each variable was first passed to.
    passed_to: BTreeMap<String, PassedTo>,
    /// In an example: the arguments (by position) each function-like macro writes.
    macro_writes: BTreeMap<String, Vec<usize>>,
}

impl<'a> Interp<'a> {
    fn new(toks: &'a [Token], funcs: &'a BTreeMap<String, FuncDef>, test: &str) -> Self {
        Interp {
            toks,
            funcs,
            pos: 0,
            scopes: vec![BTreeMap::new()],
            soc: DEFAULT_SOC.to_string(),
            soc_switched: false,
            test: test.to_string(),
            calls: Vec::new(),
            steps: 0,
            depth: 0,
            example: false,
            passed_to: BTreeMap::new(),
            macro_writes: BTreeMap::new(),
        }
    }

    /// One file-level item at `i`; returns where the next one starts.
    fn global_item(&mut self, i: usize) -> usize {
        let toks = self.toks;
        match &toks[i].tok {
            Tok::Ident(k) if k == "enum" && is_enum_def(toks, i) => return self.enum_decl(i),
            Tok::Ident(k) if matches!(k.as_str(), "public" | "private" | "protected") => {
                return i + 1
            }
            Tok::Punct(_) => return i + 1,
            _ => {}
        }
        // What comes first decides: `{` after `)` is a function body, after a class head a class body.
        let Some(stop) =
            (i..toks.len()).find(|&k| matches!(toks[k].tok, Tok::Punct(";" | "{" | "=")))
        else {
            return toks.len();
        };
        if toks[stop].tok == Tok::Punct("{") {
            let is_class = (i..stop).any(|k| {
                matches!(&toks[k].tok, Tok::Ident(w) if w == "class" || w == "struct" || w == "namespace")
            }) && !(i..stop).any(|k| toks[k].tok == Tok::Punct("("));
            return if is_class {
                stop + 1
            } else {
                matching(toks, stop).map_or(toks.len(), |e| e + 1)
            };
        }
        self.pos = i;
        match self.declaration() {
            Ok(Some(_)) => self.pos,
            _ => {
                self.pos = i;
                let _ = self.skip_statement();
                self.pos.max(i + 1)
            }
        }
    }

    /// `enum [class] Name [: type] { A [= v], B, ... };`: each enumerator is an integer of the
    /// fixed underlying type (`int` without one), counting on from the previous value.
    fn enum_decl(&mut self, i: usize) -> usize {
        let toks = self.toks;
        let Some(open) = (i..toks.len()).find(|&k| matches!(toks[k].tok, Tok::Punct("{" | ";")))
        else {
            return toks.len();
        };
        if toks[open].tok != Tok::Punct("{") {
            return open + 1;
        }
        let Some(close) = matching(toks, open) else {
            return toks.len();
        };
        let ty = match (i..open).find(|&k| toks[k].tok == Tok::Punct(":")) {
            Some(colon) => match ident(toks, open - 1).map(|t| ctype(&t)) {
                Some(DeclType::NumberType(n)) if colon + 1 < open => n,
                _ => NumberType::I32,
            },
            None => NumberType::I32,
        };
        let mut next = 0i64;
        for part in split_top(toks, open + 1, close) {
            let Some(name) = part.first().and_then(|&k| ident(toks, k)) else {
                continue;
            };
            if part.len() > 2 {
                self.pos = part[2];
                if let Ok(v) = self.expr() {
                    if let Some(x) = num(&v) {
                        next = x as i64;
                    }
                }
            }
            self.declare(name, UtValue::Int(next, ty));
            next += 1;
        }
        close + 1
    }

    fn run_body(&mut self, body: usize) -> Res<()> {
        self.pos = body;
        self.stmt().map(|_| ())
    }

    // ---- token helpers ----

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(0, |t| t.line)
    }

    fn stop<T>(&self, reason: impl Into<String>) -> Res<T> {
        Err(Stop {
            line: self.line(),
            reason: reason.into(),
        })
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(q)) if q == s)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Res<()> {
        if self.eat(p) {
            Ok(())
        } else {
            let got = match self.peek() {
                Some(t) => format!("{t:?}"),
                None => "end of file".into(),
            };
            self.stop(format!("expected `{p}`, found {got}"))
        }
    }

    fn take_ident(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Some(s.clone())
            }
            _ => None,
        }
    }

    fn tick(&mut self) -> Res<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return self.stop("evaluation step limit reached (a loop that does not end?)");
        }
        Ok(())
    }

    // ---- variables ----

    fn get(&self, name: &str) -> Option<&UtValue> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    fn declare(&mut self, name: String, v: UtValue) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, v);
        }
    }

    fn assign(&mut self, name: &str, v: UtValue) -> Res<()> {
        match self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name)) {
            Some(slot) => {
                *slot = convert_like(slot, v);
                Ok(())
            }
            None => self.stop(format!("assignment to unknown variable `{name}`")),
        }
    }

    // ---- statements ----

    fn stmt(&mut self) -> Res<Flow> {
        self.tick()?;
        let Some(tok) = self.peek() else {
            return self.stop("unexpected end of file");
        };
        match tok {
            Tok::Punct("{") => self.block(),
            Tok::Punct(";") => {
                self.pos += 1;
                Ok(Flow::Normal)
            }
            Tok::Ident(k) => match k.as_str() {
                "if" => self.if_stmt(),
                "for" => self.for_stmt(),
                "return" => {
                    self.pos += 1;
                    let v = if self.is(";") {
                        UtValue::Void
                    } else {
                        self.expr()?
                    };
                    self.expect(";")?;
                    Ok(Flow::Return(v))
                }
                "break" => {
                    self.pos += 1;
                    self.expect(";")?;
                    Ok(Flow::Break)
                }
                "continue" => {
                    self.pos += 1;
                    self.expect(";")?;
                    Ok(Flow::Continue)
                }
                "while" | "do" | "switch" | "goto" | "try" => {
                    self.stop(format!("`{k}` statements are not read"))
                }
                "enum" if is_enum_def(self.toks, self.pos) => {
                    self.pos = self.enum_decl(self.pos);
                    Ok(Flow::Normal)
                }
                "EXPECT_EQ" | "ASSERT_EQ" | "EXPECT_NE" | "ASSERT_NE" => self.expect_stmt(k),
                "cout" | "printf" | "EXPECT_TRUE" | "EXPECT_FALSE" | "ASSERT_TRUE"
                | "ASSERT_FALSE" | "EXPECT_GE" | "EXPECT_GT" | "EXPECT_LE" | "EXPECT_LT"
                | "EXPECT_FLOAT_EQ" | "EXPECT_NEAR" | "OP_LOGI" | "OP_LOGD" | "OP_LOGE" | "std"
                | "using" | "typedef"
                    if k != "std" || self.is_std_output() =>
                {
                    self.skip_statement()
                }
                _ => {
                    if let Some(flow) = self.declaration()? {
                        return Ok(flow);
                    }
                    self.expr()?;
                    self.expect(";")?;
                    Ok(Flow::Normal)
                }
            },
            _ => {
                self.expr()?;
                self.expect(";")?;
                Ok(Flow::Normal)
            }
        }
    }

    fn is_std_output(&self) -> bool {
        matches!(self.peek_at(2), Some(Tok::Ident(s)) if s == "cout" || s == "cerr" || s == "endl")
    }

    fn skip_statement(&mut self) -> Res<Flow> {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            self.pos += 1;
            match t {
                Tok::Punct("(" | "{" | "[") => depth += 1,
                Tok::Punct(")" | "}" | "]") => depth -= 1,
                Tok::Punct(";") if depth <= 0 => return Ok(Flow::Normal),
                _ => {}
            }
        }
        self.stop("unexpected end of file")
    }

    /// Skips one statement without evaluating it (the branch an `if` does not take).
    fn skip_stmt(&mut self) -> Res<()> {
        match self.peek() {
            Some(Tok::Punct("{")) => {
                let end = matching(self.toks, self.pos);
                match end {
                    Some(e) => {
                        self.pos = e + 1;
                        Ok(())
                    }
                    None => self.stop("unclosed `{`"),
                }
            }
            Some(Tok::Ident(k)) if k == "if" => {
                self.pos += 1;
                self.skip_parens()?;
                self.skip_stmt()?;
                if self.is_ident("else") {
                    self.pos += 1;
                    self.skip_stmt()?;
                }
                Ok(())
            }
            Some(Tok::Ident(k)) if k == "for" || k == "while" => {
                self.pos += 1;
                self.skip_parens()?;
                self.skip_stmt()
            }
            _ => self.skip_statement().map(|_| ()),
        }
    }

    fn skip_parens(&mut self) -> Res<()> {
        match matching(self.toks, self.pos) {
            Some(e) if self.is("(") => {
                self.pos = e + 1;
                Ok(())
            }
            _ => self.stop("expected `(`"),
        }
    }

    fn block(&mut self) -> Res<Flow> {
        self.expect("{")?;
        self.scopes.push(BTreeMap::new());
        let result = self.block_items();
        self.scopes.pop();
        result
    }

    fn block_items(&mut self) -> Res<Flow> {
        loop {
            if self.eat("}") {
                return Ok(Flow::Normal);
            }
            match self.stmt()? {
                Flow::Normal => {}
                other => {
                    // Leave the block: skip to its closing brace.
                    self.skip_rest_of_block()?;
                    return Ok(other);
                }
            }
        }
    }

    fn skip_rest_of_block(&mut self) -> Res<()> {
        let mut depth = 1i32;
        while let Some(t) = self.peek() {
            self.pos += 1;
            match t {
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        self.stop("unclosed `{`")
    }

    fn if_stmt(&mut self) -> Res<Flow> {
        self.pos += 1;
        self.expect("(")?;
        let line = self.line();
        let cond = self.expr()?;
        self.expect(")")?;
        let Some(taken) = truthy(&cond) else {
            return Err(Stop {
                line,
                reason: format!(
                    "an `if` condition that cannot be evaluated ({})",
                    describe(&cond)
                ),
            });
        };
        let flow = if taken {
            self.stmt()?
        } else {
            self.skip_stmt()?;
            Flow::Normal
        };
        if self.is_ident("else") {
            self.pos += 1;
            if taken {
                self.skip_stmt()?;
            } else {
                return self.stmt();
            }
        }
        Ok(flow)
    }

    fn for_stmt(&mut self) -> Res<Flow> {
        self.pos += 1;
        let open = self.pos;
        let Some(close) = matching(self.toks, open) else {
            return self.stop("expected `(` after `for`");
        };
        let colon = (open + 1..close).find(|&k| {
            self.toks[k].tok == Tok::Punct(":") && !matches!(self.toks[k - 1].tok, Tok::Punct("?"))
        });
        self.scopes.push(BTreeMap::new());
        let r = match colon {
            Some(c) => self.range_for(open, c, close),
            None => self.counted_for(open, close),
        };
        self.scopes.pop();
        r
    }

    fn range_for(&mut self, open: usize, colon: usize, close: usize) -> Res<Flow> {
        let Some(name) = (open + 1..colon).rev().find_map(|k| ident(self.toks, k)) else {
            return self.stop("range `for` without a variable");
        };
        self.pos = colon + 1;
        let range = self.expr()?;
        let items = match range {
            UtValue::List(v) => v,
            UtValue::IntArray(v) => v
                .into_iter()
                .map(|x| UtValue::Int(x, NumberType::I64))
                .collect(),
            other => return self.stop(format!("range `for` over {}", describe(&other))),
        };
        let body = close + 1;
        for item in items {
            self.declare(name.clone(), item);
            self.pos = body;
            match self.stmt()? {
                Flow::Break => break,
                Flow::Return(v) => return Ok(Flow::Return(v)),
                _ => {}
            }
        }
        self.pos = body;
        self.skip_stmt()?;
        Ok(Flow::Normal)
    }

    fn counted_for(&mut self, open: usize, close: usize) -> Res<Flow> {
        self.pos = open + 1;
        if !self.is(";") && self.declaration()?.is_none() {
            self.expr()?;
            self.expect(";")?;
        } else if self.is(";") {
            self.pos += 1;
        }
        let cond_at = self.pos;
        let Some(step_at) = (cond_at..close).find(|&k| self.toks[k].tok == Tok::Punct(";")) else {
            return self.stop("`for` without a condition");
        };
        let body = close + 1;
        loop {
            self.tick()?;
            self.pos = cond_at;
            if cond_at != step_at {
                let c = self.expr()?;
                match truthy(&c) {
                    Some(true) => {}
                    Some(false) => break,
                    None => return self.stop(format!("a `for` condition over {}", describe(&c))),
                }
            }
            self.pos = body;
            match self.stmt()? {
                Flow::Break => break,
                Flow::Return(v) => return Ok(Flow::Return(v)),
                _ => {}
            }
            self.pos = step_at + 1;
            if step_at + 1 != close {
                self.expr()?;
            }
        }
        self.pos = body;
        self.skip_stmt()?;
        Ok(Flow::Normal)
    }

    fn expect_stmt(&mut self, macro_name: &str) -> Res<Flow> {
        let line = self.line();
        self.pos += 1;
        self.expect("(")?;
        let a = self.expr()?;
        self.expect(",")?;
        let b = self.expr()?;
        self.expect(")")?;
        self.eat(";");
        let (id, status) = match (a, b) {
            (UtValue::Pending(id), UtValue::Status(c, n))
            | (UtValue::Status(c, n), UtValue::Pending(id)) => (id, (c, n)),
            (UtValue::Pending(_), other) | (other, UtValue::Pending(_)) => {
                return Err(Stop {
                    line,
                    reason: format!("a status compared with {}", describe(&other)),
                })
            }
            _ => return Ok(Flow::Normal),
        };
        if let Some(call) = self.calls.get_mut(id) {
            call.expected = Some(status);
            call.ne = macro_name.ends_with("_NE");
            call.line = line;
        }
        Ok(Flow::Normal)
    }

    /// A declaration `T a = x, b(y), c{z};` (returns `None`, position unchanged, when the
    /// statement is not one).
    fn declaration(&mut self) -> Res<Option<Flow>> {
        let start = self.pos;
        let Some(ty) = self.decl_type() else {
            self.pos = start;
            return Ok(None);
        };
        let is_decl = matches!(self.peek(), Some(Tok::Ident(_)))
            && matches!(
                self.peek_at(1),
                Some(Tok::Punct("=" | "(" | "{" | ";" | "," | "["))
            );
        if !is_decl {
            self.pos = start;
            return Ok(None);
        }
        loop {
            let name = self.take_ident().unwrap_or_default();
            if self.eat("[") {
                while !self.eat("]") {
                    if self.peek().is_none() {
                        return self.stop("unclosed `[`");
                    }
                    self.pos += 1;
                }
            }
            let v = if self.eat("=") {
                self.expr()?
            } else if self.is("(") {
                self.pos += 1;
                let args = self.args(")")?;
                self.construct(&ty, args)?
            } else if self.is("{") {
                self.expr()?
            } else {
                default_of(&ty)
            };
            let v = convert_to(&ty, v);
            self.declare(name, v);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";")?;
        Ok(Some(Flow::Normal))
    }

    /// A type at the position: qualifiers, a (qualified) name, template arguments, `*`/`&`.
    /// Returns the type's last name segment (`vector`, `int64_t`, `TensorDesc`).
    fn decl_type(&mut self) -> Option<String> {
        let mut name = None;
        loop {
            match self.peek()? {
                Tok::Ident(k)
                    if matches!(
                        k.as_str(),
                        "const"
                            | "static"
                            | "constexpr"
                            | "class"
                            | "struct"
                            | "enum"
                            | "unsigned"
                            | "signed"
                            | "volatile"
                    ) =>
                {
                    if k == "unsigned" {
                        name = Some("unsigned".to_string());
                    }
                    self.pos += 1;
                }
                _ => break,
            }
        }
        if let Some(Tok::Ident(n)) = self.peek() {
            self.pos += 1;
            name = Some(n.clone());
            while self.is("::") {
                self.pos += 1;
                name = Some(self.take_ident()?);
            }
            // `long long`, `unsigned int`, ...
            while let Some(Tok::Ident(n2)) = self.peek() {
                if matches!(n2.as_str(), "long" | "int" | "short" | "char") {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        if self.is("<") {
            let mut depth = 0i32;
            while let Some(t) = self.peek() {
                self.pos += 1;
                match t {
                    Tok::Punct("<") => depth += 1,
                    Tok::Punct(">") => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct(";" | "{" | "(") => return None,
                    _ => {}
                }
            }
        }
        while self.is("*") || self.is("&") || self.is("&&") || self.is_ident("const") {
            self.pos += 1;
        }
        name
    }

    /// `T x(args)`: constructors of the DSL types, SoC managers, `vector(n, v)`.
    fn construct(&mut self, ty: &str, args: Vec<UtValue>) -> Res<UtValue> {
        match ty {
            "SocVersionManager" => {
                if let Some(UtValue::Soc(s)) = args.first() {
                    self.soc = s.clone();
                    self.soc_switched = true;
                }
                Ok(UtValue::Void)
            }
            "vector" => Ok(match args.as_slice() {
                [UtValue::Int(n, _), v] => {
                    UtValue::List(vec![v.clone(); (*n).clamp(0, 4096) as usize])
                }
                [UtValue::Int(n, _)] => UtValue::List(vec![
                    UtValue::Int(0, NumberType::I64);
                    (*n).clamp(0, 4096) as usize
                ]),
                [one] => one.clone(),
                _ => UtValue::List(args),
            }),
            other => Ok(self
                .builtin(other, args.clone())?
                .unwrap_or_else(|| args.into_iter().next().unwrap_or(UtValue::Void))),
        }
    }

    // ---- expressions ----

    fn expr(&mut self) -> Res<UtValue> {
        self.tick()?;
        // Assignments: `x = e`, `x op= e`, `x[i] = e`, `x++`.
        if let (Some(Tok::Ident(name)), Some(Tok::Punct(op))) = (self.peek(), self.peek_at(1)) {
            if *op == "=" && self.get(name).is_none() {
                // A fixture member (`versionManager = make_unique<SocVersionManager>(...)`).
                let name = name.clone();
                self.pos += 2;
                let v = self.expr()?;
                self.declare(name, v.clone());
                return Ok(v);
            }
            if matches!(*op, "=" | "+=" | "-=" | "*=" | "/=") && self.get(name).is_some() {
                let name = name.clone();
                self.pos += 2;
                let rhs = self.expr()?;
                let v = match *op {
                    "=" => rhs,
                    _ => {
                        let cur = self.get(&name).cloned().unwrap_or(UtValue::Void);
                        arith(&op[..1], cur, rhs).unwrap_or(UtValue::Unknown("arith".into()))
                    }
                };
                self.assign(&name, v.clone())?;
                return Ok(v);
            }
            if matches!(*op, "++" | "--") && self.get(name).is_some() {
                let name = name.clone();
                self.pos += 2;
                let cur = self.get(&name).cloned().unwrap_or(UtValue::Void);
                let one = UtValue::Int(1, NumberType::I32);
                let v = arith(if *op == "++" { "+" } else { "-" }, cur, one)
                    .unwrap_or(UtValue::Unknown("arith".into()));
                self.assign(&name, v.clone())?;
                return Ok(v);
            }
        }
        // `v[i] = x` (`outputDims[dim] = index.size()`).
        if let (Some(Tok::Ident(name)), Some(Tok::Punct("["))) = (self.peek(), self.peek_at(1)) {
            let close = matching(self.toks, self.pos + 1);
            let assigns = close.is_some_and(|c| {
                matches!(self.toks.get(c + 1).map(|t| &t.tok), Some(Tok::Punct("=")))
            });
            if assigns && self.get(name).is_some() {
                let name = name.clone();
                self.pos += 2;
                let idx = self.expr()?;
                self.expect("]")?;
                self.expect("=")?;
                let v = self.expr()?;
                let mut list = self.get(&name).cloned().unwrap_or(UtValue::Void);
                let slot = match (&mut list, num(&idx)) {
                    (UtValue::List(items), Some(k)) if k >= 0.0 => items.get_mut(k as usize),
                    _ => None,
                };
                let Some(slot) = slot else {
                    return self.stop(format!("`{name}[…] =` outside the vector"));
                };
                *slot = convert_like(slot, v.clone());
                self.assign(&name, list)?;
                return Ok(v);
            }
        }
        // `v.push_back(x)` mutates the variable.
        if let (Some(Tok::Ident(name)), Some(Tok::Punct(".")), Some(Tok::Ident(m))) =
            (self.peek(), self.peek_at(1), self.peek_at(2))
        {
            if (m == "push_back" || m == "emplace_back") && self.get(name).is_some() {
                let name = name.clone();
                self.pos += 3;
                self.expect("(")?;
                let args = self.args(")")?;
                let v = match self.get(&name).cloned() {
                    Some(UtValue::List(mut items)) => {
                        items.extend(args);
                        UtValue::List(items)
                    }
                    _ => return self.stop(format!("`{name}.push_back` on something not a vector")),
                };
                self.assign(&name, v)?;
                return Ok(UtValue::Void);
            }
        }
        if self.is("++") || self.is("--") {
            let op = if self.is("++") { "+" } else { "-" };
            self.pos += 1;
            let Some(name) = self.take_ident() else {
                return self.stop("`++` of something that is not a variable");
            };
            let cur = self.get(&name).cloned().unwrap_or(UtValue::Void);
            let v = arith(op, cur, UtValue::Int(1, NumberType::I32))
                .unwrap_or(UtValue::Unknown("arith".into()));
            self.assign(&name, v.clone())?;
            return Ok(v);
        }
        self.ternary()
    }

    fn ternary(&mut self) -> Res<UtValue> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.expr()?;
        self.expect(":")?;
        let b = self.expr()?;
        match truthy(&c) {
            Some(true) => Ok(a),
            Some(false) => Ok(b),
            None => self.stop(format!("a `?:` condition over {}", describe(&c))),
        }
    }

    fn binary(&mut self, min_prec: u8) -> Res<UtValue> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Punct(op)) = self.peek() {
            let Some(prec) = precedence(op) else { break };
            if prec < min_prec {
                break;
            }
            self.pos += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = self.apply_binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn apply_binary(&self, op: &str, a: UtValue, b: UtValue) -> Res<UtValue> {
        match op {
            "&&" | "||" => match (truthy(&a), truthy(&b)) {
                (Some(x), Some(y)) => Ok(UtValue::Bool(if op == "&&" { x && y } else { x || y })),
                // `false && unknown` and `true || unknown` are still known.
                (Some(false), None) if op == "&&" => Ok(UtValue::Bool(false)),
                (None, Some(false)) if op == "&&" => Ok(UtValue::Bool(false)),
                (Some(true), None) | (None, Some(true)) if op == "||" => Ok(UtValue::Bool(true)),
                _ => Ok(UtValue::Unknown(format!(
                    "{} {op} {}",
                    describe(&a),
                    describe(&b)
                ))),
            },
            "==" | "!=" => Ok(match equal(&a, &b) {
                Some(eq) => UtValue::Bool(eq == (op == "==")),
                None => UtValue::Unknown(format!("{} {op} {}", describe(&a), describe(&b))),
            }),
            "<" | ">" | "<=" | ">=" => match (num(&a), num(&b)) {
                (Some(x), Some(y)) => Ok(UtValue::Bool(match op {
                    "<" => x < y,
                    ">" => x > y,
                    "<=" => x <= y,
                    _ => x >= y,
                })),
                _ => Ok(UtValue::Unknown(format!(
                    "{} {op} {}",
                    describe(&a),
                    describe(&b)
                ))),
            },
            "<<" => Ok(UtValue::Unknown("<<".into())),
            _ => Ok(arith(op, a, b).unwrap_or(UtValue::Unknown(format!("arithmetic `{op}`")))),
        }
    }

    fn unary(&mut self) -> Res<UtValue> {
        if self.eat("-") {
            let v = self.unary()?;
            return Ok(match v {
                UtValue::Int(x, t) => UtValue::Int(x.wrapping_neg(), t),
                UtValue::Float(x, t) => UtValue::Float(-x, t),
                other => UtValue::Unknown(format!("-{}", describe(&other))),
            });
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("!") {
            let v = self.unary()?;
            return Ok(match truthy(&v) {
                Some(b) => UtValue::Bool(!b),
                None => UtValue::Unknown(format!("!{}", describe(&v))),
            });
        }
        if self.eat("&") {
            if let Some(rest) = self.address_of_element() {
                return Ok(rest);
            }
            // `&workspaceSize`: the value itself is what the DSL calls take.
            return self.unary();
        }
        if self.eat("*") || self.eat("~") {
            return self.unary();
        }
        if self.is("(") && self.is_cast() {
            let close = matching(self.toks, self.pos).unwrap_or(self.pos);
            let ty = ident(self.toks, close - 1)
                .or_else(|| {
                    (self.pos + 1..close)
                        .rev()
                        .find_map(|k| ident(self.toks, k))
                })
                .unwrap_or_default();
            self.pos = close + 1;
            let v = self.unary()?;
            return Ok(convert_to(&ty, v));
        }
        let v = self.primary()?;
        self.postfix(v)
    }

    /// `(T)` or `(T*)` with a type name the tests cast to.
    /// `&(maskData[0])`, `&data[1]`: the address of a list's element is the list from there on
    /// (what `aclCreateBoolArray(&(maskData[0]), 3)` reads). `None` for any other operand.
    fn address_of_element(&mut self) -> Option<UtValue> {
        let paren = usize::from(self.is("("));
        let (
            Some(Tok::Ident(name)),
            Some(Tok::Punct("[")),
            Some(Tok::Int(k, _)),
            Some(Tok::Punct("]")),
        ) = (
            self.peek_at(paren),
            self.peek_at(paren + 1),
            self.peek_at(paren + 2),
            self.peek_at(paren + 3),
        )
        else {
            return None;
        };
        if paren == 1 && !matches!(self.peek_at(5), Some(Tok::Punct(")"))) {
            return None;
        }
        let Some(UtValue::List(items)) = self.get(name) else {
            return None;
        };
        let rest = UtValue::List(
            items
                .iter()
                .skip(usize::try_from(*k).ok()?)
                .cloned()
                .collect(),
        );
        self.pos += 4 + 2 * paren;
        Some(rest)
    }

    fn is_cast(&self) -> bool {
        let Some(close) = matching(self.toks, self.pos) else {
            return false;
        };
        let inner: Vec<&Tok> = self.toks[self.pos + 1..close]
            .iter()
            .map(|t| &t.tok)
            .collect();
        let Some(Tok::Ident(first)) = inner.iter().find(|t| matches!(t, Tok::Ident(_))) else {
            return false;
        };
        let is_type = ctype(first) != DeclType::Other
            || first.starts_with("acl")
            || matches!(first.as_str(), "const" | "void" | "unsigned" | "enum");
        is_type
            && inner
                .iter()
                .all(|t| matches!(t, Tok::Ident(_) | Tok::Punct("*" | "&" | "::")))
            && !matches!(
                self.toks.get(close + 1).map(|t| &t.tok),
                Some(Tok::Punct(")" | ";" | ","))
            )
    }

    fn primary(&mut self) -> Res<UtValue> {
        let Some(tok) = self.peek() else {
            return self.stop("unexpected end of file");
        };
        match tok {
            Tok::Int(v, long) => {
                self.pos += 1;
                Ok(UtValue::Int(
                    *v,
                    if *long {
                        NumberType::I64
                    } else {
                        NumberType::I32
                    },
                ))
            }
            Tok::Float(v, f32) => {
                self.pos += 1;
                Ok(UtValue::Float(
                    *v,
                    if *f32 {
                        NumberType::F32
                    } else {
                        NumberType::F64
                    },
                ))
            }
            Tok::Str(s) => {
                self.pos += 1;
                Ok(UtValue::Str(s.clone()))
            }
            Tok::Punct("(") => {
                self.pos += 1;
                let v = self.expr()?;
                self.expect(")")?;
                Ok(v)
            }
            Tok::Punct("{") => {
                self.pos += 1;
                Ok(UtValue::List(self.args("}")?))
            }
            Tok::Punct("[") => self.stop("lambdas are not read"),
            Tok::Ident(_) => self.name_expr(),
            Tok::Punct(p) => self.stop(format!("unexpected `{p}`")),
        }
    }

    /// Comma-separated expressions up to `close` (consumed).
    fn args(&mut self, close: &str) -> Res<Vec<UtValue>> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
            if self.eat(close) {
                return Ok(out);
            }
        }
    }

    /// An identifier, possibly qualified (`op::SocVersion::ASCEND950`, `std::vector<int64_t>`).
    fn name_expr(&mut self) -> Res<UtValue> {
        let line = self.line();
        let mut path = vec![self.take_ident().unwrap_or_default()];
        while self.is("::") {
            self.pos += 1;
            match self.take_ident() {
                Some(s) => path.push(s),
                None => return self.stop("`::` without a name"),
            }
        }
        let path: Vec<String> = path
            .into_iter()
            .skip_while(|s| matches!(s.as_str(), "op" | "std" | "ge" | "gert" | "testing"))
            .collect();
        let name = path.last().cloned().unwrap_or_default();
        if path.len() >= 2 && path[path.len() - 2] == "SocVersion" {
            return Ok(UtValue::Soc(name));
        }
        // Template arguments of a call (`vector<int64_t>{...}`, `static_cast<int64_t>(x)`).
        let mut targ = None;
        if self.is("<") && self.template_follows() {
            let close = self.template_close();
            targ = (self.pos + 1..close)
                .rev()
                .find_map(|k| ident(self.toks, k));
            self.pos = close + 1;
        }
        // Variables, and enumerators however qualified (`Reduction::None`).
        if !self.is("(") {
            if let Some(v) = self.get(&name) {
                return Ok(v.clone());
            }
        }
        if let Some(c) = constant(&name) {
            return Ok(c);
        }
        if name == "OP_API_UT" && self.is("(") {
            return self.op_api_ut(line);
        }
        if self.is("{") && (name == "vector" || targ.is_some()) {
            self.pos += 1;
            let items = self.args("}")?;
            return Ok(convert_to(
                targ.as_deref().unwrap_or(""),
                UtValue::List(items),
            ));
        }
        if !self.is("(") {
            return Ok(UtValue::Unknown(name));
        }
        let open = self.pos;
        self.pos += 1;
        let args = self.args(")")?;
        if self.example {
            if let Some(v) = self.example_call(&path, &args, open, line)? {
                return Ok(v);
            }
        }
        if matches!(
            name.as_str(),
            "static_cast" | "reinterpret_cast" | "const_cast"
        ) {
            let v = args.into_iter().next().unwrap_or(UtValue::Void);
            return Ok(convert_to(targ.as_deref().unwrap_or(""), v));
        }
        if name == "make_unique" || name == "make_shared" {
            let ty = targ.unwrap_or_default();
            return self.construct(&ty, args);
        }
        if let Some(v) = self.builtin(&name, args.clone())? {
            return Ok(v);
        }
        if let Some(f) = self.find_func(&path) {
            return self.call_def(&f, args, line);
        }
        Ok(UtValue::Unknown(name))
    }

    fn template_follows(&self) -> bool {
        let close = self.template_close();
        close > self.pos
            && matches!(
                self.toks.get(close + 1).map(|t| &t.tok),
                Some(Tok::Punct("(" | "{" | "::"))
            )
    }

    fn template_close(&self) -> usize {
        let mut depth = 0i32;
        for k in self.pos..self.toks.len().min(self.pos + 64) {
            match self.toks[k].tok {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") => {
                    depth -= 1;
                    if depth == 0 {
                        return k;
                    }
                }
                Tok::Punct(";" | "{" | "(" | ")" | "&&" | "||") => return self.pos,
                _ => {}
            }
        }
        self.pos
    }

    fn find_func(&self, path: &[String]) -> Option<FuncDef> {
        let name = path.join("::");
        if let Some(f) = self.funcs.get(&name) {
            return Some(f.clone());
        }
        // A fixture method called from a test of that fixture (any class: names are unique in practice).
        let suffix = format!("::{name}");
        self.funcs
            .iter()
            .find(|(k, _)| k.ends_with(&suffix))
            .map(|(_, f)| f.clone())
    }

    fn call_def(&mut self, f: &FuncDef, args: Vec<UtValue>, line: usize) -> Res<UtValue> {
        if self.depth >= MAX_DEPTH {
            return Err(Stop {
                line,
                reason: "helper functions nested too deep".into(),
            });
        }
        let saved_pos = self.pos;
        // A function sees the file's names (`constexpr int64_t kX = 1;`), not its caller's locals.
        let file = self
            .scopes
            .first_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        let mut saved_scopes = std::mem::replace(&mut self.scopes, vec![file, BTreeMap::new()]);
        for ((name, ty), v) in f.params.iter().zip(args) {
            let v = match ty {
                DeclType::NumberType(n) => to_num(*n, v),
                DeclType::Bool => truthy(&v).map_or(v, UtValue::Bool),
                DeclType::Other => v,
            };
            self.declare(name.clone(), v);
        }
        self.depth += 1;
        self.pos = f.body;
        let r = self.stmt();
        self.depth -= 1;
        if let (Some(slot), Some(file)) = (saved_scopes.first_mut(), self.scopes.drain(..).next()) {
            *slot = file;
        }
        self.scopes = saved_scopes;
        self.pos = saved_pos;
        match r? {
            Flow::Return(v) => Ok(v),
            _ => Ok(UtValue::Void),
        }
    }

    fn op_api_ut(&mut self, line: usize) -> Res<UtValue> {
        self.expect("(")?;
        let Some(api) = self.take_ident() else {
            return self.stop("OP_API_UT without an aclnn function name");
        };
        self.expect(",")?;
        let inputs = self.tuple("INPUT")?;
        let mut outputs = Vec::new();
        if self.eat(",") {
            outputs = self.tuple("OUTPUT")?;
        }
        let mut extra = Vec::new();
        while self.eat(",") {
            extra.push(self.expr()?);
        }
        self.expect(")")?;
        Ok(UtValue::Ut(Rc::new(UtSpec {
            api,
            inputs,
            outputs,
            extra,
            line,
        })))
    }

    fn tuple(&mut self, macro_name: &str) -> Res<Vec<UtValue>> {
        match self.take_ident() {
            Some(m) if m == macro_name => {}
            Some(v) => {
                // A tuple held in a variable.
                return match self.get(&v) {
                    Some(UtValue::List(items)) => Ok(items.clone()),
                    _ => self.stop(format!("OP_API_UT with `{v}` instead of {macro_name}(...)")),
                };
            }
            None => return self.stop(format!("OP_API_UT without {macro_name}(...)")),
        }
        self.expect("(")?;
        self.args(")")
    }

    /// Calls of the DSL and of the framework: `Some(value)`, or `None` when `name` is not one.
    fn builtin(&mut self, name: &str, args: Vec<UtValue>) -> Res<Option<UtValue>> {
        let v = match name {
            "TensorDesc" => UtValue::Tensor(Box::new(self.tensor_desc(args)?)),
            "TensorListDesc" => UtValue::TensorList(self.tensor_list(args)?),
            "ScalarDesc" => self.scalar_desc(args)?,
            "IntArrayDesc" => UtValue::IntArray(
                self.array(args)?
                    .iter()
                    .map(|v| num(v).map(|x| x as i64))
                    .collect::<Option<_>>()
                    .ok_or_else(|| self.err("IntArrayDesc of non-integers"))?,
            ),
            "FloatArrayDesc" => UtValue::FloatArray(
                self.array(args)?
                    .iter()
                    .map(num)
                    .collect::<Option<_>>()
                    .ok_or_else(|| self.err("FloatArrayDesc of non-numbers"))?,
            ),
            "BoolArrayDesc" => UtValue::BoolArray(
                self.array(args)?
                    .iter()
                    .map(truthy)
                    .collect::<Option<_>>()
                    .ok_or_else(|| self.err("BoolArrayDesc of non-booleans"))?,
            ),
            "make_tuple" | "INPUT" | "OUTPUT" => UtValue::List(args),
            "SetPlatformSocVersion" | "SocVersionManager" => {
                if let Some(UtValue::Soc(s)) = args.first() {
                    self.soc = s.clone();
                    self.soc_switched = true;
                }
                UtValue::Void
            }
            "GetCurrentPlatformInfo" => UtValue::Unknown("platform".into()),
            "vector" => UtValue::List(args),
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    fn err(&self, reason: &str) -> Stop {
        Stop {
            line: self.line(),
            reason: reason.into(),
        }
    }

    fn tensor_desc(&self, args: Vec<UtValue>) -> Res<UtTensor> {
        if let [UtValue::Tensor(t)] = args.as_slice() {
            return Ok((**t).clone());
        }
        let mut it = args.into_iter();
        let shape = match it.next() {
            None => vec![1, 1, 16, 16],
            Some(v) => int_list(&v)
                .ok_or_else(|| self.err(&format!("TensorDesc with shape {}", describe(&v))))?,
        };
        let dtype = match it.next() {
            None => Ok(DType::Float32),
            Some(UtValue::DType(d)) => d,
            Some(other) => return self.stop(format!("TensorDesc with dtype {}", describe(&other))),
        };
        let format = match it.next() {
            None => Ok(Format::Nchw),
            Some(UtValue::Format(f)) => f,
            Some(other) => {
                return self.stop(format!("TensorDesc with format {}", describe(&other)))
            }
        };
        let strides = match it.next() {
            Some(v) => Some(
                int_list(&v)
                    .ok_or_else(|| self.err("TensorDesc with strides that are not integers"))?,
            )
            .filter(|s| !s.is_empty()),
            None => None,
        };
        Ok(UtTensor {
            shape,
            dtype,
            format,
            strides,
        })
    }

    fn tensor_list(&self, args: Vec<UtValue>) -> Res<Vec<UtTensor>> {
        let tensor = |v: &UtValue| match v {
            UtValue::Tensor(t) => Some((**t).clone()),
            _ => None,
        };
        match args.as_slice() {
            [UtValue::List(items)] => items
                .iter()
                .map(tensor)
                .collect::<Option<_>>()
                .ok_or_else(|| self.err("TensorListDesc of non-tensors")),
            [UtValue::Int(n, _), t] => {
                let t = tensor(t).ok_or_else(|| self.err("TensorListDesc of a non-tensor"))?;
                Ok(vec![t; (*n).clamp(0, 4096) as usize])
            }
            _ => self.stop("TensorListDesc with arguments it does not take"),
        }
    }

    fn scalar_desc(&self, args: Vec<UtValue>) -> Res<UtValue> {
        match args.as_slice() {
            [UtValue::Bool(b)] => Ok(UtValue::Scalar(Ok(DType::Bool), f64::from(u8::from(*b)))),
            [UtValue::Int(v, n)] => Ok(UtValue::Scalar(Ok(n.dtype()), *v as f64)),
            [UtValue::Float(v, n)] => Ok(UtValue::Scalar(Ok(n.dtype()), *v)),
            [v, UtValue::DType(d)] => match num(v) {
                Some(x) => Ok(UtValue::Scalar(d.clone(), x)),
                None => self.stop(format!("ScalarDesc of {}", describe(v))),
            },
            [] => Ok(UtValue::Scalar(Ok(DType::Bool), 0.0)),
            _ => self.stop("ScalarDesc with arguments it does not take"),
        }
    }

    /// The elements of `XArrayDesc(vector)` or `XArrayDesc(n, v)`.
    fn array(&self, args: Vec<UtValue>) -> Res<Vec<UtValue>> {
        match args.as_slice() {
            [UtValue::List(items)] => Ok(items.clone()),
            [UtValue::IntArray(v)] => Ok(v
                .iter()
                .map(|x| UtValue::Int(*x, NumberType::I64))
                .collect()),
            [UtValue::Int(n, _), v] => Ok(vec![v.clone(); (*n).clamp(0, 4096) as usize]),
            _ => self.stop("an array desc with arguments it does not take"),
        }
    }

    /// `.Method(...)`, `[i]` and `->` after a value.
    fn postfix(&mut self, mut v: UtValue) -> Res<UtValue> {
        loop {
            if self.eat("[") {
                let i = self.expr()?;
                self.expect("]")?;
                v = match (&v, num(&i)) {
                    (UtValue::List(items), Some(k)) if k >= 0.0 && (k as usize) < items.len() => {
                        items[k as usize].clone()
                    }
                    (UtValue::List(_), _) => return self.stop("index out of range"),
                    _ => UtValue::Unknown(format!("{}[]", describe(&v))),
                };
                continue;
            }
            if !(self.eat(".") || self.eat("->")) {
                return Ok(v);
            }
            let line = self.line();
            let Some(method) = self.take_ident() else {
                return self.stop("`.` without a member name");
            };
            if !self.is("(") {
                v = UtValue::Unknown(method);
                continue;
            }
            self.pos += 1;
            let args = self.args(")")?;
            v = self.method(v, &method, args, line)?;
        }
    }

    fn method(
        &mut self,
        v: UtValue,
        method: &str,
        args: Vec<UtValue>,
        line: usize,
    ) -> Res<UtValue> {
        Ok(match (v, method) {
            (UtValue::Tensor(mut t), "ViewDims") => {
                if let Some(s) = args.first().and_then(int_list) {
                    t.shape = s;
                }
                UtValue::Tensor(t)
            }
            (UtValue::Tensor(mut t), "Format") => {
                if let Some(UtValue::Format(f)) = args.first() {
                    t.format = f.clone();
                }
                UtValue::Tensor(t)
            }
            (v @ UtValue::Tensor(_), _) => v,
            (UtValue::Ut(ut), m) if m.starts_with("TestGetWorkspaceSize") => {
                self.calls.push(UtCall {
                    line,
                    test: self.test.clone(),
                    soc: self.soc.clone(),
                    soc_switched: self.soc_switched,
                    ut,
                    expected: None,
                    ne: false,
                    passed_before: Vec::new(),
                });
                UtValue::Pending(self.calls.len() - 1)
            }
            (UtValue::Unknown(p), "GetSocVersion") if p == "platform" => {
                UtValue::Soc(self.soc.clone())
            }
            (UtValue::List(items), "size") => UtValue::Int(items.len() as i64, NumberType::U64),
            // `std::string mode = "mean"; mode.c_str()`: the text.
            (UtValue::Str(s), "c_str" | "data") => UtValue::Str(s),
            // `shape.data()` in an example program: the elements.
            (v @ UtValue::List(_), "data") => v,
            // `IntArrayDesc(...).Get()`: the vector it holds.
            (UtValue::IntArray(v), "Get") => UtValue::List(
                v.into_iter()
                    .map(|x| UtValue::Int(x, NumberType::I64))
                    .collect(),
            ),
            (UtValue::FloatArray(v), "Get") => UtValue::List(
                v.into_iter()
                    .map(|x| UtValue::Float(x, NumberType::F32))
                    .collect(),
            ),
            (UtValue::BoolArray(v), "Get") => {
                UtValue::List(v.into_iter().map(UtValue::Bool).collect())
            }
            (UtValue::IntArray(items), "size") => UtValue::Int(items.len() as i64, NumberType::U64),
            (UtValue::List(items), "push_back" | "emplace_back") => {
                // Mutation through a method: only for a plain variable, handled by the caller's name.
                let mut items = items;
                items.extend(args);
                UtValue::List(items)
            }
            (_, m) => UtValue::Unknown(m.to_string()),
        })
    }
}

fn precedence(op: &str) -> Option<u8> {
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

fn num(v: &UtValue) -> Option<f64> {
    match v {
        UtValue::Int(x, _) => Some(*x as f64),
        UtValue::Float(x, _) => Some(*x),
        UtValue::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn truthy(v: &UtValue) -> Option<bool> {
    match v {
        UtValue::Bool(b) => Some(*b),
        UtValue::Int(x, _) => Some(*x != 0),
        UtValue::Float(x, _) => Some(*x != 0.0),
        UtValue::Null => Some(false),
        _ => None,
    }
}

fn equal(a: &UtValue, b: &UtValue) -> Option<bool> {
    match (a, b) {
        (UtValue::Soc(x), UtValue::Soc(y)) => Some(x == y),
        (UtValue::DType(x), UtValue::DType(y)) => Some(x == y),
        (UtValue::Format(x), UtValue::Format(y)) => Some(x == y),
        (UtValue::Status(x, _), UtValue::Status(y, _)) => Some(x == y),
        (UtValue::Str(x), UtValue::Str(y)) => Some(x == y),
        _ => Some(num(a)? == num(b)?),
    }
}

fn arith(op: &str, a: UtValue, b: UtValue) -> Option<UtValue> {
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

fn int_list(v: &UtValue) -> Option<Vec<i64>> {
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

fn to_num(n: NumberType, v: UtValue) -> UtValue {
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
fn convert_to(ty: &str, v: UtValue) -> UtValue {
    match (ctype(ty), v) {
        (DeclType::NumberType(n), UtValue::List(items)) => {
            UtValue::List(items.into_iter().map(|x| to_num(n, x)).collect())
        }
        (DeclType::NumberType(n), v) => to_num(n, v),
        (DeclType::Bool, v) => truthy(&v).map_or(v, UtValue::Bool),
        (DeclType::Other, v) => v,
    }
}

/// An assignment keeps the variable's C type (`float alpha; alpha = 2;` stays a float).
fn convert_like(old: &UtValue, v: UtValue) -> UtValue {
    match old {
        UtValue::Int(_, n) | UtValue::Float(_, n) => to_num(*n, v),
        UtValue::Bool(_) => truthy(&v).map_or(v, UtValue::Bool),
        _ => v,
    }
}

fn default_of(ty: &str) -> UtValue {
    match ctype(ty) {
        DeclType::NumberType(n) => to_num(n, UtValue::Int(0, n)),
        DeclType::Bool => UtValue::Bool(false),
        DeclType::Other if ty == "vector" => UtValue::List(Vec::new()),
        DeclType::Other => UtValue::Unknown(ty.to_string()),
    }
}

/// `ACL_FLOAT`, `ACL_FORMAT_ND`, `ACLNN_SUCCESS`, `nullptr`, `true`...
fn constant(name: &str) -> Option<UtValue> {
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
