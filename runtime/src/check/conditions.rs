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
        Rule::WhenStr {
            param,
            values,
            negate,
            rule,
        } => {
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            if pred::when_str(arg(call, param), &values, *negate) {
                super::eval(rule, call)
            } else {
                Ok(())
            }
        }
        Rule::WhenAnyElem {
            param,
            min,
            max,
            rule,
        } => {
            if pred::when_any_elem(arg(call, param), *min, *max) {
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
