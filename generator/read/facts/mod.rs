//! Facts about one parameter stated in Chinese prose or in table cells: dtype and format lists,
//! rank, non-contiguous and empty tensors, optionality, constraint phrases, enum values.

use super::text::MODAL;
use crate::ir::Rank;
use aclnn_runtime::{DType, Format};
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

mod nulls;

pub use nulls::*;

/// A list of tokens: `FLOAT16、FLOAT32和BFLOAT16`, `float16、bfloat16`. A comma continues the
/// list only before an upper-case token or a dtype's name in any case ("FLOAT32，shape需要…" ends
/// it, "float16，bfloat16" does not).
// A token may carry a note in brackets: "BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16",
// as a table's dtype cell does (`split_tokens` drops the note's words).
static TOKEN_LIST: LazyLock<String> = LazyLock::new(|| {
    let note = r"(?:\s*[（(][^（()）\n]{1,40}[)）])?";
    format!(
        r"([A-Za-z][A-Za-z0-9_]*{note}(?:\s*(?:、|/|和|及|以及|或|或者)\s*[A-Za-z][A-Za-z0-9_]*{note}|\s*[,，]\s*(?:[A-Z][A-Z0-9_]*|{})(?-u:\b){note})*)",
        lower_case_dtype_names()
    )
});

/// Every dtype's canonical name and aliases as one case-insensitive alternation, longest first
/// (so "float16" is not read as "float" followed by "16").
fn lower_case_dtype_names() -> String {
    let mut names: Vec<String> = DType::ALL
        .iter()
        .flat_map(|d| d.spellings())
        .map(|n| regex::escape(n))
        .collect();
    names.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    names.dedup();
    format!("(?i:{})", names.join("|"))
}

static DTYPE_NOT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"数据类型\s*(?:均|都)?\s*不支持\s*[:：]?\s*{list}",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
/// "不支持BFLOAT16数据类型": the list before the word.
static DTYPE_NOT_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"不支持\s*{list}\s*(?:的)?\s*(?:数据)?类型",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
/// "不支持BFLOAT16。" as a whole note (only dtype names: "不支持NZ" is no dtype statement).
static DTYPE_NOT_BARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^不支持\s*{list}\s*[。.]?$",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
static DTYPE_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"数据类型\s*(?:(?:仅|只|均|都)?\s*支持|(?:仅|只)\s*(?:为|是|能为|能是))\s*[:：]?\s*{list}",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
/// "入参`x`仅支持INT8", "出参`y`不支持BFLOAT16": a product note's statement without the word
/// 数据类型 (its parent bullet "数据类型：" says it).
static NOTE_DTYPES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:(仅|只)\s*支持|(不)支持)\s*[:：]?\s*{list}\s*(?:数据类型|类型)?\s*[。.]?$",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
static FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:数据格式|undefined)\s*(?:仅|只)?\s*(?:支持|为|是)\s*(?:为)?\s*[:：]?\s*{list}",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
static FORMAT_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"支持\s*数据格式\s*(?:为|是)\s*{list}",
        list = TOKEN_LIST.as_str()
    ))
    .unwrap()
});
// "4维或5维", "0维、1维、2维", "3维（C，H，W）或4维（N，C，H，W）": every rank of the run counts (a
// note in brackets after a rank is no separator).
static RANK_OR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\d{1,2}\s*维(?:\s*[（(][^（）()]{0,40}[)）])?(?:\s*(?:或者|或|、|和|及|到|至|-|~)\s*\d{1,2}\s*维(?:\s*[（(][^（）()]{0,40}[)）])?)+").unwrap()
});
static NOTE_IN_BRACKETS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[（(][^（）()]*[)）]").unwrap());
static RANK_NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(\d{1,2})\s*维").unwrap());
// "大于一维且小于等于八维": the lower bound beside a cap.
static RANK_ABOVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:(大于|超过)|(大于等于|不小于|至少))\s*(\d{1,2})\s*维").unwrap()
});
static RANK_RANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:维度|维数|shape)[^，。,;；]{0,6}?(\d{1,2})\s*(?:-|~|～|到|至)\s*(\d{1,2})\s*维?",
    )
    .unwrap()
});
static RANK_ONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"支持(?:为)?\s*(\d{1,2}|[一二三四五六七八])\s*维(?:[^度数]|$)").unwrap()
});
static RANK_MAX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:不支持|不能超过|不超过|小于等于|最大(?:支持)?|最高(?:支持)?|最多(?:支持)?|至多)\s*(\d{1,2})\s*维(?:以上)?|(\d{1,2})\s*维(?:及|或)?以(?:下|内)",
    )
        .unwrap()
});
static RANK_NOT_ABOVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:维度|维数|rank)\s*(?:不大于|不超过|小于等于|最大为|最大支持|最多)\s*(\d{1,2})")
        .unwrap()
});
static RANK_INTERVAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[\[［]\s*(\d)\s*[,，]\s*(\d)\s*[\]］]$").unwrap());
static RANK_CELL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(\d{1,2})\s*(?:维)?\s*(?:(?:-|~|～|到|至)\s*(\d{1,2})\s*维?)?\s*$").unwrap()
});
// Shapes of named dims, joined by 或/、: "(T,N,C)或(T,C)", "[N, C]".
static SHAPE_TUPLES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[(\[]\s*[A-Za-z0-9_]+(?:\s*[,，]\s*[A-Za-z0-9_]+)*\s*[)\]](?:\s*(?:或者|或|、|;|；|/|,|，)\s*[(\[]\s*[A-Za-z0-9_]+(?:\s*[,，]\s*[A-Za-z0-9_]+)*\s*[)\]])*").unwrap()
});
static SHAPE_TUPLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[(\[]([^()\[\]]*)[)\]]").unwrap());
static ARRAY_OF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Z][A-Z0-9_]*)\s*类型(?:的)?\s*数组").unwrap());
// "当输入是5维时": the tensor's own ranks; "当self的shape为2维时" in out's cell is another's (group 1).
static RANK_WHEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"([A-Za-z_][A-Za-z0-9_]*\s*的\s*)?(?:输入|shape|形状)\s*(?:是|为)\s*(\d{1,2})\s*维时",
    )
    .unwrap()
});
static ENUM_MEANING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:[-*+]\s*)?(-?\d{1,3})\s*[:：]\s*表示(.+)$").unwrap());
static ENUM_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]\s*)?(-?\d{1,3})\s*[:：]\s*([A-Z][A-Z0-9_]*)").unwrap()
});

// "当`x`的数据类型为FLOAT32、BFLOAT16时，数据类型支持FLOAT32、DOUBLE" (or "…时，`scalar`的数据类型支持…",
// "…时，数据类型与`x`的数据类型保持一致"): dtypes allowed while another tensor has some dtype. The
// lists take any ASCII word, so a misspelt token makes the statement unread instead of cutting
// the list short.
static DTYPE_GIVEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"当\s*(?:入参|参数|输入)?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*数据类型为\s*",
        r"([A-Za-z][A-Za-z0-9_]*(?:\s*(?:、|/|,|，|和|或者|或)\s*[A-Za-z][A-Za-z0-9_]*)*)\s*时\s*[,，]?\s*",
        // "输出的数据类型支持…" in an output's own cell: about that output.
        r"(?:`?([A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*|(?:输出|出参)\s*的\s*)?(?:数据类型\s*)?",
        r"(?:(?:仅)?支持\s*([A-Za-z][A-Za-z0-9_]*(?:\s*(?:、|/|,|，|和|或者|或)\s*[A-Za-z][A-Za-z0-9_]*)*)",
        r"|与\s*(?:入参|参数)?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:的\s*数据类型\s*)?(?:保持\s*)?(?:一致|相同))",
    ))
    .unwrap()
});
// "入参`scalar`与入参`x`的数据类型具有一定对应关系", "参数`scalar`数据类型与入参`x`的数据类型具有一定对应关系".
static DTYPE_KINSHIP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:(?:入参|参数|出参)\s*)?`?([A-Za-z_][A-Za-z0-9_]*)?`?\s*(?:的)?\s*(?:数据类型)?\s*与\s*(?:入参|参数)?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*数据类型具有一定对应关系",
    )
    .unwrap()
});

/// One "当`on`的数据类型为`when`时，(`subject`的)数据类型支持`allowed`" statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DtypesGivenText {
    /// The parameter the sentence itself names, if any; else the lead's or the entry's.
    pub subject: Option<String>,
    pub on: String,
    pub when: Vec<DType>,
    pub allowed: Vec<DType>,
}

