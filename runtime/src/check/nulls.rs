//! The interpreter of the nulls rules (`Family::Nulls`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::NotNull { params } => params
            .iter()
            .try_for_each(|p| pred::not_null(p, arg(call, p).is_some())),
        Rule::IsNull { param } => pred::is_null(param, arg(call, param).is_some()),
        other => Err(wrong_family(other)),
    }
}
