//! The YAML schema of a spec (full spec or overlay) and reading one file of it; errors point at
//! `path:line:column`.

use super::is_op_name;
use crate::diag::Code;
use crate::ir::{CType, Diagnostic, DtypesGiven, MsOpGen, ProductId, Role, Severity};
use aclnn_runtime::{DType, Format};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// Schema

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecKind {
    Full,
    Overlay,
}

/// `kind: full`: a whole op, the IR's fields minus what later stages compute
/// (diagnostics, sources, inferred rules, error mappings) and provenance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullSpec {
    pub kind: SpecKind,
    pub op: String,
    #[serde(default)]
    pub products: BTreeMap<ProductId, bool>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    #[serde(default)]
    pub functions: Vec<SpecFunction>,
    #[serde(default)]
    pub params: Vec<SpecParam>,
    #[serde(default)]
    pub errors: Vec<SpecError>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The tensors' dtype/format lists are columns (`OpIr::columns`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub columns: bool,
    /// msOpGen's spellings of an op imported from its op JSON (`OpIr::msopgen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msopgen: Option<MsOpGen>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFunction {
    pub name: String,
    pub return_type: String,
    #[serde(default)]
    pub params: Vec<SpecCParam>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecCParam {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: CType,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecRank {
    pub min: usize,
    pub max: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecParam {
    pub name: String,
    pub role: Role,
    #[serde(rename = "type")]
    pub ty: CType,
    #[serde(default)]
    pub optional: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dtypes: BTreeMap<ProductId, Vec<DType>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<Format>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<SpecRank>,
    /// The shapes dim by dim, one list per alternative: `[[T, N, C], [T, C]]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_contiguous: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_tensor: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dtypes_given: Vec<DtypesGiven>,
    /// An attribute's default value (msOpGen's `default_value`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecError {
    pub code: u32,
    pub name: String,
    pub condition: String,
}

/// `kind: overlay`: corrections to the IR a doc gives for `op`, with the reason the doc is wrong.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    pub kind: SpecKind,
    pub op: String,
    pub reason: String,
    /// Set a product's support (`false` also drops its dtypes); `null` removes a product the doc
    /// names wrongly.
    #[serde(default)]
    pub products: BTreeMap<ProductId, Option<bool>>,
    pub description: Option<String>,
    pub formula: Option<String>,
    pub header: Option<String>,
    pub example: Option<String>,
    /// Patches by function name.
    #[serde(default)]
    pub functions: BTreeMap<String, FunctionPatch>,
    /// Patches by parameter name.
    #[serde(default)]
    pub params: BTreeMap<String, ParamPatch>,
    #[serde(default)]
    pub errors: ErrorsPatch,
    #[serde(default)]
    pub constraints: ConstraintsPatch,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionPatch {
    pub return_type: Option<String>,
    pub params: Option<Vec<SpecCParam>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamPatch {
    pub role: Option<Role>,
    #[serde(rename = "type")]
    pub ty: Option<CType>,
    pub optional: Option<bool>,
    pub description: Option<String>,
    /// Per product: replace its dtype list; `null` removes the product's entry.
    #[serde(default)]
    pub dtypes: BTreeMap<ProductId, Option<Vec<DType>>>,
    pub formats: Option<Vec<Format>>,
    pub rank: Option<SpecRank>,
    pub non_contiguous: Option<bool>,
    pub empty_tensor: Option<bool>,
    /// Replaces the parameter's constraints.
    pub constraints: Option<Vec<String>>,
    pub enum_values: Option<BTreeMap<i64, String>>,
    /// Replaces the parameter's conditional dtype lists.
    pub dtypes_given: Option<Vec<DtypesGiven>>,
    /// Drops the parameter (a doc describes one the prototype does not have).
    #[serde(default)]
    pub remove: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorsPatch {
    #[serde(default)]
    pub remove: Vec<ErrorMatch>,
    #[serde(default)]
    pub replace: Vec<ErrorReplace>,
    #[serde(default)]
    pub add: Vec<SpecError>,
}

/// Selects error cases: every case with `code`, narrowed to those whose condition contains
/// `condition` when given.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorMatch {
    pub code: u32,
    pub condition: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorReplace {
    pub code: u32,
    pub condition: Option<String>,
    pub with: SpecError,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstraintsPatch {
    /// Drops every constraint line containing one of these texts.
    #[serde(default)]
    pub remove: Vec<String>,
    #[serde(default)]
    pub add: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SpecFile {
    Full(FullSpec),
    Overlay(Overlay),
}

/// Only the `kind` key, to choose the struct the whole file is then read into (reading it
/// directly keeps serde_yaml's line:column in errors, which a tagged enum would lose).
#[derive(Deserialize)]
struct KindOnly {
    kind: Option<SpecKind>,
}

// ---------------------------------------------------------------------------------------------
// Reading one YAML spec

/// Parses a YAML spec; errors (syntax, unknown key, wrong type, bad op name) point at
/// `path:line:column`.
pub fn parse_spec(path: &str, text: &str) -> Result<SpecFile, Diagnostic> {
    let kind = serde_yaml::from_str::<KindOnly>(text)
        .map_err(|e| yaml_diagnostic(path, text, &e))?
        .kind;
    let spec = match kind {
        Some(SpecKind::Full) => serde_yaml::from_str(text).map(SpecFile::Full),
        Some(SpecKind::Overlay) => serde_yaml::from_str(text).map(SpecFile::Overlay),
        None => {
            return Err(at_key(
                path,
                text,
                "kind",
                "missing `kind` (full or overlay)".into(),
            ))
        }
    }
    .map_err(|e| yaml_diagnostic(path, text, &e))?;
    let (op, reason) = match &spec {
        SpecFile::Full(full) => (&full.op, None),
        SpecFile::Overlay(overlay) => (&overlay.op, Some(&overlay.reason)),
    };
    if !is_op_name(op) {
        return Err(at_key(
            path,
            text,
            "op",
            format!("op name `{op}` is not an identifier"),
        ));
    }
    if reason.is_some_and(|r| r.trim().is_empty()) {
        return Err(at_key(
            path,
            text,
            "reason",
            "an overlay needs a non-empty `reason` (why the doc is wrong)".into(),
        ));
    }
    Ok(spec)
}

/// `show` on a YAML spec: a full spec gives its op; an overlay gives nothing on its own (it is
/// applied by `load_specs` to the doc's op) and no diagnostic; a bad file gives its error.
fn yaml_diagnostic(path: &str, text: &str, e: &serde_yaml::Error) -> Diagnostic {
    let message = e.to_string();
    // serde_yaml appends "at line L column C"; the diagnostic carries the location itself.
    let message = match message.rsplit_once(" at line ") {
        Some((head, _)) if location_in_message(&message).is_some() => head.to_string(),
        _ => message,
    };
    // Scanner errors carry their place only in the message text.
    let (line, column) = e
        .location()
        .map(|loc| (loc.line(), loc.column()))
        .or_else(|| location_in_message(&e.to_string()))
        .unwrap_or((0, 0));
    Diagnostic::at(
        Severity::Error,
        Code::SpecInvalid,
        message,
        path,
        line,
        column,
        source_line(text, line),
    )
}

/// `(line, column)` from serde_yaml's "... at line L column C" suffix.
fn location_in_message(message: &str) -> Option<(usize, usize)> {
    let (_, tail) = message.rsplit_once(" at line ")?;
    let (line, rest) = tail.split_once(" column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, column.parse().ok()?))
}

pub(crate) fn source_line(text: &str, line: usize) -> &str {
    line.checked_sub(1)
        .and_then(|i| text.lines().nth(i))
        .unwrap_or("")
}

/// 1-based line of the first line whose content starts with `key:` (for errors about a value
/// that serde accepted), or 0.
pub(crate) fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(key)
                .or_else(|| t.strip_prefix(&format!("\"{key}\"")))
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(0, |i| i + 1)
}

pub(crate) fn at_key(path: &str, text: &str, key: &str, message: String) -> Diagnostic {
    let line = line_of_key(text, key);
    Diagnostic::at(
        Severity::Error,
        Code::SpecInvalid,
        message,
        path,
        line,
        0,
        source_line(text, line),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specs::testing::*;
    // --- schema -------------------------------------------------------------------------

    #[test]
    fn full_spec_round_trips_through_yaml_with_sorted_keys() {
        let mut op = sample_op("Foo", "a.txt");
        op.params[0].enum_values = [(10, "ten".to_string()), (2, "two".to_string())]
            .into_iter()
            .collect();
        let yaml = full_to_yaml(&ir_to_full(&op)).expect("yaml");
        let keys: Vec<&str> = yaml
            .lines()
            .filter(|l| !l.starts_with([' ', '-']))
            .filter_map(|l| l.split(':').next())
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{yaml}");
        assert!(keys.contains(&"kind") && keys.contains(&"op"));
        assert!(yaml.find("2: two") < yaml.find("10: ten"), "{yaml}");
        let SpecFile::Full(full) = parse_spec("Foo.yaml", &yaml).expect("parses") else {
            panic!("not a full spec");
        };
        let back = full_to_ir(full, "Foo.yaml");
        let mut expected = op.clone();
        expected.sources = vec!["Foo.yaml".into()];
        expected.functions[0].source = None;
        expected.params[0].source = None;
        for e in &mut expected.errors {
            e.source = None;
        }
        assert_eq!(back, expected);
    }

    #[test]
    fn unknown_key_is_an_error_with_line_and_column() {
        let text = "kind: overlay\nop: Foo\nreason: doc bug\nparams:\n  self:\n    dtypez: {}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("unknown key");
        assert_eq!(d.code, "spec-invalid");
        assert!(d.message.contains("dtypez"), "{}", d.message);
        assert!(!d.message.contains("at line"), "{}", d.message);
        assert_eq!((d.file.as_str(), d.line, d.column), ("Foo.yaml", 6, 5));
        assert_eq!(d.source_line, "    dtypez: {}");
    }

    #[test]
    fn unknown_top_level_key_in_full_spec_is_an_error() {
        let text = "kind: full\nop: Foo\nprodcts: {}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("unknown key");
        assert!(d.message.contains("prodcts"), "{}", d.message);
        assert_eq!(d.line, 3);
    }

    #[test]
    fn wrong_type_is_an_error_with_line() {
        let text =
            "kind: overlay\nop: Foo\nreason: r\nparams:\n  self:\n    rank: {min: one, max: 4}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("wrong type");
        assert_eq!(d.line, 6, "{d:?}");
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  self:\n    dtypes: {ascend910b: [FLOAT99]}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("unknown dtype");
        assert!(d.message.contains("FLOAT99"), "{}", d.message);
        assert_eq!(d.line, 6);
    }

    #[test]
    fn overlay_needs_a_reason() {
        let d = parse_spec("Foo.yaml", "kind: overlay\nop: Foo\n").expect_err("no reason");
        assert!(d.message.contains("reason"), "{}", d.message);
        let d = parse_spec("Foo.yaml", "kind: overlay\nop: Foo\nreason: '  '\n")
            .expect_err("empty reason");
        assert_eq!(d.line, 3);
    }

    #[test]
    fn kind_is_required_and_checked() {
        let d = parse_spec("Foo.yaml", "op: Foo\n").expect_err("no kind");
        assert!(d.message.contains("kind"));
        let d = parse_spec("Foo.yaml", "kind: partial\nop: Foo\n").expect_err("bad kind");
        assert_eq!(d.line, 1);
        let d = parse_spec("Foo.yaml", "- a\n- b\n").expect_err("not a mapping");
        assert_eq!(d.code, "spec-invalid");
        let d = parse_spec("Foo.yaml", "kind: full\nop: [unclosed\n").expect_err("syntax");
        assert!(d.line >= 2, "{d:?}");
    }

    #[test]
    fn op_names_must_be_identifiers() {
        for bad in ["../../x", "a/b", "", "1abc", "Foo Bar"] {
            let text = format!("kind: full\nop: '{bad}'\n");
            let d = parse_spec("x.yaml", &text).expect_err(bad);
            assert_eq!(d.line, 2, "{bad}");
        }
        assert!(is_op_name("AvgPool2dBackward") && is_op_name("_x1"));
    }

    #[test]
    fn read_spec_file_gives_full_ops_and_nothing_for_overlays() {
        let yaml = full_to_yaml(&ir_to_full(&sample_op("Foo", "a.txt"))).expect("yaml");
        let read = read_spec_file("Foo.yaml", &yaml);
        assert_eq!(read.ops.len(), 1);
        assert_eq!(read.ops[0].sources, ["Foo.yaml"]);
        assert!(read.diagnostics.is_empty());
        let read = read_spec_file("Foo.yaml", "kind: overlay\nop: Foo\nreason: r\n");
        assert!(read.ops.is_empty() && read.diagnostics.is_empty());
        let read = read_spec_file("Foo.yaml", "kind: full\nop: Foo\nbogus: 1\n");
        assert!(read.ops.is_empty());
        assert_eq!(read.diagnostics.len(), 1);
    }
}
