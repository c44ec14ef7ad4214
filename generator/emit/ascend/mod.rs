//! The OpDef, CMake and example part of an op's Ascend C project (`ops/<snake_op>/`), laid out like
//! CANN's ops repositories. Tiling and kernel files come from `kernel.rs`.

pub mod kernel;

use super::ident::example_ident;
use super::opdef::{attr_kind, columns, fill_undocumented, independent, only_tied};
use super::wrap::wrap_long_lines;
use super::{EmitCtx, EmitError, OutFile};
use crate::ctype::{Base, Integer};
use crate::ir::{snake_case, CParam, CType, OpIr, Param, Role};
use aclnn_runtime::{DType, Format, Product};
use serde::Serialize;
use std::path::PathBuf;

const DEF_TEMPLATE: &str = "ascend/op_host_def.cpp.tera";
const CMAKE_TEMPLATE: &str = "ascend/CMakeLists.txt.tera";
const EXAMPLE_TEMPLATE: &str = "ascend/example.cpp.tera";

/// The tiling entry point `op_host/<snake_op>_tiling.cpp` defines (kernels side,
/// `emit::kernel::tiling_func_name`): named after the op, as every op's op_host sources link
/// into one library.
pub fn tiling_func(op: &str) -> String {
    kernel::tiling_func_name(op)
}

pub fn project_files(op: &OpIr, ctx: &EmitCtx) -> Result<Vec<OutFile>, EmitError> {
    let snake = snake_case(&op.op);
    let dir = PathBuf::from("ops").join(&snake);
    let render =
        |name: &str, data: serde_json::Value| super::render::render(&ctx.tera, name, &data);
    Ok(vec![
        OutFile {
            path: dir.join("op_host").join(format!("{snake}_def.cpp")),
            contents: wrap_long_lines(&render(DEF_TEMPLATE, json(&op_def_ctx(op, ctx)?)?)?),
        },
        OutFile {
            path: dir.join("CMakeLists.txt"),
            contents: render(CMAKE_TEMPLATE, json(&cmake_ctx(op, ctx)?)?)?,
        },
        OutFile {
            path: dir.join("examples").join(format!("test_aclnn_{snake}.cpp")),
            contents: wrap_long_lines(&render(EXAMPLE_TEMPLATE, json(&example_ctx(op, ctx))?)?),
        },
    ])
}

/// Template contexts go through JSON so one closure renders them all.
fn json(data: &impl Serialize) -> Result<serde_json::Value, EmitError> {
    serde_json::to_value(data).map_err(EmitError::Context)
}

// ---------------------------------------------------------------------------------------------
// op_host/<snake_op>_def.cpp

#[derive(Serialize)]
struct OpDefCtx {
    note: String,
    class_name: String,
    snake: String,
    tiling_func: String,
    inputs: Vec<ParamDef>,
    outputs: Vec<ParamDef>,
    attrs: Vec<AttrDef>,
    configs: Vec<ConfigDef>,
    /// Supported products without a known SoC name (kept as comments).
    unknown_products: Vec<String>,
    /// Documented products the OpDef leaves out, with why (the kernel lacks what they need).
    dropped_products: Vec<String>,
    /// `opInterface.value`: the kernel entry when it is not the op's snake-case name.
    interface: Option<String>,
}

#[derive(Serialize, Clone, PartialEq)]
struct ParamDef {
    name: String,
    param_type: &'static str,
    /// `DataType` (one entry per column) or `DataTypeList` (combines with every column).
    dtype_call: &'static str,
    dtypes: String,
    /// `FormatList` instead of `Format` columns.
    format_list: bool,
    formats: String,
}

#[derive(Serialize)]
struct AttrDef {
    name: String,
    attr_type: &'static str,
    /// `ListInt()`, `Bool()`, `Float(1.0)` (a documented default) ...; `None` for C types
    /// OpDef has no attribute kind for.
    kind: Option<String>,
    c_type: String,
    /// The doc's text of the default, when one is documented.
    default_note: Option<String>,
}

#[derive(Serialize)]
struct ConfigDef {
    /// SoCs sharing these lists, each registered with `AddConfig`.
    socs: Vec<String>,
    /// Own Input/Output lists when products' dtypes differ; `None`: the op-wide lists apply.
    var: Option<String>,
    inputs: Vec<ParamDef>,
    outputs: Vec<ParamDef>,
}

