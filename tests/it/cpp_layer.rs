//! The generated C++ aclnn layer (`op_api/aclnn_<snake>.cpp` + its l0 op + `aclgen_check.h`)
//! built and run with no CANN at all: on the project's stand-ins (`tests/standins`, whose op_api
//! UT framework makes the objects an `OP_API_UT` call describes and calls the aclnn function),
//! with Debian's gtest.
//! - the seed ops: the generated gtest of the synthesized cases (`tests/ut/op_api/`) runs, and
//!   the C++ status equals the Rust validator's on every case;
//! - the seed ops' calls in CANN's op_api unit tests (`../shared/corpus/ops-nn/ut-calls.jsonl`, as
//!   data) are written as a gtest by the same emitter and run through the generated C++: C++
//!   equals Rust on every call, and the agreement of each with the status CANN's implementation
//!   returns is printed;
//! - `corpus_cpp_layer` (ignored; `.ci/run` runs it) does both for a sample of both dev sets.
//!
//! Skipped with a message where g++ or gtest is absent (and, for the corpus, where
//! `../shared/corpus` is).

use crate::common::{self, cxx};

use aclgen::cases::{Case, CaseSet, Expect};
use aclgen::ir::{snake_case, OpIr};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// What the C++ returned for one gtest case: the status it expected (the test passed), or the
/// status it got instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Got {
    Expected,
    Other(u32),
}

/// One gtest run: per test (`case_<name>`), what the C++ returned; or why it did not run.
#[derive(Debug, Default)]
struct GtestRun {
    tests: BTreeMap<String, Got>,
    error: Option<String>,
}

/// The status a failing `EXPECT_EQ(aclRet, ...)` printed (`aclRet` / `Which is: N`).
fn got_status(block: &[&str]) -> Option<u32> {
    let at = block.iter().position(|l| l.trim() == "aclRet")?;
    block
        .get(at + 1)?
        .trim()
        .strip_prefix("Which is: ")?
        .parse()
        .ok()
}

/// Reads gtest's output: each test's result by its name without the suite.
fn parse_gtest(stdout: &str) -> BTreeMap<String, Got> {
    let mut tests = BTreeMap::new();
    let mut block: Vec<&str> = Vec::new();
    for line in stdout.lines() {
        // Per-test lines carry the time (`[       OK ] suite.test (3 ms)`), summaries do not.
        let name = |prefix: &str| {
            line.strip_prefix(prefix)
                .filter(|rest| rest.ends_with(" ms)"))
                .and_then(|rest| rest.split(' ').next())
                .map(|t| t.rsplit('.').next().unwrap_or(t).to_string())
        };
        if line.starts_with("[ RUN      ]") {
            block.clear();
        } else if let Some(t) = name("[       OK ] ") {
            tests.insert(t, Got::Expected);
        } else if let Some(t) = name("[  FAILED  ] ") {
            tests.insert(t, Got::Other(got_status(&block).unwrap_or(u32::MAX)));
        } else {
            block.push(line);
        }
    }
    tests
}

