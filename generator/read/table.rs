//! Tables in docs: HTML `<table>` regions (parsed by html5ever through scraper, rowspan and
//! colspan expanded into a grid) and markdown pipe tables, both as rows of plain cell text.

use super::markdown::Doc;
use scraper::{ElementRef, Html, Node, Selector};
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
static TR: LazyLock<Selector> = LazyLock::new(|| Selector::parse("tr").expect("selector"));

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
    let row_lines = row_start_lines(&text, lines.start);
    let html = Html::parse_fragment(&text);
    let mut rows = Vec::new();
    // rowspans still open: per column, (rows left, text).
    let mut pending: Vec<Option<(usize, String)>> = Vec::new();
    for (r, tr) in html.select(&TR).enumerate() {
        let mut cells: Vec<String> = Vec::new();
        let mut header = true;
        let mut any = false;
        let mut col = 0;
        let take_pending = |col: &mut usize,
                            cells: &mut Vec<String>,
                            pending: &mut Vec<Option<(usize, String)>>| {
            while let Some(Some((left, t))) = pending.get_mut(*col) {
                cells.push(t.clone());
                *left -= 1;
                if *left == 0 {
                    pending[*col] = None;
                }
                *col += 1;
            }
        };
        for cell in tr.children().filter_map(ElementRef::wrap) {
            let name = cell.value().name();
            if name != "td" && name != "th" {
                continue;
            }
            any = true;
            header &= name == "th";
            take_pending(&mut col, &mut cells, &mut pending);
            let span = |attr: &str, max: usize| {
                cell.value()
                    .attr(attr)
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(1)
                    .clamp(1, max)
            };
            let (rowspan, colspan) = (span("rowspan", MAX_ROWSPAN), span("colspan", MAX_COLSPAN));
            let t = cell_text(cell);
            for _ in 0..colspan {
                if pending.len() <= col {
                    pending.resize(col + 1, None);
                }
                if rowspan > 1 {
                    pending[col] = Some((rowspan - 1, t.clone()));
                }
                cells.push(t.clone());
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
            line: row_lines.get(r).copied().unwrap_or(lines.start),
            header: header && any,
            cells,
        });
    }
    Table { lines, rows }
}

/// Lines of the `<tr` tags, in order, so row i gets its source line.
fn row_start_lines(text: &str, first: usize) -> Vec<usize> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut line = first;
    let mut last = 0;
    for (pos, _) in lower.match_indices("<tr") {
        let next = lower.as_bytes().get(pos + 3).copied().unwrap_or(b'>');
        if !(next == b'>' || next.is_ascii_whitespace()) {
            continue;
        }
        line += lower[last..pos].matches('\n').count();
        last = pos;
        out.push(line);
    }
    out
}

/// A cell's text: `<br>` and block elements become line breaks, runs of spaces collapse.
fn cell_text(cell: ElementRef) -> String {
    let mut raw = String::new();
    for node in cell.descendants() {
        match node.value() {
            Node::Text(t) => raw.push_str(t),
            Node::Element(e) if matches!(e.name(), "br" | "p" | "li" | "div") => raw.push('\n'),
            _ => {}
        }
    }
    raw.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn pipe_table(doc: &Doc, lines: Range<usize>) -> Table {
    let mut rows = Vec::new();
    for i in lines.clone() {
        let l = doc.line(i).trim();
        let inner = l.strip_prefix('|').unwrap_or(l);
        let inner = inner.strip_suffix('|').unwrap_or(inner);
        let cells: Vec<String> = split_pipes(inner)
            .into_iter()
            .map(|c| BR.replace_all(c.trim(), "\n").trim().to_string())
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
