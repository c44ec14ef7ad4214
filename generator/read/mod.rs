//! Stage 1: docs and YAML specs in, `OpIr` out. Never panics: every problem is a diagnostic.
//!
//! A doc goes bytes → `decode` (encodings, mojibake) → `scraped` (web-scraped plain text back to
//! markdown) → `structure` (sections, prototypes, parameters, errors) → `OpIr`s.
//!
//! Every diagnostic code, with what it means, is listed in `diag::Code`. A code is capped at 50
//! per file, with a note for the rest. What gen refuses is checked on the IR
//! (`ir::GENERATION_CODES`) and added here, so lint reports it.

pub(crate) mod decode;
mod errors;
mod facts;
mod inplace;
pub mod markdown;
mod params;
mod products;
mod proto;
mod scraped;
mod structure;
mod table;
mod text;

use crate::diag::Code;
use crate::ir::{Diagnostic, OpIr, Severity};
pub use facts::{empty_dims_noop_value, empty_reduces_every_dim, states_promotion};
use text::Sink;
pub use text::{
    ascii_punct, both_dtypes_or_formats, join_pairs, rank_words, same_words, tight_around_chinese,
    MODAL,
};

/// What one input file yields: its ops (a doc may describe several, e.g. `aclnnElu&aclnnInplaceElu`)
/// and problems that belong to no op.
#[derive(Debug, Default)]
pub struct DocRead {
    pub ops: Vec<OpIr>,
    pub diagnostics: Vec<Diagnostic>,
}

impl DocRead {
    /// Every diagnostic of the file, doc-wide ones once, sorted by line.
    pub fn all_diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .chain(self.ops.iter().flat_map(|o| o.diagnostics.iter()))
            .cloned()
            .collect();
        all.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.code, &a.message)
                .cmp(&(&b.file, b.line, b.column, &b.code, &b.message))
        });
        all.dedup();
        all
    }
}

/// Reads one doc from its bytes; `path` is used for provenance only.
pub fn read_doc(path: &str, bytes: &[u8]) -> DocRead {
    let mut sink = Sink::new(path);
    let decoded = decode::decode(bytes);
    let mut text = decoded.text;
    // The decoded lines are quoted only by repair and scrape diagnostics: most docs have neither.
    let split_lines =
        |text: &str| -> Vec<String> { text.split('\n').map(str::to_string).collect() };
    let mut decode_lines = if decoded.repairs.is_empty() {
        Vec::new()
    } else {
        split_lines(&text)
    };
    let mut scraped_lines: Option<Vec<String>> = None;
    for r in &decoded.repairs {
        let sev = if r.is_error() {
            Severity::Error
        } else {
            Severity::Warning
        };
        pass_through(&mut sink, sev, r.code, &r.message, r.line, &decode_lines);
    }
    if let Some((markdown, artifacts)) = scraped::normalize(&text) {
        if decode_lines.is_empty() {
            decode_lines = split_lines(&text);
        }
        for a in &artifacts {
            pass_through(
                &mut sink,
                Severity::Warning,
                Code::ScrapeArtifact,
                &a.message,
                a.line,
                &decode_lines,
            );
        }
        text = markdown;
        scraped_lines = Some(decode_lines);
    }
    let mut doc_sink = Sink::new(path);
    let mut ops = structure::read_markdown(path, &text, &mut doc_sink);
    add_generation_problems(&mut ops, &text);
    if let Some(original) = &scraped_lines {
        // Locations were found in the restored markdown; quote the file's own lines.
        let restored: Vec<&str> = text.split('\n').collect();
        requote(&mut doc_sink.diags, &restored, original);
        for op in &mut ops {
            requote(&mut op.diagnostics, &restored, original);
            for f in &mut op.functions {
                if let Some(loc) = f.source.as_mut() {
                    let (r, o) = line_pair(&restored, original, loc.line);
                    loc.column = remap_column(r, o, loc.column);
                }
            }
        }
    }
    sink.diags.extend(doc_sink.into_diags());
    let doc_diags = sink.into_diags();
    if ops.is_empty() {
        return DocRead {
            ops,
            diagnostics: doc_diags,
        };
    }
    // Doc-wide problems (encoding, products, title) concern every op read from the doc.
    for op in &mut ops {
        let mut diags = doc_diags.clone();
        diags.append(&mut op.diagnostics);
        op.diagnostics = diags;
    }
    DocRead {
        ops,
        diagnostics: Vec::new(),
    }
}

/// What gen would refuse, as errors at the doc's line, so `lint` reports it too.
fn add_generation_problems(ops: &mut [OpIr], text: &str) {
    for op in ops {
        for mut d in op.generation_problems() {
            if d.line > 0 {
                d.source_line = text.split('\n').nth(d.line - 1).unwrap_or("").to_string();
            }
            op.diagnostics.push(d);
        }
    }
}

fn line_pair<'a>(restored: &[&'a str], original: &'a [String], line: usize) -> (&'a str, &'a str) {
    let i = line.saturating_sub(1);
    (
        restored.get(i).copied().unwrap_or(""),
        original.get(i).map(String::as_str).unwrap_or(""),
    )
}

/// Points diagnostics found in restored text at the original line (same line numbers).
fn requote(diags: &mut [Diagnostic], restored: &[&str], original: &[String]) {
    for d in diags.iter_mut().filter(|d| d.line > 0) {
        let (r, o) = line_pair(restored, original, d.line);
        if r == o {
            continue;
        }
        d.column = remap_column(r, o, d.column);
        d.source_line = o.chars().take(400).collect();
    }
}

/// The column in `original` of the text found at `column` of `restored` (0 if it is not there).
fn remap_column(restored: &str, original: &str, column: usize) -> usize {
    if column == 0 {
        return 0;
    }
    let needle: String = restored.chars().skip(column - 1).take(12).collect();
    if needle.is_empty() {
        return 0;
    }
    original
        .find(&needle)
        .map(|b| original[..b].chars().count() + 1)
        .unwrap_or(0)
}

fn pass_through(
    sink: &mut Sink,
    sev: Severity,
    code: Code,
    msg: &str,
    line: usize,
    lines: &[String],
) {
    if line == 0 {
        sink.file(sev, code, msg);
    } else {
        let src = lines.get(line - 1).map(String::as_str).unwrap_or("");
        sink.at(sev, code, msg, line - 1, src);
    }
}

/// A program of a doc's example section: the call CANN documents as working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExampleProgram {
    /// The doc line (1-based) of the program's first line.
    pub line: usize,
    pub code: String,
    /// The products the text just before the program names ("<term>Atlas A2 …</term>：" above
    /// the block); empty when it names none.
    pub products: Vec<String>,
}

/// The fenced code blocks of a doc that make a first-phase call (`aclnn…GetWorkspaceSize(`).
/// A doc that is not markdown (scraped text, HTML) is normalized as `read_doc` does first.
pub fn example_programs(bytes: &[u8]) -> Vec<ExampleProgram> {
    let text = decode::decode(bytes).text;
    // Scraped text is restored to markdown line for line, so its line numbers still hold.
    let text = scraped::normalize(&text).map_or(text, |(markdown, _)| markdown);
    let doc = markdown::Doc::parse(&text);
    doc.code_blocks
        .iter()
        .filter_map(|b| {
            let code = doc.text(b.content());
            if !code.contains("GetWorkspaceSize(") {
                return None;
            }
            let lead = (b.open.saturating_sub(3)..b.open)
                .rev()
                .map(|i| doc.line(i))
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            Some(ExampleProgram {
                line: b.open + 2,
                code,
                products: crate::products::products_in(lead),
            })
        })
        .collect()
}
