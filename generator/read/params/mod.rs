//! Parameter descriptions of the first phase: bullet lists (`- name（type，计算输入）：desc`, found
//! by pattern whatever their indentation) or HTML tables (参数名/输入输出/描述/...), plus the
//! product notes that override or restrict dtypes per product.

use super::facts::{self, DtypeStatement};
use super::markdown::Doc;
use super::proto::{type_key, Proto};
use super::table::{tables_in, Table};
use super::text::{ascii_punct, clean_inline, same_words, tight_around_chinese, Sink};
use crate::ctype::{Base, Integer};
use crate::diag::Code;
use crate::ir::{CType, DtypesGiven, Loc, Param, ParamKind, ProductId, Role, Severity};
use crate::products::find_products;
use aclnn_runtime::DType;
use regex::Regex;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

mod joiner;

pub use joiner::Joiner;

/// What the doc says about one parameter, before it is joined with the prototype.
#[derive(Debug, Default, Clone)]
pub struct ParamDoc {
    pub name: String,
    pub doc_type: Option<String>,
    pub role_text: String,
    pub description: String,
    /// Every other line or cell about the parameter (usage notes, continuation lines).
    pub more: Vec<String>,
    pub line: usize,
    pub general_dtypes: Option<(Vec<DType>, Vec<String>)>,
    pub format_cell: Option<String>,
    pub rank_cell: Option<String>,
    pub non_contiguous_cell: Option<String>,
}

/// A product-specific statement: "<term>X</term>：数据类型支持...".
#[derive(Debug, Clone)]
pub struct Note {
    pub line: usize,
    pub products: Vec<ProductId>,
    pub text: String,
    /// The parameter whose block the note sits in (bullet style).
    pub owner: Option<String>,
}

#[derive(Debug, Default)]
pub struct ParamSection {
    pub docs: Vec<ParamDoc>,
    pub notes: Vec<Note>,
    /// Conditional dtype lists with the parameters they may be about, most specific first: the
    /// one the sentence names, the one its lead names, the entry or row it sits in.
    pub given: Vec<(Vec<String>, DtypesGiven)>,
}

impl ParamSection {
    /// The product notes that name no parameter ("<term>Atlas 训练系列产品</term>：数据类型支持
    /// FLOAT16、FLOAT32。" under a table): a doc of several functions (aclnnX&aclnnInplaceX)
    /// often writes one in one function's section only, and it holds for the tensors of each.
    pub fn unnamed_notes(&self) -> impl Iterator<Item = &Note> {
        self.notes.iter().filter(|n| {
            n.owner.is_none()
                && named_params(&n.text).is_empty()
                && !IDENT_WORD
                    .find_iter(&n.text)
                    .any(|m| may_name_a_parameter(m.as_str()))
        })
    }

    /// Adds `note` unless this section has one of the same products and text.
    pub fn add_note(&mut self, note: &Note) {
        let same = |n: &Note| n.products == note.products && n.text.trim() == note.text.trim();
        if !self.notes.iter().any(same) {
            self.notes.push(note.clone());
        }
    }
}

static ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^,()]*?)\s*,\s*((?:[^()]|\([^()]*\))*?)\s*\)\s*:?\s*(.*)$")
        .unwrap()
});
// "- dims（aclIntArray *）：…": an entry that gives the type and no role.
static TYPED_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*[-*+]\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^,()]*?)\s*\)\s*:\s*(.*)$").unwrap()
});

/// The head of a parameter entry: its name, type and role as the parentheses give them, and
/// where its description starts (a byte offset into the line).
struct EntryHead {
    name: String,
    doc_type: Option<String>,
    role_text: String,
    desc_at: usize,
}

/// "- self(aclTensor*，计算输入)：…", or "- dims（aclIntArray *）：…" for a prototype parameter
/// with a C type and no role.
fn entry_head(text: &str, proto_names: &[String]) -> Option<EntryHead> {
    let head = |c: regex::Captures, role: Option<usize>, desc: usize| EntryHead {
        name: c[1].to_string(),
        doc_type: Some(c[2].trim().to_string()).filter(|t| !t.is_empty()),
        role_text: role.map_or(String::new(), |i| c[i].trim().to_string()),
        desc_at: c.get(desc).map_or(text.len(), |m| m.start()),
    };
    if let Some(c) = ENTRY.captures(text).filter(|c| is_role_text(&c[3])) {
        return Some(head(c, Some(3), 4));
    }
    TYPED_ENTRY
        .captures(text)
        .filter(|c| proto_names.iter().any(|n| *n == c[1]) && looks_like_c_type(&c[2]))
        .map(|c| head(c, None, 3))
}

static NAME_CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([^()]*?)\s*\))?").unwrap()
});
static NAMED_PARAMS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:参数\s*|^\s*)([A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|,|和|及|与)\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*的?\s*数据类型")
        .unwrap()
});
static PARAM_HEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-*+]\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*:").unwrap());

fn is_role_text(t: &str) -> bool {
    ["输入", "输出", "入参", "出参", "可选", "必选", "属性"]
        .iter()
        .any(|r| t.contains(r))
        || matches!(
            t.trim().to_ascii_lowercase().as_str(),
            "in" | "out" | "inout"
        )
}