/// The op's tensors as OpDef sees them: (OpDef name, IR param, is input).
fn opdef_tensors(op: &OpIr) -> Vec<(String, &Param, bool)> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for p in &op.params {
        let name = snake_case(&p.name);
        match p.role {
            Role::InputTensor | Role::InputTensorList => inputs.push((name, p, true)),
            Role::OutputTensor | Role::OutputTensorList => outputs.push((name, p, false)),
            Role::InOutTensor => {
                outputs.push((format!("{name}_out"), p, false));
                inputs.push((name, p, true));
            }
            _ => {}
        }
    }
    inputs.extend(outputs);
    inputs
}

/// The products the OpDef registers, with their SoC names and the dtype list of every OpDef
/// tensor: the documented products whose hardware the kernel runs on and where it handles a
/// dtype, each tensor's documented dtypes narrowed to what the kernel instantiates. Tensors the
/// kernel types with its one `T` share one list (their intersection): the kernel cannot take
/// bf16 in and write fp32 out. Also returns the products left out, with the reason.
type ProductLists = (Vec<(String, String, Vec<Vec<DType>>)>, Vec<String>);

fn product_lists(
    op: &OpIr,
    tensors: &[(String, &Param, bool)],
    sources: &kernel::KernelSources,
) -> ProductLists {
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for id in op.supported_products() {
        let Some(product) = Product::parse(id) else {
            continue;
        };
        if !kernel::kernel_runs_on(sources, id) {
            let lacking: Vec<&str> = sources
                .tiling
                .apis
                .iter()
                .filter(|a| !kernel::product_has(id, a))
                .map(String::as_str)
                .collect();
            dropped.push(format!(
                "{id}: the kernel uses {}, which it lacks",
                lacking.join(", ")
            ));
            continue;
        }
        let mut lists: Vec<Vec<DType>> = tensors
            .iter()
            .map(|(_, p, _)| {
                let documented = dtypes_for(p, Some(id)).to_vec();
                match kernel::kernel_dtypes_for(sources, p, id) {
                    Some(handled) if !documented.is_empty() => documented
                        .into_iter()
                        .filter(|d| handled.contains(d))
                        .collect(),
                    _ => documented,
                }
            })
            .collect();
        if sources.has_body {
            // One `T`: the tensors it types take the dtypes all of them allow, zipped.
            let typed: Vec<usize> = (0..tensors.len())
                .filter(|&i| kernel::cpp_type(tensors[i].1) == "T" && !lists[i].is_empty())
                .collect();
            if let Some(&first) = typed.first() {
                let common: Vec<DType> = lists[first]
                    .iter()
                    .copied()
                    .filter(|d| typed.iter().all(|&i| lists[i].contains(d)))
                    .collect();
                for &i in &typed {
                    lists[i] = common.clone();
                }
            }
            let documented_any = tensors
                .iter()
                .any(|(_, p, _)| !dtypes_for(p, Some(id)).is_empty());
            if documented_any
                && (lists.iter().all(Vec::is_empty) || typed.iter().any(|&i| lists[i].is_empty()))
            {
                dropped.push(format!(
                    "{id}: the kernel handles none of its documented dtypes"
                ));
                continue;
            }
        }
        kept.push((id.to_string(), product.soc_version().to_string(), lists));
    }
    (kept, dropped)
}

