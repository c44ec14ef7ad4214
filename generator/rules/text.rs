//! Text helpers of the recognizer: normalizing condition text, splitting clauses, finding the
//! parameters a clause names.

use crate::ir::{OpIr, Param, Role};
pub use crate::products::products_in;
use regex::Regex;
use std::sync::LazyLock;

macro_rules! re {
    ($name:ident, $pat:expr) => {
        pub static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new($pat).expect("static regex"));
    };
}
pub(crate) use re;

re!(MARKUP, r"</?[a-zA-Z][^>]*>|\$|\\|`|\*\*");
re!(NUMBERING, r"^\s*(?:\d+\s*[.、．)]|[（(]\d+[）)])\s*");
re!(QUOTED_WORD, r#""[^"]*"|“[^”]*”|'[^']*'|‘[^’]*’"#);
re!(IDENT, r"[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?");
re!(NULLPTR, r"(?-u:\b)(?:nullptr|NULL|null)(?-u:\b)");
// "alpha不是1个元素的标量Tensor": the element count, as "alpha元素个数不为1" says it.
re!(
    NOT_N_ELEMENTS,
    r"(?:不是|不为)\s*(\d+)\s*个元素的?\s*(?:标量)?\s*(?:[Tt]ensor|张量)?"
);
re!(
    BARE_COMPARISON,
    r"^(?:或者|或)\s*(?:大于等于|小于等于|不大于|不小于|不等于|大于|小于|超过|等于)\s*-?\d+\s*(?:维|D)?\s*$"
);
re!(DIFFERENT, r"不同($|[，,。；;]|时[，,])");

re!(NAMED_TYPE, r"([A-Za-z0-9_\]])\s*的类型");
re!(SHAPE_WORD, r"(?-u:\b)(?:Shape|SHAPE)(?-u:\b)");
re!(ARGUMENT_LEAD, r"(?:入参|参数)\s*([A-Za-z_][A-Za-z0-9_]*)");
// "参数shape不合法": a word of what is said, not a name.
re!(
    ASPECT_WORD,
    r"^(?i:shape|dtype|format|tensor|size|rank|dim)$"
);
re!(
    NOT_A_DTYPE,
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(不为|不是|不等于)\s*([A-Za-z][A-Za-z0-9_]*(?:\s*(?:、|或|/)\s*[A-Za-z][A-Za-z0-9_]*)*)(?-u:\b)"
);
re!(COMPARISON, r"(^|[^-])(!=|≠|>=|≥|<=|≤|>|<)");
re!(ASCII_WORD, r"[A-Za-z0-9_]+");
re!(NAME_SPACE_SHAPE, r"([A-Za-z0-9_\])])\s+shape(?-u:\b)");

/// Strips markup, numbering and filler so the recognizer sees the statement itself.
pub fn normalize(text: &str) -> String {
    let t = MARKUP.replace_all(text, "");
    let t = t
        .replace('\u{3000}', " ")
        .replace(['\u{ff08}'], "(")
        .replace(['\u{ff09}'], ")")
        .replace('\u{ff1e}', ">")
        .replace('\u{ff1c}', "<")
        .replace('\u{ff1d}', "=")
        // The patterns end a sentence at "；"; a doc may write ";".
        .replace(';', "；");
    // Full-width digits, letters and square brackets ("不等于２", "［1, 8］") as ASCII.
    let t: String = t
        .chars()
        .map(|c| match c {
            '\u{ff10}'..='\u{ff19}'
            | '\u{ff21}'..='\u{ff3a}'
            | '\u{ff41}'..='\u{ff5a}'
            | '\u{ff3b}'
            | '\u{ff3d}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            c => c,
        })
        .collect();
    let t = NUMBERING.replace(t.trim(), "");
    // "或者" is "或" and "形状" is "shape", whichever a doc writes ("self形状": a word of its own).
    let t = crate::read::tight_around_chinese(&t.replace("形状", " shape ")).replace("或者", "或");
    // "x shape尾轴" is "x的shape尾轴".
    let t = NAME_SPACE_SHAPE.replace_all(&t, "${1}的shape");
    // "x不是nullptr时": the C spelling of 空指针, which the patterns say in Chinese.
    let t = NULLPTR.replace_all(&t, "空指针");
    let t = NOT_N_ELEMENTS.replace_all(&t, "元素个数不为${1}");
    let t = crate::read::same_words(&t);
    t.trim()
        .trim_end_matches(['。', '.', '；', ';', '，', ','])
        .trim()
        .to_string()
}

/// An error row's condition, normalized, with the synonyms the recognizer's patterns say one way:
/// "不符合要求" is "不满足要求", "空张量" is "空Tensor", "shape不同" is "shape不一致" (not "不同时为空",
/// "not both at once"). Table cells keep their words: "前两维和self不同，但…" states a relation
/// the description reader judges on its own.
///
/// Comparison symbols are their words ("x1.size(-1) != x2.size(0)" is "…不等于…", "k > 8" is
/// "k大于8"), all but an arrow ("a,b->ab").
pub fn normalize_condition(text: &str) -> String {
    let t = normalize(text)
        .replace("不符合", "不满足")
        .replace("张量", "Tensor");
    let t = SHAPE_WORD.replace_all(&t, "shape");
    let t = upper_case_dtypes(&t);
    // "超过八维" and "超过8D" are "超过8维"; "x的类型" is its dtype.
    let t = crate::read::rank_words(&t);
    let t = NAMED_TYPE.replace_all(&t, "${1}的数据类型");
    // "入参self的维度", "参数out的数据类型": a lead word before a name says nothing more.
    let t = ARGUMENT_LEAD.replace_all(&t, |c: &regex::Captures| {
        if ASPECT_WORD.is_match(&c[1]) {
            c[0].to_string()
        } else {
            c[1].to_string()
        }
    });
    let t = DIFFERENT.replace_all(&t, "不一致${1}");
    let t = COMPARISON.replace_all(&t, |c: &regex::Captures| {
        let word = match &c[2] {
            "!=" | "≠" => "不等于",
            ">=" | "≥" => "大于等于",
            "<=" | "≤" => "小于等于",
            ">" => "大于",
            _ => "小于",
        };
        format!("{}{word}", &c[1])
    });
    crate::read::tight_around_chinese(&t)
}

/// "self不为uint8" → "self的数据类型不为UINT8": a tensor said not to be a dtype speaks of its dtype.
/// The list ends at its first word that is no dtype ("self不为UINT8或x…" keeps "或x…"). Only a
/// tensor: a string attribute's values may be dtype names ("quantMode不为int8" compares text).
pub fn dtype_named_bare(text: &str, is_tensor: impl Fn(&str) -> bool) -> String {
    NOT_A_DTYPE
        .replace_all(text, |c: &regex::Captures| {
            let list = &c[3];
            let mut end = 0;
            for w in ASCII_WORD.find_iter(list) {
                let joined = list[end..w.start()].trim();
                let joins = end == 0 || matches!(joined, "、" | "或" | "/");
                if !joins || aclnn_runtime::DType::parse(w.as_str()).is_none() {
                    break;
                }
                end = w.end();
            }
            if end == 0 || !is_tensor(&c[1]) {
                return c[0].to_string();
            }
            let (dtypes, rest) = list.split_at(end);
            format!(
                "{}的数据类型{}{}{rest}",
                &c[1],
                &c[2],
                dtypes.to_ascii_uppercase()
            )
        })
        .into_owned()
}

/// "无法转换为float", "数据类型不为bfloat16": a dtype's name in lower case written as the patterns
/// (and most docs) write it, where the clause speaks of dtypes before it (数据类型, 类型, dtype,
/// 转换). Only a whole ASCII word in lower case that names a dtype (`int64_t`, `self` stay), and
/// not a string attribute's value ("当quantMode为int8时" compares the text the call passes).
fn upper_case_dtypes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in ASCII_WORD.find_iter(text) {
        let w = m.as_str();
        let clause = text[..m.start()]
            .char_indices()
            .rfind(|(_, c)| matches!(c, '，' | ',' | '。' | '；' | ';'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let speaks_of_dtypes = ["数据类型", "类型", "dtype", "转换"]
            .iter()
            .any(|k| text[clause..m.start()].contains(k));
        let lower = w.chars().all(|ch| !ch.is_ascii_uppercase());
        if speaks_of_dtypes && lower && aclnn_runtime::DType::parse(w).is_some() {
            out.push_str(&text[last..m.start()]);
            out.push_str(&w.to_ascii_uppercase());
            last = m.end();
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Splits a condition into clauses at `，；;。,` outside brackets. A piece with no predicate
/// (a parameter list continued after a comma: "x，y的数据类型不一致") is glued to the next.
pub fn split_clauses(text: &str, has_predicate: impl Fn(&str) -> bool) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '（' | '【' | '{' => depth += 1,
            ')' | ']' | '）' | '】' | '}' => depth -= 1,
            _ => {}
        }
        if depth <= 0 && matches!(c, '，' | '；' | ';' | '。' | ',') {
            pieces.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    pieces.push(cur);
    let mut clauses: Vec<String> = Vec::new();
    let mut pending = String::new();
    for piece in pieces {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        // "不等于0，1或2": a piece of numbers continues the previous clause.
        if pending.is_empty() && piece.starts_with(|c: char| c.is_ascii_digit()) {
            if let Some(last) = clauses.last_mut() {
                last.push('、');
                last.push_str(piece);
                continue;
            }
        }
        // "self维度大于8，或小于2": a bare comparison after 或 is the previous clause's subject and
        // aspect compared once more, an alternative of that clause.
        if pending.is_empty() && BARE_COMPARISON.is_match(piece) {
            if let Some(last) = clauses.last_mut() {
                last.push_str(piece);
                continue;
            }
        }
        if !pending.is_empty() {
            pending.push('、');
        }
        pending.push_str(piece);
        if has_predicate(piece) {
            clauses.push(std::mem::take(&mut pending));
        }
    }
    if !pending.is_empty() {
        match clauses.last_mut() {
            Some(last) if !has_predicate(&pending) => {
                last.push('、');
                last.push_str(&pending);
            }
            _ => clauses.push(pending),
        }
    }
    clauses
}

/// A parameter named in a clause, with the byte offset of the mention.
#[derive(Debug, Clone)]
pub struct Mention<'a> {
    pub param: &'a Param,
    pub at: usize,
}

/// Resolves a word of the doc to a parameter: exact, then case-insensitive, then the usual
/// suffix variants (`weight` ↔ `weightOptional`, `self` ↔ `selfRef`, `padding` ↔ `paddings`;
/// `out` ↔ `gradInput`'s formula name is NOT guessed).
pub fn resolve<'a>(op: &'a OpIr, word: &str) -> Option<&'a Param> {
    let word = word.split('[').next().unwrap_or(word);
    let params = || op.params.iter().filter(|p| is_checkable(p));
    params()
        .find(|p| p.name == word)
        .or_else(|| params().find(|p| p.name.eq_ignore_ascii_case(word)))
        .or_else(|| {
            params().find(|p| {
                ["Optional", "Ref", "Out", "s"].iter().any(|suffix| {
                    p.name.strip_suffix(suffix) == Some(word)
                        || word.strip_suffix(suffix) == Some(p.name.as_str())
                })
            })
        })
        .or_else(|| {
            // "clamp_mode" for clampMode, "grad_scale" for gradScaleOptional: the kernel's
            // snake_case spelling of a prototype's camelCase name.
            let snake = word
                .contains('_')
                .then(|| word.replace('_', "").to_ascii_lowercase())?;
            params().find(|p| {
                let name = p.name.to_ascii_lowercase();
                name == snake
                    || ["optional", "ref"]
                        .iter()
                        .any(|suffix| name.strip_suffix(suffix) == Some(snake.as_str()))
            })
        })
        .or_else(|| {
            // "传入的gradOutput、self、target和out是空指针" of an op whose one output is gradInput:
            // the doc's generic name for its output.
            let generic = ["out", "output"].contains(&word.to_ascii_lowercase().as_str());
            let mut outputs = params().filter(|p| p.role == Role::OutputTensor);
            match (generic, outputs.next(), outputs.next()) {
                (true, Some(only), None) => Some(only),
                _ => None,
            }
        })
}

/// Parameters a first-phase check can look at (not workspaceSize/executor).
pub fn is_checkable(p: &Param) -> bool {
    !matches!(
        p.role,
        Role::WorkspaceSize | Role::Executor | Role::Workspace | Role::Stream
    )
}

/// Identifiers of a clause that resolve to parameters, in order, without repeats.
pub fn mentions<'a>(op: &'a OpIr, clause: &str) -> Vec<Mention<'a>> {
    let mut out: Vec<Mention<'a>> = Vec::new();
    for m in IDENT.find_iter(clause) {
        if let Some(p) = resolve(op, m.as_str()) {
            if !out.iter().any(|x| x.param.name == p.name) {
                out.push(Mention {
                    param: p,
                    at: m.start(),
                });
            }
        }
    }
    out
}

