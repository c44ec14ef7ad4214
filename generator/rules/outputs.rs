//! What the doc states of each output's shape and dtype, read once into `OpIr::outputs`: the l0
//! op allocates each output by it and InferShape/InferDataType compute it. Only statements that
//! hold on every call count: an unconditional rule (an error row's or an inferred one), the
//! output's own description ("shape与self一致"), its dtype column when it is one dtype on every
//! product. An output the doc says nothing of gets `None`: never a copy of input 0.

use crate::ir::{
    DimFrom, DtypeCase, DtypeFrom, OpIr, OutputInference, Param, ParamKind, Role, ShapeFrom,
    WhenEmpty,
};
use aclnn_runtime::{DType, Factor, Rule};

fn is_input(p: &Param) -> bool {
    matches!(p.role, Role::InputTensor | Role::InOutTensor)
}

/// An `aclScalar` argument: an operand of a promotion ("self和other数据类型不满足数据类型推导规则"
/// of EqScalar), never cast itself.
fn is_scalar(p: &Param) -> bool {
    p.role == Role::Attribute && p.kind() == ParamKind::Scalar
}

fn is_output(p: &Param) -> bool {
    matches!(p.role, Role::OutputTensor | Role::InOutTensor)
}

/// The relations the doc states that hold on every call: unconditional rules first (an error
/// row is the doc's strongest statement), then each output's description.
fn statements(op: &OpIr) -> Vec<Rule> {
    let mut rules: Vec<Rule> = op.all_rules().into_iter().map(|r| r.rule).collect();
    for p in op.params.iter().filter(|p| is_output(p)) {
        let conditional_shape = crate::rules::infer::shape_stated_conditionally(p);
        rules.extend(
            crate::rules::described_relations(op, p)
                .into_iter()
                // "如果reduction = 0，shape与self一致，其他情况shape为[1]" beside a shape column
                // "与self保持一致": the shape holds only under the condition.
                .filter(|r| {
                    !(conditional_shape
                        && matches!(r, Rule::ShapeSame { .. } | Rule::BroadcastShape { .. }))
                }),
        );
    }
    // "数据类型与target的数据类型需满足数据类型推导规则": the inputs the op computes together.
    for p in op.params.iter().filter(|p| is_input(p)) {
        rules.extend(crate::rules::described_promotions(op, p));
    }
    rules
}

/// Each single-tensor output's shape and dtype source.
pub fn infer(op: &OpIr) -> Vec<OutputInference> {
    let said = statements(op);
    let mut outputs: Vec<OutputInference> = op
        .params
        .iter()
        .filter(|p| matches!(p.role, Role::OutputTensor | Role::InOutTensor))
        .map(|p| OutputInference {
            param: p.name.clone(),
            shape: shape_of(op, p, &said),
            dtype: dtype_of(op, p, &said),
            casts: Vec::new(),
            dtype_checked: false,
        })
        .collect();
    follow_other_outputs(op, &said, &mut outputs);
    for o in &mut outputs {
        o.casts = casts(op, o, &said);
        o.dtype_checked = dtype_checked(op, o);
    }
    outputs
}

/// The inputs cast to the dtype the op computes output `o` in: the promoted inputs (two or more:
/// one is its own promotion), for a dtype argument's output the inputs an unconditional row
/// says cast to it ("参数self的数据类型不能转换为out的数据类型" beside "参数dtype和out的数据类型
/// 不一致": Cumsum), else the inputs the doc promotes together, whatever `o`'s own dtype
/// (Bucketize computes in self's and boundaries' promoted dtype, its out is INT32 or INT64).
fn casts(op: &OpIr, o: &OutputInference, said: &[Rule]) -> Vec<String> {
    match &o.dtype {
        Some(DtypeFrom::Promoted(ins)) if ins.len() > 1 => ins.clone(),
        Some(DtypeFrom::Argument(_)) => op
            .all_rules()
            .into_iter()
            .find_map(|r| match r.rule {
                Rule::DtypeCastable { from, to } if to == o.param => Some(from),
                _ => None,
            })
            .unwrap_or_default()
            .into_iter()
            .filter(|n| {
                op.param(n)
                    .is_some_and(|p| matches!(p.role, Role::InputTensor | Role::InOutTensor))
            })
            .collect(),
        _ => promoted_inputs(op, said),
    }
}

