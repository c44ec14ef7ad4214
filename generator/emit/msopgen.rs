//! `ops/<snake_op>/<snake_op>.json`: the op as msOpGen's op JSON (`msopgen gen -i`), so a team
//! can move between the tools. An op imported from msOpGen's JSON (`specs::msopgen`) comes back
//! as it came: its lists are columns already, and its spellings (`fp16`) are kept. A doc's op
//! gets the columns its OpDef has: tensors with the same list vary together, distinct lists and
//! formats multiply (one product's lists: Atlas A2's when supported, else the first supported).

use super::opdef::{columns, fill_undocumented, independent, only_tied};
use super::{EmitError, OutFile};
use crate::ir::{snake_case, OpIr, Param, Role};
use crate::specs::msopgen::{attr_type_name, dtype_name, Attr, Desc, JsonOp};
use serde::Serialize;
use std::path::PathBuf;

pub fn msopgen_file(op: &OpIr) -> Result<OutFile, EmitError> {
    let snake = snake_case(&op.op);
    let json = msopgen_json(op);
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    [json].serialize(&mut ser).map_err(EmitError::Context)?;
    let mut contents = String::from_utf8_lossy(&bytes).into_owned();
    contents.push('\n');
    Ok(OutFile {
        path: PathBuf::from("ops")
            .join(&snake)
            .join(format!("{snake}.json")),
        contents,
    })
}

/// The op's tensors as msOpGen sees them: (name, param, is input). An in/out tensor is an input
/// and an output `<name>_out`, as the OpDef has it.
fn tensors(op: &OpIr) -> Vec<(String, &Param, bool)> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for p in &op.params {
        match p.role {
            Role::InputTensor | Role::InputTensorList => inputs.push((p.name.clone(), p, true)),
            Role::OutputTensor | Role::OutputTensorList => outputs.push((p.name.clone(), p, false)),
            Role::InOutTensor => {
                inputs.push((p.name.clone(), p, true));
                outputs.push((format!("{}_out", p.name), p, false));
            }
            _ => {}
        }
    }
    inputs.extend(outputs);
    inputs
}

fn msopgen_json(op: &OpIr) -> JsonOp {
    let tensors = tensors(op);
    let (types, formats) = lists(op, &tensors);
    let mut input_desc = Vec::new();
    let mut output_desc = Vec::new();
    for (((name, p, input), ty), format) in tensors.iter().zip(types).zip(formats) {
        let param_type = match p.role {
            Role::InputTensorList | Role::OutputTensorList => "dynamic",
            _ if p.optional => "optional",
            _ => "required",
        };
        let desc = Desc::new(name, param_type, format, ty);
        if *input {
            input_desc.push(desc);
        } else {
            output_desc.push(desc);
        }
    }
    let attr = op
        .params
        .iter()
        .filter(|p| p.role == Role::Attribute)
        .filter_map(|p| {
            let param_type = if p.optional { "optional" } else { "required" };
            let ty = attr_type_name(op, p)?;
            Some(Attr::new(&p.name, param_type, ty, p.default.clone()))
        })
        .collect();
    let language = match &op.msopgen {
        Some(m) => m.language.clone(),
        None => Some("cpp".into()),
    };
    JsonOp::new(&op.op, language, input_desc, output_desc, attr)
}

/// Each tensor's `type` and `format` lists, as columns.
fn lists(op: &OpIr, tensors: &[(String, &Param, bool)]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let product = product_of(op, tensors);
    let dtype_lists: Vec<Vec<String>> = tensors
        .iter()
        .map(|(_, p, _)| {
            let list = product
                .and_then(|id| p.dtypes.get(id))
                .filter(|l| !l.is_empty())
                .or_else(|| p.dtypes.values().find(|l| !l.is_empty()));
            list.into_iter()
                .flatten()
                .filter_map(|d| dtype_name(op, *d))
                .collect()
        })
        .collect();
    let format_lists: Vec<Vec<String>> = tensors
        .iter()
        .map(|(_, p, _)| {
            p.formats
                .iter()
                .filter_map(|f| f.msopgen_name().map(str::to_string))
                .collect()
        })
        .collect();
    if op.columns {
        return (dtype_lists, format_lists);
    }
    let fallback = aclnn_runtime::DType::Float16
        .msopgen_name()
        .unwrap_or("float16");
    let dtype_lists = fill_undocumented(dtype_lists, fallback);
    let format_lists = fill_undocumented(format_lists, "ND");
    let all = combos(&dtype_lists, &format_lists, &[]);
    if all.len() <= MAX_COLUMNS {
        return split(&all, tensors.len());
    }
    // Too many: tensors whose lists are their own (OpDef's `DataTypeList`) take their entries
    // in turn instead of multiplying. Each column is still a supported combination.
    let free: Vec<bool> = (0..tensors.len())
        .map(|i| independent(&format_lists, i) && independent(&dtype_lists, i))
        .collect();
    let tied = combos(&dtype_lists, &format_lists, &free);
    let count = tensors
        .iter()
        .enumerate()
        .filter(|(i, _)| free[*i])
        .map(|(i, _)| dtype_lists[i].len().max(format_lists[i].len()))
        .chain([tied.len()])
        .max()
        .unwrap_or(0);
    let cols: Vec<(Vec<String>, Vec<String>)> = (0..count)
        .map(|c| {
            let (d, f) = &tied[c % tied.len().max(1)];
            (0..tensors.len())
                .map(|i| {
                    if free[i] {
                        let (dl, fl) = (&dtype_lists[i], &format_lists[i]);
                        (dl[c % dl.len()].clone(), fl[c % fl.len()].clone())
                    } else {
                        (d[i].clone(), f[i].clone())
                    }
                })
                .unzip()
        })
        .collect();
    split(&cols, tensors.len())
}

