//! Generated C/C++ compiles: every header as C and as C++ (`-Wall -Werror`), every op_host OpDef
//! and example with g++ against the project's stand-ins (`tests/standins/include`); the seed ops' headers
//! declare exactly the prototypes of CANN's real headers (as data: `prototypes.jsonl`).

use crate::common;

use aclgen::emit::emit_all;
use aclgen::generate::sync;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Generated trees to check: the fixtures (always) and the committed `generated/` (when present).
fn trees() -> Vec<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let emitted = emit_all(&common::fixtures(), &common::ctx()).unwrap();
    sync(&out, Path::new("kernels"), &emitted, false).unwrap();
    let mut trees = vec![(dir, out)];
    let committed = common::repo().join("generated/ops");
    if committed.is_dir() {
        trees.push((
            tempfile::tempdir().unwrap(),
            common::repo().join("generated"),
        ));
    } else {
        println!("generated/ops is absent: only fixture output is compiled");
    }
    trees
}

fn compiler(name: &str) -> Option<String> {
    let ok = Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some(name.to_string())
    } else {
        println!("skipped: {name} not found");
        None
    }
}

fn compile(compiler: &str, lang: &str, std: &str, file: &Path, includes: &[&Path]) {
    let mut cmd = Command::new(compiler);
    cmd.args([
        "-fsyntax-only",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-x",
        lang,
        std,
    ]);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    let output = cmd.arg(file).output().expect("compiler runs");
    assert!(
        output.status.success(),
        "{compiler} -x {lang} failed on {}:\n{}",
        file.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn include_dir() -> PathBuf {
    common::cxx::standins()
}

#[test]
fn headers_compile_as_c_and_cpp() {
    let (Some(gcc), Some(gxx)) = (compiler("gcc"), compiler("g++")) else {
        return;
    };
    let mut count = 0;
    for (_tmp, tree) in trees() {
        for header in common::files_with_ext(&tree.join("ops"), "h") {
            // The public C API (`aclnn_*.h`); the l0 op's header beside it is C++ (cpp_typecheck).
            let public = header
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("aclnn_"));
            if !header.parent().is_some_and(|p| p.ends_with("op_api")) || !public {
                continue;
            }
            compile(&gcc, "c", "-std=c11", &header, &[&include_dir()]);
            compile(&gxx, "c++", "-std=c++17", &header, &[&include_dir()]);
            count += 1;
        }
    }
    assert!(count >= 2, "only {count} headers found");
}

#[test]
fn op_host_and_examples_pass_gxx_syntax_check() {
    let Some(gxx) = compiler("g++") else {
        return;
    };
    let mut count = 0;
    for (_tmp, tree) in trees() {
        // Examples include "aclnnop/<header>", as CANN's do: gather the headers under that name.
        let aclnnop = tempfile::tempdir().unwrap();
        fs::create_dir_all(aclnnop.path().join("aclnnop")).unwrap();
        for header in common::files_with_ext(&tree.join("ops"), "h") {
            let public = header
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("aclnn_"));
            if header.parent().is_some_and(|p| p.ends_with("op_api")) && public {
                let name = header.file_name().unwrap();
                fs::copy(&header, aclnnop.path().join("aclnnop").join(name)).unwrap();
            }
        }
        for source in common::files_with_ext(&tree.join("ops"), "cpp") {
            let parent = source.parent().unwrap();
            let is_def =
                parent.ends_with("op_host") && source.to_string_lossy().ends_with("_def.cpp");
            if is_def || parent.ends_with("examples") {
                compile(
                    &gxx,
                    "c++",
                    "-std=c++17",
                    &source,
                    &[&include_dir(), aclnnop.path()],
                );
                count += 1;
            }
        }
    }
    assert!(count >= 4, "only {count} sources found");
}

#[test]
fn op_api_unit_tests_pass_gxx_syntax_check() {
    let Some(gxx) = compiler("g++") else {
        return;
    };
    // They include googletest itself (Debian's libgtest-dev).
    if !common::cxx::available() {
        return;
    }
    let mut count = 0;
    for (_tmp, tree) in trees() {
        for source in common::files_with_ext(&tree.join("ops"), "cpp") {
            if source.parent().is_some_and(|p| p.ends_with("ut/op_api")) {
                compile(&gxx, "c++", "-std=c++17", &source, &[&include_dir()]);
                count += 1;
            }
        }
    }
    assert!(count >= 4, "only {count} unit test sources found");
}

