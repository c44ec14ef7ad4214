//! The evaluator of a test's or an example's statements: the interpreter's state, its token
//! and variable helpers, and the statements (blocks, `if`, `for`, declarations).

use super::*;

/// Bounds that keep a runaway loop or recursion in a damaged file from hanging the reader.
pub(super) const MAX_STEPS: usize = 200_000;
pub(super) const MAX_DEPTH: usize = 32;

pub(super) struct Interp<'a> {
    pub(super) toks: &'a [Token],
    pub(super) funcs: &'a BTreeMap<String, FuncDef>,
    pub(super) pos: usize,
    pub(super) scopes: Vec<BTreeMap<String, UtValue>>,
    pub(super) soc: String,
    pub(super) soc_switched: bool,
    pub(super) test: String,
    pub(super) calls: Vec<UtCall>,
    pub(super) steps: usize,
    pub(super) depth: usize,
    /// Reading a doc's example program (`example::read_example`), not a gtest.
    pub(super) example: bool,
    /// In an example: the first-phase call each variable was first passed to.
    pub(super) passed_to: BTreeMap<String, PassedTo>,
    /// In an example: the arguments (by position) each function-like macro writes.
    pub(super) macro_writes: BTreeMap<String, Vec<usize>>,
}

impl<'a> Interp<'a> {
    pub(super) fn new(toks: &'a [Token], funcs: &'a BTreeMap<String, FuncDef>, test: &str) -> Self {
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
    pub(super) fn global_item(&mut self, i: usize) -> usize {
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
    pub(super) fn enum_decl(&mut self, i: usize) -> usize {
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

    pub(super) fn run_body(&mut self, body: usize) -> Res<()> {
        self.pos = body;
        self.stmt().map(|_| ())
    }

    // ---- token helpers ----

    pub(super) fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    pub(super) fn peek_at(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    pub(super) fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(0, |t| t.line)
    }

    pub(super) fn stop<T>(&self, reason: impl Into<String>) -> Res<T> {
        Err(Stop {
            line: self.line(),
            reason: reason.into(),
        })
    }

    pub(super) fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    pub(super) fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(q)) if q == s)
    }

    pub(super) fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, p: &str) -> Res<()> {
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

    pub(super) fn take_ident(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Some(s.clone())
            }
            _ => None,
        }
    }

    pub(super) fn tick(&mut self) -> Res<()> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return self.stop("evaluation step limit reached (a loop that does not end?)");
        }
        Ok(())
    }

    // ---- variables ----

    pub(super) fn get(&self, name: &str) -> Option<&UtValue> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub(super) fn get_mut(&mut self, name: &str) -> Option<&mut UtValue> {
        self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name))
    }

    pub(super) fn declare(&mut self, name: String, v: UtValue) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, v);
        }
    }

    pub(super) fn assign(&mut self, name: &str, v: UtValue) -> Res<()> {
        match self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name)) {
            Some(slot) => {
                *slot = convert_like(slot, v);
                Ok(())
            }
            None => self.stop(format!("assignment to unknown variable `{name}`")),
        }
    }

    // ---- statements ----

    pub(super) fn stmt(&mut self) -> Res<Flow> {
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

    pub(super) fn is_std_output(&self) -> bool {
        matches!(self.peek_at(2), Some(Tok::Ident(s)) if s == "cout" || s == "cerr" || s == "endl")
    }

    pub(super) fn skip_statement(&mut self) -> Res<Flow> {
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
    pub(super) fn skip_stmt(&mut self) -> Res<()> {
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

    pub(super) fn skip_parens(&mut self) -> Res<()> {
        match matching(self.toks, self.pos) {
            Some(e) if self.is("(") => {
                self.pos = e + 1;
                Ok(())
            }
            _ => self.stop("expected `(`"),
        }
    }

    pub(super) fn block(&mut self) -> Res<Flow> {
        self.expect("{")?;
        self.scopes.push(BTreeMap::new());
        let result = self.block_items();
        self.scopes.pop();
        result
    }

    pub(super) fn block_items(&mut self) -> Res<Flow> {
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

    pub(super) fn skip_rest_of_block(&mut self) -> Res<()> {
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

    pub(super) fn if_stmt(&mut self) -> Res<Flow> {
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

    pub(super) fn for_stmt(&mut self) -> Res<Flow> {
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

    pub(super) fn range_for(&mut self, open: usize, colon: usize, close: usize) -> Res<Flow> {
        let Some(name) = (open + 1..colon).rev().find_map(|k| ident(self.toks, k)) else {
            return self.stop("range `for` without a variable");
        };
        self.pos = colon + 1;
        let range = self.expr()?;
        let items = match range {
            UtValue::List(v) => Rc::unwrap_or_clone(v),
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

    pub(super) fn counted_for(&mut self, open: usize, close: usize) -> Res<Flow> {
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

    pub(super) fn expect_stmt(&mut self, macro_name: &str) -> Res<Flow> {
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
    pub(super) fn declaration(&mut self) -> Res<Option<Flow>> {
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
    pub(super) fn decl_type(&mut self) -> Option<String> {
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
    pub(super) fn construct(&mut self, ty: &str, args: Vec<UtValue>) -> Res<UtValue> {
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
                    UtValue::list(vec![v.clone(); (*n).clamp(0, 4096) as usize])
                }
                [UtValue::Int(n, _)] => UtValue::list(vec![
                    UtValue::Int(0, NumberType::I64);
                    (*n).clamp(0, 4096) as usize
                ]),
                [one] => one.clone(),
                _ => UtValue::list(args),
            }),
            other => Ok(self
                .builtin(other, args.clone())?
                .unwrap_or_else(|| args.into_iter().next().unwrap_or(UtValue::Void))),
        }
    }
}
