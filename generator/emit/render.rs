//! Loading the tera templates (`templates/` or a user's copy via `--templates`) and rendering
//! them with errors that name the template.

use std::error::Error as _;
use std::path::{Path, PathBuf};

/// Why emitting stops the whole run (exit 2): templates or kernel sources that cannot be used.
/// Each keeps its cause as its `source`; the message also spells out tera's chain (the useful
/// part, line and variable, is in tera's sources), as users read it.
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("templates folder {} does not exist", .0.display())]
    NoTemplates(PathBuf),
    /// A templates folder (or one of its files) that cannot be read.
    #[error("templates in {}: {source}", dir.display())]
    TemplatesUnreadable {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// Templates that do not parse (tera's error names the file).
    #[error("templates in {}: {}", dir.display(), chain(.source))]
    TemplatesParse { dir: PathBuf, source: tera::Error },
    /// A template that does not render (or its context), with tera's cause.
    #[error("template {name}: {}", chain(.source))]
    Template { name: String, source: tera::Error },
    /// A template context that does not serialize to JSON.
    #[error("template context: {0}")]
    Context(#[source] serde_json::Error),
    /// A kernel template (`ascend/kernel/…`) that does not render with the op's kernel sources.
    #[error("{name}: {}", chain(.source))]
    KernelTemplate { name: String, source: tera::Error },
    /// A file of `kernels/` that cannot be read.
    #[error("{}: {source}", path.display())]
    KernelIo {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A `kernels/<op>/tiling.yaml` that does not parse.
    #[error("{}: {source}", path.display())]
    KernelYaml {
        path: PathBuf,
        source: serde_yaml::Error,
    },
    /// A kernel body or tiling choices in `kernels/` that cannot be filled in.
    #[error("{0}")]
    Kernel(String),
}

impl EmitError {
    pub(crate) fn kernel_io(path: &Path, source: std::io::Error) -> Self {
        EmitError::KernelIo {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Every `*.tera` below `dir`, named by their path relative to it (`c/aclnn_header.h.tera`).
pub fn load_templates(dir: &Path) -> Result<tera::Tera, EmitError> {
    if !dir.is_dir() {
        return Err(EmitError::NoTemplates(dir.to_path_buf()));
    }
    let fail = |source| EmitError::TemplatesUnreadable {
        dir: dir.to_path_buf(),
        source,
    };
    // Listed here rather than with tera's glob: an incremental gen loads them every run.
    let mut templates = Vec::new();
    for path in crate::files::files_below(dir).map_err(fail)? {
        if path.extension().is_some_and(|x| x == "tera") {
            let name = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            let text = std::fs::read_to_string(&path).map_err(fail)?;
            templates.push((name, text));
        }
    }
    templates.sort();
    let mut tera = tera::Tera::default();
    tera.add_raw_templates(templates)
        .map_err(|source| EmitError::TemplatesParse {
            dir: dir.to_path_buf(),
            source,
        })?;
    Ok(tera)
}

/// Renders `name` with `context`; the error names the template and tera's cause.
pub fn render(
    tera: &tera::Tera,
    name: &str,
    context: &impl serde::Serialize,
) -> Result<String, EmitError> {
    let template = |source| EmitError::Template {
        name: name.to_string(),
        source,
    };
    let context = tera::Context::from_serialize(context).map_err(template)?;
    tera.render(name, &context).map_err(template)
}

/// tera puts the useful part (line, variable) in the error's sources.
pub(crate) fn chain(e: &tera::Error) -> String {
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
        // The cause is kept, and the message still spells out its chain.
        let EmitError::Template { name, source } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(name, "c/x.tera");
        let cause = err.source().expect("tera's error is the source");
        assert_eq!(cause.to_string(), source.to_string());
        assert_eq!(
            err.to_string(),
            format!("template c/x.tera: {}", chain(source))
        );
        assert!(err.to_string().contains("missing"), "{err}");
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
