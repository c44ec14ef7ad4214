//! Test cases of an op (synthesized by `crate::cases`) as files: JSON calls in the `validate`
//! format with an index of expected statuses, and a gtest source in the style of CANN's op_api
//! unit tests for teams that build with CANN.

use super::{EmitCtx, EmitError, OutFile};
use crate::cases::{Case, CaseSet};
use crate::ir::{snake_case, OpIr, Param, ParamKind, Role};
use aclnn_runtime::{status, Arg, DType, TensorDesc};
use serde::Serialize;
use std::path::PathBuf;

/// `ops/<snake>/tests/cases.json` and `ops/<snake>/tests/ut/op_api/test_aclnn_<snake>.cpp` with its
/// `CMakeLists.txt` (ops-nn's convention: the UT build collects the folder's sources). A linked
/// in-place function's go into its out-of-place op's folder (`OpIr::cases_path`), whose
/// `CMakeLists.txt` collects them.
pub fn case_files(op: &OpIr, set: &CaseSet, ctx: &EmitCtx) -> Result<Vec<OutFile>, EmitError> {
    let snake = snake_case(&op.op);
    let dir = PathBuf::from(format!("{}/tests", op.project_dir()));
    let mut files = vec![
        OutFile {
            path: PathBuf::from(op.cases_path()),
            contents: case_bundle(op, set),
        },
        OutFile {
            path: dir.join(format!("ut/op_api/test_aclnn_{snake}.cpp")),
            contents: super::wrap::wrap_long_lines(&gtest_source(op, set, ctx)?),
        },
    ];
    if op.linked_to().is_none() {
        files.push(OutFile {
            path: dir.join("ut/op_api/CMakeLists.txt"),
            contents: crate::emit::render::render(
                &ctx.tera,
                "ascend/ut_op_api_CMakeLists.txt.tera",
                &serde_json::json!({ "note": ctx.note(op) }),
            )?,
        });
    }
    Ok(files)
}

/// All cases of an op in one file, one case per line so a review diff shows whole cases:
/// `{"op", "untested_rules", "cases": [{"case", "status", "name", "condition", "call"}]}`, where
/// `call` is the `validate --call` format (`aclgen validate --call cases.json --case NAME`).
/// One file per op rather than per case: the corpus has ~17 cases an op, and thousands of tiny
/// files cost more to write than to generate.
pub fn case_bundle(op: &OpIr, set: &CaseSet) -> String {
    let line = |case: &Case| {
        serde_json::to_string(&CaseLine {
            case: &case.name,
            status: case.expect.status,
            name: &case.expect.name,
            condition: &case.expect.condition,
            call: &case.call,
        })
        .unwrap_or_default()
    };
    let cases: Vec<String> = set.cases.iter().map(line).collect();
    let untested = serde_json::to_string(&set.untested).unwrap_or_else(|_| "{}".to_string());
    format!(
        "{{\n  \"op\": {},\n  \"untested_rules\": {},\n  \"cases\": [\n    {}\n  ]\n}}\n",
        serde_json::Value::String(op.op.clone()),
        untested,
        cases.join(",\n    ")
    )
}

/// A case as a line of `cases.json`: the fields in reading order, the call last.
#[derive(Serialize)]
struct CaseLine<'a> {
    case: &'a str,
    status: u32,
    name: &'a str,
    condition: &'a str,
    call: &'a aclnn_runtime::Call,
}

#[derive(Serialize)]
struct UtCase {
    test: String,
    soc: String,
    decls: Vec<String>,
    inputs: Vec<String>,
    outputs: Vec<String>,
    /// Arguments after the outputs (OP_API_UT's variadic tail).
    extras: Vec<String>,
    expect: String,
    condition: String,
    /// Why the case is not written as a test: a dtype or format no `acl…` enumerator names.
    unwritable: Option<String>,
}

#[derive(Serialize)]
struct UtFile<'a> {
    note: String,
    op: &'a str,
    snake: String,
    header: String,
    cases: Vec<UtCase>,
}

