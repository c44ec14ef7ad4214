//! Diagnostics: building them with a location, and rendering them like rustc and ruff do.

use crate::ir::{Diagnostic, Severity};
use annotate_snippets::{Level, Renderer, Snippet};

impl Diagnostic {
    /// A diagnostic at `file:line:column` (1-based; column 0 = whole line) quoting `source_line`.
    pub fn at(
        severity: Severity,
        code: &str,
        message: impl Into<String>,
        file: &str,
        line: usize,
        column: usize,
        source_line: &str,
    ) -> Self {
        Diagnostic {
            severity,
            code: code.to_string(),
            message: message.into(),
            file: file.to_string(),
            line,
            column,
            source_line: source_line.trim_end_matches(['\r', '\n']).to_string(),
        }
    }

    /// A diagnostic about a whole file (no line).
    pub fn file_level(
        severity: Severity,
        code: &str,
        message: impl Into<String>,
        file: &str,
    ) -> Self {
        Diagnostic::at(severity, code, message, file, 0, 0, "")
    }
}

/// Renders diagnostics for a terminal: `error[code]: message`, `--> file:line:col`, the source line
/// and a caret under the column.
pub fn render(diags: &[Diagnostic]) -> String {
    let renderer = Renderer::plain();
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Note => Level::Note,
        };
        let title = level.title(&d.message).id(&d.code);
        let origin = format!("{}:{}:{}", d.file, d.line, d.column.max(1));
        let whole_file = format!("{} (whole file)", d.file);
        let message = if d.line == 0 {
            title.footer(Level::Note.title(&whole_file))
        } else if d.source_line.is_empty() {
            // Past the end of the file (an unclosed YAML list): the place, without a snippet.
            title.footer(Level::Note.title(&origin))
        } else {
            let span = caret_span(&d.source_line, d.column);
            title.snippet(
                Snippet::source(&d.source_line)
                    .line_start(d.line)
                    // annotate-snippets appends `:line:column` (from the span) itself.
                    .origin(&d.file)
                    .annotation(level.span(span).label("")),
            )
        };
        out.push_str(&renderer.render(message).to_string());
        out.push('\n');
    }
    out
}

/// Byte span of the character at 1-based `column` (the whole line when column is 0).
fn caret_span(line: &str, column: usize) -> std::ops::Range<usize> {
    if column == 0 || line.is_empty() {
        return 0..line.len();
    }
    let mut indices = line.char_indices().skip(column - 1);
    match indices.next() {
        Some((start, c)) => start..start + c.len_utf8(),
        None => line.len().saturating_sub(1)..line.len(),
    }
}

/// One line per diagnostic, `file:line:col: severity[code]: message`, for logs and grep.
pub fn render_short(d: &Diagnostic) -> String {
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    // A whole-file diagnostic has no line to point at: `file: …`, not `file:0:1: …`.
    let place = if d.line == 0 {
        d.file.clone()
    } else {
        format!("{}:{}:{}", d.file, d.line, d.column.max(1))
    };
    format!("{place}: {sev}[{}]: {}", d.code, d.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_source_and_caret() {
        let d = Diagnostic::at(
            Severity::Warning,
            "name-mismatch",
            "heading differs",
            "a.md",
            42,
            5,
            "### aclnnFoo",
        );
        let text = render(&[d]);
        assert!(
            text.contains("warning[name-mismatch]: heading differs"),
            "{text}"
        );
        assert!(text.contains("a.md:42:5"), "{text}");
        assert!(
            !text.contains("a.md:42:5:"),
            "location printed twice: {text}"
        );
        assert!(text.contains("### aclnnFoo"), "{text}");
    }

    #[test]
    fn whole_file_diagnostics_say_so_instead_of_line_zero() {
        let d = Diagnostic::file_level(Severity::Warning, "no-products", "no products", "a.md");
        assert_eq!(render_short(&d), "a.md: warning[no-products]: no products");
        let text = render(&[d]);
        assert!(text.contains("a.md (whole file)"), "{text}");
        assert!(!text.contains(":0:"), "{text}");
    }

    #[test]
    fn caret_span_handles_wide_chars_and_overflow() {
        assert_eq!(caret_span("参数x", 3), 6..7);
        assert_eq!(caret_span("ab", 9), 1..2);
        assert_eq!(caret_span("ab", 0), 0..2);
    }
}
