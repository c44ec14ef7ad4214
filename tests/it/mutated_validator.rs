//! A mutated validator — one documented rule deleted from a generated file — makes the generated
//! crate's tests fail, and the failure names the case that exercises that rule. The same copy,
//! unmutated, passes: the failure comes from the deletion, not from the copy.
//!
//! This builds the generated crate in a scratch copy (about a minute the first time; the target
//! folder under `target/` is reused by later runs).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::common::repo;

/// A standalone copy of `generated/rust` whose runtime dependency points back into the repo, next
/// to a copy of `generated/ops` (the op modules' tests read `../../ops/<op>/tests/cases.json`).
fn copy_generated_crate(to: &Path) {
    copy_dir(&repo().join("generated/rust"), to);
    copy_dir(&repo().join("generated/ops"), &to.with_file_name("ops"));
    let manifest = fs::read_to_string(to.join("Cargo.toml")).unwrap();
    let runtime = repo().join("runtime");
    let manifest = manifest.replace(
        "\"../../runtime\"",
        &format!("{:?}", runtime.display().to_string()),
    );
    assert!(
        manifest.contains(&runtime.display().to_string()),
        "runtime path not rewritten:\n{manifest}"
    );
    // Not a member of the repo's workspace: its own.
    fs::write(to.join("Cargo.toml"), manifest + "\n[workspace]\n").unwrap();
    fs::copy(repo().join("Cargo.lock"), to.join("Cargo.lock")).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

/// Deletes the check whose doc comment quotes `condition`: from its comment to its `)?;`.
fn delete_check(source: &str, condition: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines
        .iter()
        .position(|l| {
            l.trim_start().starts_with("// ") && l.contains("(doc)") && l.contains(condition)
        })
        .unwrap_or_else(|| panic!("no check quoting {condition:?}"));
    let end = (start..lines.len())
        .find(|&i| lines[i] == "    )?;")
        .expect("end of the check");
    let mut kept: Vec<&str> = lines[..start].to_vec();
    kept.extend(&lines[end + 1..]);
    kept.join("\n") + "\n"
}

fn cargo_test(dir: &Path) -> Output {
    Command::new(env!("CARGO"))
        .args(["test", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", repo().join("target/mutated-validator"))
        .output()
        .expect("cargo runs")
}

#[test]
fn deleting_a_rule_from_the_generated_validator_fails_its_tests() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("rust");
    copy_generated_crate(&krate);

    let clean = cargo_test(&krate);
    assert!(
        clean.status.success(),
        "the unmutated copy fails:\n{}",
        String::from_utf8_lossy(&clean.stderr)
    );

    let module = krate.join("src/avg_pool2d_backward.rs");
    let source = fs::read_to_string(&module).unwrap();
    let mutated = delete_check(&source, "属性padding超过kernelSize");
    assert!(mutated.len() < source.len() && !mutated.contains("list_elems_at_most_fraction"));
    fs::write(&module, mutated).unwrap();

    let broken = cargo_test(&krate);
    let output = String::from_utf8_lossy(&broken.stdout).into_owned()
        + &String::from_utf8_lossy(&broken.stderr);
    assert!(
        !broken.status.success(),
        "tests still pass with the padding rule deleted:\n{output}"
    );
    assert!(
        output.contains("avg_pool2d_backward::tests::cases_return_documented_status"),
        "{output}"
    );
    assert!(
        output.contains("value_padding_exceeds_kernelSize"),
        "{output}"
    );
}

#[test]
fn delete_check_removes_exactly_one_statement() {
    let source = "fn f() {\n    // 161002 X (doc): keep\n    pred::report(\n        1,\n    )?;\n    // 161002 X (doc): drop me\n    pred::report(\n        2,\n    )?;\n    Ok(())\n}\n";
    let out = delete_check(source, "drop me");
    assert_eq!(out, "fn f() {\n    // 161002 X (doc): keep\n    pred::report(\n        1,\n    )?;\n    Ok(())\n}\n");
}
