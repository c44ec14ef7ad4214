//! Null pointers: "self为空指针", "当bias不为空时…".

use super::group_subjects;
use super::patterns::*;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, Role};
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{Rule, TensorState};

re!(
    NULL_ALL,
    r"必选|非可选|指针类型|入参|^(?:传入的)?(?:参数|[Tt]ensor|[Tt]ensor或[Tt]ensorList|输入参数)(?:是|为)"
);

// "tensor" as a subject of its own among names, no parameter's name ("传入的tensor或out是空指针";
// not "x中存在空指针Tensor", a null tensor of x).
re!(
    TENSOR_NOUN,
    r"(?:^|传入的?|[、，,或和与])\s*[Tt]ensor\s*(?:[、，,或和与]|是|为)"
);

// "p与k同为空指针", "A和B同时为空指针": both null at once is the error, each alone is not ("都为"
// and "均为" may say either, so they are left to the other readings).
re!(
    BOTH_NULL,
    r"^(?:传入的)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:与|和|、|及)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:同时|同)\s*(?:为|是)\s*空指针$"
);

/// `conditional`: the clause holds under a `When`, so optional parameters count too
/// ("当outputMask[0]为true，gradInput是空指针").
pub(super) fn null_rules(op: &OpIr, clause: &str, conditional: bool) -> Result<Vec<Rule>, Manual> {
    if MUST_BE_NULL.is_match(clause) {
        return must_be_null(op, clause);
    }
    if let Some(c) = BOTH_NULL.captures(clause) {
        return both_null(op, &c[1], &c[2], clause);
    }
    if NULL_ALL.is_match(clause) {
        let params: Vec<String> = op
            .params
            .iter()
            .filter(|p| text::is_pointer(p) && !p.optional)
            .map(|p| p.name.clone())
            .collect();
        return non_empty_null(params, clause);
    }
    if CONDITIONAL.is_match(&clause.replace("当前", "")) || clause.contains('且') {
        return Err(Manual::new(
            ManualKind::Conditional,
            format!(
                "a null check conditional on other arguments (“{clause}”) is not in the vocabulary"
            ),
        ));
    }
    let mentions = text::mentions(op, clause);
    let mut subjects: Vec<&Param> = if mentions.is_empty() {
        group_subjects(op, clause)
    } else {
        mentions.iter().map(|m| m.param).collect()
    };
    let tensor_param = op
        .params
        .iter()
        .any(|p| p.name.eq_ignore_ascii_case("tensor"));
    if !mentions.is_empty() && !tensor_param && TENSOR_NOUN.is_match(clause) {
        // "传入的tensor或out是空指针": "tensor" beside a named output is the op's input tensors.
        let mut inputs: Vec<&Param> = text::input_tensors(op)
            .into_iter()
            .filter(|p| !subjects.iter().any(|s| s.name == p.name))
            .collect();
        inputs.append(&mut subjects);
        subjects = inputs;
    }
    let params = subjects
        .iter()
        .filter(|p| text::is_pointer(p) && (conditional || !p.optional))
        .map(|p| p.name.clone())
        .collect();
    non_empty_null(params, clause)
}

/// "quantOffsetOptional不为空指针", "传入的bias不是空指针": each optional tensor named must be null
/// (a parameter the doc reserves). A required one, or a clause with a condition of its own, stays
/// manual: the doc then says something else than "never pass it".
fn must_be_null(op: &OpIr, clause: &str) -> Result<Vec<Rule>, Manual> {
    let named: Vec<&Param> = text::mentions(op, clause)
        .into_iter()
        .map(|m| m.param)
        .collect();
    let reserved = !named.is_empty()
        && named.iter().all(|p| {
            p.optional
                && matches!(
                    p.role,
                    Role::InputTensor | Role::OutputTensor | Role::InOutTensor
                )
        });
    if !reserved || CONDITIONAL.is_match(&clause.replace("当前", "")) || clause.contains('且') {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!(
            "a pointer that must be null (“{clause}”) names a required or non-tensor parameter, \
             or holds under a condition"
        ),
        ));
    }
    Ok(named
        .iter()
        .map(|p| Rule::IsNull {
            param: p.name.clone(),
        })
        .collect())
}

/// "p与k同为空指针": `b` must be passed while `a` is null.
fn both_null(op: &OpIr, a: &str, b: &str, clause: &str) -> Result<Vec<Rule>, Manual> {
    let pointer = |name: &str| text::resolve(op, name).filter(|p| text::is_pointer(p));
    let (Some(a), Some(b)) = (pointer(a), pointer(b)) else {
        return Err(Manual::new(
            ManualKind::UnknownName,
            format!(
                "a joint null check (“{clause}”) names a parameter that is no pointer of the op"
            ),
        ));
    };
    Ok(vec![Rule::WhenTensor {
        param: a.name.clone(),
        state: TensorState::Null,
        rule: Box::new(Rule::NotNull {
            params: vec![b.name.clone()],
        }),
    }])
}

pub(super) fn non_empty_null(params: Vec<String>, clause: &str) -> Result<Vec<Rule>, Manual> {
    if params.is_empty() {
        Err(Manual::new(
            ManualKind::UnknownName,
            format!("names no required pointer parameter (“{clause}”): optional ones may be null"),
        ))
    } else {
        Ok(vec![Rule::NotNull { params }])
    }
}
