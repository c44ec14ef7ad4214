//! The baseline call of an op on a product: one valid call every rule accepts, built group by
//! group (tensors tied by a rule share dtype, format, rank and shape), then adjusted until the
//! rules it switched on hold. The cases mutate it.

use super::*;

pub(super) fn tensor_params(op: &OpIr) -> impl Iterator<Item = &str> {
    op.params
        .iter()
        .filter(|p| p.role.is_tensor())
        .map(|p| p.name.as_str())
}

/// The baseline call of `op` on `product`.
pub fn baseline(op: &OpIr, rules: &[CheckedRule], product: &str) -> Call {
    let active = active_rules(rules, product);
    let g = groups(&active);
    let mut args = BTreeMap::new();
    // A pointer the doc reserves stays null.
    let must_be_null = |name: &str| {
        active
            .iter()
            .any(|r| matches!(r, Rule::IsNull { param } if param == name))
    };
    for p in op.params.iter().filter(|p| !must_be_null(&p.name)) {
        let arg = match p.role {
            Role::InputTensor | Role::OutputTensor | Role::InOutTensor => Some(Arg::Tensor(
                baseline_tensor(op, &active, &g, &p.name, product),
            )),
            Role::InputTensorList | Role::OutputTensorList => {
                Some(Arg::TensorList(vec![baseline_tensor(
                    op, &active, &g, &p.name, product,
                )]))
            }
            Role::Attribute => baseline_attribute(&active, &p.name, p.kind()),
            Role::WorkspaceSize | Role::Executor | Role::Workspace | Role::Stream => None,
        };
        if let Some(arg) = arg {
            args.insert(p.name.clone(), arg);
        }
    }
    let mut call = Call {
        product: product.to_string(),
        args,
    };
    satisfy_given_dtypes(op, &active, &g, &mut call);
    satisfy_dtype_args(&active, &mut call);
    satisfy_scalar_promotions(&active, &mut call);
    // A scalar takes the dtype its cast target has when the default FLOAT32 cannot be cast
    // to it (an INT32 self rejects a FLOAT alpha); after the promotions' scalars, which the
    // target may include.
    for rule in &active {
        if let Rule::ScalarCastable { scalars, to, dtype } = rule {
            let target = cast_target(&call, to, *dtype);
            for s in scalars {
                if let (Some(Arg::Scalar { dtype, .. }), Some(t)) = (call.args.get_mut(s), target) {
                    if !aclnn_runtime::pred::can_cast(*dtype, t) {
                        *dtype = t;
                    }
                }
            }
        }
    }
    satisfy_int_relations(&active, &mut call);
    satisfy_shapes_from_lists(&active, &mut call);
    satisfy::satisfy_counts_and_lists(&active, &mut call);
    satisfy_shapes_from_lists(&active, &mut call);
    switch_off_failing_conditions(&active, &mut call);
    call
}

/// The rule a `When` holds on `call` where its integer condition is met; the rule itself
/// otherwise.
pub(super) fn in_force<'a>(rule: &'a Rule, call: &Call) -> &'a Rule {
    match rule {
        Rule::When {
            param,
            index: None,
            values,
            negate,
            rule: inner,
        } => match call.args.get(param) {
            Some(Arg::Int(v)) if values.contains(v) != *negate => in_force(inner, call),
            _ => rule,
        },
        _ => rule,
    }
}