/// The "当`on`的数据类型为…时，数据类型支持…" statements of `text`. "与`on`的数据类型保持一致" allows
/// the one dtype `on` has, so it gives one statement per dtype. A token that is no dtype makes
/// the statement unread (none is returned for it).
pub fn dtypes_given(text: &str) -> Vec<DtypesGivenText> {
    let text = &*dtype_phrases_as_cells_say_them(text);
    let mut out = Vec::new();
    for c in DTYPE_GIVEN.captures_iter(text) {
        let (when, unknown) = dtype_tokens(&c[2]);
        if when.is_empty() || !unknown.is_empty() {
            continue;
        }
        let on = c[1].to_string();
        let subject = c.get(3).map(|m| m.as_str().to_string());
        let statement = |when: Vec<DType>, allowed: Vec<DType>| DtypesGivenText {
            subject: subject.clone(),
            on: on.clone(),
            when,
            allowed,
        };
        match (c.get(4), c.get(5)) {
            (Some(list), _) => {
                let (allowed, unknown) = dtype_tokens(list.as_str());
                if !allowed.is_empty() && unknown.is_empty() {
                    out.push(statement(when, allowed));
                }
            }
            (None, Some(same)) if same.as_str() == on => {
                out.extend(when.iter().map(|d| statement(vec![*d], vec![*d])));
            }
            _ => {}
        }
    }
    out
}

/// The parameter a "…与入参`x`的数据类型具有一定对应关系" lead names first (`None` when it names none,
/// as in a parameter's own cell), and whether the text is such a lead at all.
pub fn dtype_kinship(text: &str) -> Option<Option<String>> {
    let c = DTYPE_KINSHIP.captures(text)?;
    Some(
        c.get(1)
            .map(|m| m.as_str().to_string())
            .filter(|s| s != &c[2]),
    )
}

/// Splits a token list into dtypes, returning unknown tokens separately.
pub fn dtype_tokens(list: &str) -> (Vec<DType>, Vec<String>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for (tok, in_note) in tokens_and_notes(list) {
        // C spellings and Chinese prose words are not dtype tokens to report.
        if is_c_type(&tok) || !tok.is_ascii() {
            continue;
        }
        match DType::parse(&tok) {
            Some(d) if !known.contains(&d) => known.push(d),
            Some(_) => {}
            // A note's words ("（仅 Ascend910B 及后续同代 SoC 支持）") are no dtypes to report,
            // nor are chips named without brackets ("BFLOAT16 仅支持 Ascend910B 及后续同代 SoC").
            None if in_note || names_a_chip(&tok) => {}
            None => unknown.push(tok),
        }
    }
    (known, unknown)
}

/// "Ascend910B", "Atlas", "SoC": a word of a product, where a dtype list says which products
/// have a dtype.
fn names_a_chip(token: &str) -> bool {
    token.starts_with("Ascend") || token.starts_with("Atlas") || token.eq_ignore_ascii_case("soc")
}

/// The tokens of a list, each with whether it stands inside a bracketed note.
fn tokens_and_notes(list: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let (mut depth, mut piece) = (0usize, String::new());
    let mut flush = |piece: &mut String, in_note: bool| {
        out.extend(split_tokens(piece).into_iter().map(|t| (t, in_note)));
        piece.clear();
    };
    for ch in list.chars() {
        match ch {
            '(' | '（' => {
                flush(&mut piece, depth > 0);
                depth += 1;
            }
            ')' | '）' => {
                flush(&mut piece, depth > 0);
                depth = depth.saturating_sub(1);
            }
            _ => piece.push(ch),
        }
    }
    flush(&mut piece, depth > 0);
    out
}

/// The known dtype names closest to an unknown token (edit distance ≤ 2, case-insensitive),
/// nearest first: `FLAOT16` → `FLOAT16`. Empty for a token like no dtype at all.
pub fn nearest_dtypes(token: &str) -> Vec<&'static str> {
    let token = token.to_ascii_uppercase();
    let mut near: Vec<(usize, &'static str)> = DType::ALL
        .iter()
        .map(|d| (strsim::damerau_levenshtein(&token, d.as_str()), d.as_str()))
        .filter(|&(distance, _)| distance <= 2)
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, name)| name).collect()
}

pub fn format_tokens(list: &str) -> (Vec<Format>, Vec<String>) {
    let mut known = Vec::new();
    let mut unknown = Vec::new();
    for tok in split_tokens(list) {
        if !tok.is_ascii() {
            continue;
        }
        match Format::parse(&tok) {
            Some(f) if !known.contains(&f) => known.push(f),
            Some(_) => {}
            None => unknown.push(tok),
        }
    }
    (known, unknown)
}

/// C spellings in a 数据类型 cell of a host parameter (`aclIntArray`, `int64_t[]`): not dtypes.
fn is_c_type(tok: &str) -> bool {
    tok.contains('*') || tok.contains('[') || tok.starts_with("acl") || tok.ends_with("_t")
}

fn split_tokens(list: &str) -> Vec<String> {
    let mut s = list.to_string();
    for sep in ["以及", "或者", "、", "，", "和", "及", "或", "\n"] {
        s = s.replace(sep, ",");
    }
    s.split([',', '/', ' ', '\t', '。', '；', ';', '(', ')', '（', '）'])
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty() && t != "-" && t != "—")
        .collect()
}

/// A dtype statement in prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DtypeStatement {
    /// "数据类型支持A、B" / "数据类型仅支持A".
    Supports(Vec<DType>, Vec<String>),
    /// "数据类型不支持A".
    Excludes(Vec<DType>, Vec<String>),
}

// "支持的数据类型为A、B", "支持的数据类型：A": another word order of "数据类型支持A、B".
static SUPPORTED_DTYPES_ARE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"支持的\s*数据类型\s*(?:为|是|包括|有)?\s*[:：]?").unwrap());

/// `text` with its dtype phrases in the one word order the patterns read.
fn dtype_phrases_as_cells_say_them(text: &str) -> std::borrow::Cow<'_, str> {
    SUPPORTED_DTYPES_ARE.replace_all(text, "数据类型支持")
}

pub fn dtype_statement(text: &str) -> Option<DtypeStatement> {
    let text = &*dtype_phrases_as_cells_say_them(text);
    if let Some(c) = DTYPE_NOT.captures(text) {
        let (k, u) = dtype_tokens(&c[1]);
        return Some(DtypeStatement::Excludes(k, u));
    }
    if let Some(c) = DTYPE_NOT_BEFORE
        .captures(text)
        .or_else(|| DTYPE_NOT_BARE.captures(text.trim()))
    {
        let (k, u) = dtype_tokens(&c[1]);
        if !k.is_empty() && u.is_empty() {
            return Some(DtypeStatement::Excludes(k, u));
        }
    }
    let Some(c) = DTYPE_ONLY.captures(text) else {
        // "INT64类型数组": the element type of an array attribute.
        let c = ARRAY_OF.captures(text)?;
        let (k, u) = dtype_tokens(&c[1]);
        return (!k.is_empty()).then_some(DtypeStatement::Supports(k, u));
    };
    let (k, u) = dtype_tokens(&c[1]);
    if k.is_empty() {
        // "数据类型支持的范围…" and the like: no list here.
        return None;
    }
    Some(DtypeStatement::Supports(k, u))
}

/// A product note's dtype statement: [`dtype_statement`], or one that lists dtypes alone after
/// "仅支持"/"不支持" at its end ("入参`x`仅支持INT8"); a list with any token that is no dtype
/// ("仅支持ND", "仅支持一维") is none.
pub fn note_dtype_statement(text: &str) -> Option<DtypeStatement> {
    if let Some(stmt) = dtype_statement(text) {
        return Some(stmt);
    }
    let c = NOTE_DTYPES.captures(text.trim())?;
    let (k, u) = dtype_tokens(&c[3]);
    if k.is_empty() || !u.is_empty() {
        return None;
    }
    Some(if c.get(2).is_some() {
        DtypeStatement::Excludes(k, u)
    } else {
        DtypeStatement::Supports(k, u)
    })
}

pub fn format_statement(text: &str) -> Option<(Vec<Format>, Vec<String>)> {
    let caps = FORMAT
        .captures(text)
        .or_else(|| FORMAT_PREFIX.captures(text))?;
    let (k, u) = format_tokens(&caps[1]);
    (!k.is_empty()).then_some((k, u))
}