fn op_def_ctx(op: &OpIr, ctx: &EmitCtx) -> Result<OpDefCtx, EmitError> {
    let tensors = opdef_tensors(op);
    let sources = kernel::kernel_sources(op, &ctx.kernels_dir)?;
    let (products, dropped_products) = product_lists(op, &tensors, &sources);
    let unknown_products = op
        .supported_products()
        .filter(|id| Product::parse(id).is_none())
        .map(str::to_string)
        .collect();
    let per_product: Vec<(String, Vec<ParamDef>)> = products
        .iter()
        .map(|(_, soc, lists)| (soc.clone(), defs_for(op, &tensors, lists)))
        .collect();

    let base = per_product
        .first()
        .map(|(_, defs)| defs.clone())
        .unwrap_or_else(|| {
            let lists: Vec<Vec<DType>> = tensors
                .iter()
                .map(|(_, p, _)| dtypes_for(p, None).to_vec())
                .collect();
            defs_for(op, &tensors, &lists)
        });
    let uniform = per_product.iter().all(|(_, defs)| *defs == base);
    let split = |defs: &[ParamDef]| -> (Vec<ParamDef>, Vec<ParamDef>) {
        let (ins, outs): (Vec<_>, Vec<_>) = defs
            .iter()
            .zip(&tensors)
            .partition(|(_, (_, _, is_input))| *is_input);
        (
            ins.into_iter().map(|(d, _)| d.clone()).collect(),
            outs.into_iter().map(|(d, _)| d.clone()).collect(),
        )
    };
    let (inputs, outputs) = split(&base);
    let configs = if uniform {
        per_product
            .iter()
            .map(|(soc, _)| ConfigDef {
                socs: vec![soc.clone()],
                var: None,
                inputs: Vec::new(),
                outputs: Vec::new(),
            })
            .collect()
    } else {
        config_groups(&per_product)
            .into_iter()
            .map(|(socs, defs)| {
                let (inputs, outputs) = split(&defs);
                ConfigDef {
                    var: Some(format!("config_{}", socs.join("_"))),
                    socs,
                    inputs,
                    outputs,
                }
            })
            .collect()
    };
    let entry = kernel::kernel_entry_name(&op.op);
    Ok(OpDefCtx {
        note: ctx.note(op),
        class_name: op.op.clone(),
        snake: snake_case(&op.op),
        tiling_func: tiling_func(&op.op),
        inputs,
        outputs,
        attrs: op
            .params
            .iter()
            .filter(|p| p.role == Role::Attribute)
            .map(attr_def)
            .collect(),
        configs,
        unknown_products,
        dropped_products,
        interface: (entry != snake_case(&op.op)).then_some(entry),
    })
}

/// Products with identical lists share one `OpAICoreConfig` (first-seen order).
fn config_groups(per_product: &[(String, Vec<ParamDef>)]) -> Vec<(Vec<String>, Vec<ParamDef>)> {
    let mut groups: Vec<(Vec<String>, Vec<ParamDef>)> = Vec::new();
    for (soc, defs) in per_product {
        match groups.iter_mut().find(|(_, d)| d == defs) {
            Some((socs, _)) => socs.push(soc.clone()),
            None => groups.push((vec![soc.clone()], defs.clone())),
        }
    }
    groups
}

/// One `DataType`/`Format` column per supported combination. Tensors with the same list are taken
/// to vary together (the docs' "数据类型与self一致") and are zipped; distinct shared lists multiply.
/// A tensor whose list is its own (or has one entry) combines with everything, which CANN writes
/// as `DataTypeList`/`FormatList` instead of repeating it in every column: listing it in columns
/// would multiply the OpDef by its length (quantized matmuls reached 8 MB that way).
#[cfg(test)]
fn param_defs(tensors: &[(String, &Param, bool)], product: Option<&str>) -> Vec<ParamDef> {
    let lists: Vec<Vec<DType>> = tensors
        .iter()
        .map(|(_, p, _)| dtypes_for(p, product).to_vec())
        .collect();
    param_defs_with(tensors, &lists)
}

/// The OpDef tensors of `op` with these dtype lists: as columns when the op's lists are columns
/// (`OpIr::columns`, msOpGen's), else combined as `param_defs_with` does.
fn defs_for(op: &OpIr, tensors: &[(String, &Param, bool)], dtypes: &[Vec<DType>]) -> Vec<ParamDef> {
    op.columns
        .then(|| column_defs(tensors, dtypes))
        .flatten()
        .unwrap_or_else(|| param_defs_with(tensors, dtypes))
}

/// Lists that are columns: entry i of every tensor's lists is one combination, a one-entry list
/// holds in every column. `None` when they are not (a kernel narrowed one, a dtype ge lacks).
fn column_defs(tensors: &[(String, &Param, bool)], dtypes: &[Vec<DType>]) -> Option<Vec<ParamDef>> {
    let n = dtypes
        .iter()
        .map(Vec::len)
        .chain(tensors.iter().map(|(_, p, _)| p.formats.len()))
        .max()
        .filter(|&n| n > 0)?;
    let fits = |len: usize| len == n || len == 1;
    let at = |len: usize, i: usize| if len == 1 { 0 } else { i };
    tensors
        .iter()
        .zip(dtypes)
        .map(|((name, p, _), list)| {
            if !fits(list.len()) || !(p.formats.is_empty() || fits(p.formats.len())) {
                return None;
            }
            let types: Option<Vec<String>> =
                (0..n).map(|i| list[at(list.len(), i)].ge_name()).collect();
            let formats: Vec<String> = (0..n)
                .map(|i| match p.formats.len() {
                    0 => "ge::FORMAT_ND".to_string(),
                    len => ge_format(p.formats[at(len, i)]),
                })
                .collect();
            Some(ParamDef {
                name: name.clone(),
                param_type: param_type(p),
                dtype_call: "DataType",
                dtypes: braced(types?.iter().map(String::as_str)),
                format_list: false,
                formats: braced(formats.iter().map(String::as_str)),
            })
        })
        .collect()
}

