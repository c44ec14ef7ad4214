//! The promotion a tensor's text states (CANN's 数据类型推导规则): what dtype the op computes
//! in, for the outputs' inference (`rules::outputs`); never a check.

use super::unconditional_clauses;
use crate::ir::{OpIr, Param, Role};
use crate::rules::text;
use aclnn_runtime::Rule;

/// The promotion a clause of tensor `p`'s text states (`read::states_promotion`): an output "数据
/// 类型需要是self与target推导之后可转换的数据类型" is cast from the inputs' promoted dtype, an
/// input "数据类型与target的数据类型需满足数据类型推导规则" promotes with the inputs it names.
/// What the op computes in, for the outputs' inference; no check (no error row points at it).
pub fn promotion_rules(op: &OpIr, p: &Param) -> Vec<Rule> {
    let mut rules = Vec::new();
    for s in unconditional_clauses(p) {
        if !crate::read::states_promotion(&s) {
            continue;
        }
        let inputs: Vec<String> = text::mentions(op, &s)
            .into_iter()
            .map(|m| m.param)
            .filter(|q| q.name != p.name)
            .filter(|q| matches!(q.role, Role::InputTensor | Role::InOutTensor))
            .map(|q| q.name.clone())
            .collect();
        if inputs.is_empty() {
            continue;
        }
        rules.push(match p.role {
            Role::OutputTensor => Rule::DtypeCastable {
                from: inputs,
                to: p.name.clone(),
            },
            Role::InputTensor | Role::InOutTensor => Rule::DtypePromotable {
                params: std::iter::once(p.name.clone()).chain(inputs).collect(),
            },
            _ => continue,
        });
    }
    rules
}
