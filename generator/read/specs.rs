//! The project's specs: docs in `specs/docs/`, YAML in `specs/ops/` (full specs, or overlays that
//! correct a doc), merged into one IR per op. The schema is documented in `specs/README.md`.

use super::{DocRead, Specs};
use crate::cli::{Failure, Outcome};
use crate::ir::{CParam, Diagnostic, ErrorCase, Function, Loc, OpIr, Param, Rank, Role, Severity};
use aclnn_runtime::{DType, Format, Product};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

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
    pub products: BTreeMap<String, bool>,
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
    pub ty: String,
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
    pub ty: String,
    #[serde(default)]
    pub optional: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dtypes: BTreeMap<String, Vec<DType>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formats: Vec<Format>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<SpecRank>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_contiguous: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty_tensor: Option<bool>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub enum_values: BTreeMap<i64, String>,
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
    pub products: BTreeMap<String, Option<bool>>,
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
    pub ty: Option<String>,
    pub optional: Option<bool>,
    pub description: Option<String>,
    /// Per product: replace its dtype list; `null` removes the product's entry.
    #[serde(default)]
    pub dtypes: BTreeMap<String, Option<Vec<DType>>>,
    pub formats: Option<Vec<Format>>,
    pub rank: Option<SpecRank>,
    pub non_contiguous: Option<bool>,
    pub empty_tensor: Option<bool>,
    /// Replaces the parameter's constraints.
    pub constraints: Option<Vec<String>>,
    pub enum_values: Option<BTreeMap<i64, String>>,
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
pub fn read_spec_file(path: &str, text: &str) -> DocRead {
    match parse_spec(path, text) {
        Ok(SpecFile::Full(full)) => {
            let mut op = full_to_ir(full, path);
            refresh_generation_problems(&mut op);
            DocRead {
                ops: vec![op],
                diagnostics: Vec::new(),
            }
        }
        Ok(SpecFile::Overlay(_)) => DocRead::default(),
        Err(d) => DocRead {
            ops: Vec::new(),
            diagnostics: vec![d],
        },
    }
}

/// Op names become file names and Rust/C identifiers: `[A-Za-z_][A-Za-z0-9_]*` only.
pub fn is_op_name(name: &str) -> bool {
    crate::ir::is_identifier(name)
}

/// Brings the op's generation problems up to date with its IR (an overlay may have fixed a
/// prototype the doc got wrong, or a merge filled one in). Problems still there keep the doc's
/// source line the reader quoted.
pub fn refresh_generation_problems(op: &mut OpIr) {
    let fresh = op.generation_problems();
    let same = |a: &Diagnostic, b: &Diagnostic| a.code == b.code && a.message == b.message;
    op.diagnostics.retain(|d| {
        !crate::ir::GENERATION_CODES.contains(&d.code.as_str()) || fresh.iter().any(|f| same(f, d))
    });
    for f in fresh {
        if !op.diagnostics.iter().any(|d| same(d, &f)) {
            op.diagnostics.push(f);
        }
    }
}

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
        "spec-invalid",
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

fn source_line(text: &str, line: usize) -> &str {
    line.checked_sub(1)
        .and_then(|i| text.lines().nth(i))
        .unwrap_or("")
}

/// 1-based line of the first line whose content starts with `key:` (for errors about a value
/// that serde accepted), or 0.
fn line_of_key(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            t.strip_prefix(key)
                .or_else(|| t.strip_prefix(&format!("\"{key}\"")))
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map_or(0, |i| i + 1)
}

fn at_key(path: &str, text: &str, key: &str, message: String) -> Diagnostic {
    let line = line_of_key(text, key);
    Diagnostic::at(
        Severity::Error,
        "spec-invalid",
        message,
        path,
        line,
        0,
        source_line(text, line),
    )
}

// ---------------------------------------------------------------------------------------------
// Spec <-> IR

fn full_to_ir(full: FullSpec, path: &str) -> OpIr {
    OpIr {
        op: full.op,
        products: full.products,
        description: full.description,
        formula: full.formula,
        functions: full
            .functions
            .into_iter()
            .map(|f| Function {
                name: f.name,
                return_type: f.return_type,
                params: f.params.into_iter().map(cparam_to_ir).collect(),
                source: None,
            })
            .collect(),
        params: full.params.into_iter().map(param_to_ir).collect(),
        errors: full.errors.into_iter().map(error_to_ir).collect(),
        inferred_rules: Vec::new(),
        constraints: full.constraints,
        header: full.header,
        example: full.example,
        sources: vec![path.to_string()],
        diagnostics: Vec::new(),
    }
}

fn cparam_to_ir(p: SpecCParam) -> CParam {
    CParam {
        name: p.name,
        ty: p.ty,
    }
}

fn rank_to_ir(r: SpecRank) -> Rank {
    Rank {
        min: r.min,
        max: r.max,
    }
}

fn param_to_ir(p: SpecParam) -> Param {
    Param {
        name: p.name,
        role: p.role,
        ty: p.ty,
        optional: p.optional,
        description: p.description,
        dtypes: p.dtypes,
        formats: p.formats,
        rank: p.rank.map(rank_to_ir),
        non_contiguous: p.non_contiguous,
        empty_tensor: p.empty_tensor,
        constraints: p.constraints,
        enum_values: p.enum_values,
        source: None,
    }
}

fn error_to_ir(e: SpecError) -> ErrorCase {
    ErrorCase {
        code: e.code,
        name: e.name,
        condition: e.condition,
        source: None,
        mapping: None,
    }
}

