//! Runs an op's generated tiling and kernel on the CPU: the kernel against CANN's real CPU-debug
//! Ascend C (`kernel_operator.h` of asc-devkit) on aclgen's open AI Core model (`sim/model/`),
//! the tiling against CANN's real metadef (built from `metadef-src`).
//!
//! `sim` compiles, with the system g++, the GENERATED project's `op_host/<snake>_tiling.cpp` and
//! `op_kernel/<snake>.cpp` unchanged, plus the model, the driver (`sim/driver/`) and a small entry
//! file written here (see `build.rs`). Binaries are cached under a hash of every source.

mod build;
pub use build::KernelSource;
pub mod float16;
pub mod reference;

use crate::ir::{snake_case, OpIr};
use aclnn_runtime::{AclnnError, Arg, Call, Product, TensorDesc};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where sim finds its sources and keeps its binaries.
#[derive(Debug, Clone)]
pub struct SimOptions {
    /// The generated project root (`generated/`), holding `ops/<snake>/`.
    pub generated: PathBuf,
    /// CANN's folder: asc-devkit, asc-tools/cpudebug, metadef, metadef-src (`find_cann`).
    pub cann: PathBuf,
    /// Folder of cached binaries.
    pub cache: PathBuf,
    /// Vector cores to emulate; `None` = the product's count.
    pub core_num: Option<u32>,
}

/// A call with the data file of each tensor (paths resolved against the case's folder).
#[derive(Debug, Clone, PartialEq)]
pub struct SimCase {
    pub call: Call,
    pub data: BTreeMap<String, PathBuf>,
}

/// Why a simulation did not produce outputs.
#[derive(Debug)]
pub enum SimError {
    /// The validator rejected the call; nothing ran, nothing was written.
    Rejected(AclnnError),
    /// The kernel or tiling broke a rule or failed: the driver's JSON and its stderr.
    Failed { summary: Value, stderr: String },
    /// The case, its data or the build is wrong (usage/IO).
    Setup(String),
}

impl From<String> for SimError {
    fn from(message: String) -> Self {
        SimError::Setup(message)
    }
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Rejected(e) => write!(f, "call rejected: {e}"),
            SimError::Failed { stderr, summary } => {
                write!(f, "{}", stderr.trim())?;
                if stderr.trim().is_empty() {
                    write!(f, "{summary}")?;
                }
                Ok(())
            }
            SimError::Setup(msg) => f.write_str(msg),
        }
    }
}

/// Parses a CASE.json: the `validate` call format (read as `validate` reads it, against the
/// op's parameters) where each tensor also has `"data"`.
pub fn parse_case(op: &OpIr, text: &str, case_dir: &Path) -> Result<SimCase, SimError> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| format!("case JSON: {e}"))?;
    let mut data = BTreeMap::new();
    if let Some(args) = value.get_mut("args").and_then(Value::as_object_mut) {
        for (name, arg) in args.iter_mut() {
            let Some(obj) = arg.as_object_mut() else {
                continue;
            };
            if let Some(path) = obj.remove("data") {
                let path = path
                    .as_str()
                    .ok_or_else(|| format!("case JSON: `args.{name}.data` is not a string"))?;
                data.insert(name.clone(), case_dir.join(path));
            }
        }
    }
    let call = crate::rules::parse_call(op, &value).map_err(|e| e.to_string())?;
    Ok(SimCase { call, data })
}

/// Validates the call, builds (or reuses) the op's binary, runs tiling and kernel, and writes
/// the outputs to their data files. Returns the driver's JSON summary, completed here.
pub fn run(op: &OpIr, case: &SimCase, opts: &SimOptions) -> Result<Value, SimError> {
    crate::rules::validate_call(op, &case.call).map_err(SimError::Rejected)?;
    let product = Product::parse(&case.call.product)
        .ok_or_else(|| SimError::Setup(format!("unknown product `{}`", case.call.product)))?;
    if !matches!(product, Product::Ascend910b | Product::Ascend910_93) {
        return Err(SimError::Setup(format!(
            "sim runs Atlas A2/A3 kernels (ascend910b, ascend910_93: arch 2201), not {}",
            product.id()
        )));
    }
    let mut job = job_text(op, case, product, opts.core_num)?;
    let built = build::binary(op, opts)?;
    let cann = opts
        .cann
        .canonicalize()
        .map_err(|e| SimError::Setup(format!("{}: {e}", opts.cann.display())))?;
    for prefix in ignored_frames(&cann, &built.model_dir) {
        let _ = writeln!(job, "ignore_prefix {}", prefix.display());
    }

    let mut summary = execute(&built, &job)?;
    if let Some(obj) = summary.as_object_mut() {
        obj.insert("op".into(), Value::from(op.op.clone()));
        obj.insert("product".into(), Value::from(product.id()));
        obj.insert("binary_cached".into(), Value::from(built.cached));
    }
    Ok(summary)
}

