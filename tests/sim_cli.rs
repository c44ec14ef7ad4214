//! `aclgen sim` end to end: `gen` writes the op's project from a spec, `sim` compiles the
//! GENERATED sources with the body from kernels/, runs the docs' call example and writes the
//! output file; bad cases exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn aclgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(repo())
        // Share compiled simulations with the other sim tests.
        .env("CARGO_TARGET_DIR", env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("aclgen runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The call example of the AvgPool2dBackward doc, with data files.
fn write_case(dir: &Path, with_self_data: bool) -> PathBuf {
    std::fs::write(dir.join("grad.bin"), floats(&[16.0; 16])).expect("write");
    if with_self_data {
        std::fs::write(dir.join("self.bin"), floats(&[0.5; 256])).expect("write");
    }
    let case = serde_json::json!({"product": "ascend910b", "args": {
        "gradOutput": {"shape": [1, 16, 1, 1], "dtype": "FLOAT32", "format": "NCHW", "data": "grad.bin"},
        "self": {"shape": [1, 16, 4, 4], "dtype": "FLOAT32", "format": "NCHW", "data": "self.bin"},
        "kernelSize": [4, 4], "stride": [1, 1], "padding": [0, 0], "ceilMode": false,
        "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1,
        "gradInput": {"shape": [1, 16, 4, 4], "dtype": "FLOAT32", "format": "NCHW", "data": "out.bin"}}});
    let path = dir.join("case.json");
    std::fs::write(&path, case.to_string()).expect("write case");
    path
}

#[test]
fn gen_then_sim_runs_the_generated_project() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let generated = tmp.path().join("generated");
    let specs = repo().join("tests/fixtures/specs");
    let g = aclgen(&[
        "gen",
        "--specs",
        specs.to_str().expect("utf-8"),
        "--out",
        generated.to_str().expect("utf-8"),
    ]);
    assert_eq!(g.status.code(), Some(0), "{}", text(&g.stderr));
    let kernel = generated.join("ops/avg_pool2d_backward/op_kernel/avg_pool2d_backward.cpp");
    let kernel_text = std::fs::read_to_string(&kernel).expect("gen wrote the kernel");
    assert!(kernel_text.contains("#include \"avg_pool2d_backward_body.h\""));

    let case_dir = tmp.path().join("case");
    std::fs::create_dir_all(&case_dir).expect("mkdir");
    let case = write_case(&case_dir, true);
    let args = |case: &Path| {
        vec![
            "sim".to_string(),
            "--op".into(),
            "AvgPool2dBackward".into(),
            "--call".into(),
            case.to_string_lossy().into_owned(),
            "--specs".into(),
            specs.to_string_lossy().into_owned(),
            "--generated".into(),
            generated.to_string_lossy().into_owned(),
        ]
    };
    let run = |case: &Path| {
        let a = args(case);
        aclgen(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&case);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    assert_eq!(summary["status"], "ok", "{summary}");
    assert_eq!(summary["op"], "AvgPool2dBackward");
    // 16 planes x 4 rows: 64 units over 48 cores → 2 units per core on 32 cores.
    assert_eq!(summary["block_dim"], 32, "{summary}");
    assert!(summary["ub_bytes_per_core"].as_u64().expect("ub") > 0);
    let out = std::fs::read(case_dir.join("out.bin")).expect("output written");
    assert_eq!(out, floats(&[1.0; 256]));

    // A tensor without its data file: exit 2, nothing written.
    std::fs::remove_file(case_dir.join("out.bin")).expect("rm");
    std::fs::remove_file(case_dir.join("self.bin")).expect("rm");
    let o = run(&case);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("self"), "{}", text(&o.stderr));
    assert!(!case_dir.join("out.bin").exists());
}

#[test]
fn sim_of_an_unknown_op_is_exit_2() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let case = write_case(tmp.path(), true);
    let specs = repo().join("tests/fixtures/specs");
    let o = aclgen(&[
        "sim",
        "--op",
        "NoSuchOp",
        "--call",
        case.to_str().expect("utf-8"),
        "--specs",
        specs.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("NoSuchOp"), "{}", text(&o.stderr));
}
