//! Loading the tera templates (`templates/` or a user's copy via `--templates`) and rendering
//! them with errors that name the template.

use std::error::Error as _;
use std::path::Path;

/// Every `*.tera` below `dir`, named by their path relative to it (`c/aclnn_header.h.tera`).
pub fn load_templates(dir: &Path) -> Result<tera::Tera, String> {
    if !dir.is_dir() {
        return Err(format!("templates folder {} does not exist", dir.display()));
    }
    let glob = format!("{}/**/*.tera", dir.display());
    tera::Tera::new(&glob).map_err(|e| format!("templates in {}: {}", dir.display(), chain(&e)))
}

/// Renders `name` with `context`; the error names the template and tera's cause.
pub fn render(
    tera: &tera::Tera,
    name: &str,
    context: &impl serde::Serialize,
) -> Result<String, String> {
    let context = tera::Context::from_serialize(context)
        .map_err(|e| format!("template {name}: {}", chain(&e)))?;
    tera.render(name, &context)
        .map_err(|e| format!("template {name}: {}", chain(&e)))
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
        assert!(err.contains("c/x.tera"), "{err}");
    }

    #[test]
    fn missing_folder_is_an_error() {
        let err = load_templates(Path::new("/nonexistent/aclgen-templates")).unwrap_err();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn parse_error_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("c")).unwrap();
        std::fs::write(dir.path().join("c/bad.h.tera"), "{% if %}").unwrap();
        let err = load_templates(dir.path()).unwrap_err();
        assert!(err.contains("bad.h.tera"), "{err}");
    }
}
