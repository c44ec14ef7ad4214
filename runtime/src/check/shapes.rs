//! The interpreter of the shapes rules (`Family::Shapes`).

use super::*;

pub(super) fn eval(rule: &Rule, call: &Call) -> Result<(), String> {
    match rule {
        Rule::RankIn { param, min, max } => pred::rank_in(&tensors(call, param)?, *min, *max),
        Rule::RankSame { params } => pred::rank_same(&tensors_of_all(call, params)?),
        Rule::ShapeSame { params } => pred::shape_same(&tensors_of_all(call, params)?),
        Rule::ShapeMatchesList {
            param,
            list,
            trailing,
        } => {
            let ts = tensors(call, param)?;
            let values = pred::arg_int_list(list, arg(call, list))?;
            pred::shape_matches_list(&ts, list, values.as_deref(), *trailing)
        }
        Rule::ShapeFromList { param, base, list } => {
            let values = pred::arg_int_list(list, arg(call, list))?;
            pred::shape_from_list(
                &tensors(call, param)?,
                &tensors(call, base)?,
                list,
                values.as_deref(),
            )
        }
        Rule::ShapePadded { param, base, list } => {
            let values = pred::arg_int_list(list, arg(call, list))?;
            pred::shape_padded(
                &tensors(call, param)?,
                &tensors(call, base)?,
                list,
                values.as_deref(),
            )
        }
        Rule::ShapeReduced {
            param,
            base,
            dims,
            keepdim,
        } => {
            let values = pred::arg_ints(dims, arg(call, dims))?;
            let keep = pred::arg_ints(keepdim, arg(call, keepdim))?;
            pred::shape_reduced(
                &tensors(call, param)?,
                &tensors(call, base)?,
                dims,
                values.as_deref(),
                keep.as_deref(),
            )
        }
        Rule::Broadcastable { from, to, dims } => {
            pred::broadcastable(&tensors(call, from)?, &tensors(call, to)?, dims.as_deref())
        }
        Rule::BroadcastTogether { params } => {
            pred::broadcast_together(&tensors_of_all(call, params)?)
        }
        Rule::BroadcastShape { params, out } => {
            pred::broadcast_shape(&tensors_of_all(call, params)?, &tensors(call, out)?)
        }
        Rule::DimsPositive { param, allow_zero } => {
            pred::dims_positive(&tensors(call, param)?, *allow_zero)
        }
        Rule::NumelIn { param, values } => pred::numel_in(&tensors(call, param)?, values),
        Rule::NotEmpty { param } => pred::not_empty(&tensors(call, param)?),
        Rule::Contiguous { param } => pred::contiguous(&tensors(call, param)?),
        Rule::ProductsEqual { lhs, rhs } => pred::products_equal(
            &Factor::product_text(lhs),
            &factors(call, lhs),
            &Factor::product_text(rhs),
            &factors(call, rhs),
        ),
        Rule::ElementCountMax { param, dims, max } => {
            pred::element_count_max(&tensors(call, param)?, *dims, *max)
        }
        other => Err(wrong_family(other)),
    }
}
