//! Plain text scraped from a web page (headings lost their `#`, links became `undefined`, tags
//! became `[object Object]`), turned back into the markdown the structure reader understands.
//! Line count is preserved so every location stays true: line N of the output is line N of the input.
//!
//! The output follows the shape of the markdown docs (corpus `ops-nn-2025-12`, seeds 000/001):
//! `# aclnnOp`, `## section`, `## aclnnOpGetWorkspaceSize`, and inside a function section
//! `- **参数说明:**` with `  - name(type, role):desc` parameter bullets and `    - ` product notes.

use crate::diag::Code;
use regex::Regex;
use std::sync::OnceLock;

/// One scrape artifact found, by 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub line: usize,
    /// 1-based character column of the artifact (1 for whole-line rewrites).
    pub column: usize,
    /// Stable kind: `scrape-heading`, `scrape-object-object`, `scrape-undefined-link`,
    /// `scrape-param-bullet`, `scrape-prototype`.
    pub kind: Code,
    pub message: String,
}

/// Section titles of aclnn docs that a scrape leaves on a line of their own.
const SECTION_TITLES: &[&str] = &[
    "支持的产品型号",
    "产品支持情况",
    "接口原型",
    "函数原型",
    "算子执行接口",
    "功能描述",
    "功能说明",
    "约束与限制",
    "约束说明",
    "调用示例",
];

/// Titles that belong to one function of the two-phase API (a bullet inside its section).
const FUNCTION_TITLES: &[&str] = &["参数说明", "返回值"];

const OBJECT: &str = "[object Object]";

/// Returns the normalized markdown and the artifacts found, or `None` when `text` is not scraped text.
pub fn normalize(text: &str) -> Option<(String, Vec<Artifact>)> {
    if !looks_scraped(text) {
        return None;
    }
    let mut state = State::default();
    let mut out = String::with_capacity(text.len() + 256);
    let mut artifacts = Vec::new();
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let (line, ending) = split_ending(raw);
        let fixed = state.line(i + 1, line, &mut artifacts);
        out.push_str(&fixed);
        out.push_str(ending);
    }
    Some((out, artifacts))
}

/// Scraped text has no markdown heading and shows at least one scrape residue or two known
/// section titles on lines of their own.
fn looks_scraped(text: &str) -> bool {
    let mut titles = 0;
    let mut residue = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') && t.trim_start_matches('#').starts_with(' ') {
            return false;
        }
        if t.starts_with("```") {
            return false;
        }
        residue |= t.contains(OBJECT) || !undefined_columns(t).is_empty();
        if section_title(t).is_some() {
            titles += 1;
        }
    }
    residue || titles >= 2
}

fn split_ending(raw: &str) -> (&str, &str) {
    let body = raw.trim_end_matches(['\n', '\r']);
    (body, &raw[body.len()..])
}

/// A line that is exactly a known section title, possibly with a trailing colon.
fn section_title(line: &str) -> Option<&'static str> {
    let bare = line.trim().trim_end_matches([':', '：']).trim_end();
    SECTION_TITLES
        .iter()
        .chain(FUNCTION_TITLES)
        .copied()
        .find(|t| *t == bare)
}

/// `参数说明:` or `返回值: aclnnStatus...`: a function title, then the rest of the line.
fn function_title(line: &str) -> Option<(&'static str, &str)> {
    let t = line.trim();
    FUNCTION_TITLES.iter().copied().find_map(|title| {
        let rest = t.strip_prefix(title)?;
        if rest.is_empty() {
            return Some((title, ""));
        }
        rest.strip_prefix([':', '：']).map(|r| (title, r.trim()))
    })
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static regex"))
}

/// `aclnnFoo` or `aclnnFooGetWorkspaceSize` alone on a line.
fn function_name(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(&RE, r"^aclnn[A-Za-z0-9_]+$").is_match(line.trim())
}

/// A C prototype of an aclnn function left as plain text (with or without its return type).
fn prototype(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(
        &RE,
        r"^(?:[A-Za-z_][A-Za-z0-9_]*\s+)?aclnn[A-Za-z0-9_]+\s*\(.*\)\s*;?$",
    )
    .is_match(line.trim())
}

/// `name(type, role):desc`, optionally already a bullet.
fn param_line(line: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    regex(
        &RE,
        r"^(?:[-*]\s+)?[A-Za-z_][A-Za-z0-9_]*\s*[（(][^()（）]*[,，][^()（）]*[)）]\s*[:：]",
    )
    .is_match(line.trim())
}

