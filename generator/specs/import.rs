//! `import`: docs (and msOpGen's op JSON) → one full YAML spec per op, never overwriting a spec
//! a person wrote or edited.

use super::load::add_doc_candidates;
use super::load::read_one;
use super::load::DocReader;
use super::merge::merge_candidates;
use super::schema::{full_to_yaml, ir_to_full};
use super::SpecsError;
use crate::diag::Code;
use crate::ir::{Diagnostic, Severity};
use std::path::{Path, PathBuf};

/// What an import did: the specs it wrote, and every diagnostic of the docs and the import.
#[derive(Debug, Default)]
pub struct Imported {
    pub written: Vec<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Writes `<out>/<Op>.yaml` for every op of the given docs. A file that is there already is
/// replaced only when import wrote it and nobody edited it since (or with `force`).
pub fn import(docs: &[PathBuf], out: &Path, force: bool) -> Result<Imported, SpecsError> {
    import_with(docs, out, &super::read_input, force)
}

/// Reads the docs, reconciles ops described twice, and writes one full spec per op. Nothing is
/// written when an op name is not an identifier or a target would lose a person's work; each
/// file is written atomically.
pub(super) fn import_with(
    docs: &[PathBuf],
    out: &Path,
    read: DocReader,
    force: bool,
) -> Result<Imported, SpecsError> {
    let mut diagnostics = Vec::new();
    let mut candidates = Vec::new();
    for path in docs {
        add_doc_candidates(read_one(path, read)?, &mut candidates, &mut diagnostics);
    }
    let bad_name = diagnostics.iter().any(|d| d.code == Code::BadOpName);
    let ops = merge_candidates(candidates, &mut diagnostics);
    for op in ops.values() {
        diagnostics.extend(op.diagnostics.iter().cloned());
    }
    if bad_name {
        return Ok(Imported {
            written: Vec::new(),
            diagnostics,
        });
    }
    let mut files = Vec::new();
    for op in ops.values() {
        let yaml = full_to_yaml(&ir_to_full(op)).map_err(|e| SpecsError::Serialize {
            op: op.op.clone(),
            message: e.to_string(),
        })?;
        files.push((out.join(format!("{}.yaml", op.op)), with_import_mark(&yaml)));
    }
    let mut protected = Vec::new();
    for (path, _) in files.iter().filter(|_| !force) {
        if !may_replace(path)? {
            protected.push(overwrite_refused(path));
        }
    }
    if !protected.is_empty() {
        diagnostics.extend(protected);
        return Ok(Imported {
            written: Vec::new(),
            diagnostics,
        });
    }
    if !files.is_empty() {
        std::fs::create_dir_all(out).map_err(|e| SpecsError::io(out, e))?;
    }
    let mut written = Vec::new();
    for (path, yaml) in files {
        write_atomically(&path, yaml.as_bytes())?;
        written.push(path);
    }
    Ok(Imported {
        written,
        diagnostics,
    })
}

/// The first line of every spec import writes, followed by the hash of the rest: a later import
/// tells its own untouched output (replaced) from a file a person wrote or edited (kept).
const IMPORT_MARK: &str =
    "# Written by aclgen import; once edited, import never overwrites it. hash=";

pub(super) fn with_import_mark(yaml: &str) -> String {
    format!("{IMPORT_MARK}{:016x}\n{yaml}", body_hash(yaml))
}

/// SipHash-1-3 with zero keys: a fixed algorithm, so the mark verifies on every machine.
fn body_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = siphasher::sip::SipHasher13::new();
    h.write(text.as_bytes());
    h.finish()
}

/// Whether import may write `path`: it does not exist, or import wrote it and it is unedited.
fn may_replace(path: &Path) -> Result<bool, SpecsError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(std::str::from_utf8(&bytes).is_ok_and(is_untouched_import)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(SpecsError::io(path, e)),
    }
}

fn is_untouched_import(text: &str) -> bool {
    let Some((first, rest)) = text.split_once('\n') else {
        return false;
    };
    let recorded = first
        .strip_prefix(IMPORT_MARK)
        .and_then(|h| u64::from_str_radix(h, 16).ok());
    recorded == Some(body_hash(rest))
}

