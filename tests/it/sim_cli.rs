//! `aclgen sim` end to end: `gen` writes the op's project from a spec, `sim` compiles the
//! GENERATED sources unchanged on aclgen's own Ascend C runtime and AI Core model (no CANN),
//! runs the docs' call example and writes the output file; bad cases exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::repo;

fn aclgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aclgen"))
        .args(args)
        .current_dir(repo())
        // Share compiled simulations with the other sim tests.
        .env("CARGO_TARGET_DIR", env!("CARGO_TARGET_TMPDIR"))
        .env_remove("ASCEND_HOME_PATH")
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

/// The JSON summary kernels/README.md shows for its CASE.json example.
fn readme_summary() -> serde_json::Value {
    let readme = std::fs::read_to_string(repo().join("kernels/README.md")).expect("README");
    let from = readme
        .find("prints a JSON summary:")
        .expect("summary in README");
    let rest = &readme[from..];
    let start = rest.find("```json\n").expect("json block") + "```json\n".len();
    let end = rest[start..].find("```").expect("closed block");
    serde_json::from_str(&rest[start..start + end]).expect("README summary is JSON")
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
    // The body is filled in (the project needs nothing from kernels/), its lines named as theirs.
    assert!(!kernel_text.contains("#include \"avg_pool2d_backward_body.h\""));
    assert!(
        kernel_text.contains("#line 1 \"kernels/avg_pool2d_backward/avg_pool2d_backward_body.h\"")
    );

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
    // 16 planes of 4x4: a plane is one block (fewer planes than cores would split a plane, but a
    // block of a split plane holds whole 32-byte blocks: 4 rows of 4) → 16 units on 16 cores.
    assert_eq!(summary["block_dim"], 16, "{summary}");
    assert!(summary["ub_bytes_per_core"].as_u64().expect("ub") > 0);
    // kernels/README.md shows this run's summary: it must be what sim prints.
    let mut shown = readme_summary();
    let mut printed = summary.clone();
    for v in [&mut shown, &mut printed] {
        v.as_object_mut().expect("object").remove("binary_cached");
    }
    assert_eq!(printed, shown, "kernels/README.md shows another summary");
    let out = std::fs::read(case_dir.join("out.bin")).expect("output written");
    assert_eq!(out, floats(&[1.0; 256]));

    // --cores 3: the tiling sees 3 vector cores; 64 units → 22 per core on 3 cores.
    let mut a = args(&case);
    a.extend(["--cores".into(), "3".into()]);
    let o = aclgen(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    assert_eq!(summary["block_dim"], 3, "{summary}");
    assert_eq!(
        std::fs::read(case_dir.join("out.bin")).expect("written"),
        floats(&[1.0; 256])
    );

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

/// `gen` from the project's own specs/ (the seed docs read by the reader) into `out`.
fn gen_seed_project(out: &Path) {
    let g = aclgen(&["gen", "--out", out.to_str().expect("utf-8")]);
    assert_eq!(g.status.code(), Some(0), "{}", text(&g.stderr));
}

fn sim(op: &str, case: &Path, generated: &Path) -> Output {
    aclgen(&[
        "sim",
        "--op",
        op,
        "--call",
        case.to_str().expect("utf-8"),
        "--generated",
        generated.to_str().expect("utf-8"),
    ])
}

#[test]
fn sim_on_the_seed_specs_runs_and_a_rejected_call_writes_nothing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let generated = tmp.path().join("generated");
    gen_seed_project(&generated);
    let case = write_case(tmp.path(), true);
    let o = sim("AvgPool2dBackward", &case, &generated);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read(tmp.path().join("out.bin")).expect("written"),
        floats(&[1.0; 256])
    );

    // gradOutput null: the validator's status, exit 1, no output file.
    std::fs::remove_file(tmp.path().join("out.bin")).expect("rm");
    let mut call: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&case).expect("case")).expect("JSON");
    call["args"]["gradOutput"] = serde_json::Value::Null;
    std::fs::write(&case, call.to_string()).expect("write");
    let o = sim("AvgPool2dBackward", &case, &generated);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let status: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    assert_eq!(status["status"], "rejected", "{status}");
    assert_eq!(status["code"], 161001, "{status}");
    assert!(!tmp.path().join("out.bin").exists());
}