/// Character columns (1-based) of `undefined` standing as a word: a link whose text was lost.
fn undefined_columns(line: &str) -> Vec<usize> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices("undefined")
        .filter(|(at, m)| {
            let before = line[..*at].chars().next_back();
            let after = line[at + m.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
        .map(|(at, _)| line[..at].chars().count() + 1)
        .collect()
}

#[derive(Default)]
struct State {
    seen_title: bool,
    in_function: bool,
    in_params: bool,
    /// After a `返回值` bullet: its text lines are indented into the bullet.
    in_return: bool,
}

impl State {
    fn line(&mut self, n: usize, line: &str, artifacts: &mut Vec<Artifact>) -> String {
        let mut push = |column: usize, kind: Code, message: String| {
            artifacts.push(Artifact {
                line: n,
                column,
                kind,
                message,
            })
        };
        for column in undefined_columns(line) {
            push(
                column,
                Code::ScrapeUndefinedLink,
                "`undefined` where a link was (its text was lost in the scrape)".to_string(),
            );
        }
        let line = replace_objects(line, n, artifacts);
        let mut push = |kind: Code, message: String| {
            artifacts.push(Artifact {
                line: n,
                column: 1,
                kind,
                message,
            })
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return line;
        }
        if !self.seen_title && function_name(trimmed) {
            self.seen_title = true;
            push(
                Code::ScrapeHeading,
                "op title restored as `#` heading".into(),
            );
            return format!("# {trimmed}");
        }
        self.seen_title = true;
        if function_name(trimmed) {
            self.in_function = true;
            self.in_params = false;
            self.in_return = false;
            push(
                Code::ScrapeHeading,
                "function name restored as `##` heading".into(),
            );
            return format!("## {trimmed}");
        }
        if self.in_function {
            if let Some((title, rest)) = function_title(trimmed) {
                self.in_params = title == "参数说明";
                self.in_return = title == "返回值";
                push(
                    Code::ScrapeHeading,
                    format!("`{title}` restored as a bullet title"),
                );
                return if rest.is_empty() {
                    format!("- **{title}:**")
                } else {
                    format!("- **{title}:** {rest}")
                };
            }
        }
        if let Some(title) = section_title(trimmed) {
            self.in_function = false;
            self.in_params = false;
            self.in_return = false;
            push(
                Code::ScrapeHeading,
                format!("section title `{title}` restored as `##` heading"),
            );
            return format!("## {title}");
        }
        if prototype(trimmed) {
            push(
                Code::ScrapePrototype,
                "prototype restored as inline code".into(),
            );
            return format!("- `{trimmed}`");
        }
        if self.in_params {
            if param_line(trimmed) {
                let body = trimmed.trim_start_matches(['-', '*']).trim_start();
                if !trimmed.starts_with(['-', '*']) {
                    push(
                        Code::ScrapeParamBullet,
                        "parameter line made a bullet".into(),
                    );
                }
                return format!("  - {body}");
            }
            if let Some(body) = trimmed.strip_prefix("- ") {
                return format!("    - {body}");
            }
        }
        if self.in_return && !trimmed.starts_with(['-', '*']) {
            return format!("  {trimmed}");
        }
        line
    }
}

/// `[object Object]X[object Object]` was `<term>X</term>`; an unpaired one is dropped.
fn replace_objects(line: &str, n: usize, artifacts: &mut Vec<Artifact>) -> String {
    if !line.contains(OBJECT) {
        return line.to_string();
    }
    let column = line
        .find(OBJECT)
        .map_or(1, |at| line[..at].chars().count() + 1);
    let parts: Vec<&str> = line.split(OBJECT).collect();
    let mut out = String::with_capacity(line.len());
    let pairs = (parts.len() - 1) / 2;
    for (i, part) in parts.iter().enumerate() {
        out.push_str(part);
        if i + 1 == parts.len() {
            break;
        }
        let opening = i % 2 == 0;
        if i / 2 < pairs {
            out.push_str(if opening { "<term>" } else { "</term>" });
        }
    }
    artifacts.push(Artifact {
        line: n,
        column,
        kind: Code::ScrapeObjectObject,
        message: format!(
            "{} `[object Object]` residue(s) restored as <term> tags",
            parts.len() - 1
        ),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of the seed doc whose file name starts with `prefix`.
    fn seed(prefix: &str) -> String {
        crate::read::decode::decode(&crate::fixture::seed(prefix)).text
    }

    fn kinds_on(artifacts: &[Artifact], line: usize) -> Vec<&'static str> {
        artifacts
            .iter()
            .filter(|a| a.line == line)
            .map(|a| a.kind.as_str())
            .collect()
    }

    #[test]
    fn seed_002_becomes_markdown_with_the_same_lines() {
        let text = seed("002");
        let (md, artifacts) = normalize(&text).expect("seed 002 is scraped");
        assert_eq!(md.lines().count(), text.lines().count());
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "# aclnnAdaptiveAvgPool2dBackward");
        assert_eq!(lines[1], "## 支持的产品型号");
        assert_eq!(lines[2], "- <term>Atlas 推理系列产品</term>。");
        assert_eq!(lines[5], "## 接口原型");
        assert!(lines[7].starts_with("- `aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize("));
        assert!(lines[8].starts_with("- `aclnnStatus aclnnAdaptiveAvgPool2dBackward("));
        assert_eq!(lines[9], "## 功能描述");
        assert_eq!(
            lines[11],
            "## aclnnAdaptiveAvgPool2dBackwardGetWorkspaceSize"
        );
        assert_eq!(lines[12], "- **参数说明:**");
        assert!(lines[13].starts_with("  - gradOutput(aclTensor*, 计算输入):"));
        assert!(lines[14].starts_with(
            "    - <term>Atlas 训练系列产品</term>、<term>Atlas 推理系列产品</term>:"
        ));
        assert!(lines[16].starts_with("  - self(aclTensor *, 计算输入):"));
        assert!(lines[19].starts_with("  - out (aclTensor*, 计算输出):"));
        assert!(lines[22].starts_with("  - workspaceSize(uint64_t*, 出参)"));
        assert!(lines[24].starts_with("- **返回值:** aclnnStatus:返回状态码"));
        assert_eq!(lines[25], "## aclnnAdaptiveAvgPool2dBackward");
        assert!(lines[27].starts_with("  - workspace(void*, 入参)"));
        assert_eq!(lines[31], "- **返回值:**");
        // The return value's text stays inside its bullet.
        assert_eq!(lines[32], "  aclnnStatus:返回状态码,具体参见undefined。");
        assert_eq!(lines[33], "## 约束与限制");
        assert_eq!(lines[34], "无");
        assert_eq!(lines[35], "## 调用示例");
        assert!(!md.contains(OBJECT));
        // Every artifact kind is reported on its line.
        assert!(kinds_on(&artifacts, 1).contains(&"scrape-heading"));
        assert!(kinds_on(&artifacts, 3).contains(&"scrape-object-object"));
        assert!(kinds_on(&artifacts, 7).contains(&"scrape-undefined-link"));
        assert!(kinds_on(&artifacts, 8).contains(&"scrape-prototype"));
        assert!(kinds_on(&artifacts, 14).contains(&"scrape-param-bullet"));
        assert!(!kinds_on(&artifacts, 28).contains(&"scrape-param-bullet"));
        let undefined = artifacts
            .iter()
            .find(|a| a.line == 7 && a.kind == "scrape-undefined-link")
            .expect("undefined on line 7");
        assert_eq!(undefined.column, "每个算子分为".chars().count() + 1);
    }

    #[test]
    fn crlf_endings_and_line_count_are_kept() {
        let text = "aclnnFoo\r\n功能描述\r\n- 算子功能: x。\r\n\r\n调用示例\r\n";
        let (md, _) = normalize(text).expect("scraped");
        assert_eq!(
            md,
            "# aclnnFoo\r\n## 功能描述\r\n- 算子功能: x。\r\n\r\n## 调用示例\r\n"
        );
    }

    #[test]
    fn object_pairs_become_term_tags() {
        let mut artifacts = Vec::new();
        let line = "[object Object]A[object Object]、[object Object]B[object Object]:x";
        assert_eq!(
            replace_objects(line, 4, &mut artifacts),
            "<term>A</term>、<term>B</term>:x"
        );
        assert_eq!(artifacts[0].line, 4);
        assert_eq!(artifacts[0].kind, "scrape-object-object");
        // An unpaired residue is dropped rather than left half-tagged.
        assert_eq!(replace_objects("[object Object]A", 1, &mut artifacts), "A");
    }

    #[test]
    fn undefined_inside_words_is_not_residue() {
        assert!(undefined_columns("x is undefinedBehavior or _undefined").is_empty());
        assert_eq!(undefined_columns("参见undefined。"), [3]);
    }

    #[test]
    fn markdown_seeds_are_not_scraped() {
        for prefix in ["000", "001", "003", "004"] {
            assert!(normalize(&seed(prefix)).is_none(), "seed {prefix}");
        }
    }

    #[test]
    fn corpus_docs_are_not_scraped() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !root.is_dir() {
            println!("skipping: {} is absent", root.display());
            return;
        }
        let mut stack = vec![root];
        let mut checked = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    let bytes = std::fs::read(&path).expect("read corpus doc");
                    let text = crate::read::decode::decode(&bytes).text;
                    assert!(normalize(&text).is_none(), "{}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "{checked} docs");
    }

    #[test]
    fn plain_prose_is_not_scraped() {
        assert!(normalize("hello\nworld\n").is_none());
        assert!(normalize("").is_none());
    }

    proptest::proptest! {
        #[test]
        fn normalize_keeps_line_count(text in "(aclnnFoo|参数说明:|返回值: x|调用示例|- a|x(int, 入参):d|\\[object Object\\]|undefined|[a-z]{0,5}|\r|\n){0,40}") {
            if let Some((md, _)) = normalize(&text) {
                proptest::prop_assert_eq!(md.matches('\n').count(), text.matches('\n').count());
            }
        }
    }
}
