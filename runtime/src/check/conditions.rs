//! The interpreter of the conditions rules (`Family::Conditions`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::When {
            param,
            index,
            values,
            negate,
            rule,
        } => {
            if pred::when(arg(call, param), *index, values, *negate) {
                super::eval(rule, call)
            } else {
                Ok(())
            }
        }
        Rule::WhenDtype {
            param,
            dtypes,
            rule,
        } => {
            if pred::has_dtype(&tensors(call, param)?, dtypes) {
                super::eval(rule, call)
            } else {
                Ok(())
            }
        }
        Rule::WhenTensor { param, state, rule } => {
            if pred::when_tensor(arg(call, param), state) {
                super::eval(rule, call)
            } else {
                Ok(())
            }
        }
        Rule::OnProducts { products, rule } => {
            if products.contains(&call.product) {
                super::eval(rule, call)
            } else {
                Ok(())
            }
        }
        other => Err(wrong_family(other)),
    }
}
