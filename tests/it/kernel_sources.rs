//! The kernel side of every generated op project (tiling header and function, kernel skeleton)
//! passes `g++ -fsyntax-only -Wall -Wextra -Werror` against aclgen's own Ascend C runtime
//! (`sim/runtime/include`, the headers `sim` builds with, taken as system headers so only the
//! generated code must be warning-free), with and without a body; the seed ops' skeletons have
//! their bodies filled in, and ops without one fail loudly. No CANN is needed.

use crate::common;

use aclgen::emit::ascend::kernel::kernel_files;
use aclgen::ir::OpIr;
use common::seed_ops::{seed_op, SEED_OPS};
use std::path::{Path, PathBuf};
use std::process::Command;

fn templates() -> tera::Tera {
    let glob = common::repo().join("templates/**/*.tera");
    tera::Tera::new(glob.to_str().expect("utf-8")).expect("templates parse")
}

fn gxx() -> bool {
    let ok = Command::new("g++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: g++ not found");
    }
    ok
}

/// aclgen's runtime include set for a kind of source, as system headers.
fn runtime_flags(kind: &str) -> Vec<String> {
    let sim = common::repo().join("sim");
    let mut dirs = vec![sim.join("runtime/include"), sim.join("model/include")];
    if kind == "kernel" {
        dirs.push(sim.join("model/src"));
    }
    dirs.into_iter()
        .flat_map(|d| ["-isystem".to_string(), d.to_string_lossy().into_owned()])
        .collect()
}

/// Renders the op's kernel files into `out` and returns the two sources to compile.
fn render(op: &OpIr, kernels: &Path, out: &Path) -> Vec<PathBuf> {
    common::write_kernel_side(op, kernels, out)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == "cpp"))
        .collect()
}

fn syntax_check(source: &Path, includes: &[PathBuf], injected: &[String], kind: &str) {
    let mut cmd = Command::new("g++");
    cmd.args(["-fsyntax-only", "-std=c++17", "-Wall", "-Wextra", "-Werror"]);
    cmd.args(runtime_flags(kind));
    cmd.args(injected);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    let out = cmd.arg(source).output().expect("g++ runs");
    assert!(
        out.status.success(),
        "g++ -fsyntax-only failed on {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check_op(op: &OpIr, kernels: &Path) {
    let dir = tempfile::tempdir().expect("temp dir");
    let snake = aclgen::ir::snake_case(&op.op);
    let includes = [dir.path().join("ops").join(&snake).join("op_host")];
    let op_dir = dir.path().join("ops").join(&snake);
    for source in render(op, kernels, dir.path()) {
        // The kernel gets its tiling struct as CANN's op compiler injects it.
        let kernel = source.starts_with(op_dir.join("op_kernel"));
        let injected = if kernel {
            vec![
                "-include".to_string(),
                op_dir
                    .join(aclgen::emit::ascend::kernel::tiling_def_path(&snake))
                    .to_string_lossy()
                    .into_owned(),
            ]
        } else {
            Vec::new()
        };
        syntax_check(
            &source,
            &includes,
            &injected,
            if kernel { "kernel" } else { "host" },
        );
    }
}

#[test]
fn seed_op_sources_compile_with_their_bodies() {
    if !gxx() {
        return;
    }
    let kernels = common::repo().join("kernels");
    for name in SEED_OPS {
        let op = seed_op(name).expect("seed op");
        check_op(&op, &kernels);
    }
}

#[test]
fn sources_without_a_body_compile_for_every_fixture_op() {
    if !gxx() {
        return;
    }
    let empty = tempfile::tempdir().expect("temp dir");
    let mut ops: Vec<OpIr> = SEED_OPS.iter().filter_map(|n| seed_op(n)).collect();
    ops.extend(common::fixtures());
    for op in &ops {
        check_op(op, empty.path());
    }
}

#[test]
fn skeleton_includes_the_body_or_fails_loudly() {
    let op = seed_op("AdaptiveMaxPool3dBackward").expect("seed op");
    let with = kernel_files(&op, &common::repo().join("kernels"), &templates()).expect("renders");
    let kernel = |files: &[aclgen::emit::OutFile]| {
        files
            .iter()
            .find(|f| {
                f.path
                    .ends_with("op_kernel/adaptive_max_pool3d_backward.cpp")
            })
            .expect("kernel file")
            .contents
            .clone()
    };
    let text = kernel(&with);
    // The body is filled in, its lines named as the file in kernels/ they come from.
    assert!(!text.contains("#include \"adaptive_max_pool3d_backward_body.h\""));
    assert!(text.contains(
        "#line 1 \"kernels/adaptive_max_pool3d_backward/adaptive_max_pool3d_backward_body.h\""
    ));
    assert!(!text.contains("struct AdaptiveMaxPool3dBackwardTilingData"));
    assert!(text.contains(
        "void adaptive_max_pool3d_backward(\n    GM_ADDR gradOutput, GM_ADDR self, GM_ADDR indices, GM_ADDR gradInput, GM_ADDR workspace,"
    ));
    assert!(text.contains("GlobalTensor<int32_t> indicesGm_;"));
    assert!(text.contains("TILING_KEY_IS(2)"));
    let empty = tempfile::tempdir().expect("temp dir");
    let without = kernel(&kernel_files(&op, empty.path(), &templates()).expect("renders"));
    assert!(!without.contains("_body.h\""));
    assert!(!without.contains("#line"));
    // The message may be split into adjacent literals to keep to 120 columns.
    assert!(without.contains("ACLGEN_KERNEL_FAIL("));
    assert!(without.contains("\"AdaptiveMaxPool3dBackward has no kernel body"));
}

#[test]
fn a_body_without_tiling_choices_is_refused() {
    let kernels = tempfile::tempdir().expect("temp dir");
    let dir = kernels.path().join("avg_pool2d_backward");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("avg_pool2d_backward_body.h"), "").expect("write");
    let op = seed_op("AvgPool2dBackward").expect("seed op");
    let err = kernel_files(&op, kernels.path(), &templates()).expect_err("refused");
    assert!(
        err.to_string()
            .contains("avg_pool2d_backward_tiling_choices.h"),
        "{err}"
    );
}

