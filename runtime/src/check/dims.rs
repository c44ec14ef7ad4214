//! The interpreter of the dims rules (`Family::Dims`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::DimsEqual {
            lhs,
            lhs_dim,
            rhs,
            rhs_dim,
        } => pred::dims_equal(
            &tensors(call, lhs)?,
            *lhs_dim,
            &tensors(call, rhs)?,
            *rhs_dim,
        ),
        Rule::DimMultipleOf {
            param,
            dim,
            dim_attr,
            by,
        } => {
            let ts = tensors(call, param)?;
            let dim = dim_of(call, *dim, dim_attr.as_deref())?;
            dim.map_or(Ok(()), |d| pred::dim_multiple_of(&ts, d, *by))
        }
        Rule::DimInRange {
            param,
            dim,
            min,
            max,
        } => pred::dim_in_range(&tensors(call, param)?, *dim, *min, *max),
        Rule::DimMatchesChannel {
            param,
            dim,
            tensor,
            layout_attr,
        } => {
            let layout = match layout_attr {
                Some(a) => pred::arg_str(a, arg(call, a))?,
                None => None,
            };
            pred::dim_matches_channel(
                &tensors(call, param)?,
                *dim,
                &tensors(call, tensor)?,
                layout,
            )
        }
        Rule::DimsScaled {
            lhs,
            rhs,
            dim,
            dim_attr,
            num,
            den,
        } => {
            let (l, r) = (tensors(call, lhs)?, tensors(call, rhs)?);
            match dim_of(call, *dim, dim_attr.as_deref())? {
                None => Ok(()),
                Some(d) => pred::dims_scaled(&l, &r, d, *num, *den),
            }
        }
        Rule::ShapeSameExcept {
            lhs,
            rhs,
            dim,
            dim_attr,
        } => {
            let (l, r) = (tensors(call, lhs)?, tensors(call, rhs)?);
            match dim_of(call, *dim, dim_attr.as_deref())? {
                None => Ok(()),
                Some(d) => pred::shape_same_except(&l, &r, d),
            }
        }
        Rule::DimsAtMost {
            lhs,
            rhs,
            except_attr,
        } => {
            let (l, r) = (tensors(call, lhs)?, tensors(call, rhs)?);
            match except_attr {
                None => pred::dims_at_most(&l, &r, None),
                Some(a) => match dim_of(call, 0, Some(a))? {
                    None => Ok(()),
                    Some(d) => pred::dims_at_most(&l, &r, Some(d)),
                },
            }
        }
        other => Err(wrong_family(other)),
    }
}