/// Reads the parameter descriptions in `range` (the op section, up to its return value part).
pub fn read_param_section(doc: &Doc, range: Range<usize>, proto_names: &[String]) -> ParamSection {
    let mut sec = ParamSection::default();
    let tables = tables_in(doc, range.clone());
    let mut table_lines: Vec<Range<usize>> = Vec::new();
    for t in &tables {
        table_lines.push(t.lines.clone());
        if param_name_column(t).is_some() {
            read_param_table(t, &mut sec);
        }
    }
    read_dtypes_given(doc, range.clone(), &table_lines, proto_names, &mut sec);
    let mut current: Option<String> = None;
    let mut entry_column = None;
    let mut i = range.start;
    while i < range.end.min(doc.lines.len()) {
        if let Some(t) = table_lines.iter().find(|r| r.contains(&i)) {
            i = t.end;
            current = None;
            continue;
        }
        let raw = doc.line(i);
        if doc.in_code[i] || raw.trim().is_empty() || raw.trim_start().starts_with("<!--") {
            i += 1;
            continue;
        }
        let cleaned = clean_inline(raw);
        // ascii_punct maps characters one to one, so char offsets carry over to `cleaned`.
        let text = ascii_punct(&cleaned);
        let entry = entry_head(&text, proto_names);
        if entry.is_none() && is_sibling_bullet(raw, entry_column) {
            current = None;
        }
        if let Some(head) = entry {
            entry_column = bullet_content_column(raw);
            let desc_at = text[..head.desc_at].chars().count();
            let desc = cleaned
                .chars()
                .skip(desc_at)
                .collect::<String>()
                .trim()
                .to_string();
            current = Some(head.name.clone());
            sec.docs.push(ParamDoc {
                name: head.name,
                doc_type: head.doc_type,
                role_text: head.role_text,
                description: tight_around_chinese(&desc),
                line: i,
                ..ParamDoc::default()
            });
        } else if let Some(note) = product_note(doc, i, &text, current.clone()) {
            // "<term>Atlas 训练系列产品</term>：支持范围为[-255,255]" in an entry states a product's
            // limit of its parameter, as the same words in a table's 使用说明 cell do.
            if let Some(name) = current.as_ref().filter(|_| !states_a_dtype(&note.text)) {
                push_more(&mut sec, name, &tight_around_chinese(cleaned.trim()));
            }
            sec.notes.push(note);
        } else if let Some(name) = PARAM_HEAD
            .captures(&text)
            .map(|c| c[1].to_string())
            .filter(|n| proto_names.contains(n))
        {
            // "cubeMathType：支持的枚举值如下：" after a table opens that parameter's notes.
            push_more(&mut sec, &name, &cleaned);
            current = Some(name);
        } else if let Some(name) = &current {
            // A continuation line reads as its entry's description does (and a table's cell).
            push_more(&mut sec, name, &tight_around_chinese(cleaned.trim()));
        }
        i += 1;
    }
    sec
}

/// The prose's "当`x`的数据类型为…时，数据类型支持…" lists. Each is about the parameter the sentence
/// or the lead before it names ("入参`scalar`与入参`x`的数据类型具有一定对应关系：") or whose entry it
/// sits in, on the products of the bullet it sits under.
fn read_dtypes_given(
    doc: &Doc,
    range: Range<usize>,
    table_lines: &[Range<usize>],
    proto_names: &[String],
    sec: &mut ParamSection,
) {
    let mut products: Vec<ProductId> = Vec::new();
    // The parameter entry a line sits in (bullet style), and the one a lead names.
    let mut entry: Option<String> = None;
    let mut entry_column = None;
    let mut lead: Option<String> = None;
    for i in range.start..range.end.min(doc.lines.len()) {
        if doc.in_code[i] || table_lines.iter().any(|r| r.contains(&i)) {
            continue;
        }
        let text = ascii_punct(&clean_inline(doc.line(i)));
        if let Some(head) = entry_head(&text, proto_names) {
            entry = Some(head.name);
            entry_column = bullet_content_column(doc.line(i));
            lead = None;
            products.clear();
        } else if entry.is_some() && is_sibling_bullet(doc.line(i), entry_column) {
            entry = None;
        }
        if let Some((found, _)) = product_head(bullet_body(&text)) {
            products = found;
            lead = None;
        }
        if let Some(Some(named)) = facts::dtype_kinship(&text) {
            lead = Some(named);
        }
        let subjects: Vec<String> = lead.iter().chain(&entry).cloned().collect();
        push_dtypes_given(sec, &subjects, &products, &text);
    }
}

/// A table cell's "当`x`的数据类型为…时，数据类型支持…" lists, about the row's parameter unless the
/// cell names another.
fn cell_dtypes_given(name: &str, cell: &str, sec: &mut ParamSection) {
    let text = ascii_punct(cell);
    let lead = facts::dtype_kinship(&text).flatten();
    let subjects: Vec<String> = lead.into_iter().chain([name.to_string()]).collect();
    push_dtypes_given(sec, &subjects, &[], &text);
}

fn push_dtypes_given(
    sec: &mut ParamSection,
    subjects: &[String],
    products: &[ProductId],
    text: &str,
) {
    for g in facts::dtypes_given(text) {
        let candidates: Vec<String> = g
            .subject
            .into_iter()
            .chain(subjects.iter().cloned())
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let given = DtypesGiven {
            on: g.on,
            when: g.when,
            allowed: g.allowed,
            products: products.to_vec(),
        };
        sec.given.push((candidates, given));
    }
}