#[test]
fn prototypes_are_extracted_whitespace_insensitively() {
    let text = "ACLNN_API aclnnStatus f(const aclTensor *a,\n    int b);\n/* x */ ACLNN_API aclnnStatus g(void);";
    assert_eq!(
        common::prototypes(text),
        common::prototypes(
            "ACLNN_API aclnnStatus f( const aclTensor* a, int b ) ;ACLNN_API aclnnStatus g(void);"
        )
    );
    assert_eq!(common::prototypes(text).len(), 2);
    // A dropped `const` is a different prototype.
    assert_ne!(
        common::prototypes("ACLNN_API aclnnStatus f(const aclTensor* a);"),
        common::prototypes("ACLNN_API aclnnStatus f(aclTensor* a);")
    );
}

#[test]
fn fixture_header_declares_cann_prototypes() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let real = common::cann_header_prototypes(
        &corpus.join("ops-nn/prototypes.jsonl"),
        "pooling_avg_pool3_d_grad_op_api_aclnn_avgpool2d_backward.h",
    );
    assert_eq!(real.len(), 2, "CANN's header as data: {real:?}");
    let dir = tempfile::tempdir().unwrap();
    let emitted = emit_all(&[common::avgpool2d_backward()], &common::ctx()).unwrap();
    sync(dir.path(), Path::new("kernels"), &emitted, false).unwrap();
    let ours = dir
        .path()
        .join("ops/avg_pool2d_backward/op_api/aclnn_avgpool2d_backward.h");
    let mut ours = common::prototypes(&fs::read_to_string(ours).unwrap());
    let mut real = real;
    ours.sort();
    real.sort();
    assert_eq!(ours, real);
}

/// The four seed ops (op dir, header) and CANN's header for each.
const SEEDS: [(&str, &str, &str); 4] = [
    (
        "adaptive_avg_pool3d_backward",
        "aclnn_adaptive_avg_pool3d_backward.h",
        "pooling_adaptive_avg_pool3d_grad_op_api_aclnn_adaptive_avg_pool3d_backward.h",
    ),
    (
        "adaptive_max_pool3d_backward",
        "aclnn_adaptive_max_pool3d_backward.h",
        "pooling_adaptive_max_pool3d_grad_op_api_aclnn_adaptive_max_pool3d_backward.h",
    ),
    (
        "adaptive_avg_pool2d_backward",
        "aclnn_adaptive_avg_pool2d_backward.h",
        "pooling_adaptive_avg_pool2d_grad_op_api_aclnn_adaptive_avg_pool2d_backward.h",
    ),
    (
        "avg_pool2d_backward",
        "aclnn_avgpool2d_backward.h",
        "pooling_avg_pool3_d_grad_op_api_aclnn_avgpool2d_backward.h",
    ),
];

#[test]
fn seed_headers_declare_exactly_cann_prototypes() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let generated = common::repo().join("generated/ops");
    if !generated.is_dir() {
        println!("skipped: generated/ops is absent (run `cargo run -- gen`)");
        return;
    }
    for (dir, header, real) in SEEDS {
        let ours = generated.join(dir).join("op_api").join(header);
        let ours = fs::read_to_string(&ours).unwrap_or_else(|e| panic!("{}: {e}", ours.display()));
        let mut real =
            common::cann_header_prototypes(&corpus.join("ops-nn/prototypes.jsonl"), real);
        let mut ours = common::prototypes(&ours);
        // The same declarations; a header's order is its own.
        real.sort();
        ours.sort();
        assert_eq!(ours.len(), 2, "{dir}: {ours:?}");
        assert_eq!(ours, real, "{dir}");
    }
}

/// The OpDef's `SetTiling(optiling::X)` names the function the op's tiling.cpp defines, so the
/// op_host library links.
#[test]
fn opdef_tiling_function_is_defined_by_the_tiling_source() {
    let ops = common::repo().join("generated/ops");
    let Ok(dirs) = fs::read_dir(&ops) else {
        println!("skipped: generated/ops is absent (run `cargo run -- gen`)");
        return;
    };
    let mut checked = 0;
    for dir in dirs.flatten().map(|e| e.path()) {
        let snake = dir.file_name().unwrap().to_string_lossy().into_owned();
        let host = dir.join("op_host");
        let def = fs::read_to_string(host.join(format!("{snake}_def.cpp"))).unwrap();
        let Ok(tiling) = fs::read_to_string(host.join(format!("{snake}_tiling.cpp"))) else {
            continue;
        };
        let name = def
            .split("SetTiling(optiling::")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("{snake}: no SetTiling in the OpDef"));
        assert!(
            tiling.contains(&format!(
                "ge::graphStatus {name}(gert::TilingContext* context)"
            )),
            "{snake}: tiling.cpp does not define optiling::{name}"
        );
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} ops checked");
}
