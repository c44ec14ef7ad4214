//! The l0 op (`op_api/<snake>.{h,cpp}`): `OP_TYPE_REGISTER` with the OpDef's op type, each output
//! allocated with the shape and dtype the doc's rules give it (`Output`), and
//! `ADD_TO_LAUNCHER_LIST_AICORE` with the OpDef's inputs, outputs and attributes. The aclnn layer
//! calls it between `Contiguous` and `ViewCopy` (`launch`).

use super::*;

/// Where an output's shape or dtype comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    /// The doc says it is this input's ("out的shape与self一致").
    Input(String),
    /// The broadcast of these inputs' shapes.
    Broadcast(Vec<String>),
    /// The doc states none: the aclnn caller's output tensor gives it (the l0 function takes it
    /// as an argument, and the generated files say so).
    Caller,
}

/// One output tensor of the op, as the l0 op allocates it.
#[derive(Debug, Clone)]
pub(super) struct Output {
    pub param: String,
    pub shape: Source,
    pub dtype: Source,
}

fn is_input(p: &Param) -> bool {
    matches!(p.role, Role::InputTensor | Role::InOutTensor)
}

/// The op's single-tensor outputs with their shape and dtype sources, from the unconditional
/// rules (a rule under a condition says nothing of every call).
pub(super) fn outputs(op: &OpIr) -> Vec<Output> {
    let rules = op.all_rules();
    let input_in = |params: &[String]| -> Option<String> {
        params
            .iter()
            .find(|n| op.param(n).is_some_and(is_input))
            .cloned()
    };
    op.params
        .iter()
        .filter(|p| matches!(p.role, Role::OutputTensor | Role::InOutTensor))
        .map(|p| {
            let mut shape = Source::Caller;
            let mut dtype = Source::Caller;
            if p.role == Role::InOutTensor {
                shape = Source::Input(p.name.clone());
                dtype = Source::Input(p.name.clone());
            }
            for r in &rules {
                match &r.rule {
                    Rule::ShapeSame { params }
                        if shape == Source::Caller && params.contains(&p.name) =>
                    {
                        if let Some(i) = input_in(params) {
                            shape = Source::Input(i);
                        }
                    }
                    Rule::BroadcastShape { params, out }
                        if shape == Source::Caller && *out == p.name =>
                    {
                        let inputs: Vec<String> = params
                            .iter()
                            .filter(|n| op.param(n).is_some_and(is_input))
                            .cloned()
                            .collect();
                        if inputs.len() == params.len() && !inputs.is_empty() {
                            shape = Source::Broadcast(inputs);
                        }
                    }
                    Rule::DtypeSame { params }
                        if dtype == Source::Caller && params.contains(&p.name) =>
                    {
                        if let Some(i) = input_in(params) {
                            dtype = Source::Input(i);
                        }
                    }
                    _ => {}
                }
            }
            // The parameter's own description ("shape与self一致", "数据类型与self一致"): stated,
            // though no error row checks it.
            for r in crate::rules::described_relations(op, p) {
                match &r {
                    Rule::ShapeSame { params } if shape == Source::Caller => {
                        if let Some(i) = input_in(params) {
                            shape = Source::Input(i);
                        }
                    }
                    Rule::DtypeSame { params } if dtype == Source::Caller => {
                        if let Some(i) = input_in(params) {
                            dtype = Source::Input(i);
                        }
                    }
                    _ => {}
                }
            }
            Output {
                param: p.name.clone(),
                shape,
                dtype,
            }
        })
        .collect()
}

/// Why the op gets no l0 launch (checks only), if so.
pub(super) fn no_launch(op: &OpIr, outputs: &[Output]) -> Option<String> {
    if op.params.iter().any(|p| p.role == Role::OutputTensorList) {
        return Some(
            "an output tensor list has no shape rule the l0 op could allocate it by".into(),
        );
    }
    if outputs.is_empty() {
        return Some("the op has no output tensor".into());
    }
    None
}

/// The OpDef attributes the l0 op passes (`OP_ATTR`), in parameter order.
fn attrs(op: &OpIr) -> Vec<&Param> {
    op.params
        .iter()
        .filter(|p| p.role == Role::Attribute && crate::emit::opdef::attr_kind(p).is_some())
        .filter(|p| op_attr_takes(p))
        .collect()
}

