//! The structure reader: markdown text (after decoding and scrape repair) → one `OpIr` per
//! `GetWorkspaceSize` prototype. Works on any markdown string; locations are doc lines.

use super::errors::read_errors;
use super::markdown::{Doc, Section};
use super::params::{read_param_section, Joiner};
use super::products::read_products;
use super::proto::{find_prototypes, Proto};
use super::text::{clean_inline, Sink};
use crate::diag::Code;
use crate::ir::{CParam, ErrorCase, Function, Loc, OpIr, ProductId, Severity};
use regex::Regex;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

/// More ops than this in one doc is not an aclnn doc; the rest are reported, not read.
const MAX_OPS: usize = 32;
const WS_SUFFIX: &str = "GetWorkspaceSize";

static ACLNN_NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"aclnn[A-Za-z0-9_]+").unwrap());
static INCLUDE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"#include\s*[<"](?:aclnnop/(?:level2/)?)?(aclnn_[A-Za-z0-9_]+\.h)[>"]"#).unwrap()
});

/// Facts of the doc shared by every op it describes.
struct DocFacts {
    products: BTreeMap<ProductId, bool>,
    products_damaged: bool,
    description: String,
    formula: Option<String>,
    constraints: Vec<String>,
    example: Option<String>,
    header: Option<String>,
}

/// Reads every op of a markdown doc. Doc-wide problems go to `sink`; each op carries its own.
pub fn read_markdown(file: &str, text: &str, sink: &mut Sink) -> Vec<OpIr> {
    let doc = Doc::parse(text);
    let protos = prototypes(&doc);
    let before = sink.diags.len();
    let products = read_products(&doc, sink);
    let products_damaged = sink.diags[before..]
        .iter()
        .any(|d| matches!(d.code, Code::DamagedProduct | Code::NoProducts));
    let facts = DocFacts {
        products,
        products_damaged,
        description: description(&doc),
        formula: formula(&doc),
        constraints: constraints(&doc),
        example: example(&doc),
        header: header(&doc),
    };
    let ws: Vec<&Proto> = protos
        .iter()
        .filter(|p| {
            p.name
                .to_ascii_lowercase()
                .ends_with(&WS_SUFFIX.to_ascii_lowercase())
        })
        .collect();
    if ws.is_empty() {
        if let Some(fixed) = misspelled_workspace_proto(&doc, &protos, sink) {
            return vec![read_op(file, &doc, &facts, &fixed, &protos)];
        }
        // A single-phase API (aclnnTransQuantParam): the prototype named by the title.
        if let Some(single) = single_phase_proto(&doc, &protos) {
            sink.at_col(
                Severity::Warning,
                Code::SinglePhaseApi,
                format!(
                    "`{}` has no GetWorkspaceSize phase; read as a single function",
                    single.name
                ),
                single.line,
                doc.line(single.line),
                single.column,
            );
            return vec![read_op(file, &doc, &facts, single, &protos)];
        }
        sink.file(
            Severity::Error,
            Code::NoPrototype,
            "no `aclnn…GetWorkspaceSize(...)` prototype found; not an aclnn operator doc?",
        );
        return Vec::new();
    }
    if ws.len() > MAX_OPS {
        sink.file(
            Severity::Warning,
            Code::TooManyOps,
            format!(
                "{} prototypes found; only the first {MAX_OPS} are read",
                ws.len()
            ),
        );
    }
    let mut ops: Vec<OpIr> = ws
        .iter()
        .take(MAX_OPS)
        .map(|p| read_op(file, &doc, &facts, p, &protos))
        .collect();
    super::inplace::unite_inplace_dtypes(&mut ops, &doc.lines);
    ops
}