/// A tiling.yaml that does not parse keeps serde_yaml's error as its cause, and says where.
#[test]
fn a_tiling_yaml_that_does_not_parse_keeps_its_cause() {
    let kernels = tempfile::tempdir().expect("temp dir");
    let dir = kernels.path().join("avg_pool2d_backward");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("tiling.yaml"), "fields: [").expect("write");
    let op = seed_op("AvgPool2dBackward").expect("seed op");
    let err = aclgen::emit::ascend::kernel::check_kernel_folder(&op, kernels.path())
        .expect_err("refused");
    let aclgen::emit::EmitError::KernelYaml { path, source } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(path, &dir.join("tiling.yaml"));
    let cause = std::error::Error::source(&err).expect("a cause");
    assert_eq!(cause.to_string(), source.to_string());
    assert_eq!(err.to_string(), format!("{}: {source}", path.display()));
}

/// The golden tests run the hand-made seed IR; the reader's IR of the seed docs must give the
/// same tiling and kernel sources (all but the note, which names the sources), so what
/// the golden tests prove holds for the project `gen` writes from specs/.
#[test]
fn reader_ir_of_seed_docs_gives_the_sources_the_golden_tests_run() {
    let specs = aclgen::specs::load_specs(&common::repo().join("specs"))
        .unwrap_or_else(|_| panic!("specs/ loads"));
    let kernels = common::repo().join("kernels");
    let body = |files: Vec<aclgen::emit::OutFile>| -> Vec<(PathBuf, String)> {
        files
            .into_iter()
            .map(|f| {
                // The note may run over several comment lines: it ends at "Do not edit.".
                let rest = f.contents.split_once("edit.\n").map(|(_, r)| r.to_string());
                // The generated file's own `#line`s count the note's lines: only their file matters.
                let rest: String = rest
                    .unwrap_or_default()
                    .lines()
                    .map(|l| match l.strip_prefix("#line ") {
                        Some(r) if r.contains(" \"op_") => {
                            format!("#line N{}\n", &r[r.find(' ').unwrap_or(0)..])
                        }
                        _ => format!("{l}\n"),
                    })
                    .collect();
                (f.path, rest)
            })
            .collect()
    };
    for name in SEED_OPS {
        let real = specs
            .ops
            .iter()
            .find(|o| o.op == *name)
            .unwrap_or_else(|| panic!("{name} in specs/"));
        let seed = seed_op(name).expect("seed op");
        assert_eq!(
            body(kernel_files(real, &kernels, &templates()).expect("renders")),
            body(kernel_files(&seed, &kernels, &templates()).expect("renders")),
            "{name}"
        );
    }
}

/// Reviewed snapshots of the kernel side of AvgPool2dBackward: tiling header and function, and
/// the kernel skeleton with its body included.
#[test]
fn avg_pool2d_backward_kernel_files_match_reviewed_snapshots() {
    let op = seed_op("AvgPool2dBackward").expect("seed op");
    for f in kernel_files(&op, &common::repo().join("kernels"), &templates()).expect("renders") {
        let name = f.path.to_string_lossy().replace('/', "__");
        insta::assert_snapshot!(name, f.contents);
    }
}

