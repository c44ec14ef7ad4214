//! Tables in docs: HTML `<table>` regions (tokenized by html5ever, rowspan and
//! colspan expanded into a grid) and markdown pipe tables, both as rows of plain cell text.

use super::markdown::Doc;
use super::text::join_dtype_runs;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::ops::Range;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 0-based doc line where the row starts.
    pub line: usize,
    pub header: bool,
    pub cells: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub lines: Range<usize>,
    pub rows: Vec<Row>,
}

impl Table {
    /// Index of the first header column whose text contains one of `names`.
    pub fn column(&self, names: &[&str]) -> Option<usize> {
        let header = self.rows.iter().find(|r| r.header).or(self.rows.first())?;
        header
            .cells
            .iter()
            .position(|c| names.iter().any(|n| c.contains(n)))
    }

    pub fn body(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| !r.header)
    }
}

/// Spans are capped so a hostile `rowspan="1000000"` cannot blow up the grid.
const MAX_ROWSPAN: usize = 1000;
const MAX_COLSPAN: usize = 64;

/// `<br>` inside a pipe-table cell separates lines, as in HTML cells.
static BR: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?i)\s*<br\s*/?>\s*").expect("br pattern"));

/// Every table (HTML or pipe) within `range`, in doc order.
pub fn tables_in(doc: &Doc, range: Range<usize>) -> Vec<Table> {
    let mut out = Vec::new();
    let end = range.end.min(doc.lines.len());
    let mut i = range.start;
    while i < end {
        let line = doc.line(i);
        if doc.in_code[i] {
            i += 1;
            continue;
        }
        if contains_ci(line, "<table") {
            let close = (i..end)
                .find(|&j| contains_ci(doc.line(j), "</table>"))
                .unwrap_or(end - 1);
            out.push(html_table(doc, i..close + 1));
            i = close + 1;
        } else if line.trim_start().starts_with('|') {
            let stop = (i..end)
                .find(|&j| !doc.line(j).trim_start().starts_with('|') || doc.in_code[j])
                .unwrap_or(end);
            out.push(pipe_table(doc, i..stop));
            i = stop;
        } else {
            i += 1;
        }
    }
    out
}

fn contains_ci(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

fn html_table(doc: &Doc, lines: Range<usize>) -> Table {
    let text = doc.text(lines.clone());
    let text = super::text::SUP.replace_all(&text, "");
    // The tokenizer alone is enough: a table is rows of cells, and building a DOM (html5ever's
    // tree builder) cost more than the rest of reading the doc.
    let mut input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&text));
    let mut tokenizer = Tokenizer::new(CellSink::new(lines.start), TokenizerOpts::default());
    let _ = tokenizer.feed(&mut input);
    tokenizer.end();
    let raw_rows = std::mem::take(&mut tokenizer.sink.rows);
    Table {
        lines: lines.clone(),
        rows: expand_spans(raw_rows),
    }
}

/// A cell as written: its text and spans, before rowspan/colspan fill the grid.
struct RawCell {
    text: String,
    header: bool,
    rowspan: usize,
    colspan: usize,
}

struct RawRow {
    line: usize,
    cells: Vec<RawCell>,
}

/// Collects `<tr>`/`<td>`/`<th>` from html5ever's token stream. Missing tags are implied the way
/// browsers imply them: a new cell closes the open one, a new row closes both, and a cell after
/// `</tr>` opens a row.
struct CellSink {
    first_line: usize,
    rows: Vec<RawRow>,
    in_row: bool,
    in_cell: bool,
}

impl CellSink {
    fn new(first_line: usize) -> Self {
        CellSink {
            first_line,
            rows: Vec::new(),
            in_row: false,
            in_cell: false,
        }
    }

    fn start_row(&mut self, line: usize) {
        self.in_row = true;
        self.in_cell = false;
        self.rows.push(RawRow {
            line,
            cells: Vec::new(),
        });
    }

