//! The recognizer: one documented condition (Chinese text) → the rules that implement it, or
//! the reason it cannot be expressed.
//!
//! A condition is normalized, split into clauses, and each clause is read as
//! "subjects (parameters) + aspect (数据类型, 数据格式, 维数, shape, 值...) + relation
//! (不在支持范围, 不一致, 不等于4或5...)". Data the doc gives elsewhere (dtype lists, formats,
//! ranks, "长度为1或2", enumerations) comes from the IR's parameters.

mod aspects;
mod axes;
mod common;
mod ints;
mod nulls;
mod pads;
pub(super) mod patterns;
mod relations;
mod shapes;
mod states;
#[cfg(test)]
mod tests;
mod values;

use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind, Role};
use crate::rules::infer;
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{DType, Rule, TensorState};
use aspects::aspect_rules;
use common::tensor_rules;
use ints::int_relation_rules;
use nulls::null_rules;
use patterns::*;
use relations::channel_rules;
use relations::dims_equal_rule;
use relations::list_len_same;
use relations::promotion_rules;
use relations::same_but_dim_rules;
use relations::scaled_dim_rules;
use relations::scaled_shape_rules;
use relations::size_bound_rules;
use shapes::broadcast_rules;
use shapes::dim_multiple_rule;
use shapes::dim_range_rules;
use shapes::element_count_rule;
use shapes::fraction_rule;
pub use shapes::states_computed_shape_mismatch;

/// Rules for one whole condition, or why it (or one of its alternatives) can't be expressed.
#[cfg(test)]
pub fn recognize(op: &OpIr, condition: &str) -> Result<Vec<Rule>, Manual> {
    let reading = read_condition(op, condition)?;
    match reading.unread {
        Some(unread) => Err(unread),
        None => Ok(reading.rules),
    }
}

/// A condition's rules, and the alternative of an "A，或B" condition they leave out, if any.
#[derive(Debug)]
pub struct Reading {
    pub rules: Vec<Rule>,
    pub unread: Option<Manual>,
}

/// Rules for one condition, keeping the alternatives it can read where another of its
/// alternatives ("…的数据类型不在支持的范围之内，或shape不相互匹配") cannot be: each alternative
/// alone rejects, so its rule rejects only where the doc does.
pub fn read_condition(op: &OpIr, condition: &str) -> Result<Reading, Manual> {
    let text = english_words(op, &text::normalize_condition(condition));
    let is_tensor = |w: &str| op.params.iter().any(|p| p.name == w && p.role.is_tensor());
    let text = text::dtype_named_bare(&text, is_tensor);
    let text = slashed_names(op, &text);
    let text = TAIL.replace(&text, "").to_string();
    if let Some(reading) = invalid_ways(op, &text) {
        return Ok(reading);
    }
    if let Some(reading) = conditional_sentences(op, &text) {
        return Ok(reading);
    }
    // "self和out的数据类型不在支持的范围内或不一致": two statements of one subject and aspect,
    // each an error: out of the range, or unequal.
    let text = RANGE_OR_MISMATCH
        .replace(&text, "${1}${2}，或${1}${3}${4}")
        .into_owned();
    let (text, excluded) = match EXCLUDED.captures(&text) {
        Some(c) => (
            EXCLUDED.replace(&text, "").to_string(),
            text::products_in(&c[1]),
        ),
        None => (text.clone(), Vec::new()),
    };
    // "既不等于0、1，也不等于3" is one statement: the comma must not split it into a clause
    // without its subject.
    let text = ALSO_NOT.replace_all(&text, "也不等于").to_string();
    // "除了在维度dim上，其余维度上…" too: the exception and what it excepts from are one clause.
    let text = EXCEPT_REST.replace_all(&text, "$1$2").to_string();
    // "gradScaleOut（非空时）shape与scale不相等": the note goes, the name stays a word of its own.
    let (text, present) = strip_non_null_prefix(op, &OPTIONAL_NOTE.replace_all(&text, " "));
    let (text, scoped) = strip_scoped_names(op, &text);
    let text = EVERY_TENSOR_LEAD.replace(&text, "所有Tensor的").to_string();
    // "当输入self的维度不在[2,8]范围内。": a 当 with no 时 and no second clause sets no condition.
    let text = match text.strip_prefix('当') {
        Some(rest)
            if !rest.contains('时')
                && !INLINE_RANGE
                    .replace_all(rest, "")
                    .contains(['，', ',', '；']) =>
        {
            rest.to_string()
        }
        _ => text,
    };
    let whole = |rules| {
        Ok(Reading {
            rules,
            unread: None,
        })
    };
    // "selfRef是空tensor，index不是空tensor": one tensor empty while another is not is a joint
    // condition, not two separate ones; read whole or not at all.
    let empties: Vec<bool> = states::emptiness_parts(&text)
        .filter(|c| EMPTY_TENSOR.is_match(c) || states::EMPTY_SHORT.is_match(c))
        .map(|c| c.contains('不') || c.contains('非'))
        .collect();
    if empties.contains(&true) && empties.contains(&false) {
        return whole(states::joint_emptiness_rules(op, &text)?);
    }
    if let Some(rules) = axis_bounds_rule(op, &text) {
        return whole(rules);
    }
    if let Some(rules) = size_bound_rules(op, &text) {
        return whole(rules);
    }
    if let Some(m) = ALLOWED_UNDER_CONDITION.find(&text) {
        // The row rejects only outside that condition, which no rule here says.
        return Err(Manual::new(
            ManualKind::Exception,
            format!(
                "an exception under a condition (“{}”) is not in the vocabulary",
                m.as_str().trim_start_matches(['。', '；']).trim()
            ),
        ));
    }
    let (text, when) = strip_when_prefix(op, &text);
    let (text, when_dtype) = strip_dtype_prefix(op, &text);
    let (text, mut when_states) = states::strip_state_prefix(op, &text);
    when_states.extend(present);
    // A "…时，" inside a parenthesis is a note on the statement ("(self为二维时，HxW需要为1)"),
    // which the clause reader judges.
    let in_parens = |s: &str| s.matches(['(', '（']).count() > s.matches([')', '）']).count();
    if let Some(c) = UNREAD_CONDITION
        .find(&text)
        .filter(|c| !PRESENCE.is_match(c.as_str()) && !in_parens(c.as_str()))
    {
        // "fusedOpType为"add"、"mul"时，…": a condition no prefix above reads; the rest holds
        // only under it, so it is no unconditional rule.
        return Err(Manual::conditional(
            c.as_str().trim_end_matches(['，', ',']),
        ));
    }
    if text.is_empty() {
        return Err(Manual::new(
            ManualKind::Unrecognized,
            "the condition is empty",
        ));
    }
    if let Some(manual) = beyond_vocabulary(&text) {
        return Err(manual);
    }
    let mut rules = channel_rules(op, &text)
        .or_else(|| scaled_shape_rules(op, &text))
        .or_else(|| pads::padded_rules(op, &text))
        .unwrap_or_default();
    let mut unread = None;
    if rules.is_empty() {
        let conditional = when.is_some() || when_dtype.is_some() || !when_states.is_empty();
        unread = clause_rules(op, &text, conditional, &mut rules)?;
    }
    if rules.is_empty() {
        return Err(unread.unwrap_or_else(|| {
            Manual::new(
                ManualKind::Unrecognized,
                "no checkable statement recognized",
            )
        }));
    }
    if !when_states.is_empty() {
        rules = rules
            .into_iter()
            .map(|r| axes::under_states(&when_states, r))
            .collect::<Result<_, _>>()?;
    }
    Ok(Reading {
        rules: under_prefixes(op, rules, when_dtype, when, &excluded),
        unread: unread.or(scoped),
    })
}

