//! The validators emitter on an op that uses every rule kind: the generated module parses, and
//! (ignored by default: it builds a crate from scratch, about a minute) the generated crate and
//! its tests compile and are clippy-clean.
//!
//! Run the build with `cargo test --test it validators_every_rule:: -- --ignored`.

use aclgen::ir::{OpIr, Param, Role};
use aclnn_runtime::{CheckedRule, DType, Factor, Format, Rule, TensorState};
use std::path::Path;
use std::process::Command;

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// One op whose rules cover every `Rule` variant, over every parameter kind.
fn every_rule_op() -> OpIr {
    let t = |name: &str, role| Param {
        name: name.into(),
        role,
        ty: "aclTensor*".into(),
        ..Default::default()
    };
    let a = |name: &str, ty: &str| Param {
        name: name.into(),
        role: Role::Attribute,
        ty: ty.into(),
        ..Default::default()
    };
    let f32_i32 = [("ascend910b".to_string(), vec![DType::Float32, DType::Int32])];
    let rules = vec![
        Rule::ProductSupported {
            products: names(&["ascend910b", "ascend910"]),
        },
        Rule::NotNull {
            params: names(&["x", "xs", "k", "alpha"]),
        },
        Rule::IsNull {
            param: "reserved".into(),
        },
        Rule::DtypeIn {
            param: "x".into(),
            allowed: f32_i32.into_iter().collect(),
        },
        Rule::DtypeSame {
            params: names(&["x", "y"]),
        },
        Rule::DtypePromotable {
            params: names(&["x", "y", "xs"]),
        },
        Rule::DtypeCastable {
            from: names(&["x"]),
            to: "y".into(),
        },
        // aclScalar members of a promotion (CANN's tensor–scalar rule).
        Rule::DtypePromotable {
            params: names(&["x", "alpha", "scalar"]),
        },
        Rule::DtypeCastable {
            from: names(&["x", "xs", "alpha"]),
            to: "y".into(),
        },
        Rule::FormatIn {
            param: "xs".into(),
            allowed: vec![Format::Nd, Format::Nchw],
        },
        Rule::FormatSame {
            params: names(&["x", "xs"]),
        },
        Rule::RankIn {
            param: "x".into(),
            min: 1,
            max: 4,
        },
        Rule::RankSame {
            params: names(&["x", "y"]),
        },
        Rule::ShapeSame {
            params: names(&["x", "y"]),
        },
        Rule::Broadcastable {
            from: "y".into(),
            to: "x".into(),
            dims: Some(vec![-1]),
        },
        Rule::ShapeMatchesList {
            param: "x".into(),
            list: "k".into(),
            trailing: true,
        },
        Rule::ShapeFromList {
            param: "y".into(),
            base: "x".into(),
            list: "k".into(),
        },
        Rule::ShapePadded {
            param: "y".into(),
            base: "x".into(),
            list: "k".into(),
        },
        Rule::ShapeReduced {
            param: "y".into(),
            base: "x".into(),
            dims: "k".into(),
            keepdim: "flag".into(),
        },
        Rule::BroadcastTogether {
            params: names(&["x", "y"]),
        },
        Rule::BroadcastShape {
            params: names(&["x", "y"]),
            out: "z".into(),
        },
        Rule::DimsPositive {
            param: "x".into(),
            allow_zero: false,
        },
        Rule::NotEmpty { param: "xs".into() },
        Rule::Contiguous { param: "y".into() },
        Rule::NumelIn {
            param: "alpha".into(),
            values: vec![1],
        },
        Rule::ElementCountMax {
            param: "x".into(),
            dims: 2,
            max: 1000,
        },
        Rule::ListLenIn {
            param: "k".into(),
            lens: vec![1, 2],
        },
        Rule::ListLenSame {
            params: names(&["xs", "k"]),
        },
        Rule::ListElemsInRange {
            param: "k".into(),
            min: Some(1),
            max: None,
        },
        Rule::ListElemsInRange {
            param: "mask".into(),
            min: Some(0),
            max: Some(1),
        },
        Rule::IntInRange {
            param: "n".into(),
            min: Some(-2),
            max: Some(2),
        },
        Rule::IntInRange {
            param: "scalar".into(),
            min: Some(0),
            max: None,
        },
        Rule::IntIn {
            param: "flag".into(),
            values: vec![0],
        },
        Rule::IntIn {
            param: "ratio".into(),
            values: vec![0, 1],
        },
        Rule::StrIn {
            param: "mode".into(),
            values: names(&["round", "floor"]),
        },
        // A string rule on a tensor: both sides reject it the same way.
        Rule::StrIn {
            param: "y".into(),
            values: names(&["NCHW"]),
        },
        Rule::AxisIn {
            param: "n".into(),
            tensor: "x".into(),
        },
        Rule::AxisIn {
            param: "k".into(),
            tensor: "y".into(),
        },
        Rule::PadsBelowDims {
            param: "k".into(),
            tensor: "x".into(),
        },
        Rule::DimsEqual {
            lhs: "x".into(),
            lhs_dim: -1,
            rhs: "y".into(),
            rhs_dim: 0,
        },
        Rule::DimMultipleOf {
            param: "x".into(),
            dim: -1,
            dim_attr: None,
            by: 8,
        },
        Rule::DimMultipleOf {
            param: "xs".into(),
            dim: 0,
            dim_attr: Some("n".into()),
            by: 2,
        },
        Rule::ValueNot {
            param: "n".into(),
            value: 0,
        },
        Rule::DimInRange {
            param: "x".into(),
            dim: 0,
            min: Some(1),
            max: Some(256),
        },
        Rule::DimInRange {
            param: "xs".into(),
            dim: -1,
            min: None,
            max: Some(4096),
        },
        Rule::DimMatchesChannel {
            param: "y".into(),
            dim: 0,
            tensor: "x".into(),
            layout_attr: None,
        },
        // The layout from a string attribute, and from an argument of another kind.
        Rule::DimMatchesChannel {
            param: "y".into(),
            dim: 0,
            tensor: "x".into(),
            layout_attr: Some("mode".into()),
        },
        Rule::DimMatchesChannel {
            param: "y".into(),
            dim: 0,
            tensor: "x".into(),
            layout_attr: Some("n".into()),
        },
        Rule::DimsScaled {
            lhs: "y".into(),
            rhs: "x".into(),
            dim: -1,
            dim_attr: None,
            num: 1,
            den: 2,
        },
        Rule::ShapeSameExcept {
            lhs: "y".into(),
            rhs: "x".into(),
            dim: 0,
            dim_attr: Some("n".into()),
        },
        Rule::DimsAtMost {
            lhs: "y".into(),
            rhs: "x".into(),
            except_attr: None,
        },
        Rule::DimsAtMost {
            lhs: "y".into(),
            rhs: "x".into(),
            except_attr: Some("n".into()),
        },
        Rule::WhenDtype {
            param: "y".into(),
            dtypes: vec![DType::Int4],
            rule: Box::new(Rule::DimMultipleOf {
                param: "x".into(),
                dim: -1,
                dim_attr: None,
                by: 2,
            }),
        },
        Rule::DtypeIsArg {
            param: "z".into(),
            arg: "dtype".into(),
        },
        // An aclScalar's dtype stated against a tensor's.
        Rule::WhenDtype {
            param: "x".into(),
            dtypes: vec![DType::Float32],
            rule: Box::new(Rule::DtypeIn {
                param: "scalar".into(),
                allowed: [(
                    "ascend910b".to_string(),
                    vec![DType::Float32, DType::Float64],
                )]
                .into_iter()
                .collect(),
            }),
        },
        Rule::ScalarCastable {
            scalars: names(&["alpha"]),
            to: names(&["x", "y"]),
            dtype: None,
        },
        Rule::ScalarCastable {
            scalars: names(&["scalar"]),
            to: vec![],
            dtype: Some(DType::Float32),
        },
        // To the promoted dtype of a tensor and a scalar (aclnnAdds' alpha).
        Rule::ScalarCastable {
            scalars: names(&["alpha"]),
            to: names(&["x", "scalar"]),
            dtype: None,
        },
        Rule::ListUnique { param: "k".into() },
        Rule::ProductsEqual {
            lhs: vec![Factor::Numel("x".into())],
            rhs: vec![
                Factor::Attr("n".into()),
                Factor::Dim {
                    param: "y".into(),
                    dim: -1,
                },
                Factor::DimsFrom {
                    param: "xs".into(),
                    from: 1,
                },
            ],
        },
        // A tensor factor naming an attribute: both sides reject it the same way.
        Rule::ProductsEqual {
            lhs: vec![Factor::Numel("k".into())],
            rhs: vec![Factor::Attr("m".into())],
        },
        Rule::AttrMultipleOf {
            param: "n".into(),
            by: "m".into(),
        },
        Rule::ValueAtMost {
            lhs: "n".into(),
            rhs: "m".into(),
        },
        Rule::ListElemsAtMostFraction {
            lhs: "k".into(),
            rhs: "k".into(),
            num: 1,
            den: 1,
        },
        Rule::When {
            param: "mask".into(),
            index: Some(1),
            values: vec![1],
            negate: false,
            rule: Box::new(Rule::NotNull {
                params: names(&["z"]),
            }),
        },
        Rule::When {
            param: "flag".into(),
            index: None,
            values: vec![1],
            negate: true,
            rule: Box::new(Rule::RankIn {
                param: "y".into(),
                min: 0,
                max: 2,
            }),
        },
        // Under a string attribute's value, and under some element of a list in a range.
        Rule::WhenStr {
            param: "mode".into(),
            values: names(&["floor", "trunc"]),
            negate: false,
            rule: Box::new(Rule::NotNull {
                params: names(&["z"]),
            }),
        },
        Rule::WhenStr {
            param: "mode".into(),
            values: names(&["round"]),
            negate: true,
            rule: Box::new(Rule::RankIn {
                param: "y".into(),
                min: 0,
                max: 3,
            }),
        },
        Rule::WhenAnyElem {
            param: "k".into(),
            min: Some(1),
            max: None,
            rule: Box::new(Rule::DimsPositive {
                param: "z".into(),
                allow_zero: false,
            }),
        },
        Rule::WhenAnyElem {
            param: "k".into(),
            min: None,
            max: Some(-1),
            rule: Box::new(Rule::IntIn {
                param: "n".into(),
                values: vec![0],
            }),
        },
        // Under a tensor's state: a rank, emptiness of a list, a null array, a present tensor.
        Rule::WhenTensor {
            param: "x".into(),
            state: TensorState::Rank {
                ranks: vec![3],
                negate: false,
            },
            rule: Box::new(Rule::DimsEqual {
                lhs: "x".into(),
                lhs_dim: 0,
                rhs: "y".into(),
                rhs_dim: 0,
            }),
        },
        Rule::WhenTensor {
            param: "xs".into(),
            state: TensorState::NotEmpty,
            rule: Box::new(Rule::NotEmpty { param: "y".into() }),
        },
        Rule::WhenTensor {
            param: "k".into(),
            state: TensorState::Null,
            rule: Box::new(Rule::IntIn {
                param: "n".into(),
                values: vec![0],
            }),
        },
        Rule::WhenTensor {
            param: "y".into(),
            state: TensorState::Present,
            rule: Box::new(Rule::WhenTensor {
                param: "z".into(),
                state: TensorState::Empty,
                rule: Box::new(Rule::NotNull {
                    params: names(&["mode"]),
                }),
            }),
        },
        Rule::WhenTensor {
            param: "y".into(),
            state: TensorState::Rank {
                ranks: vec![0, 1],
                negate: true,
            },
            rule: Box::new(Rule::RankSame {
                params: names(&["x", "y"]),
            }),
        },
        Rule::OnProducts {
            products: names(&["ascend910"]),
            rule: Box::new(Rule::IntIn {
                param: "m".into(),
                values: vec![0, 5],
            }),
        },
        // A tensor rule on an attribute: both sides reject it the same way.
        Rule::DtypeIn {
            param: "k".into(),
            allowed: [("ascend910b".to_string(), vec![DType::Int64])]
                .into_iter()
                .collect(),
        },
    ];
    OpIr {
        op: "EveryRule".into(),
        products: [("ascend910b".into(), true), ("ascend910".into(), true)]
            .into_iter()
            .collect(),
        params: vec![
            t("x", Role::InputTensor),
            t("y", Role::InputTensor),
            Param {
                name: "xs".into(),
                role: Role::InputTensorList,
                ty: "aclTensorList*".into(),
                ..Default::default()
            },
            a("k", "aclIntArray*"),
            a("mask", "aclBoolArray*"),
            a("alpha", "aclScalar*"),
            a("scalar", "aclScalar*"),
            a("n", "int64_t"),
            a("m", "int32_t"),
            a("flag", "bool"),
            a("ratio", "double"),
            a("mode", "char*"),
            a("dtype", "aclDataType"),
            t("z", Role::OutputTensor),
            Param {
                optional: true,
                ..t("reserved", Role::InputTensor)
            },
        ],
        inferred_rules: rules
            .into_iter()
            .enumerate()
            .map(|(i, rule)| CheckedRule {
                rule,
                code: 161002,
                condition: format!("condition {i}"),
                inferred: true,
            })
            .collect(),
        ..Default::default()
    }
}

