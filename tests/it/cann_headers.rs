//! Generated op projects type-check against CANN's real headers (`../shared/cann`, skipped with a
//! message when absent): every C++ file of each op, from the op's own folder, with
//! `../shared/cann/cxx-check KIND FILE -- FLAGS`, the include set CANN's build uses:
//!
//! | file | kind | extra flags |
//! | --- | --- | --- |
//! | `op_host/<op>_def.cpp`, `op_host/<op>_tiling.cpp` | host | |
//! | `op_kernel/<op>.cpp` | kernel | `-include tests/ut/op_kernel/<op>_tiling_def.h` (what the op compiler injects) |
//! | `tests/ut/op_api/test_aclnn_<op>.cpp` | opapi | ops-nn's UT framework: `-I.../stub -I.../op_api_ut_common/inc`, gtest |
//! | `examples/test_aclnn_<op>.cpp`, `op_api/*.cpp` | opapi | |
//!
//! Two sets: the seed ops (`gen` of `specs/`), every file of which must compile, and a sample of
//! about 60 corpus docs (every ninth of `../shared/corpus/ops-nn/docs`, sorted), of whose files at
//! least 95% must. Both counts are printed per kind (`cargo test --test it cann_headers::
//! -- --nocapture`). Precompiled headers of the big includes (built in a temp dir with the kind's
//! flags, `-Winvalid-pch`) only make it faster: a file compiles with them exactly when it
//! compiles without.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Share of the corpus sample's files that must compile.
const CORPUS_MIN_SHARE: f64 = 0.95;
/// Every n-th corpus doc (sorted by name) is in the sample.
const SAMPLE_STRIDE: usize = 9;

struct Shared {
    cxx_check: PathBuf,
    framework: PathBuf,
    corpus_docs: PathBuf,
    /// ops-math's l0 headers (`aclnn_kernels/contiguous.h`, `op_error_check.h`) as ops-nn's UT
    /// build stubs them: what a generated `op_api/*.cpp` includes besides opbase.
    ops_math: PathBuf,
}

fn shared() -> Option<Shared> {
    let root = common::repo().join("../shared");
    let s = Shared {
        cxx_check: root.join("cann/cxx-check"),
        framework: root.join("corpus/ops-nn/ut/framework"),
        corpus_docs: root.join("corpus/ops-nn/docs"),
        ops_math: root.join("cann/opapi-ut/src/ops-nn/common/stub/op_api"),
    };
    for p in [&s.cxx_check, &s.framework, &s.corpus_docs, &s.ops_math] {
        if !p.exists() {
            println!(
                "skipped: {} is absent (CANN's headers and the corpus live in ../shared)",
                p.display()
            );
            return None;
        }
    }
    // The op_api unit tests need gtest and nlohmann-json (.ci/run installs them).
    let probe = Command::new("g++")
        .args(["-fsyntax-only", "-x", "c++", "-std=c++17", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(b"#include <gtest/gtest.h>\n#include <nlohmann/json.hpp>\n")?;
            child.wait()
        });
    if !probe.is_ok_and(|s| s.success()) {
        println!("skipped: g++ with gtest and nlohmann-json is needed (apt-get install g++ libgtest-dev nlohmann-json3-dev)");
        return None;
    }
    Some(s)
}

/// One file to check: its op folder, the path inside it, the cxx-check kind and extra flags.
#[derive(Clone)]
struct Check {
    op_dir: PathBuf,
    file: String,
    kind: &'static str,
    label: &'static str,
    flags: Vec<String>,
}