/// A conditional rule the baseline breaks ("reduction是none时，gradOutput的维数不是3…"), where
/// another value of its integer attribute leaves the condition unmet: the baseline takes that
/// value, if it breaks fewer rules so. A valid call need not meet every condition.
pub(super) fn switch_off_failing_conditions(rules: &[&Rule], call: &mut Call) {
    let failures = |c: &Call| rules.iter().filter(|r| eval(r, c).is_err()).count();
    for rule in rules {
        let Rule::When {
            param,
            index: None,
            values,
            negate,
            ..
        } = rule
        else {
            continue;
        };
        if eval(rule, call).is_ok() || !matches!(call.args.get(param), Some(Arg::Int(_))) {
            continue;
        }
        let allowed = listed_int_values(rules, param)
            .unwrap_or_else(|| values.iter().map(|v| v + 1).chain([0]).collect());
        // Values that leave the condition unmet: outside `values`, or inside them if negated.
        let off = allowed
            .into_iter()
            .filter(|v| values.contains(v) == *negate)
            .map(|v| {
                // The rules the new value puts in force get their counts and lists.
                let mut c = with_arg(call, param, Arg::Int(v));
                let in_force: Vec<&Rule> = rules.iter().map(|r| in_force(r, &c)).collect();
                satisfy::satisfy_counts_and_lists(&in_force, &mut c);
                c
            })
            .min_by_key(failures);
        if let Some(better) = off.filter(|c| failures(c) < failures(call)) {
            *call = better;
        }
    }
}

/// A scalar takes the first dtype its `DtypeIn` allows on the call's product, where the default
/// FLOAT32 is not allowed; so does a tensor (with its dtype group) whose list is stated against
/// another tensor's dtype (`WhenDtype`) the baseline meets.
pub(super) fn satisfy_given_dtypes(op: &OpIr, rules: &[&Rule], g: &Groups, call: &mut Call) {
    for rule in rules {
        let (rule, on) = match rule {
            Rule::WhenDtype {
                param,
                dtypes,
                rule,
            } if tensor_of(call, param).is_some_and(|t| dtypes.contains(&t.dtype)) => {
                (rule.as_ref(), Some(param))
            }
            other => (*other, None),
        };
        let Rule::DtypeIn { param, allowed } = rule else {
            continue;
        };
        let Some(list) = allowed.get(&call.product) else {
            continue;
        };
        let Some(&first) = list.first() else {
            continue;
        };
        match call.args.get_mut(param) {
            Some(Arg::Scalar { dtype, .. }) if !list.contains(dtype) => *dtype = first,
            Some(Arg::Tensor(_) | Arg::TensorList(_)) => {
                let Some(on) = on else {
                    continue;
                };
                let group = g.dtype.members(param, tensor_params(op));
                let held = tensor_of(call, param).is_some_and(|t| list.contains(&t.dtype));
                if !held && !group.contains(on) {
                    for name in &group {
                        set_dtype(call, name, first);
                    }
                }
            }
            _ => {}
        }
    }
}

pub(super) fn set_dtype(call: &mut Call, name: &str, dtype: aclnn_runtime::DType) {
    match call.args.get_mut(name) {
        Some(Arg::Tensor(t)) => t.dtype = dtype,
        Some(Arg::TensorList(ts)) => ts.iter_mut().for_each(|t| t.dtype = dtype),
        _ => {}
    }
}

/// An `aclDataType` argument names the dtype its `DtypeIsArg` tensor has. An integer attribute
/// holding a dtype's number ("dstType") takes the tensor's number where its own rules allow
/// that number; otherwise the tensor takes the dtype the attribute's baseline value names.
pub(super) fn satisfy_dtype_args(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        let Rule::DtypeIsArg { param, arg } = rule else {
            continue;
        };
        let Some(d) = tensor_of(call, param).map(|t| t.dtype) else {
            continue;
        };
        match call.args.get_mut(arg) {
            Some(a @ Arg::DataType(_)) => *a = Arg::DataType(d),
            Some(Arg::Int(v)) => match d.acl_value().map(i64::from) {
                Some(n) if int_value_allowed(rules, arg, n) => *v = n,
                _ => {
                    let named = aclnn_runtime::pred::acl_number_dtype(*v);
                    if let Some(named) = named {
                        set_dtype(call, param, named);
                    }
                }
            },
            _ => {}
        }
    }
}

/// Whether the `IntIn` rule on `name` (if any) allows `n`.
pub(super) fn int_value_allowed(rules: &[&Rule], name: &str, n: i64) -> bool {
    listed_int_values(rules, name).is_none_or(|values| values.contains(&n))
}

/// The values an `IntIn` rule lists for integer attribute `name`, if one does.
pub(super) fn listed_int_values(rules: &[&Rule], name: &str) -> Option<Vec<i64>> {
    rules.iter().find_map(|r| match r {
        Rule::IntIn { param, values } if param == name => Some(values.clone()),
        _ => None,
    })
}