/// "shape支持4维或5维", "3-4维", "支持4维", "不支持8维以上".
pub fn rank_in_text(text: &str) -> Option<Rank> {
    let text = &super::text::rank_words(text);
    let num = |s: &str| s.parse::<usize>().ok();
    if let Some(run) = RANK_OR.find(text) {
        // Notes in brackets may hold digits of their own ("（维度分别代表N，C，H，W）" has none,
        // but a note could): read the ranks outside them.
        let bare = NOTE_IN_BRACKETS.replace_all(run.as_str(), "");
        let ranks: Vec<usize> = RANK_NUMBER
            .captures_iter(&bare)
            .filter_map(|c| num(&c[1]))
            .collect();
        return Some(Rank {
            min: *ranks.iter().min()?,
            max: *ranks.iter().max()?,
        });
    }
    if let Some(c) = RANK_RANGE.captures(text) {
        let (a, b) = (num(&c[1])?, num(&c[2])?);
        return Some(Rank {
            min: a.min(b),
            max: a.max(b),
        });
    }
    if let Some(c) = RANK_MAX
        .captures(text)
        .or_else(|| RANK_NOT_ABOVE.captures(text))
    {
        let max = num(c.get(1).or(c.get(2))?.as_str())?;
        // "不大于8维" is the cap itself, no lower bound.
        let min = RANK_ABOVE
            .captures_iter(text)
            .find(|a| !a.get(0).is_some_and(|m| text[..m.start()].ends_with('不')))
            .and_then(|a| Some(num(&a[3])? + usize::from(a.get(1).is_some())))
            .filter(|&min| min <= max)
            .unwrap_or(0);
        return Some(Rank { min, max });
    }
    // "当输入是5维时…当输入是4维时…": the ranks the doc handles.
    let whens: Vec<usize> = RANK_WHEN
        .captures_iter(text)
        .filter(|c| c.get(1).is_none())
        .filter_map(|c| num(&c[2]))
        .collect();
    if let (Some(min), Some(max)) = (whens.iter().min(), whens.iter().max()) {
        return Some(Rank {
            min: *min,
            max: *max,
        });
    }
    // "K-C量化场景，shape支持一维…MX量化场景，shape支持四维": every rank a scenario names.
    let ones: Vec<usize> = RANK_ONE
        .captures_iter(text)
        .filter_map(|c| {
            num(&c[1]).or_else(|| {
                "一二三四五六七八"
                    .chars()
                    .position(|d| c[1].starts_with(d))
                    .map(|i| i + 1)
            })
        })
        .collect();
    if let (Some(min), Some(max)) = (ones.iter().min(), ones.iter().max()) {
        return Some(Rank {
            min: *min,
            max: *max,
        });
    }
    None
}

/// A 维度(shape) cell: "3-4", "0-8", "4", "4维", or the shapes themselves: "(T,N,C)或(T,C)".
pub fn rank_cell(cell: &str) -> Option<Rank> {
    if let Some(rank) = rank_interval(cell) {
        return Some(rank);
    }
    let cell = &super::text::rank_words(cell);
    let Some(c) = RANK_CELL.captures(cell.trim()) else {
        return shape_tuples_rank(cell);
    };
    let a: usize = c[1].parse().ok()?;
    let b = match c.get(2) {
        Some(m) => m.as_str().parse().ok()?,
        None => a,
    };
    Some(Rank {
        min: a.min(b),
        max: a.max(b),
    })
}

/// "[1, 8]" in a 维度(shape) cell: ranks 1 to 8 written as an interval. Read as a shape it would
/// pin every tensor to 1×8, rejecting every call the team meant to allow; read as ranks, a team
/// that meant the shape loses a check and no valid call.
pub fn rank_interval(cell: &str) -> Option<Rank> {
    let c = RANK_INTERVAL.captures(cell.trim())?;
    let (min, max): (usize, usize) = (c[1].parse().ok()?, c[2].parse().ok()?);
    // A derived output may reach one rank past aclnn's 8 ("2-9": x's shape plus a dim).
    (min < max && max <= 9).then_some(Rank { min, max })
}

/// "(T,N,C)或(T,C) T为输入长度…": the ranks of the shapes a cell opens with, each named dim by
/// dim. A shape of variable length ("(N, *)", "[B…, H]") states no rank.
fn shape_tuples_rank(cell: &str) -> Option<Rank> {
    let cell = ascii_brackets(cell);
    let lead = SHAPE_TUPLES.find(cell.trim())?.as_str();
    let ranks: Vec<usize> = SHAPE_TUPLE
        .captures_iter(lead)
        .map(|c| c[1].split([',', '，']).count())
        .collect();
    Some(Rank {
        min: *ranks.iter().min()?,
        max: *ranks.iter().max()?,
    })
}

/// The shapes a cell opens with, dim names in order: "(T,N,C)或(T,C)" → `[[T, N, C], [T, C]]`.
pub fn named_shapes(cell: &str) -> Vec<Vec<String>> {
    let cell = ascii_brackets(cell);
    let Some(lead) = SHAPE_TUPLES.find(cell.trim()) else {
        return Vec::new();
    };
    SHAPE_TUPLE
        .captures_iter(lead.as_str())
        .map(|c| {
            c[1].split([',', '，'])
                .map(|d| d.trim().to_string())
                .collect()
        })
        .collect()
}

// A clause that opens with the parameter's own shape: "，shape为（B,N,2），" (bullet-style docs
// write the 维度(shape) column so). "x的shape为…" is another tensor's.
static OWN_SHAPE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[，,。；;：:\n])\s*(?:其)?shape\s*(?:为|是)\s*").unwrap());

/// The shape a description states as its own clause, as a shape cell would: "(B,N,2)". Only
/// where it states one shape unconditionally: "量化输出类型为INT4时，shape为[M]…为FLOAT4时，shape为
/// [M,K,2]" states a shape per case, and no cell.
pub fn shape_statement(text: &str) -> Option<String> {
    let mut found = OWN_SHAPE.find_iter(text);
    let m = found.next()?;
    if found.next().is_some() || opens_conditionally(&text[..m.start()]) {
        return None;
    }
    let rest = ascii_brackets(&text[m.end()..]);
    let lead = SHAPE_TUPLES.find(&rest)?.as_str();
    let after = &rest[lead.len()..];
    // "(bs, num_keys)其中bs为…": the dims' names may follow without a break.
    let ends = after.is_empty()
        || after.starts_with(char::is_whitespace)
        || after.starts_with(['，', '。', '；', ',', ';'])
        || after.starts_with("其中");
    ends.then(|| lead.to_string())
}

/// "（batch，m，n）" as "(batch，m，n)": docs write a shape's brackets either way.
fn ascii_brackets(text: &str) -> String {
    text.replace('（', "(").replace('）', ")")
}

/// Whether the sentence `before` ends in has opened a condition ("当…时，", "如果…，").
fn opens_conditionally(before: &str) -> bool {
    let sentence = before
        .rsplit(['。', '；', ';', '\n'])
        .next()
        .unwrap_or(before);
    ["时", "当", "如果", "若", "否则", "场景"]
        .iter()
        .any(|w| sentence.contains(w))
}

/// √ / × cells and prose about non-contiguous tensors.
pub fn mark(cell: &str) -> Option<bool> {
    let t = cell.trim();
    if t.contains('√') || t.eq_ignore_ascii_case("yes") || t == "支持" || t == "是" {
        Some(true)
    } else if t.contains('×')
        || t.contains('✗')
        || t.eq_ignore_ascii_case("no")
        || t == "不支持"
        || t == "否"
    {
        Some(false)
    } else {
        None
    }
}

pub fn non_contiguous_in_text(text: &str) -> Option<bool> {
    let t = text.to_ascii_lowercase();
    if t.contains("不支持非连续") {
        Some(false)
    } else if t.contains("支持非连续") {
        Some(true)
    } else {
        None
    }
}

pub fn empty_tensor_in_text(text: &str) -> Option<bool> {
    let t = text.to_ascii_lowercase();
    if t.contains("不支持空tensor") || t.contains("不支持输入空tensor") {
        Some(false)
    } else if t.contains("支持空tensor") {
        Some(true)
    } else {
        None
    }
}

static NULL_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)(?:nullptr|NULLPTR|NULL|null|Null)(?-u:\b)").unwrap());

static CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&<[&str]>::concat(&[
        // "与输入varRef保持一致": the role word may stand before the name; "和"/"同" say "与".
        r"(?:与|和|同)(?:输入|输出|入参|参数)?[A-Za-z_][A-Za-z0-9_]*[^，,。；;]{0,12}?(?:保持|完全)?(?:一致|相同|相等)",
        // "shape和数据类型与totalSum的shape和数据类型保持一致": the aspects named again after the name.
        r"|(?:与|和|同)(?:输入|输出|入参|参数)?[A-Za-z_][A-Za-z0-9_]*的(?:shape|数据类型|数据格式)(?:[和、](?:shape|数据类型|数据格式))+(?:保持|需要?|要|完全)?(?:一致|相同)",
        // "需要与x", "必须与x", "须与x", "应与x": whichever modal word a doc uses.
        &format!(r"|{MODAL}(?:与|和|同)(?:输入|输出|入参|参数)?[A-Za-z_]"),
        r"|满足.{0,12}广播",
        // "shape需要是self与other broadcast之后的shape": the broadcast result.
        r"|(?i:广播|broadcast)\s*(?:后|之后|以后)\s*的?\s*(?i:shape|结果)",
        &format!(r"|长度(?:{MODAL}|为|是|等于|不)"),
        // "size为4" of a list: its length.
        &format!(r"|(?:^|[^A-Za-z])size(?:只能|{MODAL})?(?:为|是|等于)\s*\d"),
        r"|取值范围|支持范围|范围为|范围是|取值(?:仅|只)(?:支持|为|能为)\s*-?\d",
        // "大小应该在[0,2147483647]的范围内": a bracketed range the value lies in.
        r"|在\s*[\[［]\s*-?\d+\s*[,，]\s*-?\d+\s*[\]］]\s*(?:的)?(?:范围|区间|之间)",
        &format!(r"|数值{MODAL}?(?:大于|小于|不能|不大于|不小于|等于)"),
        r"|(?:大于|小于|不小于|不大于|大于等于|小于等于)\s*[-0-9]",
        r"|必须为正|为正数|非负|不能为负",
        r"|shape.{0,6}(?:相同|一致)",
        // "shape维度和输入x后几维的维度相同": a relation to part of another shape.
        r"|[前后](?:几|\s*[nN]|\s*\d+)\s*(?:个)?维",
        // "shape为(numTokens, numQHeads*headSize)": the dims spelt out.
        r"|(?:shape|形状)(?:为|是)\s*[(\[（]",
        r"|第\s*[1-8一二三四五六七八]\s*维度?(?:固定)?(?:为|是)\s*(?:channel|C|通道)轴",
        // "out数据类型需要可转换为self的数据类型": the direction of a cast between two tensors.
        r"|可转换(?:为|成)[a-z][A-Za-z0-9_]*的(?:数据类型|dtype)",
    ]))
    .unwrap()
});

static STRING_VALUE_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"支持|取值|设置为|配置为|可选值|有效值").unwrap());

/// The sentences of a string attribute's text that state its values ("支持取值round/ceil/trunc",
/// "当前版本仅支持“dynamic”", `仅支持{"none", "tanh"}`), whole: which of them hold only under a
/// condition is the rules' reading, not the reader's.
pub fn string_value_phrases(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in text.split(['。', '；', ';', '\n']) {
        let s = s.trim();
        if !s.is_empty() && STRING_VALUE_WORD.is_match(s) && !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    out
}

// An empty or null dims list that means every dim: "当dim为nullptr或[]时，视为计算所有维度",
// "为None时self会被展平后计算".
static EMPTY_REDUCES_EVERY_DIM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:nullptr|None|\[\]|空)[^。；;]{0,12}(?:所有维度|全部维度|所有轴|全部轴|展平)")
        .unwrap()
});

/// Whether `text` says an empty or null dims list reduces every dim.
pub fn empty_reduces_every_dim(text: &str) -> bool {
    EMPTY_REDUCES_EVERY_DIM.is_match(text)
}

// A Bool that chooses what an empty dims list does, by the value that computes nothing:
// "指定axes为空时的行为。false：对所有轴进行计算；true：不进行计算，输出张量等于输入张量。"
static EMPTY_DIMS_NOOP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(true|false)\s*[:：]\s*(?:不进行计算|不做计算|不计算|不做reduce|输出张量?等于输入张量?)")
        .unwrap()
});

/// The value of a Bool that makes an empty dims list compute nothing (the output is the input),
/// where `text` says so ("true：不进行计算，输出张量等于输入张量").
pub fn empty_dims_noop_value(text: &str) -> Option<bool> {
    let caps = EMPTY_DIMS_NOOP.captures(text)?;
    Some(caps[1].eq_ignore_ascii_case("true"))
}

// A tensor's dtype stated through CANN's promotion table (数据类型推导规则, 互推导关系): "数据类型与
// target的数据类型需满足数据类型推导规则", "数据类型需要是self与target推导之后可转换的数据类型",
// "dtype与self和gradOutput进行数据类型推导后的结果一致", "数据类型需要与self构成互推导关系". A
// clause that denies it ("不支持…的数据类型推导", "无法做数据类型推导") is an error's wording, not
// this statement; one about a shape ("shape由上述公式推导出") is no dtype's.
static PROMOTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:数据类型|dtype)[^。；;]*?(?:推导(?:之后|以后|后|规则|关系)|互推导)")
        .unwrap()
});
static PROMOTION_DENIED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"不支持|不满足|无法|不能|不可|不属于|shape").unwrap());

/// Whether `clause` states its tensor's dtype through the promotion table.
pub fn states_promotion(clause: &str) -> bool {
    PROMOTION.is_match(clause) && !PROMOTION_DENIED.is_match(clause)
}

/// The sentences of a tensor's text that state its dtype through the promotion table, whole (the
/// tensors it is promoted with are named in them): what the op computes in, read by the rules.
pub fn promotion_phrases(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in text.split(['。', '；', ';', '\n']) {
        // "（参见互转换关系）": the reference, not the statement.
        let s = strip_references(s);
        for clause in s.split(['，', ',']) {
            let clause = clause.trim();
            if states_promotion(clause) && !out.iter().any(|o| o == clause) {
                out.push(clause.to_string());
            }
        }
    }
    out
}

static REFERENCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[（(]\s*参见[^）)]*[）)]").unwrap());

fn strip_references(s: &str) -> String {
    REFERENCE.replace_all(s, "").trim().to_string()
}

/// The sentences of a dims list's text that give an empty or null list a meaning, whole (the
/// condition and what it means are two clauses of one sentence), and of a Bool's text that
/// chooses it ("指定axes为空时的行为。…true：不进行计算").
pub fn empty_dims_phrases(text: &str) -> Vec<String> {
    let chooses = text.contains("为空");
    text.split(['。', '；', ';', '\n'])
        .map(str::trim)
        .filter(|s| empty_reduces_every_dim(s) || (chooses && empty_dims_noop_value(s).is_some()))
        .map(str::to_string)
        .collect()
}

/// Clauses stating a constraint, as the doc states them ("数据类型与self一致", "长度为1或2").
pub fn constraint_phrases(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Each clause is a piece of `text`, so a text with no match has no matching clause: one scan
    // instead of a regex call per clause (most descriptions state no constraint).
    if !CONSTRAINT.is_match(text) {
        return out;
    }
    let mut depth = 0i32;
    let mut clause = String::new();
    // Whether the clause just before was kept: "长度必须为0，1或3" goes on in a piece of numbers.
    let mut kept = false;
    // Whether the sentence so far states a condition.
    let mut conditioned = false;
    let mut flush = |clause: &mut String, out: &mut Vec<String>| {
        let c = clause
            .trim()
            .trim_start_matches(['且', '并'])
            .trim()
            .to_string();
        let continues = kept && NUMBER_LIST.is_match(&c);
        if let (true, Some(last)) = (continues, out.last_mut()) {
            last.push('，');
            last.push_str(&c);
        } else if !c.is_empty() && CONSTRAINT.is_match(&c) && !out.contains(&c) {
            out.push(c);
            kept = true;
        } else {
            kept = false;
        }
        clause.clear();
    };
    for ch in text.chars() {
        match ch {
            '(' | '（' | '[' | '【' | '{' => depth += 1,
            ')' | '）' | ']' | '】' | '}' => depth -= 1,
            _ => {}
        }
        // "类型为INT32时，shape的最后一维是x的1/8": a clause that states a condition carries on
        // into the clauses it conditions, to the end of the sentence ("weightOptional为空时，需要
        // 构造一个shape为[R1,...,Rj]，数据类型与输入input相同…"), so that none is read as
        // unconditional.
        let comma = matches!(ch, '，' | ',');
        conditioned |= comma && CONDITION_HEAD.is_match(clause.trim());
        let splits = depth <= 0
            && !(comma && conditioned)
            && (comma || matches!(ch, '。' | '；' | ';' | '\n'));
        if splits {
            conditioned = false;
            flush(&mut clause, &mut out);
        } else {
            clause.push(ch);
        }
    }
    flush(&mut clause, &mut out);
    out
}

