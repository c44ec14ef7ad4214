//! The C header of an op (`ops/<snake_op>/op_api/aclnn_<...>.h`), shaped like CANN's own: include
//! guard, the aclnn base includes, `extern "C"`, and a doxygen-commented `ACLNN_API` prototype for
//! each phase.

use super::{comment_text, EmitCtx, EmitError, OutFile};
use crate::ctype::{Base, Integer};
use crate::ir::{CParam, CType, Function, OpIr, Role};
use serde::Serialize;
use std::path::PathBuf;

const TEMPLATE: &str = "c/aclnn_header.h.tera";

/// clang-format's column limit in CANN's headers.
const COLUMNS: usize = 120;

#[derive(Serialize)]
struct HeaderCtx {
    note: String,
    guard: String,
    functions: Vec<FunctionCtx>,
}

#[derive(Serialize)]
struct FunctionCtx {
    brief: String,
    details: Vec<String>,
    params: Vec<ParamDoc>,
    return_type: String,
    prototype: String,
}

#[derive(Serialize)]
struct ParamDoc {
    dir: &'static str,
    name: String,
    description: String,
}

/// The header's path relative to the output folder.
pub fn header_path(op: &OpIr) -> PathBuf {
    PathBuf::from(op.project_dir())
        .join("op_api")
        .join(op.header_name())
}

pub fn header(op: &OpIr, ctx: &EmitCtx) -> Result<OutFile, EmitError> {
    family_header(op, &[op], ctx)
}

/// `op`'s header holding the prototypes of every op of `family` (the ops whose docs name the
/// same header file, in spec order): CANN declares aclnnAtan2 and aclnnInplaceAtan2 in one
/// `aclnn_atan2.h`, so each op's copy is that whole file, never half of it under the same guard.
pub fn family_header(op: &OpIr, family: &[&OpIr], ctx: &EmitCtx) -> Result<OutFile, EmitError> {
    let members: Vec<&OpIr> = if family.iter().any(|o| o.op == op.op) {
        family.to_vec()
    } else {
        vec![op]
    };
    let data = HeaderCtx {
        note: ctx.note_of(members.iter().flat_map(|o| &o.sources)),
        guard: include_guard(&op.header_name()),
        functions: members
            .iter()
            .flat_map(|o| o.functions.iter().map(move |f| function_ctx(o, f)))
            .collect(),
    };
    Ok(OutFile {
        path: header_path(op),
        contents: super::wrap::wrap_long_lines(&super::render::render(&ctx.tera, TEMPLATE, &data)?),
    })
}

/// `aclnn_avgpool2d_backward.h` → `OP_API_INC_LEVEL2_ACLNN_AVGPOOL2D_BACKWARD_H_`.
pub fn include_guard(header_name: &str) -> String {
    let stem = header_name.strip_suffix(".h").unwrap_or(header_name);
    let upper: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("OP_API_INC_LEVEL2_{upper}_H_")
}

fn function_ctx(op: &OpIr, f: &Function) -> FunctionCtx {
    let first_phase = f.name.ends_with("GetWorkspaceSize");
    let api = format!("aclnn{}", op.op);
    let brief = if first_phase {
        format!("{api}的第一段接口，根据具体的计算流程，计算workspace大小。")
    } else {
        format!("{api}的第二段接口，用于执行计算。")
    };
    let details = op
        .description
        .lines()
        .map(comment_text)
        .filter(|l| !l.is_empty())
        .map(|l| format!("算子功能：{l}"))
        .take(1)
        .collect();
    FunctionCtx {
        brief,
        details,
        params: f
            .params
            .iter()
            .map(|p| param_doc(op, p, first_phase))
            .collect(),
        return_type: f.return_type.clone(),
        prototype: prototype(f),
    }
}

fn param_doc(op: &OpIr, p: &CParam, first_phase: bool) -> ParamDoc {
    let ir = if first_phase { op.param(&p.name) } else { None };
    let dir = match ir.map(|ir| ir.role) {
        Some(Role::InOutTensor) => "in,out",
        Some(Role::OutputTensor | Role::OutputTensorList) => "out",
        Some(Role::WorkspaceSize | Role::Executor) if is_out_type(&p.ty) => "out",
        Some(_) => "in",
        None if first_phase && is_out_type(&p.ty) => "out",
        None => "in",
    };
    let documented = ir.map(|ir| comment_text(&ir.description));
    let description = match documented {
        Some(d) if !d.is_empty() => d,
        _ => standard_description(op, p, first_phase),
    };
    ParamDoc {
        dir,
        name: p.name.clone(),
        description,
    }
}