/// `param_defs` with each tensor's dtype list given (one per tensor, in order).
fn param_defs_with(tensors: &[(String, &Param, bool)], dtypes: &[Vec<DType>]) -> Vec<ParamDef> {
    let dtype_lists: Vec<Vec<String>> = dtypes
        .iter()
        // A dtype ge lacks (HFLOAT32, a compute mode) is no tensor dtype: not registered.
        .map(|l| l.iter().filter_map(|d| d.ge_name()).collect())
        .collect();
    let dtype_lists = fill_undocumented(dtype_lists, "ge::DT_FLOAT");
    let format_lists: Vec<Vec<String>> = tensors
        .iter()
        .map(|(_, p, _)| p.formats.iter().map(|f| ge_format(*f)).collect())
        .collect();
    let format_lists = fill_undocumented(format_lists, "ge::FORMAT_ND");
    // DataTypeList must come with FormatList: a tensor is free in dtype only if free in format.
    let format_free: Vec<bool> = (0..tensors.len())
        .map(|i| independent(&format_lists, i))
        .collect();
    let dtype_free: Vec<bool> = (0..tensors.len())
        .map(|i| format_free[i] && independent(&dtype_lists, i))
        .collect();
    let dtype_cols = columns(&only_tied(&dtype_lists, &dtype_free));
    let format_cols = columns(&only_tied(&format_lists, &format_free));
    let mut combos: Vec<(usize, usize)> = Vec::new();
    for d in 0..dtype_cols.len() {
        for f in 0..format_cols.len() {
            combos.push((d, f));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    combos.retain(|&(d, f)| {
        let key: Vec<(&String, &String)> = dtype_cols[d].iter().zip(&format_cols[f]).collect();
        seen.insert(format!("{key:?}"))
    });
    tensors
        .iter()
        .enumerate()
        .map(|(i, (name, p, _))| ParamDef {
            name: name.clone(),
            param_type: param_type(p),
            dtype_call: if dtype_free[i] {
                "DataTypeList"
            } else {
                "DataType"
            },
            dtypes: if dtype_free[i] {
                braced(dtype_lists[i].iter().map(String::as_str))
            } else {
                braced(combos.iter().map(|&(d, _)| dtype_cols[d][i].as_str()))
            },
            format_list: format_free[i],
            formats: if format_free[i] {
                braced(format_lists[i].iter().map(String::as_str))
            } else {
                braced(combos.iter().map(|&(_, f)| format_cols[f][i].as_str()))
            },
        })
        .collect()
}

/// A tensor's dtypes for a product; falls back to the first product that documents any.
fn dtypes_for<'a>(p: &'a Param, product: Option<&str>) -> &'a [DType] {
    product
        .and_then(|id| p.dtypes.get(id))
        .filter(|l| !l.is_empty())
        .or_else(|| p.dtypes.values().find(|l| !l.is_empty()))
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn braced<'a>(items: impl Iterator<Item = &'a str>) -> String {
    format!("{{{}}}", items.collect::<Vec<_>>().join(", "))
}

fn param_type(p: &Param) -> &'static str {
    match p.role {
        Role::InputTensorList | Role::OutputTensorList => "DYNAMIC",
        _ if p.optional => "OPTIONAL",
        _ => "REQUIRED",
    }
}

fn attr_def(p: &Param) -> AttrDef {
    let kind = attr_kind(p);
    let default = kind.and_then(|k| documented_default(&p.description, k));
    AttrDef {
        name: snake_case(&p.name),
        attr_type: if p.optional || default.is_some() {
            "OPTIONAL"
        } else {
            "REQUIRED"
        },
        kind: kind.map(|k| format!("{k}({})", default.as_ref().map_or("", |d| &d.0))),
        c_type: p.ty.to_string(),
        default_note: default.map(|d| format!("documented default: {}", d.1)),
    }
}