/// Whether an unconditional check makes the caller's tensor for `o` have the dtype the op
/// computes it in (then a cast back would be a copy for nothing).
fn dtype_checked(op: &OpIr, o: &OutputInference) -> bool {
    let rules = op.all_rules();
    let has = |want: &dyn Fn(&Rule) -> bool| rules.iter().any(|r| want(&r.rule));
    match &o.dtype {
        // An input cast to the dtype the op computes in no longer has the caller's dtype.
        Some(DtypeFrom::Input(i)) if o.casts.contains(i) => false,
        Some(DtypeFrom::Input(i)) => {
            i == &o.param
                || has(&|r| {
                    matches!(r, Rule::DtypeSame { params }
                        if params.contains(i) && params.contains(&o.param))
                })
        }
        Some(DtypeFrom::Fixed(d)) => has(&|r| {
            matches!(r, Rule::DtypeIn { param, allowed }
                if *param == o.param && allowed.values().all(|l| l.as_slice() == [*d]))
        }),
        Some(DtypeFrom::Argument(a)) => {
            has(&|r| matches!(r, Rule::DtypeIsArg { param, arg } if *param == o.param && arg == a))
        }
        // The cases are the checks' own: each pins the output's dtype where it applies.
        Some(DtypeFrom::Mapped { .. }) => true,
        // Only the OpDef's columns pair them: the caller's output may have any listed dtype.
        Some(DtypeFrom::Promoted(_) | DtypeFrom::Paired(_)) | None => false,
    }
}

/// The first input among `params` (other than `own`).
fn input_among(op: &OpIr, params: &[String], own: &str) -> Option<String> {
    params
        .iter()
        .filter(|n| *n != own)
        .find(|n| op.param(n).is_some_and(is_input))
        .cloned()
}

fn shape_of(op: &OpIr, p: &Param, said: &[Rule]) -> Option<ShapeFrom> {
    if p.role == Role::InOutTensor {
        return Some(ShapeFrom::Input(p.name.clone()));
    }
    let whole = said.iter().find_map(|rule| match rule {
        Rule::ShapeSame { params } if params.contains(&p.name) => {
            input_among(op, params, &p.name).map(ShapeFrom::Input)
        }
        Rule::BroadcastShape { params, out } if *out == p.name => {
            let all_inputs =
                !params.is_empty() && params.iter().all(|n| op.param(n).is_some_and(is_input));
            all_inputs.then(|| ShapeFrom::Broadcast(params.clone()))
        }
        _ => None,
    });
    whole
        .or_else(|| dim_by_dim(op, p, said))
        .or_else(|| reduced(op, said))
}

/// "dims数组中的维度超出输入tensor的维度范围" (an axis range over an input) beside a keepdim
/// ("reduce轴的维度是否保留"): every output the doc gives no other shape is that input reduced
/// over those dims. One of each, or the op states no reduction.
fn reduced(op: &OpIr, said: &[Rule]) -> Option<ShapeFrom> {
    let axes = axes_over_inputs(op, said);
    let [(dims, input)] = axes.as_slice() else {
        return None;
    };
    let keeps: Vec<&Param> = op
        .params
        .iter()
        .filter(|q| q.role == Role::Attribute && crate::rules::infer::keeps_reduced_dims(q))
        .collect();
    let [keepdim] = keeps.as_slice() else {
        return None;
    };
    Some(ShapeFrom::Reduce {
        input: input.clone(),
        dims: dims.clone(),
        keepdim: keepdim.name.clone(),
        when_empty: when_empty(op, op.param(dims)?),
    })
}

/// What the doc says an empty `dims` list does: a Bool attribute that chooses it, or the list's
/// own text.
fn when_empty(op: &OpIr, dims: &Param) -> WhenEmpty {
    if dims.kind() != ParamKind::IntArray {
        return WhenEmpty::Unstated;
    }
    let chooser = op.params.iter().find_map(|q| {
        let noop = (q.role == Role::Attribute && q.kind() == ParamKind::Bool)
            .then(|| crate::rules::infer::empty_dims_noop_value(q))
            .flatten()?;
        Some(WhenEmpty::Chosen {
            attr: q.name.clone(),
            noop,
        })
    });
    match chooser {
        Some(chosen) => chosen,
        None if crate::rules::infer::empty_means_every_dim(dims) => WhenEmpty::EveryDim,
        None => WhenEmpty::Unstated,
    }
}

