//! Small text helpers shared by the structure reader: inline markup removal and the diagnostic sink.

use crate::ir::{Code, Diagnostic, Severity};
use aclnn_runtime::{DType, Format};
use regex::Regex;
use std::sync::LazyLock;

// Unbounded repetitions: the regex crate matches in linear time anyway, and a bound such as
// `{0,1000}` over a Unicode class compiles into a thousand copies of it (a tenth of `lint`'s time
// went into compiling these).
/// A link's destination is a path or URL ("../../docs/x.md", "#约束说明", "https://…"): a bracketed
/// range followed by a note ("[-xDim, xDim - 1](其中xDim指…)") is no link.
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"!?\[([^\]\n]*)\]\((?:[^)\s]*[./#:][^)\n]*)?\)").unwrap());
static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>\n]*)?/?>").unwrap());
static LINE_BREAK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)<br\s*/?>").unwrap());
static BOLD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\*\*([^*\n]+?)\*\*").unwrap());
/// Footnote marks (`INT32<sup>1</sup>`) would glue a digit to the token before them.
pub static SUP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)<sup>[^<]{0,20}</sup>").unwrap());
static COMMENT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<!--.*?-->").unwrap());
/// A modal verb: "x必须与y一致", "须与", "应与", "需要与", "要与" say one thing, and every pattern that
/// reads a requirement takes each of them. Longer words first, so "需要" is not read as "需".
pub const MODAL: &str = "(?:必须|需要|须|需|应该|应当|应|要)";

/// "2D", "3-D", "1d": a rank, where no letter, digit or '_' goes before.
static RANK_AS_D: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)(\d{1,2})\s*-?\s*[Dd](?-u:\b)").unwrap());
/// Two upper-case words with only blanks or a line break (a table cell's `<br>`) between them:
/// a candidate for a dtype list.
static BLANK_BETWEEN_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)([A-Z][A-Z0-9_]*)[ \t]*[ \t\n][ \t]*([A-Z][A-Z0-9_]*)(?-u:\b)").unwrap()
});

/// Inline markdown/HTML → plain text: links keep their text, tags and emphasis go, escapes resolve.
pub fn clean_inline(s: &str) -> String {
    // Most lines have no markup at all: skip every pass whose trigger is absent (the reader
    // calls this for every line and cell, so the passes dominated its profile).
    // One pass over the bytes for all six triggers.
    let (mut angle, mut bracket, mut star, mut other) = (false, false, false, false);
    // A blank after an upper-case word or digit: maybe a dtype list parted by blanks.
    let (mut blank_after_word, mut prev) = (false, 0u8);
    for b in s.bytes() {
        match b {
            b'<' => angle = true,
            b'[' => bracket = true,
            b'*' => star = true,
            b'\\' | b'`' | b'&' => other = true,
            b' ' | b'\t' if prev.is_ascii_uppercase() || prev.is_ascii_digit() => {
                blank_after_word = true
            }
            _ => {}
        }
        prev = b;
    }
    if !(angle || bracket || star || other || blank_after_word) {
        return s.to_string();
    }
    let mut s = s.to_string();
    if bracket {
        s = s.replace("[object Object]", "");
    }
    if angle {
        s = COMMENT.replace_all(&s, "").into_owned();
        s = SUP.replace_all(&s, "").into_owned();
    }
    if bracket {
        s = LINK.replace_all(&s, "$1").into_owned();
    }
    if angle {
        // A line break within a line ("(T,N,C)或(T,C)<br>T为输入长度") still parts its words.
        s = LINE_BREAK.replace_all(&s, " ").into_owned();
        s = TAG.replace_all(&s, "").into_owned();
    }
    if star {
        s = BOLD.replace_all(&s, "$1").into_owned();
    }
    if angle || blank_after_word {
        s = join_dtype_runs(&s);
    }
    if s.contains('\\') {
        s = s
            .replace("\\*", "*")
            .replace("\\_", "_")
            .replace("\\<", "<")
            .replace("\\>", ">");
    }
    if s.contains('`') {
        s = s.replace('`', "");
    }
    if s.contains('&') {
        s = s
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", " ")
            .replace("&amp;", "&");
    }
    s
}

