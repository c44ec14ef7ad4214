//! A doc's example program (its 调用示例) as calls CANN documents as valid.
//!
//! The example is C++ against the real acl API, not the UT DSL: tensors come from
//! `aclCreateTensor` (usually through the doc's own `CreateAclTensor` helper, which returns the
//! tensor through its last, `&tensor`, argument), arrays from `aclCreateIntArray`/…, scalars
//! from `aclCreateScalar`. The program is run statement by statement from the start of the
//! function that makes the first-phase call; a statement the evaluator cannot read (device set-up,
//! `CHECK_RET(…; return ret)`, printing) is stepped over, since only the arguments of the call
//! matter and an argument that depends on it is named in the call's own skip reason.

use super::*;

/// The `aclnnXGetWorkspaceSize(...)` calls of one example program. `first_line` is the doc
/// line the program starts on, so calls are named by the doc's file:line.
pub fn read_example(src: &str, first_line: usize) -> FileRead {
    let mut toks = tokenize(src);
    for t in &mut toks {
        t.line += first_line.saturating_sub(1);
    }
    let (funcs, _) = scan(&toks);
    let globals = globals(src, &toks, &funcs);
    let mut out = FileRead::default();
    let mut callers: Vec<(&String, &FuncDef)> = funcs
        .iter()
        .filter(|(_, f)| makes_first_phase_call(&toks, f.body))
        .collect();
    callers.sort_by_key(|(_, f)| f.body);
    for (name, f) in callers {
        out.tests += 1;
        let mut it = Interp::new(&toks, &funcs, "example");
        it.example = true;
        it.scopes = vec![globals.clone(), BTreeMap::new()];
        it.macro_writes = macro_writes(src);
        if let Err(stop) = it.lenient_block(f.body) {
            out.unreadable.push(Unreadable {
                line: stop.line,
                test: name.clone(),
                reason: stop.reason,
            });
        }
        out.calls.extend(it.calls);
    }
    out
}

/// Whether the block at `body` calls an `aclnn…GetWorkspaceSize` function.
fn makes_first_phase_call(toks: &[Token], body: usize) -> bool {
    let end = matching(toks, body).unwrap_or(toks.len());
    (body..end).any(|k| {
        ident(toks, k).is_some_and(|n| is_first_phase(&n))
            && matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
    })
}

pub(super) fn is_first_phase(name: &str) -> bool {
    name.starts_with("aclnn") && name.ends_with("GetWorkspaceSize") && name.len() > 21
}

