//! The evaluator's expressions: operators, names and calls, the op_api UT DSL's builders
//! (`TensorDesc`, `OP_API_UT`, ...), and method chains.

use super::*;

impl<'a> Interp<'a> {
    pub(super) fn expr(&mut self) -> Res<UtValue> {
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
                // In place: a copy of the list per element assignment made loops quadratic.
                let slot = match (self.get_mut(&name), num(&idx)) {
                    (Some(UtValue::List(items)), Some(k)) if k >= 0.0 => {
                        Rc::make_mut(items).get_mut(k as usize)
                    }
                    _ => None,
                };
                let Some(slot) = slot else {
                    return self.stop(format!("`{name}[…] =` outside the vector"));
                };
                *slot = convert_like(slot, v.clone());
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
                match self.get_mut(&name) {
                    Some(UtValue::List(items)) => Rc::make_mut(items).extend(args),
                    _ => return self.stop(format!("`{name}.push_back` on something not a vector")),
                }
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

    pub(super) fn ternary(&mut self) -> Res<UtValue> {
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

    pub(super) fn binary(&mut self, min_prec: u8) -> Res<UtValue> {
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

    pub(super) fn apply_binary(&self, op: &str, a: UtValue, b: UtValue) -> Res<UtValue> {
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

    pub(super) fn unary(&mut self) -> Res<UtValue> {
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
    pub(super) fn address_of_element(&mut self) -> Option<UtValue> {
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
        let rest = UtValue::list(
            items
                .iter()
                .skip(usize::try_from(*k).ok()?)
                .cloned()
                .collect(),
        );
        self.pos += 4 + 2 * paren;
        Some(rest)
    }

    pub(super) fn is_cast(&self) -> bool {
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

    pub(super) fn primary(&mut self) -> Res<UtValue> {
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
                Ok(UtValue::list(self.args("}")?))
            }
            Tok::Punct("[") => self.stop("lambdas are not read"),
            Tok::Ident(_) => self.name_expr(),
            Tok::Punct(p) => self.stop(format!("unexpected `{p}`")),
        }
    }

    /// Comma-separated expressions up to `close` (consumed).
    pub(super) fn args(&mut self, close: &str) -> Res<Vec<UtValue>> {
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
    pub(super) fn name_expr(&mut self) -> Res<UtValue> {
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
                UtValue::list(items),
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

    pub(super) fn template_follows(&self) -> bool {
        let close = self.template_close();
        close > self.pos
            && matches!(
                self.toks.get(close + 1).map(|t| &t.tok),
                Some(Tok::Punct("(" | "{" | "::"))
            )
    }

    pub(super) fn template_close(&self) -> usize {
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

    pub(super) fn find_func(&self, path: &[String]) -> Option<FuncDef> {
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

    pub(super) fn call_def(
        &mut self,
        f: &FuncDef,
        args: Vec<UtValue>,
        line: usize,
    ) -> Res<UtValue> {
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

    pub(super) fn op_api_ut(&mut self, line: usize) -> Res<UtValue> {
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

    pub(super) fn tuple(&mut self, macro_name: &str) -> Res<Vec<UtValue>> {
        match self.take_ident() {
            Some(m) if m == macro_name => {}
            Some(v) => {
                // A tuple held in a variable.
                return match self.get(&v) {
                    Some(UtValue::List(items)) => Ok(items.to_vec()),
                    _ => self.stop(format!("OP_API_UT with `{v}` instead of {macro_name}(...)")),
                };
            }
            None => return self.stop(format!("OP_API_UT without {macro_name}(...)")),
        }
        self.expect("(")?;
        self.args(")")
    }

    /// Calls of the DSL and of the framework: `Some(value)`, or `None` when `name` is not one.
    pub(super) fn builtin(&mut self, name: &str, args: Vec<UtValue>) -> Res<Option<UtValue>> {
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
            "make_tuple" | "INPUT" | "OUTPUT" => UtValue::list(args),
            "SetPlatformSocVersion" | "SocVersionManager" => {
                if let Some(UtValue::Soc(s)) = args.first() {
                    self.soc = s.clone();
                    self.soc_switched = true;
                }
                UtValue::Void
            }
            "GetCurrentPlatformInfo" => UtValue::Unknown("platform".into()),
            "vector" => UtValue::list(args),
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    pub(super) fn err(&self, reason: &str) -> Stop {
        Stop {
            line: self.line(),
            reason: reason.into(),
        }
    }

    pub(super) fn tensor_desc(&self, args: Vec<UtValue>) -> Res<UtTensor> {
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

    pub(super) fn tensor_list(&self, args: Vec<UtValue>) -> Res<Vec<UtTensor>> {
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

    pub(super) fn scalar_desc(&self, args: Vec<UtValue>) -> Res<UtValue> {
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
    pub(super) fn array(&self, args: Vec<UtValue>) -> Res<Vec<UtValue>> {
        match args.as_slice() {
            [UtValue::List(items)] => Ok(items.to_vec()),
            [UtValue::IntArray(v)] => Ok(v
                .iter()
                .map(|x| UtValue::Int(*x, NumberType::I64))
                .collect()),
            [UtValue::Int(n, _), v] => Ok(vec![v.clone(); (*n).clamp(0, 4096) as usize]),
            _ => self.stop("an array desc with arguments it does not take"),
        }
    }

    /// `.Method(...)`, `[i]` and `->` after a value.
    pub(super) fn postfix(&mut self, mut v: UtValue) -> Res<UtValue> {
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

    pub(super) fn method(
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
            (UtValue::IntArray(v), "Get") => UtValue::list(
                v.into_iter()
                    .map(|x| UtValue::Int(x, NumberType::I64))
                    .collect(),
            ),
            (UtValue::FloatArray(v), "Get") => UtValue::list(
                v.into_iter()
                    .map(|x| UtValue::Float(x, NumberType::F32))
                    .collect(),
            ),
            (UtValue::BoolArray(v), "Get") => {
                UtValue::list(v.into_iter().map(UtValue::Bool).collect())
            }
            (UtValue::IntArray(items), "size") => UtValue::Int(items.len() as i64, NumberType::U64),
            (UtValue::List(items), "push_back" | "emplace_back") => {
                // Mutation through a method: only for a plain variable, handled by the caller's name.
                let mut items = items;
                Rc::make_mut(&mut items).extend(args);
                UtValue::List(items)
            }
            (_, m) => UtValue::Unknown(m.to_string()),
        })
    }
}
