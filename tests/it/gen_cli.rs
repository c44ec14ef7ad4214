//! The `gen` command as CI runs it: exit codes, template errors, and freshness of the committed
//! `generated/` tree.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::{aclgen_in as aclgen, text};

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

/// A project in a tempdir: `specs/` (copied fixture YAML specs) and `templates/` (the repo's).
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let ops = dir.path().join("specs/ops");
        std::fs::create_dir_all(&ops).unwrap();
        for spec in ["AvgPool2dBackward.yaml", "Relu.yaml"] {
            std::fs::copy(
                common::repo().join("tests/fixtures/specs/ops").join(spec),
                ops.join(spec),
            )
            .unwrap();
        }
        Project { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn gen(&self, extra: &[&str]) -> Output {
        let templates = common::repo().join("templates");
        let mut args = vec!["gen", "--templates", templates.to_str().unwrap()];
        args.extend_from_slice(extra);
        aclgen(&args, self.path())
    }
}

fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>, std::time::SystemTime)> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if !path.ends_with(aclgen::write::fingerprint::FINGERPRINT) {
                // The fingerprint is machine-local bookkeeping, not generated output.
                let meta = std::fs::metadata(&path).unwrap();
                all.push((
                    path.clone(),
                    std::fs::read(&path).unwrap(),
                    meta.modified().unwrap(),
                ));
            }
        }
    }
    all.sort();
    all
}

/// A first gen renames a staging folder into place, but never over `.`, the working folder.
#[test]
fn a_first_gen_into_the_empty_working_folder_writes_there() {
    let p = Project::new();
    let out = p.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let specs = p.path().join("specs");
    let templates = common::repo().join("templates");
    let kernels = common::repo().join("kernels");
    let args = [
        "gen",
        "--specs",
        specs.to_str().unwrap(),
        "--templates",
        templates.to_str().unwrap(),
        "--kernels",
        kernels.to_str().unwrap(),
    ];
    for relative_out in [".", "../out"] {
        let mut with_out = args.to_vec();
        with_out.extend(["--out", relative_out]);
        let run = aclgen(&with_out, &out);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        assert!(out.join(MANIFEST_NAME).is_file(), "--out {relative_out}");
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::create_dir(&out).unwrap();
    }
}

const MANIFEST_NAME: &str = aclgen::write::MANIFEST;