fn push_more(sec: &mut ParamSection, name: &str, text: &str) {
    if let Some(d) = sec.docs.iter_mut().rev().find(|d| d.name == name) {
        d.more.push(text.to_string());
    } else {
        sec.docs.push(ParamDoc {
            name: name.to_string(),
            more: vec![text.to_string()],
            line: usize::MAX,
            ..ParamDoc::default()
        });
    }
}

/// A line whose text before the colon names products (or that sits in an npu scope).
fn product_note(doc: &Doc, idx: usize, text: &str, owner: Option<String>) -> Option<Note> {
    let body = bullet_body(text);
    if let Some((products, rest)) = product_head(body) {
        return Some(Note {
            line: idx,
            products,
            text: rest.to_string(),
            owner,
        });
    }
    let scope = doc.npu_products(idx)?;
    // A scoped line that is not a parameter's own text: "- 数据类型支持…" under an npu marker.
    if owner.is_some() && facts::dtype_statement(body).is_none() {
        return None;
    }
    Some(Note {
        line: idx,
        products: scope.iter().map(|s| s.as_str().into()).collect(),
        text: body.to_string(),
        owner,
    })
}

/// Where a bullet line's text starts ("  - x" is 4): a line indented that far is inside its item
/// (Markdown's rule); `None` for a line that is no bullet.
fn bullet_content_column(raw: &str) -> Option<usize> {
    let body = raw.trim_start();
    let bullet = body.len() > 1
        && body.starts_with(['-', '*', '+'])
        && body[1..].starts_with(char::is_whitespace);
    bullet.then(|| raw.len() - body[1..].trim_start().len())
}

/// A bullet beside the parameter entries rather than inside one ("  - <term>Atlas 训练系列产品
/// </term>：不支持BFLOAT16" after the last entry): it is no longer about that entry's parameter.
/// `entry_column` is where the entry's text starts; entries that are no bullets have no siblings.
fn is_sibling_bullet(raw: &str, entry_column: Option<usize>) -> bool {
    let indent = raw.len() - raw.trim_start().len();
    bullet_content_column(raw)
        .zip(entry_column)
        .is_some_and(|(_, entry)| indent < entry)
}

/// Whether a note states dtypes (which the notes apply), not some other limit.
fn states_a_dtype(text: &str) -> bool {
    facts::note_dtype_statement(text).is_some() || text.contains("数据类型")
}

/// A line without its bullet mark.
fn bullet_body(text: &str) -> &str {
    text.trim_start()
        .trim_start_matches(['-', '*', '+'])
        .trim_start()
}

/// "<term>Atlas A2 训练系列产品</term>：rest": the products a line opens with, and the rest.
fn product_head(body: &str) -> Option<(Vec<ProductId>, &str)> {
    let colon = body.find(':')?;
    let found = find_products(&body[..colon]);
    if found.is_empty() {
        return None;
    }
    let mut products: Vec<ProductId> = found.into_iter().map(|f| f.id).collect();
    products.dedup();
    Some((products, body[colon + 1..].trim()))
}

/// Conditional dtype lists go to their parameter, the first candidate that is one of the op's
/// tensors or aclScalars (which have dtypes), when the tensor they depend on is one of the op.
fn attach_dtypes_given(params: &mut [Param], given: &[(Vec<String>, DtypesGiven)]) {
    for (subjects, g) in given {
        let on_tensor = params.iter().any(|p| p.name == g.on && p.role.is_tensor());
        let has_dtype = |p: &Param| p.role.is_tensor() || p.is_scalar();
        let Some(subject) = subjects
            .iter()
            .find(|s| params.iter().any(|p| &p.name == *s))
        else {
            continue;
        };
        let Some(p) = params
            .iter_mut()
            .find(|p| &p.name == subject && has_dtype(p))
        else {
            continue;
        };
        if on_tensor && p.name != g.on && !p.dtypes_given.contains(g) {
            p.dtypes_given.push(g.clone());
        }
    }
}

/// The 参数名 column (some docs title it 参数 or 参数名称).
pub fn param_name_column(t: &Table) -> Option<usize> {
    t.column(&["参数名"]).or_else(|| {
        let header = t.rows.iter().find(|r| r.header)?;
        header
            .cells
            .iter()
            .position(|c| matches!(c.trim(), "参数" | "参数名称" | "Parameter"))
    })
}

static ROLE_IN_DESC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*\**\s*\(\s*([^,()]*?)\s*,\s*([^()]*?)\s*\)\s*\**\s*:?\s*(.*)$").unwrap()
});

/// The column of what a parameter must satisfy: "使用说明" in CANN's template, "使用约束",
/// "约束说明" or "约束" where a doc names it so.
fn usage_column(t: &Table) -> Option<usize> {
    t.column(&["使用说明", "使用约束", "约束说明"]).or_else(|| {
        let header = t.rows.iter().find(|r| r.header).or(t.rows.first())?;
        header.cells.iter().position(|c| c.trim() == "约束")
    })
}

