//! The `gen` command as CI runs it: exit codes, template errors, and freshness of the committed
//! `generated/` tree.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn aclgen(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("aclgen runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn missing_templates_folder_is_exit_2() {
    let out = tempfile::tempdir().unwrap();
    let o = aclgen(
        &[
            "gen",
            "--templates",
            "no/such/templates",
            "--out",
            &out.path().to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("no/such/templates"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

#[test]
fn broken_template_is_exit_2_naming_it() {
    let templates = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(templates.path().join("c")).unwrap();
    std::fs::write(
        templates.path().join("c/aclnn_header.h.tera"),
        "{% for f in functions %}",
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = aclgen(
        &[
            "gen",
            "--templates",
            &templates.path().to_string_lossy(),
            "--out",
            &out.path().to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("aclnn_header.h.tera"),
        "{}",
        text(&o.stderr)
    );
}