/// An op named like a C library function (`abs`) must not define an `extern "C"` kernel entry of
/// that name: the entry gets a suffix and the OpDef names it as the op's interface.
#[test]
fn an_op_named_like_a_c_library_function_gets_its_own_kernel_entry() {
    let mut op = common::fixtures().into_iter().next().expect("a fixture op");
    op.op = "Abs".into();
    let empty = tempfile::tempdir().expect("temp dir");
    let files = kernel_files(&op, empty.path(), &templates()).expect("renders");
    let kernel = files
        .iter()
        .find(|f| f.path.ends_with("op_kernel/abs.cpp"))
        .expect("kernel file");
    assert!(kernel.contents.contains("__aicore__ void abs_kernel("));
    assert!(!kernel.contents.contains("__aicore__ void abs("));
    let project = aclgen::emit::ascend::project_files(&op, &common::ctx()).expect("renders");
    let def = project
        .iter()
        .find(|f| f.path.ends_with("op_host/abs_def.cpp"))
        .expect("OpDef");
    assert!(def
        .contents
        .contains(".ExtendCfgInfo(\"opInterface.value\", \"abs_kernel\")"));
}

/// The OpDef claims only what the kernel does: the seed bodies use DataCopyPad, so the products
/// without it (Atlas training and inference, ascend910 and ascend310p) are not registered, and
/// the tensors the kernel types with its one `T` take one dtype per column (no bf16 gradOutput
/// with an fp32 gradInput, which the kernel would reinterpret).
#[test]
fn seed_opdefs_register_only_what_the_kernel_handles() {
    let specs = aclgen::specs::load_specs(&common::repo().join("specs"))
        .unwrap_or_else(|_| panic!("specs/ loads"));
    let op = specs
        .ops
        .iter()
        .find(|o| o.op == "AvgPool2dBackward")
        .expect("in specs/");
    assert!(op.supported_products().any(|p| p == "ascend910"));
    let project = aclgen::emit::ascend::project_files(op, &common::ctx()).expect("renders");
    let def = &project
        .iter()
        .find(|f| f.path.ends_with("op_host/avg_pool2d_backward_def.cpp"))
        .expect("OpDef")
        .contents;
    assert!(!def.contains("AddConfig(\"ascend910\""), "{def}");
    assert!(!def.contains("AddConfig(\"ascend310p\""), "{def}");
    assert!(def.contains("AddConfig(\"ascend910b\""), "{def}");
    assert!(def.contains("// Not registered: ascend910: the kernel uses DataCopyPad"));
    let dtypes: Vec<&str> = def
        .lines()
        .filter(|l| l.trim_start().starts_with(".DataType("))
        .collect();
    assert_eq!(dtypes.len(), 3, "{def}");
    assert!(dtypes.iter().all(|l| *l == dtypes[0]), "{def}");
}

/// An op's folder under generated/ops/ builds by itself and `generated/common/op_api/` (the C++
/// aclnn layer's two shared headers): every quoted include of its files that names a relative
/// path stays inside them and exists (the hand-written parts are filled in, the op-independent
/// tiling is in op_host/), and none names kernels/.
#[test]
fn generated_op_folders_include_nothing_outside_themselves() {
    let ops = common::repo().join("generated/ops");
    let Ok(dirs) = std::fs::read_dir(&ops) else {
        println!("skipped: generated/ops is absent (run `cargo run -- gen`)");
        return;
    };
    let mut checked = 0;
    for op_dir in dirs.flatten().map(|e| e.path()) {
        let mut files = Vec::new();
        let mut stack = vec![op_dir.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("read dir").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p
                    .extension()
                    .is_some_and(|x| x == "h" || x == "cpp" || x == "txt")
                {
                    files.push(p);
                }
            }
        }
        for file in files {
            let text = std::fs::read_to_string(&file).expect("read");
            for line in text.lines() {
                let Some(target) = line
                    .trim()
                    .strip_prefix("#include \"")
                    .and_then(|r| r.split('"').next())
                else {
                    continue;
                };
                let names =
                    |dir: &str| Path::new(target).components().any(|c| c.as_os_str() == dir);
                assert!(
                    !names("kernels") && !target.contains("common/op_host"),
                    "{}: includes {target}",
                    file.display()
                );
                if target.starts_with('.') || file.parent().expect("parent").join(target).is_file()
                {
                    let resolved = file.parent().expect("parent").join(target);
                    let resolved = resolved
                        .canonicalize()
                        .unwrap_or_else(|_| panic!("{}: {target} is missing", file.display()));
                    // Besides its own folder, only the aclnn layer's shared headers
                    // (`generated/common/op_api/`, as CANN's ops repos share `common/`).
                    let common = ops.join("../common/op_api").canonicalize();
                    assert!(
                        resolved.starts_with(op_dir.canonicalize().expect("op dir"))
                            || common.is_ok_and(|c| resolved.starts_with(c)),
                        "{}: {target} lies outside the op's folder",
                        file.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 4, "only {checked} relative includes checked");
}