fn read_param_table(t: &Table, sec: &mut ParamSection) {
    let col = |names: &[&str]| t.column(names);
    let (name_c, role_c, desc_c, usage_c) = (
        param_name_column(t),
        col(&["输入/输出", "输入输出", "输入/输出/属性"]),
        col(&["描述", "说明"]),
        usage_column(t).filter(|&u| Some(u) != t.column(&["描述", "说明"])),
    );
    // A bare "类型" column holds C types ("const aclTensor*") or, in some docs, dtypes.
    let type_c = t
        .rows
        .first()
        .and_then(|h| h.cells.iter().position(|c| c.trim() == "类型"));
    let (dtype_c, format_c, rank_c, nc_c) = (
        col(&["数据类型"]).or(type_c),
        col(&["数据格式", "格式", "format", "Format"]),
        col(&["维度", "shape"]),
        col(&["非连续"]),
    );
    let cell = |cells: &[String], c: Option<usize>| -> Option<String> {
        c.and_then(|i| cells.get(i))
            .map(|s| clean_inline(s).trim().to_string())
    };
    // "shape与 self 一致": the spaces some docs put around names in prose say nothing (a list
    // cell keeps them: "BFLOAT16 仅支持 Ascend910B 及后续同代 SoC" names products by words).
    let prose =
        |cells: &[String], c: Option<usize>| cell(cells, c).map(|s| tight_around_chinese(&s));
    for row in t.body() {
        let Some(name_cell) = cell(&row.cells, name_c) else {
            continue;
        };
        let name_cell = ascii_punct(&name_cell);
        let Some(c) = NAME_CELL.captures(&name_cell) else {
            continue;
        };
        let name = c[1].to_string();
        let mut doc_type = c.get(2).map(|m| m.as_str().to_string());
        // "FLOAT16, BFLOAT16（且与输入x一致）": a list however separated, one clause.
        let mut dtypes = cell(&row.cells, dtype_c)
            .filter(|s| !is_dash(s))
            .map(|s| commas_between_dtypes(&s));
        if dtypes.as_deref().is_some_and(looks_like_c_type) {
            doc_type = dtypes.take();
        }
        // "同self" / "与self一致": a constraint, not a list.
        let (dtypes, dtype_rule) = match dtypes {
            Some(d) if is_relation(&d) => (None, Some(d)),
            other => (other, None),
        };
        // The 维度 column in the words the fact readers say ("不高于8" as "小于等于8").
        let rank_text = cell(&row.cells, rank_c).map(|s| same_words(&s));
        let mut d = ParamDoc {
            name: name.clone(),
            doc_type,
            role_text: cell(&row.cells, role_c).unwrap_or_default(),
            description: prose(&row.cells, desc_c).unwrap_or_default(),
            line: row.line,
            format_cell: cell(&row.cells, format_c).filter(|s| !is_dash(s) && !is_relation(s)),
            rank_cell: rank_text.clone().filter(|s| facts::rank_cell(s).is_some()),
            non_contiguous_cell: cell(&row.cells, nc_c).filter(|s| !is_dash(s)),
            ..ParamDoc::default()
        };
        // "(aclTensor*, 计算输入)：desc" in a two-column table: the type and role lead the text.
        let leading = ascii_punct(&d.description);
        if let Some(c) = ROLE_IN_DESC
            .captures(&leading)
            .filter(|c| is_role_text(&c[2]))
        {
            d.doc_type = d.doc_type.or_else(|| Some(c[1].to_string()));
            if d.role_text.is_empty() {
                d.role_text = c[2].to_string();
            }
            let at = leading[..c.get(3).map_or(leading.len(), |m| m.start())]
                .chars()
                .count();
            d.description = d
                .description
                .chars()
                .skip(at)
                .collect::<String>()
                .trim()
                .to_string();
        }
        if let Some(u) = prose(&row.cells, usage_c)
            .filter(|s| !is_dash(s))
            .map(|s| same_words(&s))
        {
            cell_dtypes_given(&name, &u, sec);
            d.more.push(u);
        }
        if let Some(r) = rank_text.filter(|s| !is_dash(s) && facts::rank_cell(s).is_none()) {
            // Prose in the 维度 column: the shape as a clause ("2维，shape为（32, 32）"), a rank
            // ("不大于8"), or about the shape ("shape 约束" columns).
            if d.rank_cell.is_none() {
                d.rank_cell = facts::shape_statement(&r).or_else(|| {
                    let prose = format!("维度{r}");
                    facts::rank_in_text(&prose).is_some().then_some(prose)
                });
            }
            // "与self保持一致" in the 维度(shape) column: the shape is self's, said as the dtype
            // column's relations are ("数据类型与self保持一致").
            let r = tight_around_chinese(&r);
            if r.starts_with(['与', '和']) && is_relation(&r) {
                d.more.push(format!("shape{r}"));
            } else {
                d.more.push(r);
            }
        }
        if let Some(r) = dtype_rule {
            d.more.push(format!("数据类型{}", tight_around_chinese(&r)));
        }
        if let Some(f) = cell(&row.cells, format_c).filter(|s| is_relation(s)) {
            d.more.push(format!("数据格式{}", tight_around_chinese(&f)));
        }
        if let Some(cell_text) = dtypes {
            d.general_dtypes = Some(dtype_cell(&cell_text, row.line, &name, sec));
        }
        if let Some(prev) = sec.docs.iter_mut().find(|p| p.name == name) {
            // A parameter split over several rows (one per product group): merge.
            if let (Some((a, _)), Some((b, _))) = (&mut prev.general_dtypes, &d.general_dtypes) {
                for x in b {
                    if !a.contains(x) {
                        a.push(*x);
                    }
                }
            } else if prev.general_dtypes.is_none() {
                prev.general_dtypes = d.general_dtypes;
            }
            prev.more.extend(d.more);
        } else {
            sec.docs.push(d);
        }
    }
}