fn read_op(file: &str, doc: &Doc, facts: &DocFacts, ws: &Proto, protos: &[Proto]) -> OpIr {
    let mut sink = Sink::new(file);
    let op = op_name(&ws.name);
    check_ws_spelling(doc, ws, &mut sink);
    check_title(doc, &op, &mut sink);
    let exec_name = format!("aclnn{op}");
    let exec = execute_proto(doc, ws, &exec_name, protos, &mut sink);
    let mut functions = vec![function(file, doc, ws, &mut sink)];
    functions.extend(exec.map(|e| function(file, doc, e, &mut sink)));
    let section = param_section(doc, ws, &exec_name, &mut sink);
    let (param_range, error_range) = section
        .as_ref()
        .map(|s| split_at_return_value(doc, s))
        .unwrap_or((0..0, 0..0));
    let names: Vec<String> = ws.params.iter().map(|p| p.name.clone()).collect();
    let mut sec = read_param_section(doc, param_range, &names);
    // A function's own note on a product is what holds there; a sibling's fills in the rest.
    let own: Vec<ProductId> = sec
        .unnamed_notes()
        .flat_map(|n| n.products.iter().cloned())
        .collect();
    for note in sibling_notes(file, doc, ws, protos) {
        if !note.products.iter().any(|p| own.contains(p)) {
            sec.add_note(&note);
        }
    }
    let execute_params: Vec<String> = exec
        .map(|e| e.params.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    let mut products = facts.products.clone();
    let params = Joiner {
        file,
        doc,
        proto: ws,
        execute_params: &execute_params,
        products: &mut products,
        products_damaged: facts.products_damaged,
    }
    .join(&sec, &mut sink);
    let mut params = params;
    nullable_by_constraints(&mut params, &facts.constraints);
    let errors = op_errors(file, doc, ws, section.as_ref(), error_range, &mut sink);
    OpIr {
        op,
        products,
        description: facts.description.clone(),
        formula: facts.formula.clone(),
        functions,
        params,
        errors,
        inferred_rules: Vec::new(),
        constraints: facts.constraints.clone(),
        header: facts.header.clone(),
        example: facts.example.clone(),
        sources: vec![file.to_string()],
        diagnostics: sink.into_diags(),
        ..OpIr::default()
    }
}

/// A pointer the doc's 约束说明 says may be null ("x1Scale支持配置为空", "传入`q=nullptr`即可") is
/// optional, whatever its table row says: a null the doc allows is no error.
fn nullable_by_constraints(params: &mut [crate::ir::Param], constraints: &[String]) {
    let text = constraints.join("\n");
    for p in params
        .iter_mut()
        .filter(|p| !p.optional && (p.role.is_tensor() || p.ty.pointers() > 0))
    {
        if super::facts::said_nullable(&text, &p.name) {
            p.optional = true;
        }
    }
}

/// The product notes naming no parameter in the parameter sections of the doc's other
/// first-phase functions (`ParamSection::unnamed_notes`): they restrict this function's tensors too.
fn sibling_notes(file: &str, doc: &Doc, ws: &Proto, protos: &[Proto]) -> Vec<super::params::Note> {
    let mut out = Vec::new();
    let siblings = protos.iter().filter(|p| {
        p.name != ws.name
            && p.name
                .to_ascii_lowercase()
                .ends_with(&WS_SUFFIX.to_ascii_lowercase())
    });
    for other in siblings {
        let op = op_name(&other.name);
        let mut quiet = Sink::new(file);
        let Some(section) = param_section(doc, other, &format!("aclnn{op}"), &mut quiet) else {
            continue;
        };
        let (range, _) = split_at_return_value(doc, &section);
        let names: Vec<String> = other.params.iter().map(|p| p.name.clone()).collect();
        out.extend(
            read_param_section(doc, range, &names)
                .unnamed_notes()
                .cloned(),
        );
    }
    out
}

/// A first-phase prototype whose suffix is a typo of `GetWorkspaceSize` (`aclnnFooGetWorkspaceSze`
/// beside `aclnnFoo`): an error at its line naming the right spelling, then read as meant, so the
/// rest of the doc is checked too.
fn misspelled_workspace_proto(doc: &Doc, protos: &[Proto], sink: &mut Sink) -> Option<Proto> {
    let wanted = WS_SUFFIX.to_ascii_lowercase();
    let (typo, exec) = protos.iter().find_map(|p| {
        let exec = protos.iter().find(|e| {
            e.name.len() < p.name.len()
                && p.name.starts_with(&e.name)
                && strsim::levenshtein(&p.name[e.name.len()..].to_ascii_lowercase(), &wanted) <= 3
        })?;
        Some((p, exec))
    })?;
    let meant = format!("{}{WS_SUFFIX}", exec.name);
    sink.at_col(
        Severity::Error,
        Code::NoPrototype,
        format!(
            "`{}` is not a first-phase prototype: did the doc mean `{meant}`?",
            typo.name
        ),
        typo.line,
        doc.line(typo.line),
        typo.column,
    );
    Some(Proto {
        name: meant,
        ..typo.clone()
    })
}

fn is_two_phase(name: &str) -> bool {
    name.to_ascii_lowercase()
        .ends_with(&WS_SUFFIX.to_ascii_lowercase())
}

/// `aclnnXGetWorkSpaceSize` in a prototype: read, but reported.
fn check_ws_spelling(doc: &Doc, ws: &Proto, sink: &mut Sink) {
    if is_two_phase(&ws.name) && !ws.name.ends_with(WS_SUFFIX) {
        sink.at_text(
            Severity::Warning,
            Code::NameMismatch,
            format!("prototype `{}` misspells `{WS_SUFFIX}`", ws.name),
            ws.line,
            doc.line(ws.line),
            &ws.name,
        );
    }
}

/// The second-phase prototype of a two-phase op (reported when missing).
fn execute_proto<'p>(
    doc: &Doc,
    ws: &Proto,
    exec_name: &str,
    protos: &'p [Proto],
    sink: &mut Sink,
) -> Option<&'p Proto> {
    if !is_two_phase(&ws.name) {
        return None;
    }
    let exec = protos.iter().find(|p| p.name == exec_name);
    if exec.is_none() {
        sink.at(
            Severity::Warning,
            Code::NoExecuteFunction,
            format!("no prototype of the execute function `{exec_name}`"),
            ws.line,
            doc.line(ws.line),
        );
    }
    exec
}

/// The section describing the first phase's parameters, by decreasing confidence.
fn param_section(doc: &Doc, ws: &Proto, exec_name: &str, sink: &mut Sink) -> Option<Section> {
    let section = op_section(doc, &ws.name, sink)
        .or_else(|| section_titled_as_execute(doc, ws, exec_name, sink))
        .map(|s| with_marker_siblings(doc, s))
        // A doc-level "## 参数说明" naming no function.
        .or_else(|| {
            doc.find_section(|t| t.contains("参数说明") && !t.contains("aclnn"))
                .cloned()
        });
    if section.is_none() {
        sink.at(
            Severity::Warning,
            Code::NoParamSection,
            format!("no `{}` section describing the parameters", ws.name),
            ws.line,
            doc.line(ws.line),
        );
    }
    section
}

