//! Builds an op's simulation binary with the system g++, cached under a hash of its sources.
//!
//! The binary links aclgen's own parts only:
//! - aclgen's Ascend C runtime (`sim/runtime/include`: `kernel_operator.h` for the kernel, the
//!   tiling API for the host) and AI Core model (`sim/model`), and the driver (`sim/driver`),
//!   embedded in aclgen and compiled once per version;
//! - the op: the GENERATED `op_kernel/<snake>.cpp` (after the tiling struct CANN's op compiler
//!   would inject, `tests/ut/op_kernel/<snake>_tiling_def.h`) and `op_host/<snake>_tiling.cpp`,
//!   both unchanged.
//!
//! Nothing of CANN is compiled. With a toolkit (`sim --cann`), the same kernel unit is also
//! compiled against the toolkit's own `kernel_operator.h` (see [`toolkit_check`]).

use super::SimError;
use super::SimOptions;
use crate::ir::{snake_case, OpIr};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The compiler; part of every cache key.
const CXX: &str = "g++";
const OPT: &[&str] = &["-O1", "-g0"];

/// The runtime, model and driver, embedded so `aclgen sim` works from any folder.
const RUNTIME_FILES: &[(&str, &str)] = &[
    (
        "model/include/stub_fun.h",
        include_str!("../../sim/model/include/stub_fun.h"),
    ),
    (
        "model/include/aclgen_model.h",
        include_str!("../../sim/model/include/aclgen_model.h"),
    ),
    (
        "model/include/aclgen_types.h",
        include_str!("../../sim/model/include/aclgen_types.h"),
    ),
    (
        "model/src/model.cpp",
        include_str!("../../sim/model/src/model.cpp"),
    ),
    (
        "model/src/kernel_glue.inc",
        include_str!("../../sim/model/src/kernel_glue.inc"),
    ),
    (
        "runtime/include/kernel_operator.h",
        include_str!("../../sim/runtime/include/kernel_operator.h"),
    ),
    (
        "runtime/include/aclgen_host.h",
        include_str!("../../sim/runtime/include/aclgen_host.h"),
    ),
    (
        "runtime/include/register/op_impl_registry.h",
        include_str!("../../sim/runtime/include/register/op_impl_registry.h"),
    ),
    (
        "runtime/include/register/tilingdata_base.h",
        include_str!("../../sim/runtime/include/register/tilingdata_base.h"),
    ),
    (
        "runtime/include/tiling/platform/platform_ascendc.h",
        include_str!("../../sim/runtime/include/tiling/platform/platform_ascendc.h"),
    ),
    (
        "driver/sim_main.cpp",
        include_str!("../../sim/driver/sim_main.cpp"),
    ),
];

/// One build at a time in a process (the tests run on 2 cores shared with others).
static BUILD_LOCK: Mutex<()> = Mutex::new(());

#[derive(Debug, Clone)]
pub struct Built {
    pub path: PathBuf,
    /// The binary was already there for these sources.
    pub cached: bool,
    /// Where the runtime's and model's sources were written (frames there are not the kernel's).
    pub model_dir: PathBuf,
}

/// The generated sources of one op that sim compiles.
pub struct OpSources {
    pub tiling_cpp: PathBuf,
    pub kernel_cpp: PathBuf,
    /// The tiling struct and GET_TILING_DATA CANN's op compiler injects into the kernel.
    pub tiling_def: PathBuf,
    pub op_host: PathBuf,
    pub op_kernel: PathBuf,
}

pub fn op_sources(op: &OpIr, generated: &Path) -> OpSources {
    let snake = snake_case(&op.op);
    let root = generated.join("ops").join(&snake);
    OpSources {
        tiling_cpp: root.join("op_host").join(format!("{snake}_tiling.cpp")),
        kernel_cpp: root.join("op_kernel").join(format!("{snake}.cpp")),
        tiling_def: root.join(crate::emit::ascend::kernel::tiling_def_path(&snake)),
        op_host: root.join("op_host"),
        op_kernel: root.join("op_kernel"),
    }
}

/// FNV-1a, stable across runs and machines (the cache key must not depend on std's hasher).
fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