/// The (attribute, input) pairs of `AxisIn` rules whose attribute is an int or an int list.
fn axes_over_inputs(op: &OpIr, said: &[Rule]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = said
        .iter()
        .filter_map(|rule| match rule {
            Rule::AxisIn { param, tensor } => Some((param.clone(), tensor.clone())),
            _ => None,
        })
        .filter(|(dims, input)| {
            op.param(input).is_some_and(is_input)
                && op.param(dims).is_some_and(|d| {
                    d.role == Role::Attribute
                        && matches!(d.kind(), ParamKind::IntArray | ParamKind::Int)
                })
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    pairs
}

/// "out的维度不等于2" with "out的shape不为(n，m)": a fixed rank whose every dim equals an integer
/// attribute or an input's dim.
fn dim_by_dim(op: &OpIr, p: &Param, said: &[Rule]) -> Option<ShapeFrom> {
    let rank = said.iter().find_map(|rule| match rule {
        Rule::RankIn { param, min, max } if *param == p.name && min == max => Some(*min),
        _ => None,
    })?;
    let dims: Option<Vec<DimFrom>> = (0..rank)
        .map(|i| {
            said.iter()
                .find_map(|rule| dim_source(op, p, i, rank, rule))
        })
        .collect();
    dims.filter(|d| !d.is_empty()).map(ShapeFrom::Dims)
}

/// What `rule` says dim `i` (of `rank`) of output `p` equals, if it says so.
fn dim_source(op: &OpIr, p: &Param, i: usize, rank: usize, rule: &Rule) -> Option<DimFrom> {
    let Rule::ProductsEqual { lhs, rhs } = rule else {
        return None;
    };
    let is_this_dim = |f: &Factor| match f {
        Factor::Dim { param, dim } => {
            *param == p.name && (*dim == i as i64 || *dim == i as i64 - rank as i64)
        }
        _ => false,
    };
    let other = match (lhs.as_slice(), rhs.as_slice()) {
        ([a], [b]) if is_this_dim(a) => b,
        ([a], [b]) if is_this_dim(b) => a,
        _ => return None,
    };
    match other {
        Factor::Attr(a) if is_int_attribute(op, a) => Some(DimFrom::Attr(a.clone())),
        Factor::Dim { param, dim } if op.param(param).is_some_and(is_input) => {
            Some(DimFrom::Input {
                param: param.clone(),
                dim: *dim,
            })
        }
        _ => None,
    }
}

/// An integer attribute the OpDef registers as an Int.
fn is_int_attribute(op: &OpIr, name: &str) -> bool {
    op.param(name).is_some_and(|a| {
        a.role == Role::Attribute && matches!(a.ty.base(), crate::ctype::Base::Integer(_))
    })
}

fn dtype_of(op: &OpIr, p: &Param, said: &[Rule]) -> Option<DtypeFrom> {
    if p.role == Role::InOutTensor {
        return Some(DtypeFrom::Input(p.name.clone()));
    }
    let stated = said.iter().find_map(|rule| match rule {
        Rule::DtypeSame { params } if params.contains(&p.name) => {
            input_among(op, params, &p.name).map(DtypeFrom::Input)
        }
        Rule::DtypeIsArg { param, arg } if *param == p.name && is_dtype_argument(op, arg) => {
            Some(DtypeFrom::Argument(arg.clone()))
        }
        _ => None,
    });
    stated
        .or_else(|| one_dtype(op, p).map(DtypeFrom::Fixed))
        .or_else(|| promoted_into(op, p, said))
        .or_else(|| mapped(op, p, said))
        .or_else(|| tied_input(op, p))
}

/// The first input whose dtype list is the output's on every supported product, where the doc
/// relates the two dtypes no other way: the OpDef zips identical lists into one column, so the
/// kernel computes the output in that input's dtype, and a caller's output of another listed
/// dtype gets the result cast to it (CANN's Hardshrink: Cast, then ViewCopy).
fn tied_input(op: &OpIr, p: &Param) -> Option<DtypeFrom> {
    fn list_on<'a>(q: &'a Param, product: &str) -> Option<&'a Vec<DType>> {
        q.dtypes.get(product).filter(|l| !l.is_empty())
    }
    let same_lists = |q: &Param| {
        let mut products = op.supported_products().peekable();
        products.peek().is_some()
            && products.all(|pr| list_on(p, pr).is_some() && list_on(p, pr) == list_on(q, pr))
    };
    op.params
        .iter()
        .find(|q| matches!(q.role, Role::InputTensor | Role::InOutTensor) && same_lists(q))
        .map(|q| DtypeFrom::Paired(q.name.clone()))
}