/// A function's section with the "参数说明"/"返回值" headings that follow it at its own level
/// ("## aclnnXGetWorkspaceSize" then "## 参数说明"): they are its parts, written as siblings.
fn with_marker_siblings(doc: &Doc, s: &Section) -> Section {
    let mut out = s.clone();
    let later = doc.sections.iter().filter(|x| x.line > s.line);
    for next in later {
        if next.level > s.level {
            continue;
        }
        let marker = ["参数说明", "返回值"]
            .iter()
            .any(|m| opens_with_marker(&next.title, m));
        if next.level < s.level || !marker {
            break;
        }
        out.body.end = out.body.end.max(next.body.end);
    }
    out
}

/// Error rows of the op's section, else of a doc-level 返回值/错误码 section (reported when none).
fn op_errors(
    file: &str,
    doc: &Doc,
    ws: &Proto,
    section: Option<&Section>,
    error_range: Range<usize>,
    sink: &mut Sink,
) -> Vec<ErrorCase> {
    let mut errors = read_errors(doc, file, error_range);
    if errors.is_empty() {
        let shared = doc.sections.iter().filter(|s| {
            (s.title.contains("返回值") || s.title.contains("错误码"))
                && !s.title.contains("aclnn")
                && !inside_a_function_section(doc, s)
        });
        for s in shared {
            errors.extend(read_errors(doc, file, s.body.clone()));
        }
    }
    if errors.is_empty() {
        let line = section.map_or(ws.line, |s| s.line);
        sink.at(
            Severity::Warning,
            Code::NoErrorTable,
            format!("no error codes documented for `{}`", ws.name),
            line,
            doc.line(line),
        );
    }
    errors
}

/// `aclnnFooGetWorkspaceSize` → `Foo` (a single-phase `aclnnFoo` → `Foo`).
fn op_name(ws_name: &str) -> String {
    let base = ws_name.strip_prefix("aclnn").unwrap_or(ws_name);
    if base
        .to_ascii_lowercase()
        .ends_with(&WS_SUFFIX.to_ascii_lowercase())
    {
        base[..base.len() - WS_SUFFIX.len()].to_string()
    } else {
        base.to_string()
    }
}

/// For docs without a GetWorkspaceSize phase: the prototype the title names, or else the one
/// with a heading of its own ("## aclnnTransQuantParam" under a title "# TransQuantParam"). The
/// title is the doc's first heading of its shallowest level: a doc set inside a larger one
/// starts at "##".
fn single_phase_proto<'p>(doc: &Doc, protos: &'p [Proto]) -> Option<&'p Proto> {
    let top = doc.sections.iter().map(|s| s.level).min()?;
    let title = doc.sections.iter().find(|s| s.level == top)?;
    let named = |name: &str| protos.iter().find(|p| p.name == name);
    ACLNN_NAME
        .find(&title.title)
        .and_then(|m| named(m.as_str()))
        .or_else(|| doc.sections.iter().find_map(|s| named(s.title.trim())))
}

fn function(file: &str, doc: &Doc, p: &Proto, sink: &mut Sink) -> Function {
    let return_type = match &p.return_type {
        Some(t) => t.clone(),
        None => {
            sink.at_col(
                Severity::Warning,
                Code::MissingReturnType,
                format!(
                    "prototype `{}` has no return type; `aclnnStatus` assumed",
                    p.name
                ),
                p.line,
                doc.line(p.line),
                p.column,
            );
            "aclnnStatus".to_string()
        }
    };
    Function {
        name: p.name.clone(),
        return_type,
        params: p
            .params
            .iter()
            .map(|c| CParam {
                name: c.name.clone(),
                ty: c.ty.clone(),
            })
            .collect(),
        source: Some(Loc {
            file: file.to_string(),
            line: p.line + 1,
            column: p.column,
        }),
    }
}

fn is_proto_section(title: &str) -> bool {
    ["函数原型", "接口原型", "算子执行接口", "原型"]
        .iter()
        .any(|t| title.contains(t))
}

fn is_example_section(title: &str) -> bool {
    title.contains("调用示例") || title.contains("示例代码")
}

/// Prototypes from the prototype section; from the whole doc (without the example) if it has none.
fn prototypes(doc: &Doc) -> Vec<Proto> {
    let lines_of = |r: Range<usize>| -> Vec<&str> {
        doc.lines[r.start.min(doc.lines.len())..r.end.min(doc.lines.len())].to_vec()
    };
    // Every prototype section: some docs have one per function ("### 函数原型" under each).
    let mut found: Vec<Proto> = Vec::new();
    for s in doc.sections.iter().filter(|s| is_proto_section(&s.title)) {
        for p in find_prototypes(&lines_of(s.body.clone()), s.body.start) {
            if !found.iter().any(|f| f.name == p.name) {
                found.push(p);
            }
        }
    }
    if found
        .iter()
        .any(|p| p.name.to_ascii_lowercase().ends_with("getworkspacesize"))
    {
        return found;
    }
    let mut masked: Vec<&str> = doc.lines.clone();
    for s in doc.sections.iter().filter(|s| is_example_section(&s.title)) {
        for i in s.body.clone() {
            if let Some(l) = masked.get_mut(i) {
                *l = "";
            }
        }
    }
    find_prototypes(&masked, 0)
}

/// The heading `# aclnnX&aclnnY` should name the op.
fn check_title(doc: &Doc, op: &str, sink: &mut Sink) {
    let Some(title) = doc.sections.iter().find(|s| s.level == 1) else {
        return;
    };
    let names: Vec<&str> = ACLNN_NAME
        .find_iter(&title.title)
        .map(|m| m.as_str())
        .collect();
    let want = format!("aclnn{op}");
    if !names.is_empty() && !names.contains(&want.as_str()) {
        let src = doc.line(title.line);
        let found = names.first().copied().unwrap_or("");
        sink.at_text(
            Severity::Warning,
            Code::NameMismatch,
            format!(
                "title names `{}` but the prototype is `{want}`",
                names.join("&")
            ),
            title.line,
            src,
            found,
        );
    }
}