/// A statement the rule vocabulary has no words for, said as such.
fn beyond_vocabulary(text: &str) -> Option<Manual> {
    if let Some(m) = NOT_PASSED.find(text) {
        // "当self为0维时，不支持传入dim": the argument itself is the error, which no rule on its
        // value says.
        return Some(Manual::new(
            ManualKind::Vocabulary,
            format!(
                "an argument that may not be passed (“{}”) is not in the vocabulary",
                m.as_str()
            ),
        ));
    }
    // "同时对超过4个维度做repeat": how many dims the operation acts on (Repeat: the entries other
    // than 1), neither a rank nor a list's length.
    ACTS_ON_DIMS.find(text).map(|m| {
        Manual::new(
            ManualKind::Vocabulary,
            format!(
                "a count of the dims an operation acts on (“{}”) is not in the vocabulary",
                m.as_str()
            ),
        )
    })
}

/// The rules of a condition's statement under what its prefixes said: a dtype ("当x的数据类型为
/// …时"), a condition on other arguments, the products the row excludes.
fn under_prefixes(
    op: &OpIr,
    mut rules: Vec<Rule>,
    when_dtype: Option<(String, Vec<DType>)>,
    when: Option<When>,
    excluded: &[String],
) -> Vec<Rule> {
    if let Some((param, dtypes)) = when_dtype {
        rules = rules
            .into_iter()
            .map(|r| Rule::WhenDtype {
                param: param.clone(),
                dtypes: dtypes.clone(),
                rule: Box::new(r),
            })
            .collect();
    }
    if let Some(when) = when {
        rules = rules.into_iter().map(|r| when.wrap(r)).collect();
    }
    if !excluded.is_empty() {
        let keep: Vec<String> = op
            .supported_products()
            .filter(|p| !excluded.iter().any(|e| e == p))
            .map(str::to_string)
            .collect();
        rules = rules
            .into_iter()
            .map(|rule| Rule::OnProducts {
                products: keep.clone(),
                rule: Box::new(rule),
            })
            .collect();
    }
    rules
}

/// "weight，bias、saveMean（训练场景下）、saveInvstd（训练场景下）的shape长度…": the names the row
/// speaks of only under a condition of their own leave the row, which still holds for the rest;
/// what was left out is returned as unread. A row of scoped names only stays whole (and is read
/// as conditional).
fn strip_scoped_names(op: &OpIr, text: &str) -> (String, Option<Manual>) {
    let is_param = |w: &str| op.params.iter().any(|p| p.name == w);
    let scoped: Vec<(String, String)> = SCOPED_NAME
        .captures_iter(text)
        .filter(|c| is_param(&c[1]))
        .map(|c| (c[1].to_string(), c[2].trim().to_string()))
        .collect();
    if scoped.is_empty() {
        return (text.to_string(), None);
    }
    let rest = SCOPED_NAME
        .replace_all(text, |c: &regex::Captures| match is_param(&c[1]) {
            true => String::new(),
            false => c[0].to_string(),
        })
        .trim_end_matches(['、', '，', ','])
        .to_string();
    // The separator before a removed last name ("x1或x2，deqScale（…）是空指针") goes too.
    let rest = DANGLING_SEPARATOR.replace_all(&rest, "$1").to_string();
    let names_left = text::mentions(op, &rest)
        .iter()
        .any(|m| is_param(&m.param.name));
    if !names_left {
        return (text.to_string(), None);
    }
    let names: Vec<&str> = scoped.iter().map(|(n, _)| n.as_str()).collect();
    let reason = format!(
        "{} named only under “{}”, which the rule vocabulary cannot express; not checked",
        names.join(", "),
        scoped[0].1
    );
    (rest, Some(Manual::new(ManualKind::Exception, reason)))
}

re!(
    CATEGORY_WHEN,
    r"^(?:当|若|如果)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:的数据类型)?\s*(?:为|是)\s*(实数|复数)(?:类型)?\s*时\s*[，,]?\s*"
);
re!(
    BARE_DTYPE_WHEN,
    r"^(?:当|若|如果)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:为|是)\s*([A-Z][A-Z0-9_]*(?:\s*(?:、|或|/)\s*[A-Z][A-Z0-9_]*)*)\s*时\s*[，,]?\s*"
);
re!(
    RANGE_OR_MISMATCH,
    r"^(.+?)(不在[^，。；或]*?范围[内之]*)\s*(?:或者|或)\s*(不一致|不相同|不同)([。；]?)$"
);
re!(
    INVALID_WAYS,
    r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:的)?(?:数值|值|取值)?\s*(?:不合法|非法|无效)\s*[（(]([^（）()]+)[）)]\s*$"
);

