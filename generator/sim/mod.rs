//! Runs an op's generated tiling and kernel on the CPU, with no CANN: the kernel on aclgen's own
//! Ascend C runtime (`sim/runtime/include/kernel_operator.h`) over aclgen's AI Core model
//! (`sim/model/`), the tiling on aclgen's own host runtime (`aclgen_host.h`), with the SoC's
//! facts from aclgen's SoC table (`aclnn_runtime::soc`).
//!
//! `sim` compiles, with the system g++, the GENERATED project's `op_host/<snake>_tiling.cpp` and
//! `op_kernel/<snake>.cpp` unchanged, plus the runtime, the model, the driver (`sim/driver/`) and
//! a small entry file written here (see `build.rs`). Binaries are cached under a hash of every
//! source. With a CANN toolkit the kernel is also compiled against its `kernel_operator.h`.

mod build;
/// The 16-bit float codecs, for tests that write and read tensors.
pub use aclnn_runtime::float16;
pub use build::KernelSource;
pub mod profile;
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
    /// With a CANN toolkit: the folder of its `kernel_operator.h` (`toolkit_kernel_api`); the
    /// kernel is also compiled against it. `None`: aclgen's own runtime only (the default).
    pub toolkit: Option<PathBuf>,
    /// Folder of cached binaries.
    pub cache: PathBuf,
    /// Vector cores to emulate; `None` = the product's count.
    pub core_num: Option<u32>,
    /// Run the cycle model (`--profile`): the summary gets `cycle_model` and `profile`.
    pub profile: bool,
    /// Write a Chrome trace of the cycle model here (`--trace FILE`; implies `profile`).
    pub trace: Option<PathBuf>,
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

/// The `__NPU_ARCH__` of the kernels sim runs (Atlas A2 and A3).
const SIM_ARCH: u32 = 2201;

/// Whether sim runs the product's kernels: its reference SoC is of `SIM_ARCH`.
fn runs_on_sim(product: Product) -> bool {
    product
        .reference_soc()
        .is_some_and(|s| s.npu_arch == SIM_ARCH)
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
    if !runs_on_sim(product) {
        let ran: Vec<&str> = Product::ALL
            .iter()
            .filter(|p| runs_on_sim(**p))
            .map(|p| p.id())
            .collect();
        return Err(SimError::Setup(format!(
            "sim runs Atlas A2/A3 kernels ({}: arch {SIM_ARCH}), not {}",
            ran.join(", "),
            product.id()
        )));
    }
    let mut job = job_text(op, case, product, opts.core_num)?;
    let built = build::binary(op, opts)?;
    let _ = writeln!(job, "ignore_prefix {}", built.model_dir.display());
    let soc = product
        .reference_soc()
        .ok_or_else(|| SimError::Setup(format!("no SoC of product {}", product.id())))?;
    let work = tempfile::tempdir().map_err(|e| SimError::Setup(format!("temp dir: {e}")))?;
    let raw_trace = work.path().join("trace");
    if opts.profile || opts.trace.is_some() {
        let _ = writeln!(job, "ddr_rate {}", soc.ddr_rate);
    }
    if opts.trace.is_some() {
        let _ = writeln!(job, "trace {}", raw_trace.display());
    }

    let mut summary = execute(&built, &job)?;
    if let Some(path) = &opts.trace {
        let cores = summary["block_dim"].as_u64().unwrap_or(0);
        profile::write_chrome_trace(&raw_trace, cores, path)?;
    }
    if let Some(obj) = summary.as_object_mut() {
        obj.insert("op".into(), Value::from(op.op.clone()));
        obj.insert("product".into(), Value::from(product.id()));
        obj.insert("binary_cached".into(), Value::from(built.cached));
    }
    if opts.profile || opts.trace.is_some() {
        let outputs = output_elements(op, case);
        let p = profile::profile(&summary, soc, outputs);
        if let Some(obj) = summary.as_object_mut() {
            obj.insert("profile".into(), p);
        }
    }
    Ok(summary)
}