/// Rows each under a dtype of one input ("当self为实数时，self和out的数据类型不一致", "当self为
/// COMPLEX64时，out的数据类型不为FLOAT32"): the output's dtype case by case, where some case
/// names one dtype for it (else they only say it follows the input where they apply).
fn mapped(op: &OpIr, p: &Param, said: &[Rule]) -> Option<DtypeFrom> {
    let mut input: Option<&String> = None;
    let mut cases = Vec::new();
    for rule in said {
        let Rule::WhenDtype {
            param,
            dtypes,
            rule,
        } = rule
        else {
            continue;
        };
        if !op.param(param).is_some_and(is_input) || input.is_some_and(|i| i != param) {
            continue;
        }
        let to = match rule.as_ref() {
            Rule::DtypeSame { params } if params.contains(param) && params.contains(&p.name) => {
                None
            }
            Rule::DtypeIn { param: of, allowed } if *of == p.name => {
                Some(one_dtype_everywhere(op, allowed)?)
            }
            _ => continue,
        };
        input = Some(param);
        // A dtype belongs to its first case only.
        let taken: Vec<DType> = cases
            .iter()
            .flat_map(|c: &DtypeCase| c.when.clone())
            .collect();
        let when: Vec<DType> = dtypes
            .iter()
            .copied()
            .filter(|d| !taken.contains(d) && d.ge_name().is_some())
            .collect();
        if !when.is_empty() {
            cases.push(DtypeCase { when, to });
        }
    }
    let input = input?.clone();
    cases
        .iter()
        .any(|c| c.to.is_some())
        .then_some(DtypeFrom::Mapped { input, cases })
}

/// The one dtype a per-product list allows on every supported product, if one.
fn one_dtype_everywhere(
    op: &OpIr,
    allowed: &std::collections::BTreeMap<String, Vec<DType>>,
) -> Option<DType> {
    let mut lists = op.supported_products().map(|product| allowed.get(product));
    let first = lists.next()??;
    let [only] = first.as_slice() else {
        return None;
    };
    (only.ge_name().is_some() && lists.all(|l| l == Some(first))).then_some(*only)
}

/// An `aclDataType` argument: what the OpDef passes as an Int attribute.
fn is_dtype_argument(op: &OpIr, name: &str) -> bool {
    op.param(name)
        .is_some_and(|a| a.role == Role::Attribute && a.ty.base() == crate::ctype::Base::DataType)
}

/// The output's dtype column when it is the same one dtype on every supported product.
fn one_dtype(op: &OpIr, p: &Param) -> Option<DType> {
    let mut lists = op.supported_products().map(|product| p.dtypes.get(product));
    let first = lists.next()??;
    let [only] = first.as_slice() else {
        return None;
    };
    // A dtype CANN's graph cannot name is no dtype an op can be built with.
    let nameable = only.ge_name().is_some();
    (nameable && lists.all(|l| l == Some(first))).then_some(*only)
}

/// "推导出的数据类型无法转换为指定输出out的类型" beside "self和other无法做数据类型推导": the op
/// computes in the inputs' promoted dtype and the result casts to the caller's.
fn promoted_into(op: &OpIr, p: &Param, said: &[Rule]) -> Option<DtypeFrom> {
    said.iter().find_map(|rule| match rule {
        Rule::DtypeCastable { from, to }
            if *to == p.name
                && !from.is_empty()
                && from.iter().all(|n| op.param(n).is_some_and(is_input)) =>
        {
            Some(DtypeFrom::Promoted(promoted_with(op, from, said, is_input)))
        }
        _ => None,
    })
}

