//! Over `../shared/corpus`: a doc reads the same whatever layout holds what it states.
//! - Error rows: CANN's docs give them as an HTML table (most of ops-nn), a Markdown pipe table
//!   (either column first, one "ACLNN_ERR_…（161001）" column, or one row per code with its
//!   conditions numbered in one cell and joined by `<br>`), numbered items in a code block
//!   ("返回161001（ACLNN_ERR_PARAM_NULLPTR）：1. …") or a bullet list; and a doc saved on Windows
//!   ends its lines in CRLF. Each doc whose rows sit in one HTML table is written again in each
//!   other layout, from the rows the reader found, and read again. Their rows mean the same in
//!   the other words docs use ("的dtype", "nullptr", "不相同", "形状", …).
//! - Parameters: HTML or pipe tables with the same columns, or bullet entries that state the
//!   columns in prose ("- self(aclTensor\*，计算输入)：…数据类型支持…", the older style); their
//!   cells in other words ("相同" for "一致", "必须与" for "需要与", "支持的数据类型为A").
//! - The markers of a function's parameters and rows: "- **参数说明：**", "**参数说明**：",
//!   "- 参数说明：" or a heading below the function's or beside it.
//! - Writing style: Latin words spaced apart from the Chinese or not, full-width or ASCII
//!   punctuation, dtype lists joined by "、" or ", ", products in `<term>` or not, headings from
//!   "#" or one level deeper.
//!
//! The rows (code, text), their readings and each parameter's facts must not change.

use aclgen::ir::{Mapping, OpIr};
use std::collections::HashMap;
use std::path::Path;

use crate::common::{corpus, corpus_texts, first_difference, param_facts};

/// One error row as the reader found it.
struct Row {
    code: u32,
    name: String,
    condition: String,
}

/// The rows as a Markdown pipe table: `header` its first row, `cells` one row's cells.
fn pipe_rows(rows: &[Row], header: &[&str], cells: fn(&Row) -> Vec<String>) -> String {
    let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
    let mut out = line(header.iter().map(|h| h.to_string()).collect());
    out.push_str(&line(vec![":--".to_string(); header.len()]));
    for r in rows {
        out.push_str(&line(cells(r)));
    }
    out
}

fn cell_text(r: &Row) -> String {
    r.condition.replace('|', "\\|")
}

/// As docs with Markdown-only tables write them.
fn pipe_table(rows: &[Row]) -> String {
    pipe_rows(rows, &["返回值", "错误码", "描述"], |r| {
        vec![r.name.clone(), r.code.to_string(), cell_text(r)]
    })
}

/// The code first, as some docs order the columns.
fn pipe_table_code_first(rows: &[Row]) -> String {
    pipe_rows(rows, &["错误码", "返回码", "说明"], |r| {
        vec![r.code.to_string(), r.name.clone(), cell_text(r)]
    })
}

/// Name and code in one cell: "ACLNN_ERR_PARAM_NULLPTR（161001）".
fn two_columns(rows: &[Row]) -> String {
    pipe_rows(rows, &["返回码", "描述"], |r| {
        vec![format!("{}（{}）", r.name, r.code), cell_text(r)]
    })
}

/// One row per code, its conditions numbered in one cell and joined by `<br>`.
fn one_cell_per_code(rows: &[Row]) -> String {
    let mut out = String::from("| 返回值 | 错误码 | 描述 |\n| --- | --- | --- |\n");
    for (code, name, conditions) in by_code(rows) {
        let cell: Vec<String> = conditions
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}. {}", i + 1, c.replace('|', "\\|")))
            .collect();
        out.push_str(&format!("| {name} | {code} | {} |\n", cell.join("<br>")));
    }
    out
}

/// Codes in first-seen order, each with its rows' conditions.
fn by_code(rows: &[Row]) -> Vec<(u32, &str, Vec<&str>)> {
    let mut groups: Vec<(u32, &str, Vec<&str>)> = Vec::new();
    for r in rows {
        match groups.iter_mut().find(|g| g.0 == r.code) {
            Some(g) => g.2.push(&r.condition),
            None => groups.push((r.code, &r.name, vec![&r.condition])),
        }
    }
    groups
}

/// The rows as numbered items in a code block, one line per code ("返回161002（…）：1. …"),
/// further items aligned beneath, as older docs write them.
fn code_block(rows: &[Row]) -> String {
    let mut out = String::from("```\n第一段接口完成入参校验，出现以下场景时报错：\n");
    for (code, name, conditions) in by_code(rows) {
        let lead = format!("返回{code}（{name}）：");
        for (i, c) in conditions.iter().enumerate() {
            let head = if i == 0 {
                lead.clone()
            } else {
                " ".repeat(lead.chars().count() * 2)
            };
            out.push_str(&format!("{head}{}. {c}\n", i + 1));
        }
    }
    out.push_str("```\n");
    out
}