/// The section titled with the GetWorkspaceSize name (a case-insensitive match is a mismatch).
fn op_section<'d>(doc: &'d Doc, ws_name: &str, sink: &mut Sink) -> Option<&'d Section> {
    let names_in = |s: &Section| -> Vec<String> {
        ACLNN_NAME
            .find_iter(&s.title.replace(' ', ""))
            .map(|m| m.as_str().to_string())
            .collect()
    };
    if let Some(s) = doc
        .sections
        .iter()
        .find(|s| names_in(s).iter().any(|n| n == ws_name))
    {
        return Some(s);
    }
    let lower = ws_name.to_ascii_lowercase();
    let s = doc
        .sections
        .iter()
        .find(|s| names_in(s).iter().any(|n| n.to_ascii_lowercase() == lower))?;
    let heading = names_in(s)
        .into_iter()
        .find(|n| n.to_ascii_lowercase() == lower)
        .unwrap_or_default();
    sink.at_text(
        Severity::Warning,
        Code::NameMismatch,
        format!("heading `{heading}` differs from the prototype name `{ws_name}`"),
        s.line,
        doc.line(s.line),
        &heading,
    );
    Some(s)
}

/// A doc bug: the first phase's section titled with the execute function's name. Recognized by
/// describing the first phase's own first parameter.
fn section_titled_as_execute<'d>(
    doc: &'d Doc,
    ws: &Proto,
    exec_name: &str,
    sink: &mut Sink,
) -> Option<&'d Section> {
    let first = ws.params.first()?;
    let s = doc.sections.iter().find(|s| {
        s.level > 1
            && ACLNN_NAME
                .find_iter(&s.title)
                .any(|m| m.as_str() == exec_name)
            && with_marker_siblings(doc, s)
                .body
                .any(|i| doc.line(i).contains(first.name.as_str()) && !doc.in_code[i])
    })?;
    sink.at(
        Severity::Warning,
        Code::NameMismatch,
        format!(
            "the parameters of `{}` are under a heading naming `{exec_name}`",
            ws.name
        ),
        s.line,
        doc.line(s.line),
    );
    Some(s)
}

/// Whether `s` is nested under a heading naming a function ("## aclnnXGetWorkspaceSize" over
/// "### 返回值"): its rows are that function's, not the doc's for every function. The doc's
/// title ("# aclnnX") names the op and holds everything.
///
/// A heading beside a first phase's ("## aclnnXGetWorkspaceSize" then "## 返回值") is its part
/// too; one beside an execute function's ("## aclnnX 参数说明" then "## 返回值") may be the doc's.
fn inside_a_function_section(doc: &Doc, s: &Section) -> bool {
    doc.sections.iter().skip(1).any(|outer| {
        let first_phase = outer
            .title
            .to_ascii_lowercase()
            .contains("getworkspacesize");
        outer.title.contains("aclnn")
            && (outer.level < s.level && outer.body.contains(&s.line)
                || first_phase && with_marker_siblings(doc, outer).body.contains(&s.line))
    })
}

/// Parameters come before the 返回值 marker, error codes after it.
fn split_at_return_value(doc: &Doc, s: &Section) -> (Range<usize>, Range<usize>) {
    let body = s.body.clone();
    let marker = body.clone().find(|&i| {
        // Markup only removes text, so a line without the word cannot gain it: the cheap test
        // first (cleaning every line of big parameter tables was a tenth of `lint`).
        !doc.in_code[i]
            && doc.line(i).contains("返回值")
            && opens_with_marker(doc.line(i), "返回值")
    });
    match marker {
        Some(m) => (body.start..m, m..body.end),
        None => (body.clone(), body),
    }
}

/// Whether a heading or line opens with a section marker ("返回值", "参数说明") whatever markup
/// and list marks come before it ("- **返回值：**", "## 参数说明", "1. 参数说明").
fn opens_with_marker(text: &str, marker: &str) -> bool {
    clean_inline(text)
        .trim_start_matches(|c: char| !c.is_alphanumeric() || c.is_ascii_digit())
        .starts_with(marker)
}

fn section_lines<'d>(
    doc: &'d Doc,
    pred: impl Fn(&str) -> bool,
) -> Option<(&'d Section, Vec<(usize, &'d str)>)> {
    let s = doc.find_section(pred)?;
    let lines = s
        .body
        .clone()
        .filter_map(|i| doc.lines.get(i).map(|l| (i, *l)))
        .collect();
    Some((s, lines))
}

fn description(doc: &Doc) -> String {
    let Some((_, lines)) = section_lines(doc, |t| t.contains("功能说明") || t.contains("功能描述"))
    else {
        return String::new();
    };
    let mut found = false;
    let mut out = String::new();
    for (_, l) in &lines {
        let t = clean_inline(l);
        let t = t.trim().trim_start_matches(['-', '*', '+']).trim();
        if !found {
            if let Some(pos) = ["算子功能", "接口功能", "功能"]
                .iter()
                .find_map(|k| t.strip_prefix(k))
            {
                found = true;
                let rest = pos.trim_start_matches([':', '：', ' ']).trim();
                if !rest.is_empty() {
                    return rest.to_string();
                }
            }
        } else if !t.is_empty() {
            out = t.to_string();
            break;
        }
    }
    if out.is_empty() {
        // No "算子功能：" bullet: the first prose line.
        out = lines
            .iter()
            .map(|(_, l)| {
                clean_inline(l)
                    .trim()
                    .trim_start_matches(['-', '*', '+'])
                    .trim()
                    .to_string()
            })
            .find(|t| !t.is_empty() && !t.starts_with('$') && !t.starts_with('<'))
            .unwrap_or_default();
    }
    out
}