fn gtest_source(op: &OpIr, set: &CaseSet, ctx: &EmitCtx) -> Result<String, EmitError> {
    let file = UtFile {
        note: ctx.note(op),
        op: &op.op,
        snake: snake_case(&op.op),
        header: op.header_name(),
        cases: set.cases.iter().map(|c| ut_case(op, c)).collect(),
    };
    super::render::render(&ctx.tera, "ascend/test_aclnn_op_api.cpp.tera", &file)
}

fn ut_case(op: &OpIr, case: &Case) -> UtCase {
    let mut decls = Vec::new();
    // OP_API_UT(api, INPUT(...), OUTPUT(...), extra...) passes its arguments in this order to
    // aclnnXxxGetWorkspaceSize: the prototype's parameters before the first output go to INPUT,
    // the outputs from there to the last one to OUTPUT, the rest (`cubeMathType` after `out`)
    // are the extras, as ops-nn's tests write them.
    let ordered = prototype_order(op);
    let first_out = ordered.iter().position(|p| is_output(p));
    let last_out = ordered.iter().rposition(|p| is_output(p));
    let (mut inputs, mut outputs, mut extras) = (Vec::new(), Vec::new(), Vec::new());
    let mut unwritable = None;
    for (i, p) in ordered.iter().enumerate() {
        let var = format!("{}_desc", p.name);
        let expr = match case.call.args.get(&p.name) {
            None | Some(Arg::Null) => null_of(p),
            Some(arg) => {
                match desc_expr(p, arg) {
                    Ok(desc) => decls.push(format!("auto {var} = {desc};")),
                    Err(why) => unwritable = Some(format!("{}: {why}", p.name)),
                }
                var
            }
        };
        match (first_out, last_out) {
            (Some(f), Some(l)) if i >= f && i <= l => outputs.push(expr),
            (_, Some(l)) if i > l => extras.push(expr),
            _ => inputs.push(expr),
        }
    }
    UtCase {
        test: format!("case_{}", case.name),
        extras,
        soc: ut_soc_version(&case.call.product),
        decls,
        inputs,
        outputs,
        expect: status::declared(case.expect.status)
            .unwrap_or_default()
            .to_string(),
        condition: case
            .expect
            .condition
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        unwritable: unwritable.or_else(|| undeclared_status(case.expect.status)),
    }
}

/// Why a case expecting `code` cannot be a test: no CANN header declares that status.
fn undeclared_status(code: u32) -> Option<String> {
    status::declared(code).is_none().then(|| {
        format!("the doc's status {code} is declared by no CANN header (opdev/op_errno.h)")
    })
}

/// The `op::SocVersion` enumerator of ops-nn's UT framework for a product id (the product
/// table's; an unknown id upper-cased).
fn ut_soc_version(product: &str) -> String {
    aclnn_runtime::Product::parse(product)
        .map_or_else(|| product.to_ascii_uppercase(), |p| p.info().ut_soc.into())
}

fn is_output(p: &Param) -> bool {
    matches!(p.role, Role::OutputTensor | Role::OutputTensorList)
}

/// The params OP_API_UT passes, in the first-phase prototype's order (the doc's parameter order
/// when there is no prototype); params the prototype does not name follow.
fn prototype_order(op: &OpIr) -> Vec<&Param> {
    let mut ordered: Vec<&Param> = Vec::new();
    if let Some(f) = op.workspace_fn() {
        for c in &f.params {
            if let Some(p) = op.param(&c.name).filter(|p| takes_part(p)) {
                if !ordered.iter().any(|o| o.name == p.name) {
                    ordered.push(p);
                }
            }
        }
    }
    for p in op.params.iter().filter(|p| takes_part(p)) {
        if !ordered.iter().any(|o| o.name == p.name) {
            ordered.push(p);
        }
    }
    ordered
}

/// Params passed to OP_API_UT: everything but the workspace size and the executor.
fn takes_part(p: &Param) -> bool {
    !matches!(
        p.role,
        Role::WorkspaceSize | Role::Executor | Role::Workspace | Role::Stream
    )
}

fn null_of(p: &Param) -> String {
    if p.ty.pointers() == 0 {
        // A by-value parameter (`aclDataType dstType`) has no null: its zero value.
        return format!("static_cast<{}>(0)", p.ty.as_str().trim());
    }
    let ty =
        p.ty.as_str()
            .trim_start_matches("const ")
            .trim_end_matches('*')
            .trim();
    format!("({ty}*)nullptr")
}