struct Key(u64);

impl Key {
    fn new(what: &str) -> Key {
        let mut k = Key(0xcbf2_9ce4_8422_2325);
        k.text(CXX);
        k.text(what);
        k
    }
    fn text(&mut self, s: &str) {
        fnv1a(&mut self.0, &(s.len() as u64).to_le_bytes());
        fnv1a(&mut self.0, s.as_bytes());
    }
    fn file(&mut self, root: &Path, f: &Path) -> Result<(), SimError> {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let rel = f.strip_prefix(root).unwrap_or(f);
        self.text(&rel.to_string_lossy());
        fnv1a(&mut self.0, &(bytes.len() as u64).to_le_bytes());
        fnv1a(&mut self.0, &bytes);
        Ok(())
    }
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

fn setup(msg: impl Into<String>) -> SimError {
    SimError::Setup(msg.into())
}

fn arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Runs g++ jobs, two at a time; the first failure is returned with its stderr.
fn compile_all(jobs: Vec<(Vec<String>, PathBuf)>, what: &str) -> Result<(), SimError> {
    let mut pending = jobs.into_iter();
    let mut running: Vec<(std::process::Child, PathBuf)> = Vec::new();
    let mut failure: Option<String> = None;
    loop {
        while running.len() < 2 && failure.is_none() {
            let Some((args, dir)) = pending.next() else {
                break;
            };
            let child = Command::new(CXX)
                .args(&args)
                .current_dir(&dir)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| setup(format!("cannot run {CXX}: {e}")))?;
            running.push((child, dir));
        }
        if running.is_empty() {
            break;
        }
        let (child, _) = running.remove(0);
        let out = child
            .wait_with_output()
            .map_err(|e| setup(format!("{CXX}: {e}")))?;
        if !out.status.success() && failure.is_none() {
            failure = Some(String::from_utf8_lossy(&out.stderr).into_owned());
        }
    }
    match failure {
        Some(stderr) => Err(setup(format!("compiling {what} failed:\n{stderr}"))),
        None => Ok(()),
    }
}

fn run_cxx(args: &[String], dir: &Path, what: &str) -> Result<(), SimError> {
    compile_all(vec![(args.to_vec(), dir.to_path_buf())], what)
}

/// Writes `dir` through a staging folder renamed into place: a half-built cache entry is never
/// seen. Returns whether it had to be built.
fn cached_dir(
    dir: &Path,
    build: impl FnOnce(&Path) -> Result<(), SimError>,
) -> Result<bool, SimError> {
    if dir.join(".done").is_file() {
        return Ok(false);
    }
    let parent = dir.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| setup(format!("{}: {e}", parent.display())))?;
    let staging = parent.join(format!(
        "{}.tmp.{}",
        dir.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| setup(format!("{}: {e}", staging.display())))?;
    build(&staging)?;
    std::fs::write(staging.join(".done"), "").map_err(|e| setup(e.to_string()))?;
    if std::fs::rename(&staging, dir).is_err() {
        // Another process built it meanwhile.
        let _ = std::fs::remove_dir_all(&staging);
    }
    Ok(true)
}

/// Kernel compiles: line tables for the file:line of a violation.
// DWARF 4: binutils 2.40's addr2line names the wrong file for DWARF 5 line tables of inline
// functions in headers, and the report's file:line comes from addr2line.
const KERNEL_OPT: &[&str] = &["-O1", "-g1", "-gdwarf-4", "-w"];

/// The shared part: the runtime's sources, the model and the driver, compiled.
pub struct Prep {
    dir: PathBuf,
}

impl Prep {
    fn include(&self, rel: &str) -> String {
        format!("-I{}", arg(&self.dir.join(rel)))
    }
    /// A kernel unit on aclgen's Ascend C runtime.
    fn kernel_flags(&self) -> Vec<String> {
        vec![
            "-std=c++17".into(),
            self.include("runtime/include"),
            self.include("model/include"),
            self.include("model/src"),
        ]
    }
    /// A tiling unit on aclgen's host runtime.
    fn host_flags(&self) -> Vec<String> {
        vec![
            "-std=c++17".into(),
            self.include("runtime/include"),
            self.include("model/include"),
        ]
    }
}