/// Runs a built binary on a job file; the driver's JSON summary, or why it failed.
fn execute(built: &build::Built, job: &str) -> Result<Value, SimError> {
    let work = tempfile::tempdir().map_err(|e| SimError::Setup(format!("temp dir: {e}")))?;
    let job_path = work.path().join("job.txt");
    std::fs::write(&job_path, job).map_err(|e| SimError::Setup(format!("job file: {e}")))?;
    let out = Command::new(&built.path)
        .arg(&job_path)
        .output()
        .map_err(|e| SimError::Setup(format!("{}: {e}", built.path.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let summary: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            serde_json::json!({"status": "crashed", "exit": out.status.code(), "stderr": stderr})
        });
    match out.status.code() {
        Some(0) => Ok(summary),
        Some(2) => Err(SimError::Setup(stderr.trim().to_string())),
        _ => Err(SimError::Failed { summary, stderr }),
    }
}

/// The driver's job file: product, then tensors and attributes in the spec's order.
fn job_text(
    op: &OpIr,
    case: &SimCase,
    product: Product,
    core_num: Option<u32>,
) -> Result<String, SimError> {
    let mut job = String::new();
    let soc = match product {
        Product::Ascend910_93 => "Ascend910_9391",
        _ => "Ascend910B2",
    };
    let _ = writeln!(job, "soc {soc}");
    let _ = writeln!(job, "ub_bytes {}", product.ub_bytes());
    // 0: the SoC's own vector core count (48 on Ascend910B2).
    let _ = writeln!(job, "core_num {}", core_num.unwrap_or(0));
    for p in op.params.iter().filter(|p| p.role.is_tensor()) {
        let arg = case.call.args.get(&p.name).unwrap_or(&Arg::Null);
        let kind = if crate::emit::ascend::kernel::is_input(p.role) {
            "input"
        } else {
            "output"
        };
        let line = tensor_line(kind, &p.name, arg, case)?;
        let _ = writeln!(job, "{line}");
    }
    // Attributes by their TilingContext index: the ones the OpDef registers.
    for p in crate::emit::ascend::kernel::registered_attrs(op) {
        let arg = case.call.args.get(&p.name).unwrap_or(&Arg::Null);
        let _ = writeln!(job, "{}", attr_line(&p.name, arg));
    }
    Ok(job)
}

fn tensor_line(kind: &str, name: &str, arg: &Arg, case: &SimCase) -> Result<String, SimError> {
    let t: &TensorDesc = match arg {
        Arg::Tensor(t) => t,
        Arg::Null => return Ok(format!("{kind} {name} null")),
        _ => return Err(SimError::Setup(format!("argument {name} is not a tensor"))),
    };
    if !t.is_contiguous() {
        return Err(SimError::Setup(format!(
            "{name}: sim runs contiguous tensors only"
        )));
    }
    let path = case
        .data
        .get(name)
        .ok_or_else(|| SimError::Setup(format!("tensor {name} has no \"data\" file")))?;
    let path = path.to_str().filter(|p| !p.contains(char::is_whitespace));
    let path = path.ok_or_else(|| {
        SimError::Setup(format!(
            "data path of {name} must be UTF-8 without whitespace"
        ))
    })?;
    let dims: Vec<String> = t.shape.iter().map(i64::to_string).collect();
    Ok(format!(
        "{kind} {name} {} {} {} {path}",
        t.dtype.as_str(),
        t.shape.len(),
        dims.join(" ")
    ))
}

fn attr_line(name: &str, arg: &Arg) -> String {
    let list = |v: Vec<i64>| {
        let items: Vec<String> = v.iter().map(i64::to_string).collect();
        format!("attr_list {name} {} {}", v.len(), items.join(" "))
    };
    match arg {
        Arg::Int(v) => format!("attr_int {name} {v}"),
        Arg::Bool(b) => format!("attr_bool {name} {}", u8::from(*b)),
        Arg::Float(v) => format!("attr_float {name} {v}"),
        Arg::Scalar { value, .. } => format!("attr_float {name} {value}"),
        Arg::IntArray(v) => list(v.clone()),
        Arg::BoolArray(v) => list(v.iter().map(|b| i64::from(*b)).collect()),
        _ => format!("attr_none {name}"),
    }
}

/// CANN's folder: `--cann DIR`, else `$ASCEND_HOME_PATH`, else `../shared/cann` next to the
/// project (the folder aclgen was built from). The error says where it looked.
pub fn find_cann(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(home) = std::env::var_os("ASCEND_HOME_PATH").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(home));
    }
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/cann");
    if shared.is_dir() {
        return Ok(shared);
    }
    Err(format!(
        "no CANN folder: pass --cann DIR, set ASCEND_HOME_PATH, or put CANN's public trees in {} \
         (sim builds the kernel against CANN's own kernel_operator.h)",
        shared.display()
    ))
}

