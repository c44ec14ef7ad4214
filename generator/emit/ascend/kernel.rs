//! The kernel side of an op's Ascend C project: tiling data and function (op_host/) and the
//! kernel skeleton (op_kernel/) into which the hand-written body from `kernels/` is filled.
//!
//! The contract between skeleton and body is described in `kernels/README.md`. The body and the
//! tiling choices are filled into the generated files (with the files of `kernels/` they include),
//! so an op's folder under `generated/ops/` builds by itself; `kernels/` stays the only place a
//! person edits them.

use crate::emit::{EmitError, OutFile};
use crate::ir::{is_identifier as is_c_identifier, snake_case, OpIr, Param};
use aclnn_runtime::{DType, Product};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Template names, relative to the templates folder.
pub const TILING_H_TEMPLATE: &str = "ascend/op_host_tiling_h.tera";
pub const TILING_CPP_TEMPLATE: &str = "ascend/op_host_tiling_cpp.tera";
pub const SHARED_TILING_TEMPLATE: &str = "ascend/aclgen_tiling_h.tera";
/// The op-independent part of tiling, written into each op's `op_host/` (the same text for every
/// op) so an op's folder builds wherever it is put (a CANN ops repo, an msOpGen project);
/// `op_host/<snake>_tiling.cpp` includes it from beside itself.
pub const SHARED_TILING_FILE: &str = "aclgen_tiling.h";
pub const KERNEL_TEMPLATE: &str = "ascend/op_kernel.tera";
/// What CANN's op compiler injects into the kernel (the tiling struct and `GET_TILING_DATA`), as
/// ops-nn's kernel unit tests force-include it: `tests/ut/op_kernel/<snake>_tiling_def.h`.
pub const TILING_DEF_TEMPLATE: &str = "ascend/tiling_def_h.tera";

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
    /// Ascend C APIs the body uses that some products lack (`DataCopyPad`): the OpDef registers
    /// only the products that have every one of them. `gen` refuses a body that uses one of
    /// [`PRODUCT_APIS`] without declaring it.
    #[serde(default)]
    pub apis: Vec<String>,
}

/// Ascend C APIs (and kernel element types) that not every product has, with the products that
/// lack them. From asc-devkit: `DataCopyPad` is reported unsupported on dav_c100 (Atlas
/// training, ascend910) and dav_m200 (Atlas inference, ascend310p), whose vector units have no
/// bfloat16 either.
pub const PRODUCT_APIS: &[(&str, &[Product])] = &[
    ("DataCopyPad", &[Product::Ascend910, Product::Ascend310p]),
    ("bfloat16_t", &[Product::Ascend910, Product::Ascend310p]),
];

/// Whether `product` has the Ascend C API (or element type) `api`.
pub fn product_has(product: &str, api: &str) -> bool {
    PRODUCT_APIS
        .iter()
        .find(|(name, _)| *name == api)
        .is_none_or(|(_, lacking)| !lacking.iter().any(|p| p.id() == product))
}

