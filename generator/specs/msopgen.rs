//! msOpGen's op JSON → IR: the input `aclgen import` recognizes by content (an array of ops with
//! `op`, `input_desc`/`output_desc` and `attr`, as `msopgen gen -i op.json` takes it). Each op
//! becomes a full op with the aclnn API CANN's build generates for a custom op: inputs
//! `const aclTensor*`, then the attributes in their aclnn C types, then outputs `aclTensor*`
//! (dynamic ones `aclTensorList`). msOpGen's `type[]`/`format[]` lists are positional (entry i of
//! every tensor is one combination): they are kept as they are, with `OpIr::columns` set, so
//! gen writes the same JSON back (`emit::msopgen`). Both directions use one schema, `JsonOp`
//! (`Desc`, `Attr`): each field a `Field`, so a file's wrong or missing field is reported at its
//! line rather than failing the whole file.

use super::schema::source_line;
use crate::ctype::{Base, CType};
use crate::diag::Code;
use crate::ir::{CParam, Diagnostic, ErrorCase, Function, MsOpGen, OpIr, Param, Role, Severity};
use crate::read::DocRead;
use aclnn_runtime::{DType, Format};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The products an msOpGen custom op project builds for (the SoCs of msOpGen's example): Atlas
/// A2, Atlas A3, Ascend 950 (`msopgen` in the product table).
fn msopgen_products() -> impl Iterator<Item = &'static str> {
    aclnn_runtime::PRODUCTS
        .iter()
        .filter(|p| p.msopgen)
        .map(|p| p.product.id())
}

/// msOpGen's attribute types: its name, the other spellings it accepts, the aclnn C type.
pub const ATTR_TYPES: &[(&str, &[&str], &str)] = &[
    ("int", &["Int", "int64"], "int64_t"),
    ("float", &["Float", "float32"], "double"),
    ("bool", &["Bool"], "bool"),
    ("str", &["string", "String"], "char*"),
    ("listInt", &["list_int", "ListInt"], "const aclIntArray*"),
    (
        "listFloat",
        &["list_float", "ListFloat"],
        "const aclFloatArray*",
    ),
    (
        "listBool",
        &["list_bool", "ListBool"],
        "const aclBoolArray*",
    ),
    ("type", &["Type", "data_type"], "aclDataType"),
];

/// msOpGen's attribute type of an aclnn attribute's C type (`const aclIntArray*` → `listInt`);
/// an `aclScalar` is a `float`, as aclnn's scalar attributes mostly are.
pub fn attr_type_of(ty: &CType) -> Option<&'static str> {
    Some(match ty.base() {
        Base::Integer(_) | Base::Format => "int",
        Base::Float | Base::Double | Base::Scalar => "float",
        Base::Bool => "bool",
        Base::Char => "str",
        Base::IntArray => "listInt",
        Base::FloatArray | Base::ScalarList => "listFloat",
        Base::BoolArray => "listBool",
        Base::DataType => "type",
        _ => return None,
    })
}

/// One field of msOpGen's op JSON as a file has it: absent, of another JSON type (kept, to
/// report where), or read. The emitter writes `Got` fields only; `Missing` ones are left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Field<T> {
    #[default]
    Missing,
    Wrong(Value),
    Got(T),
}

impl<T> Field<T> {
    pub fn is_missing(&self) -> bool {
        matches!(self, Field::Missing)
    }

    fn got(&self) -> Option<&T> {
        match self {
            Field::Got(v) => Some(v),
            _ => None,
        }
    }
}

impl Field<String> {
    /// The entry as a message shows it: a string as is, another JSON value as JSON.
    fn shown(&self) -> String {
        match self {
            Field::Got(s) => s.clone(),
            Field::Wrong(v) => v.to_string(),
            Field::Missing => String::new(),
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        Ok(match T::deserialize(&value) {
            Ok(v) => Field::Got(v),
            Err(_) => Field::Wrong(value),
        })
    }
}

impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Got(v) => v.serialize(s),
            Field::Wrong(v) => v.serialize(s),
            Field::Missing => s.serialize_none(),
        }
    }
}