fn formula(doc: &Doc) -> Option<String> {
    let (_, lines) = section_lines(doc, |t| t.contains("功能说明") || t.contains("功能描述"))?;
    let mut inside: Option<Vec<String>> = None;
    for (_, l) in lines {
        let t = l.trim();
        match inside.as_mut() {
            None => {
                if let Some(rest) = t.strip_prefix("$$") {
                    if let Some(inner) = rest.strip_suffix("$$") {
                        return Some(inner.trim().to_string());
                    }
                    inside = Some(if rest.trim().is_empty() {
                        vec![]
                    } else {
                        vec![rest.trim().to_string()]
                    });
                }
            }
            Some(acc) => {
                if let Some(before) = t.strip_suffix("$$") {
                    if !before.trim().is_empty() {
                        acc.push(before.trim().to_string());
                    }
                    return Some(acc.join("\n"));
                }
                acc.push(t.to_string());
            }
        }
    }
    None
}

fn constraints(doc: &Doc) -> Vec<String> {
    let Some((_, lines)) = section_lines(doc, |t| t.contains("约束")) else {
        return Vec::new();
    };
    let out: Vec<String> = lines
        .iter()
        .map(|(_, l)| clean_inline(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let only_none = out
        .iter()
        .all(|l| l.trim_start_matches(['-', '*', ' ']) == "无");
    if only_none {
        Vec::new()
    } else {
        out
    }
}

fn example(doc: &Doc) -> Option<String> {
    let s = doc.find_section(is_example_section)?;
    let b = doc.code_blocks.iter().find(|b| s.body.contains(&b.open))?;
    Some(doc.text(b.content()))
}

fn header(doc: &Doc) -> Option<String> {
    doc.code_blocks.iter().find_map(|b| {
        b.content()
            .filter_map(|i| doc.lines.get(i))
            .filter_map(|l| INCLUDE.captures(l).map(|c| c[1].to_string()))
            // aclnn's own support headers are not the op's header.
            .find(|h| h != "aclnn_base.h" && h != "aclnn_util.h")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Role;
    use aclnn_runtime::DType;

    fn read(text: &str) -> (Vec<OpIr>, Vec<crate::ir::Diagnostic>) {
        let mut sink = Sink::new("t.md");
        let ops = read_markdown("t.md", text, &mut sink);
        (ops, sink.into_diags())
    }

    const BULLETS: &str = "# aclnnFoo

## 产品支持情况

| 产品 | 是否支持 |
| :--- | :---: |
| <term>Atlas A2 训练系列产品/Atlas 800I A2 推理产品</term> | √ |
| <term>Atlas 推理系列产品</term> | √ |

## 功能说明

- 算子功能：计算Foo。
- 计算公式：
  $$
  y = x
  $$

## 函数原型

- `aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor* self, int8_t cubeMathType, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)`
- `aclnnStatus aclnnFoo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)`

## aclnnFooGetWorkspaceSize

- **参数说明：**
  - self（aclTensor*，计算输入）：输入。数据类型支持FLOAT16、FLOAT32、BFLOAT16，支持非连续的Tensor，shape支持4维或5维，数据格式支持ND。不支持空Tensor。
    - <term>Atlas 推理系列产品</term>：数据类型不支持BFLOAT16。
  - cubeMathType（int8_t，计算输入）：计算逻辑。支持的枚举值如下：
    * 0：KEEP_DTYPE，保持。
    * 1：ALLOW_FP32_DOWN_PRECISION，降精度。
  - out（aclTensor*，计算输出）：输出，数据类型与self一致，shape与self一致。
  - workspaceSize（uint64_t*，出参）：大小。
  - executor（aclOpExecutor**，出参）：执行器。
- **返回值：**

  ```
  返回161001 (ACLNN_ERR_PARAM_NULLPTR)：1. 传入的self或out是空指针。
  返回161002 (ACLNN_ERR_PARAM_INVALID)：1. self的数据类型不在支持的范围之内。
                                        2. out的shape与self不一致。
  ```

## 约束说明

- 无

## 调用示例

```Cpp
#include \"aclnnop/aclnn_foo.h\"
int main() { return 0; }
```
";

    #[test]
    fn a_single_phase_function_found_by_its_title_or_its_own_heading() {
        let doc = |title: &str, heading: &str| {
            format!("{title}\n\n## 函数原型\n\n```cpp\naclnnStatus aclnnTransFoo(const aclTensor *x, aclTensor *out);\n```\n\n{heading}\n\n- **参数说明：**\n  - x（aclTensor*，计算输入）：输入。\n  - out（aclTensor*，计算输出）：输出。\n")
        };
        // CANN's title; the same doc set one level deeper inside a larger one; a title without
        // the function's name, whose own heading names it.
        for (title, heading) in [
            ("# aclnnTransFoo", "## aclnnTransFoo"),
            ("## aclnnTransFoo", "### aclnnTransFoo"),
            ("# TransFoo", "## aclnnTransFoo"),
        ] {
            let (ops, _) = read(&doc(title, heading));
            let names: Vec<&str> = ops.iter().map(|o| o.op.as_str()).collect();
            assert_eq!(names, ["TransFoo"], "{title}");
        }
        let (ops, diags) = read(&doc("# TransFoo", "## 参数"));
        assert!(ops.is_empty());
        assert!(diags.iter().any(|d| d.code == Code::NoPrototype));
    }

    #[test]
    fn bullet_style_doc_reads_every_fact() {
        let (ops, diags) = read(BULLETS);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(ops.len(), 1);
        let op = &ops[0];
        assert!(op.diagnostics.is_empty(), "{:?}", op.diagnostics);
        assert_eq!(op.op, "Foo");
        assert_eq!(op.products.len(), 2);
        assert_eq!(op.description, "计算Foo。");
        assert_eq!(op.formula.as_deref(), Some("y = x"));
        assert_eq!(op.functions.len(), 2);
        assert_eq!(op.functions[1].params[3].ty, "aclrtStream");
        assert_eq!(op.header.as_deref(), Some("aclnn_foo.h"));
        assert!(op.constraints.is_empty());
        let self_ = op.param("self").unwrap();
        assert_eq!(self_.role, Role::InputTensor);
        assert_eq!(
            self_.dtypes["ascend910b"],
            [DType::Float16, DType::Float32, DType::BFloat16]
        );
        assert_eq!(self_.dtypes["ascend310p"], [DType::Float16, DType::Float32]);
        assert_eq!(self_.rank, Some(crate::ir::Rank { min: 4, max: 5 }));
        assert_eq!(self_.empty_tensor, Some(false));
        assert_eq!(self_.non_contiguous, Some(true));
        let cube = op.param("cubeMathType").unwrap();
        assert_eq!(cube.role, Role::Attribute);
        assert_eq!(cube.enum_values.len(), 2);
        let out = op.param("out").unwrap();
        assert_eq!(out.role, Role::OutputTensor);
        assert_eq!(out.constraints, ["数据类型与self一致", "shape与self一致"]);
        assert_eq!(op.errors.len(), 3);
        assert_eq!(op.errors[2].condition, "out的shape与self不一致。");
    }

    #[test]
    fn a_return_value_heading_under_one_function_is_not_the_docs_for_all() {
        let text = "# aclnnFoo&aclnnInplaceFoo\n## 函数原型\n```Cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)\naclnnStatus aclnnInplaceFooGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor)\n```\n## aclnnFooGetWorkspaceSize\n### 参数说明\n- self（aclTensor*，计算输入）：x\n- out（aclTensor*，计算输出）：y\n### 返回值\n```\n返回161001（ACLNN_ERR_PARAM_NULLPTR）：1. 传入的self、out是空指针。\n```\n## aclnnInplaceFooGetWorkspaceSize\n### 参数说明\n- selfRef（aclTensor*，计算输入|计算输出）：x\n### 返回值\naclnnStatus：返回状态码。\n";
        let (ops, _) = read(text);
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[0].errors.len(), 1);
        // InplaceFoo documents no rows: Foo's, under Foo's heading, are not its.
        assert_eq!(ops[1].op, "InplaceFoo");
        assert!(ops[1].errors.is_empty(), "{:?}", ops[1].errors);
    }

    #[test]
    fn parameter_and_return_value_headings_at_the_function_s_level_are_its_parts() {
        let text = "# aclnnFoo\n## 函数原型\n```Cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)\n```\n## aclnnFooGetWorkspaceSize\n## 参数说明\n- self（aclTensor*，计算输入）：x。数据类型支持FLOAT16。\n- out（aclTensor*，计算输出）：y\n## 返回值\n```\n返回161001（ACLNN_ERR_PARAM_NULLPTR）：1. 传入的self、out是空指针。\n```\n## 约束说明\n无。\n";
        let (ops, _) = read(text);
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].errors.len(), 1);
        assert_eq!(ops[0].params[0].description, "x。数据类型支持FLOAT16。");
    }

    #[test]
    fn a_return_value_heading_beside_the_execute_function_s_is_the_doc_s() {
        let text = "# aclnnFoo\n## 函数原型\n```Cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize, aclOpExecutor **executor)\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)\n```\n## aclnnFooGetWorkspaceSize 参数说明\n- self（aclTensor*，计算输入）：x\n## aclnnFoo 参数说明\n- stream（aclrtStream，入参）：流\n## 返回值\n| 错误码 | 描述 |\n| --- | --- |\n| ACLNN_ERR_PARAM_NULLPTR | self为空指针。 |\n";
        let (ops, _) = read(text);
        assert_eq!(ops[0].errors.len(), 1, "{:?}", ops[0].errors);
    }

    #[test]
    fn two_ops_in_one_doc_and_mismatched_heading() {
        let text = "# aclnnFoo&aclnnInplaceFoo\n## 函数原型\n```Cpp\naclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)\n```\n```Cpp\naclnnStatus aclnnFoo(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)\n```\n```Cpp\naclnnStatus aclnnInplaceFooGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize, aclOpExecutor **executor)\n```\n## aclnnFooGetWorkSpaceSize\n- self（aclTensor*，计算输入）：x\n";
        let (ops, _) = read(text);
        assert_eq!(ops.len(), 2);
        assert_eq!(ops[1].op, "InplaceFoo");
        assert_eq!(ops[1].params[0].role, Role::InOutTensor);
        assert!(ops[0]
            .diagnostics
            .iter()
            .any(|d| d.code == "name-mismatch" && d.line == 12));
        assert!(ops[0]
            .diagnostics
            .iter()
            .any(|d| d.code == "param-undocumented"));
        assert!(ops[1]
            .diagnostics
            .iter()
            .any(|d| d.code == "no-execute-function"));
    }

    const TABLES: &str = "# aclnnBar

## 产品支持情况

<!-- npu=\"950\" id1 -->
- <term>Ascend 950PR/Ascend 950DT</term>：支持
<!-- end id1 -->
| 产品 | 是否支持 |
| :--- | :---: |
| <term>Atlas 推理系列产品</term> | √ |
| <term>Atlas 训练系列产品</term> | √ |
| <term>Atlas 200I/500 A2 推理产品</term> | × |

## 函数原型

```Cpp
aclnnStatus aclnnBarGetWorkspaceSize(
  const aclTensor *self,
  int8_t           cubeMathType,
  aclTensor       *out,
  uint64_t        *workspaceSize,
  aclOpExecutor  **executor)
```
```Cpp
aclnnStatus aclnnBar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
```

## aclnnBarGetWorkspaceSize

- **参数说明：**
  <table><thead>
    <tr><th>参数名</th><th>输入/输出</th><th>描述</th><th>使用说明</th><th>数据类型</th><th>数据格式</th><th>维度(shape)</th><th>非连续Tensor</th></tr></thead>
  <tbody>
    <tr>
      <td>self（aclTensor*）</td><td>输入</td><td>输入。</td><td>不支持空Tensor。</td><td>FLOAT32、FLOAT16、BFLOAT16</td><td>NCHW、NCL</td><td>3-4</td><td>√</td>
    </tr>
    <tr>
      <td>cubeMathType</td><td>out</td><td>计算逻辑</td><td>取值范围[0,3]</td><td>INT8</td><td>-</td><td>-</td><td>-</td>
    </tr>
    <tr>
      <td>grad（aclTensor*）</td><td>输出</td><td>输出。</td><td>-</td><td>同self</td><td>NCHW、NCL</td><td>3-4</td><td>√</td>
    </tr>
  </tbody></table>
  <term>Atlas 推理系列产品</term>、<term>Atlas 训练系列产品</term>：参数self、res的数据类型不支持BFLOAT16。
  <!-- npu=\"950\" id2 -->
  - <term>Ascend 950PR/Ascend 950DT</term>：数据类型支持FLOAT32。
  <!-- end id2 -->

- **返回值：**

  <table>
  <tr><th>返回码</th><th>错误码</th><th>描述</th></tr>
  <tr><td>ACLNN_ERR_PARAM_NULLPTR</td><td>161001</td><td>传入的self或out是空指针。</td></tr>
  <tr><td rowspan=\"2\">ACLNN_ERR_PARAM_INVALID</td><td rowspan=\"2\">161002</td><td>self的数据类型不在支持的范围之内。</td></tr>
  <tr><td>out的shape与self不一致。</td></tr>
  </table>
";

    #[test]
    fn note_sentences_name_their_own_parameters_and_conditions_restrict_nothing() {
        let doc = TABLES.replace(
            "  - <term>Ascend 950PR/Ascend 950DT</term>：数据类型支持FLOAT32。\n",
            "  - <term>Ascend 950PR/Ascend 950DT</term>：\n    - 参数`self`的数据格式为NCL时，数据类型仅支持FLOAT32。\n    - 出参`grad`的数据类型仅支持FLOAT16。当数据格式为NCL时，数据类型支持FLOAT32。\n    - 出参`out`的数据类型仅支持FLOAT16。\n",
        );
        assert_ne!(doc, TABLES);
        let (ops, _) = read(&doc);
        let op = &ops[0];
        // The conditional sentence leaves self's table dtypes, and the sentence about `grad`
        // (no parameter of the prototype) restricts no other tensor; out's sets out's.
        assert_eq!(
            op.param("self").unwrap().dtypes["ascend950"],
            [DType::Float32, DType::Float16, DType::BFloat16]
        );
        assert_eq!(
            op.param("out").unwrap().dtypes["ascend950"],
            [DType::Float16]
        );
        assert!(op
            .diagnostics
            .iter()
            .any(|d| d.code == "note-unknown-param" && d.message.contains("`grad`")));
    }

    #[test]
    fn html_table_doc_with_product_notes() {
        let (ops, diags) = read(TABLES);
        assert!(diags.is_empty(), "{diags:?}");
        let op = &ops[0];
        let codes: Vec<&str> = op.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "param-not-in-prototype",
                "role-conflict",
                "param-undocumented",
                "param-undocumented",
                "param-undocumented",
                "note-unknown-param"
            ],
            "{:?}",
            op.diagnostics
        );
        assert_eq!(op.products.get("ascend310b"), Some(&false));
        let self_ = op.param("self").unwrap();
        assert_eq!(self_.dtypes["ascend910"], [DType::Float32, DType::Float16]);
        assert_eq!(self_.dtypes["ascend310p"], [DType::Float32, DType::Float16]);
        assert_eq!(self_.dtypes["ascend950"], [DType::Float32]);
        assert!(!self_.dtypes.contains_key("ascend310b"));
        assert_eq!(self_.rank, Some(crate::ir::Rank { min: 3, max: 4 }));
        assert_eq!(self_.empty_tensor, Some(false));
        assert_eq!(self_.formats.len(), 2);
        let cube = op.param("cubeMathType").unwrap();
        assert_eq!(cube.constraints, ["取值范围[0,3]"]);
        assert_eq!(op.errors.len(), 3);
        assert_eq!(op.errors[2].source.as_ref().map(|l| l.line), Some(55));
        let note = op
            .diagnostics
            .iter()
            .find(|d| d.code == "note-unknown-param")
            .unwrap();
        assert_eq!((note.line, note.column), (44, 62));
    }

    #[test]
    fn scraped_plain_text_without_hashes_still_reads() {
        let text = "aclnnBaz\n支持的产品型号\n- [object Object]Atlas 训练系列产品[object Object]。\n接口原型\naclnnBazGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)\naclnnStatus aclnnBaz(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream)\naclnnBazGetWorkspaceSize\n参数说明:\nself(aclTensor*, 计算输入):输入,undefined支持ND。\n- [object Object]Atlas 训练系列产品[object Object]:数据类型支持FLOAT16、FLOAT32。\nout(aclTensor*, 计算输出):输出。\nworkspaceSize(uint64_t*, 出参):大小。\nexecutor(aclOpExecutor**, 出参):执行器。\n返回值: aclnnStatus。\n";
        let (ops, _) = read(text);
        let op = &ops[0];
        assert_eq!(op.products.get("ascend910"), Some(&true));
        assert_eq!(op.functions.len(), 2);
        assert_eq!(op.functions[0].return_type, "aclnnStatus");
        let self_ = op.param("self").unwrap();
        assert_eq!(self_.dtypes["ascend910"], [DType::Float16, DType::Float32]);
        assert_eq!(self_.formats.len(), 1);
        let codes: Vec<&str> = op.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["missing-return-type", "no-error-table"]);
    }

    #[test]
    fn two_column_table_in_a_doc_level_param_section() {
        let text = "# aclnnQux\n## 函数原型\n```Cpp\naclnnStatus aclnnQuxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)\naclnnStatus aclnnQux(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)\n```\n## 参数说明\n| 参数 | 说明 |\n| :-- | :-- |\n| self | **(aclTensor\\*, 计算输入)**：输入，数据类型支持FLOAT16。 |\n| out | **(aclTensor\\*, 计算输出)**：输出。 |\n| workspaceSize | **(uint64_t\\*, 出参)**：大小。 |\n| executor | **(aclOpExecutor\\*\\*, 出参)**：执行器。 |\n| stream | **(aclrtStream, 入参)**：流。 |\n## 返回值\n| 返回码 | 说明 |\n| :-- | :-- |\n| ACLNN_ERR_PARAM_NULLPTR | 空指针。 |\n";
        let (ops, _) = read(text);
        let op = &ops[0];
        assert!(
            op.diagnostics.iter().all(|d| d.code == "no-products"),
            "{:?}",
            op.diagnostics
        );
        let self_ = op.param("self").unwrap();
        assert_eq!(self_.description, "输入，数据类型支持FLOAT16。");
        assert_eq!(op.param("out").unwrap().role, Role::OutputTensor);
        assert_eq!(op.errors.len(), 1);
        assert_eq!(op.errors[0].code, 161001);
    }

    #[test]
    fn spaces_around_names_in_prose_cells_say_nothing() {
        let text = "# aclnnQux\n## 函数原型\n```Cpp\naclnnStatus aclnnQuxGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)\naclnnStatus aclnnQux(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)\n```\n## 参数说明\n| 参数 | 说明 |\n| :-- | :-- |\n| self | **(aclTensor\\*, 计算输入)**：输入 Tensor，数据类型支持 FLOAT16。 |\n| out | **(aclTensor\\*, 计算输出)**：shape、dtype 必须与 self 一致。 |\n| workspaceSize | **(uint64_t\\*, 出参)**：大小。 |\n| executor | **(aclOpExecutor\\*\\*, 出参)**：执行器。 |\n";
        let (ops, _) = read(text);
        let op = &ops[0];
        assert_eq!(
            op.param("self").unwrap().description,
            "输入Tensor，数据类型支持FLOAT16。"
        );
        assert_eq!(
            op.param("out").unwrap().description,
            "shape、dtype必须与self一致。"
        );
    }

    #[test]
    fn notes_do_not_add_products_to_an_intact_product_section() {
        let text = BULLETS.replace(
            "    - <term>Atlas 推理系列产品</term>：数据类型不支持BFLOAT16。",
            "    - <term>Atlas 训练系列产品</term>：数据类型支持FLOAT32。",
        );
        let (ops, _) = read(&text);
        let op = &ops[0];
        assert!(!op.products.contains_key("ascend910"));
        assert!(!op.param("self").unwrap().dtypes.contains_key("ascend910"));
        let d = op
            .diagnostics
            .iter()
            .find(|d| d.code == "product-not-listed")
            .unwrap();
        assert!(d.message.contains("ignored"), "{}", d.message);
    }

    #[test]
    fn misspelled_first_phase_is_one_error_at_its_line_and_read_as_meant() {
        let text = BULLETS.replacen(
            "aclnnFooGetWorkspaceSize(const",
            "aclnnFooGetWorkspaceSze(const",
            1,
        );
        let (ops, diags) = read(&text);
        let errors: Vec<_> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{diags:?}");
        assert_eq!(errors[0].line, 20);
        assert!(errors[0]
            .message
            .contains("did the doc mean `aclnnFooGetWorkspaceSize`"));
        // The rest of the doc is still read (and checked) as the two-phase op it describes.
        assert_eq!(ops.len(), 1);
        assert!(ops[0].workspace_fn().is_some() && ops[0].param("self").is_some());
    }

    #[test]
    fn text_without_prototype_is_an_error() {
        let (ops, diags) = read("just text\n");
        assert!(ops.is_empty());
        let d = diags.iter().find(|d| d.code == "no-prototype").unwrap();
        assert_eq!(d.severity, Severity::Error);
    }
}
