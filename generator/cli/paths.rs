//! Path arguments: a folder means every doc and spec below it.

use super::Failure;
use std::path::{Path, PathBuf};

/// Files named by `paths`: a folder means every file below it, sorted.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(Failure::usage(format!(
                "no such file or folder: {}",
                p.display()
            )));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Failure::usage(format!("cannot list {}: {e}", dir.display())))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| Failure::usage(format!("cannot list {}: {e}", dir.display())))?;
        let path = entry.path();
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            walk(&path, out)?;
        } else if is_input_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// Inside folders only docs and specs are read (README.md of the specs folder excluded).
fn is_input_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    !name.eq_ignore_ascii_case("README.md")
        && matches!(ext, "md" | "txt" | "html" | "htm" | "yaml" | "yml")
}
