//! The YAML schema of a spec (full spec or overlay) and reading one file of it; errors point at
//! `path:line:column`. A spec spells the IR's own types (`Param`, `Function`, `ErrorCase`, ...),
//! so a field added to the IR is in the schema with nothing else to change; only the op's
//! top-level fields (`FullSpec`) and the overlay's patches are the schema's own.

use super::is_op_name;
use crate::diag::Code;
use crate::ir::{
    CParam, CType, Diagnostic, DtypesGiven, ErrorCase, Function, MsOpGen, OpIr, Param, ProductId,
    Rank, Role, Severity,
};
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
    pub functions: Vec<Function>,
    #[serde(default)]
    pub params: Vec<Param>,
    #[serde(default)]
    pub errors: Vec<ErrorCase>,
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

/// `kind: overlay`: corrections to the IR a doc gives for `op`, with the reason the doc is wrong.
/// The one schema of an overlay both ways: `load_specs` reads it, `conform --suggest-overlays`
/// writes it (what is unset is left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overlay {
    pub kind: SpecKind,
    pub op: String,
    pub reason: String,
    /// Set a product's support (`false` also drops its dtypes); `null` removes a product the doc
    /// names wrongly.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub products: BTreeMap<ProductId, Option<bool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formula: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// Patches by function name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub functions: BTreeMap<String, FunctionPatch>,
    /// Patches by parameter name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamPatch>,
    #[serde(default, skip_serializing_if = "ErrorsPatch::is_empty")]
    pub errors: ErrorsPatch,
    #[serde(default, skip_serializing_if = "ConstraintsPatch::is_empty")]
    pub constraints: ConstraintsPatch,
}