/// A mutated call, then (when it differs) the same call with its `ShapeFromList` tensors
/// shaped anew: a list made one longer must not trip the shape its old length gave.
pub(super) fn with_shapes_rederived(rules: &[&Rule], call: Call) -> Vec<Call> {
    let mut again = call.clone();
    satisfy_shapes_from_lists(rules, &mut again);
    if again == call {
        vec![call]
    } else {
        vec![call, again]
    }
}

/// A `ShapeFromList` tensor takes the shape its base and list give: self [2, 2, 2, 2] with
/// outputSize [1, 1] makes out [2, 2, 1, 1]; a `ShapePadded` one its base padded by the list.
pub(super) fn satisfy_shapes_from_lists(rules: &[&Rule], call: &mut Call) {
    for rule in rules {
        if let Rule::ShapeReduced { param, .. } = rule {
            if let Some(shape) = reduced_shape_of(rule, call) {
                *call = set_tensors(call, std::slice::from_ref(param), |t| {
                    t.shape = shape.clone();
                    t.strides = None;
                });
            }
            continue;
        }
        let (Rule::ShapeFromList { param, base, list } | Rule::ShapePadded { param, base, list }) =
            rule
        else {
            continue;
        };
        let (Some(b), Some(l)) = (tensor_of(call, base), int_list(call, list)) else {
            continue;
        };
        let shape = if matches!(rule, Rule::ShapePadded { .. }) {
            aclnn_runtime::pred::padded_shape(&b.shape, &l)
        } else {
            b.rank()
                .checked_sub(l.len())
                .map(|kept| b.shape[..kept].iter().chain(&l).copied().collect())
        };
        let Some(shape) = shape else {
            continue;
        };
        *call = set_tensors(call, std::slice::from_ref(param), |t| {
            t.shape = shape.clone();
            t.strides = None;
        });
    }
}

/// The shape a `ShapeReduced` rule gives its tensor in `call` (`None` where it states none).
pub(super) fn reduced_shape_of(rule: &Rule, call: &Call) -> Option<Vec<i64>> {
    let Rule::ShapeReduced {
        base,
        dims,
        keepdim,
        ..
    } = rule
    else {
        return None;
    };
    let ints = |name: &str| aclnn_runtime::pred::arg_ints(name, call.args.get(name)).ok()?;
    let dims = ints(dims).filter(|d| !d.is_empty())?;
    let [keep] = ints(keepdim)?[..] else {
        return None;
    };
    aclnn_runtime::pred::reduced_shape(&tensor_of(call, base)?.shape, &dims, keep != 0)
}

/// Integer attributes the relations pin take their values, fewest unknowns first:
/// "self在C维度上的空间大小不等于C" makes C self's second dim, then "self的元素数量不等于N*C*HxW"
/// leaves N 1 and solves HxW. A divisor ("C不能被group整除") no relation pins is 1.
pub(super) fn satisfy_int_relations(rules: &[&Rule], call: &mut Call) {
    let mut pinned: BTreeSet<String> = BTreeSet::new();
    let mut equalities: Vec<(&Vec<Factor>, &Vec<Factor>)> = rules
        .iter()
        .filter_map(|r| match r {
            Rule::ProductsEqual { lhs, rhs } => Some((lhs, rhs)),
            _ => None,
        })
        .collect();
    let free = |fs: &[Factor], call: &Call, pinned: &BTreeSet<String>| -> Vec<String> {
        fs.iter()
            .filter_map(|f| match f {
                Factor::Attr(a)
                    if !pinned.contains(a) && matches!(call.args.get(a), Some(Arg::Int(_))) =>
                {
                    Some(a.clone())
                }
                _ => None,
            })
            .collect()
    };
    equalities.sort_by_key(|(l, r)| l.len() + r.len());
    for (lhs, rhs) in equalities {
        for (one, other) in [(lhs, rhs), (rhs, lhs)] {
            let unknown = free(one, call, &pinned);
            let Some((last, rest)) = unknown.split_last() else {
                continue;
            };
            if !free(other, call, &pinned).is_empty() {
                continue;
            }
            for a in rest {
                call.args.insert(a.clone(), Arg::Int(1));
            }
            call.args.insert(last.clone(), Arg::Int(1));
            let (Some(target), Some(known)) = (product_on(call, other), product_on(call, one))
            else {
                continue;
            };
            if known != 0 && target % known == 0 {
                call.args.insert(last.clone(), Arg::Int(target / known));
                pinned.extend(unknown.iter().cloned());
                break;
            }
        }
    }
    for rule in rules {
        if let Rule::AttrMultipleOf { by, .. } = rule {
            if !pinned.contains(by) {
                if let Some(Arg::Int(v)) = call.args.get_mut(by) {
                    *v = 1;
                }
            }
        }
    }
}