/// Builds (once per version of the embedded sources) the runtime, model and driver.
fn prep(cache: &Path) -> Result<Prep, SimError> {
    let mut key = Key::new("runtime");
    for (rel, text) in RUNTIME_FILES {
        key.text(rel);
        key.text(text);
    }
    let dir = cache.join(format!("runtime-{}", key.hex()));
    cached_dir(&dir, |stage| {
        for (rel, text) in RUNTIME_FILES {
            let path = stage.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| setup(e.to_string()))?;
            }
            std::fs::write(&path, text).map_err(|e| setup(e.to_string()))?;
        }
        let staged = Prep {
            dir: stage.to_path_buf(),
        };
        let mut model = staged.kernel_flags();
        model.extend(OPT.iter().map(|s| s.to_string()));
        model.extend(["-Wall".into(), "-c".into(), "model/src/model.cpp".into()]);
        model.extend(["-o".into(), "model.o".into()]);
        let mut driver = staged.host_flags();
        driver.extend(OPT.iter().map(|s| s.to_string()));
        driver.extend(["-Wall".into(), "-c".into(), "driver/sim_main.cpp".into()]);
        driver.extend(["-o".into(), "driver.o".into()]);
        compile_all(
            vec![(model, stage.to_path_buf()), (driver, stage.to_path_buf())],
            "aclgen's AI Core model and sim driver (sim/)",
        )
    })?;
    Ok(Prep { dir })
}

/// Compiles the entry `stage` holds and links the simulation binary `stage/sim` from the
/// driver, the entry, `objects` (the kernel, and an op's tiling) and the model.
fn link_sim(prep: &Prep, stage: &Path, objects: &[&str], what: &str) -> Result<(), SimError> {
    let entry: Vec<String> = ["-c", "entry.cpp", "-o", "entry.o"]
        .map(String::from)
        .to_vec();
    run_cxx(&entry, stage, "the entry")?;
    let mut link: Vec<String> = vec![
        "-no-pie".into(),
        "-o".into(),
        "sim".into(),
        arg(&prep.dir.join("driver.o")),
        "entry.o".into(),
    ];
    link.extend(objects.iter().map(|o| o.to_string()));
    link.extend([
        arg(&prep.dir.join("model.o")),
        "-ldl".into(),
        "-lpthread".into(),
    ]);
    run_cxx(&link, stage, &format!("the simulation of {what}"))
}

/// The entry file: the op type the driver looks the tiling up by, and a launcher that passes
/// the tensors to the kernel in the spec's order.
pub fn entry_source(op: &OpIr) -> String {
    let symbol = crate::emit::ascend::kernel::kernel_entry_name(&op.op);
    let count = op.params.iter().filter(|p| p.role.is_tensor()).count();
    entry_text(&symbol, &op.op, count)
}

fn entry_text(symbol: &str, op_type: &str, tensors: usize) -> String {
    let mut args: Vec<String> = (0..tensors).map(|i| format!("t[{i}]")).collect();
    args.push("workspace".into());
    args.push("tiling".into());
    let params = vec!["uint8_t*"; tensors + 2].join(", ");
    let mut src = String::new();
    let _ = writeln!(src, "// Written by aclgen sim for {op_type}.");
    let _ = writeln!(src, "#include <cstdint>");
    let _ = writeln!(src, "extern \"C\" void {symbol}({params});");
    let _ = writeln!(
        src,
        "extern const char* const kAclgenOpType = \"{op_type}\";"
    );
    let _ = writeln!(
        src,
        "void AclgenLaunch(uint8_t** t, uint8_t* workspace, uint8_t* tiling) {{ {symbol}({}); }}",
        args.join(", ")
    );
    src
}

fn absolute(p: &Path) -> Result<String, SimError> {
    p.canonicalize()
        .map_err(|e| setup(format!("{}: {e}", p.display())))
        .map(|p| p.to_string_lossy().replace('\\', "/"))
}

