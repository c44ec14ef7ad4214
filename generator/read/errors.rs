//! Error cases of the first phase: a fenced block (`返回161001 (ACLNN_ERR_PARAM_NULLPTR)：1. …`
//! with numbered continuation lines) or a table (返回码/错误码/描述, rowspans expanded), one
//! `ErrorCase` per numbered condition.

use super::markdown::Doc;
use super::table::{tables_in, Table};
use super::text::clean_inline;
use crate::ir::{ErrorCase, Loc};
use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

/// An error entry being read: code, name, and its conditions (line, text).
type Entry = (u32, String, Vec<(usize, String)>);

static HEAD_CODE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[-*+]\s*)?(?:返回\s*)?(\d{6})\s*[(（]?\s*(ACLNN_[A-Z0-9_]+)\s*[)）]?\s*[:：]?\s*(.*)$",
    )
    .unwrap()
});
static HEAD_NAME_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:[-*+]\s*)?(?:返回\s*)?(ACLNN_[A-Z0-9_]+)\s*[(（]?\s*(\d{6})\s*[)）]?\s*[:：]?\s*(.*)$",
    )
    .unwrap()
});
/// "- `ACLNN_ERR_PARAM_NULLPTR`：x为空" with no number: the code is the one opbase declares
/// for the name.
static HEAD_NAME_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]\s*)?(?:返回\s*)?(ACLNN_[A-Z0-9_]+)\s*[:：]\s*(.*)$").unwrap()
});
/// A bulleted item under an entry ("  - 输入与输出 dtype 不一致。"): a condition of its own.
static BULLETED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[-*+]\s+(.*)$").unwrap());
static NUMBERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-*+]\s*)?(\d{1,2})\s*[.．、)]\s*(.*)$").unwrap());
static INLINE_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([。；;])\s*(\d{1,2})\s*[.．、]\s*").unwrap());
static CODE_CELL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(\d{6})\s*$").unwrap());
/// "ACLNN_ERR_PARAM_NULLPTR（161001）" in one cell.
static NAME_CODE_CELL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"ACLNN_[A-Z0-9_]+\s*[(（]\s*(\d{6})\s*[)）]").unwrap());
static NAME_CELL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(ACLNN_[A-Z0-9_]+)").unwrap());

/// Error cases in `range`: fenced blocks first, then tables.
pub fn read_errors(doc: &Doc, file: &str, range: Range<usize>) -> Vec<ErrorCase> {
    let mut out = Vec::new();
    for b in &doc.code_blocks {
        if range.contains(&b.open) {
            out.extend(block_errors(doc, file, b.content()));
        }
    }
    for t in tables_in(doc, range.clone()) {
        if is_error_table(&t) {
            out.extend(table_errors(&t, file));
        }
    }
    if out.is_empty() {
        // Error lines written as plain text or bullets outside a fence.
        let plain: Vec<usize> = range
            .clone()
            .filter(|&i| i < doc.lines.len() && !doc.in_code[i])
            .collect();
        if plain.iter().any(|&i| head(doc.line(i)).is_some()) {
            out.extend(lines_errors(doc, file, plain.into_iter(), Layout::Prose));
        }
    }
    out
}

/// A line opening an entry: its code, name and the rest of the line as the doc writes it (the
/// same row in a table keeps its full-width punctuation, so a fenced one does too).
fn head(line: &str) -> Option<(u32, String, String)> {
    let l = clean_inline(line);
    if let Some(c) = HEAD_CODE_FIRST.captures(&l) {
        return Some((c[1].parse().ok()?, c[2].to_string(), c[3].to_string()));
    }
    if let Some(c) = HEAD_NAME_FIRST.captures(&l) {
        return Some((c[2].parse().ok()?, c[1].to_string(), c[3].to_string()));
    }
    let c = HEAD_NAME_ONLY.captures(&l)?;
    let code = aclnn_runtime::status::code(&c[1])?;
    Some((code, c[1].to_string(), c[2].to_string()))
}

fn block_errors(doc: &Doc, file: &str, range: Range<usize>) -> Vec<ErrorCase> {
    lines_errors(
        doc,
        file,
        range.filter(|&i| i < doc.lines.len()),
        Layout::Fenced,
    )
}

/// Where error lines stand: in a fenced block, every line until the fence closes belongs to the
/// entries; in prose (a bullet list, plain lines), a heading or a paragraph that starts at the
/// margin after a blank line ends them.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    Fenced,
    Prose,
}