/// `* 0：KEEP_DTYPE，...` lines of an enumerated attribute, and enumerations written inline:
/// "支持0：bilinear、1：nearest、2：bicubic", "支持取值1、27，分别表示FLOAT16、BFLOAT16",
/// "取值为0、1或2".
pub fn enum_values<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeMap<i64, String> {
    let mut out = BTreeMap::new();
    let lines: Vec<&str> = lines.collect();
    // "0：表示…的结束索引。<br>1：表示…的大小。": two or more values, each on a line of its own
    // saying what it means.
    // (A cell's line breaks may have become spaces: the sentences count, not the lines.)
    let meanings: Vec<(i64, String)> = lines
        .iter()
        .flat_map(|l| l.split_inclusive(['。', '；', ';']))
        .filter_map(|l| {
            let c = ENUM_MEANING.captures(l)?;
            Some((c[1].parse().ok()?, c[2].trim().to_string()))
        })
        .collect();
    if meanings.len() >= 2 {
        out.extend(meanings);
    }
    for l in lines {
        if let Some(c) = ENUM_LINE.captures(l) {
            if let Ok(v) = c[1].parse::<i64>() {
                out.entry(v).or_insert_with(|| c[2].to_string());
            }
            continue;
        }
        // "支持的枚举值如下：0：KEEP_DTYPE，…。1：ALLOW_FP32_DOWN_PRECISION，…": a list announced
        // once, its items sentences of their own.
        if l.contains("枚举") || l.contains("如下") {
            let pairs: Vec<(i64, String)> = ENUM_PAIR
                .captures_iter(l)
                .filter_map(|c| Some((c[1].parse().ok()?, c[2].to_string())))
                .collect();
            if pairs.len() >= 2 {
                for (v, name) in pairs {
                    out.entry(v).or_insert(name);
                }
                continue;
            }
        }
        for sentence in l.split(['。', '；', ';']) {
            inline_enum(sentence, &mut out);
        }
    }
    out
}

/// "0：bilinear、1：nearest" pairs (two or more, after 支持/取值/范围), "34=HIFLOAT8，35=…" (three
/// or more anywhere), "支持DT_INT8(2)", "值为1表示…FLOAT16", "类型为INT8，则为2", or a "取值为…"
/// value list.
fn inline_enum(sentence: &str, out: &mut BTreeMap<i64, String>) {
    let pairs = value_name_pairs(sentence);
    if !pairs.is_empty() {
        for (v, name) in pairs {
            out.entry(v).or_insert(name);
        }
        return;
    }
    if !(sentence.contains("支持") || sentence.contains("取值") || sentence.contains("范围"))
    {
        return;
    }
    let Some(c) = NAMED_BRACKET_LIST
        .captures(sentence)
        .or_else(|| VALUE_LIST.captures(sentence))
    else {
        return;
    };
    let values: Vec<i64> = NUMBER
        .find_iter(&c[1])
        .filter_map(|m| m.as_str().parse().ok())
        .collect();
    let names: Vec<String> = c
        .get(2)
        .map(|m| {
            m.as_str()
                .split(['、', ',', '，', '/'])
                .map(|n| n.trim().trim_end_matches('。').to_string())
                .collect()
        })
        .unwrap_or_default();
    for (i, v) in values.iter().enumerate() {
        let name = names
            .get(i)
            .filter(|_| names.len() == values.len())
            .cloned()
            .unwrap_or_else(|| v.to_string());
        out.entry(*v).or_insert(name);
    }
}

/// The value–name pairs a sentence states, where it states them as an enumeration.
fn value_name_pairs(sentence: &str) -> Vec<(i64, String)> {
    let captured = |re: &Regex, value: usize, name: usize| -> Vec<(i64, String)> {
        re.captures_iter(sentence)
            .filter_map(|c| Some((c[value].parse().ok()?, c[name].to_string())))
            .collect()
    };
    let announced = ["支持", "取值", "范围", "分别", "对应"]
        .iter()
        .any(|w| sentence.contains(w));
    let pairs = captured(&ENUM_PAIR, 1, 2);
    if pairs.len() >= 3 || (announced && pairs.len() >= 2) {
        return pairs;
    }
    // "支持0(none)|1(mean)|2(sum)".
    let pairs = captured(&ENUM_PAREN, 1, 2);
    if announced && pairs.len() >= 2 {
        return pairs;
    }
    // "支持DT_INT8(2)": a name and its number, however few.
    let pairs = captured(&NAME_THEN_VALUE_PAREN, 2, 1);
    if sentence.contains("支持") && !pairs.is_empty() {
        return pairs;
    }
    // "值为1表示输出的类型是FLOAT16", "如果输出y类型为INT8，则为2".
    captured(&VALUE_MEANS, 1, 2)
        .into_iter()
        .chain(captured(&NAME_MEANS_VALUE, 2, 1))
        .collect()
}

/// A clause that opens a condition ("当x为空时", "类型为INT32时").
static CONDITION_HEAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"时$|^(?:当|如果|若)[^，,]*$").unwrap());
/// A piece that is only numbers ("1或3"), continuing the clause before it.
static NUMBER_LIST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-?\d+(?:\s*(?:或者|或|、|和|及)\s*-?\d+)*$").unwrap());
static ENUM_PAREN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(-?\d{1,3})\s*[(（]\s*'?([A-Za-z][A-Za-z0-9_]*)'?\s*[)）]").unwrap()
});
static ENUM_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[、，,：:（(\s。；{]|支持|为)(-?\d{1,3})\s*[:：=]\s*([A-Za-z][A-Za-z0-9_]*)")
        .unwrap()
});
static NAME_THEN_VALUE_PAREN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Za-z][A-Za-z0-9_]*)\s*[(（]\s*(-?\d{1,3})\s*[)）]").unwrap());
// "值为1表示输出的类型是FLOAT16": the value, and the upper-case name its clause ends on.
static VALUE_MEANS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"值为\s*(-?\d{1,3})\s*(?:时)?\s*(?:表示|代表)[^，,。；;]*?([A-Z][A-Z0-9_]+)\s*(?:[，,。；;]|$)")
        .unwrap()
});
// "如果输出y类型为INT8，则为2".
static NAME_MEANS_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"类型为\s*([A-Z][A-Z0-9_]+)\s*时?\s*[，,]\s*则为\s*(-?\d{1,3})(?:[，,。；;]|$)")
        .unwrap()
});

/// "支持取值1、27，分别表示FLOAT16、BFLOAT16", "取值为0、1或2", "可选值为0或1": a value list that
/// is not a condition ("取值为0时") or a range ("取值为[0, 3]").
static VALUE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:支持取值|取值为|取值是|取值只能为|取值仅支持|可选值为|仅支持取值|范围为\s*\{|范围是\s*[:：]?\s*\{)\s*((?:-?\d+\s*(?:、|,|，|或者|或|和)\s*)+-?\d+)(?:\s*\}|[^\d时则\]）)]|$)(?:\s*[，,]?\s*分别(?:表示|代表|对应)([^。；;]+))?",
    )
    .unwrap()
});

/// "[2, 34, 35]，分别对应INT8、HIFLOAT8、FLOAT8_E5M2": a bracketed list is a range unless each
/// value is named.
static NAMED_BRACKET_LIST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\[{]\s*((?:-?\d+\s*[,，、]\s*)+-?\d+)\s*[\]}]\s*[，,]?\s*分别(?:表示|代表|对应)([^。；;]+)")
        .unwrap()
});

