//! Loading the tera templates (`templates/` or a user's copy via `--templates`) and rendering
//! them with errors that name the template.

use std::error::Error as _;
use std::path::{Path, PathBuf};

/// Why emitting stops the whole run (exit 2): templates or kernel sources that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("templates folder {} does not exist", .0.display())]
    NoTemplates(PathBuf),
    /// A template that does not parse or render, with tera's cause.
    #[error("{0}")]
    Template(String),
    /// A kernel body or tiling choices in `kernels/` that cannot be filled in.
    #[error("{0}")]
    Kernel(String),
}

/// Every `*.tera` below `dir`, named by their path relative to it (`c/aclnn_header.h.tera`).
pub fn load_templates(dir: &Path) -> Result<tera::Tera, EmitError> {
    if !dir.is_dir() {
        return Err(EmitError::NoTemplates(dir.to_path_buf()));
    }
    let fail = |e: &dyn std::fmt::Display| {
        EmitError::Template(format!("templates in {}: {e}", dir.display()))
    };
    // Listed here rather than with tera's glob: an incremental gen loads them every run.
    let mut templates = Vec::new();
    for path in crate::files::files_below(dir).map_err(|e| fail(&e))? {
        if path.extension().is_some_and(|x| x == "tera") {
            let name = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&path).map_err(|e| fail(&e))?;
            templates.push((name, text));
        }
    }
    templates.sort();
    let mut tera = tera::Tera::default();
    tera.add_raw_templates(templates)
        .map_err(|e| fail(&chain(&e)))?;
    Ok(tera)
}

/// Renders `name` with `context`; the error names the template and tera's cause.
pub fn render(
    tera: &tera::Tera,
    name: &str,
    context: &impl serde::Serialize,
) -> Result<String, EmitError> {
    let context = tera::Context::from_serialize(context)
        .map_err(|e| EmitError::Template(format!("template {name}: {}", chain(&e))))?;
    tera.render(name, &context)
        .map_err(|e| EmitError::Template(format!("template {name}: {}", chain(&e))))
}

/// tera puts the useful part (line, variable) in the error's sources.
fn chain(e: &tera::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_error_names_the_template() {
        let mut tera = tera::Tera::default();
        tera.add_raw_template("c/x.tera", "{{ missing.field }}")
            .unwrap();
        let err = render(&tera, "c/x.tera", &serde_json::json!({})).unwrap_err();
        assert!(err.to_string().contains("c/x.tera"), "{err}");
    }

    #[test]
    fn missing_folder_is_an_error() {
        let err = load_templates(Path::new("/nonexistent/aclgen-templates")).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
    }

    #[test]
    fn parse_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("c")).unwrap();
        std::fs::write(dir.path().join("c/bad.h.tera"), "{% if %}").unwrap();
        let err = load_templates(dir.path()).unwrap_err();
        assert!(err.to_string().contains("bad.h.tera"), "{err}");
    }
}
