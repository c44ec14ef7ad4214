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
