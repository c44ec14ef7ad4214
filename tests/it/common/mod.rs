//! Hand-built IR fixtures and helpers shared by the emitter and CLI tests (independent of the
//! reader).

pub mod cxx;
pub mod seed_ops;

use aclgen::emit::{render, EmitCtx};
use aclgen::ir::OpIr;
use std::path::{Path, PathBuf};

/// The ops aclgen ships (the seed docs in `specs/docs`). Tests that hold what `specs/` makes
/// hold these: a team's own docs beside them never turn the project's tests red.
pub use aclgen::fixture::SEED_OPS;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the aclgen binary with `args` in `cwd`.
pub fn aclgen_in(args: &[&str], cwd: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("aclgen runs")
}

/// A process's stdout or stderr as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes the kernel side of `op`'s project below `out` as gen lays it out: its tiling and kernel
/// skeleton, and the tiling every op shares. Returns the files written.
pub fn write_kernel_side(op: &OpIr, kernels: &Path, out: &Path) -> Vec<PathBuf> {
    use aclgen::emit::ascend::kernel::kernel_files;
    let tera = render::load_templates(&repo().join("templates")).expect("templates load");
    let files = kernel_files(op, kernels, &tera).expect("kernel files render");
    files
        .into_iter()
        .map(|f| {
            let path = out.join(&f.path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &f.contents).expect("write generated file");
            path
        })
        .collect()
}

/// The docs of both corpus folders (ops-nn, ops-nn-2025-12), each folder sorted, with their text
/// (a doc that cannot be read as UTF-8 is left out: the layout tests rewrite text).
pub fn corpus_texts(corpus: &Path) -> impl Iterator<Item = (PathBuf, String)> {
    corpus_docs(corpus).into_iter().filter_map(|path| {
        let text = std::fs::read_to_string(&path).ok()?;
        Some((path, text))
    })
}

/// The docs of both corpus folders (ops-nn, ops-nn-2025-12), each folder sorted.
fn corpus_docs(corpus: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for folder in ["ops-nn/docs", "ops-nn-2025-12/docs"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join(folder))
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "md"));
        files.sort();
        all.extend(files);
    }
    all
}

/// What a doc states of a parameter, as one line: the respelling tests compare these.
pub fn param_facts(p: &aclgen::ir::Param) -> String {
    format!(
        "{} {:?} optional={} {:?} {:?} {:?} {:?} {:?}",
        p.name, p.role, p.optional, p.dtypes, p.formats, p.rank, p.enum_values, p.dtypes_given
    )
}

/// The first line where two readings of a doc differ, for a test's message.
pub fn first_difference(a: &[Vec<String>], b: &[Vec<String>]) -> String {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .find(|(x, y)| x != y)
        .map(|(x, y)| format!("\n   {x}\n   {y}"))
        .unwrap_or_else(|| format!(" ({} vs {} ops)", a.len(), b.len()))
}

pub fn corpus() -> Option<PathBuf> {
    let dir = repo().join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("skipped: ../shared/corpus is absent");
        None
    }
}

pub fn ctx() -> EmitCtx {
    EmitCtx {
        tera: render::load_templates(&repo().join("templates")).expect("templates load"),
        specs_dir: PathBuf::from("specs"),
        kernels_dir: repo().join("kernels"),
    }
}

/// A fixture op as written, rules not applied (as an IR made some other way than gen's pipeline),
/// with the cases its IR gives.
fn op(value: serde_json::Value) -> OpIr {
    let mut op: OpIr = serde_json::from_value(value).expect("fixture matches the IR");
    aclgen::pipeline::derive(&mut op);
    op
}