#[test]
fn gen_twice_leaves_the_tree_unchanged_and_check_passes() {
    let p = Project::new();
    let first = p.gen(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).contains("files written, 0 unchanged, 0 removed"),
        "{}",
        text(&first.stdout)
    );
    let generated = p.path().join("generated");
    let header = generated.join("ops/avg_pool2d_backward/op_api/aclnn_avgpool2d_backward.h");
    let header_text = std::fs::read_to_string(&header).unwrap();
    assert!(
        header_text.starts_with(
            "// Generated by aclgen from specs/ops/AvgPool2dBackward.yaml. Do not edit.\n"
        ),
        "{header_text}"
    );
    let before = snapshot(&generated);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = p.gen(&[]);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert!(
        text(&second.stdout).contains("gen: 0 files written"),
        "{}",
        text(&second.stdout)
    );
    assert_eq!(
        snapshot(&generated),
        before,
        "second run changed a file or an mtime"
    );
    let check = p.gen(&["--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
}

#[test]
fn check_fails_on_a_hand_edited_file_and_writes_nothing() {
    let p = Project::new();
    assert_eq!(p.gen(&[]).status.code(), Some(0));
    let def = p.path().join("generated/ops/relu/op_host/relu_def.cpp");
    let edited = std::fs::read_to_string(&def)
        .unwrap()
        .replace("ge::DT_FLOAT16", "ge::DT_BF16");
    std::fs::write(&def, &edited).unwrap();
    std::fs::remove_file(p.path().join("generated/ops/relu/CMakeLists.txt")).unwrap();
    let before = snapshot(&p.path().join("generated"));
    let check = p.gen(&["--check"]);
    let stdout = text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("would change ops/relu/op_host/relu_def.cpp"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-") && stdout.contains("+") && stdout.contains("DT_BF16"),
        "{stdout}"
    );
    assert!(
        stdout.contains("would create ops/relu/CMakeLists.txt"),
        "{stdout}"
    );
    assert_eq!(
        snapshot(&p.path().join("generated")),
        before,
        "--check wrote"
    );
}

#[test]
fn an_op_leaving_the_specs_has_its_files_removed() {
    let p = Project::new();
    assert_eq!(p.gen(&[]).status.code(), Some(0));
    // Every file of Relu: its project folder and its module of the validators crate.
    let relu_files = snapshot(&p.path().join("generated"))
        .iter()
        .filter(|(path, _, _)| path.to_string_lossy().contains("relu"))
        .count();
    std::fs::remove_file(p.path().join("specs/ops/Relu.yaml")).unwrap();
    let check = p.gen(&["--check"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("would remove ops/relu/op_api/aclnn_relu.h"));
    let o = p.gen(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains(&format!("{relu_files} removed")),
        "{}",
        text(&o.stdout)
    );
    assert!(!p.path().join("generated/rust/src/relu.rs").exists());
    assert!(!p.path().join("generated/ops/relu").exists());
    assert!(p.path().join("generated/ops/avg_pool2d_backward").is_dir());
}

#[test]
fn a_broken_spec_is_reported_and_the_others_are_generated() {
    let p = Project::new();
    std::fs::write(
        p.path().join("specs/ops/Broken.yaml"),
        "kind: full\nop: Broken\nproducts: {ascend910b: true}\nfunctionz: []\n",
    )
    .unwrap();
    let o = p.gen(&[]);
    let stderr = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("Broken.yaml:4"), "{stderr}");
    assert!(p
        .path()
        .join("generated/ops/relu/op_api/aclnn_relu.h")
        .is_file());
}

#[test]
fn an_unchanged_rerun_replays_the_problems_and_exit_code() {
    let p = Project::new();
    std::fs::write(
        p.path().join("specs/ops/Broken.yaml"),
        "kind: full\nop: Broken\nproducts: {ascend910b: true}\nfunctionz: []\n",
    )
    .unwrap();
    let first = p.gen(&[]);
    let second = p.gen(&[]);
    assert_eq!(second.status.code(), Some(1), "{}", text_of(&second));
    assert!(
        text(&second.stdout).contains("(inputs unchanged)"),
        "{}",
        text_of(&second)
    );
    assert_eq!(text(&second.stderr), text(&first.stderr));
    // Fixing the spec is a change: the next run is a full one and succeeds.
    std::fs::remove_file(p.path().join("specs/ops/Broken.yaml")).unwrap();
    let third = p.gen(&[]);
    assert_eq!(third.status.code(), Some(0), "{}", text_of(&third));
    assert!(!text(&third.stdout).contains("(inputs unchanged)"));
}

#[test]
fn an_escaping_op_name_writes_nothing_outside_out() {
    let p = Project::new();
    let spec = std::fs::read_to_string(p.path().join("specs/ops/Relu.yaml"))
        .unwrap()
        .replace("op: Relu", "op: ../../x");
    std::fs::write(p.path().join("specs/ops/Relu.yaml"), spec).unwrap();
    let o = p.gen(&["--out", "a/b/generated"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let entries: Vec<_> = std::fs::read_dir(p.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert!(!p.path().join("a/x").exists());
    assert!(!p.path().join("a/b/generated/ops/relu").exists());
}

#[test]
fn a_spec_that_does_not_parse_keeps_the_files_of_its_op() {
    let p = Project::new();
    assert_eq!(p.gen(&[]).status.code(), Some(0));
    let relu = p.path().join("specs/ops/Relu.yaml");
    let typo = std::fs::read_to_string(&relu)
        .unwrap()
        .replace("functions:", "functionz:");
    std::fs::write(&relu, typo).unwrap();
    let o = p.gen(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("functionz"), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("0 removed"), "{}", text(&o.stdout));
    assert!(p
        .path()
        .join("generated/ops/relu/op_api/aclnn_relu.h")
        .is_file());
}

/// A removed doc's files go even while another op is refused: gen a folder of two docs, break one
/// (it no longer gives an op), delete the other, gen again.
#[test]
fn a_removed_docs_files_go_while_another_doc_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("specs/docs");
    std::fs::create_dir_all(&docs).unwrap();
    for doc in ["aclnnScale.md", "aclnnShift.md"] {
        std::fs::copy(
            common::repo().join("tests/fixtures/docs").join(doc),
            docs.join(doc),
        )
        .unwrap();
    }
    let templates = common::repo().join("templates");
    let gen = |extra: &[&str]| {
        let mut args = vec!["gen", "--templates", templates.to_str().unwrap()];
        args.extend_from_slice(extra);
        aclgen(&args, dir.path())
    };
    let first = gen(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", text_of(&first));
    let generated = dir.path().join("generated");
    let shift_header = generated.join("ops/shift/op_api/aclnn_shift.h");
    assert!(shift_header.is_file());
    assert!(generated.join("ops/scale").is_dir());
    // Shift's doc loses its prototypes (an error of the file: no op), Scale's doc is removed.
    let shift = std::fs::read_to_string(docs.join("aclnnShift.md")).unwrap();
    let broken: String = shift
        .lines()
        .filter(|l| !l.starts_with("- `aclnnStatus"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(docs.join("aclnnShift.md"), broken).unwrap();
    std::fs::remove_file(docs.join("aclnnScale.md")).unwrap();
    let check = gen(&["--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", text_of(&check));
    assert!(
        text(&check.stdout).contains("would remove ops/scale/op_api/aclnn_scale.h"),
        "{}",
        text_of(&check)
    );
    assert!(
        !text(&check.stdout).contains("would remove ops/shift"),
        "{}",
        text_of(&check)
    );
    let second = gen(&[]);
    assert_eq!(second.status.code(), Some(1), "{}", text_of(&second));
    assert!(
        text(&second.stderr).contains("aclnnShift.md"),
        "{}",
        text_of(&second)
    );
    assert!(
        !generated.join("ops/scale").exists(),
        "{}",
        text_of(&second)
    );
    assert!(!generated.join("rust/src/scale.rs").exists());
    assert!(shift_header.is_file(), "{}", text_of(&second));
    assert!(generated.join("rust/src/shift.rs").is_file());
    // --check agrees: nothing left to remove, the broken doc still fails (without the replay).
    std::fs::remove_file(generated.join(aclgen::write::fingerprint::FINGERPRINT)).unwrap();
    let check = gen(&["--check"]);
    assert_eq!(check.status.code(), Some(1), "{}", text_of(&check));
    assert!(
        !text(&check.stdout).contains("would "),
        "{}",
        text_of(&check)
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn templates_option_uses_the_users_copy() {
    let p = Project::new();
    let mine = p.path().join("my-templates");
    copy_dir(&common::repo().join("templates"), &mine);
    let header = mine.join("c/aclnn_header.h.tera");
    let text = std::fs::read_to_string(&header).unwrap();
    std::fs::write(&header, format!("// house style\n{text}")).unwrap();
    let o = aclgen(&["gen", "--templates", "my-templates"], p.path());
    assert_eq!(o.status.code(), Some(0), "{}", text_of(&o));
    let generated =
        std::fs::read_to_string(p.path().join("generated/ops/relu/op_api/aclnn_relu.h")).unwrap();
    assert!(generated.starts_with("// house style\n"), "{generated}");
}

#[test]
fn kernels_folder_inside_the_output_is_refused() {
    let p = Project::new();
    let o = p.gen(&["--kernels", "generated/ops"]);
    assert_eq!(o.status.code(), Some(2), "{}", text_of(&o));
    assert!(text(&o.stderr).contains("never writes"), "{}", text_of(&o));
    assert!(!p.path().join("generated").exists());
}

fn text_of(o: &Output) -> String {
    format!("{}{}", text(&o.stdout), text(&o.stderr))
}

#[test]
fn committed_generated_tree_is_fresh() {
    let o = aclgen(&["gen", "--check"], &common::repo());
    assert_eq!(o.status.code(), Some(0), "{}", text_of(&o));
}

#[test]
fn a_copy_of_the_project_elsewhere_generates_the_same_bytes_twice() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["specs", "kernels", "templates"] {
        copy_dir(&common::repo().join(folder), &dir.path().join(folder));
    }
    let first = aclgen(&["gen"], dir.path());
    assert_eq!(first.status.code(), Some(0), "{}", text_of(&first));
    let before = snapshot(&dir.path().join("generated"));
    let second = aclgen(&["gen"], dir.path());
    assert!(
        text(&second.stdout).contains("gen: 0 files written"),
        "{}",
        text_of(&second)
    );
    assert_eq!(snapshot(&dir.path().join("generated")), before);
    // Same bytes as the committed tree, from another absolute path.
    for (path, bytes, _) in &before {
        let rel = path.strip_prefix(dir.path()).unwrap();
        let committed = std::fs::read(common::repo().join(rel)).unwrap_or_default();
        assert!(
            committed == *bytes,
            "{} differs from the committed file",
            rel.display()
        );
    }
}

#[test]
fn editing_one_spec_rewrites_only_that_ops_files() {
    let p = Project::new();
    assert_eq!(p.gen(&[]).status.code(), Some(0));
    let generated = p.path().join("generated");
    let before = snapshot(&generated);
    let relu = p.path().join("specs/ops/Relu.yaml");
    let edited = std::fs::read_to_string(&relu)
        .unwrap()
        .replace("对输入逐元素计算max(x, 0)。", "逐元素计算max(x, 0)。");
    std::fs::write(&relu, edited).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let o = p.gen(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", text_of(&o));
    let after = snapshot(&generated);
    let changed: Vec<String> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(b, _)| {
            b.0.strip_prefix(&generated)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(before.len(), after.len());
    assert!(!changed.is_empty());
    assert!(
        changed.iter().any(|c| c == "ops/relu/op_api/aclnn_relu.h"),
        "{changed:?}"
    );
    // The manifest records the op's new input hash.
    assert!(
        changed
            .iter()
            .all(|c| c.contains("relu") || c == ".aclgen-manifest"),
        "{changed:?}"
    );
}

/// Bytes of every generated file (the machine-local fingerprint left out), by path.
fn tree(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    snapshot(dir)
        .into_iter()
        .map(|(path, bytes, _)| (path.strip_prefix(dir).unwrap().to_path_buf(), bytes))
        .collect()
}

/// Each kind of spec edit, done to a copy of the project's specs: a gen that reads only the
/// changed ops again writes the same tree, says the same and exits the same as a full gen from
/// nothing, and names the ops it read again.
#[test]
fn an_incremental_gen_equals_a_full_one_after_each_kind_of_edit() {
    let root = tempfile::tempdir().unwrap();
    let specs = root.path().join("specs");
    copy_dir(&common::repo().join("specs"), &specs);
    let docs = specs.join("docs");
    let repo = common::repo();
    let gen = |out: &str| {
        aclgen(
            &[
                "gen",
                "--specs",
                "specs",
                "--out",
                out,
                "--kernels",
                repo.join("kernels").to_str().unwrap(),
                "--templates",
                repo.join("templates").to_str().unwrap(),
            ],
            root.path(),
        )
    };
    assert_eq!(gen("inc").status.code(), Some(0));
    let copy = docs.join("009-copy.txt");
    // (what, the edit, the op it makes gen read again)
    type Edit<'a> = (&'a str, Box<dyn Fn() + 'a>, &'a str);
    let edits: Vec<Edit> = vec![
        (
            "a doc edited",
            Box::new(|| {
                let f = docs.join("002-aclnnAdaptiveAvgPool2dBackward.txt");
                let text = std::fs::read_to_string(&f).unwrap() + "\n补充说明。\n";
                std::fs::write(f, text).unwrap();
            }),
            "AdaptiveAvgPool2dBackward",
        ),
        (
            "one of two docs of an op deleted",
            Box::new(|| std::fs::remove_file(docs.join("003-aclnnAvgPool2dBackward.txt")).unwrap()),
            "AvgPool2dBackward",
        ),
        (
            "a new doc of an existing op",
            Box::new(|| {
                std::fs::copy(docs.join("001-aclnnAdaptiveMaxPool3dBackward.txt"), &copy).unwrap();
            }),
            "AdaptiveMaxPool3dBackward",
        ),
        (
            "a doc now describing a new op",
            Box::new(|| {
                let text = std::fs::read_to_string(&copy).unwrap().replace(
                    "aclnnAdaptiveMaxPool3dBackward",
                    "aclnnAdaptiveMaxPool3dBackwardV2",
                );
                std::fs::write(&copy, text).unwrap();
            }),
            "AdaptiveMaxPool3dBackwardV2",
        ),
        (
            "that doc deleted (its op's files go)",
            Box::new(|| std::fs::remove_file(&copy).unwrap()),
            "AdaptiveMaxPool3dBackwardV2",
        ),
        (
            "an overlay edited",
            Box::new(|| {
                let f = specs.join("ops/AdaptiveAvgPool3dBackward.yaml");
                let text = std::fs::read_to_string(&f).unwrap() + "# reviewed\n";
                std::fs::write(f, text).unwrap();
            }),
            "AdaptiveAvgPool3dBackward",
        ),
    ];
    for (what, edit, op) in edits {
        edit();
        let inc = gen("inc");
        let _ = std::fs::remove_dir_all(root.path().join("full"));
        let full = gen("full");
        assert_eq!(inc.status.code(), full.status.code(), "{what}");
        assert_eq!(text(&inc.stderr), text(&full.stderr), "{what}");
        let stdout = text(&inc.stdout);
        let reread = stdout.split("changed: ").nth(1).unwrap_or("");
        assert!(
            reread
                .trim_end()
                .trim_end_matches(')')
                .split(", ")
                .any(|o| o == op),
            "{what}: {stdout}"
        );
        assert!(
            tree(&root.path().join("inc")) == tree(&root.path().join("full")),
            "{what}: the incremental tree differs from a full gen's"
        );
    }
}

/// The new user's path: `import --force` turned an op's overlay into a full spec that conflicts
/// with its doc. gen reports the conflict, exits 1 and keeps every file of that op as the
/// overlay made it (the overlay's fix is not lost), while lib.rs still declares its module.
#[test]
fn a_conflicting_spec_keeps_its_ops_files() {
    let shipped = Shipped::new(&["specs"]);
    assert_eq!(shipped.gen().status.code(), Some(0));
    let before = shipped.generated();
    let imported = aclgen(
        &[
            "import",
            "specs/docs/003-aclnnAvgPool2dBackward.txt",
            "--force",
        ],
        shipped.path(),
    );
    assert_eq!(imported.status.code(), Some(0), "{}", text_of(&imported));
    let o = shipped.gen();
    assert_eq!(o.status.code(), Some(1), "{}", text_of(&o));
    assert!(text_of(&o).contains("spec-conflict"), "{}", text_of(&o));
    // Every file is as it was; the manifest records what the op was read from now.
    let without_inputs = |files: Vec<(std::path::PathBuf, Vec<u8>, std::time::SystemTime)>| {
        files
            .into_iter()
            .map(|(path, bytes, mtime)| {
                if path.ends_with(".aclgen-manifest") {
                    let text = String::from_utf8_lossy(&bytes)
                        .lines()
                        .filter(|l| !l.starts_with("@inputs "))
                        .collect::<Vec<_>>()
                        .join("\n");
                    (path, text.into_bytes(), None)
                } else {
                    (path, bytes, Some(mtime))
                }
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(without_inputs(shipped.generated()), without_inputs(before));
}

/// A copy of the project's own folders (`specs`, `kernels`) in a tempdir, generated with the
/// repo's templates.
struct Shipped {
    dir: tempfile::TempDir,
}

impl Shipped {
    /// A copy of the project's `folders`, with the seed ops' specs only: a team's own docs and
    /// overlays in `specs/` are theirs, not the project's tests'.
    fn new(folders: &[&str]) -> Shipped {
        let dir = tempfile::tempdir().unwrap();
        for folder in folders {
            copy_dir(&common::repo().join(folder), &dir.path().join(folder));
        }
        let seed_docs: Vec<_> = aclgen::fixture::seed_docs()
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_os_string()))
            .collect();
        let keep = |p: &Path| {
            let name = p.file_name().unwrap_or_default();
            let stem = p.file_stem().unwrap_or_default().to_string_lossy();
            seed_docs.iter().any(|d| d == name) || common::SEED_OPS.contains(&stem.as_ref())
        };
        for sub in ["specs/docs", "specs/ops"] {
            for entry in std::fs::read_dir(dir.path().join(sub))
                .into_iter()
                .flatten()
                .flatten()
            {
                if !keep(&entry.path()) {
                    std::fs::remove_file(entry.path()).unwrap();
                }
            }
        }
        Shipped { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn gen(&self) -> Output {
        let templates = common::repo().join("templates");
        aclgen(
            &["gen", "--templates", templates.to_str().unwrap()],
            self.path(),
        )
    }

    fn generated(&self) -> Vec<(std::path::PathBuf, Vec<u8>, std::time::SystemTime)> {
        snapshot(&self.path().join("generated"))
    }

    fn gen_with(&self, extra: &[&str]) -> Output {
        let templates = common::repo().join("templates");
        let mut args = vec!["gen", "--templates", templates.to_str().unwrap()];
        args.extend_from_slice(extra);
        aclgen(&args, self.path())
    }
}

/// `gen --format json`'s report, and its diagnostics.
fn json_report(o: &Output) -> (serde_json::Value, Vec<serde_json::Value>) {
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text_of(o)));
    let diagnostics = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (report, diagnostics)
}

/// Emit's problems are diagnostics with a code: `gen --format json` gives each with its op, code,
/// severity, file and line; the text report prints them as gen always did; and a gen with
/// nothing changed, or one that reads only an edited doc again, says exactly what a full gen says.
#[test]
fn kernel_folder_problems_are_diagnostics_that_every_run_replays() {
    let shipped = Shipped::new(&["specs", "kernels"]);
    let kernels = shipped.path().join("kernels");
    std::fs::write(kernels.join("avg_pool2d_backward/avgpool_body.h"), "").unwrap();
    std::fs::remove_dir_all(kernels.join("adaptive_avg_pool2d_backward")).unwrap();

    let json = shipped.gen_with(&["--format", "json"]);
    assert_eq!(json.status.code(), Some(1), "{}", text_of(&json));
    assert_eq!(text(&json.stderr), "", "JSON goes to stdout alone");
    let (report, diagnostics) = json_report(&json);
    assert_eq!(report["proof"]["refused"], 1, "{report}");
    let with_code = |code: &str| {
        diagnostics
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code}: {report}"))
            .clone()
    };
    let folder = with_code("kernel-folder");
    assert_eq!(folder["severity"], "error", "{folder}");
    assert_eq!(folder["op"], "AvgPool2dBackward", "{folder}");
    assert_eq!(folder["file"], "kernels/avg_pool2d_backward", "{folder}");
    assert_eq!(folder["line"], 0, "{folder}");
    let message = folder["message"].as_str().unwrap();
    assert!(message.contains("unexpected avgpool_body.h"), "{folder}");
    let body = with_code("missing-kernel-body");
    assert_eq!(body["severity"], "warning", "{body}");
    assert_eq!(body["op"], "AdaptiveAvgPool2dBackward", "{body}");

    // The text report, replayed from the record of the JSON run (nothing changed since).
    let replay = shipped.gen();
    assert_eq!(replay.status.code(), Some(1), "{}", text_of(&replay));
    assert!(
        text(&replay.stdout).contains("(inputs unchanged)"),
        "{}",
        text_of(&replay)
    );
    let stderr = text(&replay.stderr);
    assert!(
        stderr.contains(&format!("error: {message}\n")),
        "printed as before: {stderr}"
    );
    assert!(
        stderr.contains("warning: aclnnAdaptiveAvgPool2dBackward: no kernel body in"),
        "{stderr}"
    );
    let full = shipped.gen_with(&["--out", "full"]);
    assert_eq!(
        text(&full.stderr),
        stderr,
        "a full run says what the replay says"
    );
    let again = shipped.gen_with(&["--format", "json"]);
    assert_eq!(
        json_report(&again).1,
        diagnostics,
        "replayed as diagnostics"
    );

    // An edited doc of another op: only it is read again; the refusal is replayed.
    let doc = shipped
        .path()
        .join("specs/docs/000-aclnnAdaptiveAvgPool3dBackward.txt");
    let edited = std::fs::read_to_string(&doc).unwrap() + "\n补充说明。\n";
    std::fs::write(&doc, edited).unwrap();
    let inc = shipped.gen_with(&["--format", "json"]);
    assert_eq!(inc.status.code(), Some(1), "{}", text_of(&inc));
    let (inc_report, inc_diagnostics) = json_report(&inc);
    assert_eq!(
        inc_report["reread"][0], "AdaptiveAvgPool3dBackward",
        "{inc_report}"
    );
    std::fs::remove_dir_all(shipped.path().join("full")).unwrap();
    let full = shipped.gen_with(&["--out", "full", "--format", "json"]);
    assert_eq!(inc_diagnostics, json_report(&full).1);
    assert!(inc_diagnostics.iter().any(|d| d == &folder), "{inc_report}");
}

/// `kernels/<op>/` as kernels/README.md says: an op without a body is a warning (its kernel is
/// the trapping skeleton); a folder with only tiling.yaml, a body without its choices, or a file
/// that is none of the three is an input problem (exit 1) that keeps the op's files.
#[test]
fn the_kernels_folder_is_checked_and_a_missing_body_is_named() {
    let shipped = Shipped::new(&["specs", "kernels"]);
    assert_eq!(shipped.gen().status.code(), Some(0));
    let op_dir = shipped.path().join("kernels/avg_pool2d_backward");
    let body = op_dir.join("avg_pool2d_backward_body.h");
    let choices = op_dir.join("avg_pool2d_backward_tiling_choices.h");
    let (body_text, choices_text) = (
        std::fs::read(&body).unwrap(),
        std::fs::read(&choices).unwrap(),
    );
    let before = shipped.generated();
    let refused = |what: &str| {
        let o = shipped.gen();
        assert_eq!(o.status.code(), Some(1), "{what}: {}", text_of(&o));
        assert!(
            text_of(&o).contains("kernels/avg_pool2d_backward"),
            "{what}: {}",
            text_of(&o)
        );
        assert_eq!(shipped.generated(), before, "{what}");
    };
    std::fs::remove_file(&choices).unwrap();
    refused("a body without its choices");
    std::fs::remove_file(&body).unwrap();
    refused("tiling.yaml alone");
    std::fs::write(op_dir.join("avgpool_body.h"), &body_text).unwrap();
    std::fs::write(&choices, &choices_text).unwrap();
    std::fs::write(&body, &body_text).unwrap();
    refused("a misnamed file beside the body");
    std::fs::remove_dir_all(&op_dir).unwrap();
    let o = shipped.gen();
    assert_eq!(o.status.code(), Some(0), "{}", text_of(&o));
    let out = text_of(&o);
    assert!(
        out.contains("warning: aclnnAvgPool2dBackward: no kernel body in"),
        "{out}"
    );
    assert_eq!(out.matches("no kernel body").count(), 1, "{out}");
}