/// "dim的数值不合法（dim中的数据指向同一个维度、dim超出self的维度范围）": the note in parentheses
/// lists the ways the value is invalid, each an error of its own; read them one by one (those
/// that cannot be read are said). `None` where the clause is no such list, or no way is read.
fn invalid_ways(op: &OpIr, text: &str) -> Option<Reading> {
    let c = INVALID_WAYS.captures(text)?;
    let name = &c[1];
    let ways: Vec<&str> = c[2]
        .split(['、', '；', ';'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    // Each way must name the parameter itself: a note that explains rather than lists stays
    // with the clause.
    if ways.len() < 2 || !ways.iter().all(|w| w.contains(name)) {
        return None;
    }
    let mut rules = Vec::new();
    let mut unread = None;
    for way in ways {
        match read_condition(op, way) {
            Ok(r) => {
                rules.extend(r.rules);
                if let Some(m) = r.unread {
                    unread.get_or_insert(m);
                }
            }
            Err(m) => {
                unread.get_or_insert(m.within(format!("the way “{way}”")));
            }
        }
    }
    (!rules.is_empty()).then_some(Reading { rules, unread })
}

/// "当self为实数时，self和out的数据类型不一致。当self为COMPLEX64时，out的数据类型不为FLOAT32。":
/// sentences each under a condition of its own, read one by one (those that cannot be read are
/// said). `None` where the text is no such list, or no sentence is read.
fn conditional_sentences(op: &OpIr, text: &str) -> Option<Reading> {
    let sentences: Vec<&str> = text
        .split('。')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if sentences.len() < 2 || !sentences.iter().all(|s| s.starts_with('当')) {
        return None;
    }
    let mut rules = Vec::new();
    let mut unread = None;
    for sentence in sentences {
        match read_condition(op, sentence) {
            Ok(r) => {
                rules.extend(r.rules);
                if let Some(m) = r.unread {
                    unread.get_or_insert(m);
                }
            }
            Err(m) => {
                unread.get_or_insert(m.within(format!("the sentence “{sentence}”")));
            }
        }
    }
    (!rules.is_empty()).then_some(Reading { rules, unread })
}

/// The clauses of a condition, each read on its own, appended to `rules`. An alternative
/// ("或…") that cannot be read is left out and returned, unless it is conditional: a condition
/// on other arguments may scope the alternatives after it too.
fn clause_rules(
    op: &OpIr,
    text: &str,
    conditional: bool,
    rules: &mut Vec<Rule>,
) -> Result<Option<Manual>, Manual> {
    let mut subjects: Vec<&Param> = Vec::new();
    let clauses = alternative_clauses(text);
    let mut unread: Option<Manual> = None;
    for (i, (clause, alternative)) in clauses.iter().enumerate() {
        if EXPLANATORY.is_match(clause) {
            continue;
        }
        if WHEN_SUFFIX.is_match(clause) && i + 1 < clauses.len() {
            return Err(Manual::conditional(clause));
        }
        if let Some(parts) = per_attribute_clauses(op, clause) {
            // "axis、dstType不符合当前支持的值": each attribute's own range, read on its own; one
            // whose range the doc does not state is left out and said.
            let mut read_any = false;
            let mut first_reason = None;
            for (name, part) in &parts {
                match recognize_clause(op, part, &[], conditional) {
                    Ok((part_rules, _)) if !part_rules.is_empty() => {
                        read_any = true;
                        rules.extend(qualify_by_products(part, part_rules));
                    }
                    Ok(_) => {
                        first_reason.get_or_insert(Manual::new(
                            ManualKind::Unstated,
                            format!("“{part}”: the doc states no values or range of {name}"),
                        ));
                    }
                    Err(inner) => {
                        first_reason.get_or_insert(inner.within(format!("“{part}”")));
                    }
                }
            }
            match (read_any, first_reason) {
                (true, Some(reason)) => {
                    unread.get_or_insert(reason);
                }
                (false, Some(reason)) => return Err(reason),
                _ => {}
            }
            subjects.clear();
            continue;
        }
        match recognize_clause(op, clause, &subjects, conditional) {
            Ok((clause_rules, used)) => {
                subjects = used;
                rules.extend(qualify_by_products(clause, clause_rules));
                if let Some(unknown) = unknown_left_out(op, clause) {
                    unread.get_or_insert(Manual::new(
                        ManualKind::UnknownName,
                        format!(
                            "names {}, which {} not a parameter of the op; checked for the others",
                            unknown.join(", "),
                            if unknown.len() == 1 { "is" } else { "are" }
                        ),
                    ));
                }
            }
            Err(manual) if *alternative && manual.kind != ManualKind::Conditional => {
                // Its subjects are unknown, so a later clause naming none has none to inherit.
                subjects.clear();
                unread.get_or_insert(manual.within(format!("the alternative “{clause}”")));
            }
            Err(manual) => return Err(manual),
        }
    }
    Ok(unread)
}

/// "axis、roundModeOptional、dstType不符合当前支持的值", "dim或clamp_mode不在指定的取值范围内": a
/// clause listing several attributes, then the statement that each is outside its own range,
/// as one clause per attribute ("axis不符合当前支持的值", …), each with its attribute. `None` for
/// any other clause (a relation between attributes, or one naming tensors).
fn per_attribute_clauses(op: &OpIr, clause: &str) -> Option<Vec<(String, String)>> {
    let c = ATTRIBUTE_LIST_RANGE.captures(clause)?;
    let names: Vec<&str> = ATTRIBUTE_LIST_SEP.split(&c[1]).map(str::trim).collect();
    let attrs: Option<Vec<&Param>> = names
        .iter()
        .map(|n| text::resolve(op, n).filter(|p| p.role == Role::Attribute))
        .collect();
    let attrs = attrs?;
    if attrs.len() < 2 {
        return None;
    }
    let rest = &c[2];
    if !text::mentions(op, rest).is_empty() {
        return None;
    }
    Some(
        attrs
            .iter()
            .map(|p| (p.name.clone(), format!("{}{rest}", p.name)))
            .collect(),
    )
}

re!(
    ATTRIBUTE_LIST_RANGE,
    r"^\s*(?:传入的?)?\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|,|，|或者|或|和|及)\s*[A-Za-z_][A-Za-z0-9_]*)+)\s*((?:的)?\s*(?:值|取值|数值)?\s*(?:不在|不符合|不满足)[^，,。；]*(?:范围|支持的值|要求)[^，,。；]*)$"
);
re!(ATTRIBUTE_LIST_SEP, r"\s*(?:、|,|，|或者|或|和|及)\s*");

/// The clauses of a condition, each marked whether it is one of several alternatives: joined
/// to its neighbour by 或/或者 ("…范围之内，或shape不相互匹配", "A不为2维或B不为3维").
fn alternative_clauses(text: &str) -> Vec<(String, bool)> {
    let clauses = text::split_clauses(text, |s| PREDICATE.is_match(s));
    let starts_or = |c: &String| c.starts_with('或');
    let mut out = Vec::new();
    for (i, clause) in clauses.iter().enumerate() {
        let joined = starts_or(clause) || clauses.get(i + 1).is_some_and(starts_or);
        let parts: Vec<String> = split_alternatives(clause)
            .iter()
            .flat_map(|p| split_requirements(p))
            .collect();
        let split = parts.len() > 1;
        out.extend(parts.into_iter().map(|p| (p, joined || split)));
    }
    out
}

re!(DIM_OF, r"-\s*([A-Za-z_][A-Za-z0-9_]*)\.dim\b");
re!(
    ENGLISH_CAST_FROM,
    r"不(?:可以|能)由\s*([A-Za-z_][A-Za-z0-9_]*)\s*cast得到"
);
re!(
    ENGLISH_WORD,
    r"(^|[^A-Za-z0-9_])(cast|type|broadcastshape)([^A-Za-z0-9_]|$)"
);

/// English words docs write among the Chinese: "out的dtype不可以由self cast得到", "无法cast为out的
/// 数据类型", "self和out的type不匹配" say 转换 and 类型, "不满足条件broadcastshape条件" says
/// broadcast. A parameter of that name keeps its word.
fn english_words(op: &OpIr, text: &str) -> String {
    let is_param = |w: &str| op.params.iter().any(|p| p.name == w);
    let text = if is_param("cast") {
        text.to_string()
    } else {
        ENGLISH_CAST_FROM
            .replace_all(text, "不是${1}可转换的")
            .into_owned()
    };
    ENGLISH_WORD
        .replace_all(&text, |c: &regex::Captures| {
            let word = match &c[2] {
                w if is_param(w) => w,
                "cast" => "转换",
                "broadcastshape" => "broadcast",
                _ => "类型",
            };
            format!("{}{word}{}", &c[1], &c[3])
        })
        .into_owned()
}
/// "weight/bias/mean/invstd维度不为一维": names joined by "/" are alternatives, as with "或" (a
/// division of two parameters, "x/y", is read nowhere as arithmetic).
fn slashed_names(op: &OpIr, text: &str) -> String {
    let is_param = |w: &str| op.params.iter().any(|p| p.name == w);
    crate::read::join_pairs(text, &SLASHED_NAMES, |a, b| {
        (is_param(a) && is_param(b)).then(|| format!("{a}或{b}"))
    })
}
re!(
    SLASHED_NAMES,
    r"([A-Za-z_][A-Za-z0-9_]*)\s*/\s*([A-Za-z_][A-Za-z0-9_]*)"
);
re!(
    RANK_BOUNDS,
    r"[\[［]\s*-\s*rank\s*[,，]\s*rank\s*-\s*1\s*[\]］]"
);

re!(
    SYMBOL_BOUNDS,
    r"[\[［]\s*-\s*([A-Za-z_][A-Za-z0-9_]*)\s*[,，]\s*([A-Za-z_][A-Za-z0-9_]*)\s*-\s*1\s*[\]］]"
);

/// The tensor whose rank the symbol of "[-dimNum, dimNum-1]" stands for, where the clause says
/// so ("dimNum为self的维度大小"); `None` otherwise (one symbol on both ends, a tensor named).
fn symbol_rank_tensor<'a>(op: &'a OpIr, text: &str) -> Option<&'a Param> {
    let c = SYMBOL_BOUNDS.captures(text)?;
    if c[1] != c[2] || text::resolve(op, &c[1]).is_some() {
        return None;
    }
    let defined = regex::Regex::new(&format!(
        r"{}\s*(?:为|是|指|表示)\s*(?:输入)?([A-Za-z_][A-Za-z0-9_]*)的(?:维度|维数)",
        regex::escape(&c[1])
    ))
    .ok()?;
    let d = defined.captures(&text[c.get(0)?.end()..])?;
    text::resolve(op, &d[1]).filter(|p| p.role.is_tensor())
}

