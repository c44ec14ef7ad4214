//! Builds an op's simulation binary with the system g++, cached under a hash of its sources.

use super::SimError;
use super::SimOptions;
use crate::ir::{snake_case, OpIr};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The compiler and flags; part of the cache key.
const CXX: &str = "g++";
const CXX_FLAGS: &[&str] = &["-std=c++17", "-O1", "-g0", "-Wall", "-Wno-unused"];

#[derive(Debug, Clone)]
pub struct Built {
    pub path: PathBuf,
    /// The binary was already there for these sources.
    pub cached: bool,
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

/// The kernel's translation unit: first what CANN's op compiler injects (the generated
/// `tests/ut/op_kernel/<snake>_tiling_def.h`), then the generated kernel; the emulation's
/// `GET_TILING_DATA` reads the tiling through ACLGEN_KERNEL_TILING_TYPE and checks its size.
fn kernel_unit_source(op: &OpIr, sources: &OpSources) -> Result<String, SimError> {
    let abs = |p: &Path| {
        p.canonicalize()
            .map_err(|e| format!("{}: {e}", p.display()))
            .map(|p| p.to_string_lossy().replace('\\', "/"))
    };
    let mut src = String::new();
    let _ = writeln!(src, "// Written by aclgen sim for {}.", op.op);
    let _ = writeln!(src, "#include \"{}\"", abs(&sources.tiling_def)?);
    let _ = writeln!(src, "#define ACLGEN_KERNEL_TILING_TYPE {}TilingData", op.op);
    let _ = writeln!(src, "#include \"{}\"", abs(&sources.kernel_cpp)?);
    Ok(src)
}

/// FNV-1a, stable across runs and machines (the cache key must not depend on std's hasher).
fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

/// Hashes each file's path relative to the folder it was found in (so renders of one project
/// into different folders share a binary) and its contents.
fn source_key(files: &[(PathBuf, PathBuf)], entry: &str) -> Result<u64, SimError> {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    fnv1a(&mut hash, CXX.as_bytes());
    for f in CXX_FLAGS {
        fnv1a(&mut hash, f.as_bytes());
    }
    fnv1a(&mut hash, entry.as_bytes());
    for (root, f) in files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let rel = f.strip_prefix(root).unwrap_or(f);
        fnv1a(&mut hash, rel.to_string_lossy().as_bytes());
        fnv1a(&mut hash, &(bytes.len() as u64).to_le_bytes());
        fnv1a(&mut hash, &bytes);
    }
    Ok(hash)
}

/// Returns the op's binary, compiling it when no binary exists for the current sources.
pub fn binary(op: &OpIr, opts: &SimOptions) -> Result<Built, SimError> {
    let snake = snake_case(&op.op);
    let sources = op_sources(op, &opts.generated);
    for f in [
        &sources.tiling_cpp,
        &sources.kernel_cpp,
        &sources.tiling_def,
    ] {
        if !f.is_file() {
            return Err(SimError::Setup(format!(
                "{} is missing: run `aclgen gen` to generate the op's project",
                f.display()
            )));
        }
    }
    let host = opts.host.clone();
    let driver = host.join("sim_main.cpp");
    if !driver.is_file() {
        return Err(SimError::Setup(format!("{} is missing", driver.display())));
    }
    let mut files = Vec::new();
    let generated_root = opts.generated.join("ops");
    // All of kernels/: bodies may share code (kernels/common/).
    let mut roots = vec![
        (generated_root.clone(), sources.op_host.clone()),
        (generated_root.clone(), sources.op_kernel.clone()),
        (
            generated_root,
            sources
                .tiling_def
                .parent()
                .unwrap_or(Path::new("."))
                .to_path_buf(),
        ),
        (opts.kernels.clone(), opts.kernels.clone()),
    ];
    if !host.starts_with(&opts.kernels) {
        roots.push((host.clone(), host.clone()));
    }
    for (root, dir) in roots {
        // Every file, sorted, so the key covers headers a source includes.
        let found = crate::files::files_below(&dir).unwrap_or_default();
        files.extend(found.into_iter().map(|f| (root.clone(), f)));
    }
    let entry = entry_source(op);
    let unit = kernel_unit_source(op, &sources)?;
    let key = source_key(&files, &format!("{entry}{unit}"))?;
    let dir = opts.cache.join(format!("{snake}-{key:016x}"));
    let exe = dir.join("sim");
    if exe.is_file() {
        return Ok(Built {
            path: exe,
            cached: true,
        });
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let entry_path = dir.join("entry.cpp");
    std::fs::write(&entry_path, &entry).map_err(|e| format!("{}: {e}", entry_path.display()))?;
    let unit_path = dir.join("kernel_unit.cpp");
    std::fs::write(&unit_path, &unit).map_err(|e| format!("{}: {e}", unit_path.display()))?;
    // Unique temp name, then rename: parallel builds of one key never see a half-written file.
    let tmp = dir.join(format!(
        "sim.tmp.{}.{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let mut cmd = Command::new(CXX);
    cmd.args(CXX_FLAGS)
        .arg(format!("-I{}", host.display()))
        .arg(format!("-I{}", sources.op_host.display()))
        .arg(&driver)
        .arg(&entry_path)
        .arg(&sources.tiling_cpp)
        .arg(&unit_path)
        .arg("-o")
        .arg(&tmp);
    let out = cmd.output().map_err(|e| format!("cannot run {CXX}: {e}"))?;
    if !out.status.success() {
        return Err(SimError::Setup(format!(
            "compiling the simulation of {} failed:\n{}",
            op.op,
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    std::fs::rename(&tmp, &exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    Ok(Built {
        path: exe,
        cached: false,
    })
}
