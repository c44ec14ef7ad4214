//! The values a string attribute may take, as its description states them ("仅支持"rint"、
//! "round"", "取值为NHWC或NCHW"), in general or per condition.

use super::*;

// The verbs that state a string attribute's values: "仅支持", "支持取值", "取值为", "设置为".
re!(
    STRING_VERB,
    &format!(
        r"(?:仅|只)?支持(?:的)?(?:取值|值|模式|格式)?(?:为|是|有|包括)?|取值(?:范围)?(?:为|是|可以是|只能是|仅能是|仅为|只能为)|(?:可以|只能|仅能|{MODAL})?(?:设置|配置)为|(?:可选|有效)(?:取)?值(?:为|是|有|包括)?"
    )
);
re!(QUOTED, r#""([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’"#);
re!(BARE_VALUE, r"^[A-Za-z][A-Za-z0-9_]*$");
re!(VALUE_SEP, r"^(?:\s|、|,|，|/|\||或者|或|和|以及|及)*$");
re!(STRING_CONDITION, r"当|时|如果|若|除|否则|场景");

/// A list of string values as the doc writes it: quoted (`"rint"、"round"`, `{"none", "tanh"}`,
/// `“dynamic”`) or bare words (`round/ceil/trunc`, `NHWC或NCHW`), with an optional trailing
/// "模式"/"格式"; `None` when the text is anything else.
pub fn string_value_list(text: &str) -> Option<Vec<String>> {
    let t = text.trim().trim_end_matches(['。', '.', '，', ',', ' ']);
    let t = [
        "两种模式",
        "两种取值",
        "几种取值",
        "取值",
        "模式",
        "格式",
        "这几种",
        "中的一种",
        "中的一个",
        "其中之一",
        "之一",
    ]
    .iter()
    .fold(t, |t, suffix| t.strip_suffix(suffix).unwrap_or(t))
    .trim();
    let t = t
        .strip_prefix(['{', '[', '(', '（'])
        .and_then(|x| x.strip_suffix(['}', ']', ')', '）']))
        .unwrap_or(t)
        .trim();
    if t.is_empty() {
        return None;
    }
    let mut values: Vec<String> = Vec::new();
    if QUOTED.is_match(t) {
        let mut last = 0;
        for c in QUOTED.captures_iter(t) {
            let m = c.get(0)?;
            if !VALUE_SEP.is_match(&t[last..m.start()]) {
                return None;
            }
            last = m.end();
            let v = (1..=4).find_map(|i| c.get(i))?.as_str();
            values.push(v.to_string());
        }
        if !VALUE_SEP.is_match(&t[last..]) {
            return None;
        }
    } else {
        let pieces = t.split(['、', ',', '，', '/']).flat_map(|p| {
            p.split("或者")
                .flat_map(|p| p.split(['或', '和']))
                .map(str::trim)
                .collect::<Vec<_>>()
        });
        for piece in pieces.filter(|p| !p.is_empty()) {
            if !BARE_VALUE.is_match(piece) {
                return None;
            }
            values.push(piece.to_string());
        }
    }
    values.dedup();
    (!values.is_empty()).then_some(values)
}

/// The values a clause states with one of the value verbs ("支持取值round/ceil", "仅支持“dynamic”"),
/// the list running to the clause's end; "不支持" states none.
pub(super) fn string_statement(clause: &str) -> Option<Vec<String>> {
    STRING_VERB.find_iter(clause).find_map(|m| {
        let before = &clause[..m.start()];
        // "数据类型支持STRING" states the attribute's dtype, not its values.
        let about_dtype = before.trim_end().ends_with("类型") || before.ends_with("dtype");
        if before.ends_with('不') || before.ends_with("暂不") || about_dtype {
            return None;
        }
        string_value_list(&clause[m.end()..])
    })
}

/// The clauses of a sentence, split at commas outside braces and quotes; a piece that is only
/// values ("支持取值round，ceil，trunc" split at its commas) goes back to the piece before it.
pub(super) fn value_clauses(sentence: &str) -> Vec<String> {
    let mut pieces: Vec<String> = Vec::new();
    let (mut depth, mut quoted, mut cur) = (0i32, false, String::new());
    for ch in sentence.chars() {
        match ch {
            '{' | '(' | '（' | '[' => depth += 1,
            '}' | ')' | '）' | ']' => depth -= 1,
            '"' => quoted = !quoted,
            '“' => quoted = true,
            '”' => quoted = false,
            _ => {}
        }
        if depth <= 0 && !quoted && matches!(ch, '，' | ',' | '；' | ';' | '：' | ':') {
            pieces.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    pieces.push(cur);
    let mut out: Vec<String> = Vec::new();
    for piece in pieces {
        let piece = piece.trim().to_string();
        let continues = out
            .last()
            .is_some_and(|last| string_statement(last).is_some())
            && string_value_list(&piece).is_some();
        match out.last_mut() {
            Some(last) if continues => {
                last.push('，');
                last.push_str(&piece);
            }
            _ if !piece.is_empty() => out.push(piece),
            _ => {}
        }
    }
    out
}

/// The values a string attribute (`char*`) takes, from its description and constraints: the
/// largest list a sentence states without a condition ("支持{"rint", "round", "hybrid"}模式"),
/// provided every other list it states (under a condition, on some product: "数据类型为HIFLOAT8，
/// 支持{"round", "hybrid"}") lies within it. `Err` says why no exact list can be read.
pub fn string_values(p: &Param) -> Result<Vec<String>, String> {
    let mut general: Vec<Vec<String>> = Vec::new();
    let mut all: Vec<Vec<String>> = Vec::new();
    for chunk in p.constraints.iter().chain(std::iter::once(&p.description)) {
        let chunk = text::normalize(chunk);
        for sentence in chunk.split(['。', '；', ';', '\n']) {
            let mut conditional = false;
            for clause in value_clauses(sentence) {
                conditional |=
                    STRING_CONDITION.is_match(&clause) || !text::products_in(&clause).is_empty();
                if let Some(values) = string_statement(&clause) {
                    if !conditional {
                        general.push(values.clone());
                    }
                    all.push(values);
                }
            }
        }
    }
    let Some(largest) = general.iter().max_by_key(|v| v.len()).cloned() else {
        return Err(if all.is_empty() {
            format!("the doc lists no values of the string attribute {}", p.name)
        } else {
            format!(
                "the doc lists values of {} only under conditions or on some products",
                p.name
            )
        });
    };
    if all.iter().all(|v| v.iter().all(|x| largest.contains(x))) {
        Ok(largest)
    } else {
        Err(format!(
            "the doc states lists of {}'s values that do not nest in one (per condition or product)",
            p.name
        ))
    }
}
