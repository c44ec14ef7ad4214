//! What a parameter's text says of null: optional, may be null, given a meaning when null,
//! written in place.

use super::*;

/// "不支持nullptr", "不能为NULL", "传入空指针nullptr即可": the C spellings of 空指针 as the word
/// itself, once.
pub(super) fn null_words_in_chinese(text: &str) -> String {
    NULL_WORD
        .replace_all(text, "空指针")
        .replace("空指针空指针", "空指针")
}

/// What says a parameter may not be null.
const NEGATIONS: &[&str] = &[
    "不可选",
    "不能为空指针",
    "不可为空指针",
    "不能为空",
    "不可为空",
    "不允许为空",
    "不能传入空指针",
    "不支持空指针",
    "不能是空指针",
    "不支持传入空指针",
    "不允许传入空指针",
    "传入空指针时报错",
    "传入空指针时返回",
    "传入空指针时会报错",
];

/// A negation that holds only under a condition ("当outputMask…时，biasSizes不能为nullptr"): the
/// parameter may be null outside it. `before`: the sentence up to `clause`. Only one that says
/// 空指针: "时，out不能为空" may be about an empty tensor.
pub(super) fn negated_under_a_condition(before: &str, clause: &str) -> bool {
    NEGATIONS
        .iter()
        .filter(|n| n.contains("空指针"))
        .filter_map(|n| clause.find(n))
        .any(|at| before.contains('时') || clause[..at].contains('时'))
}

/// 可选 / 可为空 / 空指针 allowed, without the negations ("不能为空指针"); a negation under a
/// condition allows it outside the condition.
pub fn optional_in_text(text: &str) -> bool {
    let t = null_words_in_chinese(text).to_ascii_lowercase();
    let mut conditional = false;
    for sentence in t.split(['。', '；', ';', '\n']) {
        let mut before = String::new();
        for clause in sentence.split(['，', ',']) {
            if negated_under_a_condition(&before, clause) {
                conditional = true;
            } else if NEGATIONS.iter().any(|n| clause.contains(n)) {
                return false;
            }
            before.push_str(clause);
        }
    }
    conditional
        || OPTIONAL_MARKERS.iter().any(|p| t.contains(p))
        || behaviour_when_null_at(&t).is_some()
}

/// Where a clause states what happens when a parameter is null ("当dim为空指针或[]时，视为计算所有
/// 维度", "当betaOptional为空指针时，接口以1.0进行计算"): a null the doc gives a meaning is allowed.
/// "不为空指针时" states what a non-null value must be, and is not that.
pub(super) fn behaviour_when_null_at(clause: &str) -> Option<usize> {
    ["为空指针时", "为空指针或"]
        .iter()
        .flat_map(|m| clause.match_indices(m).map(|(at, _)| at))
        .filter(|&at| !(clause[..at].ends_with('不') || clause[..at].ends_with('非')))
        .min()
}

/// What says a parameter may be null.
const OPTIONAL_MARKERS: &[&str] = &[
    "可选",
    "可为空",
    "可以为空",
    "支持空指针",
    "可传入空指针",
    "可以传入空指针",
    // "支持传入空指针，传入空指针时按零点为0处理"
    "支持传入空指针",
    "允许传入空指针",
    "传入空指针时",
    "传入空指针表示",
    "传入空指针即可",
    "固定传入空指针",
    "允许为空",
    "可以是空指针",
    // "q=nullptr", "需要传入nullptr", "需要传nullptr", "rint、round或nullptr"
    // (`optional_in_text` reads the C spellings as 空指针).
    "=空指针",
    "需要传入空指针",
    "需传入空指针",
    "需要传空指针",
    "需传空指针",
    "或空指针",
];

/// `text` says of the parameter `name` itself, right after its name, that it may be null
/// ("x1Scale支持配置为空", "q=nullptr", "minPs可传入空指针"); a negation ("xScale均不是nullptr") or
/// a statement about another parameter is not that.
pub fn said_nullable(text: &str, name: &str) -> bool {
    // One regex for what follows the name, not one compiled per name: this runs for every
    // parameter of every doc.
    static NULLABLE_AFTER_NAME: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^\s*(?:=\s*nullptr|(?:参数)?\s*(?:支持配置为空|配置为空|可以为空|可为空|可以?传入空指针|支持传入空指针|允许传入空指针|可以是空指针))",
        )
        .expect("nullable pattern")
    });
    let text = text.replace('`', "");
    text.match_indices(name).any(|(at, _)| {
        let whole_name = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        whole_name && NULLABLE_AFTER_NAME.is_match(&text[at + name.len()..])
    })
}

/// The description says the tensor is written (in place), so an 输入 is also an output.
pub fn says_written(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "既是输入也是输出",
        "既是输入又是输出",
        "同时作为输出",
        "输入输出",
        "原地",
        "inplace",
        "待更新",
        "被更新",
        "会更新",
    ]
    .iter()
    .any(|p| t.contains(p))
}

/// `optional_in_text` said of the parameter `name` itself: a clause whose subject is another of
/// `params` ("有可选输入groupIdxOptional时，gradY的…" in gradY's description, "batchSizes非nullptr")
/// makes that one optional, not `name`. A marker inside a condition ("有可选输入X时") is about what
/// the condition names; after one ("在amsgrad为false时可选") about what follows it. A clause naming
/// `name`, or no parameter, is about `name`.
pub fn optional_for(text: &str, name: &str, params: &[&str]) -> bool {
    if !optional_in_text(text) {
        return false;
    }
    let text = null_words_in_chinese(text);
    text.split(['。', '；', ';', '\n']).any(|sentence| {
        let mut before = String::new();
        sentence.split(['，', ',']).any(|clause| {
            let about_name = match optional_marker_at(clause) {
                Some(at) => {
                    let scope = match clause[at..].find('时') {
                        Some(end) => &clause[..at + end],
                        None => clause[..at].rfind('时').map_or(clause, |t| &clause[t..]),
                    };
                    !about_another(scope, name, params)
                }
                None => {
                    negated_under_a_condition(&before, clause)
                        && !about_another(clause, name, params)
                }
            };
            before.push_str(clause);
            about_name
        })
    })
}

/// Where the first of `optional_in_text`'s markers starts in `clause`.
pub(super) fn optional_marker_at(clause: &str) -> Option<usize> {
    if !optional_in_text(clause) {
        return None;
    }
    // The caller's clause has its null words in Chinese already: offsets are the clause's own.
    let t = clause.to_ascii_lowercase();
    OPTIONAL_MARKERS
        .iter()
        .filter_map(|m| t.find(m))
        .chain(behaviour_when_null_at(&t))
        .min()
}

/// The clause names another parameter and not `name`.
pub(super) fn about_another(clause: &str, name: &str, params: &[&str]) -> bool {
    !names_identifier(clause, name)
        && params
            .iter()
            .any(|p| *p != name && names_identifier(clause, p))
}

/// `ident` occurs in `text` as a whole identifier (not inside a longer one).
pub(super) fn names_identifier(text: &str, ident: &str) -> bool {
    if ident.is_empty() {
        return false;
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(ident).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + ident.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}
