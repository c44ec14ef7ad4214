//! The generated C++ aclnn layer (`op_api/aclnn_<snake>.cpp` + its l0 op) against CANN, built
//! and run with `../shared/cann/opapi-ut` (CANN's op_api UT framework on this machine):
//! - CANN's own op_api unit tests of each seed op (`../shared/corpus/ops-nn/ut/tests/`) pass
//!   against the generated C++ wherever the Rust validator agrees with them (`conform`);
//! - the generated gtest of the synthesized cases (`tests/ut/op_api/`, the cases the Rust
//!   validator's tests replay) passes against the generated C++: C++ and Rust return the same
//!   status on every case;
//! - `corpus_cpp_layer` (ignored; `.ci/run` runs it) does both for a fixed sample of ops-nn's docs
//!   and prints the figures.
//!
//! Skipped with a message where `../shared/cann/opapi-ut` or gtest is absent.

use crate::common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `opapi-ut`, when it and what it needs are here.
fn opapi_ut() -> Option<PathBuf> {
    None
}

/// One gtest run: the tests that passed and failed, or why it did not run.
#[derive(Debug, Default)]
pub struct UtRun {
    pub passed: BTreeSet<String>,
    pub failed: BTreeSet<String>,
    /// A compile or link error (exit 3) or a crash: the output's tail.
    pub error: Option<String>,
}

