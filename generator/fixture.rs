//! Hand-built IR for tests (unit tests and `tests/it`): one way to write an op and its
//! parameters without the doc reader, and the seed docs' bytes.
//!
//! ```
//! use aclgen::fixture::{attr, op, tensor, ParamFixture};
//! use aclgen::ir::Role;
//! use aclnn_runtime::DType;
//! let op = op(
//!     "Toy",
//!     &[("ascend910b", true)],
//!     vec![
//!         tensor("self", Role::InputTensor).with_dtypes(&["ascend910b"], &[DType::Float32]),
//!         attr("kernelSize", "const aclIntArray*", &["长度为1或2"]),
//!     ],
//! );
//! assert_eq!(op.params[0].ty, "const aclTensor*");
//! ```

use crate::ir::{CParam, Function, OpIr, Param, Rank, Role};
use aclnn_runtime::{DType, Format};
use std::path::Path;

/// An op named `name` with these products (supported or not) and parameters.
pub fn op(name: &str, products: &[(&str, bool)], params: Vec<Param>) -> OpIr {
    OpIr {
        op: name.into(),
        products: products.iter().map(|(p, on)| ((*p).into(), *on)).collect(),
        params,
        ..OpIr::default()
    }
}

/// `op` with the two-phase prototypes of its parameters (`aclnn<name>GetWorkspaceSize` with
/// workspaceSize and executor, and `aclnn<name>`), so gen can generate it.
pub fn two_phase(name: &str, params: Vec<Param>) -> OpIr {
    let mut o = op(name, &[("ascend910b", true)], params);
    let mut first: Vec<CParam> = o
        .params
        .iter()
        .map(|p| CParam {
            name: p.name.clone(),
            ty: p.ty.clone(),
        })
        .collect();
    first.push(CParam {
        name: "workspaceSize".into(),
        ty: "uint64_t*".into(),
    });
    first.push(CParam {
        name: "executor".into(),
        ty: "aclOpExecutor**".into(),
    });
    let function = |name: String, params: Vec<CParam>| Function {
        name,
        return_type: "aclnnStatus".into(),
        params,
        source: None,
    };
    o.functions = vec![
        function(format!("aclnn{name}GetWorkspaceSize"), first),
        function(format!("aclnn{name}"), Vec::new()),
    ];
    o
}

/// A tensor parameter: `const aclTensor*` when it is an input, `aclTensor*` otherwise; no
/// dtypes, formats or rank until the `with_` methods of [`ParamFixture`] add them.
pub fn tensor(name: &str, role: Role) -> Param {
    Param {
        name: name.into(),
        role,
        ty: if role == Role::InputTensor {
            "const aclTensor*"
        } else {
            "aclTensor*"
        }
        .into(),
        ..Param::default()
    }
}

/// An attribute of C type `ty` with the constraints its doc states.
pub fn attr(name: &str, ty: &str, constraints: &[&str]) -> Param {
    Param {
        name: name.into(),
        role: Role::Attribute,
        ty: ty.into(),
        constraints: constraints.iter().map(|s| s.to_string()).collect(),
        ..Param::default()
    }
}

/// What a test adds to a parameter, one field at a time.
pub trait ParamFixture {
    /// The same dtypes on each of `products`.
    fn with_dtypes(self, products: &[&str], dtypes: &[DType]) -> Self;
    fn with_formats(self, formats: &[Format]) -> Self;
    fn with_rank(self, min: usize, max: usize) -> Self;
}

impl ParamFixture for Param {
    fn with_dtypes(mut self, products: &[&str], dtypes: &[DType]) -> Self {
        self.dtypes
            .extend(products.iter().map(|p| ((*p).into(), dtypes.to_vec())));
        self
    }

    fn with_formats(mut self, formats: &[Format]) -> Self {
        self.formats = formats.to_vec();
        self
    }

    fn with_rank(mut self, min: usize, max: usize) -> Self {
        self.rank = Some(Rank { min, max });
        self
    }
}

/// The ops the project ships (the seed docs' ops): tests about the shipped specs hold these and
/// nothing else, so a team that adds its own docs to `specs/docs` keeps the suite green.
pub const SEED_OPS: [&str; 4] = [
    "AdaptiveAvgPool2dBackward",
    "AdaptiveAvgPool3dBackward",
    "AdaptiveMaxPool3dBackward",
    "AvgPool2dBackward",
];

/// The seed docs in `specs/docs`: the files whose name starts with their number (`000-`…`004-`).
pub fn seed_docs() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/docs");
    let mut docs: Vec<_> = std::fs::read_dir(&dir)
        .expect("specs/docs")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.len() > 4 && n[..3].bytes().all(|b| b.is_ascii_digit()) && &n[3..4] == "-"
            })
        })
        .collect();
    docs.sort();
    docs
}

/// The bytes of the seed doc in `specs/docs` whose file name starts with `prefix` ("004").
pub fn seed(prefix: &str) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/docs");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("specs/docs")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    let path = entries
        .into_iter()
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .expect("seed exists");
    std::fs::read(path).expect("read seed")
}