/// One op of msOpGen's op JSON: what `import` reads and gen writes (`emit::msopgen`). Fields
/// msOpGen has and aclgen does not keep are `other` (a warning each).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct JsonOp {
    #[serde(default)]
    pub op: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_missing")]
    pub language: Field<String>,
    #[serde(default)]
    pub input_desc: Field<Vec<Field<Desc>>>,
    #[serde(default)]
    pub output_desc: Field<Vec<Field<Desc>>>,
    #[serde(default)]
    pub attr: Field<Vec<Field<Attr>>>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One tensor of an op: `param_type` required (the default), optional or dynamic; `format`
/// and `type` are columns.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Desc {
    #[serde(default)]
    pub name: Field<String>,
    #[serde(default)]
    pub param_type: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_missing")]
    pub format: Field<Vec<Field<String>>>,
    #[serde(default, rename = "type")]
    pub ty: Field<Vec<Field<String>>>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One attribute: `type` is msOpGen's attribute type (`ATTR_TYPES`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Attr {
    #[serde(default)]
    pub name: Field<String>,
    #[serde(default)]
    pub param_type: Field<String>,
    #[serde(default, rename = "type")]
    pub ty: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_missing")]
    pub default_value: Field<Value>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl JsonOp {
    /// An op as gen writes it.
    pub fn new(
        op: &str,
        language: Option<String>,
        inputs: Vec<Desc>,
        outputs: Vec<Desc>,
        attrs: Vec<Attr>,
    ) -> Self {
        JsonOp {
            op: Field::Got(op.to_string()),
            language: language.map_or(Field::Missing, Field::Got),
            input_desc: got_all(inputs),
            output_desc: got_all(outputs),
            attr: got_all(attrs),
            other: Map::new(),
        }
    }
}

impl Desc {
    /// A tensor as gen writes it (no `format` when it has none).
    pub fn new(name: &str, param_type: &str, format: Vec<String>, ty: Vec<String>) -> Self {
        Desc {
            name: Field::Got(name.to_string()),
            param_type: Field::Got(param_type.to_string()),
            format: if format.is_empty() {
                Field::Missing
            } else {
                got_all(format)
            },
            ty: got_all(ty),
            other: Map::new(),
        }
    }
}

/// A list of read entries, read.
fn got_all<T>(items: Vec<T>) -> Field<Vec<Field<T>>> {
    Field::Got(items.into_iter().map(Field::Got).collect())
}

impl Attr {
    /// An attribute as gen writes it.
    pub fn new(name: &str, param_type: &str, ty: String, default: Option<Value>) -> Self {
        Attr {
            name: Field::Got(name.to_string()),
            param_type: Field::Got(param_type.to_string()),
            ty: Field::Got(ty),
            default_value: default.map_or(Field::Missing, Field::Got),
            other: Map::new(),
        }
    }
}

/// Whether `bytes` are msOpGen's op JSON: a JSON array (after a BOM and blanks) that names an
/// `op`. A doc never starts with `[`; a broken JSON of this shape is still read as one, so its
/// syntax error is reported at its line.
pub fn is_msopgen_json(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    text.starts_with('[') && text.contains("\"op\"")
}

/// Reads msOpGen's op JSON: one op per entry, or, when anything is wrong, no op and the
/// diagnostics (file:line:column), so an import never writes half an op file.
pub fn read_msopgen(path: &str, bytes: &[u8]) -> DocRead {
    let mut cx = Cx {
        path,
        text: "",
        diagnostics: Vec::new(),
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        cx.error((0, 0), "msOpGen's op JSON is not UTF-8".into());
        return cx.done(Vec::new());
    };
    cx.text = text.trim_start_matches('\u{feff}');
    let value: Value = match serde_json::from_str(cx.text) {
        Ok(v) => v,
        Err(e) => {
            let line = e.line();
            let d = Diagnostic::at(
                Severity::Error,
                Code::MsOpGenInvalid,
                format!("msOpGen's op JSON does not parse: {}", json_message(&e)),
                path,
                line,
                e.column(),
                source_line(cx.text, line),
            );
            cx.diagnostics.push(d);
            return cx.done(Vec::new());
        }
    };
    let Value::Array(items) = value else {
        cx.error((1, 1), "msOpGen's op JSON is an array of ops".into());
        return cx.done(Vec::new());
    };
    let ops: Vec<OpIr> = items
        .iter()
        .enumerate()
        .filter_map(|(k, item)| cx.op(k, item))
        .collect();
    cx.done(ops)
}

