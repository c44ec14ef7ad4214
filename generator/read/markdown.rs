//! The line structure of a markdown doc: headings, sections, fenced code blocks and
//! `<!-- npu="..." -->` product scopes. Everything is indexed by 0-based line so every fact
//! keeps its source line; every pass is linear in the doc's size.

use regex::Regex;
use std::ops::Range;
use std::sync::LazyLock;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub line: usize,
    pub level: usize,
    pub title: String,
}

/// A heading and the lines up to the next heading of the same or a higher level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub line: usize,
    pub level: usize,
    pub title: String,
    /// Lines after the heading line.
    pub body: Range<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// The opening fence line.
    pub open: usize,
    /// The closing fence line (or the doc's line count when the fence is never closed).
    pub close: usize,
    pub info: String,
}

impl CodeBlock {
    pub fn content(&self) -> Range<usize> {
        self.open + 1..self.close
    }
}

#[derive(Debug)]
pub struct Doc<'a> {
    pub lines: Vec<&'a str>,
    pub in_code: Vec<bool>,
    pub code_blocks: Vec<CodeBlock>,
    pub sections: Vec<Section>,
    /// For each line, the product ids of the innermost `<!-- npu="..." -->` scope around it.
    pub npu: Vec<Option<usize>>,
    pub npu_scopes: Vec<Vec<String>>,
}

impl<'a> Doc<'a> {
    pub fn parse(text: &'a str) -> Doc<'a> {
        let starts = line_starts(text);
        let lines: Vec<&str> = starts
            .iter()
            .zip(
                starts
                    .iter()
                    .skip(1)
                    .map(|&next| next - 1)
                    .chain([text.len()]),
            )
            .map(|(&start, end)| {
                let l = &text[start..end];
                l.strip_suffix('\r').unwrap_or(l)
            })
            .collect();
        let (in_code, code_blocks) = scan_fences(&lines);
        let mut headings = scan_headings(&lines, &in_code);
        if headings.is_empty() {
            headings = scan_plain_headings(&lines, &in_code);
        }
        let sections = build_sections(&headings, lines.len());
        let (npu, npu_scopes) = scan_npu_scopes(text, &starts, &lines);
        Doc {
            lines,
            in_code,
            code_blocks,
            sections,
            npu,
            npu_scopes,
        }
    }

    pub fn line(&self, idx: usize) -> &'a str {
        self.lines.get(idx).copied().unwrap_or("")
    }

    /// The first section whose title satisfies `pred`.
    pub fn find_section(&self, pred: impl Fn(&str) -> bool) -> Option<&Section> {
        self.sections.iter().find(|s| pred(&s.title))
    }

    /// Product ids of the npu scope around `line`, as product ids (`ascend910b`, ...).
    pub fn npu_products(&self, line: usize) -> Option<&[String]> {
        self.npu
            .get(line)
            .copied()
            .flatten()
            .and_then(|i| self.npu_scopes.get(i))
            .map(Vec::as_slice)
    }

    /// The text of `range` joined with newlines.
    pub fn text(&self, range: Range<usize>) -> String {
        let end = range.end.min(self.lines.len());
        let start = range.start.min(end);
        self.lines[start..end].join("\n")
    }
}

fn fence_of(line: &str) -> Option<(char, usize, &str)> {
    let t = line.trim_start();
    let c = t.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = t.chars().take_while(|&x| x == c).count();
    if n < 3 {
        return None;
    }
    Some((c, n, t[n..].trim()))
}

/// A closing fence has no info string; a stray word after it ("```l") still closes the block
/// when a blank line or a heading follows, as the author meant.
fn closes(rest: &str, next: Option<&&str>) -> bool {
    rest.is_empty()
        || (!rest.contains(' ')
            && next.is_none_or(|l| l.trim().is_empty() || l.trim_start().starts_with('#')))
}

fn scan_fences(lines: &[&str]) -> (Vec<bool>, Vec<CodeBlock>) {
    let mut in_code = vec![false; lines.len()];
    let mut blocks = Vec::new();
    let mut open: Option<(usize, char, usize, String)> = None;
    for (i, line) in lines.iter().enumerate() {
        match (&open, fence_of(line)) {
            (None, Some((c, n, info))) => {
                in_code[i] = true;
                open = Some((i, c, n, info.to_string()));
            }
            (Some((start, c, n, info)), Some((c2, n2, rest)))
                if *c == c2 && n2 >= *n && closes(rest, lines.get(i + 1)) =>
            {
                in_code[i] = true;
                blocks.push(CodeBlock {
                    open: *start,
                    close: i,
                    info: info.clone(),
                });
                open = None;
            }
            (Some(_), _) => in_code[i] = true,
            (None, None) => {}
        }
    }
    if let Some((start, _, _, info)) = open {
        blocks.push(CodeBlock {
            open: start,
            close: lines.len(),
            info,
        });
    }
    (in_code, blocks)
}

fn scan_headings(lines: &[&str], in_code: &[bool]) -> Vec<Heading> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if in_code[i] {
            continue;
        }
        let t = line.trim_start();
        let level = t.chars().take_while(|&c| c == '#').count();
        if level == 0 || level > 6 {
            continue;
        }
        let rest = &t[level..];
        if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
            continue;
        }
        let title = rest.trim().trim_end_matches('#').trim().to_string();
        out.push(Heading {
            line: i,
            level,
            title,
        });
    }
    out
}

/// Section titles of aclnn docs, recognized as headings in text that lost its `#` marks.
const PLAIN_TITLES: &[&str] = &[
    "支持的产品型号",
    "产品支持情况",
    "功能描述",
    "功能说明",
    "接口原型",
    "函数原型",
    "算子执行接口",
    "约束与限制",
    "约束说明",
    "调用示例",
];