/// "dim超出了self的shape可选维度范围[-self.dim，self.dim-1]", "dim >= self.dim()或者dim <
/// -self.dim()", and the 0-dim variant "当self.dim()=0时，dim的取值不在[-1, 0]范围内；当self.dim()>0
/// 时，dim取值不在[-self.dim, self.dim()-1]范围内": all say the integer attribute indexes a dim of
/// the tensor (`AxisIn` treats a 0-dim tensor as 1-dim, as the 0-dim branch says).
fn axis_bounds_rule(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let tensor = match DIM_OF.captures(text) {
        Some(c) => text::resolve(op, &c[1]).filter(|p| p.role.is_tensor())?,
        // "dim的取值越界不在[-dimNum, dimNum -1],dimNum为self的维度大小": a symbol for the rank
        // of the tensor the clause defines it by.
        None if SYMBOL_BOUNDS.is_match(text) => symbol_rank_tensor(op, text)?,
        // "dim参数的值超出有效范围[-rank, rank-1]": the rank of the op's one input tensor.
        None if RANK_BOUNDS.is_match(text) => match text::input_tensors(op).as_slice() {
            [only] => *only,
            _ => return None,
        },
        None => return None,
    };
    let attrs: Vec<&Param> = text::mentions(op, text)
        .into_iter()
        .map(|m| m.param)
        .filter(|p| {
            p.role == Role::Attribute && (p.kind() == ParamKind::Int || infer::is_int_list(p))
        })
        .collect();
    let [attr] = attrs.as_slice() else {
        return None;
    };
    Some(vec![Rule::AxisIn {
        param: attr.name.clone(),
        tensor: tensor.name.clone(),
    }])
}

/// A leading "当outputMask[1]为true，" / "当reduction的值为0时，" (`Ints`), "当quantMode为static时，"
/// (`Strs`), "如果pad中存在正数，" (`AnyElem`): the rest holds only then.
enum When {
    Ints {
        param: String,
        index: Option<usize>,
        values: Vec<i64>,
        negate: bool,
    },
    Strs {
        param: String,
        values: Vec<String>,
        negate: bool,
    },
    AnyElem {
        param: String,
        min: Option<i64>,
        max: Option<i64>,
    },
}

impl When {
    fn wrap(&self, rule: Rule) -> Rule {
        let rule = Box::new(rule);
        match self {
            When::Ints {
                param,
                index,
                values,
                negate,
            } => Rule::When {
                param: param.clone(),
                index: *index,
                values: values.clone(),
                negate: *negate,
                rule,
            },
            When::Strs {
                param,
                values,
                negate,
            } => Rule::WhenStr {
                param: param.clone(),
                values: values.clone(),
                negate: *negate,
                rule,
            },
            When::AnyElem { param, min, max } => Rule::WhenAnyElem {
                param: param.clone(),
                min: *min,
                max: *max,
                rule,
            },
        }
    }
}

fn strip_when_prefix(op: &OpIr, text: &str) -> (String, Option<When>) {
    if let Some(read) = strip_when_str_prefix(op, text).or_else(|| strip_any_elem_prefix(op, text))
    {
        return read;
    }
    let Some(c) = WHEN_PREFIX.captures(text) else {
        return (text.to_string(), None);
    };
    let Some(p) = text::resolve(op, &c[1]).filter(|p| p.role == Role::Attribute) else {
        return (text.to_string(), None);
    };
    let index = c.get(2).and_then(|m| m.as_str().parse().ok());
    let values = match c[4].to_ascii_lowercase().as_str() {
        "true" => vec![1],
        "false" => vec![0],
        word if word.starts_with(|ch: char| ch.is_ascii_alphabetic()) => {
            // "reduction不是none时": the enum value the parameter's description names so.
            let named: Vec<i64> = p
                .enum_values
                .iter()
                .filter(|(_, name)| name.eq_ignore_ascii_case(word))
                .map(|(v, _)| *v)
                .collect();
            if named.len() != 1 {
                return (text.to_string(), None);
            }
            named
        }
        nums => text::int_alternatives(nums),
    };
    let when = When::Ints {
        param: p.name.clone(),
        index,
        values,
        negate: c[3].starts_with('不') || &c[3] == "!=",
    };
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    (rest.trim().to_string(), Some(when))
}

/// A leading "当quantMode为static时，", "fusedOpType为"add"、"mul"时，" on a string attribute:
/// its values as the doc writes them. Each must be one the attribute can take where its
/// description lists them (`infer::string_values`); else the prefix is not read.
fn strip_when_str_prefix(op: &OpIr, text: &str) -> Option<(String, Option<When>)> {
    let c = WHEN_STR_PREFIX.captures(text)?;
    let p = text::resolve(op, &c[1])
        .filter(|p| p.role == Role::Attribute && p.kind() == ParamKind::Str)?;
    let values: Vec<String> = STR_VALUE
        .captures_iter(&c[3])
        .filter_map(|v| {
            (1..=4)
                .find_map(|i| v.get(i))
                .map(|m| m.as_str().to_string())
        })
        .collect();
    if values.is_empty() {
        return None;
    }
    if let Ok(known) = infer::string_values(p) {
        if values.iter().any(|v| !known.contains(v)) {
            return None;
        }
    }
    let when = When::Strs {
        param: p.name.clone(),
        values,
        negate: c[2].starts_with('不') || &c[2] == "!=",
    };
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    Some((rest.trim().to_string(), Some(when)))
}

