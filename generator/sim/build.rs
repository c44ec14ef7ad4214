//! Builds an op's simulation binary with the system g++, against CANN's real headers, cached under
//! a hash of its sources.
//!
//! The binary links four parts, each cached on its own:
//! - CANN's public CPU-debug runtime (`asc-tools/cpudebug`: the debug registers of stub_base, the
//!   API parameter checks of `api_check`, `half`), compiled from the CANN folder as it is;
//! - metadef's real tiling implementation, built from `metadef-src`'s own recipe (the sources and
//!   flags are read from its script, nothing is copied);
//! - aclgen's AI Core model (`sim/model/`, embedded in aclgen) and the driver (`sim/driver/`);
//! - the op: the GENERATED `op_kernel/<snake>.cpp` (after the tiling struct CANN's op compiler
//!   injects, `tests/ut/op_kernel/<snake>_tiling_def.h`) compiled in CPU-debug mode against
//!   asc-devkit with the model's `stub_fun.h` first on the include path, and the generated
//!   `op_host/<snake>_tiling.cpp` against metadef. Neither is changed.

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

/// The model and driver, embedded so `aclgen sim` works from any folder.
const MODEL_FILES: &[(&str, &str)] = &[
    (
        "model/include/stub_fun.h",
        include_str!("../../sim/model/include/stub_fun.h"),
    ),
    (
        "model/include/aclgen_model.h",
        include_str!("../../sim/model/include/aclgen_model.h"),
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
    /// Where the model's sources were written (frames there are not the kernel's).
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

/// What CANN's folder provides, checked up front so a wrong `--cann` gets one clear message.
pub struct Cann {
    pub root: PathBuf,
}

impl Cann {
    pub fn open(root: &Path) -> Result<Cann, SimError> {
        let root = root
            .canonicalize()
            .map_err(|e| setup(format!("CANN folder {}: {e}", root.display())))?;
        let needed = [
            "asc-devkit/include/kernel_operator.h",
            "asc-tools/cpudebug/include/stub_def.h",
            "asc-tools/cpudebug/src/regfwk/stub_base.cpp",
            "metadef-src/metadef-src",
            "metadef/inc/external/base/context_builder/op_tiling_context_builder.h",
            "shim/kernel/intrinsic_names.h",
        ];
        let missing: Vec<&str> = needed
            .iter()
            .copied()
            .filter(|p| !root.join(p).exists())
            .collect();
        if !missing.is_empty() {
            return Err(setup(format!(
                "{} is not a CANN folder sim can build against: it lacks {} (sim needs the public \
                 trees of asc-devkit, asc-tools/cpudebug, metadef and metadef-src, as in \
                 ../shared/cann; with a CANN toolkit, link its own CPU model instead, see \
                 kernels/README.md)",
                root.display(),
                missing.join(", ")
            )));
        }
        Ok(Cann { root })
    }
    fn p(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
    fn kernel_includes(&self) -> Vec<String> {
        [
            "generated",
            "asc-tools/cpudebug/include",
            "asc-devkit",
            "asc-devkit/include",
            "asc-devkit/include/basic_api",
        ]
        .iter()
        .map(|d| format!("-I{}", arg(&self.p(d))))
        .collect()
    }
}

const KERNEL_DEFINES: &[&str] = &["-std=c++17", "-DASCENDC_CPU_DEBUG=1", "-D__NPU_ARCH__=2201"];
/// Kernel compiles: line tables for the file:line of a violation.
const KERNEL_OPT: &[&str] = &["-O1", "-g1", "-w"];

/// The shared part: model sources, generated headers, CANN's CPU-debug runtime, metadef.
struct Prep {
    dir: PathBuf,
    /// metadef-src's flags for a tiling .cpp (its USER_INC).
    user_inc: Vec<String>,
}

impl Prep {
    fn model_include(&self) -> String {
        format!("-I{}", arg(&self.dir.join("model/include")))
    }
    fn fix_include(&self) -> String {
        format!("-I{}", arg(&self.dir.join("fix")))
    }
    fn kernel_flags(&self, cann: &Cann) -> Vec<String> {
        let mut f: Vec<String> = KERNEL_DEFINES.iter().map(|s| s.to_string()).collect();
        f.push(self.model_include());
        f.extend(cann.kernel_includes());
        f
    }
    fn host_flags(&self) -> Vec<String> {
        let mut f = vec!["-std=c++17".to_string(), self.fix_include()];
        f.extend(self.user_inc.iter().cloned());
        f.push(self.model_include());
        f
    }
}

/// metadef-src's recipe, read from its script: the sources, the library flags, a tiling .cpp's
/// flags and the generated platform-dir source.
struct Recipe {
    sources: Vec<String>,
    lib_flags: Vec<String>,
    user_inc: Vec<String>,
    platform_dir_src: String,
}

fn read_recipe(cann: &Cann) -> Result<Recipe, SimError> {
    let script = cann.p("metadef-src/metadef-src");
    let text =
        std::fs::read_to_string(&script).map_err(|e| format!("{}: {e}", script.display()))?;
    let start = text.find("# >>> recipe");
    let end = text.find("# <<< recipe");
    let (Some(start), Some(end)) = (start, end) else {
        return Err(setup(format!(
            "{}: no `# >>> recipe` block to read the build from",
            script.display()
        )));
    };
    let recipe = &text[start..end];
    let program = format!(
        "TOOL='{}'; CANN='{}'\n{recipe}\nsources; echo '@@'; echo \"$LIB_FLAGS\"; echo '@@'; echo \"$USER_INC\"; echo '@@'; platform_dir_src\n",
        arg(&cann.p("metadef-src")),
        arg(&cann.root)
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(&program)
        .output()
        .map_err(|e| setup(format!("cannot run bash for metadef-src's recipe: {e}")))?;
    if !out.status.success() {
        return Err(setup(format!(
            "reading metadef-src's recipe failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let parts: Vec<&str> = stdout.split("@@\n").collect();
    if parts.len() != 4 {
        return Err(setup("metadef-src's recipe printed an unexpected layout"));
    }
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
    Ok(Recipe {
        sources: parts[0].lines().map(str::to_string).collect(),
        lib_flags: words(parts[1]),
        user_inc: words(parts[2]),
        platform_dir_src: parts[3].to_string(),
    })
}

/// Names asc-devkit may call that the model does not implement: every name of the shim's list
/// that stub_fun.h does not mention. Each gets a body that stops the run naming it.
fn unmodelled_header(cann: &Cann) -> Result<String, SimError> {
    let list = cann.p("shim/kernel/intrinsic_names.h");
    let text = std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))?;
    let stub = MODEL_FILES[0].1;
    let declared = |name: &str| {
        stub.match_indices(name).any(|(i, _)| {
            let before = stub[..i].chars().next_back();
            let after = stub[i + name.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !word(before) && !word(after)
        })
    };
    let mut names: Vec<&str> = Vec::new();
    for line in text.lines() {
        for tag in ["SHIM_INTRI(", "SHIM_NOOP("] {
            if let Some(rest) = line.trim().strip_prefix(tag) {
                if let Some(name) = rest.strip_suffix(')') {
                    names.push(name);
                }
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    let mut out = String::from(
        "// Written by aclgen sim: the intrinsics asc-devkit declares that the model does not implement.\n",
    );
    for name in names.iter().filter(|n| !declared(n)) {
        let _ = writeln!(out, "ACLGEN_UNMODELLED({name})");
    }
    Ok(out)
}

/// A `fix/` folder of links: CANN's `dlog_pub.h` next to a `log_types.h` that is the real file
/// where a checkout stored the symlink `runtime/pkg_inc/base/log_types.h` as a text file.
fn write_fix_dir(cann: &Cann, dir: &Path) -> Result<(), SimError> {
    let fix = dir.join("fix");
    std::fs::create_dir_all(&fix).map_err(|e| setup(e.to_string()))?;
    let base = cann.p("runtime/pkg_inc/base");
    let log_types = base.join("log_types.h");
    let real = match std::fs::read_to_string(&log_types) {
        Ok(t) if t.trim_start().starts_with("../") => {
            let target = base.join(t.trim());
            if target.is_file() {
                target
            } else {
                cann.p("metadef-src/src/runtime/include/dfx/base/log_types.h")
            }
        }
        _ => log_types,
    };
    for (name, target) in [
        ("dlog_pub.h", base.join("dlog_pub.h")),
        ("log_types.h", real),
    ] {
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, fix.join(name))
            .map_err(|e| setup(format!("{}: {e}", fix.join(name).display())))?;
    }
    Ok(())
}

/// Builds (once per CANN folder and model) the shared part.
fn prep(cann: &Cann, cache: &Path) -> Result<Prep, SimError> {
    let recipe = read_recipe(cann)?;
    let cpudebug = cann.p("asc-tools/cpudebug");
    let mut cpu_sources: Vec<PathBuf> = Vec::new();
    for sub in ["src/regfwk", "src/api_check"] {
        let mut found: Vec<PathBuf> = crate::files::files_below(&cpudebug.join(sub))
            .unwrap_or_default()
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "cpp"))
            .collect();
        found.sort();
        cpu_sources.extend(found);
    }
    cpu_sources.push(cpudebug.join("src/acl_stub/kernel_fp16.cpp"));

    let mut key = Key::new("prep");
    key.text(&arg(&cann.root));
    for (name, text) in MODEL_FILES {
        key.text(name);
        key.text(text);
    }
    for f in &cpu_sources {
        key.file(&cann.root, f)?;
    }
    for s in &recipe.sources {
        key.file(&cann.root, Path::new(s))?;
    }
    key.text(&recipe.lib_flags.join(" "));
    let dir = cache.join(format!("cann-{}", key.hex()));
    cached_dir(&dir, |stage| {
        for (name, text) in MODEL_FILES {
            let path = stage.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| setup(e.to_string()))?;
            }
            std::fs::write(&path, text).map_err(|e| setup(format!("{}: {e}", path.display())))?;
        }
        std::fs::write(
            stage.join("model/include/aclgen_unmodelled.h"),
            unmodelled_header(cann)?,
        )
        .map_err(|e| setup(e.to_string()))?;
        write_fix_dir(cann, stage)?;
        let staged = Prep {
            dir: stage.to_path_buf(),
            user_inc: recipe.user_inc.clone(),
        };
        build_cpudebug(cann, stage, &staged, &cpu_sources)?;
        build_metadef(stage, &staged, &recipe)?;
        build_model(cann, stage, &staged)?;
        Ok(())
    })?;
    Ok(Prep {
        dir,
        user_inc: recipe.user_inc,
    })
}

/// CANN's CPU-debug runtime (asc-tools/cpudebug), as its CMakeLists builds it for ascend910B1.
fn build_cpudebug(
    cann: &Cann,
    stage: &Path,
    staged: &Prep,
    cpu_sources: &[PathBuf],
) -> Result<(), SimError> {
    // CANN's CPU-debug runtime, as its CMakeLists builds it for ascend910B1.
    let obj = stage.join("cpudebug");
    std::fs::create_dir_all(&obj).map_err(|e| setup(e.to_string()))?;
    let mut flags: Vec<String> = [
        "-D__CCE_KT_TEST__=1",
        "-DASCENDC_DEBUG=1",
        "-D__CCE_AICORE__=220",
        "-D__DAV_C220__",
        "-DNO_COSIM",
        "-w",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    flags.extend(OPT.iter().map(|s| s.to_string()));
    flags.push(staged.fix_include());
    flags.push(format!("-I{}", arg(&cann.p("runtime/pkg_inc/base"))));
    flags.extend(staged.kernel_flags(cann));
    for d in [
        "shim/host",
        "asc-tools/cpudebug/utils",
        "asc-tools/cpudebug/utils/include",
        "asc-tools/cpudebug/utils/include/utils",
        "asc-tools/cpudebug/src/api_check",
        "asc-tools/cpudebug/src/api_check/inc",
    ] {
        flags.push(format!("-I{}", arg(&cann.p(d))));
    }
    let jobs = cpu_sources
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut a = flags.clone();
            a.extend(["-c".into(), arg(f), "-o".into(), format!("{i:03}.o")]);
            (a, obj.clone())
        })
        .collect();
    compile_all(jobs, "CANN's CPU-debug runtime (asc-tools/cpudebug)")?;
    archive(&obj, &stage.join("libcann_cpudebug.a"))?;
    Ok(())
}

/// metadef's tiling implementation, by metadef-src's recipe.
fn build_metadef(stage: &Path, staged: &Prep, recipe: &Recipe) -> Result<(), SimError> {
    // metadef's tiling implementation, by metadef-src's recipe.
    let md = stage.join("metadef");
    std::fs::create_dir_all(&md).map_err(|e| setup(e.to_string()))?;
    let platform_src = md.join("platform_dir.cpp");
    std::fs::write(&platform_src, &recipe.platform_dir_src).map_err(|e| setup(e.to_string()))?;
    let mut sources: Vec<PathBuf> = recipe.sources.iter().map(PathBuf::from).collect();
    sources.push(platform_src);
    let jobs = sources
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut a = vec![staged.fix_include()];
            if f.extension().is_some_and(|e| e == "c") {
                a.extend([
                    "-x".into(),
                    "c".into(),
                    "-O1".into(),
                    "-fPIC".into(),
                    "-w".into(),
                ]);
                a.extend(
                    recipe
                        .lib_flags
                        .iter()
                        .filter(|f| f.starts_with("-I") || f.starts_with("-D"))
                        .cloned(),
                );
            } else {
                a.extend(recipe.lib_flags.iter().cloned());
                a.push("-g0".into());
            }
            a.extend(["-c".into(), arg(f), "-o".into(), format!("{i:03}.o")]);
            (a, md.clone())
        })
        .collect();
    compile_all(jobs, "metadef's tiling implementation (metadef-src)")?;
    archive(&md, &stage.join("libmetadef_tiling.a"))?;
    Ok(())
}

/// CANN's kernel_operator.h precompiled with the flags of every kernel compile, the model and
/// the driver.
fn build_model(cann: &Cann, stage: &Path, staged: &Prep) -> Result<(), SimError> {
    // CANN's kernel_operator.h, precompiled with the flags of every kernel compile.
    let pch = stage.join("pch");
    std::fs::create_dir_all(&pch).map_err(|e| setup(e.to_string()))?;
    std::fs::write(pch.join("aclgen_pch.h"), "#include \"kernel_operator.h\"\n")
        .map_err(|e| setup(e.to_string()))?;
    let mut a = staged.kernel_flags(cann);
    a.extend(KERNEL_OPT.iter().map(|s| s.to_string()));
    a.extend(["-x".into(), "c++-header".into(), "pch/aclgen_pch.h".into()]);
    a.extend(["-o".into(), "pch/aclgen_pch.h.gch".into()]);
    run_cxx(&a, stage, "CANN's kernel_operator.h (precompiled)")?;

    // The model and the driver.
    let mut a = staged.kernel_flags(cann);
    a.extend(OPT.iter().map(|s| s.to_string()));
    a.extend(["-Wall".into(), "-c".into(), "model/src/model.cpp".into()]);
    a.extend(["-o".into(), "model.o".into()]);
    run_cxx(&a, stage, "aclgen's AI Core model (sim/model)")?;
    let mut a = staged.host_flags();
    a.extend(["-O1".into(), "-g0".into(), "-w".into(), "-c".into()]);
    a.extend(["driver/sim_main.cpp".into(), "-o".into(), "driver.o".into()]);
    run_cxx(&a, stage, "the sim driver (sim/driver)")?;
    Ok(())
}

/// Compiles the entry `stage` holds and links the simulation binary `stage/sim` from the
/// driver, the entry, `objects` (the kernel, and an op's tiling), the model and CANN's libraries.
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
        arg(&prep.dir.join("libcann_cpudebug.a")),
        arg(&prep.dir.join("libmetadef_tiling.a")),
        "-ldl".into(),
        "-lpthread".into(),
    ]);
    run_cxx(&link, stage, &format!("the simulation of {what}"))
}