/// The rows as a bullet per code with numbered items, as Markdown-first docs write them.
fn bullet_list(rows: &[Row]) -> String {
    let mut out = String::from("**第一段接口完成入参校验，出现如下场景时报错**：\n\n");
    for (code, name, conditions) in by_code(rows) {
        out.push_str(&format!("* **{code} ({name})**：\n"));
        for (i, c) in conditions.iter().enumerate() {
            out.push_str(&format!("  {}. {c}\n", i + 1));
        }
    }
    out
}

/// What must not change: every row's code and text, and how it reads.
fn readings(op: &OpIr) -> Vec<String> {
    op.errors
        .iter()
        .map(|e| {
            let reading = match &e.mapping {
                Some(Mapping::Rules { rules, unread }) => format!(
                    "{:?} unread={unread:?}",
                    rules.iter().map(|r| &r.rule).collect::<Vec<_>>()
                ),
                Some(Mapping::Manual { reason, .. }) => format!("manual: {reason}"),
                None => "unmapped".to_string(),
            };
            format!("{} {} → {reading}", e.code, e.condition)
        })
        .chain(op.inferred_rules.iter().map(|r| format!("{:?}", r.rule)))
        .collect()
}

fn read(path: &Path, text: &str) -> Vec<OpIr> {
    let mut ops = aclgen::read::read_doc(&path.display().to_string(), text.as_bytes()).ops;
    for op in &mut ops {
        aclgen::rules::apply(op);
    }
    ops
}

/// What `view` sees of each op a doc's `text` holds.
fn seen(path: &Path, text: &str, view: impl Fn(&OpIr) -> Vec<String>) -> Vec<Vec<String>> {
    read(path, text).iter().map(view).collect()
}

/// The doc and the first line `other` reads differently from `base`, or `None` where they agree.
fn change(path: &Path, what: &str, base: &[Vec<String>], other: &[Vec<String>]) -> Option<String> {
    (base != other).then(|| {
        let first = first_difference(base, other);
        format!("{} ({what}):{first}", path.display())
    })
}

/// The doc's HTML tables as byte ranges; `None` where one is left open.
fn html_tables(text: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("<table").map(|i| from + i) {
        let close = text[open..]
            .find("</table>")
            .map(|i| open + i + "</table>".len())?;
        out.push(open..close);
        from = close;
    }
    Some(out)
}

/// The one HTML table of the doc that holds its error codes; `None` where there are several or
/// none.
fn error_table(text: &str) -> Option<std::ops::Range<usize>> {
    let mut errors = html_tables(text)?
        .into_iter()
        .filter(|t| text[t.clone()].contains("ACLNN_ERR_PARAM"));
    let first = errors.next()?;
    errors.next().is_none().then_some(first)
}

/// The HTML tables of a doc that hold no error codes (its parameter tables).
fn parameter_tables(text: &str) -> Vec<std::ops::Range<usize>> {
    html_tables(text)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| !text[t.clone()].contains("ACLNN_ERR_"))
        .collect()
}

