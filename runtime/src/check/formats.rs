//! The interpreter of the formats rules (`Family::Formats`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::FormatIn { param, allowed } => pred::format_in(&tensors(call, param)?, allowed),
        Rule::FormatSame { params } => pred::format_same(&tensors_of_all(call, params)?),
        other => Err(wrong_family(other)),
    }
}
