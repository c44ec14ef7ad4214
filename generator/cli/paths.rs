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

/// What a path argument of `show`/`lint` names: files read one by one, or a specs folder read as
/// gen reads it (`docs/` and `ops/` merged, overlays applied, rules made).
#[derive(Debug)]
pub enum Input {
    File(PathBuf),
    /// A specs folder; `only`: the diagnostics of that one file of it (a YAML spec of its `ops/`).
    Specs {
        dir: PathBuf,
        only: Option<PathBuf>,
    },
}

/// The inputs `paths` name. A folder with `docs/` or `ops/` is a specs folder; with `specs_files`,
/// a YAML file in a specs folder's `ops/` is that folder restricted to the file (an overlay means
/// nothing without the doc it corrects). Any other folder means every doc and spec below it.
pub fn expand_inputs(paths: &[PathBuf], specs_files: bool) -> Result<Vec<Input>, Failure> {
    let mut out = Vec::new();
    for p in paths {
        if is_specs_folder(p) {
            out.push(Input::Specs {
                dir: p.clone(),
                only: None,
            });
        } else if let Some(dir) = specs_files.then(|| specs_folder_of(p)).flatten() {
            out.push(Input::Specs {
                dir,
                only: Some(p.clone()),
            });
        } else {
            out.extend(
                expand_paths(std::slice::from_ref(p))?
                    .into_iter()
                    .map(Input::File),
            );
        }
    }
    Ok(out)
}

/// A folder holding `docs/` or `ops/`, as `gen --specs` takes it.
pub fn is_specs_folder(p: &Path) -> bool {
    p.is_dir() && (p.join("docs").is_dir() || p.join("ops").is_dir())
}

/// The specs folder whose `ops/` holds the YAML file `p`.
fn specs_folder_of(p: &Path) -> Option<PathBuf> {
    let yaml = p.is_file() && crate::specs::is_yaml(p);
    let ops = p
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == "ops"))?;
    let dir = ops.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    yaml.then(|| dir.to_path_buf())
}