/// The same op with every parameter named as something the generated code binds itself (closure
/// and `let` names, the test module's `call`, its helpers `tensor`, `string`): the generated
/// identifiers must not shadow them or be shadowed (a doc's parameter `tensor` once made the
/// crate fail with E0618).
fn colliding_names_op() -> OpIr {
    let renames = [
        ("x", "v"),
        ("y", "tensor"),
        ("xs", "call"),
        ("k", "len"),
        ("mask", "a"),
        ("alpha", "d"),
        ("scalar", "product"),
        ("n", "target"),
        ("m", "s"),
        ("flag", "r"),
        ("ratio", "string"),
        ("mode", "name"),
        ("dtype", "layout"),
        ("z", "vs"),
    ];
    fn rename(value: &mut serde_json::Value, renames: &[(&str, &str)]) {
        match value {
            serde_json::Value::String(s) => {
                if let Some((_, to)) = renames.iter().find(|(from, _)| from == s) {
                    *s = to.to_string();
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| rename(v, renames)),
            serde_json::Value::Object(map) => map.values_mut().for_each(|v| rename(v, renames)),
            _ => {}
        }
    }
    let mut json = serde_json::to_value(every_rule_op()).expect("IR to JSON");
    rename(&mut json, &renames);
    let mut op: OpIr = serde_json::from_value(json).expect("IR from JSON");
    op.op = "CollidingNames".into();
    op
}

#[test]
fn colliding_names_get_their_own_identifiers() {
    let files = aclgen::emit::rust::rust_crate(&[colliding_names_op()]);
    let module = files
        .iter()
        .find(|f| f.path == Path::new("rust/src/colliding_names.rs"))
        .expect("module");
    for ident in [
        "v_", "call_", "len_", "a_", "d_", "product_", "target_", "s_", "r_", "vs_",
    ] {
        assert!(
            module.contents.contains(&format!("let {ident} = ")),
            "{ident} is not bound in the test module"
        );
    }
    assert!(module
        .contents
        .contains("testing::tensor(call, \"tensor\")"));
}

#[test]
fn every_rule_kind_renders_valid_rust() {
    let files = aclgen::emit::rust::rust_crate(&[every_rule_op(), colliding_names_op()]);
    for f in files
        .iter()
        .filter(|f| f.path.extension().is_some_and(|e| e == "rs"))
    {
        assert!(
            !f.contents.contains("compile_error!"),
            "{}",
            f.path.display()
        );
        syn::parse_file(&f.contents).unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
    }
    let module = files
        .iter()
        .find(|f| f.path == Path::new("rust/src/every_rule.rs"))
        .expect("module");
    for i in 0..51 {
        let quoted = format!("\"condition {i}\"");
        assert!(
            module.contents.contains(&quoted),
            "condition {i} not quoted"
        );
    }
}

#[test]
#[ignore = "builds the generated crate from scratch (about a minute)"]
fn every_rule_kind_compiles_and_is_clippy_clean() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("every_rule");
    // Fresh sources each run; the crate's own target folder is kept between runs.
    let _ = std::fs::remove_dir_all(root.join("generated"));
    let _ = std::fs::remove_dir_all(root.join("runtime"));
    let out = root.join("generated");
    let ops = [every_rule_op(), colliding_names_op()];
    for f in aclgen::emit::rust::rust_crate(&ops) {
        let path = out.join(&f.path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, f.contents).expect("write");
    }
    // The crate's tests replay each op's cases file, as `gen` writes it next to the op project.
    for op in &ops {
        let snake = aclgen::ir::snake_case(&op.op);
        let cases = out.join(format!("ops/{snake}/tests/cases.json"));
        std::fs::create_dir_all(cases.parent().expect("parent")).expect("mkdir");
        let set = aclgen::cases::synthesize(op);
        std::fs::write(&cases, aclgen::emit::case_bundle(op, &set)).expect("write cases");
    }
    // The generated Cargo.toml points at ../../runtime: the real sources, with a manifest that
    // does not inherit from this workspace.
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    std::fs::create_dir_all(root.join("runtime")).expect("mkdir runtime");
    std::os::unix::fs::symlink(runtime.join("src"), root.join("runtime/src")).expect("symlink");
    let runtime_toml = std::fs::read_to_string(runtime.join("Cargo.toml"))
        .expect("runtime manifest")
        .replace("edition.workspace = true", "edition = \"2021\"")
        .replace("license.workspace = true", "license = \"Apache-2.0\"");
    std::fs::write(root.join("runtime/Cargo.toml"), runtime_toml).expect("runtime manifest");
    let manifest = out.join("rust/Cargo.toml");
    let mut toml = std::fs::read_to_string(&manifest).expect("manifest");
    toml.push_str("\n[workspace]\n");
    std::fs::write(&manifest, toml).expect("manifest");
    let manifest = manifest.to_str().expect("utf-8 path");
    for args in [
        // Built, not run: the op's rules contradict each other on purpose (every kind on a few
        // tensors), so no call passes them all and there is no baseline to replay. The
        // differential test runs on the shipped ops' crate (`generated/rust`) in `cargo test`.
        vec![
            "test",
            "--no-run",
            "--manifest-path",
            manifest,
            "--offline",
            "-q",
        ],
        vec![
            "clippy",
            "--manifest-path",
            manifest,
            "--offline",
            "-q",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    ] {
        let status = Command::new(env!("CARGO"))
            .args(&args)
            .env("CARGO_TARGET_DIR", root.join("target"))
            .status()
            .expect("run cargo");
        assert!(status.success(), "cargo {args:?} failed");
    }
}