/// A word of a note that may be a parameter's name: lowerCamel ("x", "gradOutput"), but no
/// dtype in lower case ("数据类型支持float16、float32" names no parameter).
fn may_name_a_parameter(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase()) && DType::parse(word).is_none()
}

/// A type cell that gives the C type ("aclTensor*", "int64_t"). "bool" and "double" are also
/// dtype names ("bool" under a mask tensor is BOOL): they read as dtypes, as "BOOL" does.
fn looks_like_c_type(cell: &str) -> bool {
    cell.contains('*') || cell.contains("acl") || cell.ends_with("_t")
}

/// A cell stating a relation ("同self", "与self一致", "可转换为FLOAT的数据类型"), not a list.
/// "同代" ("BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）") names chips, not a relation.
fn is_relation(cell: &str) -> bool {
    cell.replace("同代", "").contains('同')
        || cell.contains("一致")
        || cell.contains("相等")
        || cell.contains("转换")
}

static DTYPE_COMMA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Za-z0-9])\s*[,，]\s*([A-Za-z][A-Za-z0-9_]*)").unwrap());

/// "FLOAT16, BFLOAT16", "float16，bfloat16" as one list with 、; a comma before anything but a
/// dtype's name or an upper-case word ("FLOAT16，且与x一致", "float, shape…") stays.
fn commas_between_dtypes(cell: &str) -> String {
    DTYPE_COMMA
        .replace_all(cell, |c: &regex::Captures| {
            let next = &c[2];
            if next.starts_with(|ch: char| ch.is_ascii_uppercase()) || DType::parse(next).is_some()
            {
                format!("{}、{next}", &c[1])
            } else {
                c[0].to_string()
            }
        })
        .into_owned()
}

fn is_dash(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || t == "-" || t == "—" || t == "/" || t == "N/A"
}

/// A dtype cell: general tokens, with per-product lines ("Atlas A2…：FLOAT16") turned into notes.
fn dtype_cell(
    text: &str,
    line: usize,
    name: &str,
    sec: &mut ParamSection,
) -> (Vec<DType>, Vec<String>) {
    let mut general = String::new();
    for l in text.lines() {
        let l = ascii_punct(l);
        let colon = l.find(':');
        let products = colon.map(|c| find_products(&l[..c])).unwrap_or_default();
        if let (Some(c), false) = (colon, products.is_empty()) {
            sec.notes.push(Note {
                line,
                products: products.into_iter().map(|f| f.id).collect(),
                text: format!("数据类型支持{}", l[c + 1..].trim()),
                owner: Some(name.to_string()),
            });
        } else {
            general.push_str(&l);
            general.push('\n');
        }
    }
    facts::dtype_tokens(&without_notes(&general))
}

/// Brackets as separators: "BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）" keeps BFLOAT16 a token of its
/// own (and a dtype named inside the note stays one too).
fn without_notes(text: &str) -> String {
    text.replace(['(', '（', ')', '）'], ",")
}

/// Role from the C type and the doc's 输入/输出 text.
pub fn role_of(ty: &CType, name: &str, role_text: &str) -> Role {
    let says_out = role_text.contains("输出") || role_text.contains("出参");
    let says_in = role_text.contains("输入") || role_text.contains("入参");
    let pointer = ty.pointers() > 0;
    match ty.base() {
        Base::Executor if pointer => Role::Executor,
        Base::Integer(Integer::U64) if name == "workspaceSize" => Role::WorkspaceSize,
        Base::Void if name == "workspace" && pointer => Role::Workspace,
        Base::Stream => Role::Stream,
        // CANN declares some outputs `const`; the doc's 输出 decides.
        Base::TensorList if pointer && says_out && !says_in => Role::OutputTensorList,
        Base::TensorList if pointer => Role::InputTensorList,
        // A tensor documented 输入 is an input whatever its constness (CANN leaves `const` off
        // many inputs); in/out needs "输入/输出", a `…Ref` name, or a description saying it is
        // written (`Joiner::fill`, `facts::says_written`).
        Base::Tensor if pointer => {
            if says_out && !says_in {
                Role::OutputTensor
            } else if ty.is_const() {
                Role::InputTensor
            } else if (says_in && says_out) || name.ends_with("Ref") {
                Role::InOutTensor
            } else if says_in {
                Role::InputTensor
            } else {
                Role::OutputTensor
            }
        }
        _ => Role::Attribute,
    }
}

/// Doc types that carry no C spelling to compare ("INT64类型数组", "Tensor").
fn is_loose_type(t: &str) -> bool {
    !t.is_ascii() || t.trim().is_empty()
}

static CONDITIONAL_NOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:当|若|如果)|时\s*[，,]").unwrap());

static IDENT_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z_][A-Za-z0-9_]*").unwrap());

