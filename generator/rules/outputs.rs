//! What the doc states of each output's shape and dtype, read once into `OpIr::outputs`: the l0
//! op allocates each output by it and InferShape/InferDataType compute it. Only statements that
//! hold on every call count: an unconditional rule (an error row's or an inferred one), the
//! output's own description ("shape与self一致"), its dtype column when it is one dtype on every
//! product. An output the doc says nothing of gets `None`: never a copy of input 0.

use crate::ir::{DtypeFrom, OpIr, OutputInference, Param, Role, ShapeFrom};
use aclnn_runtime::{DType, Rule};

fn is_input(p: &Param) -> bool {
    matches!(p.role, Role::InputTensor | Role::InOutTensor)
}

fn is_output(p: &Param) -> bool {
    matches!(p.role, Role::OutputTensor | Role::InOutTensor)
}

/// The relations the doc states that hold on every call: unconditional rules first (an error
/// row is the doc's strongest statement), then each output's description.
fn statements(op: &OpIr) -> Vec<Rule> {
    let mut rules: Vec<Rule> = op.all_rules().into_iter().map(|r| r.rule).collect();
    for p in op.params.iter().filter(|p| is_output(p)) {
        rules.extend(crate::rules::described_relations(op, p));
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
        })
        .collect();
    follow_other_outputs(op, &said, &mut outputs);
    outputs
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
    said.iter().find_map(|rule| match rule {
        Rule::ShapeSame { params } if params.contains(&p.name) => {
            input_among(op, params, &p.name).map(ShapeFrom::Input)
        }
        Rule::BroadcastShape { params, out } if *out == p.name => {
            let all_inputs =
                !params.is_empty() && params.iter().all(|n| op.param(n).is_some_and(is_input));
            all_inputs.then(|| ShapeFrom::Broadcast(params.clone()))
        }
        _ => None,
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
            Some(DtypeFrom::Promoted(from.clone()))
        }
        _ => None,
    })
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
    fn an_output_stated_like_another_output_follows_it() {
        let o = toy(vec![
            tensor("self", Role::InputTensor),
            stating(tensor("values", Role::OutputTensor), "shape与self一致"),
            stating(tensor("indices", Role::OutputTensor), "shape与values一致"),
        ]);
        let outs = infer(&o);
        assert_eq!(outs[1].shape, Some(ShapeFrom::Input("self".into())));
    }
}
