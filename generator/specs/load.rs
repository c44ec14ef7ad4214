//! A specs folder (`docs/` and `ops/`) → one IR per op, sorted by op name.

use super::is_op_name;
use super::merge::{is_newer_format, merge_candidates, Candidate};
use super::overlay::apply_overlay;
use super::refresh_generation_problems;
use super::schema::at_key;
use super::schema::full_to_ir;
use super::schema::line_of_key;
use super::schema::parse_spec;
use super::schema::source_line;
use super::schema::SpecFile;
use super::SpecsError;
use crate::diag::Code;
use crate::ir::{Diagnostic, OpIr, Severity};
use crate::read::DocRead;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Loading and reconciling

/// The project's specs: docs and YAML overlays merged into one IR per op, sorted by op name.
#[derive(Debug, Default)]
pub struct Specs {
    pub ops: Vec<OpIr>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads `docs/` and `ops/` below `dir` into one IR per op, sorted by op name.
pub fn load_specs(dir: &Path) -> Result<Specs, SpecsError> {
    load_specs_with(dir, &crate::read::read_doc)
}

/// Every file `load_specs` reads: the docs below `docs/` (or the folder itself), then
/// `ops/*.yaml`, each list sorted.
pub fn input_files(dir: &Path) -> Result<Vec<PathBuf>, SpecsError> {
    let mut files = files_below(&docs_dir(dir))?;
    files.extend(yaml_files(&dir.join("ops"))?);
    Ok(files)
}

/// Of `files` (found below `dir`), those `load_specs` reads (see `input_files`).
pub fn select_inputs<'a>(
    dir: &Path,
    files: impl IntoIterator<Item = &'a PathBuf>,
) -> impl Iterator<Item = &'a PathBuf> {
    let docs = docs_dir(dir);
    let ops = dir.join("ops");
    files.into_iter().filter(move |p| {
        p.starts_with(&docs) || (p.parent() == Some(ops.as_path()) && super::is_yaml(p))
    })
}

/// `load_specs` on some of its input files only (`only` holds paths as `input_files` gives
/// them): what an incremental gen reads again when those files changed.
pub fn load_specs_only(dir: &Path, only: &BTreeSet<PathBuf>) -> Result<Specs, SpecsError> {
    load_selected(dir, &crate::read::read_doc, Some(only))
}

pub(super) type DocReader<'a> = &'a (dyn Fn(&str, &[u8]) -> DocRead + Sync);

pub(super) fn load_specs_with(dir: &Path, read: DocReader) -> Result<Specs, SpecsError> {
    load_selected(dir, read, None)
}

/// Reads every input file, or with `only` those of them (without listing the folders: an
/// incremental gen reads one file of hundreds).
fn load_selected(
    dir: &Path,
    read: DocReader,
    only: Option<&BTreeSet<PathBuf>>,
) -> Result<Specs, SpecsError> {
    if !dir.is_dir() {
        return Err(SpecsError::NoFolder(dir.to_path_buf()));
    }
    let mut specs = Specs::default();
    let mut candidates = Vec::new();
    let ops_dir = dir.join("ops");
    let (docs, yamls) = match only {
        None => (files_below(&docs_dir(dir))?, yaml_files(&ops_dir)?),
        Some(only) => {
            let docs = docs_dir(dir);
            let is_yaml = |p: &&PathBuf| p.parent() == Some(ops_dir.as_path()) && super::is_yaml(p);
            (
                only.iter()
                    .filter(|p| p.starts_with(&docs))
                    .cloned()
                    .collect(),
                only.iter().filter(is_yaml).cloned().collect(),
            )
        }
    };
    for doc in read_docs_parallel(&docs, read)? {
        add_doc_candidates(doc, &mut candidates, &mut specs.diagnostics);
    }
    let mut overlays = Vec::new();
    for path in yamls {
        let name = path.to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).map_err(|e| SpecsError::io(&path, e))?;
        let Ok(text) = String::from_utf8(bytes) else {
            specs.diagnostics.push(Diagnostic::file_level(
                Severity::Error,
                Code::SpecInvalid,
                "YAML spec is not UTF-8",
                &name,
            ));
            continue;
        };
        match parse_spec(&name, &text) {
            Ok(SpecFile::Full(full)) => {
                warn_file_name(&path, &full.op, &name, &text, &mut specs.diagnostics);
                candidates.push(Candidate {
                    op: full_to_ir(full, &name),
                    file: name,
                    newer_format: false,
                    full_spec: true,
                    product_lines: BTreeMap::new(),
                });
            }
            Ok(SpecFile::Overlay(overlay)) => overlays.push((name, text, overlay)),
            Err(d) => specs.diagnostics.push(d),
        }
    }
    let mut ops = merge_candidates(candidates, &mut specs.diagnostics);
    for (name, text, overlay) in &overlays {
        match ops.get_mut(&overlay.op) {
            Some(op) => {
                let diags = apply_overlay(op, overlay, name, text);
                op.diagnostics.extend(diags);
            }
            None => specs.diagnostics.push(at_key(
                name,
                text,
                "op",
                format!("overlay for op `{}` that no doc describes", overlay.op),
            )),
        }
    }
    specs.ops = ops.into_values().collect();
    specs.ops.iter_mut().for_each(refresh_generation_problems);
    Ok(specs)
}