/// Whether a prose line ends the error entries: a heading ("## 调用示例", which a doc titled by
/// the op leaves inside the op's section), or, once the entry has a condition, a paragraph at the
/// margin after a blank line that is neither an entry nor a numbered item (a note after the
/// list). A code's first condition may stand in a paragraph of its own.
fn ends_entries(raw: &str, after_blank: bool, entry_has_items: bool) -> bool {
    let t = raw.trim_start();
    if clean_inline(t).trim().is_empty() {
        // Blank, or markup alone (an `<!-- npu -->` marker).
        return false;
    }
    let at_margin = raw.len() == t.len();
    (t.starts_with('#') && raw.len() - t.len() < 4)
        || (entry_has_items && after_blank && at_margin && NUMBERED.captures(t).is_none())
}

fn lines_errors(
    doc: &Doc,
    file: &str,
    lines: impl Iterator<Item = usize>,
    layout: Layout,
) -> Vec<ErrorCase> {
    let mut out: Vec<ErrorCase> = Vec::new();
    // The entry being read: code, name, and its items (line, text).
    let mut current: Option<Entry> = None;
    let flush = |cur: &mut Option<Entry>, out: &mut Vec<ErrorCase>| {
        // `ACLNN_SUCCESS：成功。` ends the entry before it and is no error.
        if let Some((code, name, items)) = cur.take().filter(|(code, _, _)| *code != 0) {
            for (line, text) in items {
                let condition = text.trim().to_string();
                if !condition.is_empty() {
                    out.push(case(code, &name, condition, file, line));
                }
            }
        }
    };
    let mut after_blank = false;
    for i in lines {
        let raw = doc.line(i);
        if let Some((code, name, rest)) = head(raw) {
            flush(&mut current, &mut out);
            let mut items = Vec::new();
            add_text(&mut items, i, &rest);
            current = Some((code, name, items));
        } else if layout == Layout::Prose && ends_entries(raw, after_blank, has_items(&current)) {
            flush(&mut current, &mut out);
        } else if let Some((_, _, items)) = current.as_mut() {
            let l = clean_inline(raw);
            if !l.trim().is_empty() {
                add_text(items, i, &l);
            }
        }
        after_blank = clean_inline(raw).trim().is_empty();
    }
    flush(&mut current, &mut out);
    out
}

fn has_items(entry: &Option<Entry>) -> bool {
    entry
        .as_ref()
        .is_some_and(|(_, _, items)| items.iter().any(|(_, t)| !t.trim().is_empty()))
}

/// Adds a line's text: a numbered item starts a condition, other text continues the last one.
fn add_text(items: &mut Vec<(usize, String)>, line: usize, text: &str) {
    let split = INLINE_NUMBER.replace_all(text, "$1\n$2. ");
    for part in split.split('\n') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if let Some(c) = NUMBERED.captures(part) {
            items.push((line, c[2].trim().to_string()));
        } else if let Some(c) = BULLETED.captures(part) {
            items.push((line, c[1].trim().to_string()));
        } else if let Some(last) = items
            .last_mut()
            .filter(|l| !l.1.trim_end().ends_with(['。', '；', ';']))
        {
            // A line after a finished sentence is its own condition (<li> items, plain lines).
            if !last.1.is_empty() {
                last.1.push(' ');
            }
            last.1.push_str(part);
        } else {
            items.push((line, part.to_string()));
        }
    }
}

fn case(code: u32, name: &str, condition: String, file: &str, line: usize) -> ErrorCase {
    ErrorCase {
        code,
        name: name.to_string(),
        condition,
        source: Some(Loc {
            file: file.to_string(),
            line: line + 1,
            column: 0,
        }),
        mapping: None,
    }
}

fn is_error_table(t: &Table) -> bool {
    super::params::param_name_column(t).is_none()
        && t.body().any(|r| {
            r.cells
                .iter()
                .any(|c| c.contains("ACLNN_") || CODE_CELL.is_match(&clean_inline(c)))
        })
}