/// "FLOAT16 BFLOAT16" (or "FLOAT16<br>BFLOAT16", whose break became a blank) → "FLOAT16、BFLOAT16":
/// dtype (or format) names with only blanks between them are a list, which every list pattern
/// reads with 、. Words that are not both dtypes or both formats ("FLOAT16 ND") keep their blank.
pub fn join_dtype_runs(s: &str) -> String {
    join_pairs(s, &BLANK_BETWEEN_WORDS, |a, b| {
        both_dtypes_or_formats(a, b).then(|| format!("{a}、{b}"))
    })
}

/// Whether two words name two dtypes or two formats: the items of one list.
pub fn both_dtypes_or_formats(a: &str, b: &str) -> bool {
    (DType::parse(a).is_some() && DType::parse(b).is_some())
        || (Format::parse(a).is_some() && Format::parse(b).is_some())
}

/// `text` with every match of `pair` (two capture groups, the words of a pair) that `join`
/// rewrites replaced by its rewrite, along whole runs: a match consumes its second word, so
/// "A B C" joins "A B" in one pass and "B C" in the next, until nothing changes.
pub fn join_pairs(text: &str, pair: &Regex, join: impl Fn(&str, &str) -> Option<String>) -> String {
    let mut text = text.to_string();
    loop {
        let next = pair
            .replace_all(&text, |c: &regex::Captures| {
                join(&c[1], &c[2]).unwrap_or_else(|| c[0].to_string())
            })
            .into_owned();
        if next == text {
            return text;
        }
        text = next;
    }
}

// "超出支持范围", "不在允许的范围内", "不被支持": the words of "不在支持的范围之内".
static OUT_OF_SUPPORT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"超出了?(?:支持|允许)的?范围|不在(?:允许|可支持)的?范围(?:之内|内)?|在(?:支持|允许)的?范围(?:之外|以外|外)|不被支持",
    )
        .unwrap()
});

// "必须与", "须与", "应与", "要与", "须传入": the patterns say "需要" for each.
static MODAL_BEFORE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(^|[^无不]){MODAL}\s*(与|和|跟|传)")).unwrap());

/// The words the readers say one way, in error rows and descriptions alike: "高于"/"低于" are
/// "大于"/"小于" ("index维度高于8维"), "不大于"/"不小于" are "小于等于"/"大于等于", "不匹配" and
/// "相等" are "不一致" and "一致", "形状" is "shape", "指针为空" is "为空指针", "x及y" is "x和y", every modal before "与" or
/// "传" is "需要", and "超出支持范围", "不在允许的范围内", "不被支持" are "不在支持的范围之内".
pub fn same_words(text: &str) -> String {
    let t = text
        .replace("高于", "大于")
        .replace("低于", "小于")
        .replace("不大于", "小于等于")
        .replace("不小于", "大于等于")
        .replace("不匹配", "不一致")
        .replace("相等", "一致")
        .replace("形状", "shape")
        // "输入或输出指针为空": the pointer is null.
        .replace("指针为空", "为空指针")
        .replace("指针是空", "是空指针");
    let t = and_as_he(&t);
    let t = MODAL_BEFORE.replace_all(&t, "${1}需要${2}");
    OUT_OF_SUPPORT
        .replace_all(&t, "不在支持的范围之内")
        .into_owned()
}

/// "x及y", "输入以及输出": names and groups joined as "和" joins them. Words that hold 及 ("涉及",
/// "及其", "及时") keep it, and so does "第三维度及之后", "8维及以上" (a range, not a list).
fn and_as_he(text: &str) -> String {
    let text = text.replace("以及", "和");
    let chars: Vec<char> = text.chars().collect();
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let in_word = matches!(before, Some('涉' | '普' | '波' | '危' | '不'))
                || matches!(after, Some('其' | '时' | '格' | '之' | '以'));
            if c == '及' && !in_word {
                '和'
            } else {
                c
            }
        })
        .collect()
}

/// A rank however a doc writes it, as "N维": "二维" (see `rank_numerals`) and "2D", "3-D" (not
/// part of a name: "Conv2D", "MaxPool3D" keep theirs).
pub fn rank_words(text: &str) -> String {
    let t = rank_numerals(text);
    if !t.contains(['D', 'd']) {
        return t;
    }
    RANK_AS_D.replace_all(&t, "${1}维").into_owned()
}

