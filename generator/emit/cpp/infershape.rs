//! `op_host/<snake>_infershape.cpp`: `IMPL_OP_INFERSHAPE` with the output shapes and dtypes the
//! doc's rules state (the same `l0::Output` sources the l0 op allocates by). An output whose
//! shape or dtype the doc does not state fails with a message naming it: never a copy of input 0.

use super::l0::{Output, Source};
use super::*;

#[derive(Serialize)]
struct InferCtx {
    note: String,
    op: String,
    /// The first output shape the doc does not state: the function fails with it.
    shape_failure: Option<String>,
    dtype_failure: Option<String>,
    shapes: Vec<InferLine>,
    dtypes: Vec<InferLine>,
}

/// One output: its OpDef index and name, and how it is inferred (`from`: input indices; empty
/// with `missing` set: the doc states nothing).
#[derive(Serialize)]
struct InferLine {
    index: usize,
    name: String,
    from: Vec<(usize, String)>,
    missing: Option<String>,
}

/// The OpDef index of an input (`None`: after a dynamic input, where the index is no longer
/// the instance's).
fn input_index(op: &OpIr, name: &str) -> Option<usize> {
    let inputs = op.params.iter().filter(|p| {
        matches!(
            p.role,
            Role::InputTensor | Role::InputTensorList | Role::InOutTensor
        )
    });
    for (index, p) in inputs.enumerate() {
        if p.name == name {
            return Some(index);
        }
        if p.role == Role::InputTensorList {
            return None;
        }
    }
    None
}

fn line(op: &OpIr, index: usize, o: &Output, source: &Source, what: &str) -> InferLine {
    let names: Vec<String> = match source {
        Source::Input(i) => vec![i.clone()],
        Source::Broadcast(ins) => ins.clone(),
        Source::Caller => Vec::new(),
    };
    let from: Option<Vec<(usize, String)>> = names
        .iter()
        .map(|n| input_index(op, n).map(|i| (i, n.clone())))
        .collect();
    let missing = match (&from, source) {
        (_, Source::Caller) => Some(format!("the doc states no {what} of output {}", o.param)),
        (None, _) => Some(format!(
            "the {what} of output {} comes from an input after a dynamic input",
            o.param
        )),
        _ => None,
    };
    InferLine {
        index,
        name: o.param.clone(),
        from: if missing.is_some() {
            Vec::new()
        } else {
            from.unwrap_or_default()
        },
        missing,
    }
}

pub(super) fn source(op: &OpIr, ctx: &EmitCtx, outputs: &[Output]) -> Result<OutFile, EmitError> {
    let snake = snake_case(&op.op);
    let shapes: Vec<InferLine> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| line(op, i, o, &o.shape, "shape"))
        .collect();
    let dtypes: Vec<InferLine> = outputs
        .iter()
        .enumerate()
        .map(|(i, o)| line(op, i, o, &o.dtype, "dtype"))
        .collect();
    let failure = |lines: &[InferLine]| lines.iter().find_map(|l| l.missing.clone());
    let data = InferCtx {
        note: ctx.note(op),
        op: op.op.clone(),
        shape_failure: failure(&shapes),
        dtype_failure: failure(&dtypes),
        shapes,
        dtypes,
    };
    Ok(OutFile {
        path: PathBuf::from(format!("ops/{snake}/op_host/{snake}_infershape.cpp")),
        contents: super::super::render::render(&ctx.tera, "op_host/infershape.cpp.tera", &data)?,
    })
}

/// What the doc does not state of the outputs (each output's missing shape or dtype).
pub(super) fn missing(op: &OpIr, outputs: &[Output]) -> Vec<String> {
    outputs
        .iter()
        .enumerate()
        .flat_map(|(i, o)| {
            [
                line(op, i, o, &o.shape, "shape"),
                line(op, i, o, &o.dtype, "dtype"),
            ]
        })
        .filter_map(|l| l.missing)
        .collect()
}
