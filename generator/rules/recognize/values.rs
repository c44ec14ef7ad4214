//! Values of attributes and scalars: ranges, enumerations, "不等于4或5", axes within a rank.

use super::patterns::*;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind};
use crate::read::MODAL;
use crate::rules::infer;
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::Rule;

re!(
    ATTR_RELATION,
    r"^(?:传入的?|输入的?)?(?:参数|属性)?([A-Za-z_][A-Za-z0-9_]*)(?:的值)?\s*(大于|>|小于|<)\s*([A-Za-z_][A-Za-z0-9_]*)(?:的值)?$"
);
// "(0, 1]", "[0, 1)": an interval with its open and closed ends.
re!(
    INTERVAL,
    r"([\[(（［])\s*(-?\d+)(?:\.0+)?\s*[,，]\s*(-?\d+)(?:\.0+)?\s*([\])）］])"
);
// "alpha等于0", "beta为0": one value, stated alone (not "不等于0", "不为0").
re!(
    EQUALS_VALUE,
    r"^[^不]*?(?:的值|的取值|的数值)?\s*(?:等于|为|==|=)\s*(-?\d+)(?:\.0+)?$"
);
// "strides存在等于0的元素", "dims中存在值为0的元素": one value no element of a list may hold.
re!(
    ELEMENT_EQUALS,
    r"^[^不]*?(?:中)?存在(?:值)?(?:等于|为)\s*(-?\d+)的(?:元素|值|数值)$"
);
re!(AXIS_BOUNDS, r"范围|越界|超出|超过|绝对值|之间");
re!(NOT_AXIS, r"shape|size|整除|不相等|不一致|除了|除.*外|元素");

/// "dim的值不在[-self的维度数量, self的维度数量-1]之间": the clause is about the attribute (named
/// first) staying within the tensor's dims, and about nothing else.
pub(super) fn is_axis_statement(clause: &str, attrs: &[&Param]) -> bool {
    let first_ident = text::IDENT.find(clause).map(|m| m.as_str());
    attrs.len() == 1
        && first_ident == Some(attrs[0].name.as_str())
        && (AXIS_WORDS.is_match(clause) || clause.contains("越界"))
        && AXIS_BOUNDS.is_match(clause)
        && !NOT_AXIS.is_match(clause)
        // "index中的值超过self对应dim的维度大小": bounded by the size of the dim another
        // attribute names, not by the rank.
        && !DIM_QUALIFIER
            .captures_iter(clause)
            .any(|c| c[1] != attrs[0].name)
}

/// A float's bounds: a closed bound is a range, an open one ("(0, 1]", "不大于0") a range that
/// also excludes the bound itself.
pub(super) fn float_range(p: &Param, clause: &str) -> Result<Vec<Rule>, Manual> {
    let range = |min, max| Rule::IntInRange {
        param: p.name.clone(),
        min,
        max,
    };
    let not = |value| Rule::ValueNot {
        param: p.name.clone(),
        value,
    };
    if let Some(c) = INTERVAL.captures(clause) {
        let (lo, hi): (Option<i64>, Option<i64>) = (c[2].parse().ok(), c[3].parse().ok());
        let mut rules = vec![range(lo, hi)];
        if matches!(&c[1], "(" | "（") {
            rules.extend(lo.map(not));
        }
        if matches!(&c[4], ")" | "）") {
            rules.extend(hi.map(not));
        }
        return Ok(rules);
    }
    if let Some(c) = INLINE_RANGE.captures(clause) {
        let bound =
            |i: usize, j: usize| c.get(i).or(c.get(j)).and_then(|m| m.as_str().parse().ok());
        return Ok(vec![range(bound(1, 3), bound(2, 4))]);
    }
    if let Some(c) = NOT_AT_LEAST.captures(clause) {
        // "不满足>0": at least the bound, and not the bound itself when strict.
        let n: Option<i64> = c[3].parse().ok();
        let mut rules = vec![range(n, None)];
        if c.get(1).is_some() {
            rules.extend(n.map(not));
        }
        return Ok(rules);
    }
    if LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause) {
        return Ok(vec![range(Some(0), None)]);
    }
    if SIGN_NOT_POSITIVE.is_match(clause) {
        // "eps不大于0": strictly positive.
        return Ok(vec![range(Some(0), None), not(0)]);
    }
    if let Some(c) = EQUALS_VALUE.captures(clause) {
        // "beta为0": that value alone.
        return Ok(c[1].parse().ok().map(not).into_iter().collect());
    }
    Err(Manual::new(
        ManualKind::Vocabulary,
        format!(
            "{} is a floating attribute; only its sign or integer bounds are checkable",
            p.name
        ),
    ))
}