/// The UT framework's description of an argument; `Err` names a dtype or format C cannot spell.
fn desc_expr(p: &Param, arg: &Arg) -> Result<String, String> {
    let kind = p.kind();
    let number = match arg {
        Arg::Scalar { dtype, value } => Some((*dtype, *value)),
        Arg::Float(value) => Some((DType::Float32, *value)),
        Arg::Int(v) => Some((DType::Float32, *v as f64)),
        _ => None,
    };
    if let Some((dtype, value)) = number {
        // The UT framework has no scalar-list desc: a raw aclScalarList passes through.
        if kind == ParamKind::ScalarList {
            let (storage, acl) = raw_scalar(dtype, value)?;
            return Ok(format!(
                "[] {{ {storage} static aclScalar* items[] = {{aclCreateScalar(&value, {acl})}}; return aclCreateScalarList(items, 1); }}()"
            ));
        }
        if kind == ParamKind::Scalar {
            return scalar_desc(dtype, value);
        }
    }
    Ok(match arg {
        Arg::Tensor(t) => tensor_desc(t)?,
        Arg::TensorList(ts) => {
            let descs = ts.iter().map(tensor_desc).collect::<Result<Vec<_>, _>>()?;
            format!("TensorListDesc({{{}}})", descs.join(", "))
        }
        Arg::IntArray(v) => format!("IntArrayDesc(vector<int64_t>{{{}}})", join(v)),
        Arg::FloatArray(v) => format!("FloatArrayDesc(vector<float>{{{}}})", join(v)),
        Arg::BoolArray(v) => format!("BoolArrayDesc(vector<bool>{{{}}})", join(v)),
        Arg::Scalar { dtype, value } => scalar_desc(*dtype, *value)?,
        Arg::Bool(b) => format!("static_cast<bool>({b})"),
        Arg::Int(v) => format!("static_cast<{}>({v})", value_type(p)),
        Arg::Float(v) => format!("static_cast<{}>({v:?})", value_type(p)),
        Arg::Null => null_of(p),
        Arg::DataType(d) => acl_dtype(*d)?.to_string(),
        // A `char*` parameter (not const) takes the literal through a cast, as ops-nn's tests do.
        Arg::Str(v) if p.ty.is_const() => super::c_string(v),
        Arg::Str(v) => format!("const_cast<char*>({})", super::c_string(v)),
    })
}

/// The C type of a by-value attribute (`int8_t cubeMathType` stays int8_t).
fn value_type(p: &Param) -> &str {
    p.ty.as_str().trim()
}

/// A scalar of `dtype` holding `value`: the UT framework's `ScalarDesc` where it has a
/// constructor for the dtype, else a raw `aclScalar` (which `OP_API_UT` passes through).
fn scalar_desc(dtype: DType, value: f64) -> Result<String, String> {
    let int = |d: DType| {
        let ty = d.host_c_type().unwrap_or_default();
        format!("ScalarDesc(static_cast<{ty}>({}))", value as i64)
    };
    Ok(match dtype {
        DType::Bool => format!("ScalarDesc(static_cast<bool>({}))", value != 0.0),
        DType::Float32 => format!("ScalarDesc(static_cast<float>({value:?}))"),
        DType::Float16 => format!("ScalarDesc(static_cast<float>({value:?}), ACL_FLOAT16)"),
        DType::Float64 => format!("ScalarDesc(static_cast<double>({value:?}))"),
        DType::Int8
        | DType::UInt8
        | DType::Int16
        | DType::UInt16
        | DType::Int32
        | DType::UInt32
        | DType::Int64
        | DType::UInt64 => int(dtype),
        other => {
            let (storage, acl) = raw_scalar(other, value)?;
            format!("[] {{ {storage} return aclCreateScalar(&value, {acl}); }}()")
        }
    })
}

