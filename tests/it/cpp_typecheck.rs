//! Generated C++ type-checks with no CANN at all: every C++ file of each op, from the op's own
//! folder, with `g++ -std=c++17 -Wall -Werror -fsyntax-only` against the project's stand-ins
//! (`tests/standins/include`), and against an installed CANN toolkit's headers where there is
//! one (`$ASCEND_HOME_PATH`; skipped, said once, without):
//!
//! | kind | file | on the stand-ins | on a toolkit |
//! | --- | --- | --- | --- |
//! | `opdef` | `op_host/<op>_def.cpp` | yes | yes |
//! | `infershape` | `op_host/<op>_infershape.cpp` | yes | yes |
//! | `tiling` | `op_host/<op>_tiling.cpp` | yes | yes |
//! | `op_api` | `op_api/*.cpp` (the aclnn layer and the l0 op) | yes | yes |
//! | `op_api_ut` | `tests/ut/op_api/test_aclnn_<op>.cpp` | yes (with gtest) | no: the UT framework belongs to an ops repository |
//! | `example` | `examples/test_aclnn_<op>.cpp` | yes | yes |
//!
//! Kernels (`op_kernel/`) are Ascend C: they need a toolkit's `kernel_operator.h` and are sim's.
//! Two sets: the seed ops (`generated/`), every file of which must type-check, and a sample of
//! both dev sets' docs (`../shared/corpus/ops-nn`, `ops-math-dev`; skipped, said once, where it
//! is absent; ignored in a plain `cargo test`, `.ci/run` runs it), of whose files at least 95%
//! per kind must. Counts are printed per kind
//! (`cargo test --test it cpp_typecheck:: -- --include-ignored --nocapture`). Precompiled headers of what every
//! file of a kind includes only make it faster (`-Winvalid-pch`).

use crate::common::{self, cxx};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Share of each kind of a dev set sample's files that must type-check.
const SAMPLE_MIN_SHARE: f64 = 0.95;
/// Every n-th doc (sorted by name) of each dev set is in the sample.
const SAMPLE_STRIDES: [(&str, usize); 2] = [("ops-nn", 15), ("ops-math-dev", 8)];

/// One file to check: its op folder, its path inside it, its kind.
#[derive(Clone)]
struct Check {
    op_dir: PathBuf,
    file: String,
    kind: &'static str,
}

/// Every generated C++ file of the ops in `ops` that `headers` can check.
fn checks(ops: &[PathBuf], headers: &cxx::Headers) -> Vec<Check> {
    let mut all = Vec::new();
    for dir in ops {
        let snake = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut add = |file: String, kind| {
            if dir.join(&file).is_file() {
                all.push(Check {
                    op_dir: dir.clone(),
                    file,
                    kind,
                });
            }
        };
        add(format!("op_host/{snake}_def.cpp"), "opdef");
        add(format!("op_host/{snake}_infershape.cpp"), "infershape");
        add(format!("op_host/{snake}_tiling.cpp"), "tiling");
        if matches!(headers, cxx::Headers::StandIns) {
            // The op's own gtest and those of the in-place functions linked to it.
            for f in common::files_with_ext(&dir.join("tests/ut/op_api"), "cpp") {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                add(format!("tests/ut/op_api/{name}"), "op_api_ut");
            }
        }
        add(format!("examples/test_aclnn_{snake}.cpp"), "example");
        for f in common::files_with_ext(&dir.join("op_api"), "cpp") {
            add(
                format!("op_api/{}", f.file_name().unwrap().to_string_lossy()),
                "op_api",
            );
        }
    }
    all
}

/// The public headers of `ops` under `aclnnop/`, as the examples include them (CANN installs
/// them there).
fn aclnnop_dir(ops: &[PathBuf], into: &Path) -> PathBuf {
    let dir = into.join("aclnnop-include");
    std::fs::create_dir_all(dir.join("aclnnop")).expect("mkdir aclnnop");
    for op in ops {
        for h in common::files_with_ext(&op.join("op_api"), "h") {
            let name = h.file_name().unwrap();
            if name.to_string_lossy().starts_with("aclnn_") {
                std::fs::copy(&h, dir.join("aclnnop").join(name)).expect("copy header");
            }
        }
    }
    dir
}

