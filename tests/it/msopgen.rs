//! msOpGen interoperability: `aclgen import` reads msOpGen's op JSON (by content) into full
//! specs, gen writes each op's msOpGen JSON (`ops/<snake>/<snake>.json`), and a round trip
//! JSON → spec → gen → JSON gives the JSON back, every field msOpGen has.

use crate::common;

use common::{aclgen_in as aclgen, text};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// msOpGen's own example op JSON (its AddCustom, as data in `../shared/cann-data`), read in
/// place; `None`, with a message, where `../shared` is absent.
fn msopgen_example() -> Option<PathBuf> {
    let path = common::repo().join("../shared/cann-data/msopgen/add_custom.json");
    if path.is_file() {
        Some(path)
    } else {
        println!("skipped: {} is absent", path.display());
        None
    }
}

fn fixture() -> PathBuf {
    common::repo().join("tests/fixtures/msopgen/every_field.json")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read json")).expect("json parses")
}

/// Fields (object keys, at every depth) and leaf values of a JSON value: the round trip's figure.
fn count_fields(v: &Value) -> (usize, usize) {
    match v {
        Value::Object(map) => map.values().fold((map.len(), 0), |(f, l), v| {
            let (f2, l2) = count_fields(v);
            (f + f2, l + l2)
        }),
        Value::Array(items) => items.iter().fold((0, 0), |(f, l), v| {
            let (f2, l2) = count_fields(v);
            (f + f2, l + l2)
        }),
        _ => (0, 1),
    }
}

