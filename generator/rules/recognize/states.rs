//! Conditions on a tensor's state: "当self为3维时，…", "X为空指针时，…", "当self为空tensor时，…",
//! and joint emptiness ("selfRef是空tensor，index不是空tensor"), read as `Rule::WhenTensor`.

use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind};
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{Rule, TensorState};

const NAMES: &str = r"[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:和|与|、|及)\s*[A-Za-z_][A-Za-z0-9_]*)*";

re!(
    STATE_WHEN,
    &format!(
        r"^(?:当|若|如果|在)?\s*(?:输入|参数)?\s*({NAMES})\s*(?:的)?\s*(维度|维数|rank)?\s*(不为|不是|为|是|等于)\s*(?:(\d+(?:\s*(?:或者|或|、)\s*\d+)*)\s*(维|[Dd])?|(scalar|标量)|(空指针|nullptr|NULL|null)|(空[Tt]ensor|空张量))\s*时\s*[，,]\s*"
    )
);
// "self为空Tensor，且numClasses小于等于0": the same state joined by 且 to a statement on another
// argument; the error is both at once (`state_and_prefix`).
re!(
    STATE_AND,
    &format!(
        r"^(?:输入|参数)?\s*({NAMES})\s*(?:的)?\s*(维度|维数|rank)?\s*(不为|不是|为|是|等于)\s*(?:(\d+(?:\s*(?:或者|或|、)\s*\d+)*)\s*(维|[Dd])?|(scalar|标量)|(空指针|nullptr|NULL|null)|(空[Tt]ensor|空张量))\s*[，,]?\s*(?:而且|并且|且)\s*"
    )
);
re!(LEADING_NAME, r"^[A-Za-z_][A-Za-z0-9_]*");
re!(BOTH, r"^(?:二者|两者)(?:的)?");
// "二维self不支持为空tensor" (ranks as digits by then): the rank qualifies the tensor.
re!(
    RANK_QUALIFIED,
    r"^((?:\d+\s*维?\s*(?:或者|或|、)\s*)*\d+)\s*维(?:的)?\s*(?:输入|参数)?\s*([A-Za-z_][A-Za-z0-9_]*)"
);
re!(NAME_JOIN, r"\s*(?:和|与|、|及)\s*");
re!(
    EMPTY_PART,
    r"^(?:当|若|如果|但是|但|而|同时)?\s*(.+?)\s*(?:是|为)?\s*(不是|不为|非)?\s*空(?:[Tt]ensor|张量)?\s*(?:时)?$"
);
re!(
    PASSED_WITHOUT,
    r"^(?:输入|传入)(?:了)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*[、，,]?\s*(?:而|但|但是)?\s*(?:没有|未)(?:输入|传入)\s*([A-Za-z_][A-Za-z0-9_]*)$"
);
re!(OR_NAMES, r"\s*(?:或者|或)\s*");

// "varRef为空且indices不为空tensor": a bare 为空 beside an empty tensor says the same.
re!(EMPTY_SHORT, r"(?:为|是)空$");
re!(PART_SPLIT, r"[，,；;]|(?:而且|并且|且)");

/// The parts of a joint condition: its clauses, and statements joined by 且.
pub(super) fn emptiness_parts(text: &str) -> impl Iterator<Item = &str> {
    PART_SPLIT
        .split(text)
        .map(str::trim)
        .filter(|p| !p.is_empty())
}

/// A tensor state under which the rest of a condition holds, for each parameter it names.
pub(super) type States = Vec<(String, TensorState)>;

