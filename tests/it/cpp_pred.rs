//! `generator/emit/cpp/aclgen_check.h`, the C++ port of `aclnn_runtime::pred` that generated
//! `op_api/aclnn_<op>.cpp` files call, so that a rule means the same in Rust and in C++:
//! - it type-checks against CANN's opbase headers (`../shared/cann/cxx-check opapi`, warnings as
//!   errors);
//! - its gtest, `tests/fixtures/cpp/pred_test.cpp`, passes on real opbase tensors, built and run by
//!   `../shared/cann/opapi-ut` (with the messages pred.rs's own tests expect);
//! - the differential: on pseudo-random calls of every public `pred` function (`cpp_pred/cases.rs`)
//!   the C++ functions give exactly the text the Rust ones give.
//!
//! Each test skips with a message where `../shared/cann` is absent. The gtest is built once per
//! `cargo test` run (about 10 s once opapi-ut's runtime is built; the first build of that takes
//! about 90 s).

mod cases;

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Calls per function in the differential.
const CASES_PER_FUNCTION: usize = 150;

fn cann() -> Option<PathBuf> {
    let dir = common::repo().join("../shared/cann");
    if dir.join("opapi-ut/opapi-ut").is_file() && dir.join("cxx-check").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/cann (cxx-check, opapi-ut) is absent");
        None
    }
}

fn header_dir() -> PathBuf {
    common::repo().join("generator/emit/cpp")
}

#[test]
fn cxx_check_accepts_the_header() {
    let Some(cann) = cann() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("uses_aclgen_check.cpp");
    // The header alone, then with the vocabulary definitions aclgen_vocab.h gives, and a few calls.
    let src = r#"#include "aclgen_check.h"
#include "aclgen_check.h"
const char* aclgen::pred::dtype_name(op::DataType) { return "FLOAT32"; }
const char* aclgen::pred::format_name(op::Format) { return "ND"; }
bool check(const aclTensor* self, const aclIntArray* size, const aclScalar* alpha, int64_t dim)
{
    namespace pred = aclgen::pred;
    auto ts = pred::concat({pred::one("self", self)});
    auto sz = pred::arg_int_list("size", pred::arg_of(size));
    std::vector<op::DataType> allowed{op::DataType::DT_FLOAT};
    return pred::report(ACLNN_ERR_PARAM_INVALID, "dtype", pred::dtype_in(ts, &allowed, pred::product())) &&
           pred::report(ACLNN_ERR_PARAM_INVALID, "size", pred::shape_matches_list(ts, "size", sz.value, true)) &&
           pred::report(ACLNN_ERR_PARAM_INVALID, "alpha", pred::scalar_castable("alpha", pred::arg_of(alpha),
                                                                               pred::promoted_dtype(ts))) &&
           pred::report(ACLNN_ERR_PARAM_INVALID, "dim", pred::axis_in("dim", pred::arg_of(dim), ts));
}
"#;
    std::fs::write(&file, src).expect("write");
    let out = Command::new(cann.join("cxx-check"))
        .arg("opapi")
        .arg(&file)
        .args(["--", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(header_dir())
        .output()
        .expect("cxx-check runs");
    assert!(
        out.status.success(),
        "cxx-check opapi rejects aclgen_check.h:\n{}",
        common::text(&out.stderr)
    );
}

/// One build and run of the gtest, with the differential's cases: the two tests below read it.
struct Run {
    ok: bool,
    log: String,
    cases: Vec<cases::Case>,
    results: Vec<String>,
}

fn run() -> Option<&'static Run> {
    static RUN: OnceLock<Option<Run>> = OnceLock::new();
    RUN.get_or_init(|| {
        cann().and_then(|_| common::cann::opapi_ut().map(|tool| build_and_run(&tool)))
    })
    .as_ref()
}

fn build_and_run(tool: &Path) -> Run {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut rng = cases::Rng::new(0x00ac_1de0_5eed);
    let cases: Vec<cases::Case> = cases::FUNCTIONS
        .iter()
        .flat_map(|f| {
            (0..CASES_PER_FUNCTION)
                .map(|_| cases::generate(f, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect();
    let json: Vec<serde_json::Value> = cases.iter().map(cases::Case::to_json).collect();
    let (cases_file, results_file) = (
        dir.path().join("cases.json"),
        dir.path().join("results.txt"),
    );
    std::fs::write(&cases_file, serde_json::to_string(&json).expect("json")).expect("write cases");
    // The op_api "source": the header alone, compiled as ops-nn compiles op_api files.
    let src = dir.path().join("aclgen_pred_src.cpp");
    std::fs::write(&src, "#include \"aclgen_check.h\"\n").expect("write src");
    let out = Command::new(tool)
        .args(["run", "--name", "aclgen_pred", "-I"])
        .arg(header_dir())
        .arg(&src)
        .arg("--")
        .arg(common::repo().join("tests/fixtures/cpp/pred_test.cpp"))
        .env("ACLGEN_PRED_CASES", &cases_file)
        .env("ACLGEN_PRED_RESULTS", &results_file)
        .current_dir(dir.path())
        .output()
        .expect("opapi-ut runs");
    let log = format!(
        "{}\n{}",
        common::text(&out.stdout),
        common::text(&out.stderr)
    );
    let results = std::fs::read_to_string(&results_file)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str::<String>(l).expect("a JSON string per line"))
        .collect();
    Run {
        ok: out.status.success(),
        log,
        cases,
        results,
    }
}

#[test]
fn the_gtest_of_the_header_passes() {
    let Some(run) = run() else { return };
    assert!(run.ok, "pred_test.cpp fails:\n{}", run.log);
    let passed = run
        .log
        .lines()
        .find(|l| l.starts_with("[  PASSED  ]"))
        .unwrap_or_else(|| panic!("no gtest summary:\n{}", run.log));
    let count: usize = passed
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .expect("a count of tests");
    assert!(count >= 35, "only {count} tests ran:\n{}", run.log);
    assert!(!run.log.contains("[  FAILED  ]"), "{}", run.log);
}

#[test]
fn cpp_pred_gives_what_rust_pred_gives() {
    let Some(run) = run() else { return };
    assert_eq!(
        run.results.len(),
        run.cases.len(),
        "the C++ side answered {} of {} cases:\n{}",
        run.results.len(),
        run.cases.len(),
        run.log
    );
    let mut differ = Vec::new();
    for (case, got) in run.cases.iter().zip(&run.results) {
        let want = cases::expected(case);
        if *got != want {
            differ.push(format!(
                "{}: Rust {want:?}, C++ {got:?}\n  case {}",
                case.f,
                case.to_json()
            ));
        }
    }
    // Every function is called, and its cases reach more than one outcome where it has more.
    for f in cases::FUNCTIONS {
        let outcomes: std::collections::BTreeSet<&str> = run
            .cases
            .iter()
            .zip(&run.results)
            .filter(|(c, _)| c.f == *f)
            .map(|(_, r)| r.split(':').next().unwrap_or(""))
            .collect();
        assert!(
            outcomes.len() >= 2 || *f == "not_a_tensor",
            "{f}: every case gave {outcomes:?}"
        );
    }
    assert!(
        differ.is_empty(),
        "{} of {} cases differ; the first:\n{}",
        differ.len(),
        run.cases.len(),
        differ
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