/// `OP_ATTR` has no overload for an `aclScalarList` (opbase's `op_arg_def.h`).
fn op_attr_takes(p: &Param) -> bool {
    p.kind() != ParamKind::ScalarList
}

/// OpDef attributes the l0 op cannot pass (they reach no kernel), as the warning says them.
pub(super) fn unpassed_attrs(op: &OpIr) -> Vec<String> {
    op.params
        .iter()
        .filter(|p| p.role == Role::Attribute && crate::emit::opdef::attr_kind(p).is_some())
        .filter(|p| !op_attr_takes(p))
        .map(|p| {
            format!(
                "OP_ATTR takes no {}: attribute {} is not passed to the kernel",
                p.ty.as_str().trim(),
                p.name
            )
        })
        .collect()
}

fn inputs(op: &OpIr) -> Vec<&Param> {
    op.params
        .iter()
        .filter(|p| {
            matches!(
                p.role,
                Role::InputTensor | Role::InputTensorList | Role::InOutTensor
            )
        })
        .collect()
}

/// The C++ type an l0 function takes a parameter as.
fn l0_type(p: &Param) -> String {
    match p.role {
        Role::InputTensorList => "const aclTensorList*".to_string(),
        r if r.is_tensor() => "const aclTensor*".to_string(),
        _ => p.ty.as_str().trim().to_string(),
    }
}

/// The l0 function's parameters: inputs, attributes, then what the caller gives of outputs
/// whose shape or dtype the doc does not state.
fn l0_params(op: &OpIr, outputs: &[Output]) -> Vec<String> {
    let mut params: Vec<String> = inputs(op)
        .into_iter()
        .chain(attrs(op))
        .map(|p| format!("{} {}", l0_type(p), cpp_ident(&p.name)))
        .collect();
    for o in outputs {
        if o.shape == Source::Caller {
            params.push(format!("const op::Shape& {}Shape", o.param));
        }
        if o.dtype == Source::Caller {
            params.push(format!("op::DataType {}Dtype", o.param));
        }
    }
    params.push("aclOpExecutor* executor".to_string());
    params
}

fn return_type(outputs: &[Output]) -> String {
    match outputs {
        [_] => "const aclTensor*".to_string(),
        _ => format!(
            "std::tuple<{}>",
            vec!["const aclTensor*"; outputs.len()].join(", ")
        ),
    }
}

/// What the aclnn layer does between the checks and `CREATE_EXECUTOR`'s release.
pub(super) struct Launch {
    /// (local, param, whether the param may be null).
    pub contiguous: Vec<(String, String, bool)>,
    pub call: String,
    /// (l0 result expression, output param, whether the output may be null).
    pub view_copies: Vec<(String, String, bool)>,
    pub no_launch: Option<String>,
}

/// Whether `param` may still be null once the checks passed: optional, or named by no null check
/// (the doc lets it be null).
pub(super) fn may_be_null(op: &OpIr, param: &str) -> bool {
    op.param(param).is_some_and(|p| p.optional) || !checked_not_null(op).iter().any(|p| p == param)
}

