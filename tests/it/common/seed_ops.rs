//! Hand-made IR of the four seed ops with a kernel, the parts sim and the kernel emitter read
//! (tensor and attribute params in prototype order, dtypes). Tests use them so the kernels can
//! be checked without the doc reader; the reader's IR of the same docs must agree on these.

use aclgen::ir::{OpIr, Param, Role};
use aclnn_runtime::DType;
use std::collections::BTreeMap;

const PRODUCTS: &[&str] = &["ascend910b", "ascend910_93"];

fn param(name: &str, role: Role, ty: &str, dtypes: &[DType]) -> Param {
    Param {
        name: name.into(),
        role,
        ty: ty.into(),
        dtypes: if dtypes.is_empty() {
            BTreeMap::new()
        } else {
            PRODUCTS
                .iter()
                .map(|p| ((*p).into(), dtypes.to_vec()))
                .collect()
        },
        ..Param::default()
    }
}

fn floats(name: &str, role: Role) -> Param {
    let ty = if role == Role::OutputTensor {
        "aclTensor*"
    } else {
        "const aclTensor*"
    };
    param(
        name,
        role,
        ty,
        &[DType::Float32, DType::Float16, DType::BFloat16],
    )
}

fn op(name: &str, mut params: Vec<Param>) -> OpIr {
    params.push(param(
        "workspaceSize",
        Role::WorkspaceSize,
        "uint64_t*",
        &[],
    ));
    params.push(param("executor", Role::Executor, "aclOpExecutor**", &[]));
    OpIr {
        op: name.into(),
        products: PRODUCTS.iter().map(|p| ((*p).into(), true)).collect(),
        params,
        sources: vec!["generator/sim/seed_ops.rs".into()],
        ..OpIr::default()
    }
}

/// The IR of a seed op by name (without the aclnn prefix).
pub fn seed_op(name: &str) -> Option<OpIr> {
    use Role::*;
    let attr = |n: &str, ty: &str| param(n, Attribute, ty, &[]);
    Some(match name {
        "AdaptiveAvgPool2dBackward" | "AdaptiveAvgPool3dBackward" => op(
            name,
            vec![
                floats("gradOutput", InputTensor),
                floats("self", InputTensor),
                floats("out", OutputTensor),
            ],
        ),
        "AdaptiveMaxPool3dBackward" => op(
            name,
            vec![
                floats("gradOutput", InputTensor),
                floats("self", InputTensor),
                param("indices", InputTensor, "const aclTensor*", &[DType::Int32]),
                floats("gradInput", OutputTensor),
            ],
        ),
        "AvgPool2dBackward" => op(
            name,
            vec![
                floats("gradOutput", InputTensor),
                floats("self", InputTensor),
                attr("kernelSize", "const aclIntArray*"),
                attr("stride", "const aclIntArray*"),
                attr("padding", "const aclIntArray*"),
                attr("ceilMode", "bool"),
                attr("countIncludePad", "bool"),
                attr("divisorOverride", "int64_t"),
                attr("cubeMathType", "int8_t"),
                floats("gradInput", OutputTensor),
            ],
        ),
        _ => return None,
    })
}

/// Every seed op with a kernel, by name.
pub use aclgen::fixture::SEED_OPS;
