//! The l0 op (`op_api/<snake>.{h,cpp}`): `OP_TYPE_REGISTER` with the OpDef's op type, each output
//! allocated with the shape and dtype the doc's rules give it (`Output`), and
//! `ADD_TO_LAUNCHER_LIST_AICORE` with the OpDef's inputs, outputs and attributes. The aclnn layer
//! calls it between `Contiguous` and `ViewCopy` (`launch`).

use super::*;

/// One output of the op as the doc states it (`rules::outputs`).
pub(super) use crate::ir::OutputInference as Output;
use crate::ir::{DtypeFrom, ShapeFrom, WhenEmpty};

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
    crate::emit::opdef::registered_attrs(op)
        .filter(|p| op_attr_takes(p))
        .collect()
}

/// `OP_ATTR` has no overload for an `aclScalarList` (opbase's `op_arg_def.h`).
fn op_attr_takes(p: &Param) -> bool {
    p.kind() != ParamKind::ScalarList
}

/// OpDef attributes the l0 op cannot pass (they reach no kernel), as the warning says them.
pub(super) fn unpassed_attrs(op: &OpIr) -> Vec<String> {
    crate::emit::opdef::registered_attrs(op)
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
    crate::emit::opdef::inputs(op).collect()
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
        if o.shape.is_none() {
            params.push(format!("const op::Shape& {}Shape", o.param));
        }
        if o.dtype.is_none() {
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
    /// The inputs the op computes in their promoted dtype, cast to it before the call.
    pub promotion: Option<Promotion>,
    pub call: String,
    pub view_copies: Vec<ViewCopy>,
    pub no_launch: Option<String>,
}

/// One output's copy back into the caller's tensor: the l0 result expression, the output,
/// whether it may be null, and the local it is cast into first (to the caller's dtype), if any.
#[derive(Serialize)]
pub(super) struct ViewCopy {
    pub result: String,
    pub out: String,
    pub optional: bool,
    pub cast: Option<String>,
}

/// Whether `param` may still be null once the checks passed: optional, or named by no null check
/// (the doc lets it be null).
pub(super) fn may_be_null(op: &OpIr, param: &str) -> bool {
    op.param(param).is_some_and(|p| p.optional) || !checked_not_null(op).iter().any(|p| p == param)
}

/// The doc's 互推导关系: `dtype` (a C++ expression of `std::optional<op::DataType>`) is the
/// inputs' promoted dtype, and each (cast local, contiguous local, may be null) is cast to it.
#[derive(Serialize)]
pub(super) struct Promotion {
    pub dtype: String,
    /// Why the op computes in it, as the file says.
    pub why: String,
    pub casts: Vec<(String, String, bool)>,
}

/// The dtype the op computes in, where the doc gives one other than the inputs' own, and the
/// inputs cast to it (`Output::casts`): the promoted dtype of the operands the doc promotes
/// together (an `aclScalar` among them counts, and is not cast), or the dtype argument an
/// output's dtype is. One per call, as CANN's aclnn functions make it.
fn compute_dtype(
    op: &OpIr,
    outputs: &[Output],
    arg: &dyn Fn(&str) -> String,
) -> Option<(String, Vec<String>, &'static str)> {
    let is_tensor = |n: &String| op.param(n).is_some_and(|p| p.role.is_tensor());
    outputs.iter().find_map(|o| match &o.dtype {
        _ if o.casts.is_empty() => None,
        Some(DtypeFrom::Argument(a)) => Some((
            format!(
                "std::optional<op::DataType>(op::ToOpDataType({}))",
                cpp_ident(&arg(a))
            ),
            o.casts.clone(),
            "The op computes in the dtype its dtype argument names",
        )),
        _ => {
            let (tensors, scalars): (Vec<String>, Vec<String>) =
                o.casts.iter().cloned().partition(is_tensor);
            let named = |f: &str, names: &[String]| {
                let parts: Vec<String> = names
                    .iter()
                    .map(|n| format!("{f}(\"{n}\", {})", cpp_ident(&arg(n))))
                    .collect();
                parts.join(", ")
            };
            let dtype = if scalars.is_empty() {
                format!(
                    "pred::promoted_dtype(pred::concat({{{}}}))",
                    named("pred::one", &tensors)
                )
            } else {
                format!(
                    "pred::promoted_dtype_with(pred::concat({{{}}}), pred::scalars({{{}}}))",
                    named("pred::one", &tensors),
                    scalars
                        .iter()
                        .map(|n| format!("{{\"{n}\", pred::arg_of({})}}", cpp_ident(&arg(n))))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            Some((
                dtype,
                tensors,
                "The doc's 互推导关系: the op computes in the inputs' promoted dtype",
            ))
        }
    })
}

/// The inputs cast to the dtype the op computes in.
fn cast_inputs(op: &OpIr, outputs: &[Output]) -> Vec<String> {
    compute_dtype(op, outputs, &|n| n.to_string()).map_or(Vec::new(), |(_, ins, _)| ins)
}

fn promotion(op: &OpIr, outputs: &[Output], arg: &dyn Fn(&str) -> String) -> Option<Promotion> {
    let (dtype, ins, why) = compute_dtype(op, outputs, arg)?;
    Some(Promotion {
        dtype,
        why: why.to_string(),
        casts: ins
            .iter()
            .map(|n| {
                let id = cpp_ident(&arg(n));
                (
                    format!("{id}Casted"),
                    format!("{id}Contiguous"),
                    may_be_null(op, n),
                )
            })
            .collect(),
    })
}

pub(super) fn launch(op: &OpIr, outputs: &[Output]) -> Launch {
    launch_as(op, outputs, &|name| name.to_string())
}

/// `launch` of `op`'s l0 op from a caller whose argument for `op`'s parameter `p` is
/// `arg(p)`: a linked in-place function passes its in/out tensor as the input and the output.
pub(super) fn launch_as(op: &OpIr, outputs: &[Output], arg: &dyn Fn(&str) -> String) -> Launch {
    if let Some(reason) = no_launch(op, outputs) {
        return Launch {
            contiguous: Vec::new(),
            promotion: None,
            call: String::new(),
            view_copies: Vec::new(),
            no_launch: Some(reason),
        };
    }
    let mut contiguous = Vec::new();
    let mut args = Vec::new();
    let promotion = promotion(op, outputs, arg);
    let casts = cast_inputs(op, outputs);
    let promoted = |name: &str| casts.iter().any(|n| n == name);
    for p in inputs(op) {
        let id = cpp_ident(&arg(&p.name));
        if p.role == Role::InputTensorList {
            args.push(id);
        } else {
            let local = format!("{id}Contiguous");
            contiguous.push((local.clone(), id.clone(), may_be_null(op, &p.name)));
            args.push(if promoted(&p.name) {
                format!("{id}Casted")
            } else {
                local
            });
        }
    }
    args.extend(attrs(op).into_iter().map(|p| cpp_ident(&arg(&p.name))));
    for o in outputs {
        let id = cpp_ident(&arg(&o.param));
        // An output that may be null has then no shape nor dtype, and gets no copy.
        let optional = may_be_null(op, &o.param);
        if o.shape.is_none() {
            args.push(if optional {
                format!("{id} == nullptr ? op::Shape() : {id}->GetViewShape()")
            } else {
                format!("{id}->GetViewShape()")
            });
        }
        if o.dtype.is_none() {
            args.push(if optional {
                format!("{id} == nullptr ? op::DataType::DT_UNDEFINED : {id}->GetDataType()")
            } else {
                format!("{id}->GetDataType()")
            });
        }
    }
    args.push("uniqueExecutor.get()".to_string());
    let call = format!("l0op::{}({})", op.op, args.join(", "));
    // An output the op computes in a dtype of its own is cast to the caller's, as CANN's aclnn
    // functions do, unless a check already made the two one.
    let copy = |result: String, o: &Output| {
        let out = cpp_ident(&arg(&o.param));
        let cast = (o.dtype.is_some() && !o.dtype_checked).then(|| format!("{out}Cast"));
        ViewCopy {
            result,
            out,
            optional: may_be_null(op, &o.param),
            cast,
        }
    };
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
        promotion,
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
    /// A reduction (`shape` names the `op::Shape` it fills): the `ReduceShape` call, which fails
    /// on a dim out of range or an empty list the doc gives no meaning.
    reduce: Option<String>,
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
    /// Some output's shape is a reduction (the file defines `ReduceShape`).
    reduces: bool,
    /// The dtype mappings of outputs (`DtypeFrom::Mapped`), each a function of the file.
    dtype_maps: Vec<DtypeMapCtx>,
}

/// `op::DataType <fn_name>(op::DataType from)`: output `param`'s dtype from `input`'s, one
/// (case labels, returned dtype) per case.
#[derive(Serialize)]
struct DtypeMapCtx {
    fn_name: String,
    param: String,
    input: String,
    cases: Vec<(Vec<String>, String)>,
}

fn dtype_map_fn(param: &str) -> String {
    let mut name = cpp_ident(param);
    if let Some(first) = name.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{name}DtypeOf")
}

fn dtype_maps(outputs: &[Output]) -> Vec<DtypeMapCtx> {
    outputs
        .iter()
        .filter_map(|o| match &o.dtype {
            Some(DtypeFrom::Mapped { input, cases }) => Some(DtypeMapCtx {
                fn_name: dtype_map_fn(&o.param),
                param: o.param.clone(),
                input: input.clone(),
                cases: cases
                    .iter()
                    .map(|c| {
                        (
                            c.when.iter().filter_map(|d| d.ge_name()).collect(),
                            c.to.and_then(|d| d.ge_name()).unwrap_or("from".into()),
                        )
                    })
                    .collect(),
            }),
            _ => None,
        })
        .collect()
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

/// One dim of an output as the l0 function computes it from its arguments.
fn dim_expr(op: &OpIr, d: &crate::ir::DimFrom) -> String {
    match d {
        crate::ir::DimFrom::Attr(a) => cpp_ident(a),
        crate::ir::DimFrom::Input { param, dim } => {
            let shape = read_input(op, param, "GetViewShape", "op::Shape()");
            if *dim >= 0 {
                format!("{shape}.GetDim({dim})")
            } else {
                format!("{shape}.GetDim({shape}.GetDimNum() - {})", -dim)
            }
        }
    }
}

fn alloc(op: &OpIr, o: &Output) -> AllocCtx {
    let name = format!("{}Out", cpp_ident(&o.param));
    let mut missing = Vec::new();
    let mut reduce = None;
    let shape = match &o.shape {
        Some(ShapeFrom::Reduce {
            input,
            dims,
            keepdim,
            when_empty,
        }) => {
            reduce = Some(reduce_call(op, &name, input, dims, keepdim, when_empty));
            format!("{name}Shape")
        }
        Some(ShapeFrom::Input(i)) => read_input(op, i, "GetViewShape", "op::Shape()"),
        Some(ShapeFrom::Broadcast(ins)) => format!(
            "BroadcastShape({{{}}})",
            ins.iter()
                .map(|i| cpp_ident(i))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(ShapeFrom::Dims(dims)) => format!(
            "op::Shape({{{}}})",
            dims.iter()
                .map(|d| dim_expr(op, d))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => {
            missing.push("shape");
            format!("{}Shape", o.param)
        }
    };
    let dtype = match &o.dtype {
        Some(DtypeFrom::Input(i) | DtypeFrom::Paired(i)) => {
            read_input(op, i, "GetDataType", "op::DataType::DT_UNDEFINED")
        }
        Some(DtypeFrom::Fixed(d)) => d
            .ge_name()
            .unwrap_or_else(|| "op::DataType::DT_UNDEFINED".into()),
        Some(DtypeFrom::Argument(a)) => format!("op::ToOpDataType({})", cpp_ident(a)),
        Some(DtypeFrom::Mapped { input, .. }) => format!(
            "{}({})",
            dtype_map_fn(&o.param),
            read_input(op, input, "GetDataType", "op::DataType::DT_UNDEFINED")
        ),
        // The aclnn layer cast every input to the promoted dtype before the call.
        Some(DtypeFrom::Promoted(ins)) => {
            read_input(op, &ins[0], "GetDataType", "op::DataType::DT_UNDEFINED")
        }
        None => {
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
        reduce,
    }
}

/// `ReduceShape(input's shape, dims as a vector, keepdim, all_when_empty, <name>Shape)`.
fn reduce_call(
    op: &OpIr,
    name: &str,
    input: &str,
    dims: &str,
    keepdim: &str,
    when_empty: &WhenEmpty,
) -> String {
    let id = cpp_ident(dims);
    let list = if op.param(dims).is_some_and(|d| d.kind() == ParamKind::Int) {
        format!("std::vector<int64_t>{{{id}}}")
    } else if may_be_null(op, dims) {
        format!(
            "({id} == nullptr ? std::vector<int64_t>() \
             : std::vector<int64_t>({id}->GetData(), {id}->GetData() + {id}->Size()))"
        )
    } else {
        format!("std::vector<int64_t>({id}->GetData(), {id}->GetData() + {id}->Size())")
    };
    let empty = match when_empty {
        WhenEmpty::Unstated => "EmptyDims::UNSTATED".to_string(),
        WhenEmpty::EveryDim => "EmptyDims::EVERY".to_string(),
        WhenEmpty::Chosen { attr, noop } => format!(
            "({}{} ? EmptyDims::NOTHING : EmptyDims::EVERY)",
            if *noop { "" } else { "!" },
            cpp_ident(attr)
        ),
    };
    format!(
        "ReduceShape({}, {list}, {}, {empty}, {name}Shape)",
        read_input(op, input, "GetViewShape", "op::Shape()"),
        cpp_ident(keepdim),
    )
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
            .any(|o| matches!(o.shape, Some(ShapeFrom::Broadcast(_)))),
        reduces: outputs
            .iter()
            .any(|o| matches!(o.shape, Some(ShapeFrom::Reduce { .. }))),
        dtype_maps: dtype_maps(outputs),
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

    #[test]
    fn an_output_the_doc_says_nothing_of_comes_from_the_caller_and_gen_says_so() {
        let mut toy = op(
            "Toy",
            &[("ascend910b", true)],
            vec![
                tensor("self", Role::InputTensor),
                tensor("out", Role::OutputTensor),
            ],
        );
        toy.outputs = crate::rules::outputs::infer(&toy);
        let outs = toy.outputs.clone();
        assert_eq!((&outs[0].shape, &outs[0].dtype), (&None, &None));
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