pub(super) fn launch(op: &OpIr, outputs: &[Output]) -> Launch {
    if let Some(reason) = no_launch(op, outputs) {
        return Launch {
            contiguous: Vec::new(),
            call: String::new(),
            view_copies: Vec::new(),
            no_launch: Some(reason),
        };
    }
    let mut contiguous = Vec::new();
    let mut args = Vec::new();
    for p in inputs(op) {
        let id = cpp_ident(&p.name);
        if p.role == Role::InputTensorList {
            args.push(id);
        } else {
            let local = format!("{id}Contiguous");
            contiguous.push((local.clone(), id, may_be_null(op, &p.name)));
            args.push(local);
        }
    }
    args.extend(attrs(op).into_iter().map(|p| cpp_ident(&p.name)));
    for o in outputs {
        let id = cpp_ident(&o.param);
        // An output that may be null has then no shape nor dtype, and gets no copy.
        let optional = may_be_null(op, &o.param);
        if o.shape == Source::Caller {
            args.push(if optional {
                format!("{id} == nullptr ? op::Shape() : {id}->GetViewShape()")
            } else {
                format!("{id}->GetViewShape()")
            });
        }
        if o.dtype == Source::Caller {
            args.push(if optional {
                format!("{id} == nullptr ? op::DataType::DT_UNDEFINED : {id}->GetDataType()")
            } else {
                format!("{id}->GetDataType()")
            });
        }
    }
    args.push("uniqueExecutor.get()".to_string());
    let call = format!("l0op::{}({})", op.op, args.join(", "));
    let copy =
        |result: String, o: &Output| (result, cpp_ident(&o.param), may_be_null(op, &o.param));
    let view_copies = match outputs {
        [one] => vec![copy("result".to_string(), one)],
        _ => outputs
            .iter()
            .enumerate()
            .map(|(i, o)| copy(format!("std::get<{i}>(result)"), o))
            .collect(),
    };
    Launch {
        contiguous,
        call,
        view_copies,
        no_launch: None,
    }
}

#[derive(Serialize)]
struct AllocCtx {
    name: String,
    shape: String,
    dtype: String,
    format: String,
    /// What the doc does not state, said in the file.
    note: Option<String>,
}

#[derive(Serialize)]
struct L0Ctx {
    note: String,
    op: String,
    snake: String,
    guard: String,
    params: Vec<String>,
    return_type: String,
    dfx: Vec<String>,
    allocs: Vec<AllocCtx>,
    op_inputs: Vec<String>,
    op_outputs: Vec<String>,
    op_attrs: Vec<String>,
    returns: String,
    no_launch: Option<String>,
    /// Attributes `OP_ATTR` cannot take, said in the file.
    unpassed: Vec<String>,
    /// Some output's shape is a broadcast (the file defines `BroadcastShape`).
    broadcasts: bool,
}

/// Params an unconditional `NotNull` rule checks: never null once the checks passed.
fn checked_not_null(op: &OpIr) -> Vec<String> {
    op.all_rules()
        .into_iter()
        .filter_map(|r| match r.rule {
            aclnn_runtime::Rule::NotNull { params } => Some(params),
            _ => None,
        })
        .flatten()
        .collect()
}

/// `{input}->{getter}()`, or `fallback` where the input may be null: a tensor the doc lets be
/// null (no null check names it) reaches the l0 op as null, and must not be dereferenced.
fn read_input(op: &OpIr, input: &str, getter: &str, fallback: &str) -> String {
    let id = cpp_ident(input);
    if may_be_null(op, input) {
        format!("({id} == nullptr ? {fallback} : {id}->{getter}())")
    } else {
        format!("{id}->{getter}()")
    }
}