/// Every generated C++ file of every op under `out/ops`, with how to check it.
fn checks(out: &Path, sh: &Shared) -> Vec<Check> {
    let mut ops: Vec<PathBuf> = std::fs::read_dir(out.join("ops"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    ops.sort();
    let ut_flags = vec![
        format!("-I{}", sh.framework.join("stub").display()),
        format!("-I{}", sh.framework.join("op_api_ut_common/inc").display()),
    ];
    let mut all = Vec::new();
    for dir in ops {
        let snake = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut add = |file: String, kind, label, flags: Vec<String>| {
            if dir.join(&file).is_file() {
                all.push(Check {
                    op_dir: dir.clone(),
                    file,
                    kind,
                    label,
                    flags,
                });
            }
        };
        add(format!("op_host/{snake}_def.cpp"), "host", "opdef", vec![]);
        add(
            format!("op_host/{snake}_infershape.cpp"),
            "host",
            "infershape",
            vec![],
        );
        add(
            format!("op_host/{snake}_tiling.cpp"),
            "host",
            "tiling",
            vec![],
        );
        add(
            format!("op_kernel/{snake}.cpp"),
            "kernel",
            "kernel",
            vec![
                "-include".into(),
                format!("tests/ut/op_kernel/{snake}_tiling_def.h"),
            ],
        );
        add(
            format!("tests/ut/op_api/test_aclnn_{snake}.cpp"),
            "opapi",
            "op_api_ut",
            ut_flags.clone(),
        );
        add(
            format!("examples/test_aclnn_{snake}.cpp"),
            "opapi",
            "example",
            vec![],
        );
        let mut api: Vec<String> = std::fs::read_dir(dir.join("op_api"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".cpp"))
                    .collect()
            })
            .unwrap_or_default();
        api.sort();
        for f in api {
            let ops_math = format!("-I{}", sh.ops_math.display());
            add(format!("op_api/{f}"), "opapi", "op_api", vec![ops_math]);
        }
    }
    all
}

/// Precompiled headers of what every file of a kind includes, keyed by label; a label without
/// one compiles without.
fn precompiled(sh: &Shared, dir: &Path) -> BTreeMap<&'static str, PathBuf> {
    let ut = format!(
        "-I{} -I{}",
        sh.framework.join("stub").display(),
        sh.framework.join("op_api_ut_common/inc").display()
    );
    let sets: [(&str, &str, &str, &[&str]); 3] = [
        ("kernel", "kernel", "", &["kernel_operator.h"]),
        (
            "host",
            "host",
            "",
            &[
                "register/op_def_registry.h",
                "register/op_impl_registry.h",
                "register/tilingdata_base.h",
                "tiling/platform/platform_ascendc.h",
            ],
        ),
        (
            "op_api_ut",
            "opapi",
            &ut,
            &[
                "gtest/gtest.h",
                "op_api_ut_common/op_api_ut.h",
                "op_api_ut_common/scalar_desc.h",
                "op_api_ut_common/tensor_desc.h",
                "opdev/platform.h",
            ],
        ),
    ];
    let mut out = BTreeMap::new();
    for (label, kind, extra, headers) in sets {
        let header = dir.join(format!("pch_{label}.h"));
        let text: String = headers
            .iter()
            .map(|h| format!("#include \"{h}\"\n"))
            .collect();
        std::fs::write(&header, text).expect("write pch header");
        let flags = Command::new(&sh.cxx_check)
            .args(["flags", kind])
            .output()
            .expect("cxx-check flags");
        let flags = String::from_utf8_lossy(&flags.stdout).into_owned();
        let ok = Command::new("g++")
            .args(extra.split_whitespace())
            .args(flags.split_whitespace())
            .args(["-x", "c++-header"])
            .arg(&header)
            .arg("-o")
            .arg(dir.join(format!("pch_{label}.h.gch")))
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            out.insert(label, header);
        } else {
            println!("no precompiled header for {label}: its files compile without one");
        }
    }
    out
}

struct Outcome {
    check: Check,
    ok: bool,
    error: String,
}

/// Runs every check on two threads (the machines are small and shared).
fn run(checks: &[Check], sh: &Shared, pch: &BTreeMap<&'static str, PathBuf>) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(c) = checks.get(i) else {
                    break;
                };
                let pch_key = if c.kind == "host" { "host" } else { c.label };
                let mut cmd = Command::new(&sh.cxx_check);
                cmd.current_dir(&c.op_dir)
                    .arg(c.kind)
                    .arg(&c.file)
                    .arg("--");
                if let Some(h) = pch.get(pch_key) {
                    cmd.arg("-Winvalid-pch").arg("-include").arg(h);
                }
                cmd.args(&c.flags);
                let (ok, error) = match cmd.output() {
                    Ok(o) => {
                        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
                        let first = stderr
                            .lines()
                            .find(|l| l.contains("error"))
                            .unwrap_or("")
                            .to_string();
                        (o.status.success(), first)
                    }
                    Err(e) => (false, format!("cxx-check does not run: {e}")),
                };
                results.lock().unwrap().push(Outcome {
                    check: c.clone(),
                    ok,
                    error,
                });
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| (&a.check.op_dir, &a.check.file).cmp(&(&b.check.op_dir, &b.check.file)));
    results
}