/// Identifiers that look like parameter names (lowerCamel) but are none of the op's.
pub fn unknown_names(op: &OpIr, clause: &str) -> Vec<String> {
    // Quoted words are values ("quantMode不为“dynamic”"), not names.
    let clause = QUOTED_WORD.replace_all(clause, " ");
    IDENT
        .find_iter(&clause)
        .map(|m| m.as_str())
        .filter(|w| {
            let first = w.chars().next().unwrap_or('A');
            first.is_ascii_lowercase()
                && w.len() > 1
                && resolve(op, w).is_none()
                && !is_prototype_name(op, w)
                && !NOT_PARAM_WORDS.contains(&w.to_ascii_lowercase().as_str())
                // "self不为uint8", "x为bfloat16时": a dtype in lower case is no name.
                && aclnn_runtime::DType::parse(&w.to_ascii_uppercase()).is_none()
        })
        .map(str::to_string)
        .collect()
}

/// A name of the prototypes that validation does not see ("workspaceSize", "executor"): a
/// parameter of the op all the same.
fn is_prototype_name(op: &OpIr, word: &str) -> bool {
    op.functions
        .iter()
        .flat_map(|f| &f.params)
        .any(|p| p.name == word)
}

/// Lower-case words docs use in conditions that are not parameter names.
const NOT_PARAM_WORDS: &[&str] = &[
    "shape",
    "dtype",
    "format",
    "tensor",
    "size",
    "max",
    "min",
    "int32",
    "int64",
    "broadcast",
    "dim",
    "dims",
    "rank",
    "nan",
    "inf",
    "true",
    "false",
    "depth",
    "height",
    "width",
    "numel",
    "nullptr",
    "null",
    "aclnn",
    "api",
    "npu",
    "runtime",
    "batch",
    "channel",
    "bytes",
    "the",
    "and",
    "or",
    "is",
    "not",
    "in",
    "of",
    "to",
    "with",
    "when",
];