/// The default binary cache: `$CARGO_TARGET_DIR/aclgen-sim`, else `target/aclgen-sim`.
pub fn default_cache() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"))
        .join("aclgen-sim")
}

/// The op's kernel entry name, as the generated kernel spells it.
pub fn kernel_symbol(op: &OpIr) -> String {
    snake_case(&op.op)
}

/// A kernel-only run: the tensors (name, bytes, output?) in the kernel's argument order, the
/// tiling data, block dim, tiling key and workspace bytes, as a host tiling would give them.
#[derive(Debug, Clone)]
pub struct KernelRun {
    pub tensors: Vec<(String, Vec<u8>, bool)>,
    pub tiling: Vec<u8>,
    pub block_dim: u32,
    pub tiling_key: u64,
    pub workspace_bytes: u64,
}

/// Builds the kernel of `source` on the model and runs it; returns the outputs' bytes (in
/// argument order) and the driver's summary.
pub fn run_kernel(
    source: &KernelSource,
    run: &KernelRun,
    cann: &Path,
    cache: &Path,
) -> Result<(Vec<Vec<u8>>, Value), SimError> {
    let built = build::kernel_binary(source, cann, cache)?;
    let work = tempfile::tempdir().map_err(|e| SimError::Setup(format!("temp dir: {e}")))?;
    let tiling_path = work.path().join("tiling.bin");
    std::fs::write(&tiling_path, &run.tiling).map_err(|e| SimError::Setup(e.to_string()))?;
    let mut job = String::new();
    let _ = writeln!(job, "soc Ascend910B2");
    let _ = writeln!(job, "ub_bytes {}", Product::Ascend910b.ub_bytes());
    let _ = writeln!(job, "core_num 0");
    let _ = writeln!(
        job,
        "kernel_only {} {} {} {}",
        run.block_dim,
        run.tiling_key,
        run.workspace_bytes,
        tiling_path.display()
    );
    let cann = cann
        .canonicalize()
        .map_err(|e| SimError::Setup(format!("{}: {e}", cann.display())))?;
    for prefix in ignored_frames(&cann, &built.model_dir) {
        let _ = writeln!(job, "ignore_prefix {}", prefix.display());
    }
    let mut outputs = Vec::new();
    for (i, (name, bytes, output)) in run.tensors.iter().enumerate() {
        let path = work.path().join(format!("t{i}.bin"));
        if !*output {
            std::fs::write(&path, bytes).map_err(|e| SimError::Setup(e.to_string()))?;
        } else {
            outputs.push(path.clone());
        }
        // A flat UINT8 tensor of the data's size: the kernel sees bytes.
        let _ = writeln!(
            job,
            "{} {name} UINT8 1 {} {}",
            if *output { "output" } else { "input" },
            bytes.len(),
            path.display()
        );
    }
    let mut summary = execute(&built, &job)?;
    if let Some(obj) = summary.as_object_mut() {
        obj.insert("kernel".into(), Value::from(source.name.clone()));
        obj.insert("binary_cached".into(), Value::from(built.cached));
    }
    let mut data = Vec::new();
    for p in outputs {
        data.push(std::fs::read(&p).map_err(|e| SimError::Setup(format!("{}: {e}", p.display())))?);
    }
    Ok((data, summary))
}

/// Frames in these folders are CANN's API or the model, not the kernel's own code: a violation's
/// file:line is the innermost frame outside them.
fn ignored_frames(cann: &Path, model: &Path) -> Vec<PathBuf> {
    vec![
        cann.join("asc-devkit"),
        cann.join("asc-tools/cpudebug"),
        cann.join("generated"),
        model.to_path_buf(),
    ]
}