/// A body that uses a product-limited API must declare it in tiling.yaml `apis`, so the OpDef
/// leaves out the products that lack it.
fn check_declared_apis(op: &OpIr, sources: &KernelSources, body: &str) -> Result<(), EmitError> {
    for api in &sources.tiling.apis {
        if !PRODUCT_APIS.iter().any(|(name, _)| name == api) {
            return Err(EmitError::Kernel(format!(
                "{}: tiling.yaml `apis` names `{api}`; known: {}",
                sources.dir.display(),
                PRODUCT_APIS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    for (api, lacking) in PRODUCT_APIS {
        // bfloat16_t is the skeleton's own instantiation, filtered per product by the OpDef.
        if *api == "bfloat16_t" {
            continue;
        }
        let used = body.match_indices(api).any(|(i, _)| {
            let before = body[..i].chars().next_back();
            let after = body[i + api.len()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if used && !sources.tiling.apis.iter().any(|a| a == api) {
            return Err(EmitError::Kernel(format!(
                "{}: the body of {} uses {api}, which {} lack: declare it in tiling.yaml (`apis: [{api}]`)",
                sources.dir.display(),
                op.op,
                lacking.iter().map(|p| p.id()).collect::<Vec<_>>().join(" and ")
            )));
        }
    }
    Ok(())
}

/// The products the kernel can run on: every product when there is no body (the skeleton stops
/// loudly anyway), else those that have every API the body declares.
pub fn kernel_runs_on(sources: &KernelSources, product: &str) -> bool {
    !sources.has_body || sources.tiling.apis.iter().all(|a| product_has(product, a))
}

/// The dtypes the kernel instantiates for a tensor on a product: its `T` (FLOAT32, FLOAT16, and
/// BFLOAT16 where the product has bfloat16) or its integer type. `None`: no body, the docs'
/// list stands.
pub fn kernel_dtypes_for(sources: &KernelSources, p: &Param, product: &str) -> Option<Vec<DType>> {
    if !sources.has_body {
        return None;
    }
    let ty = cpp_type(p);
    Some(if ty == "T" {
        KERNEL_DTYPES
            .iter()
            .filter(|(d, _)| *d != DType::BFloat16 || product_has(product, kernel_c_type(*d)))
            .map(|(d, _)| *d)
            .collect()
    } else {
        INT_TYPES
            .iter()
            .filter(|d| kernel_c_type(**d) == ty)
            .copied()
            .collect()
    })
}

pub use crate::emit::ident::kernel_entry_name;

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

/// `wrap_long_lines` on the generated text only: filled-in text (from its `#line … "kernels/…"`
/// to the line that resumes the generated file) is the author's, and a line broken there would
/// move every `#line` after it, so diagnostics would name the wrong line.
fn wrap_generated_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut generated = String::new();
    let mut filled_in = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with("#line ") && trimmed.contains("\"kernels/") {
            filled_in = true;
        }
        if filled_in {
            out.push_str(&crate::emit::wrap::wrap_long_lines(&std::mem::take(
                &mut generated,
            )));
            out.push_str(line);
        } else {
            generated.push_str(line);
        }
        if trimmed == RESUME_LINE {
            filled_in = false;
        }
    }
    out.push_str(&crate::emit::wrap::wrap_long_lines(&generated));
    out
}

/// A template line after filled-in text, replaced with the `#line` that resumes the generated
/// file's own numbering.
const RESUME_LINE: &str = "// @aclgen-resume-line";

/// The path of an op's injected tiling definition, relative to the op's folder.
pub fn tiling_def_path(snake: &str) -> PathBuf {
    PathBuf::from("tests/ut/op_kernel").join(format!("{snake}_tiling_def.h"))
}

/// Reads a hand-written file of `kernels/` and fills in, once each, the files of `kernels/` it
/// includes with `#include "RELATIVE"` (relative to the including file): the generated project
/// then needs nothing from `kernels/`. `#pragma once` lines are dropped (the text is inlined);
/// a quoted include that names no file is kept (a header of the build, `kernel_operator.h`); one
/// that leaves `kernels/` is refused.
pub fn filled_in(path: &Path, kernels_dir: &Path) -> Result<String, EmitError> {
    let root = kernels_dir
        .canonicalize()
        .map_err(|source| EmitError::kernel_io(kernels_dir, source))?;
    let mut seen = BTreeSet::new();
    let mut out = String::new();
    fill(path, &root, &mut seen, &mut out, 0)?;
    Ok(out)
}

fn fill(
    path: &Path,
    root: &Path,
    seen: &mut BTreeSet<PathBuf>,
    out: &mut String,
    depth: usize,
) -> Result<(), EmitError> {
    let canonical = path
        .canonicalize()
        .map_err(|source| EmitError::kernel_io(path, source))?;
    if !canonical.starts_with(root) {
        return Err(EmitError::Kernel(format!(
            "{}: includes a file outside the kernels folder",
            path.display()
        )));
    }
    if depth > 16 {
        return Err(EmitError::Kernel(format!(
            "{}: includes nest too deep",
            path.display()
        )));
    }
    if !seen.insert(canonical.clone()) {
        return Ok(());
    }
    let text =
        std::fs::read_to_string(path).map_err(|source| EmitError::kernel_io(path, source))?;
    let rel = canonical
        .strip_prefix(root)
        .map(|r| r.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    // Diagnostics and the emulation's file:line name the file a person edits.
    out.push_str(&format!("#line 1 \"kernels/{rel}\"\n"));
    let dir = path.parent().unwrap_or(Path::new("."));
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed == "#pragma once" {
            out.push('\n');
            continue;
        }
        if let Some(target) = quoted_include(trimmed) {
            let candidate = dir.join(target);
            if candidate.is_file() {
                let inner = candidate
                    .canonicalize()
                    .map_err(|source| EmitError::kernel_io(&candidate, source))?;
                let inner_rel = inner
                    .strip_prefix(root)
                    .map(|r| r.to_string_lossy().replace('\\', "/"))
                    .map_err(|_| {
                        EmitError::Kernel(format!(
                            "{}: `{trimmed}` names a file outside the kernels folder",
                            path.display()
                        ))
                    })?;
                out.push_str(&format!(
                    "// ---- kernels/{inner_rel} (filled in by aclgen) ----\n"
                ));
                fill(&candidate, root, seen, out, depth + 1)?;
                out.push_str(&format!("// ---- end of kernels/{inner_rel} ----\n"));
                out.push_str(&format!("#line {} \"kernels/{rel}\"\n", index + 2));
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(())
}

/// `#include "x/y.h"` → `x/y.h`.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("include")?;
    let rest = rest.trim_start().strip_prefix('"')?;
    rest.split_once('"').map(|(target, _)| target)
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
pub fn check_kernel_folder(op: &OpIr, kernels_dir: &Path) -> Result<KernelSources, EmitError> {
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
            return Err(EmitError::Kernel(format!(
                "{}: unexpected {}; an op's folder holds only {}",
                dir.display(),
                stray.join(", "),
                allowed.join(", ")
            )));
        }
    }
    let sources = kernel_sources(op, kernels_dir)?;
    if !sources.has_body && dir.join(TILING_YAML).is_file() {
        return Err(EmitError::Kernel(format!(
            "{}: {TILING_YAML} without a kernel body; it comes with {} and {}",
            dir.display(),
            allowed[1],
            allowed[2]
        )));
    }
    Ok(sources)
}

/// Reads `kernels/<snake>/`: its tiling.yaml (when present) and which hand-written files exist.
pub fn kernel_sources(op: &OpIr, kernels_dir: &Path) -> Result<KernelSources, EmitError> {
    let snake = snake_case(&op.op);
    let dir = kernels_dir.join(&snake);
    let yaml_path = dir.join(TILING_YAML);
    let tiling = if yaml_path.is_file() {
        let text = std::fs::read_to_string(&yaml_path)
            .map_err(|source| EmitError::kernel_io(&yaml_path, source))?;
        let spec: TilingSpec =
            serde_yaml::from_str(&text).map_err(|source| EmitError::KernelYaml {
                path: yaml_path.clone(),
                source,
            })?;
        check_fields(&spec, &yaml_path)?;
        spec
    } else {
        TilingSpec::default()
    };
    let has_body = dir.join(KernelSources::body_file(&snake)).is_file();
    let has_choices = dir.join(KernelSources::choices_file(&snake)).is_file();
    if has_choices != has_body {
        return Err(EmitError::Kernel(format!(
            "{}: a kernel body and its tiling choices come together ({} and {})",
            dir.display(),
            KernelSources::body_file(&snake),
            KernelSources::choices_file(&snake)
        )));
    }
    Ok(KernelSources {
        dir,
        tiling,
        has_body,
        has_choices,
    })
}

fn check_fields(spec: &TilingSpec, path: &Path) -> Result<(), EmitError> {
    let mut seen = BTreeSet::new();
    for f in &spec.fields {
        if !is_c_identifier(&f.name) || GENERIC_FIELDS.contains(&f.name.as_str()) {
            return Err(EmitError::Kernel(format!(
                "{}: tiling field name `{}` is not a C identifier or is taken by the skeleton",
                path.display(),
                f.name
            )));
        }
        if !FIELD_TYPES.contains(&f.ty.as_str()) {
            return Err(EmitError::Kernel(format!(
                "{}: tiling field `{}` has type `{}`; allowed: {}",
                path.display(),
                f.name,
                f.ty,
                FIELD_TYPES.join(", ")
            )));
        }
        if !seen.insert(f.name.clone()) {
            return Err(EmitError::Kernel(format!(
                "{}: tiling field `{}` appears twice",
                path.display(),
                f.name
            )));
        }
    }
    Ok(())
}

/// The tiling and kernel files of one op, paths relative to the output folder; the first line
/// names the op's sources as the IR holds them.
pub fn kernel_files(
    op: &OpIr,
    kernels_dir: &Path,
    templates: &tera::Tera,
) -> Result<Vec<OutFile>, EmitError> {
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

/// `kernel_files` with the first-line note of the other emitters (`EmitCtx::note`).
pub fn kernel_files_with_note(
    op: &OpIr,
    kernels_dir: &Path,
    templates: &tera::Tera,
    note: &str,
) -> Result<Vec<OutFile>, EmitError> {
    let sources = kernel_sources(op, kernels_dir)?;
    let mut context = template_context(op, &sources)?;
    context.insert("note", note);
    let snake_dir = kernels_dir.join(snake_case(&op.op));
    let body = if sources.has_body {
        filled_in(
            &snake_dir.join(KernelSources::body_file(&snake_case(&op.op))),
            kernels_dir,
        )?
    } else {
        String::new()
    };
    check_declared_apis(op, &sources, &body)?;
    let choices = if sources.has_choices {
        filled_in(
            &snake_dir.join(KernelSources::choices_file(&snake_case(&op.op))),
            kernels_dir,
        )?
    } else {
        String::new()
    };
    context.insert("body", &body);
    context.insert("choices", &choices);
    let snake = snake_case(&op.op);
    let base = PathBuf::from("ops").join(&snake);
    let render = |name: &str| {
        templates
            .render(name, &context)
            .map(|text| wrap_generated_lines(&text))
            .map_err(|source| EmitError::KernelTemplate {
                name: name.to_string(),
                source,
            })
    };
    // After filled-in text the generated file's own line numbers resume.
    let resume = |text: String, file: &str| -> String {
        let mut out = String::with_capacity(text.len());
        for (index, line) in text.lines().enumerate() {
            if line.trim() == RESUME_LINE {
                out.push_str(&format!("#line {} \"{file}\"", index + 2));
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
        out
    };
    Ok(vec![
        OutFile {
            path: base.join("op_host").join(format!("{snake}_tiling.h")),
            contents: render(TILING_H_TEMPLATE)?,
        },
        OutFile {
            path: base.join("op_host").join(format!("{snake}_tiling.cpp")),
            contents: resume(
                render(TILING_CPP_TEMPLATE)?,
                &format!("op_host/{snake}_tiling.cpp"),
            ),
        },
        OutFile {
            path: base.join("op_host").join(SHARED_TILING_FILE),
            contents: render(SHARED_TILING_TEMPLATE)?,
        },
        OutFile {
            path: base.join("op_kernel").join(format!("{snake}.cpp")),
            contents: resume(render(KERNEL_TEMPLATE)?, &format!("op_kernel/{snake}.cpp")),
        },
        OutFile {
            path: base.join(tiling_def_path(&snake)),
            contents: render(TILING_DEF_TEMPLATE)?,
        },
    ])
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
    ge: String,
    cpp: &'static str,
    size: usize,
}

/// The floating dtypes a kernel dispatches on, with their fixed tiling keys.
const KERNEL_DTYPES: &[(DType, u32)] = &[
    (DType::Float32, 0),
    (DType::Float16, 1),
    (DType::BFloat16, 2),
];

fn is_kernel_float(d: &DType) -> bool {
    KERNEL_DTYPES.iter().any(|(k, _)| k == d)
}

/// The Ascend C type of a dtype in a kernel (`DType::kernel_c_type`).
fn kernel_c_type(d: DType) -> &'static str {
    d.kernel_c_type().unwrap_or_default()
}

/// Every dtype a parameter supports on any product.
fn dtype_union(p: &Param) -> BTreeSet<DType> {
    p.dtypes.values().flatten().copied().collect()
}

/// Integer dtypes a tensor may have in global memory (their C++ types: `DType::kernel_c_type`).
const INT_TYPES: &[DType] = &[
    DType::Int32,
    DType::Int64,
    DType::Int8,
    DType::UInt8,
    DType::Bool,
    DType::Int16,
];

/// The element type of a tensor in global memory: the kernel's `T` for floating tensors, an
/// integer type for integer-only ones (`indices`): the first of [`INT_TYPES`] the tensor takes
/// (INT32 before INT64), since the kernel dispatches on `T` only; the OpDef then offers just that
/// one for the tensor.
pub fn cpp_type(p: &Param) -> String {
    let dtypes = dtype_union(p);
    if dtypes.is_empty() || dtypes.iter().any(is_kernel_float) {
        return "T".into();
    }
    let all_int = dtypes.iter().all(|d| INT_TYPES.contains(d));
    match INT_TYPES.iter().find(|i| dtypes.contains(i)) {
        Some(i) if all_int => kernel_c_type(*i).to_string(),
        _ => "T".into(),
    }
}

use crate::emit::opdef::{is_input, registered_attrs};

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

fn template_context(op: &OpIr, sources: &KernelSources) -> Result<tera::Context, EmitError> {
    let snake = snake_case(&op.op);
    for p in &op.params {
        if !is_c_identifier(&p.name) {
            return Err(EmitError::Kernel(format!(
                "{}: parameter `{}` is not a C identifier",
                op.op, p.name
            )));
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
    let (dtype_param, dtype_is_input) = dtype_tensor(&tensor_params).ok_or_else(|| {
        EmitError::Kernel(format!("{}: no tensor parameter, so no kernel", op.op))
    })?;
    let dtypes = kernel_dtypes(dtype_param);

    let mut context = tera::Context::new();
    context.insert("op", &op.op);
    context.insert("tiling_func", &tiling_func_name(&op.op));
    context.insert("snake", &snake);
    context.insert("entry", &kernel_entry_name(&op.op));
    context.insert(
        "def_guard",
        &format!("OPS_{}_TILING_DEF_H", snake.to_ascii_uppercase()),
    );
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
        .filter(|(d, _)| !any_float || supported.contains(d))
        .map(|(d, key)| DTypeCtx {
            key: *key,
            ge: d.ge_name().unwrap_or_default(),
            cpp: kernel_c_type(*d),
            size: d.size_bytes(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_in_lines_are_the_authors_and_keep_their_line_numbers() {
        let long_call = format!("    Call({});\n", vec!["argument"; 20].join(", "));
        let text = format!(
            "{long_call}#line 1 \"kernels/x/body.h\"\n{long_call}{RESUME_LINE}\n{long_call}"
        );
        let wrapped = wrap_generated_lines(&text);
        let lines: Vec<&str> = wrapped.lines().collect();
        // The generated calls are broken, the filled-in one is left as its author wrote it.
        assert!(lines
            .iter()
            .all(|l| l.chars().count() <= 120 || *l == long_call.trim_end()));
        assert_eq!(
            lines.iter().filter(|l| **l == long_call.trim_end()).count(),
            1
        );
        let at = lines.iter().position(|l| l.starts_with("#line 1")).unwrap();
        assert_eq!(lines[at + 1], long_call.trim_end());
    }

    #[test]
    fn c_identifiers() {
        assert!(is_c_identifier("gradOutput"));
        assert!(is_c_identifier("_x1"));
        assert!(!is_c_identifier("1x"));
        assert!(!is_c_identifier("a-b"));
        assert!(!is_c_identifier(""));
    }

    #[test]
    fn entries_named_like_c_library_functions_get_a_suffix() {
        assert_eq!(kernel_entry_name("Abs"), "abs_kernel");
        assert_eq!(kernel_entry_name("Index"), "index_kernel");
        assert_eq!(
            kernel_entry_name("AvgPool2dBackward"),
            "avg_pool2d_backward"
        );
    }

    #[test]
    fn quoted_includes_are_recognized() {
        assert_eq!(
            quoted_include("#include \"../common/a.inc\""),
            Some("../common/a.inc")
        );
        assert_eq!(quoted_include("#  include \"b.h\" // x"), Some("b.h"));
        assert_eq!(quoted_include("#include <cstdint>"), None);
        assert_eq!(quoted_include("// #include \"c.h\""), None);
    }

    #[test]
    fn data_copy_pad_needs_atlas_a2_or_later() {
        assert!(!product_has("ascend910", "DataCopyPad"));
        assert!(!product_has("ascend310p", "DataCopyPad"));
        for p in ["ascend910b", "ascend910_93", "ascend950", "ascend310b"] {
            assert!(product_has(p, "DataCopyPad"), "{p}");
        }
    }

    #[test]
    fn tiling_fields_are_checked() {
        let bad_type = TilingSpec {
            unit: String::new(),
            apis: Vec::new(),
            fields: vec![TilingField {
                name: "k".into(),
                ty: "double".into(),
            }],
        };
        assert!(check_fields(&bad_type, Path::new("t.yaml")).is_err());
        let taken = TilingSpec {
            unit: String::new(),
            apis: Vec::new(),
            fields: vec![TilingField {
                name: "tileUnits".into(),
                ty: "int64_t".into(),
            }],
        };
        assert!(check_fields(&taken, Path::new("t.yaml")).is_err());
        let ok = TilingSpec {
            unit: String::new(),
            apis: Vec::new(),
            fields: vec![TilingField {
                name: "kH".into(),
                ty: "int64_t".into(),
            }],
        };
        assert!(check_fields(&ok, Path::new("t.yaml")).is_ok());
    }
}
