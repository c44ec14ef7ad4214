//! `generator/emit/cpp/aclgen_check.h`, the C++ port of `aclnn_runtime::pred` that generated
//! `op_api/aclnn_<op>.cpp` files call, so that a rule means the same in Rust and in C++, on the
//! project's stand-ins for opbase (`tests/standins`, no CANN needed):
//! - it type-checks (`g++ -std=c++17 -Wall -Wextra -Werror`), and against a CANN toolkit's
//!   headers where one is installed;
//! - its gtest, `tests/fixtures/cpp/pred_test.cpp`, passes (with the messages pred.rs's own
//!   tests expect), built with Debian's gtest;
//! - the differential: on pseudo-random calls of every public `pred` function (`cpp_pred/cases.rs`)
//!   the C++ functions give exactly the text the Rust ones give;
//! - every public function of `runtime/src/pred/` has its C++ twin in the header.
//!
//! Each test skips with a message where g++, gtest or nlohmann-json is absent. The gtest is
//! built once per `cargo test` run (its objects are cached in the target folder).

mod cases;

use crate::common::{self, cxx};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Calls per function in the differential.
const CASES_PER_FUNCTION: usize = 150;

/// A source using the header alone, then with the vocabulary definitions aclgen_vocab.h gives,
/// and a few calls.
const USES_THE_HEADER: &str = r#"#include "aclgen_check.h"
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

fn header_dir() -> PathBuf {
    cxx::check_header_dir()
}

/// `g++ -fsyntax-only -Wextra` of [`USES_THE_HEADER`] against `headers`.
fn type_check(headers: &cxx::Headers) -> cxx::Compiled {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("uses_aclgen_check.cpp");
    std::fs::write(&file, USES_THE_HEADER).expect("write");
    let mut includes = headers.includes();
    includes.push(header_dir());
    cxx::compile(dir.path(), &file, &includes, &["-Wextra".to_string()], None)
}

#[test]
fn the_header_type_checks_against_the_stand_ins() {
    if !cxx::available() {
        return;
    }
    let c = type_check(&cxx::Headers::StandIns);
    assert!(
        c.ok,
        "aclgen_check.h does not type-check on the stand-ins:\n{}",
        c.error
    );
}

#[test]
fn the_header_type_checks_against_a_toolkit() {
    let Some(toolkit) = cxx::toolkit_headers() else {
        return;
    };
    let c = type_check(&toolkit);
    assert!(
        c.ok,
        "aclgen_check.h does not type-check on {}:\n{}",
        toolkit.label(),
        c.error
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
    RUN.get_or_init(|| cxx::available().then(build_and_run))
        .as_ref()
}

/// The gtest binary of `pred_test.cpp` on the stand-ins.
fn build(dir: &Path) -> PathBuf {
    let test = common::repo().join("tests/fixtures/cpp/pred_test.cpp");
    let obj = dir.join("pred_test.o");
    let includes = [cxx::standins(), header_dir()];
    let c = cxx::compile(dir, &test, &includes, &["-Wextra".to_string()], Some(&obj));
    assert!(
        c.ok,
        "pred_test.cpp does not compile on the stand-ins:\n{}",
        c.error
    );
    let exe = dir.join("pred_test");
    let l = cxx::link_gtest(&[obj], &exe);
    assert!(l.ok, "pred_test does not link:\n{}", l.error);
    exe
}

fn build_and_run() -> Run {
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
    let exe = build(dir.path());
    let out = Command::new(&exe)
        .env("ACLGEN_PRED_CASES", &cases_file)
        .env("ACLGEN_PRED_RESULTS", &results_file)
        .current_dir(dir.path())
        .output()
        .expect("the gtest runs");
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
    println!(
        "cpp figures: differential on the stand-ins: {} calls of {} pred functions, {} agree",
        run.cases.len(),
        cases::FUNCTIONS.len(),
        run.cases.len() - differ.len()
    );
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

/// Rust functions whose C++ twin has another name, and why.
const RENAMED_TWINS: [(&str, &str); 1] = [
    // The vocabulary's table lives in the generated aclgen_vocab.h; the C++ returns a bool and
    // writes the dtype, as C++ has no Option of an enum that C code also reads.
    ("acl_number_dtype", "dtype_of_acl_number"),
];

#[test]
fn every_public_pred_function_has_its_cpp_twin() {
    // The predicates are `runtime/src/pred/` (mod.rs and a file per aspect).
    let rust: String = common::files_with_ext(&common::repo().join("runtime/src/pred"), "rs")
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("a pred source"))
        .collect();
    let cpp = std::fs::read_to_string(header_dir().join("aclgen_check.h")).expect("aclgen_check.h");
    let public: Vec<&str> = rust
        .lines()
        .filter_map(|l| l.strip_prefix("pub fn "))
        .filter_map(|rest| rest.split(['(', '<']).next())
        .collect();
    assert!(
        public.len() >= 50,
        "only {} public functions found in runtime/src/pred/",
        public.len()
    );
    let missing: Vec<&str> = public
        .iter()
        .map(|f| {
            RENAMED_TWINS
                .iter()
                .find(|(r, _)| r == f)
                .map_or(*f, |(_, c)| *c)
        })
        .filter(|f| {
            // A definition or declaration: the name followed by `(` after a return type.
            !cpp.lines().any(|l| {
                let l = l.trim_start();
                !l.starts_with("//")
                    && l.find(&format!(" {f}("))
                        .is_some_and(|i| !l[..i].contains('='))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "pred functions without a C++ twin in aclgen_check.h: {missing:?}"
    );
}