/// Imports `inputs` into `<dir>/specs/ops`, runs gen into `<dir>/gen`, and returns each op's
/// generated msOpGen JSON by op name (`[op]` arrays merged into one array, in op order given).
fn round_trip(inputs: &[&Path], dir: &Path, ops: &[&str]) -> Value {
    let specs = dir.join("specs");
    let mut args = vec!["import".to_string()];
    args.extend(inputs.iter().map(|p| p.to_string_lossy().into_owned()));
    args.extend([
        "--out".into(),
        specs.join("ops").to_string_lossy().into_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let import = aclgen(&args, &common::repo());
    assert_eq!(import.status.code(), Some(0), "{}", text(&import.stderr));
    let out = dir.join("gen");
    let gen = aclgen(
        &[
            "gen",
            "--specs",
            &specs.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    let mut all = Vec::new();
    for op in ops {
        let snake = aclgen::ir::snake_case(op);
        let file = out.join("ops").join(&snake).join(format!("{snake}.json"));
        match read_json(&file) {
            Value::Array(items) => all.extend(items),
            other => panic!("{}: not an array: {other}", file.display()),
        }
    }
    Value::Array(all)
}

#[test]
fn msopgens_example_round_trips_through_a_spec_and_gen() {
    let Some(example) = msopgen_example() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let back = round_trip(&[&example], dir.path(), &["AddCustom"]);
    let original = read_json(&example);
    assert_eq!(back, original);
    let (fields, leaves) = count_fields(&original);
    println!("add_custom.json: {fields} fields, {leaves} values, all kept");
    // The spec is a full spec as import writes for docs.
    let spec = std::fs::read_to_string(dir.path().join("specs/ops/AddCustom.yaml")).expect("spec");
    assert!(spec.starts_with("# Written by aclgen import;"), "{spec}");
    assert!(
        spec.contains("kind: full") && spec.contains("columns: true"),
        "{spec}"
    );
    assert!(spec.contains("aclnnAddCustomGetWorkspaceSize"), "{spec}");
}

#[test]
fn every_field_and_spelling_round_trips() {
    let dir = tempfile::tempdir().expect("tempdir");
    let back = round_trip(
        &[&fixture()],
        dir.path(),
        &["ScaleClipCustom", "CopyCustom"],
    );
    let original = read_json(&fixture());
    assert_eq!(back, original);
    let (fields, leaves) = count_fields(&original);
    println!("every_field.json: {fields} fields, {leaves} values, all kept");
    // The aclnn API derived as CANN's build generates it for a custom op.
    let header = std::fs::read_to_string(
        dir.path()
            .join("gen/ops/scale_clip_custom/op_api/aclnn_scale_clip_custom.h"),
    )
    .expect("header");
    let flat = header.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "aclnnScaleClipCustomGetWorkspaceSize(const aclTensor* x, const aclTensor* bias, \
             const aclTensorList* extras, int64_t axis, double scale, bool keepDims, char* mode, \
             const aclIntArray* dims, const aclFloatArray* bounds, const aclBoolArray* flags, \
             aclDataType dstType, aclTensor* y, aclTensor* mask, uint64_t* workspaceSize, \
             aclOpExecutor** executor)"
        ),
        "{header}"
    );
    // The OpDef keeps msOpGen's columns (entry i of every list is one combination).
    let def = std::fs::read_to_string(
        dir.path()
            .join("gen/ops/scale_clip_custom/op_host/scale_clip_custom_def.cpp"),
    )
    .expect("opdef");
    assert!(
        def.contains(".DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT64})"),
        "{def}"
    );
    assert!(def.contains(".ListInt({0, 1})"), "{def}");
}

#[test]
fn seed_ops_json_imports_to_the_same_json() {
    let specs = aclgen::pipeline::load(&common::repo().join("specs")).expect("specs load");
    let dir = tempfile::tempdir().expect("tempdir");
    let mut inputs = Vec::new();
    let mut firsts = Vec::new();
    for name in common::SEED_OPS {
        let op = specs.ops.iter().find(|o| o.op == name).expect("seed op");
        let file = aclgen::emit::msopgen::msopgen_file(op).expect("emits");
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, &file.contents).expect("write");
        // gen's committed file is this one.
        let committed = common::repo().join("generated").join(&file.path);
        assert_eq!(
            std::fs::read_to_string(&committed).expect("committed json"),
            file.contents,
            "{}",
            committed.display()
        );
        firsts.extend(match read_json(&path) {
            Value::Array(items) => items,
            other => panic!("not an array: {other}"),
        });
        inputs.push(path);
    }
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let work = dir.path().join("work");
    let back = round_trip(&inputs, &work, &common::SEED_OPS);
    assert_eq!(back, Value::Array(firsts));
}

#[test]
fn msopgen_json_is_recognized_by_content_whatever_its_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let renamed = dir.path().join("ops.def");
    std::fs::copy(fixture(), &renamed).expect("copy");
    let out = dir.path().join("ops");
    let import = aclgen(
        &[
            "import",
            &renamed.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ],
        &common::repo(),
    );
    assert_eq!(import.status.code(), Some(0), "{}", text(&import.stderr));
    assert!(out.join("ScaleClipCustom.yaml").is_file());
    let show = aclgen(&["show", &renamed.to_string_lossy()], &common::repo());
    assert_eq!(show.status.code(), Some(0), "{}", text(&show.stderr));
    let ir: Value = serde_json::from_slice(&show.stdout).expect("show prints json");
    assert_eq!(ir[0]["op"], "ScaleClipCustom");
    assert_eq!(ir[0]["columns"], true);
    assert_eq!(ir[0]["msopgen"]["dtype_names"]["float16"], "fp16");
}