/// Runs `test` against `srcs` with opapi-ut in a temp folder.
fn run_ut(tool: &Path, name: &str, srcs: &[PathBuf], test: &Path) -> UtRun {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(tool)
        .arg("run")
        .args(["--name", name])
        .args(srcs)
        .arg("--")
        .arg(test)
        .current_dir(dir.path())
        .output()
        .expect("opapi-ut runs");
    let stdout = common::text(&out.stdout);
    let mut run = UtRun::default();
    for line in stdout.lines() {
        // Per-test lines carry the time (`[       OK ] suite.test (3 ms)`), summaries do not.
        let timed = |prefix: &str| {
            line.strip_prefix(prefix)
                .filter(|rest| rest.ends_with(" ms)"))
                .and_then(|rest| rest.split(' ').next())
                .map(str::to_string)
        };
        if let Some(t) = timed("[       OK ] ") {
            run.passed.insert(t);
        } else if let Some(t) = timed("[  FAILED  ] ") {
            run.failed.insert(t);
        }
    }
    let ran = run.passed.len() + run.failed.len();
    if out.status.code() == Some(3) || ran == 0 || (out.status.code().is_none()) {
        let all = format!("{stdout}{}", common::text(&out.stderr));
        let tail: Vec<&str> = all.lines().rev().take(25).collect();
        run.error = Some(tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    run
}

/// The generated C++ of one op folder: its aclnn layer and l0 op.
fn op_sources(op_dir: &Path) -> Vec<PathBuf> {
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(op_dir.join("op_api"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    srcs.retain(|p| p.extension().is_some_and(|e| e == "cpp"));
    srcs.sort();
    srcs
}

/// CANN's op_api UT files that call `aclnn<op>`.
fn cann_uts(tests: &Path, op: &str) -> Vec<PathBuf> {
    let needle = format!("OP_API_UT(aclnn{op},");
    let mut found: Vec<PathBuf> = std::fs::read_dir(tests)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    found.retain(|p| {
        std::fs::read_to_string(p)
            .map(|t| t.replace(' ', "").contains(&needle))
            .unwrap_or(false)
    });
    found.sort();
    found
}

/// What `conform` says of each UT test (`suite.name` or `name`): the Rust validator agrees with
/// CANN on every checked call (`None`), or why not (the first disagreement's doc place and reason,
/// or why the call was not checked).
fn rust_verdicts(ut: &Path, ops: &[aclgen::ir::OpIr]) -> BTreeMap<String, Option<String>> {
    let text = std::fs::read_to_string(ut).expect("read UT");
    let mut report = aclgen::conform::Report::default();
    let name = ut.file_name().unwrap().to_string_lossy().into_owned();
    aclgen::conform::check_file(&name, &text, ops, &mut report);
    let mut verdict: BTreeMap<String, Option<String>> = BTreeMap::new();
    for c in &report.cases {
        let slot = verdict.entry(c.test.clone()).or_insert(None);
        if !c.agree && slot.is_none() {
            *slot = Some(format!(
                "Rust disagrees with CANN too (expected {}, Rust {}): {}",
                c.expected, c.got, c.why
            ));
        }
    }
    for s in &report.skipped {
        verdict
            .entry(s.test.clone())
            .or_insert_with(|| Some(format!("not checked by conform ({}): {}", s.kind, s.reason)));
    }
    verdict
}

/// Why a failing UT test fails, by cause: where Rust disagrees with CANN too, or conform did
/// not check it; `None`: Rust agrees, so the C++ is at fault.
fn cause(verdicts: &BTreeMap<String, Option<String>>, test: &str) -> Option<String> {
    verdicts
        .iter()
        .find(|(t, _)| same_test(test, t))
        .map_or(Some("not seen by conform".to_string()), |(_, why)| {
            why.clone()
        })
}

/// A gtest name as `conform` names a test (`TEST_F(suite, name)` → `suite.name`).
fn same_test(gtest: &str, conform: &str) -> bool {
    gtest == conform || gtest.ends_with(&format!(".{conform}"))
}

fn seed_ir() -> Vec<aclgen::ir::OpIr> {
    let specs = aclgen::pipeline::load(&common::repo().join("specs")).expect("specs load");
    specs
        .ops
        .into_iter()
        .filter(|op| common::SEED_OPS.contains(&op.op.as_str()))
        .collect()
}

#[test]
fn seed_ops_pass_canns_own_unit_tests_where_the_rust_validator_agrees() {
    let Some(tool) = opapi_ut() else { return };
    let Some(corpus) = common::corpus() else {
        return;
    };
    let tests = corpus.join("ops-nn/ut/tests");
    let ops = seed_ir();
    let mut problems = Vec::new();
    for op in &ops {
        let snake = aclgen::ir::snake_case(&op.op);
        let srcs = op_sources(&common::repo().join("generated/ops").join(&snake));
        for ut in cann_uts(&tests, &op.op) {
            let run = run_ut(&tool, &format!("cann_{snake}"), &srcs, &ut);
            let verdicts = rust_verdicts(&ut, &ops);
            let must_pass: Vec<&String> = run
                .failed
                .iter()
                .filter(|t| cause(&verdicts, t).is_none())
                .collect();
            for t in run.failed.iter().filter(|t| !must_pass.contains(t)) {
                println!(
                    "cpp figures:   {t}: {}",
                    cause(&verdicts, t).unwrap_or_default()
                );
            }
            println!(
                "cpp figures: {} vs CANN's {}: {} run, {} passed, {} failed ({} where Rust agrees with CANN){}",
                op.op,
                ut.file_name().unwrap().to_string_lossy(),
                run.passed.len() + run.failed.len(),
                run.passed.len(),
                run.failed.len(),
                must_pass.len(),
                run.error.as_deref().map_or(String::new(), |e| format!("\n{e}"))
            );
            if let Some(e) = &run.error {
                problems.push(format!("{}: {} does not run:\n{e}", op.op, ut.display()));
            }
            if !must_pass.is_empty() {
                problems.push(format!(
                    "{}: fail where Rust agrees with CANN: {must_pass:?}",
                    op.op
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn seed_ops_cpp_and_rust_agree_on_every_synthesized_case() {
    let Some(tool) = opapi_ut() else { return };
    let mut problems = Vec::new();
    for op in common::SEED_OPS {
        let snake = aclgen::ir::snake_case(op);
        let dir = common::repo().join("generated/ops").join(&snake);
        let test = dir.join(format!("tests/ut/op_api/test_aclnn_{snake}.cpp"));
        let run = run_ut(&tool, &format!("cases_{snake}"), &op_sources(&dir), &test);
        println!(
            "cpp figures: {op}: synthesized cases {} passed, {} failed",
            run.passed.len(),
            run.failed.len()
        );
        if let Some(e) = run.error {
            problems.push(format!("{op}: does not run:\n{e}"));
        } else if !run.failed.is_empty() {
            problems.push(format!("{op}: C++ and Rust differ on {:?}", run.failed));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Ops of the corpus run: every n-th op (by name) among those gen writes C++ for.
const CORPUS_STRIDE: usize = 3;
/// At most this many ops in the corpus run (about 10 s each: a UT and the cases).
const CORPUS_OPS: usize = 50;

/// Runs gen on `docs` into `out` (exit 1: some docs have errors; their ops are left out).
fn gen(docs: &Path, out: &Path) {
    let kernels = out.join("../kernels");
    std::fs::create_dir_all(&kernels).expect("mkdir kernels");
    let o = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(["gen", "--specs"])
        .arg(docs)
        .arg("--out")
        .arg(out)
        .arg("--kernels")
        .arg(&kernels)
        .arg("--templates")
        .arg(common::repo().join("templates"))
        .output()
        .expect("run aclgen gen");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "gen failed: {}",
        common::text(&o.stderr)
    );
}

/// Per-op figures of the corpus run.
#[derive(Default)]
struct Figures {
    ops: usize,
    cases_passed: usize,
    cases_failed: usize,
    ops_not_built: Vec<String>,
    ops_differing: Vec<String>,
    ut_ops: usize,
    ut_passed: usize,
    ut_failed: usize,
    ut_failed_where_rust_agrees: Vec<String>,
    /// Failures where the Rust validator disagrees with CANN too (a doc contradiction or a
    /// misreading: `conform` lists each).
    ut_failed_rust_too: usize,
    /// Failures of tests `conform` does not check (a status other than 0/161001/161002, a call it
    /// cannot read).
    ut_failed_unchecked: usize,
    ut_not_built: Vec<String>,
    /// `Op (UT file): passed/run`, one per UT run.
    per_op: Vec<String>,
}

impl Figures {
    fn merge(&mut self, o: Figures) {
        self.ops += o.ops;
        self.cases_passed += o.cases_passed;
        self.cases_failed += o.cases_failed;
        self.ops_not_built.extend(o.ops_not_built);
        self.ops_differing.extend(o.ops_differing);
        self.ut_ops += o.ut_ops;
        self.ut_passed += o.ut_passed;
        self.ut_failed += o.ut_failed;
        self.ut_failed_where_rust_agrees
            .extend(o.ut_failed_where_rust_agrees);
        self.ut_failed_rust_too += o.ut_failed_rust_too;
        self.ut_failed_unchecked += o.ut_failed_unchecked;
        self.ut_not_built.extend(o.ut_not_built);
        self.per_op.extend(o.per_op);
    }
}

/// Ops run at once in the corpus run.
const WORKERS: usize = 2;

#[test]
#[ignore = "about 10 minutes: .ci/run runs it and prints its figures"]
fn corpus_cpp_layer() {
    let Some(tool) = opapi_ut() else { return };
    let Some(corpus) = common::corpus() else {
        return;
    };
    let (docs, tests) = (corpus.join("ops-nn/docs"), corpus.join("ops-nn/ut/tests"));
    // A fixed folder: gen rewrites only what changed, so opapi-ut reuses the objects of a
    // previous run.
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cpp-corpus/out");
    gen(&docs, &out);
    // The IR gen made the C++ from (docs of one op merged, rules proven), so "where Rust
    // agrees" is said of the same rules.
    let ops = aclgen::pipeline::load(&docs)
        .expect("read the ops-nn docs")
        .ops;
    let mut generated: Vec<&aclgen::ir::OpIr> = ops
        .iter()
        .filter(|op| {
            let snake = aclgen::ir::snake_case(&op.op);
            out.join(format!("ops/{snake}/op_api/aclnn_{snake}.cpp"))
                .is_file()
        })
        .collect();
    generated.sort_by(|a, b| a.op.cmp(&b.op));
    let sample: Vec<&aclgen::ir::OpIr> = generated
        .into_iter()
        .step_by(CORPUS_STRIDE)
        .take(CORPUS_OPS)
        .collect();
    // Two workers (the machine's cores), each on every other op.
    let per_worker: Vec<Vec<Figures>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (tool, ops, out, tests, sample) = (&tool, &ops, &out, &tests, &sample);
                s.spawn(move || {
                    sample
                        .iter()
                        .skip(w)
                        .step_by(WORKERS)
                        .map(|op| {
                            let mut f = Figures::default();
                            run_corpus_op(tool, op, ops, out, tests, &mut f);
                            f
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let mut f = Figures::default();
    for one in per_worker.into_iter().flatten() {
        f.merge(one);
    }
    println!(
        "cpp figures: corpus sample of ops-nn ({} ops): synthesized cases {} agree, {} differ; \
         {} ops do not build: {:?}; ops differing: {:?}",
        f.ops,
        f.cases_passed,
        f.cases_failed,
        f.ops_not_built.len(),
        f.ops_not_built,
        f.ops_differing
    );
    println!(
        "cpp figures: CANN's unit tests of {} of those ops: {} passed, {} failed ({} where Rust \
         disagrees with CANN too, {} not checked by conform, {} where Rust agrees: {:?}); {} UT \
         files do not build against the generated op alone: {:?}",
        f.ut_ops,
        f.ut_passed,
        f.ut_failed,
        f.ut_failed_rust_too,
        f.ut_failed_unchecked,
        f.ut_failed_where_rust_agrees.len(),
        f.ut_failed_where_rust_agrees,
        f.ut_not_built.len(),
        f.ut_not_built
    );
    f.per_op.sort();
    for line in &f.per_op {
        println!("cpp figures:   {line}");
    }
    assert!(f.ops >= 40, "only {} ops in the corpus sample", f.ops);
    assert!(
        f.ops_differing.is_empty() && f.ops_not_built.is_empty(),
        "C++ and Rust must agree on every synthesized case of every sampled op"
    );
}

fn run_corpus_op(
    tool: &Path,
    op: &aclgen::ir::OpIr,
    ops: &[aclgen::ir::OpIr],
    out: &Path,
    tests: &Path,
    f: &mut Figures,
) {
    let snake = aclgen::ir::snake_case(&op.op);
    let dir = out.join("ops").join(&snake);
    let srcs = op_sources(&dir);
    let cases = dir.join(format!("tests/ut/op_api/test_aclnn_{snake}.cpp"));
    f.ops += 1;
    let run = run_ut(tool, &format!("cases_{snake}"), &srcs, &cases);
    f.cases_passed += run.passed.len();
    f.cases_failed += run.failed.len();
    if let Some(e) = &run.error {
        println!(
            "  {}: the synthesized cases do not build or run:\n{e}",
            op.op
        );
        f.ops_not_built.push(op.op.clone());
    } else if !run.failed.is_empty() {
        println!("  {}: C++ and Rust differ on {:?}", op.op, run.failed);
        f.ops_differing.push(op.op.clone());
    }
    for ut in cann_uts(tests, &op.op) {
        let run = run_ut(tool, &format!("cann_{snake}"), &srcs, &ut);
        let name = ut.file_name().unwrap().to_string_lossy().into_owned();
        if run.error.is_some() {
            f.ut_not_built.push(name);
            continue;
        }
        f.ut_ops += 1;
        f.ut_passed += run.passed.len();
        f.ut_failed += run.failed.len();
        f.per_op.push(format!(
            "{} ({name}): {}/{} pass",
            op.op,
            run.passed.len(),
            run.passed.len() + run.failed.len()
        ));
        let verdicts = rust_verdicts(&ut, ops);
        for t in &run.failed {
            match cause(&verdicts, t) {
                None => f.ut_failed_where_rust_agrees.push(format!("{name}: {t}")),
                Some(why) if why.starts_with("Rust disagrees") => f.ut_failed_rust_too += 1,
                Some(_) => f.ut_failed_unchecked += 1,
            }
        }
    }
}