/// Past this many columns, free tensors stop multiplying (quantized matmuls reach 10 MB).
const MAX_COLUMNS: usize = 256;

/// Every (dtype column, format column) pair over the tensors, without repeats: identical lists
/// zipped, distinct ones multiplied (as `ascend::columns`); a tensor marked in `free` (when
/// given) keeps an empty entry and multiplies nothing.
fn combos(
    dtype_lists: &[Vec<String>],
    format_lists: &[Vec<String>],
    free: &[bool],
) -> Vec<(Vec<String>, Vec<String>)> {
    let tied = |lists: &[Vec<String>]| {
        if free.is_empty() {
            lists.to_vec()
        } else {
            only_tied(lists, free)
        }
    };
    let dtype_cols = columns(&tied(dtype_lists));
    let format_cols = columns(&tied(format_lists));
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for d in &dtype_cols {
        for f in &format_cols {
            if seen.insert((d, f)) {
                out.push((d.clone(), f.clone()));
            }
        }
    }
    out
}

/// Columns → each tensor's `type` and `format` lists.
fn split(
    cols: &[(Vec<String>, Vec<String>)],
    tensors: usize,
) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    (0..tensors)
        .map(|i| {
            (
                cols.iter().map(|(d, _)| d[i].clone()).collect(),
                cols.iter().map(|(_, f)| f[i].clone()).collect(),
            )
        })
        .unzip()
}

/// The product whose lists the JSON gives: Atlas A2 when the op supports it, else the first
/// supported product any tensor has a list for.
fn product_of<'a>(op: &'a OpIr, tensors: &[(String, &Param, bool)]) -> Option<&'a str> {
    let documented = |id: &str| tensors.iter().any(|(_, p, _)| p.dtypes.contains_key(id));
    let preferred = op
        .supported_products()
        .find(|id| *id == aclnn_runtime::Product::Ascend910b.id() && documented(id));
    preferred.or_else(|| op.supported_products().find(|id| documented(id)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{attr, op, tensor, ParamFixture};
    use aclnn_runtime::{DType, Format};
    use serde_json::Value;

    fn json(op: &OpIr) -> Value {
        serde_json::from_str(&msopgen_file(op).expect("emits").contents).expect("parses")
    }

    #[test]
    fn a_docs_op_gets_its_opdef_columns() {
        let both = &["ascend910b"];
        let mut x =
            tensor("x", Role::InputTensor).with_dtypes(both, &[DType::Float16, DType::Float32]);
        x.formats = vec![Format::Nd, Format::Nchw];
        let y = tensor("y", Role::InputTensor).with_dtypes(both, &[DType::Float16, DType::Float32]);
        let idx = tensor("idx", Role::OutputTensor).with_dtypes(both, &[DType::Int32]);
        let mut k = attr("kernelSize", "const aclIntArray*", &[]);
        k.optional = true;
        let op = op("Foo", &[("ascend910b", true)], vec![x, y, k, idx]);
        let v = json(&op);
        assert_eq!(v[0]["op"], "Foo");
        assert_eq!(v[0]["language"], "cpp");
        let x = &v[0]["input_desc"][0];
        // x and y vary together (2 columns), times x's two formats; y and idx follow x's.
        assert_eq!(
            x["type"],
            serde_json::json!(["float16", "float16", "float32", "float32"])
        );
        assert_eq!(x["format"], serde_json::json!(["ND", "NCHW", "ND", "NCHW"]));
        assert_eq!(v[0]["input_desc"][1]["type"], x["type"]);
        assert_eq!(v[0]["output_desc"][0]["type"][3], "int32");
        assert_eq!(
            v[0]["attr"][0],
            serde_json::json!({"name": "kernelSize", "param_type": "optional", "type": "listInt"})
        );
    }

    #[test]
    fn tensors_with_their_own_lists_stop_multiplying_past_the_limit() {
        use DType as D;
        let lists: [&[DType]; 5] = [
            &[D::Int8, D::Int16, D::Int32, D::Int64],
            &[D::UInt8, D::UInt16, D::UInt32, D::UInt64],
            &[D::Float16, D::Float32, D::BFloat16, D::Float64],
            &[D::Int8, D::UInt8, D::Bool, D::Int4],
            &[D::Complex64, D::Complex128, D::Int32, D::Float16],
        ];
        let params = (0..5)
            .map(|i| {
                tensor(&format!("t{i}"), Role::InputTensor).with_dtypes(&["ascend910b"], lists[i])
            })
            .collect();
        let v = json(&op("Big", &[("ascend910b", true)], params));
        // 4^5 = 1024 combinations: each tensor takes its four dtypes in turn instead.
        for (i, t) in v[0]["input_desc"]
            .as_array()
            .expect("inputs")
            .iter()
            .enumerate()
        {
            let names: Vec<String> = lists[i]
                .iter()
                .map(|d| d.msopgen_name().expect("name").to_string())
                .collect();
            assert_eq!(t["type"], serde_json::json!(names));
            assert_eq!(t["format"], serde_json::json!(["ND", "ND", "ND", "ND"]));
        }
    }

    #[test]
    fn the_file_is_pretty_with_four_spaces_and_deterministic() {
        let op = op(
            "AddCustom",
            &[("ascend910b", true)],
            vec![tensor("x", Role::InputTensor).with_dtypes(&["ascend910b"], &[DType::Float16])],
        );
        let file = msopgen_file(&op).expect("emits");
        assert_eq!(file.path, PathBuf::from("ops/add_custom/add_custom.json"));
        assert!(file
            .contents
            .starts_with("[\n    {\n        \"op\": \"AddCustom\",\n"));
        assert_eq!(file, msopgen_file(&op).expect("again"));
    }
}
