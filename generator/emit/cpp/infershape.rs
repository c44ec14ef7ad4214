//! `op_host/<snake>_infershape.cpp`: `IMPL_OP_INFERSHAPE` with the output shapes and dtypes the
//! doc states (`OpIr::outputs`, the same facts the l0 op allocates by). InferShape is registered
//! only when the doc states every output's shape, InferDataType only when it states every dtype:
//! a registered function that always fails is worse than none, and the `cpp-undocumented`
//! warning names what is missing.

use super::l0::Output;
use super::*;
use crate::ir::{DimFrom, DtypeFrom, ShapeFrom, WhenEmpty};

#[derive(Serialize)]
struct InferCtx {
    note: String,
    op: String,
    /// Every output's shape, or `None` (InferShape is not registered).
    shapes: Option<Vec<ShapeLine>>,
    /// Every output's dtype, or `None` (InferDataType is not registered).
    dtypes: Option<Vec<DtypeLine>>,
    /// Some output is a reduction (its code needs `<vector>`).
    reduces: bool,
}

/// One output's shape: its OpDef index and name, and the inputs (OpDef index, name) it is the
/// shape of (one) or the broadcast of (several).
#[derive(Serialize)]
struct ShapeLine {
    index: usize,
    name: String,
    from: Vec<(usize, String)>,
    /// Dim by dim (`from` empty): each dim's source.
    dims: Vec<DimLine>,
    /// A reduction of the one input in `from`.
    reduce: Option<ReduceLine>,
}

/// An input reduced over an attribute's dims: the OpDef indices of the dims attribute (a
/// ListInt, or an Int when `one_dim`) and of the Bool keepdim attribute.
#[derive(Serialize)]
struct ReduceLine {
    dims: usize,
    one_dim: bool,
    keepdim: usize,
    /// What an empty list reduces (`EmptyDims::` UNSTATED or EVERY), unless `chooser` (the
    /// OpDef index of a Bool) chooses it: NOTHING when it is `noop`, else EVERY.
    empty: &'static str,
    chooser: Option<usize>,
    noop: bool,
}

/// One dim of an output: an Int attribute's value (`attr`, its OpDef index) or an input's dim
/// (`input`, its OpDef index, and `dim`, a C++ index expression of `from`, the input's shape).
#[derive(Serialize)]
struct DimLine {
    attr: Option<usize>,
    input: Option<usize>,
    dim: String,
}

/// One output's dtype: `input` (an input's, at `from`), `fixed` (`value`), `attr` (the dtype
/// attribute at `attr`), or `promoted` (the inputs at `from`, which the aclnn layer made one).
#[derive(Serialize)]
struct DtypeLine {
    index: usize,
    name: String,
    kind: &'static str,
    from: Vec<(usize, String)>,
    value: String,
    attr: usize,
    /// `mapped`: (a condition on `from`, the dtype it gives), in order.
    cases: Vec<(String, String)>,
}

/// The OpDef index of an input (`None`: after a dynamic input, where the index is no longer
/// the instance's).
fn input_index(op: &OpIr, name: &str) -> Option<usize> {
    for (index, p) in crate::emit::opdef::inputs(op).enumerate() {
        if p.name == name {
            return Some(index);
        }
        if p.role == Role::InputTensorList {
            return None;
        }
    }
    None
}

/// The OpDef index of an attribute.
fn attr_index(op: &OpIr, name: &str) -> Option<usize> {
    crate::emit::opdef::registered_attrs(op).position(|p| p.name == name)
}

fn indexed(op: &OpIr, names: &[String]) -> Option<Vec<(usize, String)>> {
    names
        .iter()
        .map(|n| input_index(op, n).map(|i| (i, n.clone())))
        .collect()
}

/// Why an output's shape cannot be inferred, or its line.
fn shape_line(op: &OpIr, index: usize, o: &Output) -> Result<ShapeLine, String> {
    let names = match &o.shape {
        Some(ShapeFrom::Input(i)) => vec![i.clone()],
        Some(ShapeFrom::Broadcast(ins)) => ins.clone(),
        Some(ShapeFrom::Dims(dims)) => {
            return Ok(ShapeLine {
                index,
                name: o.param.clone(),
                from: Vec::new(),
                dims: dims
                    .iter()
                    .map(|d| dim_line(op, d))
                    .collect::<Option<_>>()
                    .ok_or_else(|| after_dynamic("shape", o))?,
                reduce: None,
            })
        }
        Some(ShapeFrom::Reduce {
            input,
            dims,
            keepdim,
            when_empty,
        }) => {
            let attr = |name: &str| {
                attr_index(op, name).ok_or_else(|| {
                    format!(
                        "the shape of output {} reduces over argument {name}, no OpDef attribute",
                        o.param
                    )
                })
            };
            return Ok(ShapeLine {
                index,
                name: o.param.clone(),
                from: indexed(op, std::slice::from_ref(input))
                    .ok_or_else(|| after_dynamic("shape", o))?,
                dims: Vec::new(),
                reduce: Some(ReduceLine {
                    dims: attr(dims)?,
                    one_dim: op
                        .param(dims)
                        .is_some_and(|d| d.kind() == crate::ir::ParamKind::Int),
                    keepdim: attr(keepdim)?,
                    empty: match when_empty {
                        WhenEmpty::EveryDim => "EVERY",
                        _ => "UNSTATED",
                    },
                    chooser: match when_empty {
                        WhenEmpty::Chosen { attr: a, .. } => Some(attr(a)?),
                        _ => None,
                    },
                    noop: matches!(when_empty, WhenEmpty::Chosen { noop: true, .. }),
                }),
            });
        }
        None => return Err(format!("the doc states no shape of output {}", o.param)),
    };
    let from = indexed(op, &names).ok_or_else(|| after_dynamic("shape", o))?;
    Ok(ShapeLine {
        index,
        name: o.param.clone(),
        from,
        dims: Vec::new(),
        reduce: None,
    })
}