/// A leading "如果pad中存在正数，则", "当dims中存在负数时，" on an integer list attribute: some
/// element in a range.
fn strip_any_elem_prefix(op: &OpIr, text: &str) -> Option<(String, Option<When>)> {
    let c = WHEN_ANY_ELEM_PREFIX.captures(text)?;
    let p =
        text::resolve(op, &c[1]).filter(|p| p.role == Role::Attribute && infer::is_int_list(p))?;
    let (min, max) = match &c[2] {
        "正数" | "正值" => (Some(1), None),
        "负数" | "负值" => (None, Some(-1)),
        "非正数" => (None, Some(0)),
        "非负数" => (Some(0), None),
        _ => (Some(0), Some(0)),
    };
    let when = When::AnyElem {
        param: p.name.clone(),
        min,
        max,
    };
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    Some((rest.trim().to_string(), Some(when)))
}

/// A leading "y的数据类型为INT4时，": the tensor and the dtypes under which the rest holds.
fn strip_dtype_prefix(op: &OpIr, text: &str) -> (String, Option<(String, Vec<DType>)>) {
    if let Some(c) = CATEGORY_WHEN.captures(text) {
        // "当self为实数时，…": the tensor's documented dtypes of that category (real: all but
        // the complex ones).
        let Some(p) = text::resolve(op, &c[1]).filter(|p| p.role.is_tensor()) else {
            return (text.to_string(), None);
        };
        let complex =
            |d: &DType| matches!(d, DType::Complex32 | DType::Complex64 | DType::Complex128);
        let want_complex = &c[2] == "复数";
        let mut dtypes: Vec<DType> = Vec::new();
        for d in p.dtypes.values().flatten() {
            if complex(d) == want_complex && !dtypes.contains(d) {
                dtypes.push(*d);
            }
        }
        if dtypes.is_empty() {
            return (text.to_string(), None);
        }
        let rest = &text[c.get(0).map_or(0, |m| m.end())..];
        return (rest.trim().to_string(), Some((p.name.clone(), dtypes)));
    }
    // "当self为COMPLEX64时": a tensor said to be a dtype is said to have it.
    let Some(c) = DTYPE_WHEN
        .captures(text)
        .or_else(|| BARE_DTYPE_WHEN.captures(text))
    else {
        return (text.to_string(), None);
    };
    let Some(p) = text::resolve(op, &c[1]).filter(|p| p.role.is_tensor()) else {
        return (text.to_string(), None);
    };
    match common::dtype_list(&c[2]) {
        Some(dtypes) => {
            let rest = &text[c.get(0).map_or(0, |m| m.end())..];
            (rest.trim().to_string(), Some((p.name.clone(), dtypes)))
        }
        None => (text.to_string(), None),
    }
}

/// "当weightOptional非空时，其数据类型…": rules skip null arguments anyway, so the prefix goes and
/// "其" becomes the named parameters. A rest about other parameters only ("quantOffsetOptional
/// 存在时，quantScaleOptional是空指针", "当offsetArray不为空指针时，参数offsetSize < 1") holds only
/// while the pointer is passed: the parameters the prefix names are returned, each to be present.
fn strip_non_null_prefix(op: &OpIr, text: &str) -> (String, states::States) {
    let Some(c) = NON_NULL_WHEN.captures(text) else {
        return (text.to_string(), Vec::new());
    };
    let subject = c.get(1).or(c.get(2)).map_or("", |m| m.as_str().trim());
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    let rest = rest.strip_prefix('其').unwrap_or(rest);
    let named = text::mentions(op, rest);
    if named.is_empty() || rest.starts_with("shape") {
        // "biasOptional不为空指针时，数据类型…不在支持的范围之内": the subject carries over.
        return (format!("{subject}的{rest}"), Vec::new());
    }
    let subjects: Vec<&Param> = text::mentions(op, subject)
        .into_iter()
        .map(|m| m.param)
        .collect();
    let others = named.iter().all(|m| !subjects.contains(&m.param));
    if others && !subjects.is_empty() && subjects.iter().all(|p| states::has_presence(p)) {
        let present = subjects
            .iter()
            .map(|p| (p.name.clone(), TensorState::Present))
            .collect();
        return (rest.to_string(), present);
    }
    (rest.to_string(), Vec::new())
}

/// "gamma不为1维或元素数量不等于…": two statements joined by 或 become two clauses; a 或 inside
/// a parameter list ("gradOutput、self或out的…") has no predicate on its left and stays.
fn split_alternatives(clause: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = clause;
    // A join inside a list of names ("logits、out是空指针或p与k同为空指针") separates nothing;
    // the next one may.
    let mut from = 0;
    while let Some(m) = OR_JOIN.find_at(rest, from) {
        let (left, right) = (&rest[..m.start()], &rest[m.end()..]);
        // A note in parentheses ("1或3(stride长度为0时，…)") states no alternative.
        let right_bare = NOTE_IN_PARENS.replace_all(right, "");
        let separate = PREDICATE.is_match(left)
            && PREDICATE.is_match(&right_bare)
            && ASPECT_ANY.is_match(&right_bare)
            && !BROADCAST.is_match(clause)
            && !PADDING_BOUNDS.is_match(clause);
        let between_names = left.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && right.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if separate {
            out.push(left.to_string());
            rest = right;
            from = 0;
        } else if between_names {
            from = m.end();
        } else {
            break;
        }
    }
    out.push(rest.to_string());
    out
}

/// "gamma不为1维且元素数量不等于C": two requirements of one tensor, each stated broken, joined by
/// 且 — CANN checks each (a 2-D gamma of C elements is rejected). Split only where the two
/// halves break requirements on different aspects, the second opening on its aspect:
/// "clampLimit不为-1.0且不大于0" (one value, an exception), "weightOptional非空且shape…" (a
/// condition, no aspect on its left) and "数据类型不为FLOAT32且与x的数据类型不一致" (one aspect)
/// stay whole.
fn split_requirements(clause: &str) -> Vec<String> {
    let Some((left, right)) = clause.split_once('且') else {
        return vec![clause.to_string()];
    };
    let right = right.trim_start_matches(['，', ',', ' ']);
    let right_aspect = REQUIREMENT_ASPECT
        .captures(right)
        .filter(|c| c.get(0).is_some_and(|m| m.start() == 0));
    let left_aspect = REQUIREMENT_ASPECT.captures_iter(left).last();
    match (left_aspect, right_aspect) {
        (Some(l), Some(r))
            if aspect_class(&l[0]) != aspect_class(&r[0])
                && NEGATION.is_match(left)
                && NEGATION.is_match(right)
                && !right.contains('且') =>
        {
            // The second requirement is of the first's subject ("gamma的元素数量不等于C").
            let subject = text::IDENT
                .find(left.trim_start())
                .filter(|m| m.start() == 0)
                .map_or("", |m| m.as_str());
            let right = if subject.is_empty() {
                right.to_string()
            } else {
                format!("{subject}的{right}")
            };
            vec![left.to_string(), right]
        }
        _ => vec![clause.to_string()],
    }
}

/// The aspect a requirement word names: rank, element count, dtype, format or shape.
fn aspect_class(word: &str) -> &'static str {
    match word {
        w if w.contains('维') => "rank",
        w if w.contains("元素") || w.contains("size") || w.contains("长度") => "count",
        w if w.contains("类型") => "dtype",
        w if w.contains("格式") => "format",
        _ => "shape",
    }
}

