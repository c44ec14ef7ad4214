//! The interpreter of the dtypes rules (`Family::Dtypes`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::DtypeIn { param, allowed } => {
            let allowed = allowed.get(&call.product).map(Vec::as_slice);
            match arg(call, param) {
                Some(a @ Arg::Scalar { .. }) => {
                    pred::scalar_dtype_in(param, Some(a), allowed, &call.product)
                }
                _ => pred::dtype_in(&tensors(call, param)?, allowed, &call.product),
            }
        }
        Rule::DtypeSame { params } => pred::dtype_same(&tensors_of_all(call, params)?),
        Rule::DtypeIsArg { param, arg: a } => {
            pred::dtype_is_arg(&tensors(call, param)?, a, arg(call, a))
        }
        Rule::DtypePromotable { params } => pred::dtype_promotable(&tensors_of_all(call, params)?),
        Rule::DtypeCastable { from, to } => {
            pred::dtype_castable(&tensors_of_all(call, from)?, &tensors(call, to)?)
        }
        Rule::ScalarCastable { scalars, to, dtype } => {
            let target = match dtype {
                Some(d) => Some(*d),
                None => pred::promoted_dtype(&tensors_of_all(call, to)?),
            };
            scalars
                .iter()
                .try_for_each(|s| pred::scalar_castable(s, arg(call, s), target))
        }
        other => Err(wrong_family(other)),
    }
}
