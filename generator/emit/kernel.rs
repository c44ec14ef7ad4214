//! The kernel side of an op's Ascend C project: tiling data and function (op_host/) and the
//! kernel skeleton (op_kernel/) into which the hand-written body from `kernels/` is filled.
//!
//! The contract between skeleton and body is described in `kernels/README.md`. The body is not
//! copied: the skeleton `#include`s `<snake>_body.h` and `<snake>_tiling_choices.h`, which the
//! build finds on the include path (`kernels/<snake>/`), so a body has one home.

use super::OutFile;
use crate::ir::{snake_case, OpIr, Param, Role};
use aclnn_runtime::DType;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Template names, relative to the templates folder.
pub const TILING_H_TEMPLATE: &str = "ascend/op_host_tiling_h.tera";
pub const TILING_CPP_TEMPLATE: &str = "ascend/op_host_tiling_cpp.tera";
pub const SHARED_TILING_TEMPLATE: &str = "ascend/aclgen_tiling_h.tera";
/// Where the tiling every op shares goes; each `op_host/<snake>_tiling.cpp` includes it by this
/// path relative to itself (`../../../common/op_host/aclgen_tiling.h`).
pub const SHARED_TILING_PATH: &str = "common/op_host/aclgen_tiling.h";
pub const KERNEL_TEMPLATE: &str = "ascend/op_kernel.tera";

/// C++ types a tiling field may have (4- and 8-byte, so host and kernel layouts agree).
const FIELD_TYPES: &[&str] = &["int32_t", "uint32_t", "int64_t", "uint64_t", "float"];

/// Field names the skeleton already uses.
const GENERIC_FIELDS: &[&str] = &["totalUnits", "unitsPerCore", "tileUnits"];

/// `kernels/<snake>/tiling.yaml`: the op-specific part of the tiling data.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TilingSpec {
    /// What one unit of work is (documentation; the choices header implements it).
    #[serde(default)]
    pub unit: String,
    /// Extra tiling fields, in order.
    #[serde(default)]
    pub fields: Vec<TilingField>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TilingField {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
}

/// The tiling function `op_host/<snake>_tiling.cpp` defines and `<snake>_tiling.h` declares, in
/// namespace optiling (the OpDef's `SetTiling` names it).
pub fn tiling_func_name(op: &str) -> String {
    format!("{op}TilingFunc")
}

/// What `kernels/<snake>/` holds for one op.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KernelSources {
    pub dir: PathBuf,
    pub tiling: TilingSpec,
    pub has_body: bool,
    pub has_choices: bool,
}

impl KernelSources {
    pub fn body_file(snake: &str) -> String {
        format!("{snake}_body.h")
    }
    pub fn choices_file(snake: &str) -> String {
        format!("{snake}_tiling_choices.h")
    }
}

/// What `kernels/<snake>/` may hold besides the body and its choices.
const TILING_YAML: &str = "tiling.yaml";

/// Checks `kernels/<snake>/` as kernels/README.md says: nothing, or a body with its tiling choices
/// and optionally `tiling.yaml`, and no other file (a misnamed body would be silently ignored).
/// Err is a problem in the user's input (gen refuses the op, exit 1), with the folder's path.
pub fn check_kernel_folder(op: &OpIr, kernels_dir: &Path) -> Result<KernelSources, String> {
    let snake = snake_case(&op.op);
    let dir = kernels_dir.join(&snake);
    let allowed = [
        TILING_YAML.to_string(),
        KernelSources::body_file(&snake),
        KernelSources::choices_file(&snake),
    ];
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut stray: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !allowed.contains(name) && !name.starts_with('.'))
            .collect();
        stray.sort();
        if !stray.is_empty() {
            return Err(format!(
                "{}: unexpected {}; an op's folder holds only {}",
                dir.display(),
                stray.join(", "),
                allowed.join(", ")
            ));
        }
    }
    let sources = kernel_sources(op, kernels_dir)?;
    if !sources.has_body && dir.join(TILING_YAML).is_file() {
        return Err(format!(
            "{}: {TILING_YAML} without a kernel body; it comes with {} and {}",
            dir.display(),
            allowed[1],
            allowed[2]
        ));
    }
    Ok(sources)
}