// "quantMode不为“dynamic”", "dataFormat没有设置为NCHW或NHWC": the condition lists the values.
re!(
    STRING_NOT_SET,
    r"(?:不为|不是|不等于|没有设置为|未设置为|没有设为|不属于|不在)\s*(.+?)\s*(?:之一|其中之一|中的一个|中的一种|范围内|范围之内|之内|内)?$"
);
// "mode仅支持"avg"和"max"两种取值": a row that states the requirement, not its violation.
re!(
    STRING_REQUIRED,
    &format!(
        r"^\s*(?:仅|只)支持(?:的取值为|取值为|取值|值为)?\s*(.+)$|^\s*(?:只能|仅能|{MODAL})(?:为|是|取)\s*(.+)$"
    )
);
// "roundMode不在有效取值范围", "…不在支持的范围之内", "…不符合当前支持的值": the values are the
// ones the parameter's description lists.
re!(
    STRING_UNSUPPORTED,
    r"不在.*范围|不(?:符合|满足).*(?:值|要求|约束)|不支持|不合法|无效|非法|取值错误|不正确"
);

/// A value condition on a string attribute → `StrIn`, with the values the condition itself lists
/// or else the ones the parameter's description enumerates exactly ([`infer::string_values`]).
fn string_rule(p: &Param, clause: &str) -> Result<Rule, Manual> {
    let at = clause.find(p.name.as_str()).map_or(0, |i| i + p.name.len());
    let rest = &clause[at..];
    let listed = STRING_NOT_SET
        .captures(rest)
        .and_then(|c| infer::string_value_list(&c[1]));
    let required = || {
        STRING_REQUIRED
            .captures(rest)
            .and_then(|c| infer::string_value_list(&c[1]))
    };
    let values = match listed.or_else(required) {
        Some(values) => values,
        None if STRING_UNSUPPORTED.is_match(rest) => {
            infer::string_values(p).map_err(|r| Manual::new(ManualKind::Unstated, r))?
        }
        None => {
            return Err(Manual::new(
                ManualKind::Unstated,
                format!(
                    "a condition on the string attribute {} that names no set of values",
                    p.name
                ),
            ))
        }
    };
    Ok(Rule::StrIn {
        param: p.name.clone(),
        values,
    })
}

// "samplingRatio需大于等于0", "spatialScale需要大于0": a row that states the bound the value
// must keep, not the violation.
re!(
    REQUIRED_AT_LEAST,
    &format!(r"(?:要求|{MODAL})(?:为)?\s*(大于等于|≥|>=|不小于|大于|>)\s*(-?\d+)")
);
re!(
    REQUIRED_AT_MOST,
    &format!(r"(?:要求|{MODAL})(?:为)?\s*(小于等于|≤|<=|不大于|不超过)\s*(-?\d+)")
);

/// A stated requirement rewritten as the violation the readers below know: "需大于等于0" →
/// "不满足≥0", "需小于等于8" → "大于8".
fn requirement_as_violation(clause: &str) -> String {
    let clause = REQUIRED_AT_LEAST.replace(clause, |c: &regex::Captures| {
        let strict = matches!(&c[1], "大于" | ">");
        format!("不满足{}{}", if strict { ">" } else { "≥" }, &c[2])
    });
    REQUIRED_AT_MOST
        .replace(&clause, |c: &regex::Captures| format!("大于{}", &c[2]))
        .into_owned()
}

re!(
    COMPARED,
    r"(不)?(小于等于|大于等于|小于|大于|超过|≤|≥|<=|>=|<|>)\s*(-?\d+)"
);

/// The bounds a value's comparisons leave: "axis的值小于-1" → [-1, ∞), "dim的值小于0或大于2" →
/// [0, 2] (each comparison rejects alone). `None` where a comparison is negated ("不大于") or
/// joined with 且 (those read elsewhere or not at all), or where no comparison is stated.
fn compared_bounds(clause: &str) -> Option<(Option<i64>, Option<i64>)> {
    let (mut lo, mut hi): (Option<i64>, Option<i64>) = (None, None);
    let mut last_end = 0;
    let mut any = false;
    for c in COMPARED.captures_iter(clause) {
        let whole = c.get(0)?;
        if c.get(1).is_some() || clause[last_end..whole.start()].contains('且') {
            return None;
        }
        last_end = whole.end();
        let n: i64 = c[3].parse().ok()?;
        match &c[2] {
            "小于" | "<" => lo = Some(lo.map_or(n, |l| l.max(n))),
            "小于等于" | "≤" | "<=" => lo = Some(lo.map_or(n + 1, |l| l.max(n + 1))),
            "大于" | ">" | "超过" => hi = Some(hi.map_or(n, |h| h.min(n))),
            _ => hi = Some(hi.map_or(n - 1, |h| h.min(n - 1))),
        }
        any = true;
    }
    match (lo, hi) {
        (Some(l), Some(h)) if l > h => None,
        _ if any => Some((lo, hi)),
        _ => None,
    }
}

