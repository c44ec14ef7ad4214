//! Test fixtures shared by the specs tests, and what those tests use (`use
//! crate::specs::testing::*` brings all of it).

pub(super) use super::{import::*, load::*, schema::*, *};
pub(super) use crate::diag::Code;
pub(super) use crate::ir::{
    CParam, Diagnostic, ErrorCase, Function, Loc, OpIr, Param, Rank, Role, Severity,
};
pub(super) use crate::read::DocRead;
pub(super) use aclnn_runtime::{DType, Format};
pub(super) use std::path::Path;

pub(crate) fn loc(file: &str, line: usize) -> Option<Loc> {
    Some(Loc {
        file: file.into(),
        line,
        column: 0,
    })
}

pub(crate) fn tensor(name: &str, file: &str, line: usize, dtypes: &[(&str, &[DType])]) -> Param {
    Param {
        name: name.into(),
        role: Role::InputTensor,
        ty: "const aclTensor*".into(),
        dtypes: dtypes
            .iter()
            .map(|(p, d)| ((*p).into(), d.to_vec()))
            .collect(),
        formats: vec![Format::parse("ND").expect("ND")],
        source: loc(file, line),
        ..Param::default()
    }
}

pub(crate) fn sample_op(name: &str, file: &str) -> OpIr {
    OpIr {
        op: name.into(),
        products: [("ascend910b".into(), true), ("ascend910".into(), false)]
            .into_iter()
            .collect(),
        description: "算子功能".into(),
        functions: vec![Function {
            name: format!("aclnn{name}GetWorkspaceSize"),
            return_type: "aclnnStatus".into(),
            params: vec![CParam {
                name: "self".into(),
                ty: "const aclTensor*".into(),
            }],
            source: loc(file, 3),
        }],
        params: vec![tensor(
            "self",
            file,
            5,
            &[("ascend910b", &[DType::Float16, DType::Float32])],
        )],
        errors: vec![
            ErrorCase {
                code: 161001,
                name: "ACLNN_ERR_PARAM_NULLPTR".into(),
                condition: "self是空指针".into(),
                source: loc(file, 9),
                mapping: None,
            },
            ErrorCase {
                code: 161002,
                name: "ACLNN_ERR_PARAM_INVALID".into(),
                condition: "self的数据类型不在支持的范围之内".into(),
                source: loc(file, 10),
                mapping: None,
            },
        ],
        constraints: vec!["无".into()],
        sources: vec![file.into()],
        ..OpIr::default()
    }
}

/// Stands in for the markdown reader: a "doc" here is the JSON of its ops.
pub(crate) fn json_reader(path: &str, bytes: &[u8]) -> DocRead {
    match serde_json::from_slice::<Vec<OpIr>>(bytes) {
        Ok(ops) => DocRead {
            ops,
            diagnostics: Vec::new(),
        },
        Err(e) => DocRead {
            ops: Vec::new(),
            diagnostics: vec![Diagnostic::file_level(
                Severity::Error,
                Code::SpecInvalid,
                e.to_string(),
                path,
            )],
        },
    }
}

pub(crate) fn write(dir: &Path, rel: &str, contents: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
}

pub(crate) fn doc_json(ops: &[OpIr]) -> String {
    serde_json::to_string(ops).expect("json")
}

pub(crate) fn errors_of(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

pub(crate) const OVERLAY: &str = "\
kind: overlay
op: Foo
reason: the doc's product line is damaged
products:
  ascend910_93: true
  ascend910: ~
header: aclnn_foo.h
functions:
  aclnnFooGetWorkspaceSize:
    return_type: aclnnStatus
params:
  self:
    dtypes:
      ascend910_93: [FLOAT16]
    rank: {min: 1, max: 8}
    optional: true
errors:
  remove:
    - code: 161001
  replace:
    - code: 161002
      condition: 数据类型
      with: {code: 161002, name: ACLNN_ERR_PARAM_INVALID, condition: self的数据类型不支持}
  add:
    - {code: 561103, name: ACLNN_ERR_INNER_NULLPTR, condition: 内部空指针}
constraints:
  remove: [无]
  add: [确定性计算]
";
