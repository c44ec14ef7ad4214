//! The corpus self-test: gen on docs this repository does not ship, then the artifacts pass
//! their own checks. For each of `../shared/corpus/ops-nn/docs` and `ops-nn-2025-12/docs` (two
//! runs: their file names collide), gen into a temp folder, then build the generated validators
//! crate, run its tests and clippy on it. Skipped with a message where `../shared/corpus` is
//! absent. The generated C++ of a sample of the same docs is type-checked on the project's
//! stand-ins by `cpp_typecheck`. Figures are printed (`cargo test --test it corpus_selftest::
//! -- --nocapture`); any failure fails the test.

use crate::common::{self, text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpora, relative to `../shared/corpus`.
const CORPORA: &[&str] = &["ops-nn/docs", "ops-nn-2025-12/docs"];

#[test]
fn gen_on_canns_docs_builds_a_crate_whose_tests_and_clippy_pass() {
    let Some(corpus) = common::corpus() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    // One target folder for both runs and across test runs: the dependencies build once.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus_selftest_target");
    for name in CORPORA {
        let docs = corpus.join(name);
        if !docs.is_dir() {
            println!("skipped {name}: not in ../shared/corpus");
            continue;
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let summary = gen_corpus(&docs, tmp.path());
        println!("corpus self-test, {name}: {summary}");
        let manifest = standalone_crate(tmp.path());
        let tests = cargo(&manifest, &target, &["test", "-q"]);
        println!("  validators crate tests: {}", last_result(&tests));
        cargo(
            &manifest,
            &target,
            &["clippy", "-q", "--all-targets", "--", "-D", "warnings"],
        );
        println!("  clippy -D warnings: clean");
    }
}

/// Runs gen on `docs` into `dir/out`; returns its summary and proof lines. gen exits 1 where
/// some doc has errors (those ops are refused and named), never 2.
fn gen_corpus(docs: &Path, dir: &Path) -> String {
    let kernels = dir.join("kernels");
    std::fs::create_dir_all(&kernels).expect("mkdir kernels");
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(["gen", "--specs"])
        .arg(docs)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--kernels")
        .arg(&kernels)
        .arg("--templates")
        .arg(common::repo().join("templates"))
        .output()
        .expect("run aclgen gen");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "gen failed ({:?}): {stderr}",
        out.status
    );
    let proof = stderr
        .lines()
        .filter(|l| l.starts_with("gen: "))
        .collect::<Vec<_>>()
        .join("; ");
    format!("{}; {proof}", stdout.trim())
}

/// The generated crate made buildable on its own: its `../../runtime` dependency points at this
/// repository's runtime (sources linked, a manifest that does not inherit from this workspace),
/// and it is a workspace of its own.
fn standalone_crate(dir: &Path) -> PathBuf {
    let runtime = common::repo().join("runtime");
    std::fs::create_dir_all(dir.join("runtime")).expect("mkdir runtime");
    std::os::unix::fs::symlink(runtime.join("src"), dir.join("runtime/src")).expect("symlink");
    let toml = std::fs::read_to_string(runtime.join("Cargo.toml"))
        .expect("runtime manifest")
        .replace("edition.workspace = true", "edition = \"2021\"")
        .replace("license.workspace = true", "license = \"Apache-2.0\"");
    std::fs::write(dir.join("runtime/Cargo.toml"), toml).expect("runtime manifest");
    let manifest = dir.join("out/rust/Cargo.toml");
    let mut crate_toml = std::fs::read_to_string(&manifest).expect("crate manifest");
    crate_toml.push_str("\n[workspace]\n");
    std::fs::write(&manifest, crate_toml).expect("crate manifest");
    manifest
}

fn cargo(manifest: &Path, target: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(&args[..1])
        .arg("--manifest-path")
        .arg(manifest)
        .arg("--offline")
        .args(&args[1..])
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("run cargo");
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "cargo {args:?} failed:\n{all}");
    all
}

/// The `test result:` line of the crate's unit tests.
fn last_result(output: &str) -> String {
    output
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .find(|l| !l.contains(" 0 passed"))
        .unwrap_or("no test result")
        .to_string()
}