/// Compiles the op's `op_api/*.cpp` and `test` (a path inside `op_dir`), links them with the
/// stand-ins and gtest, and runs the binary.
fn build_and_run(op_dir: &Path, test: &str, work: &Path) -> GtestRun {
    let pch = cxx::precompiled();
    let mut sources: Vec<(String, &str)> = common::files_with_ext(&op_dir.join("op_api"), "cpp")
        .iter()
        .map(|f| {
            (
                format!("op_api/{}", f.file_name().unwrap().to_string_lossy()),
                "op_api",
            )
        })
        .collect();
    sources.sort();
    sources.push((test.to_string(), "op_api_ut"));
    let mut objs = Vec::new();
    for (i, (src, kind)) in sources.iter().enumerate() {
        let extra: Vec<String> = pch.get(kind).map_or(Vec::new(), |h| {
            vec![
                "-Winvalid-pch".into(),
                "-include".into(),
                h.display().to_string(),
            ]
        });
        let obj = work.join(format!("obj{i}.o"));
        let c = cxx::compile(
            op_dir,
            Path::new(src),
            &[cxx::standins()],
            &extra,
            Some(&obj),
        );
        if !c.ok {
            return GtestRun {
                error: Some(format!("{src} does not compile:\n{}", c.error)),
                ..GtestRun::default()
            };
        }
        objs.push(obj);
    }
    let exe = work.join("cases");
    let l = cxx::link_gtest(&objs, &exe);
    if !l.ok {
        return GtestRun {
            error: Some(format!("does not link:\n{}", l.error)),
            ..GtestRun::default()
        };
    }
    let out = Command::new(&exe)
        .current_dir(work)
        .output()
        .expect("the gtest runs");
    let stdout = common::text(&out.stdout);
    let tests = parse_gtest(&stdout);
    let crashed = out.status.code().is_none() || tests.is_empty();
    GtestRun {
        error: crashed.then(|| {
            let tail: Vec<&str> = stdout.lines().rev().take(15).collect();
            format!(
                "crashed or ran nothing:\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            )
        }),
        tests,
    }
}

/// The status the C++ returned for `case`, as the run tells it.
fn cpp_status(run: &GtestRun, case: &Case) -> Option<u32> {
    match run.tests.get(&format!("case_{}", case.name))? {
        Got::Expected => Some(case.expect.status),
        Got::Other(s) => Some(*s),
    }
}

/// The Rust validator's status of a case's call.
fn rust_status(op: &OpIr, case: &Case) -> u32 {
    aclgen::rules::validate_call(op, &case.call).map_or_else(|e| e.code, |()| 0)
}

/// How the C++ and Rust statuses of a set of cases compare, with the expected (CANN's, for
/// UT calls) status.
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    /// Not run: no gtest of it was written (a dtype C cannot spell, a status no header declares).
    not_written: usize,
    cpp_eq_rust: usize,
    cpp_eq_expected: usize,
    rust_eq_expected: usize,
    differ: Vec<String>,
    /// Cases where the C++ status is not the expected one (CANN's, for UT calls).
    unexpected: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.cases += other.cases;
        self.not_written += other.not_written;
        self.cpp_eq_rust += other.cpp_eq_rust;
        self.cpp_eq_expected += other.cpp_eq_expected;
        self.rust_eq_expected += other.rust_eq_expected;
        self.differ.extend(other.differ);
        self.unexpected.extend(other.unexpected);
    }
}

/// Compares the run's C++ status of each case with the Rust validator's and the expected one.
fn tally(op: &OpIr, set: &CaseSet, run: &GtestRun) -> Tally {
    let mut t = Tally::default();
    for case in &set.cases {
        t.cases += 1;
        let Some(cpp) = cpp_status(run, case) else {
            t.not_written += 1;
            continue;
        };
        let rust = rust_status(op, case);
        t.cpp_eq_rust += usize::from(cpp == rust);
        t.cpp_eq_expected += usize::from(cpp == case.expect.status);
        t.rust_eq_expected += usize::from(rust == case.expect.status);
        if cpp != rust {
            t.differ
                .push(format!("{} {}: C++ {cpp}, Rust {rust}", op.op, case.name));
        }
        if cpp != case.expect.status {
            t.unexpected.push(format!(
                "{} {} ({}): C++ {cpp}, expected {}",
                op.op, case.name, case.expect.condition, case.expect.status
            ));
        }
    }
    t
}