fn alloc(op: &OpIr, o: &Output) -> AllocCtx {
    let name = format!("{}Out", cpp_ident(&o.param));
    let mut missing = Vec::new();
    let shape = match &o.shape {
        Source::Input(i) => read_input(op, i, "GetViewShape", "op::Shape()"),
        Source::Broadcast(ins) => format!(
            "BroadcastShape({{{}}})",
            ins.iter()
                .map(|i| cpp_ident(i))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Source::Caller => {
            missing.push("shape");
            format!("{}Shape", o.param)
        }
    };
    let dtype = match &o.dtype {
        Source::Input(i) => read_input(op, i, "GetDataType", "op::DataType::DT_UNDEFINED"),
        Source::Broadcast(_) | Source::Caller => {
            missing.push("dtype");
            format!("{}Dtype", o.param)
        }
    };
    let first_input = inputs(op)
        .into_iter()
        .find(|p| p.role != Role::InputTensorList)
        .map(|p| read_input(op, &p.name, "GetStorageFormat", "op::Format::FORMAT_ND"));
    AllocCtx {
        name,
        shape,
        dtype,
        format: first_input.unwrap_or_else(|| "op::Format::FORMAT_ND".to_string()),
        note: (!missing.is_empty()).then(|| {
            format!(
                "aclgen: the doc states no {} of {}: the aclnn caller's tensor gives it",
                missing.join(" or "),
                o.param
            )
        }),
    }
}

fn l0_ctx(op: &OpIr, ctx: &EmitCtx, outputs: &[Output]) -> L0Ctx {
    let snake = snake_case(&op.op);
    let allocs: Vec<AllocCtx> = outputs.iter().map(|o| alloc(op, o)).collect();
    let returns = match allocs.as_slice() {
        [one] => one.name.clone(),
        many => format!(
            "std::make_tuple({})",
            many.iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    L0Ctx {
        note: ctx.note(op),
        op: op.op.clone(),
        guard: format!("OP_API_INC_LEVEL0_{}_H_", snake.to_ascii_uppercase()),
        snake,
        params: l0_params(op, outputs),
        return_type: return_type(outputs),
        dfx: inputs(op).into_iter().map(|p| cpp_ident(&p.name)).collect(),
        op_outputs: allocs.iter().map(|a| a.name.clone()).collect(),
        allocs,
        op_inputs: inputs(op).into_iter().map(|p| cpp_ident(&p.name)).collect(),
        op_attrs: attrs(op).into_iter().map(|p| cpp_ident(&p.name)).collect(),
        returns,
        no_launch: no_launch(op, outputs),
        unpassed: unpassed_attrs(op),
        broadcasts: outputs
            .iter()
            .any(|o| matches!(o.shape, Source::Broadcast(_))),
    }
}

pub(super) fn header(op: &OpIr, ctx: &EmitCtx, outputs: &[Output]) -> Result<OutFile, EmitError> {
    let snake = snake_case(&op.op);
    Ok(OutFile {
        path: PathBuf::from(format!("ops/{snake}/op_api/{snake}.h")),
        contents: super::super::render::render(
            &ctx.tera,
            "op_api/l0_op.h.tera",
            &l0_ctx(op, ctx, outputs),
        )?,
    })
}

pub(super) fn source(op: &OpIr, ctx: &EmitCtx, outputs: &[Output]) -> Result<OutFile, EmitError> {
    let snake = snake_case(&op.op);
    Ok(OutFile {
        path: PathBuf::from(format!("ops/{snake}/op_api/{snake}.cpp")),
        contents: super::super::render::render(
            &ctx.tera,
            "op_api/l0_op.cpp.tera",
            &l0_ctx(op, ctx, outputs),
        )?,
    })
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

    #[test]
    fn an_output_takes_the_shape_and_dtype_its_description_states() {
        let toy = op(
            "Toy",
            &[("ascend910b", true)],
            vec![
                tensor("self", Role::InputTensor),
                stating(
                    tensor("out", Role::OutputTensor),
                    "shape与self一致，数据类型与self一致。",
                ),
            ],
        );
        let outs = outputs(&toy);
        assert_eq!(outs[0].shape, Source::Input("self".into()));
        assert_eq!(outs[0].dtype, Source::Input("self".into()));
        assert_eq!(super::super::undocumented(&toy), None);
    }

    #[test]
    fn an_output_the_doc_says_nothing_of_comes_from_the_caller_and_gen_says_so() {
        let toy = op(
            "Toy",
            &[("ascend910b", true)],
            vec![
                tensor("self", Role::InputTensor),
                tensor("out", Role::OutputTensor),
            ],
        );
        let outs = outputs(&toy);
        assert_eq!(
            (&outs[0].shape, &outs[0].dtype),
            (&Source::Caller, &Source::Caller)
        );
        let warning = super::super::undocumented(&toy).expect("a warning");
        assert!(warning.contains("no shape of output out"), "{warning}");
        assert!(warning.contains("no dtype of output out"), "{warning}");
        assert!(launch(&toy, &outs).call.contains("out->GetViewShape()"));
    }

    #[test]
    fn a_scalar_list_attribute_is_not_passed_and_is_named() {
        let mut scalars = crate::fixture::attr("scalars", "const aclScalarList*", &[]);
        scalars.role = Role::Attribute;
        let toy = op(
            "Toy",
            &[("ascend910b", true)],
            vec![
                tensor("self", Role::InputTensor),
                scalars,
                tensor("out", Role::OutputTensor),
            ],
        );
        assert!(attrs(&toy).is_empty());
        assert_eq!(unpassed_attrs(&toy).len(), 1);
    }
}