/// A scalar a `DtypeCastable` promotes with takes the tensors' promoted dtype where its own
/// would lift the result past what `to` holds (an INT32 self and out reject a FLOAT value).
pub(super) fn satisfy_scalar_promotions(rules: &[&Rule], call: &mut Call) {
    use aclnn_runtime::pred;
    for rule in rules {
        let Rule::DtypeCastable { from, to } = rule else {
            continue;
        };
        let ts: Vec<pred::Named> = from
            .iter()
            .filter_map(|t| tensor_of(call, t).map(|d| (t.clone(), d)))
            .collect();
        let (Some(p), Some(out)) = (pred::promoted_dtype(&ts), tensor_of(call, to)) else {
            continue;
        };
        let out = out.dtype;
        for s in from {
            if let Some(Arg::Scalar { dtype, .. }) = call.args.get_mut(s) {
                if pred::promote_with_scalar(p, *dtype).is_none_or(|r| !pred::can_cast(r, out)) {
                    *dtype = p;
                }
            }
        }
    }
}

/// The product of `factors` on `call`, when every one is known (as the runtime reads them).
pub(super) fn product_on(call: &Call, factors: &[Factor]) -> Option<i64> {
    use aclnn_runtime::pred;
    let tensor = |p: &str| pred::one(p, tensor_of(call, p));
    factors.iter().try_fold(1i64, |acc, f| {
        let v = match f {
            Factor::Attr(p) => call.args.get(p).and_then(Arg::as_int),
            Factor::Dim { param, dim } => pred::factor_dim(&tensor(param), *dim),
            Factor::DimsFrom { param, from } => pred::factor_dims_from(&tensor(param), *from),
            Factor::Numel(p) => pred::factor_numel(&tensor(p)),
        }?;
        acc.checked_mul(v)
    })
}

/// The dtype a `ScalarCastable` casts to on `call`: its own, else the promoted dtype of `to`
/// (its tensors and scalars).
pub(super) fn cast_target(call: &Call, to: &[String], dtype: Option<DType>) -> Option<DType> {
    use aclnn_runtime::pred;
    dtype.or_else(|| {
        let ts: Vec<pred::Named> = to
            .iter()
            .filter_map(|t| tensor_of(call, t).map(|d| (t.clone(), d)))
            .collect();
        let args: Vec<(&str, Option<&Arg>)> =
            to.iter().map(|t| (t.as_str(), call.args.get(t))).collect();
        pred::promoted_dtype_with(&ts, &pred::scalars(&args))
    })
}

pub(super) fn baseline_tensor(
    op: &OpIr,
    rules: &[&Rule],
    g: &Groups,
    name: &str,
    product: &str,
) -> TensorDesc {
    let shape_group = g.shape.members(name, tensor_params(op));
    let mut rank = group_rank(rules, &shape_group);
    // Shapes equal but one dim have one rank: the larger of the two groups' ranks.
    for rule in rules {
        if let Rule::ShapeSameExcept { lhs, rhs, .. } = rule {
            for (a, b) in [(lhs, rhs), (rhs, lhs)] {
                if shape_group.contains(a) && !shape_group.contains(b) {
                    let other = g.shape.members(b, tensor_params(op));
                    rank = rank.max(group_rank(rules, &other));
                }
            }
        }
    }
    let dtype_group = g.dtype.members(name, tensor_params(op));
    let dtype = group_dtype(op, rules, &dtype_group, product);
    let format_group = g.format.members(name, tensor_params(op));
    let format = group_format(op, rules, &format_group, rank);
    TensorDesc::new(&group_shape(rules, &shape_group, rank), dtype, format)
}