/// `dir/docs` in a project's specs folder; a folder with neither `docs/` nor `ops/` is itself a
/// folder of docs (`audit --specs ../shared/corpus/ops-nn/docs`).
fn docs_dir(dir: &Path) -> PathBuf {
    if !dir.join("docs").is_dir() && !dir.join("ops").is_dir() && dir.is_dir() {
        dir.to_path_buf()
    } else {
        dir.join("docs")
    }
}

/// One doc as read, with the facts reconciliation needs from its raw bytes.
pub(super) struct ReadDoc {
    path: PathBuf,
    doc: DocRead,
    newer_format: bool,
}

pub(super) fn read_one(path: &Path, read: DocReader) -> Result<ReadDoc, SpecsError> {
    let bytes = std::fs::read(path).map_err(|e| SpecsError::io(path, e))?;
    Ok(ReadDoc {
        path: path.to_path_buf(),
        doc: read(&path.to_string_lossy(), &bytes),
        newer_format: is_newer_format(&bytes),
    })
}

/// Reads every doc below `dir` on all cores; the result keeps the sorted file order.
fn read_docs_parallel(files: &[PathBuf], read: DocReader) -> Result<Vec<ReadDoc>, SpecsError> {
    use rayon::prelude::*;
    files.par_iter().map(|path| read_one(path, read)).collect()
}

/// Keeps a doc's ops whose names are identifiers.
pub(super) fn add_doc_candidates(
    read: ReadDoc,
    candidates: &mut Vec<Candidate>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let ReadDoc {
        path,
        doc,
        newer_format,
    } = read;
    let name = path.to_string_lossy().into_owned();
    diagnostics.extend(doc.diagnostics);
    for op in doc.ops {
        if !is_op_name(&op.op) {
            diagnostics.push(Diagnostic::file_level(
                Severity::Error,
                Code::BadOpName,
                format!("op name `{}` is not an identifier; op skipped", op.op),
                &name,
            ));
            continue;
        }
        candidates.push(Candidate {
            op,
            file: name.clone(),
            newer_format,
            full_spec: false,
            // Filled by `reconcile`, only for ops that more than one doc describes.
            product_lines: BTreeMap::new(),
        });
    }
}

fn warn_file_name(path: &Path, op: &str, name: &str, text: &str, diags: &mut Vec<Diagnostic>) {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(op) {
        let line = line_of_key(text, "op");
        diags.push(Diagnostic::at(
            Severity::Warning,
            Code::SpecFileName,
            format!("spec for `{op}` should be named `{op}.yaml`"),
            name,
            line,
            0,
            source_line(text, line),
        ));
    }
}

/// Every file below `dir`, sorted; an absent dir has none.
fn files_below(dir: &Path) -> Result<Vec<PathBuf>, SpecsError> {
    crate::files::files_below(dir).map_err(|e| SpecsError::io(dir, e))
}

fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>, SpecsError> {
    let mut files = files_below(dir)?;
    files.retain(|p| p.parent() == Some(dir) && super::is_yaml(p));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specs::testing::*;
    // --- load_specs ---------------------------------------------------------------------

    #[test]
    fn load_specs_reads_docs_and_specs_sorted_and_applies_overlays() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "docs/b.txt",
            &doc_json(&[sample_op("Zeta", "b.txt")]),
        );
        write(
            dir.path(),
            "docs/sub/a.md",
            &doc_json(&[sample_op("Foo", "a.md")]),
        );
        write(dir.path(), "ops/Foo.yaml", OVERLAY);
        let mut full = ir_to_full(&sample_op("Alpha", "x"));
        full.description = "from a full spec".into();
        write(
            dir.path(),
            "ops/Alpha.yaml",
            &full_to_yaml(&full).expect("yaml"),
        );
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        let names: Vec<&str> = specs.ops.iter().map(|o| o.op.as_str()).collect();
        assert_eq!(names, ["Alpha", "Foo", "Zeta"]);
        assert!(
            errors_of(&specs.diagnostics).is_empty(),
            "{:?}",
            specs.diagnostics
        );
        assert_eq!(specs.ops[0].description, "from a full spec");
        assert_eq!(specs.ops[1].products.get("ascend910_93"), Some(&true));
        assert!(specs.ops[1]
            .sources
            .last()
            .is_some_and(|s| s.ends_with("ops/Foo.yaml")));
    }

    #[test]
    fn overlay_for_an_undescribed_op_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "ops/Foo.yaml", OVERLAY);
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        let errors = errors_of(&specs.diagnostics);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("no doc describes"));
        assert_eq!(errors[0].line, 2);
        assert!(specs.ops.is_empty());
    }

    #[test]
    fn full_spec_for_a_documented_op_is_a_conflict() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "docs/a.txt",
            &doc_json(&[sample_op("Foo", "a.txt")]),
        );
        let full = ir_to_full(&sample_op("Foo", "x"));
        write(
            dir.path(),
            "ops/Foo.yaml",
            &full_to_yaml(&full).expect("yaml"),
        );
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert_eq!(specs.ops.len(), 1);
        assert!(specs.ops[0].sources[0].ends_with("a.txt"));
        // The op carries the error, so gen refuses it and keeps its old files.
        assert!(specs.ops[0].has_errors());
        assert_eq!(
            errors_of(&specs.ops[0].diagnostics)[0].code,
            "spec-conflict"
        );
    }

    #[test]
    fn bad_op_names_from_docs_are_rejected() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "docs/a.txt",
            &doc_json(&[sample_op("../../x", "a.txt")]),
        );
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert!(specs.ops.is_empty());
        assert_eq!(errors_of(&specs.diagnostics)[0].code, "bad-op-name");
    }

    #[test]
    fn missing_specs_folder_is_a_usage_failure() {
        let dir = tempfile::tempdir().expect("tempdir");
        let result = load_specs_with(&dir.path().join("nope"), &json_reader);
        assert!(matches!(result, Err(SpecsError::NoFolder(p)) if p.ends_with("nope")));
        // An empty folder is fine: no ops.
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert!(specs.ops.is_empty());
    }

    #[test]
    fn bad_yaml_is_a_diagnostic_not_a_failure() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "ops/Foo.yaml",
            "kind: overlay\nop: Foo\nreason: r\nwat: 1\n",
        );
        std::fs::write(dir.path().join("ops/Bin.yaml"), b"\xff\xfe\0").expect("write");
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert_eq!(
            errors_of(&specs.diagnostics).len(),
            2,
            "{:?}",
            specs.diagnostics
        );
    }

    #[test]
    fn load_specs_is_deterministic() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (i, name) in ["Beta", "Alpha", "Gamma"].iter().enumerate() {
            write(
                dir.path(),
                &format!("docs/{i}.txt"),
                &doc_json(&[sample_op(name, "d")]),
            );
        }
        let a = load_specs_with(dir.path(), &json_reader).expect("loads");
        let b = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert_eq!(a.ops, b.ops);
        let names: Vec<&str> = a.ops.iter().map(|o| o.op.as_str()).collect();
        assert_eq!(names, ["Alpha", "Beta", "Gamma"]);
    }
}

#[cfg(test)]
mod project_tests {
    use super::*;
    use crate::specs::testing::*;
    // --- the project's own specs ----------------------------------------------------------