/// aclnnAvgPool2dBackward as its doc describes it (prototype of CANN's real header).
pub fn avgpool2d_backward() -> OpIr {
    let dtypes = serde_json::json!({
        "ascend910b": ["BFLOAT16", "FLOAT16", "FLOAT32"],
        "ascend910_93": ["BFLOAT16", "FLOAT16", "FLOAT32"],
    });
    op(serde_json::json!({
        "op": "AvgPool2dBackward",
        "products": {"ascend910b": true, "ascend910_93": true, "ascend310p": false},
        "description": "二维平均池化的反向传播，计算二维平均池化正向传播的输入梯度。",
        "header": "aclnn_avgpool2d_backward.h",
        "functions": [
            {"name": "aclnnAvgPool2dBackwardGetWorkspaceSize", "return_type": "aclnnStatus", "params": [
                {"name": "gradOutput", "type": "const aclTensor*"},
                {"name": "self", "type": "const aclTensor*"},
                {"name": "kernelSize", "type": "const aclIntArray*"},
                {"name": "stride", "type": "const aclIntArray*"},
                {"name": "padding", "type": "const aclIntArray*"},
                {"name": "ceilMode", "type": "bool"},
                {"name": "countIncludePad", "type": "bool"},
                {"name": "divisorOverride", "type": "int64_t"},
                {"name": "cubeMathType", "type": "int8_t"},
                {"name": "gradInput", "type": "aclTensor*"},
                {"name": "workspaceSize", "type": "uint64_t*"},
                {"name": "executor", "type": "aclOpExecutor**"}]},
            {"name": "aclnnAvgPool2dBackward", "return_type": "aclnnStatus", "params": [
                {"name": "workspace", "type": "void*"},
                {"name": "workspaceSize", "type": "uint64_t"},
                {"name": "executor", "type": "aclOpExecutor*"},
                {"name": "stream", "type": "aclrtStream"}]}
        ],
        "params": [
            {"name": "gradOutput", "role": "input_tensor", "type": "const aclTensor*",
             "description": "表示输入梯度，Device侧的aclTensor。", "dtypes": dtypes,
             "formats": ["NCHW", "NCL"], "rank": {"min": 3, "max": 4}},
            {"name": "self", "role": "input_tensor", "type": "const aclTensor*",
             "description": "输入数据，正向过程中的输入 /* not a comment */。", "dtypes": dtypes,
             "formats": ["NCHW", "NCL"], "rank": {"min": 3, "max": 4}},
            {"name": "kernelSize", "role": "attribute", "type": "const aclIntArray*",
             "description": "表示池化窗口大小。"},
            {"name": "stride", "role": "attribute", "type": "const aclIntArray*"},
            {"name": "padding", "role": "attribute", "type": "const aclIntArray*"},
            {"name": "ceilMode", "role": "attribute", "type": "bool"},
            {"name": "countIncludePad", "role": "attribute", "type": "bool"},
            {"name": "divisorOverride", "role": "attribute", "type": "int64_t"},
            {"name": "cubeMathType", "role": "attribute", "type": "int8_t",
             "enum_values": {"0": "KEEP_DTYPE", "1": "ALLOW_FP32_DOWN_PRECISION"}},
            {"name": "gradInput", "role": "output_tensor", "type": "aclTensor*",
             "description": "输出梯度。", "dtypes": dtypes, "formats": ["NCHW", "NCL"],
             "rank": {"min": 3, "max": 4}},
            {"name": "workspaceSize", "role": "workspace_size", "type": "uint64_t*"},
            {"name": "executor", "role": "executor", "type": "aclOpExecutor**"}
        ],
        "errors": [],
        "sources": ["specs/docs/003-aclnnAvgPool2dBackward.txt"]
    }))
}

/// A made-up op exercising what the seed ops do not: dtypes that differ per product (per-SoC
/// OpAICoreConfig), a tensor list, an optional tensor, scalar/float/string attributes, an
/// unknown product, `const aclrtStream` (as aclnnAdaptiveAvgPool2dBackward has) and a header name
/// derived from the op name.
pub fn mixed_op() -> OpIr {
    op(serde_json::json!({
        "op": "FooBarV2",
        "products": {"ascend910b": true, "ascend310p": true, "some_future_chip": true, "kirin": false},
        "functions": [
            {"name": "aclnnFooBarV2GetWorkspaceSize", "return_type": "aclnnStatus", "params": [
                {"name": "x", "type": "const aclTensorList*"},
                {"name": "bias", "type": "const aclTensor*"},
                {"name": "alpha", "type": "const aclScalar*"},
                {"name": "eps", "type": "double"},
                {"name": "mode", "type": "char*"},
                {"name": "flags", "type": "const aclBoolArray*"},
                {"name": "outRef", "type": "aclTensor*"},
                {"name": "indices", "type": "aclTensor*"},
                {"name": "workspaceSize", "type": "uint64_t*"},
                {"name": "executor", "type": "aclOpExecutor**"}]},
            {"name": "aclnnFooBarV2", "return_type": "aclnnStatus", "params": [
                {"name": "workspace", "type": "void*"},
                {"name": "workspaceSize", "type": "uint64_t"},
                {"name": "executor", "type": "aclOpExecutor*"},
                {"name": "stream", "type": "const aclrtStream"}]}
        ],
        "params": [
            {"name": "x", "role": "input_tensor_list", "type": "const aclTensorList*",
             "dtypes": {"ascend910b": ["FLOAT16", "BFLOAT16"], "ascend310p": ["FLOAT16"]}},
            {"name": "bias", "role": "input_tensor", "type": "const aclTensor*", "optional": true},
            {"name": "alpha", "role": "attribute", "type": "const aclScalar*"},
            {"name": "eps", "role": "attribute", "type": "double"},
            {"name": "mode", "role": "attribute", "type": "char*"},
            {"name": "flags", "role": "attribute", "type": "const aclBoolArray*", "optional": true},
            {"name": "outRef", "role": "in_out_tensor", "type": "aclTensor*",
             "dtypes": {"ascend910b": ["FLOAT16", "BFLOAT16"], "ascend310p": ["FLOAT16"]},
             "formats": ["ND"], "rank": {"min": 1, "max": 8}},
            {"name": "indices", "role": "output_tensor", "type": "aclTensor*",
             "dtypes": {"ascend910b": ["INT32", "INT64"], "ascend310p": ["INT32", "INT64"]}},
            {"name": "workspaceSize", "role": "workspace_size", "type": "uint64_t*"},
            {"name": "executor", "role": "executor", "type": "aclOpExecutor**"}
        ],
        "errors": [],
        "sources": ["specs/ops/FooBarV2.yaml"]
    }))
}

