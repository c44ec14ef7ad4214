//! g++ on the project's own C++ with no CANN at all: against aclgen's stand-ins for the opbase,
//! aclnn and op_host headers (`tests/standins/include`, with the definitions in
//! `tests/standins/src`), or, where a CANN toolkit is installed, against its real headers
//! (`Headers::Toolkit`).
//!
//! Objects are cached in the target folder by a hash of everything that makes them (source,
//! flags, every stand-in header and `aclgen_check.h`), so a second `cargo test` compiles nothing
//! that did not change; the stand-ins' own definitions are built once per test binary.

use super::{repo, text};

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The flags every compile uses: the dialect CANN's op_api builds with, warnings as errors.
pub const FLAGS: [&str; 4] = ["-std=c++17", "-Wall", "-Werror", "-fno-diagnostics-color"];

/// The stand-in tree: one include folder for every kind of generated file.
pub fn standins() -> PathBuf {
    repo().join("tests/standins/include")
}

/// Where `aclgen_check.h` lives in the source tree (the generated copy is the same text).
pub fn check_header_dir() -> PathBuf {
    repo().join("generator/emit/cpp")
}

/// Whether g++ is here with Debian's gtest and nlohmann-json (`.ci/run` installs them); prints
/// once why not.
pub fn available() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        let probe =
            "#include <gtest/gtest.h>\n#include <nlohmann/json.hpp>\nint main() { return 0; }\n";
        let ok = Command::new("g++")
            .args(["-fsyntax-only", "-x", "c++", "-std=c++17", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child
                    .stdin
                    .take()
                    .expect("stdin")
                    .write_all(probe.as_bytes())?;
                child.wait()
            })
            .is_ok_and(|s| s.success());
        if !ok {
            println!(
                "skipped: the C++ checks need g++, libgtest-dev and nlohmann-json3-dev \
                 (apt-get install g++ libgtest-dev nlohmann-json3-dev)"
            );
        }
        ok
    })
}

/// A hash of every file below `dir` (names and contents), in a stable order.
fn tree_hash(dir: &Path, h: &mut DefaultHasher) {
    let mut files = super::files_with_ext(dir, "h");
    files.extend(super::files_with_ext(dir, "cpp"));
    files.sort();
    for f in files {
        f.strip_prefix(dir).unwrap_or(&f).hash(h);
        std::fs::read(&f).unwrap_or_default().hash(h);
    }
}

/// The hash of the headers every compile may read: the stand-ins and `aclgen_check.h`.
fn headers_hash() -> u64 {
    static HASH: OnceLock<u64> = OnceLock::new();
    *HASH.get_or_init(|| {
        let mut h = DefaultHasher::new();
        tree_hash(&standins(), &mut h);
        std::fs::read(check_header_dir().join("aclgen_check.h"))
            .unwrap_or_default()
            .hash(&mut h);
        h.finish()
    })
}

/// The object cache.
fn cache_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("aclgen-cxx");
    std::fs::create_dir_all(&dir).expect("cache dir");
    dir
}

/// One g++ run's outcome: ok, or its first error lines.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub ok: bool,
    pub error: String,
}