/// "A2、A3的depth * height * width > max int32": a clause that names products holds there only.
fn qualify_by_products(clause: &str, rules: Vec<Rule>) -> Vec<Rule> {
    let products = text::products_in(clause);
    if products.is_empty() {
        return rules;
    }
    rules
        .into_iter()
        .map(|rule| match rule {
            Rule::ProductSupported { .. } => rule,
            other => Rule::OnProducts {
                products: products.clone(),
                rule: Box::new(other),
            },
        })
        .collect()
}

/// One clause → its rules and the parameters it is about (a clause naming none inherits the
/// previous clause's: "x的数据类型不在支持的范围之内，或shape不相互匹配").
fn recognize_clause<'a>(
    op: &'a OpIr,
    clause: &str,
    inherited: &[&'a Param],
    conditional: bool,
) -> Result<(Vec<Rule>, Vec<&'a Param>), Manual> {
    if let Some(read) = pattern_rules(op, clause, inherited, conditional)? {
        return Ok(read);
    }
    let (subjects, grouped) = clause_subjects(op, clause, inherited)?;
    let rules = subject_rules(op, clause, &subjects, conditional)?;
    let rules = if grouped {
        narrow_group_shapes(op, rules)?
    } else {
        rules
    };
    Ok((rules, subjects))
}

/// Clauses read whole by one pattern, whatever parameters they name (`None`: no pattern fits).
#[allow(clippy::type_complexity)]
fn pattern_rules<'a>(
    op: &'a OpIr,
    clause: &str,
    inherited: &[&'a Param],
    conditional: bool,
) -> Result<Option<(Vec<Rule>, Vec<&'a Param>)>, Manual> {
    let none = |rules| Ok(Some((rules, Vec::new())));
    if let Some(m) = MATMUL_OPERAND.find(clause) {
        // "self不能与batch1@batch2做broadcast操作": the product's shape, not the operands'.
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!(
                "a shape derived by a matrix product (“{}”) is not in the vocabulary",
                m.as_str()
            ),
        ));
    }
    if let Some(m) = VALUE_EXCEPTION.find(clause) {
        // "clampLimit不为-1.0且不大于0": an error only where both hold; the value excepted
        // (-1.0) is valid however the other part reads.
        return Err(Manual::new(
            ManualKind::Exception,
            format!(
                "an exception for one value (“{}”) is not in the vocabulary",
                m.as_str()
            ),
        ));
    }
    if NULL_WORD.is_match(clause) {
        return none(null_rules(op, clause, conditional)?);
    }
    if let Some(rule) = states::passed_without(op, clause) {
        return none(vec![rule]);
    }
    if PRODUCT_UNSUPPORTED.is_match(clause) {
        if let Some(d) = text::ASCII_WORD
            .find_iter(clause)
            .find(|w| DType::parse(w.as_str()).is_some())
        {
            // "当前平台不支持BFLOAT16": a dtype some products lack, which the dtype rows and the
            // parameter tables state per product; the product itself is supported.
            return Err(Manual::new(
                ManualKind::CheckedElsewhere,
                format!(
                    "a dtype a product does not support (“{}”) is the dtype rows' to check",
                    d.as_str()
                ),
            ));
        }
        return none(vec![Rule::ProductSupported {
            products: op.supported_products().map(str::to_string).collect(),
        }]);
    }
    if let Some(c) = ELEMENT_COUNT.captures(clause) {
        return none(element_count_rule(op, c[1].matches('*').count() + 1)?);
    }
    if let Some(c) = FRACTION.captures(clause) {
        return none(fraction_rule(op, &c)?);
    }
    if let Some(c) = PADDING_BOUNDS.captures(clause) {
        // "padding的数值中存在小于0或者大于kernelSize/2的值": 0 ≤ padding ≤ kernelSize/2.
        let group = |i: usize, j: usize| c.get(i).or(c.get(j)).map_or("", |m| m.as_str());
        let (lhs, rhs) = (group(1, 4), group(2, 5));
        let lhs = text::resolve(op, lhs).ok_or_else(|| {
            Manual::new(ManualKind::UnknownName, format!("{lhs} is not a parameter"))
        })?;
        let rhs = text::resolve(op, rhs).ok_or_else(|| {
            Manual::new(ManualKind::UnknownName, format!("{rhs} is not a parameter"))
        })?;
        let div: i64 = c
            .get(3)
            .or(c.get(6))
            .map_or(Ok(1), |m| m.as_str().parse())
            .map_err(|_| Manual::new(ManualKind::Unrecognized, "bad divisor"))?;
        return none(vec![
            Rule::ListElemsInRange {
                param: lhs.name.clone(),
                min: Some(0),
                max: None,
            },
            Rule::ListElemsAtMostFraction {
                lhs: lhs.name.clone(),
                rhs: rhs.name.clone(),
                num: div.max(1),
                den: 1,
            },
        ]);
    }
    if let Some(read) = axes::named_axes_rules(op, clause) {
        // "out在N、C维度上的size大小与self未完全相同": dims placed by the tensors' layouts.
        return read.map(|rules| Some((rules, Vec::new())));
    }
    if let Some(rules) = shapes::inherited_dims_equal_rules(op, clause, inherited) {
        return Ok(Some((rules, inherited.to_vec())));
    }
    if let Some(rules) = shapes::dims_against_sizes_rules(op, clause) {
        return none(rules);
    }
    if let Some(rules) = dims_equal_rule(op, clause) {
        return none(rules);
    }
    if let [t] = inherited {
        // "self的shape小于2维或者大于8维或者最后两维的大小不一致": an alternative naming no tensor
        // is of the tensor before it.
        let own = format!("{}{clause}", t.name);
        if t.role.is_tensor() && text::mentions(op, clause).is_empty() && NOT_SQUARE.is_match(&own)
        {
            if let Some(rules) = dims_equal_rule(op, &own) {
                return Ok(Some((rules, inherited.to_vec())));
            }
        }
    }
    if let Some(rules) = dim_multiple_rule(op, clause) {
        return none(rules);
    }
    if let Some(read) = dim_range_rules(op, clause, inherited) {
        return Ok(Some(read));
    }
    if let Some(rules) = scaled_dim_rules(op, clause) {
        return none(rules);
    }
    if let Some(rules) = same_but_dim_rules(op, clause) {
        return none(rules);
    }
    if let Some(rules) = int_relation_rules(op, clause) {
        return none(rules);
    }
    Ok(None)
}

/// The names a clause lists that are no parameter of the op, where the clause checks each
/// parameter it lists on its own ("x1、x2、x1Scale或out的数据类型不在支持的范围之内", a doc whose
/// names drifted from the prototype's): the others are still checked, and the reading says what
/// it left out. `None` where every name is known, or the clause relates the tensors.
fn unknown_left_out(op: &OpIr, clause: &str) -> Option<Vec<String>> {
    let unknown = text::unknown_names(op, clause);
    let per_tensor_range = OUT_OF_RANGE.is_match(clause)
        && (DTYPE.is_match(clause) || FORMAT.is_match(clause))
        && !SHAPE.is_match(clause)
        && !RANK.is_match(clause);
    let separable = !MISMATCH.is_match(clause)
        && (per_tensor_range || EMPTY_TENSOR.is_match(clause) && !SHAPE.is_match(clause));
    let known = text::mentions(op, clause)
        .iter()
        .any(|m| m.param.role.is_tensor());
    (!unknown.is_empty() && separable && known).then_some(unknown)
}