/// The default value a parameter's description documents ("默认值为1.0", "默认为false",
/// "默认值为 {0, 0}"), as the C++ argument of the OpDef attribute kind `kind`, with the doc's
/// text. `None` when there is none or it does not fit the kind.
fn documented_default(description: &str, kind: &str) -> Option<(String, String)> {
    let at = description.find("默认")?;
    let rest = &description[at + "默认".len()..];
    let rest = rest.strip_prefix("值").unwrap_or(rest);
    let rest = rest
        .strip_prefix("为")
        .or_else(|| rest.strip_prefix("是"))?;
    let rest = rest.trim_start_matches([':', '：', ' ', '`']);
    let end = rest
        .char_indices()
        .find(|&(i, c)| {
            // A list runs to its closing brace; anything else to the first separator.
            if rest.starts_with(['{', '[']) {
                i > 0 && (c == '}' || c == ']')
            } else {
                matches!(
                    c,
                    '，' | '。' | '；' | ',' | ';' | '）' | ')' | '(' | '（' | '`' | ' ' | '|'
                )
            }
        })
        .map(|(i, c)| {
            if rest.starts_with(['{', '[']) {
                i + c.len_utf8()
            } else {
                i
            }
        })
        .unwrap_or(rest.len());
    let text = rest[..end].trim();
    let literal = match kind {
        "Int" => text.parse::<i64>().ok().map(|v| v.to_string()),
        "Float" => text
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| format!("{v:?}")),
        "Bool" => match text.to_ascii_lowercase().as_str() {
            "true" => Some("true".to_string()),
            "false" => Some("false".to_string()),
            _ => None,
        },
        "ListInt" | "ListFloat" | "ListBool" => {
            let inner = text
                .strip_prefix(['{', '['])
                .and_then(|t| t.strip_suffix(['}', ']']))?;
            let item = |t: &str| -> Option<String> {
                match kind {
                    "ListInt" => t.parse::<i64>().ok().map(|v| v.to_string()),
                    "ListFloat" => t
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .map(|v| format!("{v:?}")),
                    _ => matches!(t, "true" | "false").then(|| t.to_string()),
                }
            };
            let items: Option<Vec<String>> = inner
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(item)
                .collect();
            items.map(|v| format!("{{{}}}", v.join(", ")))
        }
        "String" => text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .filter(|t| t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .map(|t| format!("\"{t}\"")),
        _ => None,
    }?;
    Some((literal, text.to_string()))
}

// ---------------------------------------------------------------------------------------------
// CMakeLists.txt

#[derive(Serialize)]
struct CmakeCtx {
    note: String,
    snake: String,
    class_name: String,
    socs: Vec<String>,
}

fn cmake_ctx(op: &OpIr, ctx: &EmitCtx) -> Result<CmakeCtx, EmitError> {
    let sources = kernel::kernel_sources(op, &ctx.kernels_dir)?;
    let (products, _) = product_lists(op, &opdef_tensors(op), &sources);
    Ok(CmakeCtx {
        note: ctx.note(op),
        snake: snake_case(&op.op),
        class_name: op.op.clone(),
        socs: products.into_iter().map(|(_, soc, _)| soc).collect(),
    })
}

// ---------------------------------------------------------------------------------------------
// examples/test_aclnn_<snake_op>.cpp

#[derive(Serialize)]
struct ExampleCtx {
    note: String,
    header: String,
    workspace_fn: String,
    execute_fn: String,
    /// C++ statements creating every argument of the first phase.
    setup: Vec<String>,
    workspace_args: String,
    execute_args: String,
    /// The first output tensor, read back after the run.
    result: Option<ResultCtx>,
    cleanup: Vec<String>,
}

#[derive(Serialize)]
struct ResultCtx {
    shape: String,
    device_addr: String,
    elem_size: usize,
}

/// Dims of the placeholder shapes; a tensor of rank r takes the first r.
const BASE_SHAPE: [i64; 8] = [1, 16, 4, 4, 4, 4, 4, 4];