fn table_errors(t: &Table, file: &str) -> Vec<ErrorCase> {
    let desc_c = t.column(&["描述", "说明", "原因"]);
    let mut out: Vec<ErrorCase> = Vec::new();
    let mut previous: Option<(u32, String)> = None;
    for row in t.body() {
        let cells: Vec<String> = row.cells.iter().map(|c| clean_inline(c)).collect();
        let code = cells.iter().find_map(|c| {
            CODE_CELL
                .captures(c)
                .or_else(|| NAME_CODE_CELL.captures(c))
                .and_then(|m| m[1].parse::<u32>().ok())
        });
        let name = cells
            .iter()
            .find_map(|c| NAME_CELL.captures(c).map(|m| m[1].to_string()));
        // Tables listing only names ("返回码 | 说明") get aclnn's code for the name.
        let code = code.or_else(|| name.as_deref().and_then(aclnn_runtime::status::code));
        let (code, name) = match (code, name) {
            (Some(code), Some(name)) => (code, name),
            // A lone description row under a rowspan that stops one row short (the author
            // counted the head row): it continues the code above.
            (None, None) if cells.len() == 1 => match previous.clone() {
                Some(head) => head,
                None => continue,
            },
            _ => continue,
        };
        previous = Some((code, name.clone()));
        if code == 0 {
            continue; // ACLNN_SUCCESS
        }
        let desc = desc_c
            .and_then(|i| cells.get(i))
            .or(cells.last())
            .cloned()
            .unwrap_or_default();
        let mut items = Vec::new();
        for l in desc.lines() {
            add_text(&mut items, row.line, l);
        }
        for (_, text) in items {
            let text = text.trim().to_string();
            let dup = out
                .last()
                .is_some_and(|e| e.code == code && e.condition == text && e.name == name);
            // A rowspan head row without a description cell repeats its code or name in the
            // last cell: that is no condition.
            let only_code = text == code.to_string() || text == name;
            if !text.is_empty() && !dup && !only_code {
                out.push(case(code, &name, text, file, row.line));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conditions(text: &str) -> Vec<(u32, String, String, usize)> {
        let doc = Doc::parse(text);
        read_errors(&doc, "a.md", 0..doc.lines.len())
            .into_iter()
            .map(|e| {
                (
                    e.code,
                    e.name,
                    e.condition,
                    e.source.map(|s| s.line).unwrap_or(0),
                )
            })
            .collect()
    }

    #[test]
    fn fenced_block_with_numbered_continuations() {
        let text = "```\n第一段接口完成入参校验，出现以下场景时报错：\n返回161001 (ACLNN_ERR_PARAM_NULLPTR)：1. 传入的self是空指针。\n161002(ACLNN_ERR_PARAM_INVALID): 1. a不在范围内。\n                                  2. b不一致，\n                                  仍是b。\n```";
        let c = conditions(text);
        assert_eq!(
            c,
            vec![
                (
                    161001,
                    "ACLNN_ERR_PARAM_NULLPTR".into(),
                    "传入的self是空指针。".into(),
                    3
                ),
                (
                    161002,
                    "ACLNN_ERR_PARAM_INVALID".into(),
                    "a不在范围内。".into(),
                    4
                ),
                (
                    161002,
                    "ACLNN_ERR_PARAM_INVALID".into(),
                    "b不一致， 仍是b。".into(),
                    5
                ),
            ]
        );
    }

    #[test]
    fn bullet_entries_end_at_a_heading_or_a_paragraph_at_the_margin() {
        let list = "**返回值**：\n\n* **161001 (ACLNN_ERR_PARAM_NULLPTR)**：\n  1. 传入的 `x` 是空指针。\n* **161002 (ACLNN_ERR_PARAM_INVALID)**：\n  1. `x` 的数据类型不在支持的范围之内。\n";
        let rows =
            |text: &str| -> Vec<String> { conditions(text).into_iter().map(|c| c.2).collect() };
        let expected = vec!["传入的 x 是空指针。", "x 的数据类型不在支持的范围之内。"];
        // A doc titled by the op keeps the sections after it inside the op's section.
        assert_eq!(
            rows(&format!("{list}\n## 调用示例\n示例代码如下。\n")),
            expected
        );
        assert_eq!(
            rows(&format!("{list}\n---\n\n## 约束说明\n- x的shape为2维。\n")),
            expected
        );
        assert_eq!(
            rows(&format!("{list}\n确定性计算：默认确定性实现。\n")),
            expected
        );
        // A code whose first condition stands in a paragraph of its own keeps it.
        assert_eq!(
            rows("返回161002（ACLNN_ERR_PARAM_INVALID）：\n\nx的数据类型不在支持的范围之内。\n\n## 约束说明\n"),
            ["x的数据类型不在支持的范围之内。"]
        );
        // A line indented under the list is still the last entry's.
        assert_eq!(
            rows(&format!("{list}\n  2. `x` 的维度大于8。\n")),
            vec![expected[0], expected[1], "x 的维度大于8。"]
        );
        assert_eq!(
            rows(&format!(
                "{list}\n\n  <!-- npu=\"310p\" id8 -->\n  - 另一条。\n"
            )),
            vec![expected[0], expected[1], "另一条。"]
        );
    }

    /// Another team's style: names without numbers, each condition a bullet of its own, and
    /// `ACLNN_SUCCESS` among the codes.
    #[test]
    fn entries_by_name_alone_with_bulleted_conditions() {
        let text = "- 返回值\n\n  `aclnnStatus`：\n\n  - `ACLNN_ERR_PARAM_NULLPTR`：`x`、`out` 为空。\n  - `ACLNN_ERR_PARAM_INVALID`：\n    - 输入或输出 dtype 不在支持范围内。\n    - 输入与输出 dtype 不一致。\n\n- `ACLNN_SUCCESS`：成功。\n";
        let c = conditions(text);
        let got: Vec<(u32, &str)> = c.iter().map(|c| (c.0, c.2.as_str())).collect();
        assert_eq!(
            got,
            [
                (161001, "x、out 为空。"),
                (161002, "输入或输出 dtype 不在支持范围内。"),
                (161002, "输入与输出 dtype 不一致。"),
            ]
        );
    }

    #[test]
    fn a_fenced_entry_keeps_the_punctuation_a_table_cell_would() {
        let c = conditions("```\n返回161002（ACLNN_ERR_PARAM_INVALID）：1. x、out的数据类型不在支持的范围内，或out与x的数据类型不一致。\n```");
        assert_eq!(c[0].0, 161002);
        assert_eq!(
            c[0].2,
            "x、out的数据类型不在支持的范围内，或out与x的数据类型不一致。"
        );
    }

    #[test]
    fn table_with_rowspan() {
        let text = "<table><tr><th>返回码</th><th>错误码</th><th>描述</th></tr>\n<tr><td>ACLNN_ERR_PARAM_NULLPTR</td><td>161001</td><td>x是空指针。</td></tr>\n<tr><td rowspan=\"2\">ACLNN_ERR_PARAM_INVALID</td><td rowspan=\"2\">161002</td><td>a。</td></tr>\n<tr><td>b。</td></tr>\n</table>";
        let c = conditions(text);
        assert_eq!(c.len(), 3);
        assert_eq!(
            c[2],
            (161002, "ACLNN_ERR_PARAM_INVALID".into(), "b。".into(), 4)
        );
    }

    #[test]
    fn a_rowspan_head_without_description_is_no_condition() {
        let text = "<table><thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead><tbody>\n<tr><td rowspan=\"2\">ACLNN_ERR_PARAM_INVALID</td><td rowspan=\"2\">161002</td></tr>\n<tr><td>x的数据类型不在支持的范围之内。</td></tr>\n</tbody></table>";
        let c: Vec<String> = conditions(text).into_iter().map(|c| c.2).collect();
        assert_eq!(c, vec!["x的数据类型不在支持的范围之内。"]);
    }

    #[test]
    fn a_description_row_below_a_short_rowspan_continues_its_code() {
        // The rowspan counts the head row, so the second description falls outside it.
        let text = "<table><thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead><tbody>\n<tr><td rowspan=\"2\">ACLNN_ERR_PARAM_INVALID</td><td rowspan=\"2\">161002</td></tr>\n<tr><td>a。</td></tr>\n<tr><td>b。</td></tr>\n</tbody></table>";
        let c: Vec<(u32, String)> = conditions(text).into_iter().map(|c| (c.0, c.2)).collect();
        assert_eq!(c, vec![(161002, "a。".into()), (161002, "b。".into())]);
    }

    #[test]
    fn heads_without_parens_and_pipe_tables_with_code_spans() {
        let c = conditions("```\n161001 ACLNN_ERR_PARAM_NULLPTR：1. a。\n```");
        assert_eq!(c[0].0, 161001);
        let c = conditions("| 返回码 | 错误码 | 说明 |\n|:--|:--:|:--|\n| `ACLNN_ERR_PARAM_NULLPTR` | `161001` | `x` 为空指针 |");
        assert_eq!(
            c,
            vec![(
                161001,
                "ACLNN_ERR_PARAM_NULLPTR".into(),
                "x 为空指针".into(),
                3
            )]
        );
    }

    #[test]
    fn lines_after_a_finished_sentence_are_separate_conditions() {
        let text = "<table><tr><th>返回码</th><th>错误码</th><th>描述</th></tr>\n<tr><td>ACLNN_ERR_PARAM_INVALID</td><td>161002</td><td><ul><li>a不在范围内。</li><li>b的shape，</li><li>与c不同。</li></ul></td></tr>\n</table>";
        let c: Vec<String> = conditions(text).into_iter().map(|c| c.2).collect();
        assert_eq!(c, ["a不在范围内。", "b的shape， 与c不同。"]);
    }

    #[test]
    fn inline_numbered_items_are_split() {
        let text = "```\n161002（ACLNN_ERR_PARAM_INVALID）：1. a。2. b。\n```";
        let c = conditions(text);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].2, "b。");
    }
}