/// The parameters a clause is about, and whether a group word ("输入tensor") named them.
fn clause_subjects<'a>(
    op: &'a OpIr,
    clause: &str,
    inherited: &[&'a Param],
) -> Result<(Vec<&'a Param>, bool), Manual> {
    if CONDITIONAL.is_match(&clause.replace("当前", "")) {
        return Err(Manual::conditional(clause));
    }
    if let Some(at) = clause.find('但').filter(|&at| at > 0) {
        // "maxLowBound不为0.0但scaleAlg不为1": an error only while both hold, which no rule of
        // one parameter says.
        let (before, after) = clause.split_at(at);
        if !text::mentions(op, before).is_empty() && !text::mentions(op, after).is_empty() {
            return Err(Manual::new(
                ManualKind::Exception,
                format!("a joint condition (“{clause}”) holds only while both parts do"),
            ));
        }
    }
    let unknown = text::unknown_names(op, clause);
    if !unknown.is_empty() && unknown_left_out(op, clause).is_none() {
        return Err(Manual::new(
            ManualKind::UnknownName,
            format!(
                "names {}, which {} not a parameter of the op",
                unknown.join(", "),
                if unknown.len() == 1 { "is" } else { "are" }
            ),
        ));
    }
    // The parameters a note in parentheses names ("(stride长度为0时，stride的数值等于kernelSize的
    //值)") are not what the clause is about, unless it names no other.
    let mentions = match text::mentions(op, &NOTE_IN_PARENS.replace_all(clause, "")) {
        outside if !outside.is_empty() => outside,
        _ => text::mentions(op, clause),
    };
    if let Some(c) = ELEMENT_INDEX.captures(clause) {
        // "tensors[0] 必须为4维": a rule holds for every element of a list, not for one.
        if let Some(p) = text::resolve(op, &c[1]) {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!("a condition on one element of {} (“{clause}”)", p.name),
            ));
        }
    }
    let grouped = mentions.is_empty();
    if grouped && SEVERAL_BETWEEN.is_match(clause) && MISMATCH.is_match(clause) {
        // "多个输入tensor之间的shape信息不匹配": which tensors relate how is left unsaid.
        return Err(Manual::new(
            ManualKind::UnknownName,
            format!(
            "a mismatch among several tensors that names neither them nor the relation (“{clause}”)"
        ),
        ));
    }
    let mut subjects: Vec<&Param> = if grouped {
        group_subjects(op, clause)
    } else {
        mentions.iter().map(|m| m.param).collect()
    };
    if subjects.is_empty() {
        subjects = inherited.to_vec();
    }
    if subjects.is_empty() && NO_SUBJECT_ASPECT.is_match(clause) {
        // "数据类型不在支持的范围之内", "不支持空tensor场景": a statement about the op's tensors.
        subjects = text::io_tensors(op);
    }
    if subjects.is_empty() {
        return Err(Manual::new(
            ManualKind::UnknownName,
            format!("names no parameter of the op (“{clause}”)"),
        ));
    }
    if BROADCAST_RESULT.is_match(clause) && !subjects.iter().any(|p| is_input_tensor(p)) {
        // "或out的shape与广播结果不一致": the result of the tensors the clause before broadcasts;
        // "out的shape与输入参数经过broadcast后的shape不一致": of every input.
        let inputs: Vec<&Param> = if inherited.iter().any(|p| is_input_tensor(p)) {
            inherited.to_vec()
        } else if clause.contains("输入") {
            op.params.iter().filter(|p| is_input_tensor(p)).collect()
        } else {
            Vec::new()
        };
        subjects.splice(0..0, inputs.into_iter().filter(|p| is_input_tensor(p)));
    }
    Ok((subjects, grouped))
}

/// The rules of a clause about `subjects`, by what it says of them.
fn subject_rules(
    op: &OpIr,
    clause: &str,
    subjects: &[&Param],
    conditional: bool,
) -> Result<Vec<Rule>, Manual> {
    Ok(if BROADCAST.is_match(clause) {
        if let Some(rules) = shapes::broadcast_onto_input_rules(op, clause) {
            return Ok(rules);
        }
        broadcast_rules(subjects, clause, conditional)?
    } else if PROMOTION.is_match(clause) {
        promotion_rules(op, clause, subjects)?
    } else if clause.contains("非连续") || clause.contains("不连续") {
        tensor_rules(subjects, |p| Rule::Contiguous { param: p })
    } else if clause.contains("连续性") {
        // "x、weight的连续性不符合要求": the tensors whose table rejects non-contiguous input.
        let strict: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.non_contiguous == Some(false))
            .collect();
        if strict.is_empty() {
            return Err(Manual::new(
                ManualKind::CheckedElsewhere,
                "every named tensor accepts non-contiguous input per its table",
            ));
        }
        tensor_rules(&strict, |p| Rule::Contiguous { param: p })
    } else if EMPTY_TENSOR.is_match(&NON_EMPTY_GROUP.replace_all(clause, "")) {
        if NOT_EITHER_EMPTY.is_match(clause) {
            // "repeats不为1D tensor或空tensor": the empty tensor is one of the allowed shapes.
            return Err(Manual::new(ManualKind::Vocabulary, format!(
                "an empty tensor is one of the shapes “{clause}” allows, next to one the vocabulary cannot say alone"
            )));
        }
        if clause.contains("同时") {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                "a joint emptiness condition on several tensors is not in the vocabulary",
            ));
        }
        if let Some(m) = EMPTY_AND_MORE.find(clause) {
            // "self为空tensor且存在非第一维度的值为0": the error is the empty tensor of that kind,
            // so the empty tensor alone is no error; where the kind is which dims are 0, those
            // dims must be at least 1.
            if let Some(rules) = zero_dims_rules(subjects, m.as_str()) {
                return Ok(rules);
            }
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!(
                "an empty tensor joined with a further condition (“{}”) is not in the vocabulary",
                m.as_str()
            ),
            ));
        }
        if let Some(m) = MUST_NOT_BE_EMPTY.find(clause) {
            // "repeats不为空tensor" alone: the tensor must be empty, which `NotEmpty` does not say.
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!(
                    "a tensor that must be empty (“{}”) is not in the vocabulary",
                    m.as_str()
                ),
            ));
        }
        tensor_rules(subjects, |p| Rule::NotEmpty { param: p })
    } else if REPEATED.is_match(clause) {
        let lists: Vec<Rule> = subjects
            .iter()
            .filter(|p| infer::is_int_list(p))
            .map(|p| Rule::ListUnique {
                param: p.name.clone(),
            })
            .collect();
        if lists.is_empty() {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!("a repetition condition on non-list parameters (“{clause}”)"),
            ));
        }
        lists
    } else if TENSOR_COUNT.is_match(clause) && MISMATCH.is_match(clause) {
        list_len_same(subjects)?
    } else {
        aspect_rules(op, clause, subjects)?
    })
}