/// The op's parameters a note names anywhere in its text (`y`, in backticks or not).
fn mentioned_params(text: &str, params: &[Param]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in IDENT_WORD.find_iter(text) {
        let w = m.as_str();
        if params.iter().any(|p| p.name == w) && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

/// The statements of one sentence of a note: "入参`x`、`scale`的数据类型仅支持FLOAT16，BFLOAT16，
/// `offset`仅支持INT8" says two things, each of its own parameters. A new statement begins at a
/// piece that opens with a parameter's name once the text before it states dtypes.
fn statements(sentence: &str, params: &[Param]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for piece in sentence.split(['，', ',']) {
        let head = ["入参", "出参", "参数", "输入", "输出"]
            .iter()
            .fold(piece.trim_start(), |h, w| h.strip_prefix(w).unwrap_or(h))
            .trim_start()
            .trim_start_matches('`');
        let opens_with_param = IDENT_WORD
            .find(head)
            .is_some_and(|m| m.start() == 0 && params.iter().any(|p| p.name == m.as_str()));
        if opens_with_param && !cur.is_empty() && facts::note_dtype_statement(&cur).is_some() {
            out.push(std::mem::take(&mut cur));
        } else if !cur.is_empty() {
            cur.push('，');
        }
        cur.push_str(piece);
    }
    out.push(cur);
    out
}

/// "参数self、out的数据类型…" → [self, out].
fn named_params(text: &str) -> Vec<String> {
    let Some(c) = NAMED_PARAMS.captures(text) else {
        return Vec::new();
    };
    c[1].split(['、', ',', ' ', '和', '及', '与'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_in_lower_case_name_no_parameter_and_commas_join_them() {
        assert!(may_name_a_parameter("gradOutput"));
        assert!(!may_name_a_parameter("float16"));
        assert!(!may_name_a_parameter("bool"));
        assert_eq!(
            commas_between_dtypes("float16, bfloat16"),
            "float16、bfloat16"
        );
        assert_eq!(
            commas_between_dtypes("FLOAT16，BFLOAT16"),
            "FLOAT16、BFLOAT16"
        );
        assert_eq!(commas_between_dtypes("float16, shape"), "float16, shape");
        assert!(!looks_like_c_type("bool"));
        assert!(looks_like_c_type("aclTensor*"));
    }

    #[test]
    fn a_dtype_list_naming_chips_of_one_generation_is_a_list() {
        assert!(!is_relation(
            "BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16、FLOAT32"
        ));
        assert!(is_relation("同self"));
        let (dtypes, _) = facts::dtype_tokens(&without_notes(
            "BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16",
        ));
        assert_eq!(dtypes, [DType::BFloat16, DType::Float16]);
        // Without brackets the chips' words are no unknown dtypes either.
        let (dtypes, unknown) = facts::dtype_tokens(&without_notes(
            "FLOAT16、FLOAT32；BFLOAT16 仅支持 Ascend910B 及后续同代 SoC",
        ));
        assert_eq!(dtypes, [DType::Float16, DType::Float32, DType::BFloat16]);
        assert!(unknown.is_empty(), "{unknown:?}");
        assert!(is_relation("与self一致"));
    }

    #[test]
    fn roles_from_type_and_text() {
        assert_eq!(
            role_of(&"const aclTensor*".into(), "self", "计算输入"),
            Role::InputTensor
        );
        assert_eq!(
            role_of(&"aclTensor*".into(), "out", "计算输出"),
            Role::OutputTensor
        );
        assert_eq!(
            role_of(&"aclTensor*".into(), "selfRef", "输入/输出"),
            Role::InOutTensor
        );
        assert_eq!(
            role_of(&"aclTensor*".into(), "selfRef", "输入"),
            Role::InOutTensor
        );
        // Not const, documented 输入: an input (InplaceAtan2's `other`).
        assert_eq!(
            role_of(&"aclTensor*".into(), "other", "输入"),
            Role::InputTensor
        );
        assert_eq!(
            role_of(&"aclTensor*".into(), "var", "输入/输出"),
            Role::InOutTensor
        );
        assert_eq!(
            role_of(&"uint64_t*".into(), "workspaceSize", "出参"),
            Role::WorkspaceSize
        );
        assert_eq!(
            role_of(&"aclOpExecutor**".into(), "executor", ""),
            Role::Executor
        );
        assert_eq!(
            role_of(&"const aclTensorList*".into(), "x", ""),
            Role::InputTensorList
        );
        assert_eq!(
            role_of(&"int8_t".into(), "cubeMathType", "输入"),
            Role::Attribute
        );
        assert_eq!(role_of(&"aclrtStream".into(), "stream", ""), Role::Stream);
    }

    #[test]
    fn one_note_sentence_with_two_statements() {
        let p = |n: &str| Param {
            name: n.into(),
            ..Default::default()
        };
        let params = [p("x"), p("scale"), p("offset")];
        assert_eq!(
            statements(
                "入参`x`、`scale`的数据类型仅支持FLOAT16，BFLOAT16，`offset`仅支持INT8",
                &params
            ),
            [
                "入参`x`、`scale`的数据类型仅支持FLOAT16，BFLOAT16",
                "`offset`仅支持INT8"
            ]
        );
        assert_eq!(
            statements(
                "入参 `x` 仅支持 FLOAT16，参数 `offset` 仅支持 INT8",
                &params
            ),
            ["入参 `x` 仅支持 FLOAT16", "参数 `offset` 仅支持 INT8"]
        );
        assert_eq!(
            statements("数据类型支持FLOAT16，BFLOAT16", &params),
            ["数据类型支持FLOAT16，BFLOAT16"]
        );
    }

    #[test]
    fn named_params_in_notes() {
        assert_eq!(
            named_params("参数self、out的数据类型不支持BFLOAT16。"),
            ["self", "out"]
        );
        assert_eq!(named_params("self的数据类型不支持BFLOAT16"), ["self"]);
        // A doc that spaces names apart: "参数 scalars 的数据类型…" is scalars', not every name's.
        assert_eq!(
            named_params("参数 scalars 的数据类型仅支持 FLOAT32，且与输入参数 x 的数据类型对应"),
            ["scalars"]
        );
        assert!(named_params("数据类型支持FLOAT").is_empty());
    }

    #[test]
    fn bullet_entries_found_whatever_the_indentation() {
        let text = "## aclnnFooGetWorkspaceSize\n- **参数说明：**\n - self(aclTensor \\*, 计算输入): 输入。数据类型支持FLOAT16。\n    - 昇腾910B AI处理器：数据类型支持FLOAT32。\n      - out（aclTensor*，计算输出）：输出。\n";
        let doc = Doc::parse(text);
        let names = vec!["self".to_string(), "out".to_string()];
        let sec = read_param_section(&doc, 1..doc.lines.len(), &names);
        let got: Vec<_> = sec
            .docs
            .iter()
            .map(|d| (d.name.as_str(), d.doc_type.as_deref(), d.line))
            .collect();
        assert_eq!(
            got,
            [
                ("self", Some("aclTensor *"), 2),
                ("out", Some("aclTensor*"), 4)
            ]
        );
        assert_eq!(sec.notes.len(), 1);
        assert_eq!(sec.notes[0].owner.as_deref(), Some("self"));
        assert_eq!(sec.notes[0].products, ["ascend910b"]);
    }

    #[test]
    fn a_product_note_beside_the_entries_is_no_entry_s() {
        let text = "## aclnnFooGetWorkspaceSize\n- **参数说明：**\n  - self(aclTensor \\*，计算输入)：输入。\n    - <term>Atlas 训练系列产品</term>：数据类型支持FLOAT16。\n  - eps(float，属性)：系数。\n  - scale(aclTensor \\*，输入（可选）)：系数。\n  - dims（aclIntArray *）：维度。\n  - <term>Atlas 推理系列产品</term>：\n    - 不支持BFLOAT16数据类型。\n";
        let doc = Doc::parse(text);
        let names: Vec<String> = ["self", "eps", "scale", "dims"].map(String::from).into();
        let sec = read_param_section(&doc, 1..doc.lines.len(), &names);
        let entries: Vec<(&str, &str)> = sec
            .docs
            .iter()
            .map(|d| (d.name.as_str(), d.role_text.as_str()))
            .collect();
        assert_eq!(
            entries,
            [
                ("self", "计算输入"),
                ("eps", "属性"),
                ("scale", "输入(可选)"),
                ("dims", "")
            ]
        );
        let owners: Vec<Option<&str>> = sec.notes.iter().map(|n| n.owner.as_deref()).collect();
        assert_eq!(owners, [Some("self"), None]);
        let eps = &sec.docs[1];
        assert!(eps.more.is_empty(), "{:?}", eps.more);
    }

    #[test]
    fn dtype_lists_stated_against_another_tensor() {
        let doc = "# aclnnFoo\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensorList *x, const aclScalar *scalar, const aclScalar *alpha, aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n```\n\n## aclnnFooGetWorkspaceSize\n\n- **参数说明：**\n\n<table>\n<tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th></tr>\n<tr><td>x（aclTensorList*）</td><td>输入</td><td>输入。</td><td>-</td><td>FLOAT32、FLOAT16、INT32</td></tr>\n<tr><td>scalar（aclScalar*）</td><td>输入</td><td>标量。</td><td>-</td><td>FLOAT32、FLOAT16、DOUBLE、INT32</td></tr>\n<tr><td>alpha（aclScalar*）</td><td>输入</td><td>系数。</td><td>数据类型与入参`x`的数据类型具有一定对应关系：<ul><li>当`x`的数据类型为FLOAT32、FLOAT16时，数据类型与`x`的数据类型保持一致。</li></ul></td><td>FLOAT32、FLOAT16</td></tr>\n<tr><td>out（aclTensorList*）</td><td>输出</td><td>输出。</td><td>-</td><td>FLOAT32、FLOAT16、INT32</td></tr>\n</table>\n\n- <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：\n\n  入参`scalar`与入参`x`的数据类型具有一定对应关系：\n  - 当`x`的数据类型为FLOAT16时，数据类型支持FLOAT16、DOUBLE。\n  - 当`y`的数据类型为FLOAT16时，数据类型支持FLOAT16。\n- <term>Ascend 950PR/Ascend 950DT</term>：\n  输入Tensor的数据类型与入参`x`的数据类型具有一定对应关系：\n  - 当`x`的数据类型为INT32时，`scalar`的数据类型支持INT32、INT64。\n  - 当`x`的数据类型为FLOAT32时，`scalar`的数据类型支持FLOAT32、Dooble。\n";
        let read = crate::read::read_doc("aclnnFoo.md", doc.as_bytes());
        let op = &read.ops[0];
        let given = |n: &str| op.param(n).unwrap().dtypes_given.clone();
        let on_x = |when: &[DType], allowed: &[DType], products: &[&str]| DtypesGiven {
            on: "x".into(),
            when: when.to_vec(),
            allowed: allowed.to_vec(),
            products: products.iter().map(|p| (*p).into()).collect(),
        };
        // Under a product bullet, about the parameter its lead or the sentence names; `y` is no
        // tensor of the op, "Tensor" no parameter, and a misspelt dtype leaves a list unread.
        assert_eq!(
            given("scalar"),
            [
                on_x(
                    &[DType::Float16],
                    &[DType::Float16, DType::Float64],
                    &["ascend910b"]
                ),
                on_x(
                    &[DType::Int32],
                    &[DType::Int32, DType::Int64],
                    &["ascend950"]
                ),
            ]
        );
        // In the parameter's own cell, on every product; "保持一致" is one list per dtype.
        assert_eq!(
            given("alpha"),
            [
                on_x(&[DType::Float32], &[DType::Float32], &[]),
                on_x(&[DType::Float16], &[DType::Float16], &[]),
            ]
        );
        assert!(given("out").is_empty());
        // Bullet style: under a product note inside the parameter's own entry.
        let doc = "# aclnnFoo\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n```\n\n## aclnnFooGetWorkspaceSize\n\n- **参数说明：**\n  - self（aclTensor*，计算输入）：输入，数据类型支持FLOAT16、INT32。\n  - other（aclScalar*，计算输入）：标量，数据类型支持FLOAT16、INT32、INT64。\n    - <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：当self的数据类型为INT32时，数据类型支持INT32、INT64。\n  - out（aclTensor*，计算输出）：输出，数据类型支持FLOAT16、INT32。\n  - executor（aclOpExecutor**，出参）：op执行器。\n    - <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term>：当self的数据类型为INT32时，数据类型支持INT64。\n";
        let read = crate::read::read_doc("aclnnFoo.md", doc.as_bytes());
        let op = &read.ops[0];
        let given = |n: &str| op.param(n).unwrap().dtypes_given.clone();
        assert_eq!(
            given("other"),
            [DtypesGiven {
                on: "self".into(),
                when: vec![DType::Int32],
                allowed: vec![DType::Int32, DType::Int64],
                products: vec!["ascend910b".into()],
            }]
        );
        // An executor has no dtype.
        assert!(given("executor").is_empty());
    }

    #[test]
    fn a_rank_cell_may_state_the_shape_too() {
        let doc = "# aclnnFoo\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, const aclTensor *diag, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n```\n\n## aclnnFooGetWorkspaceSize\n\n- **参数说明：**\n\n<table>\n<tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th><th>维度(shape)</th></tr>\n<tr><td>self</td><td>输入</td><td>输入。</td><td>-</td><td>FLOAT</td><td>1-8</td></tr>\n<tr><td>diag</td><td>输入</td><td>单位矩阵。</td><td>shape为（32, 32），可以为空。</td><td>FLOAT</td><td>2维，shape为（32, 32）</td></tr>\n<tr><td>out</td><td>输出</td><td>输出。</td><td>-</td><td>FLOAT</td><td>1-8</td></tr>\n</table>\n";
        let read = crate::read::read_doc("aclnnFoo.md", doc.as_bytes());
        let diag = read.ops[0].param("diag").unwrap();
        assert_eq!(diag.rank, Some(crate::ir::Rank { min: 2, max: 2 }));
        assert_eq!(diag.shapes, [["32", "32"]]);
    }

    #[test]
    fn a_relation_in_the_shape_column_is_a_shape_relation() {
        let doc = "# aclnnFoo\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n```\n\n## aclnnFooGetWorkspaceSize\n\n- **参数说明：**\n\n<table>\n<tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th><th>维度（shape）</th></tr>\n<tr><td>self</td><td>输入</td><td>输入。</td><td>-</td><td>FLOAT</td><td>3-4</td></tr>\n<tr><td>out</td><td>输出</td><td>输出。</td><td>-</td><td>与self保持一致</td><td>与self保持一致</td></tr>\n</table>\n";
        let read = crate::read::read_doc("aclnnFoo.md", doc.as_bytes());
        let out = read.ops[0].param("out").unwrap();
        assert!(
            out.constraints.iter().any(|c| c == "shape与self保持一致"),
            "{:?}",
            out.constraints
        );
        assert!(out
            .constraints
            .iter()
            .any(|c| c == "数据类型与self保持一致"));
    }

    #[test]
    fn a_role_cell_saying_optional_makes_the_parameter_optional() {
        let doc = "# aclnnFoo\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, const aclTensor *zeroPoints, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);\n```\n\n## aclnnFooGetWorkspaceSize\n\n- **参数说明：**\n\n<table>\n<tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>数据类型</th></tr>\n<tr><td>self</td><td>输入</td><td>输入。</td><td>FLOAT</td></tr>\n<tr><td>zeroPoints</td><td>可选输入</td><td>偏移。</td><td>FLOAT</td></tr>\n<tr><td>out</td><td>输出</td><td>输出。</td><td>FLOAT</td></tr>\n</table>\n";
        let read = crate::read::read_doc("aclnnFoo.md", doc.as_bytes());
        let op = &read.ops[0];
        let optional = |n: &str| op.params.iter().find(|p| p.name == n).unwrap().optional;
        assert!(optional("zeroPoints"));
        assert!(!optional("self"));
    }
}