    fn start_cell(&mut self, tag: &Tag, line: usize) {
        // A cell outside any row opens one, as the HTML tree builder does.
        if !self.in_row {
            self.start_row(line);
        }
        let span = |attr: &str, max: usize| {
            tag.attrs
                .iter()
                .find(|a| &*a.name.local == attr)
                .and_then(|a| a.value.trim().parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, max)
        };
        let cell = RawCell {
            text: String::new(),
            header: &*tag.name == "th",
            rowspan: span("rowspan", MAX_ROWSPAN),
            colspan: span("colspan", MAX_COLSPAN),
        };
        if let Some(row) = self.rows.last_mut() {
            row.cells.push(cell);
        }
        self.in_cell = true;
    }

    fn cell_text(&mut self) -> Option<&mut String> {
        if !self.in_cell {
            return None;
        }
        Some(&mut self.rows.last_mut()?.cells.last_mut()?.text)
    }
}

impl TokenSink for CellSink {
    type Handle = ();

    fn process_token(&mut self, token: Token, line_number: u64) -> TokenSinkResult<()> {
        let line = self.first_line + (line_number as usize).saturating_sub(1);
        match token {
            Token::TagToken(tag) => match (tag.kind, &*tag.name) {
                (TagKind::StartTag, "tr") => self.start_row(line),
                (TagKind::StartTag, "td" | "th") => self.start_cell(&tag, line),
                (TagKind::EndTag, "td" | "th") => self.in_cell = false,
                (TagKind::EndTag, "tr" | "table" | "thead" | "tbody" | "tfoot")
                | (TagKind::StartTag, "table" | "thead" | "tbody" | "tfoot") => {
                    self.in_row = false;
                    self.in_cell = false;
                }
                // Block elements and <br> break the cell's text into lines.
                (TagKind::StartTag, "br" | "p" | "li" | "div") => {
                    if let Some(text) = self.cell_text() {
                        text.push('\n');
                    }
                }
                _ => {}
            },
            Token::CharacterTokens(chars) => {
                if let Some(text) = self.cell_text() {
                    text.push_str(&chars);
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

/// Fills the grid: a cell with rowspan repeats in the rows below, one with colspan repeats to
/// the right, so every row's column i means the same header.
fn expand_spans(raw_rows: Vec<RawRow>) -> Vec<Row> {
    let mut rows = Vec::with_capacity(raw_rows.len());
    // Rowspans still open: per column, (rows left, text).
    let mut pending: Vec<Option<(usize, String)>> = Vec::new();
    for raw in raw_rows {
        let mut cells: Vec<String> = Vec::new();
        let header = !raw.cells.is_empty() && raw.cells.iter().all(|c| c.header);
        let mut col = 0;
        for cell in raw.cells {
            take_pending(&mut col, &mut cells, &mut pending);
            let text = join_dtype_runs(&collapse_spaces(&cell.text));
            for _ in 0..cell.colspan {
                if pending.len() <= col {
                    pending.resize(col + 1, None);
                }
                if cell.rowspan > 1 {
                    pending[col] = Some((cell.rowspan - 1, text.clone()));
                }
                cells.push(text.clone());
                col += 1;
            }
        }
        take_pending(&mut col, &mut cells, &mut pending);
        // Columns to the right still covered by rowspans.
        while col < pending.len() {
            if pending[col].is_some() {
                take_pending(&mut col, &mut cells, &mut pending);
            } else {
                cells.push(String::new());
                col += 1;
            }
        }
        while cells.last().is_some_and(String::is_empty) {
            cells.pop();
        }
        rows.push(Row {
            line: raw.line,
            header,
            cells,
        });
    }
    rows
}

/// Copies the rowspan cells that cover `col` onwards into `cells`.
fn take_pending(col: &mut usize, cells: &mut Vec<String>, pending: &mut [Option<(usize, String)>]) {
    while let Some(Some((left, text))) = pending.get_mut(*col) {
        cells.push(text.clone());
        *left -= 1;
        if *left == 0 {
            pending[*col] = None;
        }
        *col += 1;
    }
}

/// A cell's text: lines trimmed, runs of spaces collapsed, blank lines dropped.
fn collapse_spaces(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for line in raw.lines() {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(first);
        for word in words {
            out.push(' ');
            out.push_str(word);
        }
    }
    out
}

fn pipe_table(doc: &Doc, lines: Range<usize>) -> Table {
    let mut rows = Vec::new();
    for i in lines.clone() {
        let l = doc.line(i).trim();
        let inner = l.strip_prefix('|').unwrap_or(l);
        let inner = inner.strip_suffix('|').unwrap_or(inner);
        let cells: Vec<String> = split_pipes(inner)
            .into_iter()
            .map(|c| join_dtype_runs(BR.replace_all(c.trim(), "\n").trim()))
            .collect();
        let is_rule = cells
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|x| matches!(x, '-' | ':' | ' ')));
        if is_rule {
            continue;
        }
        rows.push(Row {
            line: i,
            header: rows.is_empty(),
            cells,
        });
    }
    Table { lines, rows }
}

fn split_pipes(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut escaped = false;
    for c in s.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => out.push(String::new()),
            c => {
                if escaped && c != '|' {
                    out.last_mut().expect("never empty").push('\\');
                }
                escaped = false;
                out.last_mut().expect("never empty").push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rowspan_and_colspan_fill_the_grid() {
        let text = "x\n<table><thead><tr><th>返回码</th><th>错误码</th><th>描述</th></tr></thead>\n<tbody>\n<tr><td rowspan=\"2\">A</td><td rowspan=\"2\">1</td><td>c1</td></tr>\n<tr><td>c2</td></tr>\n<tr><td colspan=\"2\">B</td><td>c3<br>more</td></tr>\n</tbody></table>\ny";
        let doc = Doc::parse(text);
        let t = tables_in(&doc, 0..doc.lines.len());
        assert_eq!(t.len(), 1);
        let rows: Vec<_> = t[0]
            .rows
            .iter()
            .map(|r| (r.line, r.header, r.cells.join("|")))
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, true, "返回码|错误码|描述".to_string()),
                (3, false, "A|1|c1".to_string()),
                (4, false, "A|1|c2".to_string()),
                (5, false, "B|B|c3\nmore".to_string()),
            ]
        );
        assert_eq!(t[0].column(&["描述"]), Some(2));
    }

    /// As in aclnnGeluQuant's doc: a row whose `<tr>` was lost still is a row, at its own line.
    #[test]
    fn cells_after_a_closed_row_open_a_row() {
        let text = "<table>\n<tr><th>参数名</th><th>描述</th></tr>\n<tr><td>a</td><td>x</td></tr>\n  <td>b</td><td>y\n</td>\n<tr>\n</tr>\n<tr><td>c</td><td>z</td></tr>\n</table>";
        let doc = Doc::parse(text);
        let t = tables_in(&doc, 0..doc.lines.len());
        let rows: Vec<_> = t[0].body().map(|r| (r.line, r.cells.join("|"))).collect();
        assert_eq!(
            rows,
            vec![
                (2, "a|x".to_string()),
                (3, "b|y".to_string()),
                (5, String::new()),
                (7, "c|z".to_string()),
            ]
        );
    }

    #[test]
    fn pipe_tables_skip_the_rule() {
        let doc = Doc::parse("| 产品 | 是否支持 |\n| :--- | :-: |\n| <term>A</term> | √ |\n\ntext");
        let t = tables_in(&doc, 0..doc.lines.len());
        assert_eq!(t[0].rows.len(), 2);
        assert_eq!(t[0].rows[1].cells, ["<term>A</term>", "√"]);
        let doc = Doc::parse("| a | b |\n| - | - |\n| x<br>y | z |");
        let t = tables_in(&doc, 0..doc.lines.len());
        assert_eq!(t[0].rows[1].cells, ["x\ny", "z"]);
    }

    #[test]
    fn unclosed_and_deeply_nested_tables_do_not_hang() {
        let mut s = String::from("<table><tr><td>");
        for _ in 0..20000 {
            s.push_str("<div>");
        }
        s.push('x');
        let doc = Doc::parse(&s);
        let t = tables_in(&doc, 0..doc.lines.len());
        assert_eq!(t.len(), 1);
    }
}
