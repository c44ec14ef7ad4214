//! `aclgen import DOC... [--out DIR]`: one full YAML spec per op, deterministic, atomic, with the
//! issue's exit codes (0 fine, 1 errors in the input, 2 usage or I/O).

use crate::common;

use std::path::Path;

use common::{aclgen_in as aclgen, text};

/// The seed docs of `specs/docs` (a team's own docs beside them are not the project's).
fn seed_docs() -> Vec<String> {
    aclgen::fixture::seed_docs()
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn seeds_import_to_one_spec_per_op_deterministically() {
    let out = tempfile::tempdir().expect("tempdir");
    let out_dir = out.path().join("ops");
    let mut args = vec!["import".to_string()];
    args.extend(seed_docs());
    args.extend(["--out".to_string(), out_dir.to_string_lossy().into_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let first = aclgen(&args, &common::repo());
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert_eq!(
        listing(&out_dir),
        [
            "AdaptiveAvgPool2dBackward.yaml",
            "AdaptiveAvgPool3dBackward.yaml",
            "AdaptiveMaxPool3dBackward.yaml",
            "AvgPool2dBackward.yaml"
        ]
    );
    // The two AvgPool2dBackward docs were reconciled, and the differences reported.
    assert!(text(&first.stderr).contains("docs-differ"));
    let spec = std::fs::read_to_string(out_dir.join("AvgPool2dBackward.yaml")).expect("spec");
    assert!(spec.contains("kind: full"), "{spec}");
    assert!(spec.contains("ascend950"), "{spec}");
    let again = aclgen(&args, &common::repo());
    assert_eq!(again.status.code(), Some(0));
    let spec_again = std::fs::read_to_string(out_dir.join("AvgPool2dBackward.yaml")).expect("spec");
    assert_eq!(spec, spec_again);
    assert_eq!(listing(&out_dir).len(), 4, "temporary files left behind");

    // What import writes, show reads back without a diagnostic.
    let path = out_dir.join("AvgPool2dBackward.yaml");
    let shown = aclgen(
        &["show", &path.to_string_lossy(), "--format", "json"],
        &common::repo(),
    );
    assert_eq!(shown.status.code(), Some(0), "{}", text(&shown.stderr));
    let json: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("json");
    let op = if json.is_array() { &json[0] } else { &json };
    assert_eq!(op["op"], "AvgPool2dBackward");
    assert_eq!(op["diagnostics"].as_array().map(Vec::len), Some(0), "{op}");
}

#[test]
fn missing_doc_is_exit_2_and_writes_nothing() {
    let out = tempfile::tempdir().expect("tempdir");
    let out_dir = out.path().join("ops");
    let o = aclgen(
        &[
            "import",
            "no/such/doc.md",
            "--out",
            &out_dir.to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("no/such/doc.md"));
    assert!(!out_dir.exists());
}

#[test]
fn out_that_is_a_file_is_exit_2() {
    let out = tempfile::tempdir().expect("tempdir");
    let file = out.path().join("taken");
    std::fs::write(&file, "x").expect("write");
    let docs = seed_docs();
    let o = aclgen(
        &["import", &docs[0], "--out", &file.to_string_lossy()],
        &common::repo(),
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "x");
}

#[test]
fn doc_with_errors_is_exit_1() {
    let out = tempfile::tempdir().expect("tempdir");
    let doc = out.path().join("binary.md");
    std::fs::write(&doc, b"\x00\x01\x02 not a doc \x00\n").expect("write");
    let out_dir = out.path().join("ops");
    let o = aclgen(
        &[
            "import",
            &doc.to_string_lossy(),
            "--out",
            &out_dir.to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(!out_dir.exists());
}

#[test]
fn import_keeps_a_hand_written_overlay_and_names_it() {
    // The new user's path: import a shipped doc into the default specs/ops, where its overlay is.
    let project = tempfile::tempdir().expect("tempdir");
    let ops = project.path().join("specs/ops");
    std::fs::create_dir_all(&ops).expect("mkdir");
    let overlay = common::repo().join("specs/ops/AvgPool2dBackward.yaml");
    let mine = std::fs::read_to_string(&overlay).expect("overlay");
    std::fs::write(ops.join("AvgPool2dBackward.yaml"), &mine).expect("write");
    let doc = common::repo().join("specs/docs/003-aclnnAvgPool2dBackward.txt");
    let o = aclgen(&["import", &doc.to_string_lossy()], project.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(stderr.contains("import-overwrite"), "{stderr}");
    assert!(stderr.contains("AvgPool2dBackward.yaml"), "{stderr}");
    let kept = std::fs::read_to_string(ops.join("AvgPool2dBackward.yaml")).expect("read");
    assert_eq!(kept, mine);
    // With --force the user says so explicitly.
    let forced = aclgen(
        &["import", &doc.to_string_lossy(), "--force"],
        project.path(),
    );
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    let now = std::fs::read_to_string(ops.join("AvgPool2dBackward.yaml")).expect("read");
    assert!(now.contains("kind: full"), "{now}");
}