/// A `static` C variable `value` holding `value` as `dtype` stores it, and the dtype's `ACL_`
/// name; `Err` for a dtype the cases cannot spell as a host value.
fn raw_scalar(dtype: DType, value: f64) -> Result<(String, &'static str), String> {
    let acl = acl_dtype(dtype)?;
    let storage = match dtype {
        DType::Bool => format!("static bool value = {};", value != 0.0),
        DType::Float32 | DType::Float16 => {
            // FLOAT16 as its bits: aclCreateScalar copies the dtype's size.
            if dtype == DType::Float16 {
                let bits = aclnn_runtime::float16::f32_to_f16_bits(value as f32);
                format!("static uint16_t value = {bits};")
            } else {
                format!("static float value = {value:?};")
            }
        }
        DType::BFloat16 => {
            let bits = ((value as f32).to_bits() >> 16) as u16;
            format!("static uint16_t value = {bits};")
        }
        DType::Float64 => format!("static double value = {value:?};"),
        DType::Complex64 => format!("static float value[2] = {{{value:?}, 0.0}};"),
        DType::Complex128 => format!("static double value[2] = {{{value:?}, 0.0}};"),
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => {
            let ty = dtype.host_c_type().unwrap_or_default();
            format!("static {ty} value = {};", value as i64)
        }
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
            let ty = dtype.host_c_type().unwrap_or_default();
            format!("static {ty} value = {};", value as u64)
        }
        other => {
            return Err(format!(
                "a host scalar of dtype {other} cannot be written in C"
            ))
        }
    };
    Ok((storage, acl))
}

fn acl_dtype(d: aclnn_runtime::DType) -> Result<&'static str, String> {
    d.acl_name()
        .ok_or_else(|| format!("aclDataType has no {d} (acl/acl_base_rt.h)"))
}

fn tensor_desc(t: &TensorDesc) -> Result<String, String> {
    let dtype = acl_dtype(t.dtype)?;
    let format = t
        .format
        .acl_name()
        .ok_or_else(|| format!("aclFormat has no {} (acl/acl_base_rt.h)", t.format))?;
    let base = format!("TensorDesc({{{}}}, {dtype}, {format})", join(&t.shape));
    Ok(match &t.strides {
        Some(strides) => format!(
            "TensorDesc({{{}}}, {dtype}, {format}, {{{}}})",
            join(&t.shape),
            join(strides)
        ),
        None => base,
    })
}

fn join<T: std::fmt::Debug>(items: &[T]) -> String {
    items
        .iter()
        .map(|x| format!("{x:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_argument_is_a_c_literal() {
        let p = |ty: &str| Param {
            name: "roundMode".into(),
            role: Role::Attribute,
            ty: ty.into(),
            ..Default::default()
        };
        let arg = Arg::Str("round".into());
        assert_eq!(
            desc_expr(&p("const char*"), &arg).as_deref(),
            Ok(r#""round""#)
        );
        assert_eq!(
            desc_expr(&p("char*"), &arg).as_deref(),
            Ok(r#"const_cast<char*>("round")"#)
        );
    }

    #[test]
    fn a_status_no_cann_header_declares_leaves_the_case_unwritten() {
        assert_eq!(undeclared_status(561103), None);
        let why = undeclared_status(561199).expect("undeclared");
        assert!(
            why.contains("561199") && why.contains("op_errno.h"),
            "{why}"
        );
    }

    #[test]
    fn a_dtype_c_cannot_spell_leaves_the_case_unwritten() {
        let p = Param {
            name: "self".into(),
            role: Role::InputTensor,
            ty: "const aclTensor*".into(),
            ..Default::default()
        };
        let t = |dtype, format| {
            Arg::Tensor(TensorDesc {
                shape: vec![2],
                dtype,
                format,
                strides: None,
            })
        };
        use aclnn_runtime::{DType, Format};
        assert!(desc_expr(&p, &t(DType::Float32, Format::Nd)).is_ok());
        let hf32 = desc_expr(&p, &t(DType::HFloat32, Format::Nd)).unwrap_err();
        assert!(hf32.contains("aclDataType has no HFLOAT32"), "{hf32}");
        let nlc = desc_expr(&p, &t(DType::Float32, Format::Nlc)).unwrap_err();
        assert!(nlc.contains("aclFormat has no NLC"), "{nlc}");
        assert_eq!(crate::emit::c_string("a\"b\\c\n"), r#""a\"b\\c\012""#);
    }
}