/// The op's synthesized cases, as `gen` wrote them (`tests/cases.json`, or
/// `tests/cases_<snake>.json` of a linked in-place function in its out-of-place op's folder).
fn synthesized(op: &OpIr, op_dir: &Path) -> CaseSet {
    let snake = snake_case(&op.op);
    let file = op.cases_path();
    let file = file.rsplit('/').next().unwrap_or("cases.json");
    let text = std::fs::read_to_string(op_dir.join("tests").join(file)).expect("cases.json");
    let bundle: serde_json::Value = serde_json::from_str(&text).expect("cases.json is JSON");
    let cases = bundle["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("{snake}: cases.json has no cases"))
        .iter()
        .map(|c| Case {
            name: c["case"].as_str().expect("case name").to_string(),
            call: serde_json::from_value(c["call"].clone()).expect("a call"),
            expect: Expect {
                status: c["status"].as_u64().expect("status") as u32,
                name: String::new(),
                condition: String::new(),
                rule: None,
            },
        })
        .collect();
    CaseSet {
        cases,
        ..CaseSet::default()
    }
}

/// The synthesized cases of the op in `op_dir` through its generated gtest.
fn run_synthesized(op: &OpIr, op_dir: &Path) -> (Tally, Option<String>) {
    let snake = snake_case(&op.op);
    let work = tempfile::tempdir().expect("temp dir");
    let run = build_and_run(
        op_dir,
        &format!("tests/ut/op_api/test_aclnn_{snake}.cpp"),
        work.path(),
    );
    (tally(op, &synthesized(op, op_dir), &run), run.error)
}

fn seed_ir() -> Vec<OpIr> {
    let specs = aclgen::pipeline::load(&common::repo().join("specs")).expect("specs load");
    specs
        .ops
        .into_iter()
        .filter(|op| common::SEED_OPS.contains(&op.op.as_str()))
        .collect()
}

fn print_tally(label: &str, t: &Tally, expected: &str) {
    println!(
        "cpp figures: {label}: {} cases ({} not written as tests): C++ == Rust on {}, C++ == {expected} on {}, \
         Rust == {expected} on {}",
        t.cases,
        t.not_written,
        t.cpp_eq_rust,
        t.cpp_eq_expected,
        t.rust_eq_expected
    );
}

#[test]
fn seed_ops_cpp_and_rust_agree_on_every_synthesized_case() {
    if !cxx::available() {
        return;
    }
    let mut problems = Vec::new();
    for op in seed_ir() {
        let dir = common::repo()
            .join("generated/ops")
            .join(snake_case(&op.op));
        let (t, error) = run_synthesized(&op, &dir);
        print_tally(&format!("{} synthesized", op.op), &t, "the case's status");
        if let Some(e) = error {
            problems.push(format!("{}: {e}", op.op));
        }
        if t.cases - t.not_written < 10 {
            problems.push(format!(
                "{}: only {} cases ran",
                op.op,
                t.cases - t.not_written
            ));
        }
        problems.extend(t.differ);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One call of CANN's op_api unit tests, as `ut-calls.jsonl` gives it.
struct UtCall {
    file: String,
    test: String,
    api: String,
    call: serde_json::Value,
    expect: u32,
}

/// The calls of `set`'s `ut-calls.jsonl` that assert a status (`expect_ne` ones only say what
/// the status is not).
fn ut_calls(corpus: &Path, set: &str) -> Vec<UtCall> {
    let text =
        std::fs::read_to_string(corpus.join(set).join("ut-calls.jsonl")).expect("ut-calls.jsonl");
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["expect_ne"] != serde_json::Value::Bool(true))
        .map(|v| UtCall {
            file: v["file"].as_str().unwrap_or_default().to_string(),
            test: v["test"].as_str().unwrap_or_default().to_string(),
            api: v["api"].as_str().unwrap_or_default().to_string(),
            call: serde_json::json!({"product": v["product"], "args": v["args"]}),
            expect: v["expect"].as_u64().unwrap_or(u64::MAX) as u32,
        })
        .collect()
}

/// The calls of `op`'s aclnn function as cases (CANN's status expected); calls whose arguments
/// do not fit the op's parameters are counted apart.
fn ut_cases(op: &OpIr, calls: &[UtCall]) -> (CaseSet, usize) {
    let api = format!("aclnn{}", op.op);
    let mut set = CaseSet::default();
    let mut unmapped = 0;
    for (i, c) in calls.iter().filter(|c| c.api == api).enumerate() {
        let Ok(call) = aclgen::rules::parse_call(op, &c.call) else {
            unmapped += 1;
            continue;
        };
        let ident: String = c
            .test
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        set.cases.push(Case {
            name: format!("ut{i}_{ident}"),
            call,
            expect: Expect {
                status: c.expect,
                name: String::new(),
                condition: format!("{} {}", c.file, c.test),
                rule: None,
            },
        });
    }
    (set, unmapped)
}

/// `set` as a gtest written by gen's own emitter into a copy of the op's folder, run through
/// the op's generated C++.
fn run_cases_as_gtest(op: &OpIr, op_dir: &Path, set: &CaseSet) -> (Tally, Option<String>) {
    let snake = snake_case(&op.op);
    let work = tempfile::tempdir().expect("temp dir");
    let copy = work.path().join("ops").join(&snake);
    copy_tree(&op_dir.join("op_api"), &copy.join("op_api"));
    copy_tree(&op_dir.join("../../common"), &work.path().join("common"));
    let files = aclgen::emit::case_files(op, set, &common::ctx()).expect("the gtest renders");
    let test = format!("tests/ut/op_api/test_aclnn_{snake}.cpp");
    let file = files
        .iter()
        .find(|f| f.path.ends_with(&test))
        .expect("a gtest file");
    std::fs::create_dir_all(copy.join("tests/ut/op_api")).expect("mkdir");
    std::fs::write(copy.join(&test), &file.contents).expect("write the gtest");
    let run = build_and_run(&copy, &test, work.path());
    (tally(op, set, &run), run.error)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).expect("copy");
        }
    }
}