/// The full spec `import` writes for an op (provenance and computed fields dropped).
pub fn ir_to_full(op: &OpIr) -> FullSpec {
    FullSpec {
        kind: SpecKind::Full,
        op: op.op.clone(),
        products: op.products.clone(),
        description: op.description.clone(),
        formula: op.formula.clone(),
        functions: op
            .functions
            .iter()
            .map(|f| SpecFunction {
                name: f.name.clone(),
                return_type: f.return_type.clone(),
                params: f
                    .params
                    .iter()
                    .map(|p| SpecCParam {
                        name: p.name.clone(),
                        ty: p.ty.clone(),
                    })
                    .collect(),
            })
            .collect(),
        params: op
            .params
            .iter()
            .map(|p| SpecParam {
                name: p.name.clone(),
                role: p.role,
                ty: p.ty.clone(),
                optional: p.optional,
                description: p.description.clone(),
                dtypes: p.dtypes.clone(),
                formats: p.formats.clone(),
                rank: p.rank.map(|r| SpecRank {
                    min: r.min,
                    max: r.max,
                }),
                non_contiguous: p.non_contiguous,
                empty_tensor: p.empty_tensor,
                constraints: p.constraints.clone(),
                enum_values: p.enum_values.clone(),
            })
            .collect(),
        errors: op
            .errors
            .iter()
            .map(|e| SpecError {
                code: e.code,
                name: e.name.clone(),
                condition: e.condition.clone(),
            })
            .collect(),
        constraints: op.constraints.clone(),
        header: op.header.clone(),
        example: op.example.clone(),
    }
}