/// serde_json's message without its "at line L column C" (the diagnostic carries the place).
fn json_message(e: &serde_json::Error) -> String {
    let message = e.to_string();
    match message.rsplit_once(" at line ") {
        Some((head, _)) => head.to_string(),
        None => message,
    }
}

/// The reading of one file: its text and what was found wrong.
struct Cx<'a> {
    path: &'a str,
    text: &'a str,
    diagnostics: Vec<Diagnostic>,
}

/// One tensor of an op as the JSON gives it.
struct Tensor {
    name: String,
    input: bool,
    param_type: String,
    types: Vec<DType>,
    formats: Vec<Format>,
    /// Where the tensor's `type` list is, for errors about its length.
    line: (usize, usize),
}

impl<'a> Cx<'a> {
    fn done(self, ops: Vec<OpIr>) -> DocRead {
        let failed = self
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        DocRead {
            ops: if failed { Vec::new() } else { ops },
            diagnostics: self.diagnostics,
        }
    }

    fn report(&mut self, severity: Severity, (line, column): (usize, usize), message: String) {
        let d = Diagnostic::at(
            severity,
            Code::MsOpGenInvalid,
            message,
            self.path,
            line,
            column,
            source_line(self.text, line),
        );
        self.diagnostics.push(d);
    }

    fn error(&mut self, at: (usize, usize), message: String) {
        self.report(Severity::Error, at, message);
    }

    /// 1-based line and column of the last of `needles` found one after the other, starting at
    /// the `k`th op's `"op"` key (needles not found are passed over); 0 when the op is not found.
    fn line_of(&self, k: usize, needles: &[String]) -> (usize, usize) {
        let Some(mut at) = nth_key(self.text, "op", k) else {
            return (0, 0);
        };
        let mut found = at;
        for n in needles {
            if let Some(i) = self.text[at..].find(n.as_str()) {
                found = at + i;
                at = found + n.len();
            }
        }
        let before = &self.text[..found];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (
            before.matches('\n').count() + 1,
            before[line_start..].chars().count() + 1,
        )
    }

    /// The `k`th op of the array, or `None` (with errors) when it is not one aclgen can read.
    fn op(&mut self, k: usize, item: &Value) -> Option<OpIr> {
        let before = self.diagnostics.len();
        let Ok(json) = JsonOp::deserialize(item) else {
            let line = self.line_of(k, &[]);
            self.error(line, format!("op {} is not a JSON object", k + 1));
            return None;
        };
        let name = match &json.op {
            Field::Got(n) if crate::ir::is_identifier(n) => n.clone(),
            Field::Got(n) => {
                let line = self.line_of(k, &[]);
                self.error(line, format!("op name `{n}` is not an identifier"));
                return None;
            }
            _ => {
                let line = self.line_of(k, &[]);
                self.error(line, format!("op {} has no `op` (its name)", k + 1));
                return None;
            }
        };
        let at = |field: &str| vec![quoted(&name), quoted(field)];
        for key in json.other.keys() {
            let line = self.line_of(k, &at(key));
            self.report(
                Severity::Warning,
                line,
                format!("{name}: msOpGen field `{key}` is not kept"),
            );
        }
        let language = match &json.language {
            Field::Missing => None,
            Field::Got(s) => Some(s.clone()),
            Field::Wrong(_) => {
                let line = self.line_of(k, &at("language"));
                self.error(line, format!("{name}: `language` is not a string"));
                None
            }
        };
        let mut spell = MsOpGen {
            language,
            ..MsOpGen::default()
        };
        let mut tensors = Vec::new();
        for (section, input, descs) in [
            ("input_desc", true, &json.input_desc),
            ("output_desc", false, &json.output_desc),
        ] {
            match descs {
                Field::Missing if input => {}
                Field::Missing => {
                    let line = self.line_of(k, &[]);
                    self.error(line, format!("{name}: no `output_desc`"));
                }
                Field::Got(descs) => {
                    for (i, desc) in descs.iter().enumerate() {
                        let place = Place {
                            k,
                            op: &name,
                            section,
                            index: i,
                        };
                        if let Some(t) = self.tensor(&place, desc, input, &mut spell) {
                            tensors.push(t);
                        }
                    }
                }
                Field::Wrong(_) => {
                    let line = self.line_of(k, &at(section));
                    self.error(line, format!("{name}: `{section}` is not a list"));
                }
            }
        }
        let attrs = match &json.attr {
            Field::Missing => Vec::new(),
            Field::Got(attrs) => attrs
                .iter()
                .enumerate()
                .filter_map(|(i, a)| {
                    let place = Place {
                        k,
                        op: &name,
                        section: "attr",
                        index: i,
                    };
                    self.attr(&place, a, &mut spell)
                })
                .collect(),
            Field::Wrong(_) => {
                let line = self.line_of(k, &at("attr"));
                self.error(line, format!("{name}: `attr` is not a list"));
                Vec::new()
            }
        };
        self.check_columns(&name, &tensors);
        self.check_names(k, &name, &tensors, &attrs);
        let failed = self.diagnostics[before..]
            .iter()
            .any(|d| d.severity == Severity::Error);
        (!failed).then(|| build_op(self.path, &name, &tensors, attrs, spell))
    }