static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"-?\d+").unwrap());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_lists_in_lower_case_read_as_in_upper_case() {
        use DType::*;
        assert_eq!(
            dtype_statement("数据类型支持fp16，fp32，bf16"),
            Some(DtypeStatement::Supports(
                vec![Float16, Float32, BFloat16],
                vec![]
            ))
        );
        assert_eq!(
            dtype_statement("数据类型不支持bfloat16。"),
            Some(DtypeStatement::Excludes(vec![BFloat16], vec![]))
        );
        // A comma before a word that is no dtype still ends the list.
        assert_eq!(
            dtype_statement("数据类型支持float16，shape需要与x一致"),
            Some(DtypeStatement::Supports(vec![Float16], vec![]))
        );
    }

    #[test]
    fn dtype_statements() {
        assert_eq!(
            dtype_statement(
                "Device侧的aclTensor，数据类型支持BFLOAT16、FLOAT16、FLOAT32，且数据类型与self一致"
            ),
            Some(DtypeStatement::Supports(
                vec![DType::BFloat16, DType::Float16, DType::Float32],
                vec![]
            ))
        );
        // A note in brackets after a token, as a dtype cell has it, leaves the list whole.
        assert_eq!(
            dtype_statement(
                "数据类型支持BFLOAT16（仅 Ascend910B 及后续同代 SoC 支持）、FLOAT16、INT32。"
            ),
            Some(DtypeStatement::Supports(
                vec![DType::BFloat16, DType::Float16, DType::Int32],
                vec![]
            ))
        );
        assert_eq!(
            dtype_statement("参数self、out的数据类型不支持BFLOAT16。"),
            Some(DtypeStatement::Excludes(vec![DType::BFloat16], vec![]))
        );
        assert_eq!(
            dtype_statement("不支持BFLOAT16数据类型。"),
            Some(DtypeStatement::Excludes(vec![DType::BFloat16], vec![]))
        );
        assert_eq!(
            dtype_statement("不支持BFLOAT16。"),
            Some(DtypeStatement::Excludes(vec![DType::BFloat16], vec![]))
        );
        assert_eq!(dtype_statement("不支持NZ。"), None);
        // Under a "数据类型：" bullet, a product note lists dtypes without the word.
        assert_eq!(
            note_dtype_statement("入参x仅支持INT4、INT8、INT32。"),
            Some(DtypeStatement::Supports(
                vec![DType::Int4, DType::Int8, DType::Int32],
                vec![]
            ))
        );
        assert_eq!(
            note_dtype_statement("入参scale、offset和出参y不支持BFLOAT16。"),
            Some(DtypeStatement::Excludes(vec![DType::BFloat16], vec![]))
        );
        assert_eq!(note_dtype_statement("入参x仅支持ND。"), None);
        assert_eq!(note_dtype_statement("入参divMode仅支持True。"), None);
        assert_eq!(
            dtype_statement("数据类型仅支持INT32。"),
            Some(DtypeStatement::Supports(vec![DType::Int32], vec![]))
        );
        assert_eq!(
            dtype_statement("数据类型支持FLOAT、FOO"),
            Some(DtypeStatement::Supports(
                vec![DType::Float32],
                vec!["FOO".into()]
            ))
        );
        assert_eq!(
            dtype_statement("数据类型需要是可转换为FLOAT的数据类型"),
            None
        );
    }

    #[test]
    fn inline_enumerations() {
        let e = |s: &str| enum_values(std::iter::once(s));
        assert_eq!(
            e("支持0：bilinear、1：nearest、2：bicubic。"),
            [(0, "bilinear"), (1, "nearest"), (2, "bicubic")]
                .into_iter()
                .map(|(k, v)| (k, v.to_string()))
                .collect()
        );
        for names in ["FLOAT16、BFLOAT16", "FLOAT16/BFLOAT16"] {
            assert_eq!(
                e(&format!("支持取值1、27，分别表示{names}。")),
                [(1, "FLOAT16"), (27, "BFLOAT16")]
                    .into_iter()
                    .map(|(k, v)| (k, v.to_string()))
                    .collect()
            );
        }
        assert_eq!(
            e("取值为0、1或2。").keys().copied().collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // Conditions and ranges are not enumerations.
        assert!(e("取值为0时表示不做处理，取值为1时表示求和。").is_empty());
        assert!(e("取值为[0, 3]。").is_empty());
        assert!(e("数据类型支持FLOAT16、FLOAT32。").is_empty());
    }

    #[test]
    fn formats_ranks_and_marks() {
        assert_eq!(
            format_statement("数据格式支持NCDHW、ND，且需要与self数据格式一致")
                .unwrap()
                .0,
            vec![Format::Ncdhw, Format::Nd]
        );
        assert_eq!(
            format_statement("支持数据格式为NCHW和NCL。").unwrap().0,
            vec![Format::Nchw, Format::Ncl]
        );
        assert_eq!(
            format_statement("数据格式支持ND, 当输入是5维时").unwrap().0,
            vec![Format::Nd]
        );
        assert_eq!(
            rank_in_text("shape支持4维或5维，且"),
            Some(Rank { min: 4, max: 5 })
        );
        assert_eq!(rank_in_text("shape支持4维"), Some(Rank { min: 4, max: 4 }));
        // Ranks as "ND" or in numerals, as other docs write them.
        assert_eq!(
            rank_in_text("shape支持4D、5D。"),
            Some(Rank { min: 4, max: 5 })
        );
        assert_eq!(rank_in_text("只能是0D或1D"), Some(Rank { min: 0, max: 1 }));
        // Every rank of a list, notes in brackets aside; a lower bound beside a cap.
        assert_eq!(
            rank_in_text("目前仅支持零维、一维、二维。"),
            Some(Rank { min: 0, max: 2 })
        );
        assert_eq!(
            rank_in_text("shape支持3D（维度分别代表C，H，W）或4D（维度分别代表N，C，H，W）"),
            Some(Rank { min: 3, max: 4 })
        );
        assert_eq!(
            rank_in_text("维度需大于一维且小于等于八维"),
            Some(Rank { min: 2, max: 8 })
        );
        assert_eq!(
            rank_in_text("shape支持二维或三维"),
            Some(Rank { min: 2, max: 3 })
        );
        assert_eq!(rank_cell("2D"), Some(Rank { min: 2, max: 2 }));
        // An interval of ranks, not a 1×8 shape; a shape of symbols stays a shape.
        assert_eq!(rank_cell("[1, 8]"), Some(Rank { min: 1, max: 8 }));
        assert_eq!(rank_cell("[N, C]"), Some(Rank { min: 2, max: 2 }));
        assert_eq!(
            rank_in_text("当输入是5维时，内部按照NCDHW处理，当输入是4维时，补1"),
            Some(Rank { min: 4, max: 5 })
        );
        assert_eq!(
            dtype_statement("Host侧的aclIntArray，INT64类型数组"),
            Some(DtypeStatement::Supports(vec![DType::Int64], vec![]))
        );
        assert_eq!(
            rank_in_text("数据维度不支持8维以上"),
            Some(Rank { min: 0, max: 8 })
        );
        assert_eq!(
            rank_in_text("数据格式支持ND，维度不大于8。"),
            Some(Rank { min: 0, max: 8 })
        );
        for at_most in [
            "数据格式支持 ND。最高支持 8 维。",
            "最多支持8维",
            "支持8维以下",
        ] {
            assert_eq!(
                rank_in_text(at_most),
                Some(Rank { min: 0, max: 8 }),
                "{at_most}"
            );
        }
        assert_eq!(rank_cell("3-4"), Some(Rank { min: 3, max: 4 }));
        assert_eq!(rank_cell("0-8"), Some(Rank { min: 0, max: 8 }));
        assert_eq!(rank_cell("4维"), Some(Rank { min: 4, max: 4 }));
        assert_eq!(rank_cell("-"), None);
        assert_eq!(
            rank_cell("(T,N,C)或(T,C) T为输入长度，N为批处理大小"),
            Some(Rank { min: 2, max: 3 })
        );
        assert_eq!(rank_cell("[N, C]"), Some(Rank { min: 2, max: 2 }));
        // One shape per layout, separated by a semicolon (BSND;TND).
        assert_eq!(
            rank_cell("(B,S1,Nidx1,D);(T1,Nidx1,D)"),
            Some(Rank { min: 3, max: 4 })
        );
        assert_eq!(
            named_shapes("(batch_size, 1, hidden_dim)或(batch_size, hidden_dim)"),
            vec![
                vec!["batch_size", "1", "hidden_dim"],
                vec!["batch_size", "hidden_dim"]
            ]
        );
        // Bullet-style docs state the shape as a clause of the description.
        let desc = "数据类型与idx2一致，shape为（B,N），[数据格式]支持ND。";
        assert_eq!(shape_statement(desc).as_deref(), Some("(B,N)"));
        assert_eq!(shape_statement("self的shape为[2, 3, 4]，dim = 1"), None);
        assert_eq!(
            shape_statement("特征值。shape为(bs, num_keys, channels)其中bs为batch size，channels为特征图的维度。").as_deref(),
            Some("(bs, num_keys, channels)")
        );
        assert_eq!(shape_statement("则输出shape为[2, 4]的张量"), None);
        let per_case =
            "量化输出类型为INT4时，shape为[M]；量化输出类型为FLOAT4_E2M1时，shape为[M,K,2]。";
        assert_eq!(shape_statement(per_case), None);
        assert_eq!(shape_statement("当g为空指针时，shape为[2H]。"), None);
        // Whatever the punctuation: an ASCII comma ends a clause, brackets may be full width.
        assert_eq!(
            shape_statement("上游梯度, shape为[N, C]。").as_deref(),
            Some("[N, C]")
        );
        assert_eq!(
            named_shapes("（batch，m，n）"),
            vec![vec!["batch", "m", "n"]]
        );
        assert_eq!(rank_cell("（batch，m，n）"), Some(Rank { min: 3, max: 3 }));
        // A shape of variable length states no rank.
        assert_eq!(rank_cell("(N, *)"), None);
        assert_eq!(rank_cell("[B…, H]"), None);
        assert_eq!(mark("√"), Some(true));
        assert_eq!(mark("×"), Some(false));
        assert_eq!(empty_tensor_in_text("不支持空Tensor。"), Some(false));
        assert_eq!(empty_tensor_in_text("支持空Tensor。"), Some(true));
        assert_eq!(non_contiguous_in_text("支持非连续的Tensor"), Some(true));
        assert!(optional_in_text("可选参数，可为空"));
        // The C spellings of 空指针 read as the word, negations included.
        assert!(!optional_in_text("不支持nullptr。"));
        assert!(!optional_in_text("不能为NULL"));
        assert!(optional_in_text("目前暂不支持，传入空指针nullptr即可。"));
        assert!(optional_in_text("需要传入nullptr。"));
        // A meaning given to a null value allows it; a requirement on a non-null one does not.
        assert!(optional_in_text(
            "取值范围为[-self.dim(), self.dim()-1]；当dim为nullptr或[]时，视为计算所有维度。"
        ));
        assert!(optional_in_text(
            "当betaOptional为空指针时，接口以1.0进行计算。"
        ));
        assert!(!optional_in_text(
            "当x1Scale不为nullptr时，x1Scale的输入值不得随x1的输入值动态变化。"
        ));
        assert!(optional_in_text("rint、round或nullptr。"));
        assert!(optional_for(
            "如果需要跳过，传入`q=nullptr`即可。",
            "q",
            &["q", "x"]
        ));
        // A negation under a condition: null is allowed outside it.
        let cond = "空Tensor场景下，当outputMask指定偏差的梯度需要计算时，biasSizes不能为nullptr。";
        assert!(optional_for(
            cond,
            "biasSizes",
            &["biasSizes", "outputMask"]
        ));
        assert!(!optional_for(
            cond,
            "outputMask",
            &["biasSizes", "outputMask"]
        ));
        assert!(!optional_in_text(
            "biasSizes不能为nullptr。当x为2维时，shape为[N]。"
        ));
        assert!(!optional_in_text("不能为空指针"));
        assert!(!optional_in_text("当reduction为none时，out不能为空。"));
        assert!(optional_in_text(
            "支持传入空指针，传入空指针时按零点为0处理"
        ));
        assert!(optional_in_text("传入空指针时，采用\"rint\"模式"));
        assert!(optional_in_text("预留参数，暂未使用，固定传入空指针"));
        assert!(!optional_in_text("不允许传入空指针"));
        assert!(!optional_in_text("不支持传入空指针"));
        assert!(!optional_in_text("传入空指针时返回161001"));
    }

    #[test]
    fn dtypes_given_by_an_output_cell_and_or_lists() {
        let read = dtypes_given(
            "当入参`x`的数据类型为FLOAT32时，输出的数据类型支持FLOAT16或者BFLOAT16。当输入`x`的数据类型为FLOAT16时，输出的数据类型支持FLOAT32。",
        );
        let pairs: Vec<(Vec<DType>, Vec<DType>)> = read
            .iter()
            .map(|g| (g.when.clone(), g.allowed.clone()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                (vec![DType::Float32], vec![DType::Float16, DType::BFloat16]),
                (vec![DType::Float16], vec![DType::Float32]),
            ]
        );
        assert!(read.iter().all(|g| g.on == "x" && g.subject.is_none()));
    }

    #[test]
    fn nullable_as_the_constraints_say_it_of_the_parameter() {
        let text = "T-C量化模式，x1Scale支持配置为空或(1,)。如果需要跳过sample模块，传入`q=nullptr`即可。当前只支持sparseWeightScale，xScale均不是nullptr的场景。其中weightOptional可传入空指针。";
        assert!(said_nullable(text, "x1Scale"));
        assert!(said_nullable(text, "q"));
        assert!(said_nullable(text, "weightOptional"));
        assert!(!said_nullable(text, "xScale"));
        assert!(!said_nullable(text, "x"));
        assert!(!said_nullable(text, "Scale"));
    }

    #[test]
    fn optional_only_when_the_clause_is_about_the_parameter() {
        let params = ["gradY", "groupIdxOptional", "out"];
        let grad_y = "反向传播的梯度。有可选输入groupIdxOptional时，gradY的第一维与其元素数一致。";
        assert!(!optional_for(grad_y, "gradY", &params));
        assert!(optional_for(grad_y, "groupIdxOptional", &params));
        assert!(optional_for(
            "可选输入，可为空。",
            "groupIdxOptional",
            &params
        ));
        assert!(optional_for("gradY可传入空指针。", "gradY", &params));
        assert!(!optional_for(
            "groupIdxOptional传入空指针时，gradY为二维。",
            "gradY",
            &params
        ));
        // An identifier inside a longer one is not that parameter.
        assert!(optional_for("可选，与outs无关。", "gradY", &params));
        // The condition names another parameter, the marker follows it: about this one.
        assert!(optional_for(
            "此参数在out为空时必选，在out非空时可选。",
            "gradY",
            &params
        ));
    }

    #[test]
    fn a_role_word_before_the_named_parameter() {
        assert_eq!(
            constraint_phrases("shape要求与输入varRef保持一致。"),
            ["shape要求与输入varRef保持一致"]
        );
        assert_eq!(
            constraint_phrases("数据类型与入参x一致。"),
            ["数据类型与入参x一致"]
        );
    }

    #[test]
    fn the_direction_of_a_cast_between_tensors_is_kept() {
        assert_eq!(
            constraint_phrases(
                "out数据类型需要可转换为self的数据类型，（参考互转换关系）。元素个数等于bins。"
            ),
            ["out数据类型需要可转换为self的数据类型"]
        );
        // A cast to a dtype by name is the scalar's own statement, not a relation.
        assert!(constraint_phrases("数据类型需要是可转换成FLOAT的类型。").is_empty());
    }

    #[test]
    fn string_value_sentences_are_kept_whole() {
        assert_eq!(
            string_value_phrases(
                "支持{\"rint\", \"round\"}模式。\n表示模式。数据类型为HIFLOAT8，支持{\"round\"}"
            ),
            [
                "支持{\"rint\", \"round\"}模式",
                "数据类型为HIFLOAT8，支持{\"round\"}"
            ]
        );
        assert!(string_value_phrases("表示算子输入Tensor的实际数据格式。").is_empty());
    }

    #[test]
    fn constraints_and_dtypes_whatever_the_wording() {
        // The modal word before "与" and "相等" for "一致".
        assert_eq!(
            constraint_phrases("dtype须与y相同，shape应与y相等。"),
            ["dtype须与y相同", "shape应与y相等"]
        );
        // "支持的数据类型为A" is "数据类型支持A".
        assert_eq!(
            dtype_statement("支持的数据类型为FLOAT16、FLOAT32。"),
            Some(DtypeStatement::Supports(
                vec![DType::Float16, DType::Float32],
                vec![]
            ))
        );
        let given = dtypes_given("当x的数据类型为FLOAT32时，支持的数据类型为FLOAT16。");
        assert_eq!(given.len(), 1);
        assert_eq!(given[0].allowed, [DType::Float16]);
        // Lists joined by "/" as by "、".
        let given = dtypes_given("当x的数据类型为FLOAT32/FLOAT16时，数据类型支持FLOAT32/FLOAT16。");
        assert_eq!(given.len(), 1);
        assert_eq!(given[0].when, [DType::Float32, DType::Float16]);
        assert_eq!(given[0].allowed, [DType::Float32, DType::Float16]);
    }

    #[test]
    fn what_an_empty_dims_list_means_is_kept_whole() {
        let dims = "参与计算的维度，取值范围为[-self.dim(), self.dim()-1]，且其中的数据不能相同；当dim为nullptr或[]时，视为计算所有维度。";
        assert_eq!(
            empty_dims_phrases(dims),
            vec!["当dim为nullptr或[]时，视为计算所有维度".to_string()]
        );
        assert!(empty_reduces_every_dim(
            "默认值为None，为None时self会被展平后计算"
        ));
        let noop = "指定axes为空时的行为。false：对所有轴进行计算；true：不进行计算，输出张量等于输入张量。";
        assert_eq!(
            empty_dims_phrases(noop),
            vec!["true：不进行计算，输出张量等于输入张量".to_string()]
        );
        assert_eq!(empty_dims_noop_value("False：不计算"), Some(false));
        // Without "为空" the choice is about something else.
        assert!(empty_dims_phrases("true：不进行计算").is_empty());
    }

    #[test]
    fn constraints_and_enums() {
        let c = constraint_phrases("数据类型支持FLOAT，且数据类型与self一致。shape与self一致，长度为1（kH=kW）或2（kH, kW），支持范围为[-255,255]");
        assert_eq!(
            c,
            [
                "数据类型与self一致",
                "shape与self一致",
                "长度为1（kH=kW）或2（kH, kW）",
                "支持范围为[-255,255]"
            ]
        );
        assert_eq!(
            constraint_phrases("类型为INT32时，数据类型与x一致；其他类型时，shape与x一致。"),
            ["类型为INT32时，数据类型与x一致", "其他类型时，shape与x一致"]
        );
        // A condition holds to the end of its sentence: no clause after it is unconditional.
        assert_eq!(
            constraint_phrases("weightOptional为空时，需要构造一个shape为[R1,...,Rj]，数据类型与输入input相同，数据全为1的Tensor。"),
            ["weightOptional为空时，需要构造一个shape为[R1,...,Rj]，数据类型与输入input相同，数据全为1的Tensor"]
        );
        // "和" and "同" say "与"; "保持" does not count toward the words between.
        assert_eq!(
            constraint_phrases("数据类型和gradOutput一致。dtype与self和gradOutput进行数据类型推导后的结果保持一致。"),
            ["数据类型和gradOutput一致", "dtype与self和gradOutput进行数据类型推导后的结果保持一致"]
        );
        // A promotion is no constraint phrase: the rules read it from `promotion_phrases`.
        assert_eq!(
            promotion_phrases("数据类型需要是self与other推导之后可转换的数据类型（参见互转换关系），shape需要是self与other broadcast之后的shape。"),
            ["数据类型需要是self与other推导之后可转换的数据类型"]
        );
        assert_eq!(
            promotion_phrases("tensor1与self、tensor2的数据类型满足数据类型推导规则（参见互推导关系），且推导后的类型需要在支持的输入类型里。"),
            ["tensor1与self、tensor2的数据类型满足数据类型推导规则"]
        );
        assert!(promotion_phrases(
            "不支持输入x1,x2分别为BFLOAT16和FLOAT16的数据类型推导。shape由上述公式推导出。"
        )
        .is_empty());
        // The broadcast result of other tensors.
        assert_eq!(
            constraint_phrases("数据类型需要是self与other推导之后可转换的数据类型，shape需要是self与other broadcast之后的shape。"),
            ["shape需要是self与other broadcast之后的shape"]
        );
        // "相同" is "一致", and the aspects may be named again after the name.
        assert_eq!(
            constraint_phrases(
                "shape与totalSum相同。shape和数据类型与totalSum的shape和数据类型保持一致。"
            ),
            [
                "shape与totalSum相同",
                "shape和数据类型与totalSum的shape和数据类型保持一致"
            ]
        );
        // A bracketed range the value lies in, whatever word names the value.
        assert_eq!(
            constraint_phrases("大小应该在[0,2147483647]的范围内。"),
            ["大小应该在[0,2147483647]的范围内"]
        );
        assert_eq!(
            constraint_phrases("数组长度必须为0，1或3，且数组元素必须都大于0。"),
            ["数组长度必须为0，1或3", "数组元素必须都大于0"]
        );
        // A set in braces is one clause; "取值仅支持32" states the value.
        assert_eq!(
            constraint_phrases("输入范围为{35, 36}，分别对应输出y的数据类型。"),
            ["输入范围为{35, 36}"]
        );
        assert_eq!(
            constraint_phrases("当前取值仅支持32。"),
            ["当前取值仅支持32"]
        );
        // Where the doc pins the channel axis (the recognizer's channel relations read it).
        assert_eq!(
            constraint_phrases("支持空Tensor。默认第二维为channel轴，且channel轴的值不能为0。"),
            ["默认第二维为channel轴"]
        );
        // A list's "size为4" is its length (a blocksize is no size).
        assert_eq!(
            constraint_phrases("size为2(K_H, K_W)，各元素均大于零。blocksize为32。"),
            ["size为2(K_H, K_W)"]
        );
        let e = enum_values(
            [
                "* 0：KEEP_DTYPE，保持",
                "  * 1：ALLOW_FP32_DOWN_PRECISION，",
                "x",
            ]
            .into_iter(),
        );
        assert_eq!(e.get(&0).map(String::as_str), Some("KEEP_DTYPE"));
        assert_eq!(e.len(), 2);
        let e = enum_values(["支持0(none)|1(mean)|2(sum)。"].into_iter());
        assert_eq!(e.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
        let e = enum_values(
            ["支持的枚举值如下：0：KEEP_DTYPE，保持。1：ALLOW_FP32_DOWN_PRECISION，支持降精度。2：USE_FP16，支持。"]
                .into_iter(),
        );
        assert_eq!(e.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn enumerations_in_every_way_docs_write_them() {
        let e = |s: &str| -> Vec<(i64, String)> {
            enum_values(std::iter::once(s)).into_iter().collect()
        };
        let pairs = |p: &[(i64, &str)]| -> Vec<(i64, String)> {
            p.iter().map(|(v, n)| (*v, n.to_string())).collect()
        };
        assert_eq!(
            e("支持取值2、34，分别代表INT8、HIFLOAT8。"),
            pairs(&[(2, "INT8"), (34, "HIFLOAT8")])
        );
        assert_eq!(
            e("输入范围为{35, 36}，分别对应输出yOut的数据类型为{35:FLOAT8_E5M2, 36:FLOAT8_E4M3FN}。"),
            pairs(&[(35, "FLOAT8_E5M2"), (36, "FLOAT8_E4M3FN")])
        );
        assert_eq!(
            e("dstType的取值范围是:[2, 34,35]，分别对应INT8、HIFLOAT8、FLOAT8_E5M2。"),
            pairs(&[(2, "INT8"), (34, "HIFLOAT8"), (35, "FLOAT8_E5M2")])
        );
        assert_eq!(
            e("指定输出量化数据类型。34=HIFLOAT8，35=FLOAT8_E5M2，36=FLOAT8_E4M3。"),
            pairs(&[(34, "HIFLOAT8"), (35, "FLOAT8_E5M2"), (36, "FLOAT8_E4M3")])
        );
        assert_eq!(e("支持DT_INT8(2)。"), pairs(&[(2, "DT_INT8")]));
        let lines =
            |s: &str| -> Vec<(i64, String)> { enum_values(s.lines()).into_iter().collect() };
        assert_eq!(
            lines("0：表示各组的结束索引。\n1：表示各组的大小。"),
            pairs(&[(0, "各组的结束索引。"), (1, "各组的大小。")])
        );
        assert_eq!(
            lines("0：表示各组的结束索引。 1：表示各组的大小。"),
            pairs(&[(0, "各组的结束索引。"), (1, "各组的大小。")])
        );
        // One value saying what it means is no enumeration.
        assert!(lines("0：表示各组的结束索引。").is_empty());
        assert_eq!(
            e("值为[1，27]。值为1表示输出的类型是FLOAT16，值为27表示输出的类型是BFLOAT16。"),
            pairs(&[(1, "FLOAT16"), (27, "BFLOAT16")])
        );
        assert_eq!(
            e("如果输出y类型为INT8，则为2；y类型为INT4时，则为29。"),
            pairs(&[(2, "INT8"), (29, "INT4")])
        );
        assert_eq!(
            e("输入范围为{34, 35, 36}。"),
            pairs(&[(34, "34"), (35, "35"), (36, "36")])
        );
        // A bracketed pair is a range, not two values.
        assert!(e("取值范围是[0, 3]。").is_empty());
        assert!(e("取值范围是:[0, 3]。").is_empty());
    }
}
