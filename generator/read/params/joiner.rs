//! The join of the prototype's parameters with what the doc says of each (the parameter
//! section's entries, notes and tables), with a diagnostic for each mismatch.

use super::*;

/// Joins the prototype's parameters with their descriptions and notes.
pub struct Joiner<'a> {
    pub file: &'a str,
    pub doc: &'a Doc<'a>,
    pub proto: &'a Proto,
    /// Parameters of the execute function: a shared section may describe them too.
    pub execute_params: &'a [String],
    pub products: &'a mut BTreeMap<ProductId, bool>,
    /// The product section was damaged or missing, so notes may add products.
    pub products_damaged: bool,
}

impl Joiner<'_> {
    pub fn join(&mut self, sec: &ParamSection, sink: &mut Sink) -> Vec<Param> {
        let names: Vec<String> = self.proto.params.iter().map(|p| p.name.clone()).collect();
        for d in &sec.docs {
            if d.line != usize::MAX
                && !names.contains(&d.name)
                && !self.execute_params.contains(&d.name)
            {
                let src = self.doc.line(d.line);
                sink.at_text(
                    Severity::Warning,
                    Code::ParamNotInPrototype,
                    match names.iter().find(|n| n.eq_ignore_ascii_case(&d.name)) {
                        Some(n) => format!(
                            "`{}` is described but is not a parameter of `{}` (did the doc mean `{n}`?)",
                            d.name, self.proto.name
                        ),
                        None => format!("`{}` is described but is not a parameter of `{}`", d.name, self.proto.name),
                    },
                    d.line,
                    src,
                    &d.name,
                );
            }
        }
        let mut params: Vec<Param> = Vec::new();
        for cp in &self.proto.params {
            // A description misspelling the name's case (`workSpaceSize`) still describes it;
            // `param-not-in-prototype` above reports the spelling.
            let d = sec.docs.iter().find(|d| d.name == cp.name).or_else(|| {
                sec.docs
                    .iter()
                    .find(|d| d.name.eq_ignore_ascii_case(&cp.name) && !names.contains(&d.name))
            });
            let mut p = Param {
                name: cp.name.clone(),
                ty: cp.ty.clone(),
                ..Param::default()
            };
            match d {
                Some(d) if d.line != usize::MAX => {
                    self.fill(&mut p, d, sink);
                }
                _ => {
                    let src = self.doc.line(self.proto.line);
                    sink.at_text(
                        Severity::Warning,
                        Code::ParamUndocumented,
                        format!("prototype parameter `{}` has no description", cp.name),
                        self.proto.line,
                        src,
                        &cp.name,
                    );
                    p.role = role_of(&cp.ty, &cp.name, "");
                    p.source = Some(self.loc(self.proto.line));
                    if let Some(d) = d {
                        self.fill_facts(&mut p, d, sink);
                    }
                }
            }
            params.push(p);
        }
        self.apply_notes(&mut params, sec, sink);
        attach_dtypes_given(&mut params, &sec.given);
        params
    }

    fn loc(&self, idx: usize) -> Loc {
        Loc {
            file: self.file.to_string(),
            line: idx + 1,
            column: 0,
        }
    }

    fn fill(&mut self, p: &mut Param, d: &ParamDoc, sink: &mut Sink) {
        let src = self.doc.line(d.line);
        p.role = role_of(&p.ty, &p.name, &d.role_text);
        let written = || {
            std::iter::once(&d.description)
                .chain(&d.more)
                .any(|t| facts::says_written(t))
        };
        if p.role == Role::InputTensor && !p.ty.is_const() && written() {
            p.role = Role::InOutTensor;
        }
        p.description = d.description.clone();
        p.source = Some(self.loc(d.line));
        if let Some(dt) = &d.doc_type {
            // A bare handle name ("aclIntArray" in a 类型 column) names the type, not its pointer level.
            let bare = !dt.contains('*') && dt.trim().starts_with("acl");
            let key = |t: &str| {
                if bare {
                    type_key(t).replace('*', "")
                } else {
                    type_key(t)
                }
            };
            if key(dt) != key(p.ty.as_str()) && !is_loose_type(dt) {
                sink.at_text(
                    Severity::Warning,
                    Code::TypeDrift,
                    format!(
                        "`{}` is `{}` in the prototype but `{dt}` in its description",
                        p.name, p.ty
                    ),
                    d.line,
                    src,
                    &p.name,
                );
            }
        }
        let says_out = d.role_text.contains("输出") || d.role_text.eq_ignore_ascii_case("out");
        let says_in = d.role_text.contains("输入") || d.role_text.contains("入参");
        // A value parameter cannot be an output (seed 004 marks cubeMathType `out`).
        if p.role == Role::Attribute && p.ty.pointers() == 0 && says_out && !says_in {
            sink.at_text(
                Severity::Warning,
                Code::RoleConflict,
                format!(
                    "`{}` is documented as an output (`{}`) but its type `{}` is passed by value",
                    p.name, d.role_text, p.ty
                ),
                d.line,
                src,
                &p.name,
            );
        }
        self.fill_facts(p, d, sink);
    }

    fn fill_facts(&mut self, p: &mut Param, d: &ParamDoc, sink: &mut Sink) {
        // In the words the fact readers say ("高于" as "大于", "x及y" as "x和y"); the IR keeps the
        // description as the doc writes it.
        let all_text = same_words(
            &std::iter::once(d.description.as_str())
                .chain(d.more.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        self.fill_dtypes(p, d, &all_text, sink);
        self.fill_formats(p, d, &all_text, sink);
        // A description's "shape为(B,N,2)" clause states what a 维度(shape) cell would (bullet-style
        // docs have no such column; table docs may write the shape there and the rank in the cell).
        let stated = facts::shape_statement(&all_text);
        let cells = || d.rank_cell.iter().chain(&stated);
        p.rank = cells()
            .find_map(|c| facts::rank_cell(c).or_else(|| facts::rank_in_text(c)))
            .or_else(|| facts::rank_in_text(&all_text));
        p.shapes = cells()
            .filter(|c| facts::rank_interval(c).is_none())
            .map(|c| facts::named_shapes(c))
            .find(|s| !s.is_empty())
            .unwrap_or_default();
        p.non_contiguous = d
            .non_contiguous_cell
            .as_deref()
            .and_then(facts::mark)
            .or_else(|| facts::non_contiguous_in_text(&all_text));
        p.empty_tensor = facts::empty_tensor_in_text(&all_text);
        // CANN names nullable parameters `xxxOptional`; a role cell may say "可选输入".
        let names: Vec<&str> = self.proto.params.iter().map(|c| c.name.as_str()).collect();
        p.optional = facts::optional_for(&all_text, &p.name, &names)
            || p.name.ends_with("Optional")
            || facts::optional_in_text(&d.role_text);
        p.constraints = facts::constraint_phrases(&all_text);
        if p.role == Role::Attribute && p.kind() == ParamKind::Str {
            // A string attribute's values ("支持取值round/floor") are read by the rules.
            for phrase in facts::string_value_phrases(&all_text) {
                if !p.constraints.contains(&phrase) {
                    p.constraints.push(phrase);
                }
            }
        }
        if p.role == Role::Attribute && matches!(p.kind(), ParamKind::IntArray | ParamKind::Bool) {
            // "当dim为nullptr或[]时，视为计算所有维度", "指定axes为空时的行为。…true：不进行计算":
            // what an empty dims list means.
            for phrase in facts::empty_dims_phrases(&all_text) {
                if !p.constraints.contains(&phrase) {
                    p.constraints.push(phrase);
                }
            }
        }
        if p.role.is_tensor() {
            // "数据类型需要是self与target推导之后可转换的数据类型": the dtype the op computes in,
            // read by the rules for the outputs (no check: no error row points at it).
            for phrase in facts::promotion_phrases(&all_text) {
                if !p.constraints.contains(&phrase) {
                    p.constraints.push(phrase);
                }
            }
        }
        // The enumeration may sit in the description itself ("指定数据转换后y的类型，输入范围为
        // {35, 36}，分别对应输出y的数据类型为{35: FLOAT8_E5M2, 36: FLOAT8_E4M3FN}").
        p.enum_values = facts::enum_values(all_text.lines());
    }

    /// The doc line of a description (`None` for notes without an entry of their own).
    fn entry_line(&self, d: &ParamDoc) -> (usize, &str) {
        if d.line == usize::MAX {
            (0, "")
        } else {
            (d.line, self.doc.line(d.line))
        }
    }

    /// The general dtype list (table cell or "数据类型支持…") for every supported product.
    fn fill_dtypes(&self, p: &mut Param, d: &ParamDoc, all_text: &str, sink: &mut Sink) {
        let general = d
            .general_dtypes
            .clone()
            .or_else(|| match facts::dtype_statement(all_text) {
                Some(DtypeStatement::Supports(k, u)) => Some((k, u)),
                _ => None,
            });
        let Some((dtypes, unknown)) = general else {
            return;
        };
        if d.line != usize::MAX {
            for u in &unknown {
                self.report_unknown_dtype(sink, u, &p.name, p.role.is_tensor(), d.line);
            }
        }
        if dtypes.is_empty() {
            return;
        }
        for prod in crate::ir::stated_products(self.products) {
            p.dtypes.insert(prod, dtypes.clone());
        }
    }

    fn fill_formats(&self, p: &mut Param, d: &ParamDoc, all_text: &str, sink: &mut Sink) {
        let formats = match &d.format_cell {
            Some(c) => Some(facts::format_tokens(c)),
            None => facts::format_statement(all_text),
        };
        let Some((formats, unknown)) = formats else {
            return;
        };
        let (line, src) = self.entry_line(d);
        for u in unknown {
            let msg = format!("unknown format `{u}` for `{}`", p.name);
            sink.at_text(Severity::Warning, Code::UnknownFormat, msg, line, src, &u);
        }
        p.formats = formats;
    }

    /// An unknown dtype token, reported on the line it stands on (a description may span lines)
    /// with the nearest known names. For a tensor, a near miss of a known name is a typo that
    /// would silently drop that dtype everywhere: an error. A token like no dtype at all (a
    /// format in a dtype cell), or one in a host attribute's text ("int64_t dim … INT"), whose
    /// dtype nothing checks, is a warning.
    fn report_unknown_dtype(
        &self,
        sink: &mut Sink,
        token: &str,
        param: &str,
        tensor: bool,
        from: usize,
    ) {
        let line = (from..self.doc.lines.len().min(from + 40))
            .find(|&i| self.doc.line(i).contains(token))
            .unwrap_or(from);
        let near = facts::nearest_dtypes(token);
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!("; did the doc mean {}?", near.join(" or "))
        };
        let severity = if tensor && !near.is_empty() {
            Severity::Error
        } else {
            Severity::Warning
        };
        let msg = format!("unknown dtype `{token}` for `{param}`{hint}");
        let src = self.doc.line(line);
        sink.at_text(severity, Code::UnknownDtype, msg, line, src, token);
    }

    /// Product notes override ("数据类型支持…") or restrict ("不支持…") the named parameters' dtypes.
    fn apply_notes(&mut self, params: &mut [Param], sec: &ParamSection, sink: &mut Sink) {
        for whole in &sec.notes {
            // Each sentence of a note is its own statement ("出参`y`的数据类型仅支持INT8。当数据
            // 格式为NZ时，数据类型支持INT32。"); one that holds only under a condition ("…为NZ时，
            // 数据类型仅支持FLOAT32") restricts nothing unconditionally.
            for sentence in whole.text.split(['。', '；', ';']) {
                if CONDITIONAL_NOTE.is_match(sentence) {
                    continue;
                }
                for statement in statements(sentence, params) {
                    let note = Note {
                        text: statement,
                        ..whole.clone()
                    };
                    self.apply_note(params, &note, sink);
                }
            }
        }
    }

    fn apply_note(&mut self, params: &mut [Param], note: &Note, sink: &mut Sink) {
        {
            let src = self.doc.line(note.line);
            let Some(stmt) = facts::note_dtype_statement(&note.text) else {
                return;
            };
            let (DtypeStatement::Supports(_, unknown) | DtypeStatement::Excludes(_, unknown)) =
                &stmt;
            let owner = note.owner.as_deref();
            let subject = owner.unwrap_or("a product note");
            let tensor =
                owner.is_none_or(|o| params.iter().any(|p| p.name == o && p.role.is_tensor()));
            for u in unknown {
                self.report_unknown_dtype(sink, u, subject, tensor, note.line);
            }
            let mut named = named_params(&note.text);
            if named.is_empty() && note.owner.is_none() {
                // "出参`y`的数据类型仅支持INT8": parameters named without the 参数 prefix; a
                // lowerCamel name that is no parameter is kept, so the note restricts nothing
                // rather than every tensor.
                named = mentioned_params(&note.text, params);
                if named.is_empty() {
                    named = IDENT_WORD
                        .find_iter(&note.text)
                        .map(|m| m.as_str())
                        .filter(|w| may_name_a_parameter(w))
                        .map(str::to_string)
                        .take(1)
                        .collect();
                }
            }
            for n in &named {
                if !params.iter().any(|p| &p.name == n) {
                    sink.at_text(
                        Severity::Warning,
                        Code::NoteUnknownParam,
                        format!(
                            "note names `{n}`, which is not a parameter of `{}`",
                            self.proto.name
                        ),
                        note.line,
                        src,
                        n,
                    );
                }
            }
            let targets: Vec<usize> = if !named.is_empty() {
                params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| named.contains(&p.name))
                    .map(|(i, _)| i)
                    .collect()
            } else if let Some(owner) = &note.owner {
                params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| &p.name == owner)
                    .map(|(i, _)| i)
                    .collect()
            } else {
                params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| !p.dtypes.is_empty() && p.role.is_tensor())
                    .map(|(i, _)| i)
                    .collect()
            };
            for prod in &note.products {
                match self.products.get(prod) {
                    Some(false) => continue,
                    Some(true) => {}
                    // The product section is authoritative unless it is damaged (seed 001).
                    None if self.products_damaged => {
                        sink.at(
                            Severity::Warning,
                            Code::ProductNotListed,
                            format!("note names product `{prod}`, absent from the damaged product section; taken as supported"),
                            note.line,
                            src,
                        );
                        self.products.insert(prod.clone(), true);
                    }
                    None => {
                        sink.at(
                            Severity::Warning,
                            Code::ProductNotListed,
                            format!("note names product `{prod}`, absent from the product section; note ignored for it"),
                            note.line,
                            src,
                        );
                        continue;
                    }
                }
                for &t in &targets {
                    let p = &mut params[t];
                    match &stmt {
                        DtypeStatement::Supports(list, _) => {
                            p.dtypes.insert(prod.clone(), list.clone());
                        }
                        DtypeStatement::Excludes(list, _) => {
                            if let Some(v) = p.dtypes.get_mut(prod) {
                                v.retain(|d| !list.contains(d));
                            }
                        }
                    }
                }
            }
        }
    }
}