/// YAML of a full spec with every mapping's keys sorted, so output never depends on field order.
pub fn full_to_yaml(full: &FullSpec) -> Result<String, String> {
    let value = serde_yaml::to_value(full).map_err(|e| e.to_string())?;
    serde_yaml::to_string(&sort_keys(value)).map_err(|e| e.to_string())
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

// ---------------------------------------------------------------------------------------------
// Overlays

/// Applies an overlay to the op it names. Each patch that matches nothing is an error
/// diagnostic at the overlay's line; the rest still applies.
pub fn apply_overlay(op: &mut OpIr, overlay: &Overlay, path: &str, text: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut miss = |key: &str, message: String| diags.push(at_key(path, text, key, message));
    for (id, support) in &overlay.products {
        match support {
            Some(true) => {
                op.products.insert(id.clone(), true);
            }
            // Dtypes are listed for supported products only.
            Some(false) => {
                op.products.insert(id.clone(), false);
                for p in &mut op.params {
                    p.dtypes.remove(id);
                }
            }
            None => {
                if op.products.remove(id).is_none() {
                    miss(id, format!("product `{id}` to remove is not in the doc"));
                }
                for p in &mut op.params {
                    p.dtypes.remove(id);
                }
            }
        }
        if Product::parse(id).is_none() {
            miss(id, format!("unknown product id `{id}`"));
        }
    }
    set_if(&mut op.description, &overlay.description);
    if overlay.formula.is_some() {
        op.formula.clone_from(&overlay.formula);
    }
    if overlay.header.is_some() {
        op.header.clone_from(&overlay.header);
    }
    if overlay.example.is_some() {
        op.example.clone_from(&overlay.example);
    }
    for (name, patch) in &overlay.functions {
        match op.functions.iter_mut().find(|f| &f.name == name) {
            Some(f) => {
                set_if(&mut f.return_type, &patch.return_type);
                if let Some(params) = &patch.params {
                    f.params = params.iter().cloned().map(cparam_to_ir).collect();
                }
            }
            None => miss(name, format!("function `{name}` is not in the doc")),
        }
    }
    for (name, patch) in &overlay.params {
        let Some(index) = op.params.iter().position(|p| &p.name == name) else {
            miss(name, format!("parameter `{name}` is not in the doc"));
            continue;
        };
        if patch.remove {
            op.params.remove(index);
        } else {
            patch_param(&mut op.params[index], patch);
        }
    }
    patch_errors(op, &overlay.errors, &mut miss);
    for text in &overlay.constraints.remove {
        let before = op.constraints.len();
        op.constraints.retain(|c| !c.contains(text.as_str()));
        if op.constraints.len() == before {
            miss("remove", format!("no constraint contains `{text}`"));
        }
    }
    op.constraints
        .extend(overlay.constraints.add.iter().cloned());
    op.sources.push(path.to_string());
    op.diagnostics.push(Diagnostic::at(
        Severity::Note,
        "overlay-applied",
        format!("overlay applied: {}", overlay.reason.trim()),
        path,
        line_of_key(text, "reason"),
        0,
        source_line(text, line_of_key(text, "reason")),
    ));
    diags
}

fn set_if(field: &mut String, value: &Option<String>) {
    if let Some(v) = value {
        field.clone_from(v);
    }
}

fn patch_param(p: &mut Param, patch: &ParamPatch) {
    if let Some(role) = patch.role {
        p.role = role;
    }
    set_if(&mut p.ty, &patch.ty);
    if let Some(optional) = patch.optional {
        p.optional = optional;
    }
    set_if(&mut p.description, &patch.description);
    for (product, dtypes) in &patch.dtypes {
        match dtypes {
            Some(list) => {
                p.dtypes.insert(product.clone(), list.clone());
            }
            None => {
                p.dtypes.remove(product);
            }
        }
    }
    if let Some(formats) = &patch.formats {
        p.formats.clone_from(formats);
    }
    if let Some(rank) = patch.rank {
        p.rank = Some(rank_to_ir(rank));
    }
    if patch.non_contiguous.is_some() {
        p.non_contiguous = patch.non_contiguous;
    }
    if patch.empty_tensor.is_some() {
        p.empty_tensor = patch.empty_tensor;
    }
    if let Some(constraints) = &patch.constraints {
        p.constraints.clone_from(constraints);
    }
    if let Some(values) = &patch.enum_values {
        p.enum_values.clone_from(values);
    }
}

fn error_matches(e: &ErrorCase, code: u32, condition: &Option<String>) -> bool {
    e.code == code
        && condition
            .as_deref()
            .is_none_or(|c| e.condition.contains(c.trim()))
}

fn patch_errors(op: &mut OpIr, patch: &ErrorsPatch, miss: &mut impl FnMut(&str, String)) {
    for m in &patch.remove {
        let before = op.errors.len();
        op.errors
            .retain(|e| !error_matches(e, m.code, &m.condition));
        if op.errors.len() == before {
            miss(
                "remove",
                format!("no error case {} matches the removal", m.code),
            );
        }
    }
    for r in &patch.replace {
        let mut hit = false;
        for e in op.errors.iter_mut() {
            if error_matches(e, r.code, &r.condition) {
                let source = e.source.take();
                *e = error_to_ir(r.with.clone());
                e.source = source;
                hit = true;
            }
        }
        if !hit {
            miss(
                "replace",
                format!("no error case {} matches the replacement", r.code),
            );
        }
    }
    op.errors.extend(patch.add.iter().cloned().map(error_to_ir));
}

// ---------------------------------------------------------------------------------------------
// Loading and reconciling

/// One op as one source describes it.
struct Candidate {
    op: OpIr,
    file: String,
    /// The doc uses the newer format (HTML tables, `<term>` tags, `npu` markers).
    newer_format: bool,
    full_spec: bool,
    /// First line naming each product, for reports on products (the IR has no product lines).
    product_lines: BTreeMap<String, usize>,
}

/// Reads `docs/` and `ops/` below `dir` into one IR per op, sorted by op name.
pub fn load_specs(dir: &Path) -> Result<Specs, Failure> {
    load_specs_with(dir, &super::read_doc)
}

type DocReader<'a> = &'a (dyn Fn(&str, &[u8]) -> DocRead + Sync);

fn load_specs_with(dir: &Path, read: DocReader) -> Result<Specs, Failure> {
    if !dir.is_dir() {
        return Err(Failure::usage(format!(
            "specs folder {} does not exist",
            dir.display()
        )));
    }
    let mut specs = Specs::default();
    let mut candidates = Vec::new();
    for doc in read_docs_parallel(&docs_dir(dir), read)? {
        add_doc_candidates(doc, &mut candidates, &mut specs.diagnostics);
    }
    let mut overlays = Vec::new();
    for path in yaml_files(&dir.join("ops"))? {
        let name = path.to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).map_err(|e| io_failure(&path, &e))?;
        let Ok(text) = String::from_utf8(bytes) else {
            specs.diagnostics.push(Diagnostic::file_level(
                Severity::Error,
                "spec-invalid",
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

fn io_failure(path: &Path, e: &std::io::Error) -> Failure {
    Failure::usage(format!("{}: {e}", path.display()))
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
struct ReadDoc {
    path: PathBuf,
    doc: DocRead,
    newer_format: bool,
}

fn read_one(path: &Path, read: DocReader) -> Result<ReadDoc, Failure> {
    let bytes = std::fs::read(path).map_err(|e| io_failure(path, &e))?;
    Ok(ReadDoc {
        path: path.to_path_buf(),
        doc: read(&path.to_string_lossy(), &bytes),
        newer_format: is_newer_format(&bytes),
    })
}

/// Reads every doc below `dir` on all cores; the result keeps the sorted file order.
fn read_docs_parallel(dir: &Path, read: DocReader) -> Result<Vec<ReadDoc>, Failure> {
    use rayon::prelude::*;
    files_below(dir)?
        .par_iter()
        .map(|path| read_one(path, read))
        .collect()
}

/// Keeps a doc's ops whose names are identifiers.
fn add_doc_candidates(
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
                "bad-op-name",
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

/// 1-based line where each product is first named in a doc.
fn product_lines(bytes: &[u8]) -> BTreeMap<String, usize> {
    let text = super::decode::decode(bytes).text;
    let mut lines = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        for found in super::products::find_products(line) {
            lines.entry(found.id).or_insert(n + 1);
        }
    }
    lines
}

/// The newer CANN doc format: HTML parameter tables, `<term>` product tags, `npu` markers.
fn is_newer_format(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"<table") || has(b"npu=\"")
}

fn warn_file_name(path: &Path, op: &str, name: &str, text: &str, diags: &mut Vec<Diagnostic>) {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(op) {
        let line = line_of_key(text, "op");
        diags.push(Diagnostic::at(
            Severity::Warning,
            "spec-file-name",
            format!("spec for `{op}` should be named `{op}.yaml`"),
            name,
            line,
            0,
            source_line(text, line),
        ));
    }
}

/// Every file below `dir`, sorted; an absent dir has none.
fn files_below(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    if !dir.is_dir() {
        return Ok(files);
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).map_err(|e| io_failure(&d, &e))? {
            let path = entry.map_err(|e| io_failure(&d, &e))?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut files = files_below(dir)?;
    files.retain(|p| {
        p.parent() == Some(dir) && p.extension().is_some_and(|e| e == "yaml" || e == "yml")
    });
    Ok(files)
}

/// Groups candidates by op name and reconciles each group into one IR.
fn merge_candidates(
    candidates: Vec<Candidate>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, OpIr> {
    use rayon::prelude::*;
    let mut groups: BTreeMap<String, Vec<Candidate>> = BTreeMap::new();
    for c in candidates {
        groups.entry(c.op.op.clone()).or_default().push(c);
    }
    // Ops are reconciled independently (one described twice re-reads its docs): on all cores,
    // then folded in name order.
    let merged: Vec<(String, Option<OpIr>, Vec<Diagnostic>)> = groups
        .into_par_iter()
        .map(|(name, group)| {
            let mut diags = Vec::new();
            let op = merge_group(&name, group, &mut diags);
            (name, op, diags)
        })
        .collect();
    let mut ops = BTreeMap::new();
    for (name, op, diags) in merged {
        diagnostics.extend(diags);
        if let Some(op) = op {
            ops.insert(name, op);
        }
    }
    ops
}

fn merge_group(
    name: &str,
    group: Vec<Candidate>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<OpIr> {
    let (docs, mut fulls): (Vec<Candidate>, Vec<Candidate>) =
        group.into_iter().partition(|c| !c.full_spec);
    // A full spec stands alone: for an op a doc describes, an overlay is the way to correct it.
    let pool = if docs.is_empty() && !fulls.is_empty() {
        vec![fulls.remove(0)]
    } else {
        docs
    };
    let conflicts: Vec<Diagnostic> = fulls
        .iter()
        .map(|extra| {
            Diagnostic::file_level(
                Severity::Error,
                "spec-conflict",
                format!(
                    "full spec for `{name}` conflicts with {}; correct a doc with an overlay",
                    pool.first().map_or("another spec", |c| c.file.as_str())
                ),
                &extra.file,
            )
        })
        .collect();
    let mut op = reconcile(pool);
    // The conflict is the op's: gen refuses it and keeps its files from the last good run,
    // instead of regenerating them from the doc alone.
    match op.as_mut() {
        Some(op) => op.diagnostics.extend(conflicts),
        None => diagnostics.extend(conflicts),
    }
    op
}

fn supported(op: &OpIr) -> BTreeSet<&str> {
    op.supported_products().collect()
}

/// Whether `a` should win over `b` (see specs/README.md): a strict superset of supported
/// products wins; else the newer doc format; else more supported products; else the later file.
fn wins_over(a: &Candidate, b: &Candidate) -> bool {
    let (sa, sb) = (supported(&a.op), supported(&b.op));
    if sa != sb {
        if sa.is_superset(&sb) {
            return true;
        }
        if sb.is_superset(&sa) {
            return false;
        }
    }
    (a.newer_format, sa.len(), &a.file) > (b.newer_format, sb.len(), &b.file)
}

/// Reconciles the docs of one op: the winning doc's facts stand, the others fill its gaps, and
/// each differing fact is a `docs-differ` warning naming both files.
fn reconcile(mut pool: Vec<Candidate>) -> Option<OpIr> {
    if pool.len() > 1 {
        for c in pool
            .iter_mut()
            .filter(|c| !c.full_spec && c.product_lines.is_empty())
        {
            c.product_lines = std::fs::read(&c.file)
                .map(|b| product_lines(&b))
                .unwrap_or_default();
        }
    }
    let best = (0..pool.len()).reduce(|best, i| {
        if wins_over(&pool[i], &pool[best]) {
            i
        } else {
            best
        }
    })?;
    let winner = pool.remove(best);
    let mut op = winner.op;
    for other in pool {
        merge_into(
            &mut op,
            (&winner.file, &winner.product_lines),
            other.op,
            (&other.file, &other.product_lines),
        );
    }
    Some(op)
}

fn loc_text(file: &str, source: &Option<Loc>) -> String {
    match source {
        Some(loc) if loc.line > 0 => format!("{}:{}", loc.file, loc.line),
        _ => file.to_string(),
    }
}

struct Differ<'a> {
    win_file: &'a str,
    other_file: &'a str,
    win_products: &'a BTreeMap<String, usize>,
    other_products: &'a BTreeMap<String, usize>,
    diags: Vec<Diagnostic>,
}

impl Differ<'_> {
    /// Where the winning doc and the other one name product `id`.
    fn product_locs(&self, id: &str) -> (Option<Loc>, Option<Loc>) {
        let loc = |file: &str, lines: &BTreeMap<String, usize>| {
            lines.get(id).map(|&line| Loc {
                file: file.to_string(),
                line,
                column: 0,
            })
        };
        (
            loc(self.win_file, self.win_products),
            loc(self.other_file, self.other_products),
        )
    }

    fn report(&mut self, what: &str, win: (&Option<Loc>, String), other: (&Option<Loc>, String)) {
        let line = win.0.as_ref().map_or(0, |l| l.line);
        let file = win
            .0
            .as_ref()
            .map_or(self.win_file, |l| l.file.as_str())
            .to_string();
        self.diags.push(Diagnostic::at(
            Severity::Warning,
            "docs-differ",
            format!(
                "docs differ on {what}: {} says {}, {} says {}; kept {}",
                loc_text(self.win_file, win.0),
                win.1,
                loc_text(self.other_file, other.0),
                other.1,
                self.win_file
            ),
            &file,
            line,
            0,
            "",
        ));
    }
}

fn show<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

fn dtype_list(list: &[DType]) -> String {
    let names: Vec<&str> = list.iter().map(|d| d.as_str()).collect();
    format!("[{}]", names.join(", "))
}

/// Merges `other` (a losing doc) into `op` (the winner's IR).
fn merge_into(
    op: &mut OpIr,
    (win_file, win_products): (&str, &BTreeMap<String, usize>),
    other: OpIr,
    (other_file, other_products): (&str, &BTreeMap<String, usize>),
) {
    let mut d = Differ {
        win_file,
        other_file,
        win_products,
        other_products,
        diags: Vec::new(),
    };
    let none = &None;
    let winner_products = op.products.clone();
    for (id, ok) in &other.products {
        let (mine_at, theirs_at) = d.product_locs(id);
        match op.products.get(id) {
            Some(mine) if mine != ok => d.report(
                &format!("support of product {id}"),
                (&mine_at, mine.to_string()),
                (&theirs_at, ok.to_string()),
            ),
            Some(_) => {}
            None => {
                d.report(
                    &format!("product {id}"),
                    (&mine_at, "nothing".into()),
                    (&theirs_at, ok.to_string()),
                );
                op.products.insert(id.clone(), *ok);
            }
        }
    }
    for (id, mine) in &winner_products {
        if !other.products.contains_key(id) {
            let (mine_at, theirs_at) = d.product_locs(id);
            d.report(
                &format!("product {id}"),
                (&mine_at, mine.to_string()),
                (&theirs_at, "nothing".into()),
            );
        }
    }
    if op.description.is_empty() {
        op.description = other.description;
    }
    if op.formula.is_none() {
        op.formula = other.formula;
    }
    match (&op.header, &other.header) {
        (None, _) => op.header = other.header,
        (Some(a), Some(b)) if a != b => d.report("header", (none, a.clone()), (none, b.clone())),
        _ => {}
    }
    if op.example.is_none() {
        op.example = other.example;
    }
    if op.constraints.is_empty() {
        op.constraints = other.constraints;
    }
    merge_functions(op, other.functions, &mut d);
    merge_params(op, &winner_products, other.params, &mut d);
    merge_errors(op, other.errors, &mut d);
    for s in other.sources {
        if !op.sources.contains(&s) {
            op.sources.push(s);
        }
    }
    op.diagnostics.extend(other.diagnostics);
    op.diagnostics.extend(d.diags);
}

fn merge_functions(op: &mut OpIr, others: Vec<Function>, d: &mut Differ) {
    for f in others {
        match op.functions.iter().find(|g| g.name == f.name) {
            Some(g) => {
                if g.return_type != f.return_type {
                    d.report(
                        &format!("the return type of {}", f.name),
                        (&g.source, show(&g.return_type)),
                        (&f.source, show(&f.return_type)),
                    );
                }
                if g.params != f.params {
                    let sig = |ps: &[CParam]| {
                        let parts: Vec<String> =
                            ps.iter().map(|p| format!("{} {}", p.ty, p.name)).collect();
                        format!("({})", parts.join(", "))
                    };
                    d.report(
                        &format!("the parameters of {}", f.name),
                        (&g.source, sig(&g.params)),
                        (&f.source, sig(&f.params)),
                    );
                }
            }
            None => op.functions.push(f),
        }
    }
}

fn merge_params(
    op: &mut OpIr,
    winner_products: &BTreeMap<String, bool>,
    others: Vec<Param>,
    d: &mut Differ,
) {
    for o in &others {
        if op.param(&o.name).is_none() {
            d.report(
                &format!("parameter {}", o.name),
                (&None, "nothing".into()),
                (&o.source, "a parameter".into()),
            );
        }
    }
    for p in op.params.iter_mut() {
        let Some(o) = others.iter().find(|o| o.name == p.name) else {
            d.report(
                &format!("parameter {}", p.name),
                (&p.source, "a parameter".into()),
                (&None, "nothing".into()),
            );
            continue;
        };
        merge_param(p, o, winner_products, d);
    }
}

fn merge_param(p: &mut Param, o: &Param, winner_products: &BTreeMap<String, bool>, d: &mut Differ) {
    let name = p.name.clone();
    for (product, list) in &o.dtypes {
        match p.dtypes.get(product) {
            Some(mine) if !same_set(mine, list) => d.report(
                &format!("{name} dtypes on {product}"),
                (&p.source, dtype_list(mine)),
                (&o.source, dtype_list(list)),
            ),
            Some(_) => {}
            // Only for products the winning doc does not describe at all.
            None if !winner_products.contains_key(product) => {
                p.dtypes.insert(product.clone(), list.clone());
            }
            None => {}
        }
    }
    if p.formats.is_empty() {
        p.formats.clone_from(&o.formats);
    } else if !o.formats.is_empty() && !same_set(&p.formats, &o.formats) {
        d.report(
            &format!("{name} formats"),
            (&p.source, show(&p.formats)),
            (&o.source, show(&o.formats)),
        );
    }
    merge_option(
        &mut p.rank,
        &o.rank,
        &format!("{name} rank"),
        (&p.source, &o.source),
        d,
    );
    merge_option(
        &mut p.non_contiguous,
        &o.non_contiguous,
        &format!("{name} non-contiguous support"),
        (&p.source, &o.source),
        d,
    );
    merge_option(
        &mut p.empty_tensor,
        &o.empty_tensor,
        &format!("{name} empty-tensor support"),
        (&p.source, &o.source),
        d,
    );
    if p.optional != o.optional {
        d.report(
            &format!("whether {name} is optional"),
            (&p.source, p.optional.to_string()),
            (&o.source, o.optional.to_string()),
        );
    }
    if p.description.is_empty() {
        p.description.clone_from(&o.description);
    }
    if p.constraints.is_empty() {
        p.constraints.clone_from(&o.constraints);
    }
    if p.enum_values.is_empty() {
        p.enum_values.clone_from(&o.enum_values);
    }
}

/// Docs list dtypes and formats in different orders; only the set is a fact.
fn same_set<T: Ord + Clone>(a: &[T], b: &[T]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a.dedup();
    b.dedup();
    a == b
}

fn merge_option<T: Clone + PartialEq + std::fmt::Debug>(
    mine: &mut Option<T>,
    other: &Option<T>,
    what: &str,
    sources: (&Option<Loc>, &Option<Loc>),
    d: &mut Differ,
) {
    match (mine.as_ref(), other) {
        (None, _) => mine.clone_from(other),
        (Some(a), Some(b)) if a != b => d.report(what, (sources.0, show(a)), (sources.1, show(b))),
        _ => {}
    }
}

fn merge_errors(op: &mut OpIr, others: Vec<ErrorCase>, d: &mut Differ) {
    if op.errors.is_empty() {
        op.errors = others;
        return;
    }
    let count = |errors: &[ErrorCase]| {
        let mut by_code: BTreeMap<u32, (usize, Option<Loc>)> = BTreeMap::new();
        for e in errors {
            let entry = by_code.entry(e.code).or_insert((0, e.source.clone()));
            entry.0 += 1;
        }
        by_code
    };
    let (mine, theirs) = (count(&op.errors), count(&others));
    let codes: BTreeSet<u32> = mine.keys().chain(theirs.keys()).copied().collect();
    for code in codes {
        let (a, la) = mine.get(&code).cloned().unwrap_or((0, None));
        let (b, lb) = theirs.get(&code).cloned().unwrap_or((0, None));
        if a != b {
            d.report(
                &format!("error {code}"),
                (&la, format!("{a} condition(s)")),
                (&lb, format!("{b} condition(s)")),
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// aclgen import

/// `aclgen import`: writes `<out>/<Op>.yaml` for every op of the given docs. A file that is there
/// already is replaced only when import wrote it and nobody edited it since (or with `force`).
pub fn cmd_import(docs: &[std::path::PathBuf], out: &Path, force: bool) -> Outcome {
    let (written, diagnostics) = import_with(docs, out, &super::read_doc, force)?;
    eprint!("{}", crate::diag::render(&diagnostics));
    for path in &written {
        println!("wrote {}", path.display());
    }
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        Err(Failure::Input)
    } else {
        Ok(())
    }
}

/// Reads the docs, reconciles ops described twice, and writes one full spec per op. Nothing is
/// written when an op name is not an identifier or a target would lose a person's work; each
/// file is written atomically.
fn import_with(
    docs: &[PathBuf],
    out: &Path,
    read: DocReader,
    force: bool,
) -> Result<(Vec<PathBuf>, Vec<Diagnostic>), Failure> {
    let mut diagnostics = Vec::new();
    let mut candidates = Vec::new();
    for path in docs {
        add_doc_candidates(read_one(path, read)?, &mut candidates, &mut diagnostics);
    }
    let bad_name = diagnostics.iter().any(|d| d.code == "bad-op-name");
    let ops = merge_candidates(candidates, &mut diagnostics);
    for op in ops.values() {
        diagnostics.extend(op.diagnostics.iter().cloned());
    }
    if bad_name {
        return Ok((Vec::new(), diagnostics));
    }
    let mut files = Vec::new();
    for op in ops.values() {
        let yaml = full_to_yaml(&ir_to_full(op))
            .map_err(|e| Failure::usage(format!("{}: cannot serialize: {e}", op.op)))?;
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
        return Ok((Vec::new(), diagnostics));
    }
    if !files.is_empty() {
        std::fs::create_dir_all(out).map_err(|e| io_failure(out, &e))?;
    }
    let mut written = Vec::new();
    for (path, yaml) in files {
        write_atomically(&path, yaml.as_bytes())?;
        written.push(path);
    }
    Ok((written, diagnostics))
}

/// The first line of every spec import writes, followed by the hash of the rest: a later import
/// tells its own untouched output (replaced) from a file a person wrote or edited (kept).
const IMPORT_MARK: &str =
    "# Written by aclgen import; once edited, import never overwrites it. hash=";

fn with_import_mark(yaml: &str) -> String {
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
fn may_replace(path: &Path) -> Result<bool, Failure> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(std::str::from_utf8(&bytes).is_ok_and(is_untouched_import)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(io_failure(path, &e)),
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
        "import-overwrite",
        "exists and was not written by `aclgen import` or was edited since; nothing was written \
         (pass --force to replace it, or --out to write elsewhere)",
        &path.to_string_lossy(),
    )
}

/// Writes to a temporary file in the same directory, then renames it over `path`: readers see
/// the old file or the new one, never half of one.
fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), Failure> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| io_failure(dir, &e))?;
    tmp.write_all(contents)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| io_failure(path, &e))?;
    tmp.persist(path).map_err(|e| io_failure(path, &e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(file: &str, line: usize) -> Option<Loc> {
        Some(Loc {
            file: file.into(),
            line,
            column: 0,
        })
    }

    fn tensor(name: &str, file: &str, line: usize, dtypes: &[(&str, &[DType])]) -> Param {
        Param {
            name: name.into(),
            role: Role::InputTensor,
            ty: "const aclTensor*".into(),
            dtypes: dtypes
                .iter()
                .map(|(p, d)| (p.to_string(), d.to_vec()))
                .collect(),
            formats: vec![Format::parse("ND").expect("ND")],
            source: loc(file, line),
            ..Param::default()
        }
    }

    fn sample_op(name: &str, file: &str) -> OpIr {
        OpIr {
            op: name.into(),
            products: [
                ("ascend910b".to_string(), true),
                ("ascend910".to_string(), false),
            ]
            .into_iter()
            .collect(),
            description: "算子功能".into(),
            functions: vec![Function {
                name: format!("aclnn{name}GetWorkspaceSize"),
                return_type: "aclnnStatus".into(),
                params: vec![CParam {
                    name: "self".into(),
                    ty: "const aclTensor*".into(),
                }],
                source: loc(file, 3),
            }],
            params: vec![tensor(
                "self",
                file,
                5,
                &[("ascend910b", &[DType::Float16, DType::Float32])],
            )],
            errors: vec![
                ErrorCase {
                    code: 161001,
                    name: "ACLNN_ERR_PARAM_NULLPTR".into(),
                    condition: "self是空指针".into(),
                    source: loc(file, 9),
                    mapping: None,
                },
                ErrorCase {
                    code: 161002,
                    name: "ACLNN_ERR_PARAM_INVALID".into(),
                    condition: "self的数据类型不在支持的范围之内".into(),
                    source: loc(file, 10),
                    mapping: None,
                },
            ],
            constraints: vec!["无".into()],
            sources: vec![file.into()],
            ..OpIr::default()
        }
    }

    /// Stands in for the markdown reader: a "doc" here is the JSON of its ops.
    fn json_reader(path: &str, bytes: &[u8]) -> DocRead {
        match serde_json::from_slice::<Vec<OpIr>>(bytes) {
            Ok(ops) => DocRead {
                ops,
                diagnostics: Vec::new(),
            },
            Err(e) => DocRead {
                ops: Vec::new(),
                diagnostics: vec![Diagnostic::file_level(
                    Severity::Error,
                    "test-doc",
                    e.to_string(),
                    path,
                )],
            },
        }
    }

    fn write(dir: &Path, rel: &str, contents: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, contents).expect("write");
    }

    fn doc_json(ops: &[OpIr]) -> String {
        serde_json::to_string(ops).expect("json")
    }

    fn errors_of(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
        diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect()
    }

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

    // --- overlays -----------------------------------------------------------------------

    const OVERLAY: &str = "\
kind: overlay
op: Foo
reason: the doc's product line is damaged
products:
  ascend910_93: true
  ascend910: ~
header: aclnn_foo.h
functions:
  aclnnFooGetWorkspaceSize:
    return_type: aclnnStatus
params:
  self:
    dtypes:
      ascend910_93: [FLOAT16]
    rank: {min: 1, max: 8}
    optional: true
errors:
  remove:
    - code: 161001
  replace:
    - code: 161002
      condition: 数据类型
      with: {code: 161002, name: ACLNN_ERR_PARAM_INVALID, condition: self的数据类型不支持}
  add:
    - {code: 561103, name: ACLNN_ERR_INNER_NULLPTR, condition: 内部空指针}
constraints:
  remove: [无]
  add: [确定性计算]
";

    fn overlay(text: &str) -> Overlay {
        match parse_spec("ops/Foo.yaml", text).expect("overlay parses") {
            SpecFile::Overlay(o) => o,
            SpecFile::Full(_) => panic!("not an overlay"),
        }
    }

    #[test]
    fn overlay_patches_every_kind_of_field() {
        let mut op = sample_op("Foo", "a.txt");
        op.functions[0].return_type = String::new();
        let diags = apply_overlay(&mut op, &overlay(OVERLAY), "ops/Foo.yaml", OVERLAY);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(op.products.get("ascend910_93"), Some(&true));
        assert!(!op.products.contains_key("ascend910"));
        assert_eq!(op.header.as_deref(), Some("aclnn_foo.h"));
        assert_eq!(op.functions[0].return_type, "aclnnStatus");
        let p = &op.params[0];
        assert_eq!(p.dtypes["ascend910_93"], [DType::Float16]);
        assert_eq!(p.dtypes["ascend910b"], [DType::Float16, DType::Float32]);
        assert_eq!(p.rank, Some(Rank { min: 1, max: 8 }));
        assert!(p.optional);
        let codes: Vec<u32> = op.errors.iter().map(|e| e.code).collect();
        assert_eq!(codes, [161002, 561103]);
        assert_eq!(op.errors[0].condition, "self的数据类型不支持");
        assert_eq!(op.errors[0].source, loc("a.txt", 10));
        assert_eq!(op.constraints, ["确定性计算"]);
        assert_eq!(op.sources, ["a.txt", "ops/Foo.yaml"]);
        assert!(op
            .diagnostics
            .iter()
            .any(|d| d.code == "overlay-applied" && d.message.contains("damaged")));
    }

    #[test]
    fn overlay_patch_that_matches_nothing_is_an_error_at_its_line() {
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  selff:\n    optional: true\nfunctions:\n  aclnnBar:\n    return_type: int\nproducts:\n  ascend999: true\n";
        let mut op = sample_op("Foo", "a.txt");
        let diags = apply_overlay(&mut op, &overlay(text), "ops/Foo.yaml", text);
        let lines: Vec<(usize, bool)> = diags
            .iter()
            .map(|d| (d.line, d.severity == Severity::Error))
            .collect();
        assert!(lines.contains(&(5, true)), "{diags:?}");
        assert!(lines.contains(&(8, true)), "{diags:?}");
        assert!(lines.contains(&(11, true)), "{diags:?}");
    }

    #[test]
    fn overlay_marking_a_product_unsupported_drops_its_dtypes() {
        let text = "kind: overlay\nop: Foo\nreason: r\nproducts: {ascend910b: false}\n";
        let mut op = sample_op("Foo", "a.txt");
        assert!(apply_overlay(&mut op, &overlay(text), "o.yaml", text).is_empty());
        assert_eq!(op.products.get("ascend910b"), Some(&false));
        assert!(op.params[0].dtypes.is_empty());
    }

    #[test]
    fn overlay_can_remove_a_parameter() {
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  self: {remove: true}\n";
        let mut op = sample_op("Foo", "a.txt");
        assert!(apply_overlay(&mut op, &overlay(text), "o.yaml", text).is_empty());
        assert!(op.params.is_empty());
    }

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
        assert!(matches!(result, Err(Failure::Usage(m)) if m.contains("nope")));
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

    // --- reconciling two docs -----------------------------------------------------------

    /// 003 (older markdown) and 004 (newer, HTML tables) of AvgPool2dBackward, in miniature.
    fn two_docs() -> (OpIr, OpIr) {
        let mut old = sample_op("AvgPool2dBackward", "003.txt");
        old.products = [
            ("ascend910", true),
            ("ascend910b", true),
            ("ascend310b", false),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        old.params = vec![tensor(
            "self",
            "003.txt",
            40,
            &[
                ("ascend910", &[DType::Float16, DType::Float32]),
                (
                    "ascend910b",
                    &[DType::BFloat16, DType::Float16, DType::Float32],
                ),
            ],
        )];
        old.params[0].rank = Some(Rank { min: 3, max: 4 });
        old.header = Some("aclnn_avgpool2d_backward.h".into());
        let mut new = sample_op("AvgPool2dBackward", "004.txt");
        new.products = [
            ("ascend910", true),
            ("ascend910b", true),
            ("ascend950", true),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        new.params = vec![tensor(
            "self",
            "004.txt",
            90,
            &[
                ("ascend910", &[DType::Float16, DType::Float32]),
                ("ascend910b", &[DType::Float16, DType::Float32]),
                (
                    "ascend950",
                    &[DType::BFloat16, DType::Float16, DType::Float32],
                ),
            ],
        )];
        new.errors.pop();
        (old, new)
    }

    #[test]
    fn two_docs_of_one_op_are_reconciled_and_differences_reported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (old, new) = two_docs();
        write(dir.path(), "docs/003.txt", &doc_json(&[old]));
        write(dir.path(), "docs/004.txt", &doc_json(&[new]));
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert_eq!(specs.ops.len(), 1);
        let op = &specs.ops[0];
        // 004 names a strict superset of supported products: it wins.
        assert!(op.sources[0].ends_with("004.txt"), "{:?}", op.sources);
        assert!(op.sources[1].ends_with("003.txt"));
        // Products only 003 names are filled in.
        assert_eq!(op.products.get("ascend310b"), Some(&false));
        let p = &op.params[0];
        // ascend910b is described by both: the winner's list stands, the difference is reported.
        assert_eq!(p.dtypes["ascend910b"], [DType::Float16, DType::Float32]);
        // The loser fills gaps: rank, header, the second error row.
        assert_eq!(p.rank, Some(Rank { min: 3, max: 4 }));
        assert_eq!(op.header.as_deref(), Some("aclnn_avgpool2d_backward.h"));
        let differ: Vec<&Diagnostic> = op
            .diagnostics
            .iter()
            .filter(|d| d.code == "docs-differ")
            .collect();
        let dtype_note = differ
            .iter()
            .find(|d| d.message.contains("self dtypes on ascend910b"))
            .expect("dtype difference reported");
        assert!(
            dtype_note.message.contains("004.txt:90"),
            "{}",
            dtype_note.message
        );
        assert!(
            dtype_note.message.contains("003.txt:40"),
            "{}",
            dtype_note.message
        );
        assert_eq!((dtype_note.file.as_str(), dtype_note.line), ("004.txt", 90));
        assert!(differ
            .iter()
            .any(|d| d.message.contains("product ascend950")));
        assert!(differ
            .iter()
            .any(|d| d.message.contains("product ascend310b")));
        assert!(differ.iter().any(|d| d.message.contains("error 161002")));
        assert!(differ.iter().all(|d| d.severity == Severity::Warning));
    }

    #[test]
    fn losing_doc_fills_dtypes_only_for_products_the_winner_does_not_name() {
        let (mut old, new) = two_docs();
        old.products.insert("ascend310p".into(), true);
        old.params[0]
            .dtypes
            .insert("ascend310p".into(), vec![DType::Float16]);
        let mut new = new;
        // The winner names ascend910 but gives self no dtypes there: not filled from the loser.
        new.params[0].dtypes.remove("ascend910");
        let pool = vec![
            Candidate {
                op: old,
                file: "003.txt".into(),
                newer_format: false,
                full_spec: false,
                product_lines: BTreeMap::new(),
            },
            Candidate {
                op: new,
                file: "004.txt".into(),
                newer_format: true,
                full_spec: false,
                product_lines: BTreeMap::new(),
            },
        ];
        let op = reconcile(pool).expect("one op");
        let p = &op.params[0];
        assert_eq!(p.dtypes.get("ascend310p"), Some(&vec![DType::Float16]));
        assert!(!p.dtypes.contains_key("ascend910"));
    }

    #[test]
    fn newer_format_is_recognised_from_the_bytes() {
        assert!(is_newer_format(b"- **x**\n  <table style=\"a\"><tr>"));
        assert!(is_newer_format(b"<!-- npu=\"A3,910b\" -->"));
        assert!(!is_newer_format(b"- self(aclTensor*, \xe8\xae\xa1)"));
    }

    #[test]
    fn winner_rule_superset_then_format_then_count_then_file() {
        let cand = |products: &[&str], newer: bool, file: &str| Candidate {
            op: OpIr {
                products: products.iter().map(|p| (p.to_string(), true)).collect(),
                ..OpIr::default()
            },
            file: file.into(),
            newer_format: newer,
            full_spec: false,
            product_lines: BTreeMap::new(),
        };
        // Superset beats newer format.
        assert!(wins_over(
            &cand(&["a", "b"], false, "1"),
            &cand(&["a"], true, "2")
        ));
        // Neither a superset: newer format wins.
        assert!(wins_over(
            &cand(&["a"], true, "1"),
            &cand(&["b", "c"], false, "2")
        ));
        // Same format: more products.
        assert!(wins_over(
            &cand(&["b", "c"], false, "1"),
            &cand(&["a"], false, "2")
        ));
        // Equal: later file.
        assert!(wins_over(
            &cand(&["a"], false, "2"),
            &cand(&["a"], false, "1")
        ));
        assert!(!wins_over(
            &cand(&["a"], false, "1"),
            &cand(&["a"], false, "2")
        ));
    }

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
        let (written, diags) = import_with(&docs, &out, &json_reader, false).expect("imports");
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
        let (written, diags) =
            import_with(&[dir.path().join("a.txt")], &out, &json_reader, false).expect("runs");
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
        let (written, diags) = import_with(&docs, &out, &json_reader, false).expect("again");
        assert_eq!(written, std::slice::from_ref(&target), "{diags:?}");
        // A hand-written overlay, and an imported spec edited by hand, are kept.
        let overlay = "kind: overlay\nop: Foo\nreason: hand-written\n";
        let edited = std::fs::read_to_string(&target).expect("read") + "# my note\n";
        for mine in [overlay.to_string(), edited] {
            std::fs::write(&target, &mine).expect("write");
            let (written, diags) = import_with(&docs, &out, &json_reader, false).expect("runs");
            assert!(written.is_empty());
            assert_eq!(errors_of(&diags)[0].code, "import-overwrite", "{diags:?}");
            assert_eq!(std::fs::read_to_string(&target).expect("read"), mine);
        }
        // --force replaces it.
        let (written, _) = import_with(&docs, &out, &json_reader, true).expect("forced");
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
        assert!(matches!(result, Err(Failure::Usage(_))));
    }

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
        let specs = project_specs();
        let names: Vec<&str> = specs.ops.iter().map(|o| o.op.as_str()).collect();
        assert_eq!(
            names,
            [
                "AdaptiveAvgPool2dBackward",
                "AdaptiveAvgPool3dBackward",
                "AdaptiveMaxPool3dBackward",
                "AvgPool2dBackward"
            ]
        );
        assert!(
            errors_of(&specs.diagnostics).is_empty(),
            "{:?}",
            specs.diagnostics
        );
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
        assert_eq!(avg2d.errors.len(), 6);
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
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/docs");
        let docs = files_below(&dir).expect("seed docs");
        let out = tempfile::tempdir().expect("tempdir");
        let (written, diagnostics) =
            import_with(&docs, out.path(), &crate::read::read_doc, false).expect("imports");
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