fn dim_line(op: &OpIr, d: &DimFrom) -> Option<DimLine> {
    Some(match d {
        DimFrom::Attr(a) => DimLine {
            attr: Some(attr_index(op, a)?),
            input: None,
            dim: String::new(),
        },
        DimFrom::Input { param, dim } => DimLine {
            attr: None,
            input: Some(input_index(op, param)?),
            dim: if *dim >= 0 {
                dim.to_string()
            } else {
                format!("from->GetDimNum() - {}", -dim)
            },
        },
    })
}

fn after_dynamic(what: &str, o: &Output) -> String {
    format!(
        "the {what} of output {} comes from an input after a dynamic input",
        o.param
    )
}

fn dtype_line(op: &OpIr, index: usize, o: &Output) -> Result<DtypeLine, String> {
    let mut line = DtypeLine {
        index,
        name: o.param.clone(),
        kind: "input",
        from: Vec::new(),
        value: String::new(),
        attr: 0,
        cases: Vec::new(),
    };
    match &o.dtype {
        Some(DtypeFrom::Paired(i)) => {
            line.kind = "paired";
            line.from =
                indexed(op, std::slice::from_ref(i)).ok_or_else(|| after_dynamic("dtype", o))?;
        }
        Some(DtypeFrom::Input(i)) => {
            line.from =
                indexed(op, std::slice::from_ref(i)).ok_or_else(|| after_dynamic("dtype", o))?;
        }
        Some(DtypeFrom::Promoted(ins)) => {
            line.kind = "promoted";
            line.from = indexed(op, ins).ok_or_else(|| after_dynamic("dtype", o))?;
        }
        Some(DtypeFrom::Fixed(d)) => {
            line.kind = "fixed";
            line.value = d.ge_name().unwrap_or_default();
        }
        Some(DtypeFrom::Argument(a)) => {
            line.kind = "attr";
            line.attr = attr_index(op, a).ok_or_else(|| {
                format!(
                    "the dtype of output {} is argument {a}, no OpDef attribute",
                    o.param
                )
            })?;
        }
        Some(DtypeFrom::Mapped { input, cases }) => {
            line.kind = "mapped";
            line.from = indexed(op, std::slice::from_ref(input))
                .ok_or_else(|| after_dynamic("dtype", o))?;
            line.cases = cases
                .iter()
                .map(|c| {
                    let test: Vec<String> = c
                        .when
                        .iter()
                        .filter_map(|d| d.ge_name())
                        .map(|n| format!("from == {n}"))
                        .collect();
                    let to = c.to.and_then(|d| d.ge_name()).unwrap_or("from".into());
                    (test.join(" || "), to)
                })
                .collect();
        }
        None => return Err(format!("the doc states no dtype of output {}", o.param)),
    }
    Ok(line)
}

/// The op's InferShape file, or `None` where the doc states neither every output's shape nor
/// every output's dtype (nothing to register).
pub(super) fn source(
    op: &OpIr,
    ctx: &EmitCtx,
    outputs: &[Output],
) -> Result<Option<OutFile>, EmitError> {
    let shapes: Option<Vec<ShapeLine>> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| shape_line(op, i, o).ok())
        .collect();
    let dtypes: Option<Vec<DtypeLine>> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| dtype_line(op, i, o).ok())
        .collect();
    if outputs.is_empty() || (shapes.is_none() && dtypes.is_none()) {
        return Ok(None);
    }
    let snake = snake_case(&op.op);
    let reduces = shapes
        .iter()
        .flatten()
        .any(|s: &ShapeLine| s.reduce.is_some());
    let data = InferCtx {
        note: ctx.note(op),
        op: op.op.clone(),
        shapes,
        dtypes,
        reduces,
    };
    Ok(Some(OutFile {
        path: PathBuf::from(format!("ops/{snake}/op_host/{snake}_infershape.cpp")),
        contents: super::super::render::render(&ctx.tera, "op_host/infershape.cpp.tera", &data)?,
    }))
}

/// What the doc does not state of the outputs (each output's missing shape or dtype), as the
/// warning says it.
pub(super) fn missing(op: &OpIr, outputs: &[Output]) -> Vec<String> {
    let mut gaps: Vec<String> = outputs
        .iter()
        .enumerate()
        .flat_map(|(i, o)| [shape_line(op, i, o).err(), dtype_line(op, i, o).err()])
        .flatten()
        .collect();
    let shapes_known = outputs
        .iter()
        .enumerate()
        .all(|(i, o)| shape_line(op, i, o).is_ok());
    let dtypes_known = outputs
        .iter()
        .enumerate()
        .all(|(i, o)| dtype_line(op, i, o).is_ok());
    if !outputs.is_empty() && !shapes_known {
        gaps.push("no InferShape is registered".into());
    }
    if !outputs.is_empty() && !dtypes_known {
        gaps.push("no InferDataType is registered".into());
    }
    gaps
}
