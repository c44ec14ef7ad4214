//! Stage 1: docs and YAML specs in, `OpIr` out. Never panics: every problem is a diagnostic.
//!
//! A doc goes bytes → `decode` (encodings, mojibake) → `scraped` (web-scraped plain text back to
//! markdown) → `structure` (sections, prototypes, parameters, errors) → `OpIr`s.
//!
//! Diagnostic codes of the structure reader (stable; `decode`/`scraped` add their own):
//! `no-prototype` (error: no `aclnn…GetWorkspaceSize(...)`), `single-phase-api`, `too-many-ops`,
//! `missing-return-type`, `no-execute-function`, `name-mismatch` (title/heading vs prototype),
//! `no-products`, `unknown-product`, `damaged-product`, `product-not-listed`, `no-param-section`,
//! `param-undocumented`, `param-not-in-prototype`, `type-drift` (prototype vs description type),
//! `role-conflict`, `note-unknown-param`, `unknown-dtype`, `unknown-format`, `no-error-table`,
//! `scrape-artifact` (from `scraped`). A code is capped at 50 per file, with a note for the rest.
//! `no-prototype` also names a misspelled `…GetWorkspaceSze`; `unknown-dtype` is an error for a
//! tensor's near miss of a known dtype. What gen refuses is checked on the IR
//! (`ir::GENERATION_CODES`: `unknown-c-type`, `bad-param-name`, `no-two-phase-api`,
//! `no-tensor-param`) and added here, so lint reports it. `import` adds `import-overwrite`;
//! `decode` adds `legacy-encoding` (warning) and `unknown-encoding` (error).

pub mod decode;
mod errors;
mod facts;
pub mod markdown;
mod params;
pub mod products;
mod proto;
pub mod scraped;
pub mod specs;
pub mod structure;
mod table;
pub mod text;

pub use specs::{cmd_import, load_specs};

use crate::cli::{DataFormat, Failure, Outcome, ReportFormat};
use crate::diag::{render, render_short};
use crate::ir::{Diagnostic, OpIr, Severity};
use std::path::{Path, PathBuf};
use text::Sink;

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

/// The project's specs: docs and YAML overlays merged into one IR per op, sorted by op name.
#[derive(Debug, Default)]
pub struct Specs {
    pub ops: Vec<OpIr>,
    pub diagnostics: Vec<Diagnostic>,
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
                "scrape-artifact",
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
    code: &str,
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

/// Reads a doc or a YAML spec (dispatch on extension for YAML only; docs dispatch on content).
pub fn read_path(path: &Path) -> Result<DocRead, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let name = path.display().to_string();
    let is_yaml = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml") | Some("yml")
    );
    if is_yaml {
        let text = String::from_utf8_lossy(&bytes);
        return Ok(specs::read_spec_file(&name, &text));
    }
    Ok(read_doc(&name, &bytes))
}

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

/// Reads every path; unreadable ones are reported and make the command exit 2 at the end.
/// Reads every file on all cores; results keep the order of `paths`.
fn read_all(paths: &[PathBuf]) -> Result<(Vec<DocRead>, Vec<String>), Failure> {
    use rayon::prelude::*;
    let files = expand_paths(paths)?;
    let results: Vec<(&PathBuf, Result<DocRead, Failure>)> =
        files.par_iter().map(|f| (f, read_path(f))).collect();
    let mut reads = Vec::new();
    let mut unreadable = Vec::new();
    for (f, result) in results {
        match result {
            Ok(r) => reads.push(r),
            Err(Failure::Usage(msg)) => unreadable.push(msg),
            Err(Failure::Input) => unreadable.push(format!("cannot read {}", f.display())),
        }
    }
    Ok((reads, unreadable))
}

/// `lint`'s text report: each file's diagnostics rendered on all cores, in file order.
pub fn lint_text(per_file: &[Vec<Diagnostic>]) -> String {
    use rayon::prelude::*;
    per_file
        .par_iter()
        .map(|diags| render(diags))
        .collect::<Vec<String>>()
        .concat()
}

fn finish(reads: &[DocRead], unreadable: Vec<String>) -> Outcome {
    if !unreadable.is_empty() {
        return Err(Failure::Usage(unreadable.join("\n")));
    }
    let errors = reads
        .iter()
        .flat_map(DocRead::all_diagnostics)
        .any(|d| d.severity == Severity::Error);
    if errors {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// `aclgen show`: the IR as JSON (or YAML) on stdout, diagnostics on stderr.
pub fn cmd_show(paths: &[PathBuf], format: DataFormat) -> Outcome {
    let (reads, unreadable) = read_all(paths)?;
    let ops: Vec<&OpIr> = reads.iter().flat_map(|r| r.ops.iter()).collect();
    let out = match format {
        DataFormat::Json => {
            serde_json::to_string_pretty(&ops).map_err(|e| Failure::usage(e.to_string()))?
        }
        DataFormat::Yaml => {
            serde_yaml::to_string(&ops).map_err(|e| Failure::usage(e.to_string()))?
        }
    };
    println!("{out}");
    for r in &reads {
        for d in r.all_diagnostics() {
            eprintln!("{}", render_short(&d));
        }
    }
    finish(&reads, unreadable)
}

/// `aclgen lint`: every problem with file:line:column and the source line.
pub fn cmd_lint(paths: &[PathBuf], format: ReportFormat, errors_only: bool) -> Outcome {
    use rayon::prelude::*;
    let files = expand_paths(paths)?;
    // Each file is read, its diagnostics kept and its IR dropped at once, on all cores: lint
    // holds no ops, so its memory does not grow with the corpus.
    let results: Vec<Result<Vec<Diagnostic>, String>> = files
        .par_iter()
        .map(|f| match read_path(f) {
            Ok(read) => {
                let mut diags = read.all_diagnostics();
                if errors_only {
                    diags.retain(|d| d.severity == Severity::Error);
                }
                Ok(diags)
            }
            Err(Failure::Usage(msg)) => Err(msg),
            Err(Failure::Input) => Err(format!("cannot read {}", f.display())),
        })
        .collect();
    let mut per_file = Vec::new();
    let mut unreadable = Vec::new();
    for result in results {
        match result {
            Ok(diags) => per_file.push(diags),
            Err(msg) => unreadable.push(msg),
        }
    }
    let count = |s: Severity| {
        per_file
            .iter()
            .flatten()
            .filter(|d| d.severity == s)
            .count()
    };
    match format {
        ReportFormat::Text => {
            print!("{}", lint_text(&per_file));
            eprintln!(
                "{} file(s): {} error(s), {} warning(s)",
                per_file.len(),
                count(Severity::Error),
                count(Severity::Warning)
            );
        }
        ReportFormat::Json => {
            let diags: Vec<&Diagnostic> = per_file.iter().flatten().collect();
            let out =
                serde_json::to_string_pretty(&diags).map_err(|e| Failure::usage(e.to_string()))?;
            println!("{out}");
        }
    }
    for u in &unreadable {
        eprintln!("error: {u}");
    }
    if !unreadable.is_empty() {
        return Err(Failure::Usage(format!(
            "{} path(s) could not be read",
            unreadable.len()
        )));
    }
    if count(Severity::Error) > 0 {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}
