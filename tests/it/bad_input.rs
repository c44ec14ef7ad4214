//! Bad input everywhere: every kind of broken input ends in a clear message with its location and
//! the documented exit code (1 = problems in the input, 2 = usage or I/O), never a panic and never
//! a half-written file. Hand-edited generated files, escaping op names and missing kernel bodies
//! have their own tests in gen_cli.rs, sim_cli.rs and kernel_sources.rs.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::repo;
use aclgen::fixture::seed;

fn aclgen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("aclgen runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit code of a run, failing the test on a panic (Rust exits 101 and prints "panicked").
fn code(o: &Output) -> i32 {
    assert!(!stderr(o).contains("panicked"), "panic: {}", stderr(o));
    o.status.code().expect("exited normally")
}

/// `aclgen validate --op AvgPool2dBackward --call call.json` in `dir`, on the project's specs.
fn validate_call_json(dir: &Path) -> Output {
    let specs = repo().join("specs");
    let args = [
        "validate",
        "--op",
        "AvgPool2dBackward",
        "--call",
        "call.json",
        "--specs",
        specs.to_str().unwrap(),
    ];
    aclgen(dir, &args)
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["show", "lint"] {
        let o = aclgen(dir.path(), &[cmd, "no-such-doc.md"]);
        assert_eq!(code(&o), 2, "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("no-such-doc.md"),
            "{cmd}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_dangling_symlink_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone.md"), dir.path().join("link.md")).unwrap();
    let o = aclgen(dir.path(), &["lint", "link.md"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("link.md"), "{}", stderr(&o));
}

#[test]
fn a_folder_where_a_file_is_expected_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("call.json")).unwrap();
    let o = validate_call_json(dir.path());
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("call.json"), "{}", stderr(&o));
}

#[test]
fn damaged_encodings_are_read_with_diagnostics_on_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    let doc = seed("000-aclnnAdaptiveAvgPool3dBackward.txt");
    // Invalid UTF-8 in the middle of line 3, a truncated character at the end.
    let mut invalid = doc.clone();
    let third_line = invalid
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    invalid.insert(third_line, 0xFF);
    invalid.extend_from_slice(&"产".as_bytes()[..2]);
    fs::write(dir.path().join("invalid.md"), &invalid).unwrap();
    let o = aclgen(dir.path(), &["lint", "--format", "json", "invalid.md"]);
    assert!(matches!(code(&o), 0 | 1), "{}", stderr(&o));
    let diags: serde_json::Value =
        serde_json::from_str(&stdout(&o)).expect("lint --format json prints JSON");
    let text = diags.to_string();
    assert!(text.contains("invalid-utf8"), "{text}");
    assert!(text.contains("\"line\":3"), "{text}");

    // UTF-16LE with BOM and UTF-8 with BOM read like the original.
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in String::from_utf8(doc.clone()).unwrap().encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    fs::write(dir.path().join("utf16.md"), &utf16).unwrap();
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(&doc);
    fs::write(dir.path().join("bom.md"), &bom).unwrap();
    for name in ["utf16.md", "bom.md"] {
        let o = aclgen(dir.path(), &["show", name]);
        assert_eq!(code(&o), 0, "{name}: {}", stderr(&o));
        let ops: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(ops[0]["op"], "AdaptiveAvgPool3dBackward", "{name}");
        assert_eq!(ops[0]["params"].as_array().map(Vec::len), Some(5), "{name}");
    }
}

#[test]
fn empty_and_binary_files_are_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("empty.md"), b"").unwrap();
    let binary: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    fs::write(dir.path().join("binary.md"), binary).unwrap();
    for name in ["empty.md", "binary.md"] {
        let o = aclgen(dir.path(), &["lint", name]);
        assert_eq!(code(&o), 1, "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(name) || stderr(&o).contains(name),
            "{name}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }
}

#[test]
fn yaml_with_unknown_keys_or_wrong_types_names_the_key_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = "kind: overlay\nop: AvgPool2dBackward\nreason: test\nparamz:\n  self: {}\n";
    let wrong_type = "kind: overlay\nop: AvgPool2dBackward\nreason: test\nproducts: 7\n";
    for (name, text, needle, line) in [
        ("unknown.yaml", unknown, "paramz", ":4"),
        ("wrong.yaml", wrong_type, "products", ":4"),
    ] {
        fs::write(dir.path().join(name), text).unwrap();
        let o = aclgen(dir.path(), &["lint", name]);
        assert_eq!(code(&o), 1, "{name}: {}", stderr(&o));
        let all = stdout(&o) + &stderr(&o);
        assert!(all.contains(needle), "{name}: {all}");
        assert!(all.contains(&format!("{name}{line}")), "{name}: {all}");
    }
}

#[test]
fn gen_with_a_broken_yaml_writes_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    fs::create_dir_all(specs.join("docs")).unwrap();
    fs::create_dir_all(specs.join("ops")).unwrap();
    fs::write(specs.join("ops/Broken.yaml"), "kind: full\nop: [unclosed\n").unwrap();
    let o = aclgen(
        dir.path(),
        &[
            "gen",
            "--specs",
            "specs",
            "--out",
            "out",
            "--kernels",
            repo().join("kernels").to_str().unwrap(),
            "--templates",
            repo().join("templates").to_str().unwrap(),
        ],
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("Broken.yaml:3:1"), "{}", stderr(&o));
    let leftovers: Vec<_> = walk(&dir.path().join("out"))
        .into_iter()
        .filter(|p| !p.ends_with(".aclgen-manifest"))
        .collect();
    // Atomic writes go through temp files named `.tmp*` beside their target: none may remain.
    let partial = |p: &PathBuf| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(".tmp"))
    };
    assert!(!leftovers.iter().any(partial), "{leftovers:?}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_malformed_call_json_is_a_usage_error_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("call.json"),
        r#"{"product": "ascend910b", "args": {"self": {"shape": "x", "dtype": "FLOAT32"}}}"#,
    )
    .unwrap();
    let o = validate_call_json(dir.path());
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("self"), "{}", stderr(&o));
}
