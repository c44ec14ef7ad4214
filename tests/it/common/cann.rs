//! `../shared/cann/opapi-ut` made runnable from a checkout whose symlinks were stored as text
//! files (`runtime/pkg_inc/base/log_types.h` holds `../../include/dfx/base/log_types.h`): a farm
//! of links to `../shared/cann` with those files linked to their targets, built once per test
//! binary in the target folder (a stable path, so opapi-ut's cache is built once). Nothing is
//! copied into the project and nothing in `../shared` is written.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The `opapi-ut` script of the farm; `None` (with the reason printed) where it cannot run.
pub fn opapi_ut() -> Option<PathBuf> {
    static TOOL: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let tool = TOOL.get_or_init(|| {
        let shared = super::repo().join("../shared/cann");
        if !shared.join("opapi-ut/opapi-ut").is_file() {
            return Err("../shared/cann/opapi-ut is absent".into());
        }
        if !Path::new("/usr/include/gtest/gtest.h").is_file() {
            return Err("gtest is not installed (apt-get install libgtest-dev)".into());
        }
        let farm = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cann-farm/cann");
        build_farm(&shared, &farm).map_err(|e| format!("cannot link {}: {e}", farm.display()))?;
        let tool = farm.join("opapi-ut/opapi-ut");
        let built = std::process::Command::new(&tool)
            .args(["build", "-j", "2"])
            .output()
            .map_err(|e| format!("opapi-ut does not run: {e}"))?;
        if !built.status.success() {
            let err = super::text(&built.stderr);
            let tail: Vec<&str> = err.lines().rev().take(15).collect();
            return Err(format!(
                "opapi-ut build failed:\n{}",
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            ));
        }
        Ok(tool)
    });
    match tool {
        Ok(t) => Some(t.clone()),
        Err(why) => {
            println!("skipped: {why}");
            None
        }
    }
}

/// `farm` mirrors `shared`: links to every entry, but `runtime/` is a tree of links (text-file
/// symlinks resolved) and the `opapi-ut` script is a copy (it finds CANN relative to its real
/// path).
fn build_farm(shared: &Path, farm: &Path) -> std::io::Result<()> {
    if farm.exists() {
        std::fs::remove_dir_all(farm)?;
    }
    std::fs::create_dir_all(farm)?;
    for entry in std::fs::read_dir(shared)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), farm.join(entry.file_name()));
        match entry.file_name().to_str() {
            Some("runtime") => mirror(&src, &dst, shared)?,
            Some("opapi-ut") => {
                std::fs::create_dir_all(&dst)?;
                for e in std::fs::read_dir(&src)? {
                    let e = e?;
                    if e.file_name() == "opapi-ut" {
                        std::fs::copy(e.path(), dst.join("opapi-ut"))?;
                    } else {
                        std::os::unix::fs::symlink(e.path(), dst.join(e.file_name()))?;
                    }
                }
            }
            _ => std::os::unix::fs::symlink(&src, &dst)?,
        }
    }
    Ok(())
}

fn mirror(src: &Path, dst: &Path, shared: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for e in std::fs::read_dir(src)? {
        let e = e?;
        let (from, to) = (e.path(), dst.join(e.file_name()));
        if e.file_type()?.is_dir() {
            mirror(&from, &to, shared)?;
        } else {
            let target = stored_link(&from, shared).unwrap_or(from);
            std::os::unix::fs::symlink(target, to)?;
        }
    }
    Ok(())
}

/// The file a text-file symlink names: relative to its folder, else the same path below
/// opapi-ut's own copy of runtime's sources.
fn stored_link(file: &Path, shared: &Path) -> Option<PathBuf> {
    if std::fs::metadata(file).ok()?.len() > 200 {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let rel = text.trim();
    if !rel.starts_with("../") || rel.contains('\n') {
        return None;
    }
    let direct = file.parent()?.join(rel);
    if direct.is_file() {
        return Some(direct);
    }
    let below = rel.trim_start_matches("../");
    let copy = shared.join("opapi-ut/src/runtime").join(below);
    copy.is_file().then_some(copy)
}