/// "不是零维、一维或二维" → "不是0维、1维或2维", "超过八维" → "超过8维": ranks in Chinese numerals,
/// as digits, where a numeral follows a verb, a comparison or a list separator. Anything else
/// keeps its numeral: an ordinal ("第一维", "倒数第二维", "最后一维") or a word ("同一维度",
/// "任意一维").
fn rank_numerals(clause: &str) -> String {
    const NUMERALS: &str = "零一二三四五六七八";
    // What a rank follows: a verb, a comparison, a list separator.
    const LEADS: &str = "为是过于出或、，,和与至到~-持(（非 ";
    let chars: Vec<char> = clause.chars().collect();
    let mut out = String::with_capacity(clause.len());
    for (i, &c) in chars.iter().enumerate() {
        let numeral = NUMERALS.chars().position(|n| n == c);
        let before = i.checked_sub(1).map(|j| chars[j]);
        let rank = chars.get(i + 1) == Some(&'维') && before.is_none_or(|b| LEADS.contains(b));
        match numeral {
            Some(n) if rank => out.push_str(&n.to_string()),
            _ => out.push(c),
        }
    }
    out
}

/// Full-width punctuation → ASCII, for matching (the original text stays in the IR).
pub fn ascii_punct(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '，' => ',',
            '（' => '(',
            '）' => ')',
            '：' => ':',
            '；' => ';',
            '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

/// Collects diagnostics for one file.
#[derive(Debug)]
pub struct Sink {
    pub file: String,
    pub diags: Vec<Diagnostic>,
    /// Diagnostics dropped past `MAX_PER_CODE`, by code.
    omitted: std::collections::BTreeMap<Code, usize>,
}

/// Stop reporting the same code after this many per file, so a broken 10 MB doc stays readable.
const MAX_PER_CODE: usize = 50;

impl Sink {
    pub fn new(file: &str) -> Self {
        Sink {
            file: file.to_string(),
            diags: Vec::new(),
            omitted: Default::default(),
        }
    }

    fn too_many(&mut self, code: Code) -> bool {
        let full = self.diags.iter().filter(|d| d.code == code).count() >= MAX_PER_CODE;
        if full {
            *self.omitted.entry(code).or_default() += 1;
        }
        full
    }

    /// The diagnostics, with one note per code saying how many were left out.
    pub fn into_diags(mut self) -> Vec<Diagnostic> {
        for (code, n) in std::mem::take(&mut self.omitted) {
            self.diags.push(Diagnostic::file_level(
                Severity::Note,
                code,
                format!("{n} more `{code}` diagnostic(s) in this file not shown"),
                &self.file,
            ));
        }
        self.diags
    }

    /// At 0-based line `idx`, pointing at the whole line.
    pub fn at(&mut self, sev: Severity, code: Code, msg: impl Into<String>, idx: usize, src: &str) {
        self.at_col(sev, code, msg, idx, src, 0);
    }

    /// At 0-based line `idx` and 1-based character column `col` (0 = whole line).
    pub fn at_col(
        &mut self,
        sev: Severity,
        code: Code,
        msg: impl Into<String>,
        idx: usize,
        src: &str,
        col: usize,
    ) {
        if self.too_many(code) {
            return;
        }
        let src: String = src.chars().take(400).collect();
        self.diags.push(Diagnostic::at(
            sev,
            code,
            msg,
            &self.file,
            idx + 1,
            col,
            &src,
        ));
    }

    /// At the 1-based column of the first occurrence of `needle` in `src`.
    pub fn at_text(
        &mut self,
        sev: Severity,
        code: Code,
        msg: impl Into<String>,
        idx: usize,
        src: &str,
        needle: &str,
    ) {
        let col = src
            .find(needle)
            .map(|b| src[..b].chars().count() + 1)
            .unwrap_or(0);
        self.at_col(sev, code, msg, idx, src, col);
    }

    pub fn file(&mut self, sev: Severity, code: Code, msg: impl Into<String>) {
        if self.too_many(code) {
            return;
        }
        self.diags
            .push(Diagnostic::file_level(sev, code, msg, &self.file));
    }
}

/// "self 或 out 的数据类型" → "self或out的数据类型": docs space names apart from the Chinese
/// around them, which carries no meaning; spaces between two ASCII words ("rank(x) <= 8") stay.
pub fn tight_around_chinese(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let end = (i..chars.len())
                .find(|&j| !chars[j].is_whitespace())
                .unwrap_or(chars.len());
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(end).copied();
            if !(before.is_some_and(|c| !c.is_ascii()) || after.is_some_and(|c| !c.is_ascii())) {
                out.push(' ');
            }
            i = end;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synonyms_read_as_one_word() {
        assert_eq!(same_words("不高于8"), "小于等于8");
        assert_eq!(same_words("shape与x相等"), "shape与x一致");
        assert_eq!(same_words("形状须与x一致"), "shape需要与x一致");
        assert_eq!(
            same_words("其他输入类型须传入nullptr"),
            "其他输入类型需要传入nullptr"
        );
        assert_eq!(same_words("x及y不被支持"), "x和y不在支持的范围之内");
        assert_eq!(same_words("输入或输出指针为空"), "输入或输出为空指针");
        assert_eq!(
            same_words("self的输入shape在支持范围之外"),
            "self的输入shape不在支持的范围之内"
        );
        // A modal after a negation, and 及 in a word or a range, stay.
        assert_eq!(same_words("x无需与y一致"), "x无需与y一致");
        assert_eq!(same_words("8维及以上，涉及x"), "8维及以上，涉及x");
    }

    #[test]
    fn clean_inline_strips_links_tags_and_escapes() {
        assert_eq!(
            clean_inline(
                "- self(aclTensor\\*, 计算输入)：支持[非连续的Tensor](a/b.md)，<term>Atlas</term>"
            ),
            "- self(aclTensor*, 计算输入)：支持非连续的Tensor，Atlas"
        );
        assert_eq!(
            clean_inline("[object Object]Atlas 推理系列产品[object Object]。"),
            "Atlas 推理系列产品。"
        );
    }

    #[test]
    fn a_range_before_a_note_is_no_link() {
        assert_eq!(
            clean_inline("范围是: [-xDim, xDim - 1](其中xDim指输入x的维度)"),
            "范围是: [-xDim, xDim - 1](其中xDim指输入x的维度)"
        );
        assert_eq!(clean_inline("见[约束说明](#约束说明)。"), "见约束说明。");
        assert_eq!(clean_inline("[图](a/b.png)"), "图");
    }

    #[test]
    fn dtype_names_parted_by_blanks_or_line_breaks_are_one_list() {
        assert_eq!(
            clean_inline("数据类型支持FLOAT<br>FLOAT16<br>BFLOAT16。"),
            "数据类型支持FLOAT、FLOAT16、BFLOAT16。"
        );
        assert_eq!(
            clean_inline("数据类型支持FLOAT16 BFLOAT16 INT8"),
            "数据类型支持FLOAT16、BFLOAT16、INT8"
        );
        assert_eq!(join_dtype_runs("FLOAT16\nINT8"), "FLOAT16、INT8");
        assert_eq!(join_dtype_runs("ND NCHW"), "ND、NCHW");
        assert_eq!(
            join_dtype_runs("FLOAT16\nAtlas A2：INT8"),
            "FLOAT16\nAtlas A2：INT8"
        );
        // Not two dtypes: the blank stays.
        assert_eq!(clean_inline("FLOAT16 ND格式"), "FLOAT16 ND格式");
        assert_eq!(clean_inline("rank(x) <= 8"), "rank(x) <= 8");
    }

    #[test]
    fn ranks_in_numerals_or_as_nd_read_as_n_wei() {
        assert_eq!(rank_words("不是零维、一维或二维"), "不是0维、1维或2维");
        assert_eq!(rank_words("shape支持2D、3D"), "shape支持2维、3维");
        assert_eq!(
            rank_words("当repeats为1D tensors"),
            "当repeats为1维 tensors"
        );
        // Names and ordinals keep theirs.
        assert_eq!(rank_words("Conv2D的第一维"), "Conv2D的第一维");
        assert_eq!(rank_words("MaxPool3D"), "MaxPool3D");
    }

    #[test]
    fn sink_caps_each_code_and_says_how_many_were_left_out() {
        let mut s = Sink::new("a.md");
        for i in 0..MAX_PER_CODE + 3 {
            s.at(Severity::Warning, Code::NameMismatch, "m", i, "");
        }
        let d = s.into_diags();
        assert_eq!(d.len(), MAX_PER_CODE + 1);
        assert!(d[MAX_PER_CODE]
            .message
            .starts_with("3 more `name-mismatch`"));
    }

    #[test]
    fn sink_columns_are_characters() {
        let mut s = Sink::new("a.md");
        s.at_text(
            Severity::Warning,
            Code::NameMismatch,
            "m",
            2,
            "参数out的",
            "out",
        );
        assert_eq!((s.diags[0].line, s.diags[0].column), (3, 3));
    }
}
