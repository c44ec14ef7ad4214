//! What the recognizer's readers share: parameter names, one rule per tensor, "the same …"
//! rules, the tensors whose dtypes belong together.

use crate::ir::ManualKind;
use crate::ir::{Param, Role};
use crate::rules::Manual;
use aclnn_runtime::Rule;

pub(super) fn names(ps: &[&Param]) -> Vec<String> {
    ps.iter().map(|p| p.name.clone()).collect()
}

pub(super) fn tensor_rules(subjects: &[&Param], make: impl Fn(String) -> Rule) -> Vec<Rule> {
    subjects
        .iter()
        .filter(|p| p.role.is_tensor())
        .map(|p| make(p.name.clone()))
        .collect()
}

pub(super) fn same_rule(
    tensors: &[&Param],
    what: &str,
    make: impl Fn(Vec<String>) -> Rule,
) -> Result<Vec<Rule>, Manual> {
    let lists = tensors
        .iter()
        .any(|p| matches!(p.role, Role::InputTensorList | Role::OutputTensorList));
    if tensors.len() < 2 && !lists {
        return Err(Manual::new(
            ManualKind::UnknownName,
            format!("a {what} equality that names fewer than two tensors"),
        ));
    }
    Ok(vec![make(names(tensors))])
}

/// The tensors a "数据类型不一致" over `tensors` can mean: a tensor whose documented dtypes share
/// none with the others' (an INT32/INT64 index among FLOAT tensors, in "输入输出数据类型不一致")
/// can never have their dtype, so it is not one of them; nor is a tensor of one fixed dtype (a
/// FLOAT32 statistic or learning rate) beside a reference of several, which equality would leave
/// unusable ("传入的计算输入的数据类型不一致": ApplyAdam's FLOAT16 var with its FLOAT32 lr). The
/// reference is the tensor whose dtypes meet the most others'; tensors with no documented dtypes
/// stay.
pub(super) fn dtype_kin<'a>(tensors: &[&'a Param]) -> Vec<&'a Param> {
    use std::collections::BTreeSet;
    let sets: Vec<BTreeSet<aclnn_runtime::DType>> = tensors
        .iter()
        .map(|p| p.dtypes.values().flatten().copied().collect())
        .collect();
    let meets =
        |a: &BTreeSet<_>, b: &BTreeSet<_>| a.is_empty() || b.is_empty() || !a.is_disjoint(b);
    let Some(reference) = (0..sets.len()).max_by_key(|&i| {
        (
            sets.iter().filter(|s| meets(&sets[i], s)).count(),
            usize::MAX - i,
        )
    }) else {
        return Vec::new();
    };
    let fixed = |s: &BTreeSet<_>| s.len() == 1 && sets[reference].len() > 1;
    tensors
        .iter()
        .zip(&sets)
        .filter(|(_, s)| meets(&sets[reference], s) && !fixed(s))
        .map(|(p, _)| *p)
        .collect()
}

/// A list of dtypes as conditions write them ("INT4", "FLOAT16或FLOAT32", "DT_INT32、DT_INT64",
/// "FLOAT16/BFLOAT16"): `None` unless every token is a tensor dtype.
pub(super) fn dtype_list(list: &str) -> Option<Vec<aclnn_runtime::DType>> {
    let mut dtypes = Vec::new();
    for token in super::patterns::DTYPE_LIST_SEP.split(list) {
        let token = token
            .trim()
            .trim_start_matches("DT_")
            .trim_start_matches("ACL_");
        let dtype = aclnn_runtime::DType::parse(token).filter(|d| d.is_tensor_dtype())?;
        if !dtypes.contains(&dtype) {
            dtypes.push(dtype);
        }
    }
    (!dtypes.is_empty()).then_some(dtypes)
}