/// A leading "当self为3维时，" / "indices维度为0时，" / "当source和selfRef不是scalar时，" /
/// "outputMaskOptional为空指针时，" / "当self为空tensor时，": the rest holds only in that state (for
/// several names, while each is in it). A prefix naming anything else is left as it is.
pub(super) fn strip_state_prefix(op: &OpIr, text: &str) -> (String, States) {
    if let Some(qualified) = strip_rank_qualifier(op, text) {
        return qualified;
    }
    let Some(c) = STATE_WHEN
        .captures(text)
        .or_else(|| state_and_prefix(op, text))
    else {
        return (text.to_string(), Vec::new());
    };
    let negate = c[3].starts_with('不');
    let aspect = c.get(2).is_some();
    let state = if let Some(ranks) = c.get(4) {
        // A bare number ("x为3时") is a value, not a rank.
        if !aspect && c.get(5).is_none() {
            return (text.to_string(), Vec::new());
        }
        let ranks: Vec<usize> = text::int_alternatives(ranks.as_str())
            .into_iter()
            .filter_map(|r| usize::try_from(r).ok())
            .collect();
        TensorState::Rank { ranks, negate }
    } else if aspect {
        // "维度为空指针" says nothing readable.
        return (text.to_string(), Vec::new());
    } else if c.get(6).is_some() {
        // "scalar": a 0-dim tensor.
        TensorState::Rank {
            ranks: vec![0],
            negate,
        }
    } else if c.get(7).is_some() {
        // "不为空指针时" is `strip_non_null_prefix`'s.
        if negate {
            return (text.to_string(), Vec::new());
        }
        TensorState::Null
    } else if negate {
        TensorState::NotEmpty
    } else {
        TensorState::Empty
    };
    let fits = |p: &Param| match state {
        TensorState::Null | TensorState::Present => has_presence(p),
        _ => p.role.is_tensor(),
    };
    let mut states = Vec::new();
    for name in NAME_JOIN.split(&c[1]) {
        match text::resolve(op, name.trim()).filter(|p| fits(p)) {
            Some(p) => states.push((p.name.clone(), state.clone())),
            None => return (text.to_string(), Vec::new()),
        }
    }
    let rest = text[c.get(0).map_or(0, |m| m.end())..].trim();
    // "当source和selfRef不是scalar时，二者维度不同": the two the prefix names.
    let rest = match (BOTH.find(rest), states.as_slice()) {
        (Some(m), [(a, _), (b, _)]) => format!("{a}和{b}{}", &rest[m.end()..]),
        _ => rest.to_string(),
    };
    (rest, states)
}

/// "self为空Tensor，且numClasses小于等于0": a state joined by 且 to a statement that begins with
/// another argument's name (one about the same tensor, "self为空tensor且self后3个维度的值存在0",
/// is a kind of empty tensor, which the emptiness reader reads).
fn state_and_prefix<'t>(op: &OpIr, text: &'t str) -> Option<regex::Captures<'t>> {
    let c = STATE_AND.captures(text)?;
    let rest = &text[c.get(0)?.end()..];
    let next = text::resolve(op, LEADING_NAME.find(rest)?.as_str())?;
    let named: Vec<&str> = NAME_JOIN.split(&c[1]).map(str::trim).collect();
    (!named.contains(&next.name.as_str())).then_some(c)
}

/// "2维self不支持为空tensor": what follows holds of self while it has that rank, as
/// "当self为2维时，self不支持为空tensor" says.
fn strip_rank_qualifier(op: &OpIr, text: &str) -> Option<(String, States)> {
    let c = RANK_QUALIFIED.captures(text)?;
    let p = text::resolve(op, &c[2]).filter(|p| p.role.is_tensor())?;
    let ranks: Vec<usize> = text::int_alternatives(&c[1])
        .into_iter()
        .filter_map(|r| usize::try_from(r).ok())
        .collect();
    let state = TensorState::Rank {
        ranks,
        negate: false,
    };
    let rest = format!("{}{}", p.name, &text[c.get(0).map_or(0, |m| m.end())..]);
    Some((rest, vec![(p.name.clone(), state)]))
}