/// The operands a statement promotes together ("self的数据类型与target需满足数据类型推导规则",
/// "self和other无法做数据类型推导", an `aclScalar` other among them), where two or more do, one a
/// tensor: the op computes in their promoted dtype, as CANN's promotion table defines, whatever
/// dtype its output has, and the tensors among them are cast to it.
fn promoted_inputs(op: &OpIr, said: &[Rule]) -> Vec<String> {
    let Some(first) = said.iter().find_map(|rule| match rule {
        Rule::DtypePromotable { params } => {
            params.iter().find(|n| op.param(n).is_some_and(is_input))
        }
        _ => None,
    }) else {
        return Vec::new();
    };
    let operand = |p: &Param| is_input(p) || is_scalar(p);
    let group = promoted_with(op, std::slice::from_ref(first), said, operand);
    if group.len() > 1 {
        group
    } else {
        Vec::new()
    }
}

/// `names` and every `member` a stated promotion joins to them, transitively, in the
/// parameters' order: the operands promoted together.
fn promoted_with(
    op: &OpIr,
    names: &[String],
    said: &[Rule],
    member: impl Fn(&Param) -> bool,
) -> Vec<String> {
    let mut group: Vec<&str> = names.iter().map(String::as_str).collect();
    loop {
        let before = group.len();
        for rule in said {
            let Rule::DtypePromotable { params } = rule else {
                continue;
            };
            if params.iter().any(|n| group.contains(&n.as_str())) {
                for n in params {
                    if !group.contains(&n.as_str()) && op.param(n).is_some_and(&member) {
                        group.push(n);
                    }
                }
            }
        }
        if group.len() == before {
            break;
        }
    }
    op.params
        .iter()
        .filter(|p| group.contains(&p.name.as_str()))
        .map(|p| p.name.clone())
        .collect()
}