/// The kernel's translation unit: what CANN's op compiler injects (the generated
/// `tests/ut/op_kernel/<snake>_tiling_def.h`), the generated kernel, and the driver's glue.
fn kernel_unit_source(op: &OpIr, sources: &OpSources) -> Result<String, SimError> {
    let mut src = String::new();
    let _ = writeln!(src, "// Written by aclgen sim for {}.", op.op);
    let _ = writeln!(src, "#include \"{}\"", absolute(&sources.tiling_def)?);
    let _ = writeln!(src, "#include \"{}\"", absolute(&sources.kernel_cpp)?);
    let _ = writeln!(src, "#define ACLGEN_KERNEL_TILING_TYPE {}TilingData", op.op);
    let _ = writeln!(src, "#include \"kernel_glue.inc\"");
    Ok(src)
}

/// The cache folder, created and made absolute.
fn cache_root(cache: &Path) -> Result<PathBuf, SimError> {
    std::fs::create_dir_all(cache).map_err(|e| setup(format!("{}: {e}", cache.display())))?;
    cache
        .canonicalize()
        .map_err(|e| setup(format!("{}: {e}", cache.display())))
}

/// Compiles the kernel unit `stage/kernel_unit.cpp` on aclgen's runtime.
fn compile_kernel(prep: &Prep, stage: &Path, extra: &[String], what: &str) -> Result<(), SimError> {
    let mut a = prep.kernel_flags();
    a.extend(extra.iter().cloned());
    a.extend(KERNEL_OPT.iter().map(|s| s.to_string()));
    a.push(format!("-fdebug-prefix-map={}=", arg(stage)));
    a.extend([
        "-c".into(),
        "kernel_unit.cpp".into(),
        "-o".into(),
        "kernel.o".into(),
    ]);
    run_cxx(&a, stage, what)
}

/// Returns the op's binary, compiling what is not cached for the current sources.
pub fn binary(op: &OpIr, opts: &SimOptions) -> Result<Built, SimError> {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let snake = snake_case(&op.op);
    let generated = opts
        .generated
        .canonicalize()
        .map_err(|e| setup(format!("{}: {e}", opts.generated.display())))?;
    let sources = op_sources(op, &generated);
    for f in [
        &sources.tiling_cpp,
        &sources.kernel_cpp,
        &sources.tiling_def,
    ] {
        if !f.is_file() {
            return Err(setup(format!(
                "{} is missing: run `aclgen gen` to generate the op's project",
                f.display()
            )));
        }
    }
    let cache = cache_root(&opts.cache)?;
    let prep = prep(&cache)?;
    let entry = entry_source(op);
    let unit = kernel_unit_source(op, &sources)?;
    let mut key = Key::new("op");
    key.text(&arg(&prep.dir));
    key.text(&entry);
    key.text(&unit);
    let generated_root = generated.join("ops");
    let tiling_def_dir = sources.tiling_def.parent().unwrap_or(Path::new("."));
    for dir in [&sources.op_host, &sources.op_kernel, tiling_def_dir] {
        // Every file, sorted, so the key covers headers a source includes.
        for f in crate::files::files_below(dir).unwrap_or_default() {
            key.file(&generated_root, &f)?;
        }
    }
    let dir = cache.join(format!("{snake}-{}", key.hex()));
    let built = cached_dir(&dir, |stage| {
        std::fs::write(stage.join("entry.cpp"), &entry).map_err(|e| setup(e.to_string()))?;
        std::fs::write(stage.join("kernel_unit.cpp"), &unit).map_err(|e| setup(e.to_string()))?;
        compile_kernel(&prep, stage, &[], &format!("the kernel of {}", op.op))?;
        let mut a = prep.host_flags();
        a.extend(["-O1".into(), "-g0".into(), "-w".into(), "-c".into()]);
        a.push(format!("-I{}", arg(&sources.op_host)));
        a.extend([arg(&sources.tiling_cpp), "-o".into(), "tiling.o".into()]);
        run_cxx(&a, stage, &format!("the tiling of {}", op.op))?;
        link_sim(&prep, stage, &["kernel.o", "tiling.o"], &op.op)
    })?;
    if let Some(kernel_api) = &opts.toolkit {
        toolkit_check(kernel_api, &dir.join("kernel_unit.cpp"), &prep)?;
    }
    Ok(Built {
        path: dir.join("sim"),
        cached: !built,
        model_dir: prep.dir,
    })
}