/// Whether the validators see the argument as null or not: tensors, aclnn's arrays, scalars and
/// strings (a `const float*` is plumbing they do not read, which would always look null).
pub(super) fn has_presence(p: &Param) -> bool {
    p.role.is_tensor()
        || matches!(
            p.kind(),
            ParamKind::Scalar
                | ParamKind::ScalarList
                | ParamKind::IntArray
                | ParamKind::FloatArray
                | ParamKind::BoolArray
                | ParamKind::Str
        )
}

/// `rule` under every state of `states`, the first outermost.
pub(super) fn wrap(states: &[(String, TensorState)], rule: Rule) -> Rule {
    states
        .iter()
        .rev()
        .fold(rule, |rule, (param, state)| Rule::WhenTensor {
            param: param.clone(),
            state: state.clone(),
            rule: Box::new(rule),
        })
}

/// "selfRef是空tensor，index不是空tensor", "self与indices不为空Tensor，gradOutput为空Tensor",
/// "self为空tensor，且scaleOptional或shiftOptional不为空tensor": an error only while every part
/// holds at once. One tensor said to be empty becomes `NotEmpty`, under the states of the others;
/// names joined by 或 are alternatives, each its own rule. A null tensor is in neither state, so
/// the rule skips it.
pub(super) fn joint_emptiness_rules(op: &OpIr, text: &str) -> Result<Vec<Rule>, Manual> {
    let unread = || {
        Manual::new(
            ManualKind::Vocabulary,
            format!(
                "a joint emptiness condition on several tensors (“{text}”) that is not read whole"
            ),
        )
    };
    // Per part, its alternatives, each a conjunction of (tensor, is empty).
    let mut parts: Vec<Vec<Vec<(String, bool)>>> = Vec::new();
    for part in emptiness_parts(text) {
        let c = EMPTY_PART.captures(part).ok_or_else(unread)?;
        let empty = c.get(2).is_none();
        let mut alternatives = Vec::new();
        for alternative in OR_NAMES.split(&c[1]) {
            let mut all = Vec::new();
            for name in NAME_JOIN.split(alternative) {
                let p = text::resolve(op, name.trim())
                    .filter(|p| p.role.is_tensor())
                    .ok_or_else(unread)?;
                all.push((p.name.clone(), empty));
            }
            alternatives.push(all);
        }
        parts.push(alternatives);
    }
    // Every choice of one alternative per part.
    let mut choices: Vec<Vec<(String, bool)>> = vec![Vec::new()];
    for alternatives in &parts {
        choices = choices
            .iter()
            .flat_map(|chosen| {
                alternatives.iter().map(move |a| {
                    let mut next = chosen.clone();
                    next.extend(a.iter().cloned());
                    next
                })
            })
            .collect();
    }
    let mut rules = Vec::new();
    for chosen in choices {
        let Some(i) = chosen.iter().position(|(_, empty)| *empty) else {
            return Err(unread());
        };
        let states: States = chosen
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, (p, empty))| {
                let state = if *empty {
                    TensorState::Empty
                } else {
                    TensorState::NotEmpty
                };
                (p.clone(), state)
            })
            .collect();
        let inner = Rule::NotEmpty {
            param: chosen[i].0.clone(),
        };
        rules.push(wrap(&states, inner));
    }
    Ok(rules)
}

/// "输入smoothScale2Optional，而没有输入smoothScale1Optional": one pointer passed without the other,
/// the other's null check while the first is present.
pub(super) fn passed_without(op: &OpIr, clause: &str) -> Option<Rule> {
    let c = PASSED_WITHOUT.captures(clause)?;
    let passed = text::resolve(op, &c[1]).filter(|p| has_presence(p))?;
    let missing = text::resolve(op, &c[2]).filter(|p| has_presence(p))?;
    Some(Rule::WhenTensor {
        param: passed.name.clone(),
        state: TensorState::Present,
        rule: Box::new(Rule::NotNull {
            params: vec![missing.name.clone()],
        }),
    })
}