pub fn fixtures() -> Vec<OpIr> {
    vec![avgpool2d_backward(), mixed_op()]
}

/// Every file below `dir` with the given extension, sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// One line of a dev set's `prototypes.jsonl`: a function CANN's header declares.
pub struct CannPrototype {
    /// The header's file name (the op folder's path with `/` as `_`).
    pub header: String,
    pub function: String,
    /// The parameters as C writes them: `const aclTensor* self, int64_t dim`.
    pub params: String,
}

impl CannPrototype {
    /// The declaration as a header writes it.
    pub fn declaration(&self) -> String {
        format!(
            "ACLNN_API aclnnStatus {}({});\n",
            self.function, self.params
        )
    }
}

/// Every line of a `prototypes.jsonl`; none where the file is absent.
pub fn cann_prototypes(prototypes_jsonl: &Path) -> Vec<CannPrototype> {
    let text = std::fs::read_to_string(prototypes_jsonl).unwrap_or_default();
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a prototype");
            let params: Vec<String> = v["params"]
                .as_array()
                .expect("params")
                .iter()
                .map(|p| format!("{} {}", p[0].as_str().unwrap(), p[1].as_str().unwrap()))
                .collect();
            CannPrototype {
                header: v["header"].as_str().expect("header").to_string(),
                function: v["function"].as_str().expect("function").to_string(),
                params: params.join(", "),
            }
        })
        .collect()
}

/// The declarations of one of CANN's headers, as `prototypes` reads them, from a dev set's
/// `prototypes.jsonl` (`header` is the file name there); empty where the file or header is absent.
pub fn cann_header_prototypes(prototypes_jsonl: &Path, header: &str) -> Vec<String> {
    let decls: String = cann_prototypes(prototypes_jsonl)
        .iter()
        .filter(|p| p.header == header)
        .map(CannPrototype::declaration)
        .collect();
    prototypes(&decls)
}

/// `ACLNN_API aclnnStatus name(T a, ...);` declarations of a header as token lists joined by one
/// space, so layout differences (`T *a` vs `T* a`, line breaks) do not count.
pub fn prototypes(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("ACLNN_API") {
        let tail = &rest[start..];
        let end = tail.find(';').map(|e| e + 1).unwrap_or(tail.len());
        let mut spaced = String::new();
        for c in tail[..end].chars() {
            if "*(),;".contains(c) {
                spaced.extend([' ', c, ' ']);
            } else {
                spaced.push(c);
            }
        }
        found.push(spaced.split_whitespace().collect::<Vec<_>>().join(" "));
        rest = &tail[end..];
    }
    found
}

/// `aclgen gen` of the docs in `docs` into `out` with `kernels` (exit 1 is a doc with errors,
/// whose op is left out; the others are generated).
pub fn gen_into(docs: &Path, out: &Path, kernels: &Path) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(["gen", "--specs"])
        .arg(docs)
        .arg("--out")
        .arg(out)
        .arg("--kernels")
        .arg(kernels)
        .arg("--templates")
        .arg(repo().join("templates"))
        .output()
        .expect("run aclgen gen");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "gen failed: {}",
        text(&o.stderr)
    );
}

/// Every `stride`-th doc of a dev set, generated into a fixed folder of the target dir (gen
/// rewrites only what changed, so the object cache keeps its hits): the sample's docs folder and
/// the op folders written.
pub fn dev_set_sample(
    corpus: &Path,
    set: &str,
    stride: usize,
    user: &str,
) -> (PathBuf, Vec<PathBuf>) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(user).join(set);
    let docs = root.join("docs");
    let _ = std::fs::remove_dir_all(&docs);
    std::fs::create_dir_all(&docs).expect("mkdir docs");
    std::fs::create_dir_all(root.join("kernels")).expect("mkdir kernels");
    let mut all: Vec<PathBuf> = std::fs::read_dir(corpus.join(set).join("docs"))
        .expect("dev set docs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    all.sort();
    for doc in all.iter().step_by(stride) {
        std::fs::copy(doc, docs.join(doc.file_name().unwrap())).expect("copy doc");
    }
    let out = root.join("out");
    gen_into(&docs, &out, &root.join("kernels"));
    let mut ops: Vec<PathBuf> = std::fs::read_dir(out.join("ops"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    ops.sort();
    (docs, ops)
}