#[test]
fn sim_runs_adaptive_max_pool3d_backward_from_the_seed_specs() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let generated = tmp.path().join("generated");
    gen_seed_project(&generated);
    // One plane of 2x2x2; both gradients point at input 7 and accumulate there.
    std::fs::write(tmp.path().join("g.bin"), floats(&[1.0, 2.0])).expect("write");
    std::fs::write(tmp.path().join("s.bin"), floats(&[0.0; 8])).expect("write");
    let idx: Vec<u8> = [7i32, 7].iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(tmp.path().join("i.bin"), idx).expect("write");
    let t = |shape: &[i64], dtype: &str, data: &str| serde_json::json!({"shape": shape, "dtype": dtype, "format": "ND", "data": data});
    let case = serde_json::json!({"product": "ascend910b", "args": {
        "gradOutput": t(&[1, 1, 1, 1, 2], "FLOAT32", "g.bin"),
        "self": t(&[1, 1, 2, 2, 2], "FLOAT32", "s.bin"),
        "indices": t(&[1, 1, 1, 1, 2], "INT32", "i.bin"),
        "gradInput": t(&[1, 1, 2, 2, 2], "FLOAT32", "o.bin")}});
    let path = tmp.path().join("case.json");
    std::fs::write(&path, case.to_string()).expect("write");
    let o = sim("AdaptiveMaxPool3dBackward", &path, &generated);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let mut want = [0.0f32; 8];
    want[7] = 3.0;
    assert_eq!(
        std::fs::read(tmp.path().join("o.bin")).expect("written"),
        floats(&want)
    );
}

#[test]
fn sim_with_a_broken_body_stops_naming_rule_core_and_line() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let generated = tmp.path().join("generated");
    let specs = repo().join("tests/fixtures/specs");
    let kernels = repo().join("tests/fixtures/kernels/ub_overflow");
    let g = aclgen(&[
        "gen",
        "--specs",
        specs.to_str().expect("utf-8"),
        "--out",
        generated.to_str().expect("utf-8"),
        "--kernels",
        kernels.to_str().expect("utf-8"),
    ]);
    assert_eq!(g.status.code(), Some(0), "{}", text(&g.stderr));
    let case = write_case(tmp.path(), true);
    let o = aclgen(&[
        "sim",
        "--op",
        "AvgPool2dBackward",
        "--call",
        case.to_str().expect("utf-8"),
        "--specs",
        specs.to_str().expect("utf-8"),
        "--generated",
        generated.to_str().expect("utf-8"),
        "--cores",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    // The runtime's InitBuffer check fires; the model reports it at the body's line.
    assert!(
        stderr.contains("rule 'kernel-assert' broken in the kernel on core 0 at ")
            && stderr.contains("avg_pool2d_backward_body.h:4: ")
            && stderr.contains("TPipe::InitBuffer")
            && stderr.contains("196608 bytes"),
        "{stderr}"
    );
    assert!(!tmp.path().join("out.bin").exists());
}

#[test]
fn sim_with_a_missing_toolkit_folder_says_where_it_looked() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let case = write_case(tmp.path(), true);
    let missing = tmp.path().join("no-cann");
    let o = aclgen(&[
        "sim",
        "--op",
        "AvgPool2dBackward",
        "--call",
        case.to_str().expect("utf-8"),
        "--cann",
        missing.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(stderr.contains("no-cann"), "{stderr}");
    let o = aclgen(&[
        "sim",
        "--op",
        "AvgPool2dBackward",
        "--call",
        case.to_str().expect("utf-8"),
        "--cores",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--cores"), "{}", text(&o.stderr));
}

#[test]
fn sim_profile_prints_the_cycle_model_and_writes_a_chrome_trace() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let case = write_case(tmp.path(), true);
    let trace = tmp.path().join("trace.json");
    let case_arg = case.to_str().expect("utf-8");
    let trace_arg = trace.to_str().expect("utf-8");
    let common = ["sim", "--op", "AvgPool2dBackward", "--call", case_arg];
    let mut json_args = common.to_vec();
    json_args.extend(["--profile", "--format", "json", "--trace", trace_arg]);
    let o = aclgen(&json_args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let summary: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("JSON");
    let profile = &summary["profile"];
    for key in ["modeled_cycles", "roofline_cycles", "us", "pipes"] {
        assert!(!profile[key].is_null(), "{key} in {profile}");
    }
    assert!(
        profile["modeled_cycles"].as_u64().expect("cycles")
            >= profile["roofline_cycles"].as_u64().expect("roofline")
    );
    assert!(
        profile["pipes"]["MTE2"].as_f64().expect("MTE2 share") > 0.0,
        "{profile}"
    );
    let chrome: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).expect("trace written"))
            .expect("trace is JSON");
    let events = chrome["traceEvents"].as_array().expect("events");
    let rows: std::collections::BTreeSet<&str> =
        events.iter().filter_map(|e| e["tid"].as_str()).collect();
    assert!(
        rows.contains("MTE2") && rows.contains("MTE3") && rows.contains("V"),
        "{rows:?}"
    );
    // Text: the summary, then the profile for people.
    let mut text_args = common.to_vec();
    text_args.push("--profile");
    let o = aclgen(&text_args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("modeled cycles: ")
            && out.contains("roofline cycles: ")
            && out.contains("pipe MTE2"),
        "{out}"
    );
}