/// Prints the counts per kind; returns (compiling, total).
fn report(set: &str, outcomes: &[Outcome]) -> (usize, usize) {
    let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let e = per.entry(o.check.label).or_default();
        e.1 += 1;
        if o.ok {
            e.0 += 1;
        }
    }
    let ok = outcomes.iter().filter(|o| o.ok).count();
    println!(
        "{set}: {ok}/{} generated C++ files compile against CANN's headers",
        outcomes.len()
    );
    for (label, (k, n)) in &per {
        println!("  {label:<10} {k}/{n}");
    }
    for o in outcomes.iter().filter(|o| !o.ok) {
        println!(
            "  FAIL {}/{}: {}",
            o.check.op_dir.file_name().unwrap().to_string_lossy(),
            o.check.file,
            o.error
        );
    }
    (ok, outcomes.len())
}

fn gen(specs: &Path, out: &Path) {
    let o = common::aclgen_in(
        &[
            "gen",
            "--specs",
            specs.to_str().expect("utf-8"),
            "--out",
            out.to_str().expect("utf-8"),
            "--kernels",
            common::repo().join("kernels").to_str().expect("utf-8"),
            "--templates",
            common::repo().join("templates").to_str().expect("utf-8"),
        ],
        &common::repo(),
    );
    // Exit 1 is a doc with errors, whose op is left out; the others are generated.
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "gen failed: {}",
        common::text(&o.stderr)
    );
}

#[test]
fn generated_projects_compile_against_cann_headers() {
    let Some(sh) = shared() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");

    let seeds = tmp.path().join("seeds");
    gen(&common::repo().join("specs"), &seeds);

    let sample = tmp.path().join("sample");
    std::fs::create_dir_all(sample.join("docs")).expect("mkdir");
    let mut docs: Vec<PathBuf> = std::fs::read_dir(&sh.corpus_docs)
        .expect("corpus docs")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    docs.sort();
    let picked: Vec<&PathBuf> = docs.iter().step_by(SAMPLE_STRIDE).collect();
    for doc in &picked {
        std::fs::copy(doc, sample.join("docs").join(doc.file_name().unwrap())).expect("copy");
    }
    let corpus = tmp.path().join("corpus");
    gen(&sample, &corpus);

    let pch = precompiled(&sh, tmp.path());
    // Only the seed ops must all compile: a team's own docs beside them in specs/ are the
    // corpus self-test's concern.
    let seed_dirs: Vec<String> = common::SEED_OPS
        .iter()
        .map(|op| aclgen::ir::snake_case(op))
        .collect();
    let seed_checks: Vec<Check> = checks(&seeds, &sh)
        .into_iter()
        .filter(|c| {
            c.op_dir
                .file_name()
                .is_some_and(|n| seed_dirs.iter().any(|s| n == s.as_str()))
        })
        .collect();
    let corpus_checks = checks(&corpus, &sh);
    let (seed_ok, seed_total) = report("seed ops (specs/)", &run(&seed_checks, &sh, &pch));
    let (corpus_ok, corpus_total) = report(
        &format!("corpus sample ({} docs of ops-nn)", picked.len()),
        &run(&corpus_checks, &sh, &pch),
    );

    assert!(seed_total >= 20, "only {seed_total} seed files found");
    assert_eq!(seed_ok, seed_total, "every seed file must compile");
    assert!(corpus_total > 0, "the corpus sample generated nothing");
    let share = corpus_ok as f64 / corpus_total as f64;
    assert!(
        share >= CORPUS_MIN_SHARE,
        "{corpus_ok}/{corpus_total} corpus files compile ({:.1}%), below {:.0}%",
        share * 100.0,
        CORPUS_MIN_SHARE * 100.0
    );
}
