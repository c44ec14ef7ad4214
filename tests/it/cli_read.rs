//! `aclgen show` and `aclgen lint`: output formats and exit codes (0 fine, 1 input errors, 2 I/O).

use std::process::Command;

fn aclgen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("aclgen runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn show_prints_a_json_array_of_ops_and_diagnostics_on_stderr() {
    let (code, out, err) = aclgen(&["show", "specs/docs/001-aclnnAdaptiveMaxPool3dBackward.txt"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v[0]["op"], "AdaptiveMaxPool3dBackward");
    assert_eq!(
        v[0]["functions"][0]["params"][0]["type"],
        "const aclTensor*"
    );
    assert!(
        err.contains("001-aclnnAdaptiveMaxPool3dBackward.txt:7:1: warning[damaged-product]"),
        "{err}"
    );
}

#[test]
fn show_a_folder_reads_every_doc_sorted_and_yaml_works() {
    // A folder of the seed docs (a team's own docs in specs/docs are theirs).
    let dir = tempfile::tempdir().expect("tempdir");
    for doc in aclgen::fixture::seed_docs() {
        std::fs::copy(&doc, dir.path().join(doc.file_name().unwrap())).expect("copy");
    }
    let (code, out, _) = aclgen(&["show", dir.path().to_str().unwrap(), "--format", "yaml"]);
    assert_eq!(code, 0);
    let v: serde_yaml::Value = serde_yaml::from_str(&out).expect("YAML on stdout");
    let ops: Vec<&str> = v
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|o| o["op"].as_str())
        .collect();
    assert_eq!(ops[0], "AdaptiveAvgPool3dBackward");
    assert_eq!(ops.len(), 5);
}