/// Every dim 2, except dims a `DimMultipleOf` of a member pins to a multiple (every dim when
/// an attribute names it).
pub(super) fn group_shape(rules: &[&Rule], members: &[String], rank: usize) -> Vec<i64> {
    let mut shape = vec![2i64; rank];
    let at = |dim: i64, dim_attr: &Option<String>| {
        let d = dim_attr.as_ref().map_or(dim, |a| baseline_int(rules, a));
        let i = if d < 0 { rank as i64 + d } else { d };
        usize::try_from(i).ok().filter(|i| *i < rank)
    };
    // lhs = rhs·num/den: 2·num on the left, 2·den on the right.
    for rule in rules {
        if let Rule::DimsScaled {
            lhs,
            rhs,
            dim,
            dim_attr,
            num,
            den,
        } = rule
        {
            for (side, k) in [(lhs, num), (rhs, den)] {
                if let (true, Some(i)) = (members.contains(side), at(*dim, dim_attr)) {
                    shape[i] = 2 * k.max(&1);
                }
            }
        }
    }
    for rule in rules {
        if let Rule::DimInRange {
            param,
            dim,
            min,
            max,
        } = rule
        {
            if let (true, Some(i)) = (members.contains(param), at(*dim, &None)) {
                shape[i] = shape[i].max(min.unwrap_or(0)).min(max.unwrap_or(i64::MAX));
            }
        }
    }
    for rule in rules {
        let Rule::DimMultipleOf {
            param,
            dim,
            dim_attr,
            by,
        } = rule
        else {
            continue;
        };
        if !members.contains(param) || *by < 1 {
            continue;
        }
        let lcm = |x: i64| x / gcd(x, *by) * by;
        let i = if *dim < 0 { rank as i64 + dim } else { *dim };
        match (dim_attr, usize::try_from(i).ok().filter(|i| *i < rank)) {
            (None, Some(i)) => shape[i] = lcm(shape[i]),
            (None, None) => {}
            (Some(_), _) => shape.iter_mut().for_each(|x| *x = lcm(*x)),
        }
    }
    shape
}

/// The dim a rule names on a call: `dim`, or the value of the attribute `dim_attr`.
pub(super) fn dim_in(call: &Call, dim: i64, dim_attr: Option<&str>) -> i64 {
    dim_attr.map_or(dim, |a| call.args.get(a).and_then(Arg::as_int).unwrap_or(0))
}

/// Adds 1 to dim `d` (negative = from the end) of a tensor that has it.
pub(super) fn bump_dim(d: i64) -> impl Fn(&mut TensorDesc) {
    move |t: &mut TensorDesc| {
        let i = if d < 0 { t.rank() as i64 + d } else { d };
        if let Some(x) = usize::try_from(i).ok().and_then(|i| t.shape.get_mut(i)) {
            *x += 1;
        }
    }
}

pub(super) fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

/// The smallest rank every member's range allows (at least 1 when possible).
pub(super) fn group_rank(rules: &[&Rule], members: &[String]) -> usize {
    let (mut lo, mut hi) = (0usize, 8usize);
    for rule in rules {
        if let Rule::RankIn { param, min, max } = rule {
            if members.contains(param) {
                lo = lo.max(*min);
                hi = hi.min(*max);
            }
        }
    }
    // A dim a rule names must exist: "mat1的最后一维和mat2的倒数第二维" needs ranks of 2, within
    // what the rank rules allow.
    let needed = rules
        .iter()
        .flat_map(|r| named_dims(r))
        .filter(|(p, _)| members.contains(p))
        .map(|(_, d)| {
            if d < 0 {
                d.unsigned_abs() as usize
            } else {
                d as usize + 1
            }
        })
        .max()
        .unwrap_or(0);
    lo = lo.max(needed.min(hi));
    if lo > hi {
        return lo;
    }
    lo.max(1).min(hi)
}