/// The precompiled header a kind of file uses.
fn pch_key(kind: &str) -> &str {
    match kind {
        "opdef" | "infershape" | "tiling" => "host",
        other => other,
    }
}

struct Outcome {
    check: Check,
    ok: bool,
    error: String,
}

/// Runs every check on two threads (the machines are small and shared).
fn run(checks: &[Check], headers: &cxx::Headers, aclnnop: &Path) -> Vec<Outcome> {
    let none = BTreeMap::new();
    let pch = match headers {
        cxx::Headers::StandIns => cxx::precompiled(),
        cxx::Headers::Toolkit(_) => &none,
    };
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(c) = checks.get(i) else {
                    break;
                };
                let mut includes = headers.includes();
                includes.push(aclnnop.to_path_buf());
                let extra: Vec<String> = pch.get(pch_key(c.kind)).map_or(Vec::new(), |h| {
                    vec![
                        "-Winvalid-pch".into(),
                        "-include".into(),
                        h.display().to_string(),
                    ]
                });
                let r = cxx::compile(&c.op_dir, Path::new(&c.file), &includes, &extra, None);
                results.lock().unwrap().push(Outcome {
                    check: c.clone(),
                    ok: r.ok,
                    error: r.error,
                });
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| (&a.check.op_dir, &a.check.file).cmp(&(&b.check.op_dir, &b.check.file)));
    results
}

/// Prints the counts per kind; returns (kind → (passing, total)).
fn report(
    set: &str,
    headers: &cxx::Headers,
    outcomes: &[Outcome],
) -> BTreeMap<&'static str, (usize, usize)> {
    let mut per: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let e = per.entry(o.check.kind).or_default();
        e.1 += 1;
        e.0 += usize::from(o.ok);
    }
    let ok = outcomes.iter().filter(|o| o.ok).count();
    println!(
        "cpp figures: {set}: {ok}/{} generated C++ files type-check against {}",
        outcomes.len(),
        headers.label()
    );
    for (kind, (k, n)) in &per {
        println!("cpp figures:   {kind:<10} {k}/{n}");
    }
    for o in outcomes.iter().filter(|o| !o.ok) {
        println!(
            "cpp figures:   FAIL {}/{}: {}",
            o.check.op_dir.file_name().unwrap().to_string_lossy(),
            o.check.file,
            o.error.lines().next().unwrap_or("")
        );
    }
    per
}

fn seed_op_dirs() -> Vec<PathBuf> {
    common::SEED_OPS
        .iter()
        .map(|op| {
            common::repo()
                .join("generated/ops")
                .join(aclgen::ir::snake_case(op))
        })
        .collect()
}