#[test]
fn error_rows_read_alike_in_every_layout() {
    let Some(corpus) = corpus() else {
        return;
    };
    type Layout = fn(&[Row]) -> String;
    let layouts: [(&str, Layout); 6] = [
        ("pipe table", pipe_table),
        ("pipe table, code first", pipe_table_code_first),
        ("two columns", two_columns),
        ("one cell per code", one_cell_per_code),
        ("code block", code_block),
        ("bullet list", bullet_list),
    ];
    let mut changed = Vec::new();
    let (mut docs, mut crlf_docs) = (0, 0);
    for (path, text) in corpus_texts(&corpus) {
        let base = read(&path, &text);
        let expected: Vec<Vec<String>> = base.iter().map(readings).collect();
        let mut compare = |what: &str, other: &str| {
            changed.extend(change(
                &path,
                what,
                &expected,
                &seen(&path, other, readings),
            ));
        };
        compare("CRLF", &text.replace('\n', "\r\n"));
        crlf_docs += 1;
        // Rows rewritten from one op's reading: only where every op of the doc has them all.
        let Some(table) = error_table(&text) else {
            continue;
        };
        let Some(first) = base.first() else { continue };
        let same_rows = |op: &OpIr| {
            op.errors.len() == first.errors.len()
                && op
                    .errors
                    .iter()
                    .zip(&first.errors)
                    .all(|(a, b)| a.code == b.code && a.condition == b.condition)
        };
        if first.errors.is_empty() || !base.iter().all(same_rows) {
            continue;
        }
        let rows: Vec<Row> = first
            .errors
            .iter()
            .map(|e| Row {
                code: e.code,
                name: e.name.clone(),
                condition: e.condition.clone(),
            })
            .collect();
        docs += 1;
        // Text indented right below the table would, below a bullet list, nest in its last
        // item: the rewrite itself would change what the doc says.
        let nests = text[table.end..]
            .lines()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.starts_with([' ', '\t']));
        for (name, layout) in layouts {
            if nests && name == "bullet list" {
                continue;
            }
            let other = format!(
                "{}\n{}\n{}",
                &text[..table.start],
                layout(&rows),
                &text[table.end..]
            );
            compare(name, &other);
        }
    }
    eprintln!(
        "error rows in {} layouts: {} of {docs} docs changed (CRLF: {crlf_docs} docs)",
        layouts.len() + 1,
        changed.len()
    );
    assert!(docs > 400, "only {docs} docs with one HTML error table");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// What a doc's rows mean, without their words: each row's code and rules, or "manual".
fn meanings(op: &OpIr) -> Vec<String> {
    op.errors
        .iter()
        .map(|e| match &e.mapping {
            Some(Mapping::Rules { rules, unread }) => format!(
                "{} {:?} unread={}",
                e.code,
                rules.iter().map(|r| &r.rule).collect::<Vec<_>>(),
                unread.is_some()
            ),
            Some(Mapping::Manual { .. }) => format!("{} manual", e.code),
            None => format!("{} unmapped", e.code),
        })
        .chain(op.inferred_rules.iter().map(|r| format!("{:?}", r.rule)))
        .collect()
}