/// The fixed dims a rule reads, by tensor (not those an attribute names).
pub(super) fn named_dims(rule: &Rule) -> Vec<(String, i64)> {
    match rule {
        Rule::DimsEqual {
            lhs,
            lhs_dim,
            rhs,
            rhs_dim,
        } => vec![(lhs.clone(), *lhs_dim), (rhs.clone(), *rhs_dim)],
        Rule::DimsScaled {
            lhs,
            rhs,
            dim,
            dim_attr: None,
            ..
        } => vec![(lhs.clone(), *dim), (rhs.clone(), *dim)],
        _ => Vec::new(),
    }
}

/// The first dtype (in the first member's documented order) every member allows on `product`.
pub(super) fn group_dtype(op: &OpIr, rules: &[&Rule], members: &[String], product: &str) -> DType {
    let lists: Vec<Vec<DType>> = members
        .iter()
        .filter_map(|m| allowed_dtypes(op, rules, m, product))
        .collect();
    let Some(first) = lists.first() else {
        return DType::Float32;
    };
    first
        .iter()
        .copied()
        .find(|d| lists.iter().all(|l| l.contains(d)))
        .unwrap_or(first[0])
}

/// The dtypes a param may have on `product`: its DtypeIn rule's list, else the IR's.
pub(super) fn allowed_dtypes(
    op: &OpIr,
    rules: &[&Rule],
    param: &str,
    product: &str,
) -> Option<Vec<DType>> {
    let from_rule = rules.iter().find_map(|r| match r {
        Rule::DtypeIn { param: p, allowed } if p == param => allowed.get(product).cloned(),
        _ => None,
    });
    from_rule
        .or_else(|| op.param(param).and_then(|p| p.dtypes.get(product).cloned()))
        .filter(|l| !l.is_empty())
}

pub(super) fn allowed_formats(op: &OpIr, rules: &[&Rule], param: &str) -> Option<Vec<Format>> {
    let from_rule = rules.iter().find_map(|r| match r {
        Rule::FormatIn { param: p, allowed } if p == param => Some(allowed.clone()),
        _ => None,
    });
    from_rule
        .or_else(|| op.param(param).map(|p| p.formats.clone()))
        .filter(|l| !l.is_empty())
}

/// A format every member allows, preferring one whose dimension count matches the rank.
pub(super) fn group_format(op: &OpIr, rules: &[&Rule], members: &[String], rank: usize) -> Format {
    let lists: Vec<Vec<Format>> = members
        .iter()
        .filter_map(|m| allowed_formats(op, rules, m))
        .collect();
    let Some(first) = lists.first() else {
        return Format::Nd;
    };
    let common: Vec<Format> = first
        .iter()
        .copied()
        .filter(|f| lists.iter().all(|l| l.contains(f)))
        .collect();
    let pool = if common.is_empty() {
        first.clone()
    } else {
        common
    };
    pool.iter()
        .copied()
        .find(|f| format_rank(*f) == Some(rank))
        .unwrap_or(pool[0])
}

/// Dimension count a layout format implies (None for ND and packed formats).
pub(super) fn format_rank(f: Format) -> Option<usize> {
    match f {
        Format::Nc => Some(2),
        Format::Ncl | Format::Nlc => Some(3),
        Format::Nchw | Format::Nhwc | Format::Hwcn => Some(4),
        Format::Ncdhw | Format::Ndhwc => Some(5),
        _ => None,
    }
}