/// "传入的计算输入的shape不一致": a group word does not say which tensors share a shape where the
/// parameter table gives some of them shapes of their own ("shape要求为[1]"). The tensors the
/// descriptions tie together ("shape要求与输入varRef保持一致") are the ones meant.
fn narrow_group_shapes(op: &OpIr, rules: Vec<Rule>) -> Result<Vec<Rule>, Manual> {
    let mut out = Vec::with_capacity(rules.len());
    for rule in rules {
        let Rule::ShapeSame { params } = &rule else {
            out.push(rule);
            continue;
        };
        let tied = described_shape_peers(op, params);
        let members: Vec<&Param> = op
            .params
            .iter()
            .filter(|p| params.contains(&p.name))
            .collect();
        if tied.is_empty() {
            if let Some((a, b)) = shapes::related_otherwise(op, &members) {
                return Err(Manual::new(
                    ManualKind::Contradiction,
                    format!(
                    "a shape equality of a group of tensors, of which the parameter table gives \
                     {a} and {b} different shapes"
                ),
                ));
            }
            out.push(rule);
        } else if tied.len() >= 2 {
            out.push(Rule::ShapeSame { params: tied });
        } else {
            return Err(
                Manual::new(ManualKind::Contradiction, "a shape equality of a group of tensors whose descriptions give them shapes of their own"),
            );
        }
    }
    Ok(out)
}

/// Members of `group` whose descriptions tie their shape to another member's; empty when no
/// member's description says anything of its shape (then the group word stands as written).
fn described_shape_peers(op: &OpIr, group: &[String]) -> Vec<String> {
    let members: Vec<&Param> = op
        .params
        .iter()
        .filter(|p| group.contains(&p.name))
        .collect();
    let speaks_of_shape = members
        .iter()
        .any(|p| infer::sentences(p).iter().any(|s| s.contains("shape")));
    if !speaks_of_shape {
        return Vec::new();
    }
    let mut tied: Vec<String> = Vec::new();
    for p in &members {
        for rule in infer::relation_rules(op, p) {
            if let Rule::ShapeSame { params } = rule {
                if params.iter().all(|n| group.contains(n)) {
                    tied.extend(params);
                }
            }
        }
    }
    // Keep the group's order, each name once.
    group.iter().filter(|n| tied.contains(n)).cloned().collect()
}

// "传入非空tensor的数据类型…": a group word for the tensors passed, no emptiness condition.
re!(
    ACTS_ON_DIMS,
    r"对\s*(?:超过|多于|大于|少于|小于|不超过)?\s*\d+\s*个\s*(?:维度|维|轴)\s*(?:同时)?\s*(?:做|进行|执行|作)"
);
re!(NON_EMPTY_GROUP, r"非空(?:[Tt]ensor|张量)的?");
re!(
    MUST_NOT_BE_EMPTY,
    r"(?:不为|不是|非)\s*(?:空[Tt]ensor|空张量)"
);
re!(
    NOT_PASSED,
    r"不(?:支持|允许|能|可)传入\s*[A-Za-z_][A-Za-z0-9_]*"
);
re!(
    EMPTY_AND_MORE,
    r"(?:空[Tt]ensor|空张量)\s*(?:且|并且|而且).+$"
);
re!(SEVERAL_BETWEEN, r"(?:多个|各个|几个).*之间|和.*之间");
// "存在非第一维度的值为0", "存在非batch size维度的大小为0": a dim but the first is 0.
re!(
    ZERO_BUT_FIRST,
    r"存在\s*非\s*(?:第一|第1|第0|首|batch\s*size|batch|N)\s*(?:个)?\s*(?:维度|维|轴)\s*(?:的)?\s*(?:值|大小|size)?\s*(?:为|是|等于)\s*0"
);
// "self后三个维度的值存在0", "后4维存在维度大小为0": one of the last n dims is 0.
re!(
    ZERO_IN_LAST,
    r"后\s*(\d+|[一二三四五六七八])\s*(?:个)?\s*(?:维度|维)\s*(?:的)?\s*(?:值|大小|size)?\s*(?:中)?\s*存在\s*(?:维度)?\s*(?:的)?\s*(?:值|大小|size)?\s*(?:为|是|等于)?\s*0"
);
re!(ELEMENT_INDEX, r"([A-Za-z_][A-Za-z0-9_]*)\s*\[\s*\d+\s*\]");
re!(
    ASPECT_START,
    r"的|数据类型|数据格式|shape|维|格式|dtype|format|是|为|不"
);
re!(
    ALL_TENSORS,
    r"输入输出|输入和输出|输入、输出|输入与输出|所有[Tt]ensor|全部[Tt]ensor|非空[Tt]ensor|^(?:传入的)?(?:参数|[Tt]ensor)$"
);
re!(
    INPUTS,
    r"计算输入|输入张量|输入[Tt]ensor|各输入|全部输入|所有输入|^(?:传入的)?输入"
);
re!(OUTPUTS, r"输出");

/// "…为空tensor且存在非第一维度的值为0", "…且self后3个维度的值存在0": the empty tensors that are
/// the error are those with a zero in those dims, so each of those dims is at least 1 (dims past
/// the documented rank are none of the tensor's).
fn zero_dims_rules(subjects: &[&Param], clause: &str) -> Option<Vec<Rule>> {
    let dims: Vec<i64> = if ZERO_BUT_FIRST.is_match(clause) {
        (1..8).collect()
    } else {
        let n = ZERO_IN_LAST.captures(clause)?[1].to_string();
        let n = n.parse::<i64>().ok().or_else(|| {
            "一二三四五六七八"
                .chars()
                .position(|c| n.starts_with(c))
                .map(|i| i as i64 + 1)
        })?;
        (1..=n).map(|d| -d).collect()
    };
    let tensors: Vec<&&Param> = subjects.iter().filter(|p| p.role.is_tensor()).collect();
    if tensors.is_empty() {
        return None;
    }
    let rules = tensors
        .iter()
        .flat_map(|p| {
            let max_rank = p.rank.map_or(8, |r| r.max) as i64;
            dims.iter()
                .filter(move |d| **d < 0 || **d < max_rank)
                .map(move |&dim| Rule::DimInRange {
                    param: p.name.clone(),
                    dim,
                    min: Some(1),
                    max: None,
                })
        })
        .collect();
    Some(rules)
}

/// "输入输出的shape不是4维或者5维": group words stand for the op's tensors.
pub(super) fn group_subjects<'a>(op: &'a OpIr, clause: &str) -> Vec<&'a Param> {
    let clause = clause
        .trim_start_matches("传入的")
        .trim_start_matches("传入");
    let head = match ASPECT_START.find(clause) {
        Some(m) => &clause[..m.start()],
        None => clause,
    };
    if ALL_TENSORS.is_match(clause) || ALL_TENSORS.is_match(head) {
        text::io_tensors(op)
    } else if INPUTS.is_match(head) {
        text::input_tensors(op)
    } else if OUTPUTS.is_match(head) {
        text::output_tensors(op)
    } else {
        Vec::new()
    }
}

fn is_input_tensor(p: &Param) -> bool {
    matches!(p.role, Role::InputTensor | Role::InputTensorList)
}