    #[test]
    fn project_overlays_parse_and_state_a_reason() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/ops");
        let files = yaml_files(&dir).expect("list specs/ops");
        assert!(!files.is_empty());
        for path in files {
            let name = path.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("read spec");
            match parse_spec(&name, &text) {
                Ok(SpecFile::Overlay(o)) => {
                    assert!(o.reason.len() > 40, "{name}: reason too short");
                    assert_eq!(
                        path.file_stem().map(|s| s.to_string_lossy()),
                        Some(o.op.into())
                    );
                }
                Ok(SpecFile::Full(f)) => {
                    assert_eq!(
                        path.file_stem().map(|s| s.to_string_lossy()),
                        Some(f.op.into())
                    );
                }
                Err(d) => panic!("{}", crate::diag::render(&[d])),
            }
        }
    }

    fn project_specs() -> Specs {
        load_specs(&Path::new(env!("CARGO_MANIFEST_DIR")).join("specs")).expect("specs load")
    }

    #[test]
    fn project_specs_load_with_every_overlay_applied_cleanly() {
        // The seed ops only: a team's own docs beside them are theirs to keep clean.
        let mut specs = project_specs();
        specs
            .ops
            .retain(|o| crate::fixture::SEED_OPS.contains(&o.op.as_str()));
        let names: Vec<&str> = specs.ops.iter().map(|o| o.op.as_str()).collect();
        assert_eq!(names, crate::fixture::SEED_OPS);
        let seed_files: Vec<&String> = specs.ops.iter().flat_map(|o| &o.sources).collect();
        let seed_errors: Vec<&Diagnostic> = errors_of(&specs.diagnostics)
            .into_iter()
            .filter(|d| {
                seed_files
                    .iter()
                    .any(|f| f.ends_with(&d.file) || d.file.ends_with(f.as_str()))
            })
            .collect();
        assert!(seed_errors.is_empty(), "{seed_errors:?}");
        for op in &specs.ops {
            let yaml_errors: Vec<&Diagnostic> = op
                .diagnostics
                .iter()
                .filter(|d| d.file.ends_with(".yaml") && d.severity == Severity::Error)
                .collect();
            assert!(yaml_errors.is_empty(), "{}: {yaml_errors:?}", op.op);
            assert!(
                op.sources
                    .last()
                    .is_some_and(|s| s.ends_with(&format!("ops/{}.yaml", op.op))),
                "{}: {:?}",
                op.op,
                op.sources
            );
        }
    }

    #[test]
    fn project_overlays_correct_the_seed_irs() {
        let specs = project_specs();
        let op = |name: &str| {
            specs
                .ops
                .iter()
                .find(|o| o.op == name)
                .unwrap_or_else(|| panic!("{name}"))
        };
        // 001: damaged product line.
        let max3d = op("AdaptiveMaxPool3dBackward");
        assert_eq!(
            max3d.supported_products().collect::<Vec<_>>(),
            ["ascend910_93", "ascend910b"]
        );
        assert_eq!(
            max3d.param("indices").and_then(|p| p.rank),
            Some(Rank { min: 4, max: 5 })
        );
        // 002: scraped doc without return type and error table.
        let avg2d = op("AdaptiveAvgPool2dBackward");
        assert_eq!(
            avg2d.workspace_fn().map(|f| f.return_type.as_str()),
            Some("aclnnStatus")
        );
        assert_eq!(avg2d.errors.len(), 7);
        // 000: Atlas 200I/500 A2 not supported, so no dtypes for it.
        let avg3d = op("AdaptiveAvgPool3dBackward");
        assert_eq!(avg3d.products.get("ascend310b"), Some(&false));
        assert!(avg3d
            .params
            .iter()
            .all(|p| !p.dtypes.contains_key("ascend310b")));
        // 003 + 004: reconciled, 004 wins, `out` of the note is gradInput.
        let avg = op("AvgPool2dBackward");
        assert!(
            avg.sources[0].ends_with("004-aclnnAvgPool2dBackward.txt"),
            "{:?}",
            avg.sources
        );
        assert!(
            avg.sources[1].ends_with("003-aclnnAvgPool2dBackward.txt"),
            "{:?}",
            avg.sources
        );
        let grad_input = avg.param("gradInput").expect("gradInput");
        assert!(!grad_input.dtypes["ascend910"].contains(&DType::BFloat16));
        assert!(grad_input.dtypes["ascend910b"].contains(&DType::BFloat16));
        assert!(avg.errors.iter().all(|e| !e.condition.contains('\u{FFFD}')));
        assert!(avg.constraints.iter().all(|c| !c.contains('\u{FFFD}')));
        assert!(avg2d
            .params
            .iter()
            .flat_map(|p| &p.constraints)
            .all(|c| !c.contains("undefined")));
        assert!(avg.diagnostics.iter().any(|d| d.code == "docs-differ"
            && d.message.contains("003-")
            && d.message.contains("004-")));
    }

    #[test]
    fn seed_docs_import_to_specs_that_read_back_identically() {
        let docs = crate::fixture::seed_docs();
        let out = tempfile::tempdir().expect("tempdir");
        let Imported {
            written,
            diagnostics,
        } = import_with(&docs, out.path(), &crate::read::read_doc, false).expect("imports");
        assert!(errors_of(&diagnostics).is_empty(), "{diagnostics:?}");
        // Five docs, four ops: the two AvgPool2dBackward docs become one spec.
        assert_eq!(written.len(), 4);
        for path in &written {
            let text = std::fs::read_to_string(path).expect("read spec");
            let name = path.to_string_lossy().into_owned();
            let read = read_spec_file(&name, &text);
            assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
            let yaml = full_to_yaml(&ir_to_full(&read.ops[0])).expect("yaml");
            assert_eq!(with_import_mark(&yaml), text, "{name} does not round-trip");
        }
    }
}