// "repeats的参数个数超过8", "dims的长度大于8": the number of a list's entries, not their values.
re!(LIST_COUNT, r"(?:参数|元素)?(?:个数|数量)|长度|(?i:length)");

/// "repeats的参数个数超过8": the list's length bounded as the comparisons say (`None`: the
/// clause states no count of `p`'s, or no upper bound a length rule could list).
fn list_count_rule(p: &Param, clause: &str) -> Option<Rule> {
    if !p.kind().is_array() || !LIST_COUNT.is_match(clause) {
        return None;
    }
    let (lo, hi) = compared_bounds(clause)?;
    let lo = usize::try_from(lo.unwrap_or(0).max(0)).ok()?;
    let hi = usize::try_from(hi?).ok()?;
    Some(Rule::ListLenIn {
        param: p.name.clone(),
        lens: (lo..=hi).collect(),
    })
}

/// "cubeMathType不在支持范围内", "k、n值不在[1, 65535]范围内", "quantMode的取值不为0".
pub(super) fn value_rules(op: &OpIr, clause: &str, attrs: &[&Param]) -> Result<Vec<Rule>, Manual> {
    let clause = &requirement_as_violation(clause);
    if let Some(read) = attribute_relation(clause, attrs) {
        return read;
    }
    let mut rules = Vec::new();
    let mut unbounded = Vec::new();
    for p in attrs {
        if let Some(rule) = list_count_rule(p, clause) {
            rules.push(rule);
            continue;
        }
        let float_like = p.kind() == ParamKind::Float;
        if float_like {
            // A float's sign or bounds ("lambda小于0", "clampLimit不满足≥0") are range rules the
            // interpreter checks on the number; value sets of floats are not.
            rules.extend(float_range(p, clause)?);
            continue;
        }
        if p.kind() == ParamKind::Str {
            rules.push(string_rule(p, clause)?);
            continue;
        }
        if p.kind() == ParamKind::Bool {
            rules.push(bool_rule(p, clause, attrs.len() == 1)?);
            continue;
        }
        let range = |min, max| {
            if infer::is_int_list(p) {
                Rule::ListElemsInRange {
                    param: p.name.clone(),
                    min,
                    max,
                }
            } else {
                Rule::IntInRange {
                    param: p.name.clone(),
                    min,
                    max,
                }
            }
        };
        if let Some(c) = INLINE_RANGE.captures(clause) {
            let bound =
                |i: usize, j: usize| c.get(i).or(c.get(j)).and_then(|m| m.as_str().parse().ok());
            let (lo, hi) = (bound(1, 3), bound(2, 4));
            rules.push(range(lo, hi));
        } else if let Some(c) = NOT_EQUAL_VALUES
            .captures(clause)
            .filter(|_| !clause.contains("不大于") && !clause.contains("小于等于"))
        {
            // "threshold 不等于 0": the value must be one of these ("等于0" inside "不等于0"
            // is not a sign condition).
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(&c[1]),
            });
        } else if SIGN_NOT_POSITIVE.is_match(clause) && p.kind().is_scalar_like() {
            // A scalar may hold a float: 0.5 is positive, so "> 0" is "≥ 0 and not 0".
            rules.push(range(Some(0), None));
            rules.push(Rule::ValueNot {
                param: p.name.clone(),
                value: 0,
            });
        } else if SIGN_NOT_POSITIVE.is_match(clause) {
            rules.push(range(Some(1), None));
        } else if let Some(c) = ELEMENT_EQUALS
            .captures(clause)
            .filter(|_| infer::is_int_list(p))
        {
            // "strides存在等于0的元素": that value in no element.
            rules.extend(c[1].parse().ok().map(|value| Rule::ValueNot {
                param: p.name.clone(),
                value,
            }));
        } else if let Some(c) = EQUALS_VALUE.captures(clause) {
            // "alpha等于0": 0.5 and -1 are fine; 0 alone is not.
            rules.extend(c[1].parse().ok().map(|value| Rule::ValueNot {
                param: p.name.clone(),
                value,
            }));
        } else if let Some(c) = NOT_AT_LEAST.captures(clause) {
            let n: Option<i64> = c[3].parse().ok();
            rules.push(range(n.map(|n| n + i64::from(c.get(1).is_some())), None));
        } else if let Some((lo, hi)) = compared_bounds(clause)
            .filter(|_| attrs.len() == 1 || COMPARED.find_iter(clause).count() == 1)
        {
            rules.push(range(lo, hi));
        } else if LOWER_ZERO.is_match(clause) {
            rules.push(range(Some(0), None));
        } else if let Some(c) = GREATER_THAN.captures(clause) {
            rules.push(range(None, c[1].parse().ok()));
        } else if let Some(c) = SET_VALUES.captures(clause) {
            let list = c
                .get(1)
                .or(c.get(2))
                .or(c.get(3))
                .or(c.get(4))
                .map_or("", |m| m.as_str());
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(list),
            });
        } else if let Some(c) = NOT_EQUAL_VALUES.captures(clause) {
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(&c[1]),
            });
        } else if OUT_OF_RANGE.is_match(clause)
            && infer::is_int_list(p)
            && LIST_VALUES.is_match(clause)
            && !LENGTH.is_match(clause)
        {
            // "kernelSize、dilation的元素值不符合要求": the elements as the table bounds them,
            // not the list's length.
            let bounds = infer::list_element_rules(op, p);
            if bounds.is_empty() {
                unbounded.push(p.name.as_str());
            }
            rules.extend(bounds);
        } else if OUT_OF_RANGE.is_match(clause) {
            rules.extend(infer::attribute_rules(p));
            rules.extend(infer::axis_rule(op, p));
        }
    }
    if rules.is_empty() && !unbounded.is_empty() {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!(
                "the parameter table states no bound on the elements of {}",
                unbounded.join(", ")
            ),
        ));
    }
    Ok(rules)
}