/// "indicesOut的shape与outputOut一致": an output stated equal to another output takes that
/// output's source, once that one is known.
fn follow_other_outputs(op: &OpIr, said: &[Rule], outputs: &mut [OutputInference]) {
    let is_out = |n: &String| op.param(n).is_some_and(|q| q.role == Role::OutputTensor);
    for _ in 0..outputs.len() {
        let known = outputs.to_vec();
        let source_of = |name: &str| known.iter().find(|o| o.param == name);
        for o in outputs.iter_mut() {
            for rule in said {
                match rule {
                    Rule::ShapeSame { params }
                        if o.shape.is_none() && params.contains(&o.param) =>
                    {
                        o.shape = params
                            .iter()
                            .filter(|n| **n != o.param && is_out(n))
                            .find_map(|n| source_of(n).and_then(|s| s.shape.clone()));
                    }
                    Rule::DtypeSame { params }
                        if o.dtype.is_none() && params.contains(&o.param) =>
                    {
                        o.dtype = params
                            .iter()
                            .filter(|n| **n != o.param && is_out(n))
                            .find_map(|n| source_of(n).and_then(|s| s.dtype.clone()));
                    }
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{op, tensor};

    fn stating(mut p: Param, text: &str) -> Param {
        p.description = text.into();
        p.constraints = vec![text.into()];
        p
    }

    fn toy(params: Vec<Param>) -> OpIr {
        op(
            "Toy",
            &[("ascend910b", true), ("ascend910_93", true)],
            params,
        )
    }

    #[test]
    fn an_output_takes_the_shape_and_dtype_its_description_states() {
        let o = toy(vec![
            tensor("self", Role::InputTensor),
            stating(
                tensor("out", Role::OutputTensor),
                "shape与self一致，数据类型与self一致。",
            ),
        ]);
        let outs = infer(&o);
        assert_eq!(outs[0].shape, Some(ShapeFrom::Input("self".into())));
        assert_eq!(outs[0].dtype, Some(DtypeFrom::Input("self".into())));
    }

    #[test]
    fn an_output_the_doc_says_nothing_of_has_no_source() {
        let o = toy(vec![
            tensor("self", Role::InputTensor),
            tensor("out", Role::OutputTensor),
        ]);
        let outs = infer(&o);
        assert_eq!((&outs[0].shape, &outs[0].dtype), (&None, &None));
    }

    #[test]
    fn one_dtype_on_every_product_is_the_output_dtype_and_two_are_not() {
        let mut out = stating(tensor("out", Role::OutputTensor), "shape与self相同");
        for product in ["ascend910b", "ascend910_93"] {
            out.dtypes.insert(product.into(), vec![DType::Bool]);
        }
        let o = toy(vec![tensor("self", Role::InputTensor), out.clone()]);
        assert_eq!(infer(&o)[0].dtype, Some(DtypeFrom::Fixed(DType::Bool)));
        assert_eq!(infer(&o)[0].shape, Some(ShapeFrom::Input("self".into())));

        out.dtypes
            .insert("ascend910_93".into(), vec![DType::Bool, DType::Int8]);
        let o = toy(vec![tensor("self", Role::InputTensor), out]);
        assert_eq!(infer(&o)[0].dtype, None);
    }

    #[test]
    fn a_broadcast_output_and_a_promoted_dtype_come_from_the_rows() {
        let mut o = toy(vec![
            tensor("self", Role::InputTensor),
            tensor("other", Role::InputTensor),
            tensor("out", Role::OutputTensor),
        ]);
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let checked = |rule| aclnn_runtime::CheckedRule {
            rule,
            code: 161002,
            condition: String::new(),
            inferred: true,
        };
        o.inferred_rules = vec![
            checked(Rule::BroadcastShape {
                params: names(&["self", "other"]),
                out: "out".into(),
            }),
            checked(Rule::DtypeCastable {
                from: names(&["self", "other"]),
                to: "out".into(),
            }),
        ];
        let outs = infer(&o);
        assert_eq!(
            outs[0].shape,
            Some(ShapeFrom::Broadcast(names(&["self", "other"])))
        );
        assert_eq!(
            outs[0].dtype,
            Some(DtypeFrom::Promoted(names(&["self", "other"])))
        );
    }

    #[test]
    fn a_promotion_the_tables_state_casts_the_inputs_and_the_result() {
        let o = toy(vec![
            stating(
                tensor("self", Role::InputTensor),
                "数据类型与target的数据类型需满足数据类型推导规则",
            ),
            tensor("target", Role::InputTensor),
            stating(
                tensor("out", Role::OutputTensor),
                "数据类型需要是self与target推导之后可转换的数据类型",
            ),
        ]);
        let out = &infer(&o)[0];
        let both = vec!["self".to_string(), "target".to_string()];
        assert_eq!(out.dtype, Some(DtypeFrom::Promoted(both.clone())));
        assert_eq!((&out.casts, out.dtype_checked), (&both, false));
        // An output naming one input takes every input that one promotes with.
        let o = toy(vec![
            stating(
                tensor("self", Role::InputTensor),
                "数据类型与target的数据类型需满足数据类型推导规则",
            ),
            tensor("target", Role::InputTensor),
            stating(
                tensor("out", Role::OutputTensor),
                "数据类型需要与self满足数据类型推导规则",
            ),
        ]);
        assert_eq!(infer(&o)[0].dtype, Some(DtypeFrom::Promoted(both)));
    }

    #[test]
    fn inputs_promoted_together_are_cast_whatever_the_output_dtype() {
        let mut out = tensor("out", Role::OutputTensor);
        for product in ["ascend910b", "ascend910_93"] {
            out.dtypes
                .insert(product.into(), vec![DType::Int32, DType::Int64]);
        }
        let o = toy(vec![
            stating(
                tensor("self", Role::InputTensor),
                "数据类型与boundaries的数据类型需满足互推导关系",
            ),
            tensor("boundaries", Role::InputTensor),
            out,
        ]);
        let out = &infer(&o)[0];
        assert_eq!(out.dtype, None);
        assert_eq!(out.casts, ["self", "boundaries"]);
        // A denial is an error's wording, no statement of what the op computes in.
        let o = toy(vec![
            stating(
                tensor("self", Role::InputTensor),
                "不支持self和other的数据类型推导",
            ),
            tensor("other", Role::InputTensor),
            tensor("out", Role::OutputTensor),
        ]);
        assert!(infer(&o)[0].casts.is_empty());
    }

    #[test]
    fn a_scalar_promoted_with_a_tensor_counts_toward_the_dtype_and_is_no_cast() {
        let mut o = toy(vec![
            tensor("self", Role::InputTensor),
            crate::fixture::attr("other", "const aclScalar*", &[]),
            tensor("out", Role::OutputTensor),
        ]);
        o.inferred_rules = vec![aclnn_runtime::CheckedRule {
            rule: Rule::DtypePromotable {
                params: vec!["self".into(), "other".into()],
            },
            code: 161002,
            condition: "self和other数据类型不满足数据类型推导规则".into(),
            inferred: false,
        }];
        let out = &infer(&o)[0];
        assert_eq!(out.casts, ["self", "other"]);
        // Never the output's dtype: an InferDataType cannot read a scalar argument.
        assert_eq!(out.dtype, None);
    }

    #[test]
    fn an_output_listing_an_inputs_dtypes_is_paired_with_it_and_cast_back() {
        let listed = |mut p: Param| {
            for product in ["ascend910b", "ascend910_93"] {
                p.dtypes
                    .insert(product.into(), vec![DType::Float16, DType::Float32]);
            }
            p
        };
        let o = toy(vec![
            listed(tensor("self", Role::InputTensor)),
            listed(tensor("out", Role::OutputTensor)),
        ]);
        let out = &infer(&o)[0];
        assert_eq!(out.dtype, Some(DtypeFrom::Paired("self".into())));
        assert!(!out.dtype_checked);
        // A stated equality is the doc's, and checked: nothing to cast back.
        let o = toy(vec![
            listed(tensor("self", Role::InputTensor)),
            listed(stating(
                tensor("out", Role::OutputTensor),
                "数据类型与self一致",
            )),
        ]);
        assert_eq!(infer(&o)[0].dtype, Some(DtypeFrom::Input("self".into())));
    }

    #[test]
    fn a_fixed_rank_with_every_dim_stated_is_a_shape_dim_by_dim() {
        let mut o = toy(vec![
            crate::fixture::attr("n", "int64_t", &[]),
            crate::fixture::attr("m", "int64_t", &[]),
            tensor("out", Role::OutputTensor),
        ]);
        let checked = |rule| aclnn_runtime::CheckedRule {
            rule,
            code: 161002,
            condition: String::new(),
            inferred: false,
        };
        let dim = |d| {
            vec![Factor::Dim {
                param: "out".into(),
                dim: d,
            }]
        };
        o.inferred_rules = vec![
            checked(Rule::RankIn {
                param: "out".into(),
                min: 2,
                max: 2,
            }),
            checked(Rule::ProductsEqual {
                lhs: dim(0),
                rhs: vec![Factor::Attr("n".into())],
            }),
            checked(Rule::ProductsEqual {
                lhs: dim(1),
                rhs: vec![Factor::Attr("m".into())],
            }),
        ];
        assert_eq!(
            infer(&o)[0].shape,
            Some(ShapeFrom::Dims(vec![
                DimFrom::Attr("n".into()),
                DimFrom::Attr("m".into())
            ]))
        );
        // One dim unstated: no shape.
        o.inferred_rules.pop();
        assert_eq!(infer(&o)[0].shape, None);
    }

    #[test]
    fn an_output_stated_like_another_output_follows_it() {
        let o = toy(vec![
            tensor("self", Role::InputTensor),
            stating(tensor("values", Role::OutputTensor), "shape与self一致"),
            stating(tensor("indices", Role::OutputTensor), "shape与values一致"),
        ]);
        let outs = infer(&o);
        assert_eq!(outs[1].shape, Some(ShapeFrom::Input("self".into())));
    }
    /// A reduction: an axis range over `self` with a keepdim Bool, and the dims list's text.
    fn reduction(dims_text: &str, extra: Vec<Param>) -> OpIr {
        let mut dims = crate::fixture::attr("dims", "const aclIntArray*", &[]);
        dims.constraints = vec![dims_text.into()];
        let mut keep = crate::fixture::attr("keepDims", "bool", &[]);
        keep.description = "reduce轴的维度是否保留。".into();
        let mut params = vec![tensor("self", Role::InputTensor), dims, keep];
        params.extend(extra);
        params.push(tensor("out", Role::OutputTensor));
        let mut o = toy(params);
        o.inferred_rules = vec![aclnn_runtime::CheckedRule {
            rule: Rule::AxisIn {
                param: "dims".into(),
                tensor: "self".into(),
            },
            code: 161002,
            condition: String::new(),
            inferred: false,
        }];
        o
    }

    fn reduce(when_empty: WhenEmpty) -> Option<ShapeFrom> {
        Some(ShapeFrom::Reduce {
            input: "self".into(),
            dims: "dims".into(),
            keepdim: "keepDims".into(),
            when_empty,
        })
    }

    #[test]
    fn an_axis_range_beside_a_keepdim_is_a_reduction_and_an_empty_list_means_what_the_doc_says() {
        let o = reduction("取值范围为[-self.dim(), self.dim()-1]", vec![]);
        assert_eq!(infer(&o)[0].shape, reduce(WhenEmpty::Unstated));

        let o = reduction("当dim为nullptr或[]时，视为计算所有维度", vec![]);
        assert_eq!(infer(&o)[0].shape, reduce(WhenEmpty::EveryDim));

        let mut noop = crate::fixture::attr("noopWithEmptyAxes", "bool", &[]);
        noop.constraints = vec!["true：不进行计算，输出张量等于输入张量".into()];
        let o = reduction("取值范围为[-self.dim(), self.dim()-1]", vec![noop]);
        assert_eq!(
            infer(&o)[0].shape,
            reduce(WhenEmpty::Chosen {
                attr: "noopWithEmptyAxes".into(),
                noop: true
            })
        );
    }

    #[test]
    fn an_axis_range_without_a_keepdim_is_no_reduction() {
        let mut o = reduction("取值范围为[-self.dim(), self.dim()-1]", vec![]);
        o.params
            .iter_mut()
            .find(|p| p.name == "keepDims")
            .unwrap()
            .description = "是否使用确定性计算。".into();
        assert_eq!(infer(&o)[0].shape, None);
    }
    #[test]
    fn a_shape_stated_under_a_condition_is_no_output_shape() {
        let o = toy(vec![
            tensor("self", Role::InputTensor),
            stating(
                tensor("out", Role::OutputTensor),
                "如果reduction = 0，shape与self一致，其他情况shape为[1]。shape与self保持一致",
            ),
        ]);
        assert_eq!(infer(&o)[0].shape, None);
    }
    #[test]
    fn rows_each_under_a_dtype_of_the_input_map_the_output_dtype_case_by_case() {
        let mut o = toy(vec![
            tensor("self", Role::InputTensor),
            tensor("out", Role::OutputTensor),
        ]);
        let when = |dtypes: Vec<DType>, rule| aclnn_runtime::CheckedRule {
            rule: Rule::WhenDtype {
                param: "self".into(),
                dtypes,
                rule: Box::new(rule),
            },
            code: 161002,
            condition: String::new(),
            inferred: false,
        };
        let only = |d: DType| {
            ["ascend910b", "ascend910_93"]
                .map(|p| (p.to_string(), vec![d]))
                .into()
        };
        o.inferred_rules = vec![
            when(
                vec![DType::Float32, DType::Float16],
                Rule::DtypeSame {
                    params: vec!["self".into(), "out".into()],
                },
            ),
            when(
                vec![DType::Complex64, DType::Float16],
                Rule::DtypeIn {
                    param: "out".into(),
                    allowed: only(DType::Float32),
                },
            ),
        ];
        let outs = infer(&o);
        assert_eq!(
            outs[0].dtype,
            Some(DtypeFrom::Mapped {
                input: "self".into(),
                cases: vec![
                    DtypeCase {
                        when: vec![DType::Float32, DType::Float16],
                        to: None
                    },
                    // FLOAT16 belongs to the first case.
                    DtypeCase {
                        when: vec![DType::Complex64],
                        to: Some(DType::Float32)
                    },
                ],
            })
        );
        assert!(outs[0].dtype_checked);
        // Cases that only say "the input's" are no mapping.
        o.inferred_rules.pop();
        assert_eq!(infer(&o)[0].dtype, None);
    }
}