/// A bad msOpGen JSON: exit 1, one `msopgen-invalid` error at `file:line:column`, and nothing
/// written.
fn assert_refused(json: &str, message: &str, at: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("op.json");
    std::fs::write(&input, json).expect("write");
    let out = dir.path().join("ops");
    let import = aclgen(
        &[
            "import",
            &input.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ],
        &common::repo(),
    );
    let stderr = text(&import.stderr);
    assert_eq!(import.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[msopgen-invalid]"), "{stderr}");
    assert!(stderr.contains(message), "{message}: {stderr}");
    assert!(stderr.contains(&format!("op.json:{at}")), "{at}: {stderr}");
    assert!(!out.exists(), "{json}: something was written");
}

#[test]
fn bad_msopgen_json_is_an_error_at_its_line_and_writes_nothing() {
    let op = |input: &str, attr: &str| {
        format!(
            "[\n    {{\n        \"op\": \"Foo\",\n        \"input_desc\": [\n{input}\n        ],\n        \
             \"output_desc\": [\n            {{\"name\": \"y\", \"format\": [\"ND\"], \"type\": [\"fp16\"]}}\n        ],\n        \
             \"attr\": [{attr}]\n    }}\n]\n"
        )
    };
    let x = |ty: &str| format!("            {{\"name\": \"x\", \"type\": {ty}}}");
    // Syntax: serde_json's line and column.
    assert_refused(
        "[\n  {\"op\": \"Foo\",}\n]\n",
        "does not parse: trailing comma",
        "2:16",
    );
    // An unknown dtype, at its place.
    assert_refused(&op(&x("[\"fp99\"]"), ""), "`fp99` is not a dtype", "5:36");
    // A missing `type`: at the tensor's name.
    assert_refused(
        &op("            {\"name\": \"x\", \"format\": [\"ND\"]}", ""),
        "input_desc `x`: `type` is missing",
        "5:22",
    );
    // An attribute type aclnn has no parameter for.
    assert_refused(
        &op(&x("[\"fp16\"]"), "{\"name\": \"s\", \"type\": \"listStr\"}"),
        "attribute type `listStr` has no aclnn parameter type",
        "10:40",
    );
    // Lists are columns: 2 types against the op's 3 formats... of another tensor.
    assert_refused(
        &op(
            "            {\"name\": \"x\", \"format\": [\"ND\", \"ND\", \"ND\"], \"type\": [\"fp16\", \"float\"]}",
            "",
        ),
        "`x`'s `type` has 2 entries",
        "5:",
    );
    // Names become identifiers; not an array; no op name.
    assert_refused(
        &op(&x("[\"fp16\"]").replace("\"x\"", "\"a b\""), ""),
        "`a b` is not an identifier",
        "5:",
    );
    assert_refused(
        "[{\"op\": \"Foo\", \"output_desc\": 3}]",
        "`output_desc` is not a list",
        "1:",
    );
    assert_refused("[{\"input_desc\": [], \"op\": 7}]", "has no `op`", "1:");
}

/// Every ops-nn doc's op: its msOpGen JSON, imported (through the YAML spec), gives the same
/// JSON. Skipped, with a message, without ../shared/corpus.
#[test]
fn corpus_ops_json_imports_to_the_same_json() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let specs = aclgen::specs::load_specs(&corpus.join("ops-nn/docs")).expect("corpus loads");
    let mut checked = 0;
    for op in specs
        .ops
        .iter()
        .filter(|o| o.generation_problems().is_empty())
    {
        let first = aclgen::emit::msopgen::msopgen_file(op).expect("emits");
        let read = aclgen::specs::msopgen::read_msopgen("op.json", first.contents.as_bytes());
        assert!(
            read.diagnostics.is_empty(),
            "{}: {:?}",
            op.op,
            read.diagnostics
        );
        let full = aclgen::specs::ir_to_full(&read.ops[0]);
        let yaml = aclgen::specs::full_to_yaml(&full).expect("yaml");
        let spec = aclgen::specs::read_spec_file("Op.yaml", &yaml);
        let again = aclgen::emit::msopgen::msopgen_file(&spec.ops[0]).expect("emits again");
        assert_eq!(first.contents, again.contents, "{}", op.op);
        checked += 1;
    }
    println!("{checked} ops-nn ops: msOpGen JSON → import → JSON unchanged");
    assert!(checked > 400, "{checked}");
}
