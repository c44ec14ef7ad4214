//! `../shared/cann/opapi-ut`, runnable here: in place, or from a farm of symlinks where the
//! checkout of `../shared` stored symlinks as text files (`opapi_ut_in`). Nothing is copied into
//! the project and nothing in `../shared` is written.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The `opapi-ut` script with its runtime built (once per test binary); `None`, with the reason
/// printed, where `../shared/cann/opapi-ut` or gtest is absent. A build that fails fails the
/// test: it is no reason to skip.
pub fn opapi_ut() -> Option<PathBuf> {
    static TOOL: OnceLock<Option<PathBuf>> = OnceLock::new();
    TOOL.get_or_init(|| {
        let cann = super::repo().join("../shared/cann");
        if !cann.join("opapi-ut/opapi-ut").is_file() {
            println!("skipped: ../shared/cann/opapi-ut is absent");
            return None;
        }
        if !Path::new("/usr/include/gtest/gtest.h").is_file() {
            println!("skipped: gtest is not installed (apt-get install libgtest-dev)");
            return None;
        }
        let tool = opapi_ut_in(&cann);
        let built = std::process::Command::new(&tool)
            .args(["build", "-j", "2"])
            .output()
            .expect("opapi-ut runs");
        assert!(
            built.status.success(),
            "opapi-ut build failed:\n{}",
            super::text(&built.stderr)
        );
        Some(tool)
    })
    .clone()
}

/// `opapi-ut`, from `../shared/cann` itself, or from a farm of symlinks to it when that checkout
/// lost its symlinks (git wrote them as files holding their target, such as
/// `runtime/pkg_inc/base/log_types.h` = `../../include/dfx/base/log_types.h`, which breaks
/// opapi-ut's build): the farm restores them, and `runtime/include/dfx` is opapi-ut's copy of that
/// folder. The farm holds symlinks and a copy of the opapi-ut script (which finds its folder by
/// its real path), in the temp dir, never in the repo.
fn opapi_ut_in(cann: &Path) -> PathBuf {
    // Absolute links: a farm must not depend on the checkout that made it.
    let cann = cann.canonicalize().expect("../shared/cann");
    let broken = lost_links(&cann.join("runtime"));
    if broken.is_empty() {
        return cann.join("opapi-ut/opapi-ut");
    }
    // One farm per target folder, made anew by each test binary (links only: cheap), aside and
    // renamed into place, so a concurrent run never sees half a farm.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let root = tmp.join("cann-farm");
    let staging = tmp.join(format!("cann-farm.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    build_farm(&cann, &staging.join("cann"), broken);
    let _ = std::fs::remove_dir_all(&root);
    if std::fs::rename(&staging, &root).is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    root.join("cann/opapi-ut/opapi-ut")
}

fn build_farm(cann: &Path, farm: &Path, broken: Vec<(PathBuf, String)>) {
    std::fs::create_dir_all(farm.join("opapi-ut")).expect("farm dir");
    for entry in std::fs::read_dir(cann)
        .expect("read ../shared/cann")
        .flatten()
    {
        let name = entry.file_name();
        if name != "runtime" && name != "opapi-ut" {
            symlink(&entry.path(), &farm.join(&name));
        }
    }
    for entry in std::fs::read_dir(cann.join("opapi-ut"))
        .expect("read opapi-ut")
        .flatten()
    {
        if entry.file_name() != "opapi-ut" {
            symlink(
                &entry.path(),
                &farm.join("opapi-ut").join(entry.file_name()),
            );
        }
    }
    std::fs::copy(
        cann.join("opapi-ut/opapi-ut"),
        farm.join("opapi-ut/opapi-ut"),
    )
    .expect("copy the opapi-ut script");
    link_tree(&cann.join("runtime"), &farm.join("runtime"));
    for (file, target) in broken {
        let at = farm.join("runtime").join(file);
        std::fs::remove_file(&at).expect("remove a lost link");
        symlink(Path::new(&target), &at);
    }
    let dfx = farm.join("runtime/include/dfx");
    if !dfx.exists() {
        symlink(&cann.join("opapi-ut/src/runtime/include/dfx"), &dfx);
    }
}

/// Files under `dir` that are lost symlinks: a short single line that is a relative path to a
/// header. Paths relative to `dir`, with their targets.
fn lost_links(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let t = text.trim_end();
            if t.len() < 200 && t.starts_with("../") && t.ends_with(".h") && !t.contains('\n') {
                let rel = path.strip_prefix(dir).expect("under dir").to_path_buf();
                out.push((rel, t.to_string()));
            }
        }
    }
    out
}

/// `cp -rs`: the folders of `from` made anew under `to`, every file a symlink.
fn link_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("farm dir");
    for entry in std::fs::read_dir(from)
        .expect("read a shared folder")
        .flatten()
    {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            link_tree(&src, &dst);
        } else {
            symlink(&src, &dst);
        }
    }
}

fn symlink(target: &Path, at: &Path) {
    std::os::unix::fs::symlink(target, at)
        .unwrap_or_else(|e| panic!("symlink {} -> {}: {e}", at.display(), target.display()));
}