    /// A string field of a desc or attr (named `name`, when it has one), or an error naming it.
    fn string_field(
        &mut self,
        place: &Place,
        name: Option<&str>,
        field: &Field<String>,
        key: &str,
    ) -> Option<String> {
        if let Field::Got(s) = field {
            return Some(s.clone());
        }
        let line = self.line_of(place.k, &place.needles(name, &[key]));
        let what = if field.is_missing() {
            "is missing"
        } else {
            "is not a string"
        };
        self.error(line, format!("{}: `{key}` {what}", place.describe(name)));
        None
    }

    /// `param_type`: one of `allowed`; `required` when absent, as msOpGen reads it.
    fn param_type(
        &mut self,
        place: &Place,
        name: Option<&str>,
        field: &Field<String>,
        allowed: &[&str],
    ) -> Option<String> {
        if field.is_missing() {
            return Some("required".into());
        }
        let value = self.string_field(place, name, field, "param_type")?;
        if allowed.contains(&value.as_str()) {
            return Some(value);
        }
        let line = self.line_of(place.k, &place.needles(name, &["param_type", &value]));
        self.error(
            line,
            format!(
                "{}: param_type `{value}` is not one of {}",
                place.describe(name),
                allowed.join(", ")
            ),
        );
        None
    }

    fn tensor(
        &mut self,
        place: &Place,
        desc: &Field<Desc>,
        input: bool,
        spell: &mut MsOpGen,
    ) -> Option<Tensor> {
        let Field::Got(desc) = desc else {
            let line = self.line_of(place.k, &[quoted(place.section)]);
            self.error(
                line,
                format!("{}: not a JSON object", place.describe_bare()),
            );
            return None;
        };
        let named = desc.name.got().map(String::as_str);
        self.unknown_keys(place, named, &desc.other);
        let name = self.string_field(place, named, &desc.name, "name");
        let allowed = ["required", "optional", "dynamic"];
        let param_type = self.param_type(place, named, &desc.param_type, &allowed);
        let types = self.names(place, named, &desc.ty, "type", true, |n| {
            let d = DType::from_msopgen(n)?;
            Some((d, d.msopgen_name()?))
        });
        let formats = self.names(place, named, &desc.format, "format", false, |n| {
            let f = Format::from_msopgen(n)?;
            Some((f, f.msopgen_name()?))
        });
        let line = self.line_of(place.k, &place.needles(named, &["type"]));
        let (types, type_spellings) = types?;
        for (canonical, written) in type_spellings {
            spell.dtype_names.entry(canonical).or_insert(written);
        }
        Some(Tensor {
            name: name?,
            input,
            param_type: param_type?,
            types,
            formats: formats?.0,
            line,
        })
    }