impl Interp<'_> {
    /// Runs the statements of the block at `body`, stepping over those it cannot evaluate.
    fn lenient_block(&mut self, body: usize) -> Res<()> {
        let Some(end) = matching(self.toks, body) else {
            return self.stop("unclosed function body");
        };
        self.pos = body + 1;
        while self.pos < end {
            let start = self.pos;
            match self.stmt() {
                Ok(Flow::Return(_)) => break,
                Ok(_) if self.pos > start => {}
                _ => {
                    self.pos = start;
                    let _ = self.skip_stmt();
                    self.pos = self.pos.max(start + 1);
                    self.forget_written(start, self.pos);
                }
            }
        }
        Ok(())
    }

    /// What a skipped statement (tokens `from..to`) may have written is no longer known: the
    /// variables it passes by address (`&x`) or assigns (`x = …`). A call that passes one then
    /// says so, instead of passing the value the variable had before (often `nullptr`).
    fn forget_written(&mut self, from: usize, to: usize) {
        let line = self.toks.get(from).map_or(0, |t| t.line);
        for k in from..to.min(self.toks.len()) {
            let Some(name) = ident(self.toks, k) else {
                continue;
            };
            let by_address = k > from && self.toks[k - 1].tok == Tok::Punct("&");
            let assigned = matches!(
                self.toks.get(k + 1).map(|t| &t.tok),
                Some(Tok::Punct("=" | "+=" | "-=" | "*=" | "/="))
            );
            if !(by_address || assigned) {
                continue;
            }
            self.set(
                &name,
                UtValue::Unknown(format!(
                    "{name}, set on line {line} by a statement not read"
                )),
            );
        }
    }

    /// A call of an example program the gtest evaluator does not model: an acl API call, or a
    /// helper that creates a tensor through its last argument.
    pub(super) fn example_call(
        &mut self,
        path: &[String],
        args: &[UtValue],
        open: usize,
        line: usize,
    ) -> Res<Option<UtValue>> {
        let name = path.last().map_or("", String::as_str);
        let passed = self.passed_variables(open);
        if let Some(v) = self.example_builtin(name, args, line)? {
            if is_first_phase(name) {
                self.note_passed(name, &passed, line);
            }
            return Ok(Some(v));
        }
        if let Some(f) = self.find_func(path) {
            if let Some(v) = self.example_helper(&f, args, open)? {
                return Ok(Some(v));
            }
        }
        // A function the reader does not model may write what it is passed by address
        // (`aclnnNpuFormatCastCalculateSizeAndFormat(…, &actualFormat)`); a macro, whatever it
        // is passed by name (`CREATE_TENSOR(hostData, shape, addr, ACL_INT8, x)`).
        let written = self.macro_writes.get(name).cloned().unwrap_or_default();
        for (position, v) in passed.into_iter().enumerate() {
            if let Some((var, by_address)) = v {
                if by_address || written.contains(&position) {
                    self.forget(&var, line);
                }
            }
        }
        Ok(None)
    }

    /// Notes, for the call just recorded, the earlier calls its variables were passed to, and
    /// for later calls, which variables this one was passed.
    fn note_passed(&mut self, api: &str, passed: &[Option<(String, bool)>], line: usize) {
        let before: Vec<Option<PassedTo>> = passed
            .iter()
            .map(|v| {
                v.as_ref()
                    .and_then(|(var, _)| self.passed_to.get(var).cloned())
            })
            .collect();
        if let Some(call) = self.calls.last_mut() {
            call.passed_before = before
                .into_iter()
                .map(|p| p.filter(|p| p.api != api))
                .collect();
        }
        for (position, v) in passed.iter().enumerate() {
            if let Some((var, _)) = v {
                self.passed_to.entry(var.clone()).or_insert(PassedTo {
                    api: api.to_string(),
                    position,
                    line,
                });
            }
        }
    }

    /// The variable each argument of a call at `open` passes (by name, or by address `&x`).
    fn passed_variables(&self, open: usize) -> Vec<Option<(String, bool)>> {
        let Some(close) = matching(self.toks, open) else {
            return Vec::new();
        };
        split_top(self.toks, open + 1, close)
            .iter()
            .map(|part| match part.as_slice() {
                [k] => ident(self.toks, *k).map(|n| (n, false)),
                [amp, k] if self.toks[*amp].tok == Tok::Punct("&") => {
                    ident(self.toks, *k).map(|n| (n, true))
                }
                _ => None,
            })
            .collect()
    }

    fn forget(&mut self, var: &str, line: usize) {
        self.set(
            var,
            UtValue::Unknown(format!("{var}, set on line {line} by a call not read")),
        );
    }

    /// Replaces a variable's value, wherever it is declared.
    fn set(&mut self, var: &str, v: UtValue) {
        if let Some(slot) = self.scopes.iter_mut().rev().find_map(|s| s.get_mut(var)) {
            *slot = v;
        }
    }

    /// The acl calls of an example, `Some(value)`, or `None` when `name` is none of them:
    /// `aclCreateTensor`, `aclCreateIntArray`/`FloatArray`/`BoolArray`, `aclCreateScalar`,
    /// `aclCreateTensorList`, and the first-phase call itself, recorded as expecting success.
    fn example_builtin(
        &mut self,
        name: &str,
        args: &[UtValue],
        line: usize,
    ) -> Res<Option<UtValue>> {
        // `aclCreateIntArray(&indexVal, 1)`: the address of one value is an array of it.
        let one = |args: &[UtValue]| match args {
            [v @ (UtValue::Int(..) | UtValue::Float(..) | UtValue::Bool(_)), n]
                if num(n) == Some(1.0) =>
            {
                Some(UtValue::list(vec![v.clone()]))
            }
            _ => None,
        };
        let first = one(args).or_else(|| args.first().cloned());
        let v = match name {
            "aclCreateTensor" => self.example_tensor(args, None)?,
            "aclCreateIntArray" => match first.as_ref().and_then(int_list) {
                Some(v) => UtValue::IntArray(take_len(v, args.get(1))),
                None => return self.stop("aclCreateIntArray of values it cannot read"),
            },
            "aclCreateFloatArray" => match first.as_ref() {
                Some(UtValue::List(items)) => UtValue::FloatArray(take_len(
                    items.iter().filter_map(num).collect(),
                    args.get(1),
                )),
                _ => return self.stop("aclCreateFloatArray of values it cannot read"),
            },
            "aclCreateBoolArray" => match first.as_ref() {
                Some(UtValue::List(items)) => UtValue::BoolArray(take_len(
                    items.iter().filter_map(truthy).collect(),
                    args.get(1),
                )),
                _ => return self.stop("aclCreateBoolArray of values it cannot read"),
            },
            "aclCreateScalar" => match args {
                [v, UtValue::DType(d)] => match num(v) {
                    Some(x) => UtValue::Scalar(d.clone(), x),
                    None => return self.stop(format!("aclCreateScalar of {}", describe(v))),
                },
                _ => return self.stop("aclCreateScalar with arguments it does not take"),
            },
            "aclCreateTensorList" => match args.first() {
                Some(UtValue::List(items)) => {
                    let ts: Option<Vec<UtTensor>> = items
                        .iter()
                        .map(|v| match v {
                            UtValue::Tensor(t) => Some((**t).clone()),
                            _ => None,
                        })
                        .collect();
                    match ts {
                        Some(ts) => UtValue::TensorList(take_len(ts, args.get(1))),
                        None => {
                            return self.stop("aclCreateTensorList of values that are not tensors")
                        }
                    }
                }
                _ => return self.stop("aclCreateTensorList of values it cannot read"),
            },
            n if is_first_phase(n) => {
                // The last two arguments are the workspace size and the executor.
                let inputs = args[..args.len().saturating_sub(2)].to_vec();
                self.calls.push(UtCall {
                    line,
                    test: "example".into(),
                    soc: DEFAULT_SOC.to_string(),
                    soc_switched: false,
                    ut: Rc::new(UtSpec {
                        api: n.trim_end_matches("GetWorkspaceSize").to_string(),
                        inputs,
                        outputs: Vec::new(),
                        extra: Vec::new(),
                        line,
                    }),
                    expected: Some((0, "ACLNN_SUCCESS".into())),
                    ne: false,
                    passed_before: Vec::new(),
                });
                UtValue::Status(0, "ACLNN_SUCCESS".into())
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// A tensor from the arguments of `aclCreateTensor` or of a helper that wraps it: the shape
    /// is the integer list passed for a parameter named like a shape (else the first integer
    /// list), the dtype and format the first of each passed; a helper that passes no format
    /// uses the format its own body names: ND when it names none, unknown when several (it
    /// picks one by rank or by argument, which the reader does not follow).
    fn example_tensor(&self, args: &[UtValue], helper: Option<&FuncDef>) -> Res<UtValue> {
        let shape_param = helper.and_then(|f| {
            f.params
                .iter()
                .position(|(n, _)| n.to_ascii_lowercase().contains("shape"))
        });
        let shape = match shape_param {
            Some(i) => args.get(i).and_then(int_list),
            None => args.iter().find_map(|v| match v {
                UtValue::List(_) => int_list(v),
                _ => None,
            }),
        };
        let Some(shape) = shape else {
            return self.stop("a tensor whose shape the example does not give as integers");
        };
        let Some(dtype) = args.iter().find_map(|v| match v {
            UtValue::DType(d) => Some(d.clone()),
            _ => None,
        }) else {
            return self.stop("a tensor whose dtype the example does not give");
        };
        let format = args
            .iter()
            .find_map(|v| match v {
                UtValue::Format(f) => Some(f.clone()),
                _ => None,
            })
            .or_else(|| helper.map(|f| self.format_in_body(f.body)))
            .unwrap_or(Ok(Format::Nd));
        Ok(UtValue::Tensor(Box::new(UtTensor {
            shape,
            dtype,
            format,
            strides: None,
        })))
    }

    /// The format a helper's body gives its tensors: the one `ACL_FORMAT_*` it names, ND
    /// when none, unknown when several.
    fn format_in_body(&self, body: usize) -> Result<Format, String> {
        let end = matching(self.toks, body).unwrap_or(body);
        let mut formats: Vec<Result<Format, String>> = Vec::new();
        for k in body..end {
            if let Some(UtValue::Format(f)) = ident(self.toks, k).and_then(|n| constant(&n)) {
                if !formats.contains(&f) {
                    formats.push(f);
                }
            }
        }
        match formats.as_slice() {
            [] => Ok(Format::Nd),
            [one] => one.clone(),
            _ => Err("one the helper chooses at run time".into()),
        }
    }

    /// A call of a helper defined in the example that passes `&name` and a dtype: the helper creates a tensor into `name` (the doc's
    /// `CreateAclTensor(hostData, shape, &deviceAddr, dtype, &tensor)`). Its body (device
    /// memory, strides) is not run.
    fn example_helper(
        &mut self,
        f: &FuncDef,
        args: &[UtValue],
        open: usize,
    ) -> Res<Option<UtValue>> {
        let Some(close) = matching(self.toks, open) else {
            return Ok(None);
        };
        let parts = split_top(self.toks, open + 1, close);
        // The tensor is the last argument passed by address (a format may follow it).
        let out = parts.iter().rev().find_map(|part| match part.as_slice() {
            [amp, name] if self.toks[*amp].tok == Tok::Punct("&") => ident(self.toks, *name),
            _ => None,
        });
        let Some(out) = out else {
            return Ok(None);
        };
        if !args.iter().any(|v| matches!(v, UtValue::DType(_))) {
            return Ok(None);
        }
        let tensor = self.example_tensor(args, Some(f))?;
        match self.scopes.iter_mut().rev().find_map(|s| s.get_mut(&out)) {
            Some(slot) => *slot = tensor,
            None => self.declare(out, tensor),
        }
        Ok(Some(UtValue::Int(0, NumberType::I32)))
    }
}

/// The first `len` items, when a length argument is given and shorter.
fn take_len<T>(mut v: Vec<T>, len: Option<&UtValue>) -> Vec<T> {
    if let Some(n) = len.and_then(num) {
        if n >= 0.0 && (n as usize) < v.len() {
            v.truncate(n as usize);
        }
    }
    v
}

/// The parameters (by position) each function-like `#define` of `src` writes: those its body
/// takes the address of (`&tensor`) or assigns (`tensor = …`).
fn macro_writes(src: &str) -> BTreeMap<String, Vec<usize>> {
    let joined = src.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out = BTreeMap::new();
    for c in MACRO_DEFINE.captures_iter(&joined) {
        let body = tokenize(&c[3]);
        let writes = |param: &str| {
            body.iter().enumerate().any(|(k, t)| {
                t.tok == Tok::Ident(param.to_string())
                    && ((k > 0 && body[k - 1].tok == Tok::Punct("&"))
                        || body.get(k + 1).is_some_and(|n| n.tok == Tok::Punct("=")))
            })
        };
        let written: Vec<usize> = c[2]
            .split(',')
            .map(str::trim)
            .enumerate()
            .filter(|(_, p)| writes(p))
            .map(|(i, _)| i)
            .collect();
        if !written.is_empty() {
            out.insert(c[1].to_string(), written);
        }
    }
    out
}

static MACRO_DEFINE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"(?m)^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\(([^)]*)\)(.*)$")
        .expect("macro definition pattern")
});

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"
#include "aclnnop/aclnn_foo.h"
#define CHECK_RET(cond, return_expr) \
  do { if (!(cond)) { return_expr; } } while (0)

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor) {
  auto size = GetShapeSize(shape) * sizeof(T);
  auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
  *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_NCHW,
                            shape.data(), shape.size(), *deviceAddr);
  return 0;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream;
  auto ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);
  std::vector<int64_t> selfShape = {2, 3, 4, 5};
  std::vector<int64_t> outShape = {2, 3, 1, 1};
  void* selfDeviceAddr = nullptr;
  aclTensor* self = nullptr;
  aclTensor* out = nullptr;
  std::vector<float> selfHostData(120, 1);
  std::vector<int64_t> dimData = {2, 3};
  float alphaValue = 1.5f;
  ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT16, &self);
  CHECK_RET(ret == ACL_SUCCESS, return ret);
  aclIntArray* dim = aclCreateIntArray(dimData.data(), dimData.size());
  aclScalar* alpha = aclCreateScalar(&alphaValue, aclDataType::ACL_FLOAT);
  ret = CreateAclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT16, &out);
  uint64_t workspaceSize = 0;
  aclOpExecutor* executor;
  ret = aclnnFooGetWorkspaceSize(self, dim, alpha, true, nullptr, out, &workspaceSize, &executor);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnFooGetWorkspaceSize failed. ERROR: %d\n", ret); return ret);
  return 0;
}
"#;

    #[test]
    fn an_example_program_becomes_a_call_expected_to_succeed() {
        let read = read_example(EXAMPLE, 100);
        assert_eq!(read.tests, 1);
        let [call] = read.calls.as_slice() else {
            panic!("one call expected: {:?}", read.calls);
        };
        assert_eq!(call.ut.api, "aclnnFoo");
        assert_eq!(call.expected, Some((0, "ACLNN_SUCCESS".into())));
        let src_line = EXAMPLE
            .lines()
            .position(|l| l.contains("ret = aclnnFooGetWorkspaceSize"))
            .unwrap();
        // Line 1 of the program is line 100 of the doc.
        assert_eq!(call.line, 100 + src_line, "named by the doc's line");
        let tensor = |shape: Vec<i64>| {
            UtValue::Tensor(Box::new(UtTensor {
                shape,
                dtype: Ok(DType::Float16),
                // The helper names NCHW in its body and takes no format.
                format: Ok(Format::Nchw),
                strides: None,
            }))
        };
        assert_eq!(
            call.ut.inputs,
            vec![
                tensor(vec![2, 3, 4, 5]),
                UtValue::IntArray(vec![2, 3]),
                UtValue::Scalar(Ok(DType::Float32), 1.5),
                UtValue::Bool(true),
                UtValue::Null,
                tensor(vec![2, 3, 1, 1]),
            ]
        );
    }

    #[test]
    fn the_address_of_one_value_is_an_array_of_it() {
        let src = "int main() {\n  int64_t indexVal = 2;\n  bool keep = true;\n  \
                   aclIntArray* index = aclCreateIntArray(&indexVal, 1);\n  \
                   aclBoolArray* mask = aclCreateBoolArray(&keep, 1);\n  \
                   aclIntArray* two = aclCreateIntArray(&indexVal, 2);\n  \
                   aclnnFooGetWorkspaceSize(index, mask, two, &ws, &ex);\n}\n";
        let read = read_example(src, 1);
        let [call] = read.calls.as_slice() else {
            panic!("one call expected: {:?}", read.calls);
        };
        assert_eq!(call.ut.inputs[0], UtValue::IntArray(vec![2]));
        assert_eq!(call.ut.inputs[1], UtValue::BoolArray(vec![true]));
        // Two elements from the address of one value: memory the reader does not see.
        assert_eq!(call.ut.inputs[2], UtValue::Unknown("two".into()));
    }

    #[test]
    fn the_address_of_an_element_is_the_list_from_there() {
        let src = "int main() {\n  bool maskData[3] = {true, false, true};\n  \
                   aclBoolArray* mask = aclCreateBoolArray(&(maskData[0]), 3);\n  \
                   aclBoolArray* tail = aclCreateBoolArray(&maskData[1], 2);\n  \
                   aclnnFooGetWorkspaceSize(mask, tail, &ws, &ex);\n}\n";
        let read = read_example(src, 1);
        let [call] = read.calls.as_slice() else {
            panic!("one call expected: {:?}", read.calls);
        };
        assert_eq!(
            call.ut.inputs,
            vec![
                UtValue::BoolArray(vec![true, false, true]),
                UtValue::BoolArray(vec![false, true]),
            ]
        );
    }

    #[test]
    fn a_tensor_the_example_does_not_shape_stops_the_example_by_line() {
        let src = "int main() {\n  aclTensor* t = aclCreateTensor(shapePtr, 4, ACL_FLOAT);\n  \
                   aclnnFooGetWorkspaceSize(t, &ws, &ex);\n}\n";
        let read = read_example(src, 1);
        // The statement that creates `t` is stepped over; the call still records `t`'s value.
        let [call] = read.calls.as_slice() else {
            panic!("one call expected: {:?}", read.calls);
        };
        assert_eq!(call.ut.inputs, vec![UtValue::Unknown("t".into())]);
    }

    #[test]
    fn a_macro_that_writes_its_argument_makes_it_unknown() {
        let src = "#define CREATE_TENSOR(hostData, shape, deviceAddr, dtype, tensor) \\\n  \
                   ret = CreateAclTensor(hostData, shape, &deviceAddr, dtype, &tensor); \\\n  \
                   CHECK_RET(ret == ACL_SUCCESS, return ret)\n\
                   int main() {\n  aclTensor* x = nullptr;\n  int64_t n = 3;\n  \
                   CREATE_TENSOR(data, shape, addr, ACL_INT8, x);\n  \
                   LOG_PRINT(\"%ld\", n);\n  \
                   aclnnFooGetWorkspaceSize(x, n, &ws, &ex);\n}\n";
        assert_eq!(
            macro_writes(src),
            BTreeMap::from([("CREATE_TENSOR".to_string(), vec![2, 4])])
        );
        let read = read_example(src, 1);
        let [call] = read.calls.as_slice() else {
            panic!("one call expected: {:?}", read.calls);
        };
        // `x` is what the macro made, not the `nullptr` it was declared with; `n`, only
        // printed, keeps its value.
        assert!(
            matches!(&call.ut.inputs[0], UtValue::Unknown(why) if why.contains("line 7")),
            "{:?}",
            call.ut.inputs
        );
        assert!(
            matches!(call.ut.inputs[1], UtValue::Int(3, _)),
            "{:?}",
            call.ut.inputs
        );
    }
}
