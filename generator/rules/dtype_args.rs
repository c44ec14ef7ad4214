//! An integer attribute that names an output's dtype ("dstType（int64_t）：指定输出y的数据类型。
//! 支持取值1、27，分别表示FLOAT16、BFLOAT16"): the output has the dtype whose `aclDataType`
//! number the attribute holds, as an `aclDataType` argument's output does (`DtypeIsArg`).
//!
//! Held only where the values the table enumerates (`Param::enum_values`) are dtypes numbered as
//! `aclDataType` numbers them (1 FLOAT16, 27 BFLOAT16, 29 INT4, …): an attribute that counts
//! otherwise ("0表示INT8") names no `aclDataType`, and one without such a list proves nothing.

use super::text;
use crate::ir::{OpIr, Param, ParamKind, Role};
use aclnn_runtime::DType;

/// The outputs whose dtype `p` names, where `p` is such an attribute; none otherwise.
pub fn named_outputs(op: &OpIr, p: &Param) -> Vec<String> {
    if p.role != Role::Attribute || p.kind() != ParamKind::Int || !numbered_as_acl_data_type(p) {
        return Vec::new();
    }
    let text = all_text(p);
    if !text.contains("类型") {
        return Vec::new();
    }
    let is_output = |q: &Param| matches!(q.role, Role::OutputTensor | Role::OutputTensorList);
    let named: Vec<String> = text::mentions(op, &text)
        .into_iter()
        .filter(|m| is_output(m.param))
        .map(|m| m.param.name.clone())
        .collect();
    if !named.is_empty() {
        return named;
    }
    // "指定输出的数据类型" of an op with one output.
    let outputs: Vec<&Param> = op.params.iter().filter(|q| is_output(q)).collect();
    match outputs.as_slice() {
        [only] if text.contains("输出") => vec![only.name.clone()],
        _ => Vec::new(),
    }
}

fn all_text(p: &Param) -> String {
    let mut chunks: Vec<String> = p.constraints.iter().map(|c| text::normalize(c)).collect();
    chunks.push(text::normalize(&p.description));
    chunks.join("。")
}

/// Whether the attribute enumerates dtypes, each under its `aclDataType` number.
fn numbered_as_acl_data_type(p: &Param) -> bool {
    !p.enum_values.is_empty()
        && p.enum_values.iter().all(|(n, name)| {
            let numbered = aclnn_runtime::pred::acl_number_dtype(*n);
            numbered.is_some() && numbered == dtype_named(name)
        })
}

/// A dtype as docs spell it: "INT8", "int8", "DT_INT8", "ACL_INT8".
fn dtype_named(name: &str) -> Option<DType> {
    let name = name.trim();
    let bare = name
        .strip_prefix("DT_")
        .or_else(|| name.strip_prefix("ACL_"))
        .unwrap_or(name);
    DType::parse(bare)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(attr_description: &str, enum_values: &[(i64, &str)], outputs: &[&str]) -> OpIr {
        let tensor = |name: &str, role| Param {
            name: name.into(),
            role,
            ty: "aclTensor*".into(),
            ..Default::default()
        };
        let mut params = vec![tensor("x", Role::InputTensor)];
        params.push(Param {
            name: "dstType".into(),
            role: Role::Attribute,
            ty: "int64_t".into(),
            description: attr_description.into(),
            enum_values: enum_values
                .iter()
                .map(|(n, s)| (*n, s.to_string()))
                .collect(),
            ..Default::default()
        });
        params.extend(outputs.iter().map(|o| tensor(o, Role::OutputTensor)));
        OpIr {
            op: "X".into(),
            params,
            ..Default::default()
        }
    }

    fn named(op: &OpIr) -> Vec<String> {
        named_outputs(op, op.param("dstType").unwrap())
    }

    #[test]
    fn an_attribute_numbering_dtypes_as_acl_data_type_names_the_output_dtype() {
        let fp = [(1, "FLOAT16"), (27, "BFLOAT16")];
        assert_eq!(named(&op("指定输出的数据类型。", &fp, &["y"])), ["y"]);
        assert_eq!(
            named(&op("指定输出y2的数据类型。", &fp, &["y1", "y2"])),
            ["y2"]
        );
        assert_eq!(
            named(&op("y1和y2的目标输出数据类型。", &fp, &["y1", "y2"])),
            ["y1", "y2"]
        );
        let fp8 = [(35, "FLOAT8_E5M2"), (36, "FLOAT8_E4M3")];
        assert_eq!(
            named(&op("表示输出yOut的数据类型枚举值。", &fp8, &["yOut"])),
            ["yOut"]
        );
    }

    #[test]
    fn no_output_dtype_without_acl_data_type_numbers_or_a_named_output() {
        // 0 is FLOAT in aclDataType: these values count otherwise.
        let own = [(0, "INT8"), (1, "INT4")];
        assert!(named(&op("指定输出的数据类型。", &own, &["y"])).is_empty());
        // Values that are not dtypes ("0：none、1：mean").
        let modes = [(0, "none"), (1, "mean")];
        assert!(named(&op("指定输出的数据类型。", &modes, &["y"])).is_empty());
        // No enumeration proves the numbering.
        assert!(named(&op("指定输出的数据类型。", &[], &["y"])).is_empty());
        // Two outputs and none named: which one is not stated.
        let fp = [(1, "FLOAT16"), (27, "BFLOAT16")];
        assert!(named(&op("指定输出的数据类型。", &fp, &["y1", "y2"])).is_empty());
        // Not about a dtype.
        assert!(named(&op("输出y的量化模式。", &fp, &["y"])).is_empty());
    }
}