fn overwrite_refused(path: &Path) -> Diagnostic {
    Diagnostic::file_level(
        Severity::Error,
        Code::ImportOverwrite,
        "exists and was not written by `aclgen import` or was edited since; nothing was written \
         (pass --force to replace it, or --out to write elsewhere)",
        &path.to_string_lossy(),
    )
}

fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), SpecsError> {
    crate::files::write_atomically(path, contents).map_err(|e| SpecsError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specs::testing::*;
    // --- import -------------------------------------------------------------------------

    #[test]
    fn import_writes_one_full_spec_per_op_deterministically() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "a.txt",
            &doc_json(&[sample_op("Foo", "a.txt"), sample_op("Bar", "a.txt")]),
        );
        let out = dir.path().join("out");
        let docs = vec![dir.path().join("a.txt")];
        let Imported {
            written,
            diagnostics: diags,
        } = import_with(&docs, &out, &json_reader, false).expect("imports");
        assert!(diags.is_empty(), "{diags:?}");
        let names: Vec<String> = written
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["Bar.yaml", "Foo.yaml"]);
        let first = std::fs::read_to_string(out.join("Foo.yaml")).expect("read");
        import_with(&docs, &out, &json_reader, false).expect("imports again");
        assert_eq!(
            std::fs::read_to_string(out.join("Foo.yaml")).expect("read"),
            first
        );
        // Only the specs are left in the directory: no temporary files.
        assert_eq!(std::fs::read_dir(&out).expect("ls").count(), 2);
        let read = read_spec_file("Foo.yaml", &first);
        assert_eq!(read.ops[0].params, {
            let mut p = sample_op("Foo", "a.txt").params;
            p[0].source = None;
            p
        });
    }

    #[test]
    fn import_writes_nothing_when_an_op_name_is_not_an_identifier() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "a.txt",
            &doc_json(&[sample_op("Good", "a.txt"), sample_op("../../x", "a.txt")]),
        );
        let out = dir.path().join("out");
        let Imported {
            written,
            diagnostics: diags,
        } = import_with(&[dir.path().join("a.txt")], &out, &json_reader, false).expect("runs");
        assert!(written.is_empty());
        assert!(!out.exists());
        assert_eq!(errors_of(&diags)[0].code, "bad-op-name");
    }

    #[test]
    fn import_never_overwrites_a_file_it_did_not_write_or_that_was_edited() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "a.txt", &doc_json(&[sample_op("Foo", "a.txt")]));
        let docs = vec![dir.path().join("a.txt")];
        let out = dir.path().join("out");
        let target = out.join("Foo.yaml");
        // Import's own, unedited output is replaced (a second import is the same file).
        import_with(&docs, &out, &json_reader, false).expect("imports");
        let Imported {
            written,
            diagnostics: diags,
        } = import_with(&docs, &out, &json_reader, false).expect("again");
        assert_eq!(written, std::slice::from_ref(&target), "{diags:?}");
        // A hand-written overlay, and an imported spec edited by hand, are kept.
        let overlay = "kind: overlay\nop: Foo\nreason: hand-written\n";
        let edited = std::fs::read_to_string(&target).expect("read") + "# my note\n";
        for mine in [overlay.to_string(), edited] {
            std::fs::write(&target, &mine).expect("write");
            let Imported {
                written,
                diagnostics: diags,
            } = import_with(&docs, &out, &json_reader, false).expect("runs");
            assert!(written.is_empty());
            assert_eq!(errors_of(&diags)[0].code, "import-overwrite", "{diags:?}");
            assert_eq!(std::fs::read_to_string(&target).expect("read"), mine);
        }
        // --force replaces it.
        let written = import_with(&docs, &out, &json_reader, true)
            .expect("forced")
            .written;
        assert_eq!(written, std::slice::from_ref(&target));
        assert!(is_untouched_import(
            &std::fs::read_to_string(&target).expect("read")
        ));
    }

    #[test]
    fn import_of_a_missing_doc_is_an_io_failure() {
        let dir = tempfile::tempdir().expect("tempdir");
        let result = import_with(
            &[dir.path().join("nope.txt")],
            dir.path(),
            &json_reader,
            false,
        );
        assert!(matches!(result, Err(SpecsError::Io { .. })));
    }
}
