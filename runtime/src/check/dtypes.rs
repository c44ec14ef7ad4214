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
        Rule::DtypePromotable { params } => {
            let (ts, ss) = operands(call, params)?;
            pred::dtype_promotable_with(&ts, &ss)
        }
        Rule::DtypeCastable { from, to } => {
            let (ts, ss) = operands(call, from)?;
            pred::dtype_castable_with(&ts, &ss, &tensors(call, to)?)
        }
        Rule::ScalarCastable { scalars, to, dtype } => {
            let target = match dtype {
                Some(d) => Some(*d),
                None => {
                    let (ts, ss) = operands(call, to)?;
                    pred::promoted_dtype_with(&ts, &ss)
                }
            };
            scalars
                .iter()
                .try_for_each(|s| pred::scalar_castable(s, arg(call, s), target))
        }
        other => Err(wrong_family(other)),
    }
}

/// The operands of a promotion: tensors, and the `aclScalar` arguments among them (told apart by
/// the call's argument, as the generated code tells them apart by the parameter's type).
fn operands<'a>(
    call: &'a Call,
    names: &[String],
) -> Result<(Vec<pred::Named<'a>>, Vec<pred::NamedScalar>), String> {
    let (mut ts, mut ss) = (Vec::new(), Vec::new());
    for name in names {
        match arg(call, name) {
            Some(a @ Arg::Scalar { .. }) => ss.extend(pred::scalars(&[(name, Some(a))])),
            _ => ts.extend(tensors(call, name)?),
        }
    }
    Ok((ts, ss))
}
