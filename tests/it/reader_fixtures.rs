//! Reader mechanisms on fixture docs of our own (`tests/fixtures/docs/`): roles and optionality
//! read the way the doc states them.

use aclgen::ir::{OpIr, Role};

fn read(name: &str) -> OpIr {
    let path = crate::common::repo().join("tests/fixtures/docs").join(name);
    let bytes = std::fs::read(&path).unwrap();
    let mut read = aclgen::read::read_doc(&path.to_string_lossy(), &bytes);
    assert_eq!(read.ops.len(), 1, "{:?}", read.diagnostics);
    read.ops.remove(0)
}

/// A non-const `aclTensor*` documented 输入 is an input (the OpDef grows no `other_out`); a
/// `…Ref` documented 输入/输出 stays in/out.
#[test]
fn a_non_const_tensor_documented_as_input_is_an_input() {
    let op = read("aclnnInplaceBlend.md");
    let role = |name: &str| op.param(name).map(|p| p.role);
    assert_eq!(role("other"), Some(Role::InputTensor));
    assert_eq!(role("selfRef"), Some(Role::InOutTensor));
    let ctx = crate::common::ctx();
    let def = aclgen::emit::ascend::project_files(&op, &ctx)
        .expect("project renders")
        .into_iter()
        .find(|f| f.path.to_string_lossy().ends_with("_def.cpp"))
        .expect("an OpDef");
    let def = def.contents;
    assert!(def.contains("this->Input(\"other\")"), "{def}");
    assert!(!def.contains("other_out"), "{def}");
    assert!(def.contains("this->Output(\"self_ref_out\")"), "{def}");
}

/// "有可选输入groupIdxOptional时，gradY…" makes groupIdxOptional optional, not gradY.
#[test]
fn a_sentence_about_another_parameters_null_does_not_make_this_one_optional() {
    let op = read("aclnnGroupGrad.md");
    let optional = |name: &str| op.param(name).map(|p| p.optional);
    assert_eq!(optional("gradY"), Some(false));
    assert_eq!(optional("groupIdxOptional"), Some(true));
}

/// An error table under a bold "**返回码：**" line is the op's error table; a backticked,
/// slash-separated dtype list ("`FLOAT16`/`FLOAT32`/`BFLOAT16`") is the dtype list; "不是2维且不是3维"
/// rejects only where both hold, so ranks 2 and 3 are allowed.
#[test]
fn a_return_code_table_backticked_dtypes_and_negated_rank_alternatives() {
    use aclnn_runtime::{DType, Rule};
    let mut ops = vec![read("aclnnReturnCode.md")];
    let dtypes = ops[0].param("self").map(|p| p.dtypes.clone()).unwrap();
    assert_eq!(
        dtypes.get("ascend910b"),
        Some(&vec![DType::Float16, DType::Float32, DType::BFloat16])
    );
    let codes: Vec<u32> = ops[0].errors.iter().map(|e| e.code).collect();
    assert_eq!(codes, vec![161001, 161002, 161002]);
    aclgen::pipeline::apply_rules(&mut ops);
    let rank = &ops[0].errors[2];
    let Some(aclgen::ir::Mapping::Rules {
        rules,
        unread: None,
    }) = &rank.mapping
    else {
        panic!("{:?}", rank.mapping);
    };
    let rules: Vec<&Rule> = rules.iter().map(|r| &r.rule).collect();
    assert_eq!(
        rules,
        vec![&Rule::RankIn {
            param: "self".into(),
            min: 2,
            max: 3
        }]
    );
}

/// A product note that names no parameter, written under one function's table of a combined
/// doc (aclnnX&aclnnInplaceX), restricts the tensors of every function of the doc: InplaceNegate's
/// selfRef keeps no BFLOAT16 on Atlas 训练系列产品 (ascend910) either.
#[test]
fn a_product_note_naming_no_parameter_holds_for_every_function_of_the_doc() {
    use aclnn_runtime::DType;
    let path = crate::common::repo().join("tests/fixtures/docs/aclnnNegate&aclnnInplaceNegate.md");
    let bytes = std::fs::read(&path).unwrap();
    let read = aclgen::read::read_doc(&path.to_string_lossy(), &bytes);
    assert_eq!(read.ops.len(), 2, "{:?}", read.diagnostics);
    let on_910 = |op: &str, param: &str| {
        let op = read.ops.iter().find(|o| o.op == op).unwrap();
        op.param(param).unwrap().dtypes.get("ascend910").cloned()
    };
    let fp = Some(vec![DType::Float16, DType::Float32]);
    assert_eq!(on_910("Negate", "self"), fp);
    assert_eq!(on_910("InplaceNegate", "selfRef"), fp);
}

/// "dstType（int64_t）：指定输出y的数据类型。支持取值1、27，分别表示FLOAT16、BFLOAT16": y has the
/// dtype whose aclDataType number dstType holds, as CANN's quant ops check; the doc's pairs are
/// what proves the numbering.
#[test]
fn an_int_attribute_naming_the_output_dtype_is_checked_against_it() {
    use aclnn_runtime::{status, Rule};
    let mut ops = vec![read("aclnnCastTo.md")];
    let enums: Vec<i64> = ops[0]
        .param("dstType")
        .unwrap()
        .enum_values
        .keys()
        .copied()
        .collect();
    assert_eq!(enums, [1, 27]);
    aclgen::pipeline::apply_rules(&mut ops);
    let op = &ops[0];
    let tied = Rule::DtypeIsArg {
        param: "y".into(),
        arg: "dstType".into(),
    };
    assert!(
        op.inferred_rules.iter().any(|r| r.rule == tied),
        "{:?}",
        op.inferred_rules
    );
    let call = |y: &str, dst: i64| {
        let json = serde_json::json!({
            "product": "ascend910b",
            "args": {
                "x": {"shape": [2, 3], "dtype": "FLOAT32"},
                "dstType": dst,
                "y": {"shape": [2, 3], "dtype": y},
            }
        });
        let call = aclgen::rules::parse_call(op, &json).expect("a call");
        aclgen::rules::validate_call(op, &call).map_err(|e| e.code)
    };
    assert_eq!(call("FLOAT16", 1), Ok(()));
    assert_eq!(call("BFLOAT16", 27), Ok(()));
    assert_eq!(call("BFLOAT16", 1), Err(status::PARAM_INVALID));
    assert_eq!(call("FLOAT16", 27), Err(status::PARAM_INVALID));
}
