//! Passes that bring a baseline call in line with rules its first construction misses: element
//! counts, tensor shapes stated as a list attribute, array lengths. Each
//! makes one kind of rule hold without breaking the others it was built for; `prove` demotes
//! only what no pass can satisfy.

use super::{int_list, set_tensors, tensor_of};
use aclnn_runtime::{Arg, Call, Rule};

/// Runs every pass, in an order where each later one sees what the earlier ones set.
pub(super) fn satisfy_counts_and_lists(rules: &[&Rule], call: &mut Call) {
    satisfy_numels(rules, call);
    satisfy_list_lengths(rules, call);
    satisfy_shapes_as_lists(rules, call);
    satisfy_scaled_dims(rules, call);
}

/// "lr的元素个数不为1": the tensor gets that many elements (the smallest positive count
/// allowed), its rank kept: [2, 2] with 1 allowed becomes [1, 1].
fn satisfy_numels(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        let Rule::NumelIn { param, values } = rule else {
            continue;
        };
        let Some(count) = values.iter().copied().filter(|v| *v > 0).min() else {
            continue;
        };
        let Some(t) = tensor_of(call, param) else {
            continue;
        };
        if t.shape.iter().product::<i64>() == count {
            continue;
        }
        *call = set_tensors(call, std::slice::from_ref(param), |t| {
            let rank = t.shape.len().max(1);
            t.shape = vec![1; rank];
            t.shape[rank - 1] = count;
            t.strides = None;
        });
    }
}

/// "outputMask的长度不为3": a bool or float array gets the first length its rule allows (an
/// integer array already does, `baseline_int_list`).
fn satisfy_list_lengths(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        let Rule::ListLenIn { param, lens } = rule else {
            continue;
        };
        let Some(len) = lens.iter().copied().filter(|l| *l > 0).min() else {
            continue;
        };
        match call.args.get_mut(param) {
            Some(Arg::BoolArray(v)) if !lens.contains(&v.len()) => v.resize(len, false),
            Some(Arg::FloatArray(v)) if !lens.contains(&v.len()) => v.resize(len, 1.0),
            _ => {}
        }
    }
}

/// "weight的shape与normalizedShape不相等": the list attribute takes the tensor's shape (its last
/// dims, as many as the list has, for `trailing`), so every tensor stated against it agrees.
fn satisfy_shapes_as_lists(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        let Rule::ShapeMatchesList {
            param,
            list,
            trailing,
        } = rule
        else {
            continue;
        };
        let (Some(t), Some(values)) = (tensor_of(call, param), int_list(call, list)) else {
            continue;
        };
        let shape = t.shape.clone();
        let wanted: Vec<i64> = if *trailing {
            let n = values.len().clamp(1, shape.len().max(1)).min(shape.len());
            shape[shape.len() - n..].to_vec()
        } else {
            shape
        };
        if wanted != values {
            call.args
                .insert(list.clone(), Arg::IntArray(wanted.clone()));
            // Tensors stated against the whole list take its shape too.
            for other in rules {
                if let Rule::ShapeMatchesList {
                    param: p,
                    list: l,
                    trailing: false,
                } = other
                {
                    if l == list && p != param {
                        *call = set_tensors(call, std::slice::from_ref(p), |t| {
                            t.shape = wanted.clone();
                            t.strides = None;
                        });
                    }
                }
            }
        }
    }
}

/// "x最后一维不等于gradY最后一维的2倍": the scaled dim takes `num/den` times the other's, where
/// that is a whole number.
pub(super) fn satisfy_scaled_dims(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        let Rule::DimsScaled {
            lhs,
            rhs,
            dim,
            dim_attr: None,
            num,
            den,
        } = rule
        else {
            continue;
        };
        let (Some(l), Some(r)) = (tensor_of(call, lhs), tensor_of(call, rhs)) else {
            continue;
        };
        let at =
            |rank: usize| usize::try_from(if *dim < 0 { rank as i64 + dim } else { *dim }).ok();
        let (Some(li), Some(ri)) = (at(l.shape.len()), at(r.shape.len())) else {
            continue;
        };
        let (Some(_), Some(&rd)) = (l.shape.get(li), r.shape.get(ri)) else {
            continue;
        };
        if *den == 0 || (rd * num) % den != 0 {
            continue;
        }
        let want = rd * num / den;
        *call = set_tensors(call, std::slice::from_ref(lhs), |t| {
            if let Some(d) = t.shape.get_mut(li) {
                *d = want;
            }
            t.strides = None;
        });
    }
}