#[test]
fn lint_renders_locations_and_exit_codes() {
    let (code, out, _) = aclgen(&["lint", "specs/docs"]);
    assert_eq!(code, 0);
    assert!(out.contains("warning[name-mismatch]"), "{out}");
    assert!(
        out.contains("001-aclnnAdaptiveMaxPool3dBackward.txt:45:5"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("empty.md");
    std::fs::write(&bad, b"").unwrap();
    let (code, out, _) = aclgen(&["lint", bad.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "no-prototype"));
    let (code, _, err) = aclgen(&["lint", "no/such/file.md"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn show_reads_yaml_specs_through_the_spec_reader() {
    let (code, out, err) = aclgen(&["show", "tests/fixtures/specs/ops/Relu.yaml"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v[0]["op"], "Relu");
}

/// Seed 003 with one typo at its line: (typo, line, diagnostic code).
const TYPOS: &[(&str, &str, usize, &str)] = &[
    (
        "const aclTensor* gradOutput, const aclTensor* self,",
        "onst aclTensor* gradOutput, const aclTensor* self,",
        34,
        "unknown-c-type",
    ),
    (
        "const aclTensor* self, const aclIntArray* kernelSize",
        "const aclTensor* self const aclIntArray* kernelSize",
        34,
        "unknown-c-type",
    ),
    (
        "aclnnAvgPool2dBackwardGetWorkspaceSize(const",
        "aclnnAvgPool2dBackwardGetWorkspaceSze(const",
        34,
        "no-prototype",
    ),
    (
        "数据类型支持BFLOAT16、FLOAT16、FLOAT32。",
        "数据类型支持BFLOAT16、FLAOT16、FLOAT32。",
        42,
        "unknown-dtype",
    ),
];

/// What gen refuses, lint reports as an error at the offending line, and gen names the same
/// file:line; lint --errors-only shows just the errors.
#[test]
fn lint_reports_what_gen_refuses_at_the_same_line() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("specs/docs/003-aclnnAvgPool2dBackward.txt"),
    )
    .expect("seed");
    let templates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    for (from, to, line, code) in TYPOS {
        assert!(doc.contains(from), "{from}");
        let project = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(project.path().join("specs/docs")).expect("mkdir");
        let path = project.path().join("specs/docs/a.md");
        std::fs::write(&path, doc.replacen(from, to, 1)).expect("write");
        let place = format!("a.md:{line}:");
        let (status, out, err) = aclgen(&["lint", &path.to_string_lossy(), "--errors-only"]);
        assert_eq!(status, 1, "{code}: {out}{err}");
        assert!(out.contains(&format!("error[{code}]")), "{code}: {out}");
        assert!(out.contains(&place), "{code}: {out}");
        assert!(!out.contains("warning["), "--errors-only: {out}");
        let gen = std::process::Command::new(env!("CARGO_BIN_EXE_aclgen"))
            .args(["gen", "--templates", &templates.to_string_lossy()])
            .current_dir(project.path())
            .output()
            .expect("gen runs");
        let gen_err = String::from_utf8_lossy(&gen.stderr);
        assert_eq!(gen.status.code(), Some(1), "{code}: {gen_err}");
        assert!(
            gen_err.contains(&format!("error[{code}]")),
            "{code}: {gen_err}"
        );
        assert!(gen_err.contains(&place), "{code}: {gen_err}");
        // Nothing is generated for the op, not even a module the crate root does not declare.
        assert!(!project
            .path()
            .join("generated/rust/src/avg_pool2d_backward.rs")
            .exists());
    }
}

/// `aclgen show … | head` closes the pipe early: aclgen ends quietly, never with a panic.
#[test]
fn a_closed_stdout_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(["show", "specs/docs"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("aclgen runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("aclgen ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

/// A specs folder in a tempdir: the fixture doc `aclnnScale.md` in `docs/`, and `overlays` (file
/// name, text) in `ops/`.
fn specs_with_overlays(overlays: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(specs.join("docs")).unwrap();
    std::fs::create_dir_all(specs.join("ops")).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/docs");
    std::fs::copy(
        fixture.join("aclnnScale.md"),
        specs.join("docs/aclnnScale.md"),
    )
    .unwrap();
    for (name, text) in overlays {
        std::fs::write(specs.join("ops").join(name), text).unwrap();
    }
    dir
}

const UNKNOWN_PARAM: &str =
    "kind: overlay\nop: Scale\nreason: r\nparams:\n  selff:\n    optional: true\n";
const UNKNOWN_OP: &str = "kind: overlay\nop: Scal\nreason: r\n";

/// lint = gen: an overlay gen refuses (`spec-invalid`) is an error of lint at its line, whether
/// lint is given the specs folder or the overlay file itself.
#[test]
fn lint_of_a_specs_folder_reports_an_overlay_naming_what_no_doc_has() {
    let dir = specs_with_overlays(&[("Scale.yaml", UNKNOWN_PARAM), ("Scal.yaml", UNKNOWN_OP)]);
    let specs = dir.path().join("specs");
    let (code, out, err) = aclgen(&["lint", specs.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("error[spec-invalid]"), "{out}");
    assert!(out.contains("ops/Scale.yaml:5"), "{out}");
    assert!(out.contains("parameter `selff` is not in the doc"), "{out}");
    assert!(out.contains("ops/Scal.yaml:2"), "{out}");
    assert!(out.contains("no doc describes"), "{out}");
    // The overlay file alone: its own diagnostics, as its specs folder gives them.
    let file = specs.join("ops/Scale.yaml");
    let (code, out, _) = aclgen(&["lint", file.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let diags = v.as_array().unwrap();
    assert!(
        diags
            .iter()
            .all(|d| d["file"].as_str().unwrap().ends_with("ops/Scale.yaml")),
        "{out}"
    );
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "spec-invalid" && d["line"] == 5),
        "{out}"
    );
}

/// `show` of a specs folder is the merged IR gen uses: overlays applied, one JSON array.
#[test]
fn show_of_a_specs_folder_prints_the_merged_ir() {
    let overlay = "kind: overlay\nop: Scale\nreason: r\nparams:\n  self:\n    dtypes:\n      ascend910b: [FLOAT32]\n";
    let dir = specs_with_overlays(&[("Scale.yaml", overlay)]);
    let specs = dir.path().join("specs");
    let (code, out, err) = aclgen(&["show", specs.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON array");
    let ops = v.as_array().unwrap();
    assert_eq!(ops.len(), 1, "{out}");
    assert_eq!(ops[0]["op"], "Scale");
    assert!(ops[0]["sources"][1]
        .as_str()
        .unwrap()
        .ends_with("ops/Scale.yaml"));
    assert_eq!(
        ops[0]["params"][0]["dtypes"]["ascend910b"],
        serde_json::json!(["FLOAT32"])
    );
    // The rules stage ran, as for gen.
    assert!(ops[0]["errors"][0]["mapping"].is_object(), "{out}");
}