/// Elements of the call's output tensors (the vector math writes each once, in fp32).
fn output_elements(op: &OpIr, case: &SimCase) -> u64 {
    op.params
        .iter()
        .filter(|p| p.role.is_tensor() && !crate::emit::opdef::is_input(p.role))
        .filter_map(|p| match case.call.args.get(&p.name) {
            Some(Arg::Tensor(t)) => {
                Some(t.shape.iter().map(|d| (*d).max(0) as u64).product::<u64>())
            }
            _ => None,
        })
        .sum()
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
    let mut job = soc_lines(product)?;
    // 0: the SoC's own vector core count (48 on Ascend910B2).
    let _ = writeln!(job, "core_num {}", core_num.unwrap_or(0));
    for p in op.params.iter().filter(|p| p.role.is_tensor()) {
        let arg = case.call.args.get(&p.name).unwrap_or(&Arg::Null);
        let kind = if crate::emit::opdef::is_input(p.role) {
            "input"
        } else {
            "output"
        };
        let line = tensor_line(kind, &p.name, arg, case)?;
        let _ = writeln!(job, "{line}");
    }
    // Attributes by their TilingContext index: the ones the OpDef registers.
    for p in crate::emit::opdef::registered_attrs(op) {
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

/// The job's SoC lines: the product's reference SoC from aclgen's SoC table (name, UB bytes,
/// AI and vector cores).
fn soc_lines(product: Product) -> Result<String, SimError> {
    let soc = product.reference_soc().ok_or_else(|| {
        SimError::Setup(format!(
            "no SoC of product {} in the SoC table",
            product.id()
        ))
    })?;
    let mut job = String::new();
    let _ = writeln!(job, "soc {}", soc.name);
    let _ = writeln!(job, "ub_bytes {}", soc.ub_bytes);
    let _ = writeln!(job, "cores {} {}", soc.ai_cores, soc.vector_core_count());
    Ok(job)
}

/// With a CANN toolkit (`--cann DIR`, else `$ASCEND_HOME_PATH`): the folder of its
/// `kernel_operator.h`. `Ok(None)` when none is named: sim runs on aclgen's own runtime. A
/// toolkit named but unusable is an error (one line, exit 2).
pub fn toolkit_kernel_api(explicit: Option<&Path>) -> Result<Option<PathBuf>, String> {
    use crate::toolkit::{Component, Toolkit, ToolkitError};
    match Toolkit::find(explicit) {
        Ok(tk) => tk
            .component(Component::KernelApi)
            .map(Some)
            .map_err(|e| e.to_string()),
        Err(ToolkitError::NotSet) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
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
    /// Run the cycle model (Ascend910B2's GM rate): the summary gets `cycle_model`.
    pub profile: bool,
}

/// Builds the kernel of `source` on the model and runs it; returns the outputs' bytes (in
/// argument order) and the driver's summary.
pub fn run_kernel(
    source: &KernelSource,
    run: &KernelRun,
    cache: &Path,
) -> Result<(Vec<Vec<u8>>, Value), SimError> {
    let built = build::kernel_binary(source, cache)?;
    let work = tempfile::tempdir().map_err(|e| SimError::Setup(format!("temp dir: {e}")))?;
    let tiling_path = work.path().join("tiling.bin");
    std::fs::write(&tiling_path, &run.tiling).map_err(|e| SimError::Setup(e.to_string()))?;
    let mut job = soc_lines(Product::Ascend910b)?;
    let _ = writeln!(job, "core_num 0");
    if run.profile {
        let soc = Product::Ascend910b.reference_soc();
        let _ = writeln!(job, "ddr_rate {}", soc.map_or(32, |s| s.ddr_rate));
    }
    let _ = writeln!(
        job,
        "kernel_only {} {} {} {}",
        run.block_dim,
        run.tiling_key,
        run.workspace_bytes,
        tiling_path.display()
    );
    let _ = writeln!(job, "ignore_prefix {}", built.model_dir.display());
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