/// Every input and output tensor of the op ("输入输出").
pub fn io_tensors(op: &OpIr) -> Vec<&Param> {
    op.params.iter().filter(|p| p.role.is_tensor()).collect()
}

pub fn input_tensors(op: &OpIr) -> Vec<&Param> {
    op.params
        .iter()
        .filter(|p| {
            matches!(
                p.role,
                Role::InputTensor | Role::InputTensorList | Role::InOutTensor
            )
        })
        .collect()
}

pub fn output_tensors(op: &OpIr) -> Vec<&Param> {
    op.params
        .iter()
        .filter(|p| {
            matches!(
                p.role,
                Role::OutputTensor | Role::OutputTensorList | Role::InOutTensor
            )
        })
        .collect()
}

/// True for parameters passed by pointer (tensors, arrays, scalars, strings): they can be null.
pub fn is_pointer(p: &Param) -> bool {
    is_checkable(p) && (p.role.is_tensor() || p.ty.pointers() > 0)
}

/// Integers in `text` joined by 或/或者/、/,/和 ("4或5", "0、1、2或4").
pub fn int_alternatives(text: &str) -> Vec<i64> {
    static NUM: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"-?\d+").expect("static regex"));
    NUM.find_iter(text)
        .filter_map(|m| m.as_str().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tensor_said_not_to_be_a_dtype_speaks_of_its_dtype() {
        let tensor = |w: &str| w == "self";
        assert_eq!(
            dtype_named_bare("self不为uint8", tensor),
            "self的数据类型不为UINT8"
        );
        assert_eq!(
            dtype_named_bare("self不为FLOAT16或x的shape不一致", tensor),
            "self的数据类型不为FLOAT16或x的shape不一致"
        );
        // A string attribute's value, and no dtype at all: as written.
        assert_eq!(
            dtype_named_bare("quantMode不为int8", tensor),
            "quantMode不为int8"
        );
        assert_eq!(
            dtype_named_bare("self不为空tensor", tensor),
            "self不为空tensor"
        );
    }

    #[test]
    fn dtypes_in_lower_case_are_written_as_the_patterns_write_them() {
        assert_eq!(
            normalize_condition("betaOptional无法转换为float。"),
            "betaOptional无法转换为FLOAT"
        );
        assert_eq!(
            normalize_condition("self的数据类型不为bfloat16，int64_t与selfRef不变"),
            "self的数据类型不为BFLOAT16，int64_t与selfRef不变"
        );
        // A string attribute's value is compared as the call passes it.
        assert_eq!(
            normalize_condition("当quantMode为int8时，scale为空指针"),
            "当quantMode为int8时，scale为空指针"
        );
    }

    #[test]
    fn comparison_synonyms_are_one_word() {
        assert_eq!(
            normalize_condition("index维度高于8维。"),
            "index维度大于8维"
        );
        assert_eq!(normalize_condition("k低于1或不高于0"), "k小于1或小于等于0");
        assert_eq!(
            normalize_condition("x的第二维与y的第一维不匹配"),
            "x的第二维与y的第一维不一致"
        );
        assert_eq!(
            normalize_condition("x及y的shape不一致"),
            "x和y的shape不一致"
        );
        assert_eq!(
            normalize_condition("输入及输出的shape不一致"),
            "输入和输出的shape不一致"
        );
        assert_eq!(normalize_condition("涉及x及其shape"), "涉及x及其shape");
        assert_eq!(
            normalize_condition("self第三维度及之后维度的size乘积不等于HxW"),
            "self第三维度及之后维度的size乘积不等于HxW"
        );
        assert_eq!(
            normalize_condition("self以及out的数据类型超出支持范围"),
            "self和out的数据类型不在支持的范围之内"
        );
        assert_eq!(
            normalize_condition("self的数据类型不被支持"),
            "self的数据类型不在支持的范围之内"
        );
    }

    #[test]
    fn normalize_strips_numbering_and_markup() {
        assert_eq!(
            normalize("2. <term>gradOutput</term>、self和out数据类型不一致。"),
            "gradOutput、self和out数据类型不一致"
        );
    }

    /// Spacing and "或者" for "或" carry no meaning: a row reads the same written either way.
    #[test]
    fn normalize_drops_spaces_beside_chinese_and_reads_huozhe_as_huo() {
        assert_eq!(
            normalize("self 或 out 的 shape 不一致。"),
            "self或out的shape不一致"
        );
        assert_eq!(
            normalize("sumDy或者sumDyXmu的size不一致"),
            "sumDy或sumDyXmu的size不一致"
        );
        assert_eq!(normalize("x的维度不在［１, ８］内"), "x的维度不在[1, 8]内");
        // Whichever modal word: "必须与", "须与", "应与" read as "需要与"; "无需与" keeps its word.
        assert_eq!(normalize("x的shape必须与y一致"), "x的shape需要与y一致");
        assert_eq!(normalize("x的shape应与y一致"), "x的shape需要与y一致");
        assert_eq!(normalize("x的dtype须与y相同"), "x的dtype需要与y相同");
        assert_eq!(normalize("x无需与y一致"), "x无需与y一致");
        assert_eq!(
            normalize("1<=rank(x) <= 8, x.shape[-1] <= 8"),
            "1<=rank(x) <= 8, x.shape[-1] <= 8"
        );
        // "不是1个元素的标量Tensor" is the element count.
        assert_eq!(
            normalize("alpha 不是 1 个元素的标量 Tensor。"),
            "alpha元素个数不为1"
        );
    }

    #[test]
    fn clauses_split_outside_brackets_and_glue_lists() {
        let has = |s: &str| s.contains("不");
        assert_eq!(
            split_clauses("x，y的数据类型不一致，k不在[1, 65535]范围内", has),
            vec!["x、y的数据类型不一致", "k不在[1, 65535]范围内"]
        );
    }

    #[test]
    fn snake_case_names_and_lower_case_dtypes() {
        let op = crate::fixture::op(
            "X",
            &[("ascend910b", true)],
            vec![
                crate::fixture::tensor("gradScaleOptional", Role::InputTensor),
                crate::fixture::attr("clampMode", "int64_t", &[]),
            ],
        );
        let name = |w: &str| resolve(&op, w).map(|p| p.name.as_str());
        assert_eq!(name("clamp_mode"), Some("clampMode"));
        assert_eq!(name("grad_scale"), Some("gradScaleOptional"));
        assert_eq!(name("grad_mode"), None);
        assert_eq!(
            unknown_names(&op, "x为bfloat16，grad_scale不为uint8时，alphaValue不支持"),
            vec!["alphaValue".to_string()]
        );
    }
}