/// Error rows mean the same in the other words docs use for them: "的dtype" for "的数据类型",
/// "nullptr" for "空指针", "不在支持范围内" for "不在支持的范围之内", "不相同" for "不一致", "为空"
/// for "是空", "形状" for "shape", "须与"/"应与" for "需要与"/"必须与", "相同" for "保持一致",
/// "高于"/"低于" for "大于"/"小于", with or without "传入的"; and in a second wording "不匹配",
/// "及", "超出支持范围", "不被支持". Each doc's error table is written in each wording and read
/// again.
#[test]
fn error_rows_read_alike_in_other_words() {
    let Some(corpus) = corpus() else {
        return;
    };
    const WORDINGS: [&[(&str, &str)]; 2] = [
        &[
            ("保持一致", "相同"),
            ("需要与", "须与"),
            ("必须与", "应与"),
            ("的数据类型", "的dtype"),
            ("空指针", "nullptr"),
            ("不在支持的范围之内", "不在支持范围内"),
            ("不在支持的范围内", "不在支持范围内"),
            ("不一致", "不相同"),
            ("传入的", ""),
            ("是空", "为空"),
            ("shape", "形状"),
            ("大于", "高于"),
            ("小于", "低于"),
        ],
        &[
            ("不一致", "不匹配"),
            ("和", "及"),
            ("不在支持的范围之内", "超出支持范围"),
            ("不在支持的范围内", "不被支持"),
        ],
    ];
    let (mut docs, mut changed) = (0, Vec::new());
    for (path, text) in corpus_texts(&corpus) {
        let Some(table) = error_table(&text) else {
            continue;
        };
        let base = seen(&path, &text, meanings);
        for (i, wording) in WORDINGS.iter().enumerate() {
            let reworded = wording
                .iter()
                .fold(text[table.clone()].to_string(), |t, (a, b)| t.replace(a, b));
            if reworded == text[table.clone()] {
                continue;
            }
            docs += 1;
            let other = format!("{}{reworded}{}", &text[..table.start], &text[table.end..]);
            changed.extend(change(
                &path,
                &format!("wording {}", i + 1),
                &base,
                &seen(&path, &other, meanings),
            ));
        }
    }
    eprintln!(
        "error rows in other words: {} of {docs} rewordings changed",
        changed.len()
    );
    assert!(docs > 600, "only {docs} reworded error tables");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// Parameter tables state the same in the other words docs use: "相同" for "一致", "必须与"/"须与"
/// for "需要与"/"需与", "支持的数据类型为A" for "数据类型支持A", "shape和x" for "shape与x",
/// "空tensor", "非连续Tensor", and lists joined by "/" ("FLOAT16/FLOAT32"); and in a second
/// wording "相等" for "一致", "形状" for "shape", "高于" for "大于", "不大于" for "小于等于", "及"
/// for "和", "须" for "需要". Each doc's parameter tables are written in each wording and the doc
/// read again.
#[test]
fn parameter_tables_read_alike_in_other_words() {
    let Some(corpus) = corpus() else {
        return;
    };
    const WORDINGS: [&[(&str, &str)]; 2] = [
        &[
            ("保持一致", "相同"),
            ("一致", "相同"),
            ("需要与", "必须与"),
            ("需与", "须与"),
            ("数据类型支持", "支持的数据类型为"),
            ("shape与", "shape和"),
            ("支持空Tensor", "支持空tensor"),
            ("非连续的Tensor", "非连续Tensor"),
        ],
        &[
            ("一致", "相等"),
            ("shape", "形状"),
            ("大于", "高于"),
            ("小于等于", "不大于"),
            ("和", "及"),
            ("需要", "须"),
        ],
    ];
    // "FLOAT16、FLOAT32" as "FLOAT16/FLOAT32" (twice: each match takes the next token's head).
    let list = regex::Regex::new(r"\b([A-Z][A-Z0-9_]{2,})、([A-Z])").expect("regex");
    let slashed = |t: &str| {
        let once = list.replace_all(t, "$1/$2").into_owned();
        list.replace_all(&once, "$1/$2").into_owned()
    };
    let (mut docs, mut changed) = (0, Vec::new());
    for (path, text) in corpus_texts(&corpus) {
        let base = seen(&path, &text, facts);
        for (i, wording) in WORDINGS.iter().enumerate() {
            let mut reworded = text.clone();
            for table in parameter_tables(&text).into_iter().rev() {
                let cells = wording
                    .iter()
                    .fold(text[table.clone()].to_string(), |t, (a, b)| t.replace(a, b));
                let cells = if i == 0 { slashed(&cells) } else { cells };
                reworded.replace_range(table, &cells);
            }
            if reworded == text {
                continue;
            }
            docs += 1;
            changed.extend(change(
                &path,
                &format!("wording {}", i + 1),
                &base,
                &seen(&path, &reworded, facts),
            ));
        }
    }
    eprintln!(
        "parameter tables in other words: {} of {docs} rewordings changed",
        changed.len()
    );
    assert!(docs > 800, "only {docs} reworded parameter tables");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// The cells of an HTML table without merged cells, each flattened to one line (inline HTML such
/// as `<br>` and `<ul><li>` stays); `None` for merged cells, rows of different widths, or rows
/// whose tags do not pair up (a `<tr>` left open, which the reader's HTML parser mends and these
/// patterns would not).
fn html_rows(html: &str) -> Option<Vec<Vec<String>>> {
    let tags = regex::Regex::new(r"</?tr\b").expect("regex");
    let paired = tags
        .find_iter(html)
        .enumerate()
        .all(|(i, t)| t.as_str().starts_with("</") == (i % 2 == 1));
    if html.contains("rowspan") || html.contains("colspan") || !paired {
        return None;
    }
    let row = regex::Regex::new(r"(?s)<tr[^>]*>(.*?)</tr>").expect("regex");
    let cell = regex::Regex::new(r"(?s)<t[hd][^>]*>(.*?)</t[hd]>").expect("regex");
    let rows: Vec<Vec<String>> = row
        .captures_iter(html)
        .map(|r| {
            cell.captures_iter(&r[1])
                .map(|c| c[1].split_whitespace().collect::<Vec<_>>().join(" "))
                .collect()
        })
        .collect();
    let width = rows.first()?.len();
    (width >= 2 && rows.iter().all(|r| r.len() == width)).then_some(rows)
}

/// An HTML table without merged cells as a Markdown pipe table with the same cells.
fn as_pipe_table(html: &str) -> Option<String> {
    let rows = html_rows(html)?;
    let line = |cells: &[String]| {
        let escaped: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", escaped.join(" | "))
    };
    let mut out = line(&rows[0]);
    out.push_str(&line(&vec!["---".to_string(); rows[0].len()]));
    for r in &rows[1..] {
        out.push_str(&line(r));
    }
    Some(out)
}

/// `text` with each HTML table replaced by what `rewrite` makes of it (the table's HTML and its
/// byte range; `None` keeps it), and how many were replaced.
fn replace_tables(
    text: &str,
    mut rewrite: impl FnMut(&str, std::ops::Range<usize>) -> Option<String>,
) -> (String, usize) {
    let table = regex::Regex::new(r"(?s)<table.*?</table>").expect("regex");
    let (mut out, mut last, mut n) = (String::new(), 0, 0);
    for m in table.find_iter(text) {
        let Some(replacement) = rewrite(m.as_str(), m.range()) else {
            continue;
        };
        out.push_str(&text[last..m.start()]);
        out.push_str(&replacement);
        last = m.end();
        n += 1;
    }
    out.push_str(&text[last..]);
    (out, n)
}

/// What the parameter tables state of each parameter: its facts, and the rules read from the
/// error rows and inferred from the tables.
fn facts(op: &OpIr) -> Vec<String> {
    readings(op)
        .into_iter()
        .chain(op.params.iter().map(param_facts))
        .collect()
}

/// Parameter tables written as HTML (ops-nn) or as Markdown pipe tables with the same columns
/// read alike: each HTML table before the error rows that has no merged cells is rewritten as a
/// pipe table, and the doc read again.
#[test]
fn parameter_tables_read_alike_as_pipe_tables() {
    let Some(corpus) = corpus() else {
        return;
    };
    let (mut docs, mut tables) = (0, 0);
    let mut changed = Vec::new();
    for (path, text) in corpus_texts(&corpus) {
        let (rewritten, n) = replace_tables(&text, |html, _| {
            // A pipe table is a block of its own: blank lines around it, at the margin.
            let pipe = as_pipe_table(html).filter(|_| !html.contains("ACLNN_ERR_"))?;
            Some(format!("\n\n{pipe}\n"))
        });
        if n == 0 {
            continue;
        }
        docs += 1;
        tables += n;
        let base = seen(&path, &text, facts);
        changed.extend(change(
            &path,
            "pipe tables",
            &base,
            &seen(&path, &rewritten, facts),
        ));
    }
    eprintln!(
        "parameter tables as pipe tables: {} of {docs} docs ({tables} tables) changed",
        changed.len()
    );
    assert!(docs > 400, "only {docs} docs with HTML parameter tables");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// The markers that open a function's parameters and its error rows, as docs write them:
/// "- **参数说明：**" (ops-nn), "**参数说明**：", "- 参数说明：", or a heading one level below the
/// function's or at its level. Each marker line of the doc is rewritten in each style and the doc read again.
#[test]
fn section_markers_read_alike_in_every_style() {
    let Some(corpus) = corpus() else {
        return;
    };
    let marker =
        regex::Regex::new(r"^[-*] \*\*(参数说明|返回值)(?:：)?\*\*(?:：)?[ \t]*$").expect("regex");
    // `level`: the level of the heading the marker stands under.
    type Style = fn(&str, usize) -> String;
    let styles: [(&str, Style); 4] = [
        ("bold", |word, _| format!("**{word}**：")),
        ("plain bullet", |word, _| format!("- {word}：")),
        ("heading", |word, level| {
            format!("{} {word}", "#".repeat(level + 1))
        }),
        ("sibling heading", |word, level| {
            format!("{} {word}", "#".repeat(level))
        }),
    ];
    let (mut docs, mut changed) = (0, Vec::new());
    for (path, text) in corpus_texts(&corpus) {
        if !text.lines().any(|l| marker.is_match(l)) {
            continue;
        }
        docs += 1;
        let base = seen(&path, &text, facts);
        for (name, style) in styles {
            let mut level = 1;
            let mut in_fence = false;
            let rewritten: Vec<String> = text
                .lines()
                .map(|l| {
                    if l.trim_start().starts_with("```") {
                        in_fence = !in_fence;
                    }
                    let hashes = l.chars().take_while(|&c| c == '#').count();
                    if !in_fence && hashes > 0 && l[hashes..].starts_with(' ') {
                        level = hashes;
                    }
                    match marker.captures(l) {
                        Some(c) if !in_fence => style(&c[1], level),
                        _ => l.to_string(),
                    }
                })
                .collect();
            let other = seen(&path, &rewritten.join("\n"), facts);
            changed.extend(change(&path, name, &base, &other));
        }
    }
    eprintln!(
        "section markers in {} styles: {} of {docs} docs changed",
        styles.len(),
        changed.len()
    );
    assert!(docs > 400, "only {docs} docs with bulleted markers");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// A parameter table's columns read alike under the other names docs give them: "格式" or
/// "数据格式(format)", "数据类型(dtype)", "shape" for 维度(shape), "说明" for 描述, "使用约束" or
/// "约束说明" for 使用说明, "参数" for 参数名, "非连续张量".
#[test]
fn parameter_columns_read_alike_under_other_names() {
    let Some(corpus) = corpus() else {
        return;
    };
    let renamings: [&[(&str, &str)]; 2] = [
        &[
            ("维度(shape)", "维度"),
            ("数据格式", "格式"),
            ("参数名", "参数"),
            ("使用说明", "使用约束"),
            ("非连续Tensor", "非连续张量"),
        ],
        &[
            ("维度(shape)", "shape"),
            ("数据格式", "数据格式(format)"),
            ("数据类型", "数据类型(dtype)"),
            ("描述", "说明"),
            ("使用说明", "约束说明"),
        ],
    ];
    let (mut docs, mut changed) = (0, Vec::new());
    for (path, text) in corpus_texts(&corpus) {
        if !text.contains("<th>使用说明</th>") {
            continue;
        }
        docs += 1;
        let base = seen(&path, &text, facts);
        for (i, renaming) in renamings.iter().enumerate() {
            let mut other = text.clone();
            for (from, to) in renaming.iter() {
                other = other.replace(&format!("<th>{from}</th>"), &format!("<th>{to}</th>"));
            }
            let what = format!("renaming {}", i + 1);
            changed.extend(change(&path, &what, &base, &seen(&path, &other, facts)));
        }
    }
    eprintln!(
        "parameter columns under {} renamings: {} of {docs} docs changed",
        renamings.len(),
        changed.len()
    );
    assert!(docs > 400, "only {docs} docs with CANN's parameter columns");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// One parameter table row as a bullet entry of the older style (ops-nn-2025-12): "- self(const
/// aclTensor \*，计算输入)：描述。数据类型支持…。[数据格式](…)支持ND。shape支持0-8维。支持
/// [非连续的Tensor](…)。", the type from the prototype, and the usage notes in the next line. `None` where a column cannot move into the
/// prose: the row's prose states it already (moving it would state it twice, maybe differently),
/// or its 维度 cell is neither ranks nor a shape.
fn bullet_entry(
    header: &[String],
    row: &[String],
    types: &HashMap<String, String>,
) -> Option<String> {
    let cell = |prefix: &str| {
        header
            .iter()
            .position(|h| h.starts_with(prefix))
            .map(|i| row[i].trim())
            .filter(|c| !c.is_empty() && *c != "-")
    };
    let name_cell = cell("参数名")?;
    let name: String = name_cell
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let ty = types.get(&name)?;
    let tensor = ty.contains("aclTensor");
    let role = match cell("输入/输出")? {
        "输入" if tensor => "计算输入",
        "输入" => "入参",
        "输出" if tensor => "计算输出",
        "输出" => "出参",
        other => other,
    };
    let (description, usage) = (cell("描述"), cell("使用说明"));
    let said = format!("{} {}", description.unwrap_or(""), usage.unwrap_or(""));
    let mut entry = format!("- {name}({}，{role})：", ty.replace('*', "\\*"));
    if let Some(d) = description {
        entry.push_str(d.trim_end_matches('。'));
        entry.push('。');
    }
    if let Some(dtypes) = cell("数据类型") {
        // Lists per product ("Ascend910B 及同代 SoC：…；其他支持产品：…", "FLOAT16；BFLOAT16 仅支持
        // Ascend910B") are notes of their own.
        let per_product = dtypes.contains(['：', ':', '；']);
        if said.contains("数据类型支持") || said.contains("数据类型为") || per_product {
            return None;
        }
        entry.push_str(&format!("数据类型支持{dtypes}。"));
    }
    if let Some(formats) = cell("数据格式") {
        entry.push_str(&format!(
            "[数据格式](../../../docs/zh/context/数据格式.md)支持{formats}。"
        ));
    }
    if let Some(rank) = cell("维度") {
        let ranks = regex::Regex::new(r"^\d+(-\d+)?$").expect("regex");
        if said.contains('维') || said.contains("shape为") || said.contains("shape支持") {
            return None;
        }
        if ranks.is_match(rank) {
            entry.push_str(&format!("shape支持{rank}维。"));
        } else if rank.starts_with(['(', '[']) {
            entry.push_str(&format!("shape为{rank}。"));
        } else {
            return None;
        }
    }
    if let Some(mark) = cell("非连续").filter(|_| tensor) {
        if said.contains("连续") {
            return None;
        }
        let link = "[非连续的Tensor](../../../docs/zh/context/非连续的Tensor.md)。";
        match mark {
            "√" => entry.push_str(&format!("支持{link}")),
            "×" => entry.push_str(&format!("不支持{link}")),
            _ => return None,
        }
    }
    // The usage notes go on in the entry's next line, as a table row's next cell.
    if let Some(u) = usage {
        entry.push_str(&format!("\n  {u}"));
    }
    Some(entry)
}

/// A parameter table as bullet entries at the table's indentation; `None` unless every row can
/// be one.
fn as_bullet_entries(html: &str, indent: &str, types: &HashMap<String, String>) -> Option<String> {
    let rows = html_rows(html)?;
    let header = &rows[0];
    if !header.iter().any(|h| h == "参数名") || !header.iter().any(|h| h == "输入/输出") {
        return None;
    }
    let entries: Option<Vec<String>> = rows[1..]
        .iter()
        .map(|r| {
            bullet_entry(header, r, types).map(|e| {
                e.lines()
                    .map(|l| format!("{indent}{l}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        })
        .collect();
    Some(entries?.join("\n"))
}

/// The indentation the entries replacing the table at `at` take: that of the bullets after the
/// table (its product notes, which must stay beside the entries and not fall inside the last),
/// else the table's.
fn entry_indent(text: &str, at: std::ops::Range<usize>) -> &str {
    let line_start = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..at.start];
    let table = if lead.trim().is_empty() { lead } else { "" };
    let next_bullet = text[at.end..]
        .lines()
        .map(|l| (l, l.trim_start()))
        .find(|(_, t)| !t.is_empty() && !t.starts_with("<!--"))
        .filter(|(_, t)| t.starts_with("- ") || t.starts_with("* "))
        .map(|(l, t)| &l[..l.len() - t.len()]);
    next_bullet
        .filter(|b| b.len() >= table.len())
        .unwrap_or(table)
}

/// Parameters described in a table (ops-nn) or as bullet entries (the older style of
/// ops-nn-2025-12) read alike: each parameter table is rewritten as entries stating its columns
/// in prose, and the doc read again.
#[test]
fn parameter_tables_read_alike_as_bullet_entries() {
    let Some(corpus) = corpus() else {
        return;
    };
    let (mut docs, mut tables, mut kept) = (0, 0, 0);
    let mut changed = Vec::new();
    for (path, text) in corpus_texts(&corpus) {
        let base_ops = read(&path, &text);
        // The second phase's parameters are no op's: their types are CANN's.
        let execute = [
            ("workspace", "void*"),
            ("workspaceSize", "uint64_t"),
            ("executor", "aclOpExecutor*"),
            ("stream", "aclrtStream"),
        ];
        let types: HashMap<String, String> = execute
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .chain(
                base_ops
                    .iter()
                    .flat_map(|op| &op.params)
                    .map(|p| (p.name.clone(), p.ty.to_string())),
            )
            .collect();
        let (rewritten, n) = replace_tables(&text, |html, at| {
            let entries = as_bullet_entries(html, entry_indent(&text, at), &types);
            kept += usize::from(entries.is_none() && html.contains("<th>参数名</th>"));
            Some(format!("\n{}\n", entries?))
        });
        if n == 0 {
            continue;
        }
        docs += 1;
        tables += n;
        let base: Vec<Vec<String>> = base_ops.iter().map(facts).collect();
        let other = seen(&path, &rewritten, facts);
        changed.extend(change(&path, "bullet entries", &base, &other));
    }
    eprintln!(
        "parameter tables as bullet entries: {} of {docs} docs ({tables} tables; {kept} tables left, a row's prose stating a column already) changed",
        changed.len()
    );
    assert!(
        docs > 400,
        "only {docs} docs with parameter tables rewritten"
    );
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// Every line outside code blocks, rewritten by `f`.
fn rewrite_prose(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut in_fence = false;
    text.lines()
        .map(|l| {
            if l.trim_start().starts_with("```") {
                in_fence = !in_fence;
                return l.to_string();
            }
            if in_fence {
                l.to_string()
            } else {
                f(l)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// "数据类型为 FLOAT" and "数据类型为FLOAT", "（N，C）" and "(N, C)": what a reading says, with the
/// doc's own spacing and punctuation set aside (rows and reasons quote the doc's text).
fn unspaced(s: &str) -> String {
    aclgen::read::ascii_punct(s)
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '、' { ',' } else { c })
        .collect()
}

/// A doc reads the same whether it spaces Latin words apart from the Chinese around them
/// ("shape 为 [N, C]", the style of teams that run a spacing linter) or not, whether its prose
/// punctuates in full width ("，（：；") or in ASCII (", (: ;"), lists dtypes with "、" or ", ",
/// marks products with `<term>` or not, and starts at "#" or one level deeper (a doc set inside
/// a larger one). Each doc is written each way and read again.
/// `line` with each 、 between two dtype names (or two format names) replaced by `sep`.
fn parted_vocab_lists(line: &str, sep: &str) -> String {
    use aclgen::read::{both_dtypes_or_formats, join_pairs};
    static PAIR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?-u:\b)([A-Z][A-Z0-9_]*)、([A-Z][A-Z0-9_]*)(?-u:\b)").expect("regex")
    });
    join_pairs(line, &PAIR, |a, b| {
        both_dtypes_or_formats(a, b).then(|| format!("{a}{sep}{b}"))
    })
}

#[test]
fn writing_styles_read_alike() {
    let Some(corpus) = corpus() else {
        return;
    };
    let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    let latin = |c: char| c.is_ascii_alphanumeric() || c == '`';
    type Style = Box<dyn Fn(&str) -> String>;
    let dtype_list = regex::Regex::new(r"\b([A-Z][A-Z0-9_]{2,})、").expect("regex");
    let by_blanks = |l: &str| parted_vocab_lists(l, " ");
    let by_breaks = |l: &str| parted_vocab_lists(l, "<br>");
    // A rank after a verb or in a list ("支持2维、3维"), not an ordinal ("第2维") nor a count ("前2维").
    let as_numeral = regex::Regex::new(r"(支持|为|是|、|或)([1-8])维").expect("regex");
    // "2维ND", "1维1元素" keep theirs: "2DND" is no way to write them.
    let rank = regex::Regex::new(r"(支持|为|是|、|或)([1-8])维([^A-Za-z0-9]|$)").expect("regex");
    let rank_cell = regex::Regex::new(r"(<td[^>]*>)\s*(\d)\s*-\s*(\d)\s*</td>").expect("regex");
    let styles: [(&str, Style); 10] = [
        (
            "spaced",
            Box::new(move |l: &str| {
                let mut out = String::with_capacity(l.len() + 16);
                let mut prev: Option<char> = None;
                for c in l.chars() {
                    if prev.is_some_and(|p| (cjk(p) && latin(c)) || (latin(p) && cjk(c))) {
                        out.push(' ');
                    }
                    out.push(c);
                    prev = Some(c);
                }
                out
            }),
        ),
        (
            "ascii punctuation",
            Box::new(|l: &str| {
                l.replace('，', ", ")
                    .replace('（', "(")
                    .replace('）', ")")
                    .replace('：', ": ")
                    .replace('；', "; ")
            }),
        ),
        (
            "dtype lists with commas",
            Box::new(move |l: &str| dtype_list.replace_all(l, "$1, ").into_owned()),
        ),
        (
            "dtype and format lists parted by blanks",
            Box::new(by_blanks),
        ),
        ("dtype and format lists parted by <br>", Box::new(by_breaks)),
        (
            "ranks in Chinese numerals",
            Box::new(move |l: &str| {
                as_numeral
                    .replace_all(l, |c: &regex::Captures| {
                        let n: usize = c[2].parse().unwrap_or(0);
                        let numeral = "零一二三四五六七八".chars().nth(n).unwrap_or('零');
                        format!("{}{numeral}维", &c[1])
                    })
                    .into_owned()
            }),
        ),
        (
            "ranks as ND",
            Box::new(move |l: &str| rank.replace_all(l, "${1}${2}D${3}").into_owned()),
        ),
        (
            "rank cells as intervals",
            Box::new(move |l: &str| rank_cell.replace_all(l, "$1[$2, $3]</td>").into_owned()),
        ),
        (
            "no term tags",
            Box::new(|l: &str| l.replace("<term>", "").replace("</term>", "")),
        ),
        (
            "headings one level deeper",
            Box::new(|l: &str| match l.starts_with('#') {
                true => format!("#{l}"),
                false => l.to_string(),
            }),
        ),
    ];
    let (mut docs, mut changed) = (0, Vec::new());
    // A condition's text keeps the doc's words; a rank compares as the reader takes it ("五维", "5D").
    let plain = |op: &OpIr| {
        let facts = facts(op).into_iter();
        facts
            .map(|f| unspaced(&aclgen::read::rank_words(&f)))
            .collect()
    };
    for (path, text) in corpus_texts(&corpus) {
        docs += 1;
        let base = seen(&path, &text, plain);
        for (name, style) in &styles {
            let other = seen(&path, &rewrite_prose(&text, style), plain);
            changed.extend(change(&path, name, &base, &other));
        }
    }
    eprintln!(
        "writing styles, {} of them: {} of {docs} docs changed",
        styles.len(),
        changed.len()
    );
    assert!(docs > 500, "only {docs} docs");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}
