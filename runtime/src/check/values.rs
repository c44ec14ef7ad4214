//! The interpreter of the values rules (`Family::Values`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::ListLenSame { params } => {
            let mut lens = Vec::new();
            for p in params {
                if let Some(len) = pred::arg_list_len(p, arg(call, p))? {
                    lens.push((p.as_str(), len));
                }
            }
            pred::list_len_same(&lens)
        }
        Rule::ListLenIn { param, lens } => match pred::arg_list_len(param, arg(call, param))? {
            None => Ok(()),
            Some(len) => pred::list_len_in(param, len, lens),
        },
        Rule::ListElemsInRange { param, min, max } => {
            match pred::arg_int_list(param, arg(call, param))? {
                None => Ok(()),
                Some(v) => pred::list_elems_in_range(param, &v, *min, *max),
            }
        }
        Rule::ListUnique { param } => match pred::arg_int_list(param, arg(call, param))? {
            None => Ok(()),
            Some(v) => pred::list_unique(param, &v),
        },
        Rule::IntInRange { param, min, max } => match arg(call, param) {
            None => Ok(()),
            Some(a) => pred::value_in_range(param, a, *min, *max),
        },
        Rule::ValueNot { param, value } => match arg(call, param) {
            None => Ok(()),
            Some(a) => pred::value_not(param, a, *value),
        },
        Rule::AxisIn { param, tensor } => {
            let ts = tensors(call, tensor)?;
            pred::axis_in(param, arg(call, param), &ts)
        }
        Rule::PadsBelowDims { param, tensor } => {
            let values = pred::arg_int_list(param, arg(call, param))?;
            pred::pads_below_dims(param, values.as_deref(), &tensors(call, tensor)?)
        }
        Rule::ValueAtMost { lhs, rhs } => {
            pred::value_at_most(lhs, arg(call, lhs), rhs, arg(call, rhs))
        }
        Rule::AttrMultipleOf { param, by } => {
            pred::attr_multiple_of(param, arg(call, param), by, arg(call, by))
        }
        Rule::IntIn { param, values } => match pred::arg_ints(param, arg(call, param))? {
            None => Ok(()),
            Some(vs) => vs
                .into_iter()
                .try_for_each(|v| pred::int_in(param, v, values)),
        },
        Rule::StrIn { param, values } => match pred::arg_str(param, arg(call, param))? {
            None => Ok(()),
            Some(v) => pred::str_in(param, v, values),
        },
        Rule::ListElemsAtMostFraction { lhs, rhs, num, den } => {
            let l = pred::arg_int_list(lhs, arg(call, lhs))?;
            let r = pred::arg_int_list(rhs, arg(call, rhs))?;
            match (l, r) {
                (Some(l), Some(r)) => {
                    pred::list_elems_at_most_fraction(lhs, &l, rhs, &r, *num, *den)
                }
                _ => Ok(()),
            }
        }
        other => Err(wrong_family(other)),
    }
}