pub(super) fn baseline_attribute(rules: &[&Rule], name: &str, kind: ParamKind) -> Option<Arg> {
    match kind {
        ParamKind::IntArray => Some(Arg::IntArray(baseline_int_list(rules, name))),
        ParamKind::FloatArray => Some(Arg::FloatArray(vec![1.0])),
        ParamKind::BoolArray => Some(Arg::BoolArray(vec![false])),
        // The dtype a `DtypeIsArg` tensor has is set once the tensors are (`satisfy_dtype_args`).
        ParamKind::DataType => Some(Arg::DataType(DType::Float32)),
        // 1.0, or the value the attribute's integer rules pin ("threshold不等于0": 0).
        ParamKind::Scalar | ParamKind::ScalarList => Some(Arg::Scalar {
            dtype: DType::Float32,
            value: if names_int_value(rules, name) {
                baseline_int(rules, name) as f64
            } else {
                1.0
            },
        }),
        // A bool an `IntIn` holds to one value ("modulated参数不等于true") takes it.
        ParamKind::Bool => Some(Arg::Bool(baseline_int(rules, name) != 0)),
        ParamKind::Float => Some(Arg::Float(1.0)),
        // A string attribute is passed where a rule names its values or requires it (else
        // absent: not checked).
        ParamKind::Str => baseline_str(rules, name).map(Arg::Str).or_else(|| {
            let required = rules
                .iter()
                .any(|r| matches!(r, Rule::NotNull { params } if params.iter().any(|p| p == name)));
            required.then(|| Arg::Str(String::new()))
        }),
        ParamKind::Int => Some(Arg::Int(baseline_int(rules, name))),
        _ => None,
    }
}

/// The first value a `StrIn` on the attribute allows.
pub(super) fn baseline_str(rules: &[&Rule], name: &str) -> Option<String> {
    rules.iter().find_map(|rule| match rule {
        Rule::StrIn { param, values } if param == name => values.first().cloned(),
        _ => None,
    })
}

/// Whether an `IntIn` or `IntInRange` pins the attribute's value.
pub(super) fn names_int_value(rules: &[&Rule], name: &str) -> bool {
    rules.iter().any(|r| {
        matches!(r, Rule::IntIn { param, .. } | Rule::IntInRange { param, .. } if param == name)
    })
}

pub(super) fn baseline_int(rules: &[&Rule], name: &str) -> i64 {
    let mut value = 0i64;
    for rule in rules {
        match rule {
            Rule::IntIn { param, values } if param == name => {
                if let Some(v) = values.first() {
                    value = *v;
                }
            }
            Rule::IntInRange { param, min, max } if param == name => {
                value = clamp(value, *min, *max)
            }
            _ => {}
        }
    }
    // Off an excluded value: up where the range allows, else down.
    let excluded = |v: i64| {
        rules
            .iter()
            .any(|r| matches!(r, Rule::ValueNot { param, value } if param == name && *value == v))
    };
    if excluded(value) {
        let max = rules.iter().find_map(|r| match r {
            Rule::IntInRange { param, max, .. } if param == name => *max,
            _ => None,
        });
        value = if max.is_none_or(|m| value < m) {
            value + 1
        } else {
            value - 1
        };
    }
    value
}

pub(super) fn baseline_int_list(rules: &[&Rule], name: &str) -> Vec<i64> {
    let mut len = 1usize;
    let mut elem = 1i64;
    for rule in rules {
        match rule {
            Rule::ListLenIn { param, lens } if param == name => {
                len = lens.iter().copied().filter(|l| *l > 0).max().unwrap_or(0);
            }
            Rule::ListElemsAtMostFraction { lhs, .. } if lhs == name => elem = 0,
            // Dim 0 is a dim of every tensor with one.
            Rule::AxisIn { param, .. } if param == name => elem = 0,
            // No pad reaches the dim it pads.
            Rule::PadsBelowDims { param, .. } if param == name => elem = 0,
            Rule::ListElemsAtMostFraction { rhs, .. } if rhs == name => elem = elem.max(2),
            _ => {}
        }
    }
    for rule in rules {
        if let Rule::ListElemsInRange { param, min, max } = rule {
            if param == name {
                elem = clamp(elem, *min, *max);
            }
        }
    }
    vec![elem; len]
}

pub(super) fn clamp(v: i64, min: Option<i64>, max: Option<i64>) -> i64 {
    let v = min.map_or(v, |m| v.max(m));
    max.map_or(v, |m| v.min(m))
}

// ---------------------------------------------------------------------------------------------
// Mutations: calls that break exactly one rule.