fn example_ctx(op: &OpIr, ctx: &EmitCtx) -> ExampleCtx {
    let product = op.supported_products().next().map(str::to_string);
    // Tensors without documented dtypes follow the first that has some, as in the OpDef.
    let default_dtype = op
        .params
        .iter()
        .find_map(|p| example_dtype(dtypes_for(p, product.as_deref())))
        .unwrap_or(DType::Float32);
    let mut setup = Vec::new();
    let mut cleanup = Vec::new();
    let mut result = None;
    let ws_params: Vec<CParam> = op
        .workspace_fn()
        .map(|f| f.params.clone())
        .unwrap_or_default();
    let mut args = Vec::new();
    for c in &ws_params {
        let (base, pointers) = (c.ty.base(), c.ty.pointers());
        if base == Base::Integer(Integer::U64) && pointers == 1 {
            args.push("&workspaceSize".to_string());
            continue;
        }
        if base == Base::Executor && pointers == 2 {
            args.push("&executor".to_string());
            continue;
        }
        let var = example_ident(&c.name);
        args.push(var.clone());
        let param = op.param(&c.name);
        let role = param.map(|p| p.role).unwrap_or(Role::Attribute);
        let is_list = c.ty.base() == Base::TensorList;
        let is_tensor = c.ty.base() == Base::Tensor;
        if is_tensor || is_list {
            let t = tensor_setup(&var, param, product.as_deref(), default_dtype, is_list);
            setup.extend(t.setup);
            cleanup.extend(t.cleanup);
            let writes = matches!(
                role,
                Role::OutputTensor | Role::OutputTensorList | Role::InOutTensor
            ) || (param.is_none() && !c.ty.is_const());
            if result.is_none() && writes {
                result = Some(t.result);
            }
        } else {
            let a = attr_setup(&var, &c.ty, param);
            setup.extend(a.0);
            cleanup.extend(a.1);
        }
    }
    let execute_args = op
        .execute_fn()
        .map(|f| {
            f.params
                .iter()
                .map(|c| match (c.ty.base(), c.ty.pointers()) {
                    (Base::Void, 1) => "workspaceAddr".to_string(),
                    (Base::Integer(Integer::U64), 0) => "workspaceSize".to_string(),
                    (Base::Executor, 1) => "executor".to_string(),
                    (Base::Stream, 0) => "stream".to_string(),
                    _ => example_ident(&c.name),
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    ExampleCtx {
        note: ctx.note(op),
        header: op.header_name(),
        workspace_fn: op
            .workspace_fn()
            .map(|f| f.name.clone())
            .unwrap_or_else(|| format!("aclnn{}GetWorkspaceSize", op.op)),
        execute_fn: op
            .execute_fn()
            .map(|f| f.name.clone())
            .unwrap_or_else(|| format!("aclnn{}", op.op)),
        setup,
        workspace_args: args.join(", "),
        execute_args,
        result,
        cleanup,
    }
}

struct TensorSetup {
    setup: Vec<String>,
    cleanup: Vec<String>,
    result: ResultCtx,
}

fn tensor_setup(
    var: &str,
    p: Option<&Param>,
    product: Option<&str>,
    default_dtype: DType,
    is_list: bool,
) -> TensorSetup {
    let rank = p
        .and_then(|p| p.rank)
        .map(|r| r.max.clamp(r.min.max(1), BASE_SHAPE.len()))
        .unwrap_or(4);
    let shape = BASE_SHAPE[..rank]
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let dtype = p
        .and_then(|p| example_dtype(dtypes_for(p, product)))
        .unwrap_or(default_dtype);
    let format = p
        .and_then(|p| p.formats.iter().copied().find(|f| f.acl_name().is_some()))
        .unwrap_or(Format::Nd);
    let item = if is_list {
        format!("{var}Item")
    } else {
        var.to_string()
    };
    let mut setup = vec![
        format!("std::vector<int64_t> {item}Shape = {{{shape}}};"),
        format!("void* {item}DeviceAddr = nullptr;"),
        format!("aclTensor* {item} = nullptr;"),
        format!(
            "ret = CreateAclTensor({item}Shape, {}, {}, {}, &{item}DeviceAddr, &{item});",
            dtype.acl_name().unwrap_or("ACL_DT_UNDEFINED"),
            dtype.size_bytes(),
            format.acl_name().unwrap_or("ACL_FORMAT_ND")
        ),
        format!("CHECK_RET(ret == ACL_SUCCESS, return ret);"),
    ];
    let mut cleanup = Vec::new();
    if is_list {
        setup.push(format!("aclTensor* {var}Items[] = {{{item}}};"));
        setup.push(format!(
            "aclTensorList* {var} = aclCreateTensorList({var}Items, 1);"
        ));
        cleanup.push(format!("aclDestroyTensorList({var});"));
    } else {
        cleanup.push(format!("aclDestroyTensor({var});"));
    }
    cleanup.push(format!("aclrtFree({item}DeviceAddr);"));
    TensorSetup {
        setup,
        cleanup,
        result: ResultCtx {
            shape: format!("{item}Shape"),
            device_addr: format!("{item}DeviceAddr"),
            elem_size: dtype.size_bytes(),
        },
    }
}

/// FLOAT32 when the tensor takes it (as the docs' examples do), else its first documented dtype.
fn example_dtype(dtypes: &[DType]) -> Option<DType> {
    if dtypes.contains(&DType::Float32) {
        Some(DType::Float32)
    } else {
        // Only a dtype C can spell (`ACL_…`).
        dtypes.iter().copied().find(|d| d.acl_name().is_some())
    }
}

/// The `ge::Format` OpDef registers a documented format under: its own, or ND for a layout ge
/// has no enumerator for (NLC), as CANN's OpDefs register such tensors.
fn ge_format(f: Format) -> String {
    f.ge_name().unwrap_or_else(|| "ge::FORMAT_ND".to_string())
}

/// Statements declaring a host-side argument with a neutral value, and its cleanup.
fn attr_setup(var: &str, c_type: &CType, p: Option<&Param>) -> (Vec<String>, Vec<String>) {
    let ty = c_type.name();
    let first_enum = p.and_then(|p| p.enum_values.keys().next().copied());
    match c_type.base() {
        Base::Bool => (vec![format!("bool {var} = false;")], vec![]),
        Base::Integer(_) => (
            vec![format!("{ty} {var} = {};", first_enum.unwrap_or(0))],
            vec![],
        ),
        Base::Float | Base::Double => (vec![format!("{ty} {var} = 1.0;")], vec![]),
        Base::DataType => (vec![format!("aclDataType {var} = ACL_FLOAT;")], vec![]),
        Base::Char => (vec![format!("char {var}[] = \"\";")], vec![]),
        Base::IntArray => (
            vec![
                // Window/stride-like arrays of 1 and paddings of 0 form a valid pooling case.
                format!(
                    "std::vector<int64_t> {var}Data = {};",
                    if var.to_ascii_lowercase().contains("pad") {
                        "{0, 0}"
                    } else {
                        "{1, 1}"
                    }
                ),
                format!("aclIntArray* {var} = aclCreateIntArray({var}Data.data(), {var}Data.size());"),
            ],
            vec![format!("aclDestroyIntArray({var});")],
        ),
        Base::FloatArray => (
            vec![
                format!("std::vector<float> {var}Data = {{1.0f, 1.0f}};"),
                format!("aclFloatArray* {var} = aclCreateFloatArray({var}Data.data(), {var}Data.size());"),
            ],
            vec![format!("aclDestroyFloatArray({var});")],
        ),
        Base::BoolArray => (
            vec![
                format!("bool {var}Data[] = {{false, false}};"),
                format!("aclBoolArray* {var} = aclCreateBoolArray({var}Data, 2);"),
            ],
            vec![format!("aclDestroyBoolArray({var});")],
        ),
        Base::Scalar => (
            vec![
                format!("float {var}Value = 1.0f;"),
                format!("aclScalar* {var} = aclCreateScalar(&{var}Value, ACL_FLOAT);"),
            ],
            vec![format!("aclDestroyScalar({var});")],
        ),
        Base::ScalarList => (
            vec![
                format!("float {var}Value = 1.0f;"),
                format!("aclScalar* {var}Items[] = {{aclCreateScalar(&{var}Value, ACL_FLOAT)}};"),
                format!("aclScalarList* {var} = aclCreateScalarList({var}Items, 1);"),
            ],
            vec![format!("aclDestroyScalarList({var});")],
        ),
        _ => (
            vec![format!(
                "{} {var}{{}};  // no example value for this C type",
                c_type.as_str().trim()
            )],
            vec![],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensors_with_their_own_lists_are_written_as_lists_not_columns() {
        let mut x = Param {
            name: "x".into(),
            role: Role::InputTensor,
            formats: vec![Format::Nd],
            ..Param::default()
        };
        x.dtypes
            .insert("ascend910b".into(), vec![DType::Float16, DType::BFloat16]);
        let mut y = x.clone();
        y.name = "y".into();
        let mut scale = x.clone();
        scale.name = "scale".into();
        scale.dtypes.insert(
            "ascend910b".into(),
            vec![DType::Float32, DType::Int64, DType::BFloat16],
        );
        let tensors = vec![
            ("x".to_string(), &x, true),
            ("y".to_string(), &y, true),
            ("scale".to_string(), &scale, true),
        ];
        let defs = param_defs(&tensors, Some("ascend910b"));
        // x and y vary together: two columns, not 2 x 3.
        assert_eq!(defs[0].dtype_call, "DataType");
        assert_eq!(defs[0].dtypes, "{ge::DT_FLOAT16, ge::DT_BF16}");
        assert_eq!(defs[1].dtypes, defs[0].dtypes);
        assert_eq!(defs[2].dtype_call, "DataTypeList");
        assert_eq!(defs[2].dtypes, "{ge::DT_FLOAT, ge::DT_INT64, ge::DT_BF16}");
        assert!(defs
            .iter()
            .all(|d| d.format_list && d.formats == "{ge::FORMAT_ND}"));
    }

    #[test]
    fn shared_format_lists_stay_columns_and_keep_their_dtypes_tied() {
        let mut x = Param {
            name: "x".into(),
            role: Role::InputTensor,
            formats: vec![Format::Nchw, Format::Nhwc],
            ..Param::default()
        };
        x.dtypes.insert("ascend910b".into(), vec![DType::Float16]);
        let mut y = x.clone();
        y.name = "y".into();
        let mut z = x.clone();
        z.name = "z".into();
        z.dtypes
            .insert("ascend910b".into(), vec![DType::Float32, DType::Int32]);
        let tensors = vec![
            ("x".to_string(), &x, true),
            ("y".to_string(), &y, true),
            ("z".to_string(), &z, false),
        ];
        let defs = param_defs(&tensors, Some("ascend910b"));
        // z's dtypes are its own, but its format is tied to x and y: it stays in the columns.
        assert!(defs
            .iter()
            .all(|d| !d.format_list && d.dtype_call == "DataType"));
        assert_eq!(
            defs[2].dtypes,
            "{ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_INT32}"
        );
        assert_eq!(
            defs[0].formats,
            "{ge::FORMAT_NCHW, ge::FORMAT_NHWC, ge::FORMAT_NCHW, ge::FORMAT_NHWC}"
        );
    }

    #[test]
    fn products_with_identical_lists_share_one_config() {
        let def = |dtypes: &str| ParamDef {
            name: "x".into(),
            param_type: "REQUIRED",
            dtype_call: "DataType",
            dtypes: dtypes.into(),
            format_list: true,
            formats: "{ge::FORMAT_ND}".into(),
        };
        let per_product = vec![
            ("ascend310p".to_string(), vec![def("{ge::DT_FLOAT16}")]),
            ("ascend910".to_string(), vec![def("{ge::DT_FLOAT16}")]),
            ("ascend910b".to_string(), vec![def("{ge::DT_BF16}")]),
        ];
        let groups = config_groups(&per_product);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].0, vec!["ascend310p", "ascend910"]);
        assert_eq!(groups[1].0, vec!["ascend910b"]);
    }

    #[test]
    fn documented_defaults_fit_the_attribute_kind() {
        let d = |text: &str, kind: &str| documented_default(text, kind).map(|d| d.0);
        assert_eq!(d("缩放系数，默认值为1.0。", "Float"), Some("1.0".into()));
        assert_eq!(d("默认值为：0", "Int"), Some("0".into()));
        assert_eq!(d("默认为false，表示不转置", "Bool"), Some("false".into()));
        assert_eq!(
            d("默认值为 {0, 0, 0, 0}", "ListInt"),
            Some("{0, 0, 0, 0}".into())
        );
        assert_eq!(d("默认值为\"rint\"", "String"), Some("\"rint\"".into()));
        assert_eq!(d("默认值为1e-5", "Float"), Some("1e-5".into()));
        // Not a value of the kind, or no default at all.
        assert_eq!(d("默认为确定性实现", "Int"), None);
        assert_eq!(d("默认值为None", "Float"), None);
        assert_eq!(d("表示步长", "Int"), None);
    }

    #[test]
    fn example_dtype_prefers_float32() {
        assert_eq!(
            example_dtype(&[DType::BFloat16, DType::Float32]),
            Some(DType::Float32)
        );
        assert_eq!(example_dtype(&[DType::Int64]), Some(DType::Int64));
        assert_eq!(example_dtype(&[]), None);
    }
}