/// Type-checks every C++ file of the seed ops against `headers`; all must pass.
fn check_seeds(headers: &cxx::Headers) {
    let ops = seed_op_dirs();
    let tmp = tempfile::tempdir().expect("temp dir");
    let aclnnop = aclnnop_dir(&ops, tmp.path());
    let all = checks(&ops, headers);
    let outcomes = run(&all, headers, &aclnnop);
    report("seed ops (generated/)", headers, &outcomes);
    assert!(all.len() >= 20, "only {} seed files found", all.len());
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.ok)
        .map(|o| {
            format!(
                "{}/{}:\n{}",
                o.check.op_dir.display(),
                o.check.file,
                o.error
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "every seed file must type-check:\n{}",
        failed.join("\n")
    );
}

#[test]
fn seed_ops_cpp_type_checks_against_the_stand_ins() {
    if cxx::available() {
        check_seeds(&cxx::Headers::StandIns);
    }
}

#[test]
fn seed_ops_cpp_type_checks_against_a_toolkit() {
    if let Some(toolkit) = cxx::toolkit_headers() {
        check_seeds(&toolkit);
    }
}

#[test]
#[ignore = "about 3 minutes on 2 cores: .ci/run runs it and prints its figures"]
fn dev_set_samples_type_check_against_the_stand_ins() {
    if !cxx::available() {
        return;
    }
    let Some(corpus) = common::corpus() else {
        return;
    };
    let headers = cxx::Headers::StandIns;
    let mut problems = Vec::new();
    // `ACLGEN_TYPECHECK_ALL=1`: every doc of both sets, not the sample.
    let all = std::env::var_os("ACLGEN_TYPECHECK_ALL").is_some();
    for (set, stride) in SAMPLE_STRIDES {
        let stride = if all { 1 } else { stride };
        let started = std::time::Instant::now();
        let ops = common::dev_set_sample(&corpus, set, stride, "cpp-typecheck").1;
        let tmp = tempfile::tempdir().expect("temp dir");
        let aclnnop = aclnnop_dir(&ops, tmp.path());
        let outcomes = run(&checks(&ops, &headers), &headers, &aclnnop);
        let label = format!(
            "{set} sample (every {stride}th doc, {} ops, {:.0} s)",
            ops.len(),
            started.elapsed().as_secs_f64()
        );
        for (kind, (ok, n)) in report(&label, &headers, &outcomes) {
            let share = ok as f64 / n.max(1) as f64;
            if share < SAMPLE_MIN_SHARE {
                problems.push(format!(
                    "{set}: {kind}: {ok}/{n} type-check ({:.1}%), below {:.0}%",
                    share * 100.0,
                    SAMPLE_MIN_SHARE * 100.0
                ));
            }
        }
        assert!(ops.len() >= 10, "{set}: only {} ops generated", ops.len());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_stand_in_says_in_its_first_line_that_it_is_aclgens() {
    let root = common::repo().join("tests/standins");
    let mut files = common::files_with_ext(&root, "h");
    files.extend(common::files_with_ext(&root, "cpp"));
    assert!(files.len() >= 20, "only {} stand-in files", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read a stand-in");
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.contains("aclgen's stand-in") && first.contains("not CANN's"),
            "{}: the first line must say it is aclgen's stand-in, not CANN's: {first}",
            f.display()
        );
        // Written from CANN's public reference, never copied: no_cann_code.rs holds every
        // tracked file, these included, to carry no CANN licence header.
    }
}

/// The stand-in `acl/acl_base.h` declares every aclDataType and aclFormat enumerator the
/// project's vocabulary prints, with CANN's value (its public reference spells format 33
/// `ACL_FRACTAL_Z_3D`): generated code names them, so a stand-in that misspells one fails only
/// the docs that use it.
#[test]
fn the_standins_declare_every_acl_enumerator_the_vocabulary_prints() {
    let header = std::fs::read_to_string(cxx::standins().join("acl/acl_base.h"))
        .expect("read the stand-in acl_base.h");
    let declared: BTreeMap<&str, i32> = header
        .lines()
        .filter_map(|l| {
            let (name, value) = l.split_once('=')?;
            let value = value.split([',', '/']).next()?.trim().parse().ok()?;
            Some((name.trim(), value))
        })
        .collect();
    let printed = aclnn_runtime::DType::ALL
        .iter()
        .map(|d| (d.acl_name(), d.acl_value()))
        .chain(
            aclnn_runtime::Format::ALL
                .iter()
                .map(|f| (f.acl_name(), f.acl_value())),
        );
    let mut wrong = Vec::new();
    for (name, value) in printed {
        if let (Some(name), Some(value)) = (name, value) {
            if declared.get(name) != Some(&value) {
                wrong.push(format!("{name} = {value}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the stand-in acl_base.h lacks these enumerators (or gives another value): {wrong:?}"
    );
}