/// Reads `kernels/<snake>/`: its tiling.yaml (when present) and which hand-written files exist.
pub fn kernel_sources(op: &OpIr, kernels_dir: &Path) -> Result<KernelSources, String> {
    let snake = snake_case(&op.op);
    let dir = kernels_dir.join(&snake);
    let yaml_path = dir.join(TILING_YAML);
    let tiling = if yaml_path.is_file() {
        let text = std::fs::read_to_string(&yaml_path)
            .map_err(|e| format!("{}: {e}", yaml_path.display()))?;
        let spec: TilingSpec =
            serde_yaml::from_str(&text).map_err(|e| format!("{}: {e}", yaml_path.display()))?;
        check_fields(&spec, &yaml_path)?;
        spec
    } else {
        TilingSpec::default()
    };
    let has_body = dir.join(KernelSources::body_file(&snake)).is_file();
    let has_choices = dir.join(KernelSources::choices_file(&snake)).is_file();
    if has_choices != has_body {
        return Err(format!(
            "{}: a kernel body and its tiling choices come together ({} and {})",
            dir.display(),
            KernelSources::body_file(&snake),
            KernelSources::choices_file(&snake)
        ));
    }
    Ok(KernelSources {
        dir,
        tiling,
        has_body,
        has_choices,
    })
}

fn check_fields(spec: &TilingSpec, path: &Path) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for f in &spec.fields {
        if !is_c_identifier(&f.name) || GENERIC_FIELDS.contains(&f.name.as_str()) {
            return Err(format!(
                "{}: tiling field name `{}` is not a C identifier or is taken by the skeleton",
                path.display(),
                f.name
            ));
        }
        if !FIELD_TYPES.contains(&f.ty.as_str()) {
            return Err(format!(
                "{}: tiling field `{}` has type `{}`; allowed: {}",
                path.display(),
                f.name,
                f.ty,
                FIELD_TYPES.join(", ")
            ));
        }
        if !seen.insert(f.name.clone()) {
            return Err(format!(
                "{}: tiling field `{}` appears twice",
                path.display(),
                f.name
            ));
        }
    }
    Ok(())
}

fn is_c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The tiling and kernel files of one op, paths relative to the output folder; the first line
/// names the op's sources as the IR holds them.
pub fn kernel_files(
    op: &OpIr,
    kernels_dir: &Path,
    templates: &tera::Tera,
) -> Result<Vec<OutFile>, String> {
    let note = if op.sources.is_empty() {
        "Generated by aclgen. Do not edit.".to_string()
    } else {
        format!(
            "Generated by aclgen from {}. Do not edit.",
            op.sources.join(", ")
        )
    };
    kernel_files_with_note(op, kernels_dir, templates, &note)
}

/// The files every op's project shares: the generic part of tiling (work plan → cores and
/// Unified Buffer tiles), written once instead of once per op.
pub fn shared_files(templates: &tera::Tera) -> Result<Vec<OutFile>, String> {
    let mut context = tera::Context::new();
    context.insert("note", "Generated by aclgen. Do not edit.");
    let contents = templates
        .render(SHARED_TILING_TEMPLATE, &context)
        .map_err(|e| format!("{SHARED_TILING_TEMPLATE}: {}", tera_error_chain(&e)))?;
    Ok(vec![OutFile {
        path: PathBuf::from(SHARED_TILING_PATH),
        contents,
    }])
}