static PLAIN_OP_TITLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^aclnn[A-Za-z0-9_]+(\s*&\s*aclnn[A-Za-z0-9_]+)*$").unwrap());

/// Fallback for scraped text without `#`: known section titles and bare `aclnnX` lines.
fn scan_plain_headings(lines: &[&str], in_code: &[bool]) -> Vec<Heading> {
    let mut out: Vec<Heading> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if in_code[i] {
            continue;
        }
        let t = line.trim().trim_end_matches([':', '：']);
        if t.is_empty() || t.len() > 200 {
            continue;
        }
        let level = if PLAIN_TITLES.contains(&t) {
            2
        } else if PLAIN_OP_TITLE.is_match(t) {
            if out.is_empty() {
                1
            } else {
                2
            }
        } else {
            continue;
        };
        out.push(Heading {
            line: i,
            level,
            title: t.to_string(),
        });
    }
    out
}

/// Sections from headings with a stack, so the whole pass is linear.
fn build_sections(headings: &[Heading], n_lines: usize) -> Vec<Section> {
    let mut sections: Vec<Section> = headings
        .iter()
        .map(|h| Section {
            line: h.line,
            level: h.level,
            title: h.title.clone(),
            body: h.line + 1..n_lines,
        })
        .collect();
    let mut open: Vec<usize> = Vec::new();
    for i in 0..sections.len() {
        let level = sections[i].level;
        while let Some(&top) = open.last() {
            if sections[top].level >= level {
                sections[top].body.end = sections[i].line;
                open.pop();
            } else {
                break;
            }
        }
        open.push(i);
    }
    sections
}

static NPU_OPEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"<!--\s*npu\s*=\s*"([^"]*)"\s*([A-Za-z0-9_]*)\s*-->"#).unwrap());
static NPU_END: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<!--\s*end\s*([A-Za-z0-9_]*)\s*-->").unwrap());

/// Byte offset of each line's start (SIMD search: splitting line by line with `str::split` was a
/// tenth of reading a doc).
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
        .collect()
}

/// The lines holding `needle`, found in one pass over the whole text.
fn lines_with(text: &str, starts: &[usize], needle: &str) -> Vec<usize> {
    let mut out: Vec<usize> = memchr::memmem::find_iter(text.as_bytes(), needle)
        .map(|pos| starts.partition_point(|&s| s <= pos) - 1)
        .collect();
    out.dedup();
    out
}

/// `<!-- npu="A3,910b" id2 -->` ... `<!-- end id2 -->`: the product ids in force on each line.
fn scan_npu_scopes(
    text: &str,
    starts: &[usize],
    lines: &[&str],
) -> (Vec<Option<usize>>, Vec<Vec<String>>) {
    let mut per_line = vec![None; lines.len()];
    let mut scopes: Vec<Vec<String>> = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut from = 0;
    for i in lines_with(text, starts, "<!--") {
        // Lines before this comment keep the scope in force.
        let current = stack.last().map(|(s, _)| *s);
        per_line[from..i].fill(current);
        let line = lines[i];
        if let Some(c) = NPU_OPEN.captures(line) {
            let ids = c[1]
                .split([',', '，', ' '])
                .filter(|s| !s.is_empty())
                .map(crate::products::npu_marker_id)
                .collect();
            scopes.push(ids);
            stack.push((scopes.len() - 1, c[2].to_string()));
        } else if let Some(c) = NPU_END.captures(line) {
            let id = &c[1];
            if let Some(pos) = stack.iter().rposition(|(_, name)| name == id) {
                stack.truncate(pos);
            } else {
                stack.pop();
            }
        }
        per_line[i] = stack.last().map(|(s, _)| *s);
        from = i + 1;
    }
    let current = stack.last().map(|(s, _)| *s);
    per_line[from..].fill(current);
    (per_line, scopes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_end_at_same_or_higher_level() {
        let doc = Doc::parse("# A\nx\n## B\ny\n### C\nz\n## D\nw");
        let titles: Vec<_> = doc
            .sections
            .iter()
            .map(|s| (s.title.as_str(), s.body.clone()))
            .collect();
        assert_eq!(
            titles,
            vec![("A", 1..8), ("B", 3..6), ("C", 5..6), ("D", 7..8)]
        );
    }

    #[test]
    fn headings_inside_code_are_ignored() {
        let doc = Doc::parse("# A\n```\n# not\n```\n## B");
        assert_eq!(doc.sections.len(), 2);
        assert_eq!(doc.code_blocks[0].content(), 2..3);
    }

    #[test]
    fn plain_titles_become_headings_without_hashes() {
        let doc = Doc::parse("aclnnFoo\n支持的产品型号\n- x\naclnnFooGetWorkspaceSize\n参数说明:");
        let t: Vec<_> = doc
            .sections
            .iter()
            .map(|s| (s.level, s.title.as_str()))
            .collect();
        assert_eq!(
            t,
            vec![
                (1, "aclnnFoo"),
                (2, "支持的产品型号"),
                (2, "aclnnFooGetWorkspaceSize")
            ]
        );
    }

    #[test]
    fn npu_scopes_nest_and_end() {
        let doc = Doc::parse("<!-- npu=\"A3,910b\" id1 -->\na\n<!-- end id1 -->\nb");
        assert_eq!(
            doc.npu_products(1).unwrap(),
            &["ascend910_93".to_string(), "ascend910b".to_string()]
        );
        assert!(doc.npu_products(3).is_none());
    }
}