    /// A list of msOpGen names (`type`, `format`) read with `parse` into values and the
    /// spellings that differ from msOpGen's own name. An absent list is empty unless `required`.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn names<T>(
        &mut self,
        place: &Place,
        name: Option<&str>,
        field: &Field<Vec<Field<String>>>,
        key: &str,
        required: bool,
        parse: impl Fn(&str) -> Option<(T, &'static str)>,
    ) -> Option<(Vec<T>, Vec<(String, String)>)> {
        let items = match field {
            Field::Missing if !required => return Some((Vec::new(), Vec::new())),
            Field::Got(items) if !items.is_empty() || !required => items,
            other => {
                let fields: &[&str] = if other.is_missing() { &[] } else { &[key] };
                let line = self.line_of(place.k, &place.needles(name, fields));
                let what = match other {
                    Field::Missing => "is missing",
                    Field::Got(_) => "is empty",
                    Field::Wrong(_) => "is not a list",
                };
                self.error(line, format!("{}: `{key}` {what}", place.describe(name)));
                return None;
            }
        };
        let mut values = Vec::new();
        let mut spellings = Vec::new();
        let mut ok = true;
        for item in items {
            let parsed = item.got().and_then(|n| Some((n, parse(n)?)));
            match parsed {
                Some((written, (value, canonical))) => {
                    if written != canonical {
                        spellings.push((canonical.to_string(), written.to_string()));
                    }
                    values.push(value);
                }
                None => {
                    let shown = item.shown();
                    let line = self.line_of(place.k, &place.needles(name, &[key, &shown]));
                    let kind = if key == "type" { "dtype" } else { "format" };
                    self.error(
                        line,
                        format!(
                            "{}: `{shown}` is not a {kind} msOpGen names (see runtime/src/vocab.rs)",
                            place.describe(name)
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some((values, spellings))
    }

    fn attr(&mut self, place: &Place, attr: &Field<Attr>, spell: &mut MsOpGen) -> Option<Param> {
        let Field::Got(attr) = attr else {
            let line = self.line_of(place.k, &[quoted("attr")]);
            self.error(
                line,
                format!("{}: not a JSON object", place.describe_bare()),
            );
            return None;
        };
        let named = attr.name.got().map(String::as_str);
        self.unknown_keys(place, named, &attr.other);
        let name = self.string_field(place, named, &attr.name, "name");
        let param_type = self.param_type(place, named, &attr.param_type, &["required", "optional"]);
        let written = self.string_field(place, named, &attr.ty, "type")?;
        let Some((canonical, _, c_type)) = ATTR_TYPES
            .iter()
            .find(|(n, aliases, _)| *n == written || aliases.contains(&written.as_str()))
        else {
            let line = self.line_of(place.k, &place.needles(named, &["type", &written]));
            let known: Vec<&str> = ATTR_TYPES.iter().map(|(n, _, _)| *n).collect();
            self.error(
                line,
                format!(
                    "{}: attribute type `{written}` has no aclnn parameter type (aclgen reads {})",
                    place.describe(named),
                    known.join(", ")
                ),
            );
            return None;
        };
        if written != *canonical {
            spell
                .attr_types
                .entry(canonical.to_string())
                .or_insert(written);
        }
        let default = attr.default_value.got().cloned();
        Some(Param {
            name: name?,
            role: Role::Attribute,
            ty: (*c_type).into(),
            optional: param_type? == "optional",
            description: default.as_ref().map_or_else(String::new, default_text),
            default,
            ..Param::default()
        })
    }

    /// A warning for each field msOpGen has that aclgen does not keep.
    fn unknown_keys(&mut self, place: &Place, name: Option<&str>, other: &Map<String, Value>) {
        for key in other.keys() {
            let line = self.line_of(place.k, &place.needles(name, &[key]));
            self.report(
                Severity::Warning,
                line,
                format!(
                    "{}: msOpGen field `{key}` is not kept",
                    place.describe(name)
                ),
            );
        }
    }

    /// msOpGen's lists are columns: every `type` and `format` list has the op's number of
    /// columns, or one entry (msOpGen repeats it in every column).
    fn check_columns(&mut self, op: &str, tensors: &[Tensor]) {
        let count = tensors
            .iter()
            .flat_map(|t| [t.types.len(), t.formats.len()])
            .max()
            .unwrap_or(0);
        for t in tensors {
            for (what, len) in [("type", t.types.len()), ("format", t.formats.len())] {
                if len > 1 && len != count || (what == "type" && len == 0) {
                    self.error(
                        t.line,
                        format!(
                            "{op}: `{}`'s `{what}` has {len} entries; msOpGen's lists are \
                             columns, so each has {count} (the op's) or 1",
                            t.name
                        ),
                    );
                }
            }
        }
    }

    /// Parameter names become C and Rust identifiers, once each.
    fn check_names(&mut self, k: usize, op: &str, tensors: &[Tensor], attrs: &[Param]) {
        let names: Vec<&str> = tensors
            .iter()
            .map(|t| t.name.as_str())
            .chain(attrs.iter().map(|a| a.name.as_str()))
            .collect();
        for (i, name) in names.iter().enumerate() {
            let line = self.line_of(k, &[quoted(name)]);
            if !crate::ir::is_identifier(name) {
                self.error(
                    line,
                    format!("{op}: parameter name `{name}` is not an identifier"),
                );
            } else if names[..i].contains(name) {
                self.error(line, format!("{op}: parameter `{name}` is named twice"));
            } else if ["workspaceSize", "executor"].contains(name) {
                self.error(
                    line,
                    format!("{op}: parameter `{name}` would clash with aclnn's own `{name}`"),
                );
            }
        }
    }
}

/// Where a desc or attr object is: its op (the `k`th) and its index in `section`.
struct Place<'a> {
    k: usize,
    op: &'a str,
    section: &'a str,
    index: usize,
}

impl Place<'_> {
    fn describe_bare(&self) -> String {
        format!("{}: {}[{}]", self.op, self.section, self.index)
    }

    /// `AddCustom: input_desc x` (or its index while it has no name).
    fn describe(&self, name: Option<&str>) -> String {
        match name {
            Some(n) => format!("{}: {} `{n}`", self.op, self.section),
            None => self.describe_bare(),
        }
    }

    /// The texts that lead to a field of this object: its section, its name, then `fields`.
    fn needles(&self, name: Option<&str>, fields: &[&str]) -> Vec<String> {
        let mut out = vec![quoted(self.section)];
        if let Some(n) = name {
            out.push(quoted(n));
        }
        out.extend(fields.iter().map(|f| quoted(f)));
        out
    }
}

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// Byte offset of the `k`th (0-based) `"key"` followed by a colon.
fn nth_key(text: &str, key: &str, k: usize) -> Option<usize> {
    let needle = quoted(key);
    let mut seen = 0;
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        from = at + needle.len();
        if text[from..].trim_start().starts_with(':') {
            if seen == k {
                return Some(at);
            }
            seen += 1;
        }
    }
    None
}

/// "默认值为1。": the default in the words of a doc, which the OpDef emitter reads (JSON's
/// spelling: strings quoted, lists bracketed).
fn default_text(value: &Value) -> String {
    format!("默认值为{value}。")
}

/// The IR of one op: the aclnn API CANN's build generates for it, its tensors' lists as columns.
fn build_op(path: &str, name: &str, tensors: &[Tensor], attrs: Vec<Param>, spell: MsOpGen) -> OpIr {
    let tensor_param = |t: &Tensor| {
        let list = t.param_type == "dynamic";
        let (role, ty) = match (t.input, list) {
            (true, false) => (Role::InputTensor, "const aclTensor*"),
            (true, true) => (Role::InputTensorList, "const aclTensorList*"),
            (false, false) => (Role::OutputTensor, "aclTensor*"),
            (false, true) => (Role::OutputTensorList, "aclTensorList*"),
        };
        Param {
            name: t.name.clone(),
            role,
            ty: ty.into(),
            optional: t.param_type == "optional",
            dtypes: msopgen_products()
                .map(|p| (p.into(), t.types.clone()))
                .collect(),
            formats: t.formats.clone(),
            ..Param::default()
        }
    };
    let mut params: Vec<Param> = tensors
        .iter()
        .filter(|t| t.input)
        .map(tensor_param)
        .collect();
    params.extend(attrs);
    params.extend(tensors.iter().filter(|t| !t.input).map(tensor_param));
    let aclnn = |role, name: &str, ty: &str| Param {
        name: name.into(),
        role,
        ty: ty.into(),
        ..Param::default()
    };
    params.push(aclnn(Role::WorkspaceSize, "workspaceSize", "uint64_t*"));
    params.push(aclnn(Role::Executor, "executor", "aclOpExecutor**"));
    let cparam = |name: &str, ty: &str| CParam {
        name: name.into(),
        ty: ty.into(),
    };
    let functions = vec![
        Function {
            name: format!("aclnn{name}GetWorkspaceSize"),
            return_type: "aclnnStatus".into(),
            params: params
                .iter()
                .map(|p| cparam(&p.name, &p.ty.to_string()))
                .collect(),
            source: None,
        },
        Function {
            name: format!("aclnn{name}"),
            return_type: "aclnnStatus".into(),
            params: vec![
                cparam("workspace", "void*"),
                cparam("workspaceSize", "uint64_t"),
                cparam("executor", "aclOpExecutor*"),
                cparam("stream", "aclrtStream"),
            ],
            source: None,
        },
    ];
    let file = std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |f| f.to_string_lossy().into_owned());
    OpIr {
        op: name.to_string(),
        products: msopgen_products().map(|p| (p.into(), true)).collect(),
        description: format!("由msOpGen的算子原型定义{file}导入。"),
        functions,
        errors: standard_errors(tensors),
        params,
        columns: true,
        msopgen: Some(spell),
        sources: vec![path.to_string()],
        ..OpIr::default()
    }
}

/// The error rows every aclnn op documents: null pointers and unsupported dtypes.
fn standard_errors(tensors: &[Tensor]) -> Vec<ErrorCase> {
    let listed = |names: Vec<&str>, last: &str| match names.split_last() {
        Some((tail, [])) => tail.to_string(),
        Some((tail, head)) => format!("{}{last}{tail}", head.join("、")),
        None => String::new(),
    };
    let required: Vec<&str> = tensors
        .iter()
        .filter(|t| t.param_type != "optional")
        .map(|t| t.name.as_str())
        .collect();
    let all: Vec<&str> = tensors.iter().map(|t| t.name.as_str()).collect();
    let mut errors = Vec::new();
    if !required.is_empty() {
        errors.push(ErrorCase {
            code: 161001,
            name: "ACLNN_ERR_PARAM_NULLPTR".into(),
            condition: format!("传入的{}是空指针。", listed(required, "或")),
            ..ErrorCase::default()
        });
    }
    if !all.is_empty() {
        errors.push(ErrorCase {
            code: 161002,
            name: "ACLNN_ERR_PARAM_INVALID".into(),
            condition: format!("{}的数据类型不在支持的范围之内。", listed(all, "或")),
            ..ErrorCase::default()
        });
    }
    errors
}

/// The msOpGen spellings of `dtypes`' names back, for the emitter: `fp16` where the JSON wrote it.
pub fn dtype_name(op: &OpIr, dtype: DType) -> Option<String> {
    let name = dtype.msopgen_name()?;
    Some(
        op.msopgen
            .as_ref()
            .and_then(|m| m.dtype_names.get(name))
            .cloned()
            .unwrap_or_else(|| name.to_string()),
    )
}

/// The msOpGen attribute type of `p` as the op's JSON spelled it.
pub fn attr_type_name(op: &OpIr, p: &Param) -> Option<String> {
    let name = attr_type_of(&p.ty)?;
    Some(
        op.msopgen
            .as_ref()
            .and_then(|m| m.attr_types.get(name))
            .cloned()
            .unwrap_or_else(|| name.to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: &str = r#"[
    {
        "op": "AddCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["fp16", "float"]},
            {"name": "y", "format": ["ND", "NCHW"], "type": ["float16", "float32"]}
        ],
        "output_desc": [
            {"name": "z", "param_type": "required", "format": ["ND"], "type": ["fp16", "float"]}
        ],
        "attr": [
            {"name": "alpha", "param_type": "optional", "type": "float", "default_value": 1.0}
        ]
    }
]"#;

    #[test]
    fn msopgen_json_is_known_by_content() {
        assert!(is_msopgen_json(ADD.as_bytes()));
        assert!(is_msopgen_json(format!("\u{feff}\n {ADD}").as_bytes()));
        assert!(!is_msopgen_json("# aclnnAdd\n\n[\"op\"]".as_bytes()));
        assert!(!is_msopgen_json(b"{\"op\": \"Foo\"}"));
    }

    #[test]
    fn an_op_becomes_its_aclnn_api_with_columns_and_spellings() {
        let read = read_msopgen("add.json", ADD.as_bytes());
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        let op = &read.ops[0];
        assert!(op.columns);
        assert_eq!(op.supported_products().collect::<Vec<_>>().len(), 3);
        let ws = op.workspace_fn().expect("first phase");
        let protos: Vec<String> = ws
            .params
            .iter()
            .map(|p| format!("{} {}", p.ty, p.name))
            .collect();
        assert_eq!(
            protos,
            [
                "const aclTensor* x",
                "const aclTensor* y",
                "double alpha",
                "aclTensor* z",
                "uint64_t* workspaceSize",
                "aclOpExecutor** executor"
            ]
        );
        let x = op.param("x").expect("x");
        assert_eq!(x.dtypes["ascend910b"], [DType::Float16, DType::Float32]);
        assert_eq!(x.formats, [Format::Nd]);
        let alpha = op.param("alpha").expect("alpha");
        assert!(alpha.optional);
        assert_eq!(alpha.default, Some(serde_json::json!(1.0)));
        assert_eq!(alpha.description, "默认值为1.0。");
        let spell = op.msopgen.as_ref().expect("spellings");
        assert_eq!(spell.language.as_deref(), Some("cpp"));
        assert_eq!(spell.dtype_names["float16"], "fp16");
        assert_eq!(spell.dtype_names["float32"], "float");
        assert_eq!(op.errors[0].condition, "传入的x、y或z是空指针。");
        assert!(op.generation_problems().is_empty());
    }

    #[test]
    fn an_error_drops_the_files_ops_and_unknown_fields_warn() {
        let bad = ADD.replace("\"float32\"", "\"float99\"");
        let read = read_msopgen("add.json", bad.as_bytes());
        assert!(read.ops.is_empty());
        let d = &read.diagnostics[0];
        assert_eq!((d.code, d.line), (Code::MsOpGenInvalid, 7), "{d:?}");
        assert!(d.message.contains("float99"), "{}", d.message);
        let extra = ADD.replace("\"language\"", "\"group\": 1, \"language\"");
        let read = read_msopgen("add.json", extra.as_bytes());
        assert_eq!(read.ops.len(), 1);
        assert_eq!(read.diagnostics[0].severity, Severity::Warning);
        assert!(read.diagnostics[0].message.contains("`group`"));
        let read = read_msopgen("add.json", &[0xff, 0xfe, b'[']);
        assert!(read.ops.is_empty() && !read.diagnostics.is_empty());
    }

    #[test]
    fn lists_are_columns_of_one_length() {
        let bad = ADD.replace(
            "\"format\": [\"ND\", \"NCHW\"]",
            "\"format\": [\"ND\", \"ND\", \"ND\"]",
        );
        let read = read_msopgen("add.json", bad.as_bytes());
        assert!(read.ops.is_empty());
        assert!(read
            .diagnostics
            .iter()
            .any(|d| d.message.contains("has 2 entries")));
    }

    #[test]
    fn attribute_types_map_both_ways() {
        for (name, _, c_type) in ATTR_TYPES {
            assert_eq!(attr_type_of(&CType::new(*c_type)), Some(*name), "{c_type}");
        }
    }
}