/// `kernel_files` with the first-line note of the other emitters (`EmitCtx::note`).
pub fn kernel_files_with_note(
    op: &OpIr,
    kernels_dir: &Path,
    templates: &tera::Tera,
    note: &str,
) -> Result<Vec<OutFile>, String> {
    let sources = kernel_sources(op, kernels_dir)?;
    let mut context = template_context(op, &sources)?;
    context.insert("note", note);
    let snake = snake_case(&op.op);
    let base = PathBuf::from("ops").join(&snake);
    let render = |name: &str| {
        templates
            .render(name, &context)
            .map_err(|e| format!("{name}: {}", tera_error_chain(&e)))
    };
    Ok(vec![
        OutFile {
            path: base.join("op_host").join(format!("{snake}_tiling.h")),
            contents: render(TILING_H_TEMPLATE)?,
        },
        OutFile {
            path: base.join("op_host").join(format!("{snake}_tiling.cpp")),
            contents: render(TILING_CPP_TEMPLATE)?,
        },
        OutFile {
            path: base.join("op_kernel").join(format!("{snake}.cpp")),
            contents: render(KERNEL_TEMPLATE)?,
        },
    ])
}

fn tera_error_chain(e: &tera::Error) -> String {
    let mut msg = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        source = s.source();
    }
    msg
}

#[derive(Serialize)]
struct TensorCtx {
    name: String,
    index: usize,
    cpp_type: String,
}

#[derive(Serialize)]
struct DTypeCtx {
    key: u32,
    ge: &'static str,
    cpp: &'static str,
    size: usize,
}

/// The floating dtypes a kernel dispatches on, with their fixed tiling keys.
const KERNEL_DTYPES: &[(DType, u32, &str)] = &[
    (DType::Float32, 0, "float"),
    (DType::Float16, 1, "half"),
    (DType::BFloat16, 2, "bfloat16_t"),
];

fn is_kernel_float(d: &DType) -> bool {
    KERNEL_DTYPES.iter().any(|(k, _, _)| k == d)
}

/// Every dtype a parameter supports on any product.
fn dtype_union(p: &Param) -> BTreeSet<DType> {
    p.dtypes.values().flatten().copied().collect()
}

/// The element type of a tensor in global memory: the kernel's `T` for floating tensors, the
/// integer type for integer-only ones (`indices`).
fn cpp_type(p: &Param) -> String {
    let dtypes = dtype_union(p);
    if dtypes.is_empty() || dtypes.iter().any(is_kernel_float) {
        return "T".into();
    }
    let ints: Vec<&str> = dtypes
        .iter()
        .filter_map(|d| match d {
            DType::Int32 => Some("int32_t"),
            DType::Int64 => Some("int64_t"),
            DType::Int8 => Some("int8_t"),
            DType::UInt8 | DType::Bool => Some("uint8_t"),
            DType::Int16 => Some("int16_t"),
            _ => None,
        })
        .collect();
    match ints.as_slice() {
        [one] => (*one).to_string(),
        _ => "T".into(),
    }
}

/// The attributes the OpDef registers, in spec order: their positions are the TilingContext's
/// attribute indices.
pub fn registered_attrs(op: &OpIr) -> impl Iterator<Item = &Param> {
    op.params
        .iter()
        .filter(|p| p.role == Role::Attribute && super::ascend::attr_kind(p).is_some())
}

pub fn is_input(role: Role) -> bool {
    matches!(
        role,
        Role::InputTensor | Role::InputTensorList | Role::InOutTensor
    )
}

/// The tensor whose dtype picks the kernel's `T` (and tiling key): the first input, else
/// output, that supports a floating dtype; else the first input or output at all. Returns it
/// and whether it is an input.
fn dtype_tensor<'a>(tensors: &[&'a Param]) -> Option<(&'a Param, bool)> {
    let floating = |p: &&&Param| dtype_union(p).iter().any(is_kernel_float);
    tensors
        .iter()
        .filter(|p| is_input(p.role))
        .find(floating)
        .map(|p| (*p, true))
        .or_else(|| {
            tensors
                .iter()
                .filter(|p| !is_input(p.role))
                .find(floating)
                .map(|p| (*p, false))
        })
        .or_else(|| tensors.first().map(|p| (*p, is_input(p.role))))
}