fn archive(objects: &Path, lib: &Path) -> Result<(), SimError> {
    let mut objs: Vec<PathBuf> = std::fs::read_dir(objects)
        .map_err(|e| setup(e.to_string()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "o"))
        .collect();
    objs.sort();
    let out = Command::new("ar")
        .arg("rcs")
        .arg(lib)
        .args(&objs)
        .output()
        .map_err(|e| setup(format!("cannot run ar: {e}")))?;
    if !out.status.success() {
        return Err(setup(format!(
            "ar failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(())
}

/// The entry file: the op type the driver looks the tiling up by, and a launcher that passes
/// the tensors to the kernel in the spec's order.
pub fn entry_source(op: &OpIr) -> String {
    let symbol = crate::emit::ascend::kernel::kernel_entry_name(&op.op);
    let count = op.params.iter().filter(|p| p.role.is_tensor()).count();
    let mut args: Vec<String> = (0..count).map(|i| format!("t[{i}]")).collect();
    args.push("workspace".into());
    args.push("tiling".into());
    let params = vec!["uint8_t*"; count + 2].join(", ");
    let mut src = String::new();
    let _ = writeln!(src, "// Written by aclgen sim for {}.", op.op);
    let _ = writeln!(src, "#include <cstdint>");
    let _ = writeln!(src, "extern \"C\" void {symbol}({params});");
    let _ = writeln!(
        src,
        "extern const char* const kAclgenOpType = \"{}\";",
        op.op
    );
    let _ = writeln!(
        src,
        "void AclgenLaunch(uint8_t** t, uint8_t* workspace, uint8_t* tiling) {{ {symbol}({}); }}",
        args.join(", ")
    );
    src
}

/// The kernel's translation unit: what CANN's op compiler injects (the generated
/// `tests/ut/op_kernel/<snake>_tiling_def.h`), the generated kernel, and the driver's glue.
fn kernel_unit_source(op: &OpIr, sources: &OpSources) -> Result<String, SimError> {
    let abs = |p: &Path| {
        p.canonicalize()
            .map_err(|e| format!("{}: {e}", p.display()))
            .map(|p| p.to_string_lossy().replace('\\', "/"))
    };
    let mut src = String::new();
    let _ = writeln!(src, "// Written by aclgen sim for {}.", op.op);
    let _ = writeln!(src, "#include \"{}\"", abs(&sources.tiling_def)?);
    let _ = writeln!(src, "#include \"{}\"", abs(&sources.kernel_cpp)?);
    let _ = writeln!(src, "#define ACLGEN_KERNEL_TILING_TYPE {}TilingData", op.op);
    let _ = writeln!(src, "#include \"kernel_glue.inc\"");
    Ok(src)
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
    let cann = Cann::open(&opts.cann)?;
    std::fs::create_dir_all(&opts.cache)
        .map_err(|e| setup(format!("{}: {e}", opts.cache.display())))?;
    let cache = opts
        .cache
        .canonicalize()
        .map_err(|e| setup(format!("{}: {e}", opts.cache.display())))?;
    let prep = prep(&cann, &cache)?;

    let mut files = Vec::new();
    let generated_root = generated.join("ops");
    let tiling_def_dir = sources
        .tiling_def
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    for dir in [&sources.op_host, &sources.op_kernel, &tiling_def_dir] {
        // Every file, sorted, so the key covers headers a source includes.
        let found = crate::files::files_below(dir).unwrap_or_default();
        files.extend(found.into_iter().map(|f| (generated_root.clone(), f)));
    }
    let entry = entry_source(op);
    let unit = kernel_unit_source(op, &sources)?;
    let mut key = Key::new("op");
    key.text(&arg(&prep.dir));
    key.text(&entry);
    key.text(&unit);
    for (root, f) in &files {
        key.file(root, f)?;
    }
    let dir = cache.join(format!("{snake}-{}", key.hex()));
    let exe = dir.join("sim");
    let built = cached_dir(&dir, |stage| {
        std::fs::write(stage.join("entry.cpp"), &entry).map_err(|e| setup(e.to_string()))?;
        std::fs::write(stage.join("kernel_unit.cpp"), &unit).map_err(|e| setup(e.to_string()))?;
        // The kernel, unchanged, in CPU-debug mode; line tables for file:line of violations.
        let mut a = prep.kernel_flags(&cann);
        a.push(format!("-I{}", arg(&prep.dir.join("model/src"))));
        a.extend(KERNEL_OPT.iter().map(|s| s.to_string()));
        a.push("-include".into());
        a.push(arg(&prep.dir.join("pch/aclgen_pch.h")));
        a.push("-c".into());
        a.push(format!("-fdebug-prefix-map={}=", arg(stage)));
        a.extend(["kernel_unit.cpp".into(), "-o".into(), "kernel.o".into()]);
        run_cxx(&a, stage, &format!("the kernel of {}", op.op))?;
        let mut a = prep.host_flags();
        a.extend(["-O1".into(), "-g0".into(), "-w".into(), "-c".into()]);
        a.push(format!("-I{}", arg(&sources.op_host)));
        a.extend([arg(&sources.tiling_cpp), "-o".into(), "tiling.o".into()]);
        run_cxx(&a, stage, &format!("the tiling of {}", op.op))?;
        link_sim(&prep, stage, &["kernel.o", "tiling.o"], &op.op)
    })?;
    Ok(Built {
        path: exe,
        cached: !built,
        model_dir: prep.dir,
    })
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
pub fn kernel_binary(k: &KernelSource, cann: &Path, cache: &Path) -> Result<Built, SimError> {
    let _guard = BUILD_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let cann = Cann::open(cann)?;
    std::fs::create_dir_all(cache).map_err(|e| setup(format!("{}: {e}", cache.display())))?;
    let cache = cache
        .canonicalize()
        .map_err(|e| setup(format!("{}: {e}", cache.display())))?;
    let prep = prep(&cann, &cache)?;
    let abs = |p: &Path| {
        p.canonicalize()
            .map_err(|e| setup(format!("{}: {e}", p.display())))
            .map(|p| p.to_string_lossy().into_owned())
    };
    let mut unit = format!("// Written by aclgen sim for the kernel {}.\n", k.name);
    for f in &k.force_includes {
        let _ = writeln!(unit, "#include \"{}\"", abs(f)?);
    }
    let _ = writeln!(unit, "#include \"{}\"", abs(&k.source)?);
    let _ = writeln!(unit, "#define ACLGEN_KERNEL_TILING_TYPE {}", k.tiling_type);
    let _ = writeln!(unit, "#include \"kernel_glue.inc\"");
    let mut args: Vec<String> = (0..k.tensors).map(|i| format!("t[{i}]")).collect();
    args.push("workspace".into());
    args.push("tiling".into());
    let params = vec!["uint8_t*"; k.tensors + 2].join(", ");
    let entry = format!(
        "#include <cstdint>\nextern \"C\" void {e}({params});\nextern const char* const kAclgenOpType = \"{n}\";\nvoid AclgenLaunch(uint8_t** t, uint8_t* workspace, uint8_t* tiling) {{ {e}({a}); }}\n",
        e = k.entry,
        n = k.name,
        a = args.join(", ")
    );
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
        let mut a = prep.kernel_flags(&cann);
        a.push(format!("-I{}", arg(&prep.dir.join("model/src"))));
        for d in &k.include_dirs {
            a.push(format!("-I{}", abs(d)?));
        }
        a.extend(k.defines.iter().map(|d| format!("-D{d}")));
        a.extend(KERNEL_OPT.iter().map(|s| s.to_string()));
        a.push(format!("-fdebug-prefix-map={}=", arg(stage)));
        a.extend([
            "-c".into(),
            "kernel_unit.cpp".into(),
            "-o".into(),
            "kernel.o".into(),
        ]);
        run_cxx(&a, stage, &format!("the kernel {}", k.name))?;
        link_sim(&prep, stage, &["kernel.o"], &k.name)
    })?;
    Ok(Built {
        path: dir.join("sim"),
        cached: !built,
        model_dir: prep.dir,
    })
}