#[test]
fn seed_ops_canns_ut_calls_through_the_generated_cpp() {
    if !cxx::available() {
        return;
    }
    let Some(corpus) = common::corpus() else {
        return;
    };
    let calls = ut_calls(&corpus, "ops-nn");
    let (mut all, mut problems, mut unmapped) = (Tally::default(), Vec::new(), 0);
    for op in seed_ir() {
        let dir = common::repo()
            .join("generated/ops")
            .join(snake_case(&op.op));
        let (set, skipped) = ut_cases(&op, &calls);
        unmapped += skipped;
        if set.cases.is_empty() {
            continue;
        }
        let (t, error) = run_cases_as_gtest(&op, &dir, &set);
        print_tally(&format!("{} CANN UT calls", op.op), &t, "CANN");
        if let Some(e) = error {
            problems.push(format!("{}: {e}", op.op));
        }
        all.add(t);
    }
    print_tally(
        &format!("seed ops' CANN UT calls (ops-nn ut-calls.jsonl; {unmapped} not mappable)"),
        &all,
        "CANN",
    );
    for u in &all.unexpected {
        println!("cpp figures:   not CANN's status: {u}");
    }
    assert!(
        all.cases >= 50,
        "only {} UT calls of the seed ops",
        all.cases
    );
    problems.extend(all.differ);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every n-th doc of each dev set in the corpus run.
const CORPUS_STRIDES: [(&str, usize); 2] = [("ops-nn", 15), ("ops-math-dev", 8)];
/// Ops run at once in the corpus run (the machine's cores).
const WORKERS: usize = 2;

/// One op of the corpus run: its synthesized cases and its UT calls, and what did not build.
fn run_corpus_op(op: &OpIr, dir: &Path, calls: &[UtCall]) -> (Tally, Tally, Vec<String>) {
    let mut errors = Vec::new();
    let (synth, e) = run_synthesized(op, dir);
    errors.extend(e.map(|e| format!("{} synthesized: {e}", op.op)));
    let (set, _) = ut_cases(op, calls);
    let ut = if set.cases.is_empty() {
        Tally::default()
    } else {
        let (t, e) = run_cases_as_gtest(op, dir, &set);
        errors.extend(e.map(|e| format!("{} UT calls: {e}", op.op)));
        t
    };
    (synth, ut, errors)
}

/// The op's folder below `ops/`: its own, or its out-of-place op's for a linked in-place
/// function (whose aclnn entry, gtest and cases are there).
fn project(op: &OpIr) -> String {
    snake_case(op.project_op())
}

/// The sample of one dev set: its ops with a generated aclnn layer, run on two workers.
fn corpus_set(corpus: &Path, set: &str, stride: usize) -> (Tally, Tally, Vec<String>, usize) {
    let (docs, _) = common::dev_set_sample(corpus, set, stride, "cpp-layer");
    let out = docs.parent().expect("sample root").join("out/ops");
    // The IR gen made the C++ from (docs of one op merged, rules proven).
    let ops = aclgen::pipeline::load(&docs).expect("the sample loads").ops;
    let ops: Vec<&OpIr> = ops
        .iter()
        .filter(|op| {
            let snake = snake_case(&op.op);
            out.join(project(op))
                .join(format!("op_api/aclnn_{snake}.cpp"))
                .is_file()
        })
        .collect();
    let calls = ut_calls(corpus, set);
    let results: Vec<(Tally, Tally, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let (ops, out, calls) = (&ops, &out, &calls);
                s.spawn(move || {
                    ops.iter()
                        .skip(w)
                        .step_by(WORKERS)
                        .map(|op| run_corpus_op(op, &out.join(project(op)), calls))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    let (mut synth, mut ut, mut errors) = (Tally::default(), Tally::default(), Vec::new());
    for (s, u, e) in results {
        synth.add(s);
        ut.add(u);
        errors.extend(e);
    }
    (synth, ut, errors, ops.len())
}

#[test]
#[ignore = "about 3 minutes on 2 cores: .ci/run runs it and prints its figures"]
fn corpus_cpp_layer() {
    if !cxx::available() {
        return;
    }
    let Some(corpus) = common::corpus() else {
        return;
    };
    let mut problems = Vec::new();
    for (set, stride) in CORPUS_STRIDES {
        let (synth, ut, errors, ops) = corpus_set(&corpus, set, stride);
        let label = format!("{set} sample (every {stride}th doc, {ops} ops with an aclnn layer)");
        print_tally(
            &format!("{label}: synthesized"),
            &synth,
            "the case's status",
        );
        print_tally(&format!("{label}: CANN UT calls"), &ut, "CANN");
        for e in &errors {
            println!("cpp figures:   {}", e.lines().next().unwrap_or(""));
        }
        assert!(ops >= 10, "{set}: only {ops} ops in the sample");
        problems.extend(errors);
        problems.extend(synth.differ);
        problems.extend(ut.differ);
    }
    assert!(
        problems.is_empty(),
        "C++ and Rust must agree on every case of every sampled op:\n{}",
        problems.join("\n")
    );
}