/// `g++ -c src` (or `-fsyntax-only` when `out` is None) with the stand-ins and `includes`, in
/// `cwd`. A cached object is reused; a syntax check that passed once with the same inputs is
/// not run again.
pub fn compile(
    cwd: &Path,
    src: &Path,
    includes: &[PathBuf],
    extra: &[String],
    out: Option<&Path>,
) -> Compiled {
    let mut h = DefaultHasher::new();
    headers_hash().hash(&mut h);
    // By content, not place: a corpus op generated anew into a temp dir reuses its objects.
    src.file_name().hash(&mut h);
    std::fs::read(cwd.join(src))
        .unwrap_or_default()
        .hash(&mut h);
    // What the source may include besides the stand-ins: its op's folder and the shared
    // `common/op_api` beside the ops (generated files include both relatively).
    tree_hash(cwd, &mut h);
    tree_hash(&cwd.join("../../common"), &mut h);
    includes.hash(&mut h);
    extra.hash(&mut h);
    out.is_some().hash(&mut h);
    let key = cache_dir().join(format!("{:016x}", h.finish()));
    let cached = key.with_extension("o");
    if key.with_extension("ok").is_file() {
        if let Some(out) = out {
            std::fs::copy(&cached, out).expect("copy a cached object");
        }
        return Compiled {
            ok: true,
            error: String::new(),
        };
    }
    let mut cmd = Command::new("g++");
    cmd.current_dir(cwd).args(FLAGS).args(extra);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    match out {
        Some(_) => cmd.arg("-c").arg("-o").arg(&cached),
        None => cmd.arg("-fsyntax-only"),
    };
    let o = cmd.arg(src).output().expect("g++ runs");
    let stderr = text(&o.stderr);
    if !o.status.success() {
        let error: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("error"))
            .take(3)
            .collect();
        return Compiled {
            ok: false,
            error: error.join("\n"),
        };
    }
    std::fs::write(key.with_extension("ok"), "").expect("mark the cache");
    if let Some(out) = out {
        std::fs::copy(&cached, out).expect("copy the object");
    }
    Compiled {
        ok: true,
        error: String::new(),
    }
}

/// The objects of `tests/standins/src/*.cpp`: the stand-ins' definitions, built once.
pub fn standin_objects() -> &'static [PathBuf] {
    static OBJS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    OBJS.get_or_init(|| {
        let src = repo().join("tests/standins/src");
        let mut objs = Vec::new();
        for file in super::files_with_ext(&src, "cpp") {
            let name = file
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            let obj = cache_dir().join(format!("standin_{name}.{}.o", std::process::id()));
            let c = compile(&src, &file, &[standins()], &[], Some(&obj));
            assert!(
                c.ok,
                "a stand-in does not compile: {}:\n{}",
                file.display(),
                c.error
            );
            objs.push(obj);
        }
        objs
    })
}

/// Links `objs` with the stand-ins, gtest (with its main) and pthread into `exe`.
pub fn link_gtest(objs: &[PathBuf], exe: &Path) -> Compiled {
    let o = Command::new("g++")
        .args(objs)
        .args(standin_objects())
        .args(["-lgtest", "-lgtest_main", "-pthread", "-o"])
        .arg(exe)
        .output()
        .expect("g++ links");
    Compiled {
        ok: o.status.success(),
        error: text(&o.stderr)
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Which headers a check compiles against.
#[derive(Debug, Clone)]
pub enum Headers {
    /// aclgen's stand-ins (every machine).
    StandIns,
    /// An installed CANN toolkit's include folders (opbase/aclnn, host registration).
    Toolkit(Vec<PathBuf>),
}

impl Headers {
    /// The include folders, in the order g++ searches them.
    pub fn includes(&self) -> Vec<PathBuf> {
        match self {
            Headers::StandIns => vec![standins()],
            Headers::Toolkit(dirs) => dirs.clone(),
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            Headers::StandIns => "the project's stand-ins",
            Headers::Toolkit(_) => "the CANN toolkit's headers",
        }
    }
}

/// The installed toolkit's include folders for op_api and op_host code; `None`, printed once,
/// where no toolkit is installed (`$ASCEND_HOME_PATH`).
pub fn toolkit_headers() -> Option<Headers> {
    static FOUND: OnceLock<Option<Headers>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            use aclgen::toolkit::{Component, Toolkit};
            let found = Toolkit::find(None).and_then(|t| {
                let api = t.component(Component::OpApi)?;
                let host = t.component(Component::Host)?;
                Ok(vec![t.include_dir(), api, host])
            });
            match found {
                Ok(dirs) => Some(Headers::Toolkit(dirs)),
                Err(e) => {
                    println!("skipped: the toolkit run of the C++ checks ({e})");
                    None
                }
            }
        })
        .clone()
}