impl Overlay {
    /// An overlay of `op` that changes nothing yet.
    pub fn new(op: &str, reason: String) -> Overlay {
        Overlay {
            kind: SpecKind::Overlay,
            op: op.to_string(),
            reason,
            products: BTreeMap::new(),
            description: None,
            formula: None,
            header: None,
            example: None,
            functions: BTreeMap::new(),
            params: BTreeMap::new(),
            errors: ErrorsPatch::default(),
            constraints: ConstraintsPatch::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Vec<CParam>>,
}

/// A patch of one parameter. The fields that replace the parameter's own are named and typed as
/// `Param`'s (serde reads them here, so a wrong value is an error at its line), and the overlay
/// applies them by name (`overlay::patch_param`): making one more `Param` field patchable is one
/// line here. `dtypes` and `remove` are the patch's own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamPatch {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<CType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Per product: replace its dtype list; `null` removes the product's entry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dtypes: BTreeMap<ProductId, Option<Vec<DType>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formats: Option<Vec<Format>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_contiguous: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_tensor: Option<bool>,
    /// Replaces the parameter's constraints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<BTreeMap<i64, String>>,
    /// Replaces the parameter's conditional dtype lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtypes_given: Option<Vec<DtypesGiven>>,
    /// Drops the parameter (a doc describes one the prototype does not have).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remove: bool,
}

impl ParamPatch {
    /// The keys that are the patch's own, not a `Param` field it sets.
    pub const OWN_KEYS: [&'static str; 2] = ["dtypes", "remove"];
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorsPatch {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<ErrorMatch>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replace: Vec<ErrorReplace>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<ErrorCase>,
}

impl ErrorsPatch {
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.replace.is_empty() && self.add.is_empty()
    }
}

/// Selects error cases: every case with `code`, narrowed to those whose condition contains
/// `condition` when given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorMatch {
    pub code: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorReplace {
    pub code: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    pub with: ErrorCase,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstraintsPatch {
    /// Drops every constraint line containing one of these texts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub add: Vec<String>,
}

impl ConstraintsPatch {
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.add.is_empty()
    }
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
// Spec <-> IR

/// The op of a full spec read from `path`; what later stages compute starts empty, and
/// `inplace` is linked across the specs folder by `pipeline::apply_rules`.
pub(crate) fn full_to_ir(full: FullSpec, path: &str) -> OpIr {
    OpIr {
        op: full.op,
        products: full.products,
        description: full.description,
        formula: full.formula,
        functions: full.functions,
        params: full.params,
        errors: full.errors,
        constraints: full.constraints,
        header: full.header,
        example: full.example,
        columns: full.columns,
        msopgen: full.msopgen,
        sources: vec![path.to_string()],
        ..OpIr::default()
    }
}

/// The full spec `import` writes for an op: its fields without provenance (`source`) or what
/// the rules stage computes (`mapping`).
pub fn ir_to_full(op: &OpIr) -> FullSpec {
    FullSpec {
        kind: SpecKind::Full,
        op: op.op.clone(),
        products: op.products.clone(),
        description: op.description.clone(),
        formula: op.formula.clone(),
        functions: (op.functions.iter())
            .map(|f| Function {
                source: None,
                ..f.clone()
            })
            .collect(),
        params: (op.params.iter())
            .map(|p| Param {
                source: None,
                ..p.clone()
            })
            .collect(),
        errors: op.errors.iter().map(spec_error).collect(),
        constraints: op.constraints.clone(),
        header: op.header.clone(),
        example: op.example.clone(),
        columns: op.columns,
        msopgen: op.msopgen.clone(),
    }
}

fn spec_error(e: &ErrorCase) -> ErrorCase {
    ErrorCase {
        source: None,
        mapping: None,
        ..e.clone()
    }
}

/// YAML of a full spec with every mapping's keys sorted, so output never depends on field order.
pub fn full_to_yaml(full: &FullSpec) -> Result<String, serde_yaml::Error> {
    let value = serde_yaml::to_value(full)?;
    serde_yaml::to_string(&sort_keys(value))
}

fn sort_keys(value: serde_yaml::Value) -> serde_yaml::Value {
    use serde_yaml::Value;
    match value {
        Value::Mapping(map) => {
            let mut entries: Vec<(Value, Value)> = map.into_iter().collect();
            entries.sort_by_cached_key(|(k, _)| key_text(k));
            Value::Mapping(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Sequence(items) => Value::Sequence(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

fn key_text(key: &serde_yaml::Value) -> String {
    match key {
        serde_yaml::Value::String(s) => s.clone(),
        // Numeric keys (enum values) sort numerically: zero-padded with the sign first.
        serde_yaml::Value::Number(n) => match n.as_i64() {
            Some(i) => format!("{}{:020}", if i < 0 { '-' } else { '0' }, i.unsigned_abs()),
            None => n.to_string(),
        },
        other => serde_yaml::to_string(other).unwrap_or_default(),
    }
}

/// The key of provenance or of a computed field a spec writes (the IR's types have them, a spec
/// may not: they are what gen records, not what a spec says).
fn computed_key(spec: &SpecFile) -> Option<&'static str> {
    let (functions, params, errors): (&[Function], &[Param], Vec<&ErrorCase>) = match spec {
        SpecFile::Full(full) => (&full.functions, &full.params, full.errors.iter().collect()),
        SpecFile::Overlay(o) => {
            let replaced = o.errors.replace.iter().map(|r| &r.with);
            (&[], &[], o.errors.add.iter().chain(replaced).collect())
        }
    };
    let sourced = functions.iter().any(|f| f.source.is_some())
        || params.iter().any(|p| p.source.is_some())
        || errors.iter().any(|e| e.source.is_some());
    if sourced {
        Some("source")
    } else if errors.iter().any(|e| e.mapping.is_some()) {
        Some("mapping")
    } else {
        None
    }
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
    if let Some(key) = computed_key(&spec) {
        return Err(at_key(
            path,
            text,
            key,
            format!("`{key}` is what gen records, not part of a spec"),
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
    fn a_full_specs_params_are_the_irs_and_refuse_unknown_keys_at_their_line() {
        let text = "kind: full\nop: Foo\nparams:\n- name: self\n  role: input_tensor\n  type: const aclTensor*\n  dtypez: {}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("unknown param key");
        assert!(d.message.contains("dtypez"), "{}", d.message);
        assert_eq!(d.line, 7, "{d:?}");
    }

    #[test]
    fn provenance_is_not_part_of_a_spec() {
        let param = "- name: self\n  role: input_tensor\n  type: const aclTensor*\n";
        let text =
            format!("kind: full\nop: Foo\nparams:\n{param}  source: {{file: a.md, line: 3}}\n");
        let d = parse_spec("Foo.yaml", &text).expect_err("source");
        assert!(d.message.contains("`source`"), "{}", d.message);
        assert_eq!(d.line, 7, "{d:?}");
        let text = "kind: overlay\nop: Foo\nreason: r\nerrors:\n  add:\n  - {code: 161002, name: n, condition: c, mapping: {status: manual, reason: x}}\n";
        let d = parse_spec("Foo.yaml", text).expect_err("mapping");
        assert!(d.message.contains("`mapping`"), "{}", d.message);
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