/// Pointers the callee writes through: mutable tensors, `uint64_t*`, `aclOpExecutor**`.
fn is_out_type(ty: &CType) -> bool {
    let handle = matches!(ty.base(), Base::Tensor | Base::TensorList) && ty.pointers() == 1;
    !ty.is_const() && (handle || ty.pointers() == 2)
        || ty.base() == Base::Integer(Integer::U64) && ty.pointers() == 1
}

/// CANN's wording for the parameters every two-phase API has.
fn standard_description(op: &OpIr, p: &CParam, first_phase: bool) -> String {
    match (first_phase, p.ty.base(), p.ty.pointers()) {
        (true, Base::Integer(Integer::U64), 1) => {
            "返回需要在Device侧申请的workspace大小。".to_string()
        }
        (true, Base::Executor, 2) => "返回op执行器，包含了算子计算流程。".to_string(),
        (false, Base::Void, 1) => "在Device侧申请的workspace内存地址。".to_string(),
        (false, Base::Integer(Integer::U64), 0) => format!(
            "在Device侧申请的workspace大小，由第一段接口aclnn{}GetWorkspaceSize获取。",
            op.op
        ),
        (false, Base::Executor, 1) => "op执行器，包含了算子计算流程。".to_string(),
        (false, Base::Stream, 0) => "指定执行任务的Stream。".to_string(),
        _ => String::new(),
    }
}

/// `ACLNN_API aclnnStatus name(T a, T b, ...);` wrapped at 120 columns with parameters aligned
/// after the parenthesis, as clang-format lays out CANN's headers.
pub fn prototype(f: &Function) -> String {
    let head = format!("ACLNN_API {} {}(", f.return_type, f.name);
    let count = f.params.len();
    if count == 0 {
        return format!("{head}void);");
    }
    // A name too long to align after: the parameters go on the next lines, one indent deeper.
    let widest = f
        .params
        .iter()
        .map(|p| c_decl(p).chars().count() + 2)
        .max()
        .unwrap_or(0);
    let aligned = head.chars().count() + widest <= COLUMNS;
    let indent = if aligned {
        " ".repeat(head.chars().count())
    } else {
        "    ".to_string()
    };
    let mut out = head.clone();
    let mut line_len = head.chars().count();
    let mut line_has_param = !aligned;
    for (i, p) in f.params.iter().enumerate() {
        let end = if i + 1 == count { ");" } else { "," };
        let piece = format!("{}{end}", c_decl(p));
        let sep = usize::from(line_has_param);
        if line_has_param && line_len + sep + piece.chars().count() > COLUMNS {
            out.push('\n');
            out.push_str(&indent);
            line_len = indent.len();
            line_has_param = false;
        }
        if line_has_param {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&piece);
        line_len += piece.chars().count();
        line_has_param = true;
    }
    out
}

/// `const aclTensor*` + `self` → `const aclTensor* self`.
pub fn c_decl(p: &CParam) -> String {
    format!("{} {}", p.ty.as_str().trim(), p.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cparam(ty: &str, name: &str) -> CParam {
        CParam {
            name: name.into(),
            ty: ty.into(),
        }
    }

    #[test]
    fn guard_follows_cann_level2_pattern() {
        assert_eq!(
            include_guard("aclnn_avgpool2d_backward.h"),
            "OP_API_INC_LEVEL2_ACLNN_AVGPOOL2D_BACKWARD_H_"
        );
    }

    #[test]
    fn prototype_wraps_like_clang_format() {
        let f = Function {
            name: "aclnnAvgPool2dBackward".into(),
            return_type: "aclnnStatus".into(),
            params: vec![
                cparam("void*", "workspace"),
                cparam("uint64_t", "workspaceSize"),
                cparam("aclOpExecutor*", "executor"),
                cparam("aclrtStream", "stream"),
            ],
            source: None,
        };
        // The exact layout of CANN's aclnn_avgpool2d_backward.h.
        assert_eq!(
            prototype(&f),
            "ACLNN_API aclnnStatus aclnnAvgPool2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,\n                                             aclrtStream stream);"
        );
    }

    #[test]
    fn out_types_are_recognised() {
        assert!(is_out_type(&"aclTensor*".into()));
        assert!(is_out_type(&"uint64_t*".into()));
        assert!(is_out_type(&"aclOpExecutor**".into()));
        assert!(!is_out_type(&"const aclTensor*".into()));
        assert!(!is_out_type(&"aclrtStream".into()));
    }
}