/// A bool attribute's value rule: "modulated参数不等于true" (the one value it may take, when the
/// clause names no other attribute); else, as in "isResult=true 且 alpha<0", a bool in a value
/// condition makes it conditional on the bool.
fn bool_rule(p: &Param, clause: &str, alone: bool) -> Result<Rule, Manual> {
    match bool_statement(clause, &p.name).filter(|_| alone) {
        Some(value) => Ok(Rule::IntIn {
            param: p.name.clone(),
            values: vec![value],
        }),
        None => Err(Manual::new(
            ManualKind::Conditional,
            format!(
                "{} is a bool: a value condition naming it is conditional on it",
                p.name
            ),
        )),
    }
}

/// A clause relating attributes to each other: "quantMin大于quantMax" → quantMin ≤ quantMax,
/// "end小于start" → start ≤ end; other relations and products of attributes stay manual.
/// `None`: the clause is about each attribute alone.
fn attribute_relation(clause: &str, attrs: &[&Param]) -> Option<Result<Vec<Rule>, Manual>> {
    if let Some(c) = ATTR_RELATION.captures(clause) {
        let find = |w: &str| attrs.iter().find(|p| p.name == w).map(|p| p.name.clone());
        if let (Some(a), Some(b)) = (find(&c[1]), find(&c[3])) {
            let (lhs, rhs) = if c[2].contains('大') || &c[2] == ">" {
                (a, b)
            } else {
                (b, a)
            };
            return Some(Ok(vec![Rule::ValueAtMost { lhs, rhs }]));
        }
    }
    if attrs.len() >= 2 && clause.contains("小于") && !INLINE_RANGE.is_match(clause) {
        let lt = clause.find("小于").unwrap_or(0);
        if attrs
            .iter()
            .any(|p| clause.find(&p.name).is_some_and(|i| i > lt))
        {
            return Some(Err(Manual::new(
                ManualKind::Vocabulary,
                "a relation between two attributes' values is not in the vocabulary",
            )));
        }
    }
    if clause.contains('*') || clause.contains("乘积") {
        return Some(Err(Manual::new(
            ManualKind::Vocabulary,
            "a product of attribute values is not in the vocabulary",
        )));
    }
    None
}

re!(
    BOOL_STATEMENT,
    r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:参数|的值|的取值)?\s*(不等于|不是|不为|!=|等于|是|为|==|=)\s*(true|false|True|False|TRUE|FALSE)\s*$"
);

/// The value a bool must take when the clause says of it alone "不等于true" (must be true) or
/// "为false" (must be true): 1 or 0. `None` for any other clause.
fn bool_statement(clause: &str, name: &str) -> Option<i64> {
    let c = BOOL_STATEMENT.captures(clause)?;
    if &c[1] != name {
        return None;
    }
    let stated = i64::from(c[3].eq_ignore_ascii_case("true"));
    let negated = c[2].starts_with('不') || &c[2] == "!=";
    // The clause is the error: "不等于true" leaves true the only value; "为false" leaves true.
    Some(if negated { stated } else { 1 - stated })
}