fn template_context(op: &OpIr, sources: &KernelSources) -> Result<tera::Context, String> {
    let snake = snake_case(&op.op);
    for p in &op.params {
        if !is_c_identifier(&p.name) {
            return Err(format!(
                "{}: parameter `{}` is not a C identifier",
                op.op, p.name
            ));
        }
    }
    // Every tensor goes to the kernel in prototype order; the TilingContext numbers inputs
    // (an in-place tensor counts as an input) and outputs separately.
    let tensor_params: Vec<&Param> = op.params.iter().filter(|p| p.role.is_tensor()).collect();
    let (mut inputs, mut outputs, mut tensors) = (Vec::new(), Vec::new(), Vec::new());
    for p in &tensor_params {
        let list = if is_input(p.role) {
            &mut inputs
        } else {
            &mut outputs
        };
        let ctx = TensorCtx {
            name: p.name.clone(),
            index: list.len(),
            cpp_type: cpp_type(p),
        };
        tensors.push(TensorCtx {
            name: ctx.name.clone(),
            index: ctx.index,
            cpp_type: ctx.cpp_type.clone(),
        });
        list.push(ctx);
    }
    let attrs: Vec<TensorCtx> = registered_attrs(op)
        .enumerate()
        .map(|(index, p)| TensorCtx {
            name: p.name.clone(),
            index,
            cpp_type: String::new(),
        })
        .collect();
    let (dtype_param, dtype_is_input) = dtype_tensor(&tensor_params)
        .ok_or_else(|| format!("{}: no tensor parameter, so no kernel", op.op))?;
    let dtypes = kernel_dtypes(dtype_param);

    let mut context = tera::Context::new();
    context.insert("op", &op.op);
    context.insert("tiling_func", &tiling_func_name(&op.op));
    context.insert("snake", &snake);
    context.insert(
        "guard",
        &format!("OPS_{}_OP_HOST_TILING_H", snake.to_ascii_uppercase()),
    );
    context.insert("tensors", &tensors);
    context.insert("inputs", &inputs);
    context.insert("outputs", &outputs);
    context.insert("attrs", &attrs);
    context.insert("dtype_tensor", &dtype_param.name);
    context.insert(
        "dtype_kind",
        if dtype_is_input { "input" } else { "output" },
    );
    context.insert(
        "dtype_getter",
        if dtype_is_input {
            "GetInputDesc"
        } else {
            "GetOutputDesc"
        },
    );
    context.insert("dtypes", &dtypes);
    context.insert("fields", &sources.tiling.fields);
    context.insert("has_body", &sources.has_body);
    context.insert("has_choices", &sources.has_choices);
    Ok(context)
}

/// The floating dtypes the dtype-giving tensor supports on any product (all three when it names
/// none), in tiling-key order.
fn kernel_dtypes(p: &Param) -> Vec<DTypeCtx> {
    let supported = dtype_union(p);
    let any_float = supported.iter().any(is_kernel_float);
    KERNEL_DTYPES
        .iter()
        .filter(|(d, _, _)| !any_float || supported.contains(d))
        .map(|(d, key, cpp)| DTypeCtx {
            key: *key,
            ge: d.ge_name(),
            cpp,
            size: d.size_bytes(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_identifiers() {
        assert!(is_c_identifier("gradOutput"));
        assert!(is_c_identifier("_x1"));
        assert!(!is_c_identifier("1x"));
        assert!(!is_c_identifier("a-b"));
        assert!(!is_c_identifier(""));
    }

    #[test]
    fn tiling_fields_are_checked() {
        let bad_type = TilingSpec {
            unit: String::new(),
            fields: vec![TilingField {
                name: "k".into(),
                ty: "double".into(),
            }],
        };
        assert!(check_fields(&bad_type, Path::new("t.yaml")).is_err());
        let taken = TilingSpec {
            unit: String::new(),
            fields: vec![TilingField {
                name: "tileUnits".into(),
                ty: "int64_t".into(),
            }],
        };
        assert!(check_fields(&taken, Path::new("t.yaml")).is_err());
        let ok = TilingSpec {
            unit: String::new(),
            fields: vec![TilingField {
                name: "kH".into(),
                ty: "int64_t".into(),
            }],
        };
        assert!(check_fields(&ok, Path::new("t.yaml")).is_ok());
    }
}