/// With a CANN toolkit: the same kernel unit compiled (syntax and types) against the toolkit's
/// own `kernel_operator.h` (`kernel_api`: its folder) in CPU-debug mode, so a kernel that runs
/// on aclgen's runtime also builds on CANN's. Not tested here: no toolkit on this machine.
pub fn toolkit_check(kernel_api: &Path, unit: &Path, prep: &Prep) -> Result<(), SimError> {
    let mut a: Vec<String> = vec![
        "-std=c++17".into(),
        "-fsyntax-only".into(),
        "-w".into(),
        "-DASCENDC_CPU_DEBUG=1".into(),
        "-D__NPU_ARCH__=2201".into(),
        format!("-I{}", arg(kernel_api)),
    ];
    for up in kernel_api.ancestors().skip(1).take(3) {
        a.push(format!("-I{}", arg(up)));
    }
    // kernel_glue.inc, which the unit includes last, is aclgen's.
    a.push(prep.include("model/src"));
    a.push(arg(unit));
    run_cxx(
        &a,
        unit.parent().unwrap_or(Path::new(".")),
        "the kernel against the toolkit's kernel_operator.h",
    )
}

/// A kernel that is not an aclgen op project (CANN's own examples, ops-nn's kernels): one
/// translation unit of `force_includes` then `source`, with extra include folders and defines.
#[derive(Debug, Clone)]
pub struct KernelSource {
    /// Names the cache entry.
    pub name: String,
    pub source: PathBuf,
    pub force_includes: Vec<PathBuf>,
    pub include_dirs: Vec<PathBuf>,
    pub defines: Vec<String>,
    /// The kernel's `extern "C"` entry.
    pub entry: String,
    /// The number of tensor arguments before workspace and tiling.
    pub tensors: usize,
    /// The tiling struct the kernel reads (its size is checked against the tiling data).
    pub tiling_type: String,
}

/// Builds (or reuses) the binary of a kernel-only run.
pub fn kernel_binary(k: &KernelSource, cache: &Path) -> Result<Built, SimError> {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache_root(cache)?;
    let prep = prep(&cache)?;
    let mut unit = format!("// Written by aclgen sim for the kernel {}.\n", k.name);
    for f in &k.force_includes {
        let _ = writeln!(unit, "#include \"{}\"", absolute(f)?);
    }
    let _ = writeln!(unit, "#include \"{}\"", absolute(&k.source)?);
    let _ = writeln!(unit, "#define ACLGEN_KERNEL_TILING_TYPE {}", k.tiling_type);
    let _ = writeln!(unit, "#include \"kernel_glue.inc\"");
    let entry = entry_text(&k.entry, &k.name, k.tensors);
    let mut key = Key::new("kernel");
    key.text(&arg(&prep.dir));
    key.text(&unit);
    key.text(&entry);
    key.text(&k.defines.join(" "));
    for d in &k.include_dirs {
        key.text(&arg(d));
    }
    key.file(Path::new("/"), &k.source)?;
    for f in &k.force_includes {
        key.file(Path::new("/"), f)?;
    }
    let safe: String = k
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let dir = cache.join(format!("kernel-{safe}-{}", key.hex()));
    let built = cached_dir(&dir, |stage| {
        std::fs::write(stage.join("entry.cpp"), &entry).map_err(|e| setup(e.to_string()))?;
        std::fs::write(stage.join("kernel_unit.cpp"), &unit).map_err(|e| setup(e.to_string()))?;
        let mut extra = Vec::new();
        for d in &k.include_dirs {
            extra.push(format!("-I{}", absolute(d)?));
        }
        extra.extend(k.defines.iter().map(|d| format!("-D{d}")));
        compile_kernel(&prep, stage, &extra, &format!("the kernel {}", k.name))?;
        link_sim(&prep, stage, &["kernel.o"], &k.name)
    })?;
    Ok(Built {
        path: dir.join("sim"),
        cached: !built,
        model_dir: prep.dir,
    })
}