/// `text` (a list of includes) precompiled with the stand-ins and [`FLAGS`], for
/// `-include <returned path>`; made once per content in the cache (aside, then renamed, so a
/// concurrent test binary never reads half of one). `None` where g++ cannot precompile it.
pub fn precompile(label: &str, text: &str) -> Option<PathBuf> {
    // Tests of one binary share the pid: one precompiles at a time, the others then find it.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut h = DefaultHasher::new();
    headers_hash().hash(&mut h);
    label.hash(&mut h);
    text.hash(&mut h);
    // Absolute includes (the committed aclgen_check.h) are part of what the header holds.
    for line in text.lines() {
        if let Some(path) = line
            .strip_prefix("#include \"/")
            .and_then(|l| l.strip_suffix('"'))
        {
            std::fs::read(format!("/{path}"))
                .unwrap_or_default()
                .hash(&mut h);
        }
    }
    let dir = cache_dir().join(format!("pch-{:016x}", h.finish()));
    let header = dir.join(format!("pch_{label}.h"));
    let gch = dir.join(format!("pch_{label}.h.gch"));
    if gch.is_file() {
        return Some(header);
    }
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(&header, text).ok()?;
    let staging = dir.join(format!("pch_{label}.{}.gch", std::process::id()));
    let ok = Command::new("g++")
        .args(FLAGS)
        .arg("-I")
        .arg(standins())
        .args(["-x", "c++-header"])
        .arg(&header)
        .arg("-o")
        .arg(&staging)
        .output()
        .is_ok_and(|o| o.status.success());
    (ok && std::fs::rename(&staging, &gch).is_ok()).then_some(header)
}

/// What every file of a kind includes, precompiled (stand-ins only); a kind without one compiles
/// without. The op_api set takes `aclgen_check.h` from the committed `generated/common`, the same
/// text in every tree gen writes (`gen --check`).
pub fn precompiled() -> &'static BTreeMap<&'static str, PathBuf> {
    static PCH: OnceLock<BTreeMap<&'static str, PathBuf>> = OnceLock::new();
    PCH.get_or_init(precompile_all)
}

fn precompile_all() -> BTreeMap<&'static str, PathBuf> {
    let common_api = repo().join("generated/common/op_api");
    let sets: [(&str, Vec<String>); 3] = [
        (
            "op_api",
            [
                "aclnn/aclnn_base.h",
                "aclnn_kernels/common/op_error_check.h",
                "aclnn_kernels/contiguous.h",
                "opdev/make_op_executor.h",
                "opdev/op_def.h",
                "opdev/op_dfx.h",
                "opdev/op_executor.h",
                "opdev/op_log.h",
                "opdev/shape_utils.h",
            ]
            .iter()
            .map(|h| h.to_string())
            .chain([
                common_api.join("aclgen_vocab.h").display().to_string(),
                common_api.join("aclgen_check.h").display().to_string(),
            ])
            .collect(),
        ),
        (
            "op_api_ut",
            [
                "gtest/gtest.h",
                "op_api_ut_common/op_api_ut.h",
                "opdev/platform.h",
            ]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        ),
        (
            "host",
            [
                "register/op_def_registry.h",
                "register/op_impl_registry.h",
                "register/tilingdata_base.h",
                "tiling/platform/platform_ascendc.h",
                "log/log.h",
            ]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        ),
    ];
    let mut out = BTreeMap::new();
    for (label, headers) in sets {
        let text: String = headers
            .iter()
            .map(|h| format!("#include \"{h}\"\n"))
            .collect();
        if let Some(pch) = precompile(label, &text) {
            out.insert(label, pch);
        } else {
            println!("no precompiled header for {label}: its files compile without one");
        }
    }
    out
}
