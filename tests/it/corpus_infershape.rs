//! The generated InferShape functions against CANN's own InferShape unit tests, as data
//! (`infershape-facts.jsonl` of ops-nn and ops-math-dev; skipped, said once, where
//! `../shared/corpus` is absent). Each dev set is generated whole; every op whose graph op a
//! fact tests (same op type, inputs and outputs mapping by position onto the doc's tensors) and
//! for which gen registers an InferShape is compiled on the project's stand-ins with a driver
//! that runs the fact's input shapes through it; its output shapes must equal the ones CANN's
//! test expects on at least `MIN_AGREEMENT` of the facts run. Every difference is printed
//! (`cargo test --test it corpus_infershape:: -- --include-ignored --nocapture`).

use crate::common::{self, cxx};

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Share of the facts run whose output shapes must agree with CANN's test.
const MIN_AGREEMENT: f64 = 0.95;

/// CANN tests that differ from the generated InferShape, reviewed by hand: (op, test, why: the
/// doc's words, or what the graph op has that the aclnn API has not). They are reported with the
/// reason, and counted as differences all the same.
const REVIEWED: [(&str, &str, &str); 5] = [
    (
        "ReluGradV3",
        "relu_grad_v3_infershape_4d_broadcast_test",
        "the doc's: aclnnReluGradV3's doc: z \"shape与x一致\", and the error row \"x、y和z的shape\
         不一致\"; CANN's InferShape broadcasts x and y",
    ),
    (
        "ReduceLogSum",
        "reduce_log_sum_infershape_test_4",
        "empty axes: the doc's noopWithEmptyAxes (\"true：不进行计算\") chooses, and the graph op's \
         test gives no such attribute, so the generated InferShape has none to read",
    ),
    (
        "ReduceSum",
        "ReduceSum_zero_dim_axes_noop_true",
        "empty axes: the graph op's noop_with_empty_axes has no aclnnReduceSum parameter, and \
         the doc states no shape for an empty dims list",
    ),
    (
        "ReduceSum",
        "ReduceSum_zero_dim_axes_noop_false_keepdims_false",
        "empty axes: the doc states no shape for an empty dims list (CANN reduces every dim)",
    ),
    (
        "ReduceSum",
        "ReduceSum_invalid_axes_dtype",
        "the graph op's axes is a tensor of a dtype it rejects (unknown dims); aclnnReduceSum's \
         dims is an aclIntArray, with no dtype",
    ),
];

/// The driver: reads cases (op type, input shapes, output count) as JSON on stdin and prints
/// each case's status and output shapes, running the op's registered InferShape.
const DRIVER: &str = r#"// The corpus_infershape test's driver (aclgen's own).
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include "register/op_impl_registry.h"

int main()
{
    nlohmann::json cases = nlohmann::json::parse(std::cin);
    nlohmann::json results = nlohmann::json::array();
    for (const auto& c : cases) {
        nlohmann::json r;
        const gert::OpImplFunctions* f = gert::ImplOf(c["op"].get<std::string>());
        if (f == nullptr || f->inferShape == nullptr) {
            r["status"] = "unregistered";
            results.push_back(r);
            continue;
        }
        gert::InferShapeContext context;
        for (const auto& in : c["inputs"]) {
            context.inputs.push_back(gert::Shape(in.get<std::vector<int64_t>>()));
        }
        // The OpDef's attributes in order; an attribute the fact gives no value stays absent.
        for (const auto& a : c["attrs"]) {
            gert::AttrValue v;
            const std::string kind = a["kind"].get<std::string>();
            const nlohmann::json& value = a["value"];
            // A value of another type than the OpDef's (a test's own spelling) stays absent.
            v.present = true;
            if (kind == "Bool" && value.is_boolean()) {
                v.b = value.get<bool>();
            } else if (kind == "Int" && value.is_number_integer()) {
                v.i = value.get<int64_t>();
            } else if (kind == "Float" && value.is_number()) {
                v.f = value.get<float>();
            } else if (kind == "ListInt" && value.is_array() &&
                       std::all_of(value.begin(), value.end(), [](const nlohmann::json& e) {
                           return e.is_number_integer();
                       })) {
                v.ints.values = value.get<std::vector<int64_t>>();
            } else {
                v.present = false;
            }
            context.runtimeAttrs.attrs.push_back(v);
        }
        context.outputs.resize(c["n_outputs"].get<size_t>());
        bool ok = f->inferShape(&context) == ge::GRAPH_SUCCESS;
        r["status"] = ok ? "GRAPH_SUCCESS" : "GRAPH_FAILED";
        nlohmann::json outs = nlohmann::json::array();
        for (const auto& s : context.outputs) {
            std::vector<int64_t> dims;
            for (size_t i = 0; i < s.GetDimNum(); ++i) {
                dims.push_back(s.GetDim(i));
            }
            outs.push_back(dims);
        }
        r["outputs"] = outs;
        results.push_back(r);
    }
    std::cout << results.dump() << std::endl;
    return 0;
}
"#;

/// A generated op as the facts see it: its folder, its OpDef's input and output counts.
struct GeneratedOp {
    dir: PathBuf,
    inputs: usize,
    outputs: usize,
    /// A dynamic (list) input or output: positions past it are not the instance's.
    dynamic: bool,
    /// The OpDef's attributes in order: name and kind (`Bool`, `Int`, `Float`, `ListInt`, ...).
    attrs: Vec<(String, String)>,
}

/// `this->Attr("keep_dims").AttrType(REQUIRED).Bool();` → (keep_dims, Bool), in order.
fn opdef_attrs(def: &str) -> Vec<(String, String)> {
    def.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("this->Attr(\"")?;
            let (name, rest) = rest.split_once('"')?;
            let kind = rest.rsplit_once(").")?.1.trim_end_matches("();");
            Some((name.to_string(), kind.to_string()))
        })
        .collect()
}

/// The generated ops with an InferShape file that registers InferShape, by op type.
fn generated_ops(ops: &[PathBuf]) -> BTreeMap<String, GeneratedOp> {
    let mut found = BTreeMap::new();
    for dir in ops {
        let snake = dir.file_name().unwrap().to_string_lossy().into_owned();
        let infer = dir.join(format!("op_host/{snake}_infershape.cpp"));
        let Ok(text) = std::fs::read_to_string(&infer) else {
            continue;
        };
        if !text.contains(".InferShape(") {
            continue;
        }
        let Some(op) = text
            .split("IMPL_OP_INFERSHAPE(")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
        else {
            continue;
        };
        let def = std::fs::read_to_string(dir.join(format!("op_host/{snake}_def.cpp")))
            .unwrap_or_default();
        found.insert(
            op.to_string(),
            GeneratedOp {
                dir: dir.clone(),
                inputs: def.matches("this->Input(").count(),
                outputs: def.matches("this->Output(").count(),
                dynamic: def.contains("DYNAMIC"),
                attrs: opdef_attrs(&def),
            },
        );
    }
    found
}

/// A fact this test can run: a complete, passing test with expected output shapes whose inputs
/// all have shapes.
fn runnable(fact: &Value) -> bool {
    fact["expected_status"] == "GRAPH_SUCCESS"
        && fact["partial"] != true
        && fact["expected_outputs"]
            .as_array()
            .is_some_and(|o| o.iter().any(|s| !s.is_null()))
        && fact["inputs"]
            .as_array()
            .is_some_and(|ins| ins.iter().all(|i| i["shape"].is_array()))
}

/// The fact's tensor inputs: all but the constant ones that an OpDef attribute takes.
fn tensor_inputs(fact: &Value) -> Vec<&Value> {
    fact["inputs"]
        .as_array()
        .map(|ins| ins.iter().filter(|i| i["const"] != true).collect())
        .unwrap_or_default()
}

/// Whether the fact's graph op maps by position onto the generated op: its tensor inputs and
/// outputs by position, its attributes by name, a constant input (CANN's graph ops take
/// ReduceSum's `axes` as one; aclnn takes an `aclIntArray`) onto the one list attribute no
/// attribute of the fact names.
fn maps_by_position(fact: &Value, op: &GeneratedOp) -> bool {
    let outputs = fact["expected_outputs"].as_array().map_or(0, |a| a.len());
    !op.dynamic
        && tensor_inputs(fact).len() == op.inputs
        && outputs == op.outputs
        && attr_values(fact, op).is_some()
}

/// The value of each OpDef attribute the fact gives (in OpDef order, `null` where it gives
/// none), or `None` where a constant input maps onto no one attribute.
fn attr_values(fact: &Value, op: &GeneratedOp) -> Option<Vec<Value>> {
    let named = |name: &str| {
        fact["attrs"]
            .as_array()?
            .iter()
            .find(|a| a["name"] == name)
            .map(|a| a["value"].clone())
    };
    let mut values: Vec<Value> = op
        .attrs
        .iter()
        .map(|(name, _)| named(name).unwrap_or(Value::Null))
        .collect();
    let consts: Vec<&Value> = fact["inputs"]
        .as_array()
        .map(|ins| ins.iter().filter(|i| i["const"] == true).collect())
        .unwrap_or_default();
    for c in consts {
        let free: Vec<usize> = op
            .attrs
            .iter()
            .enumerate()
            .filter(|(i, (_, kind))| kind == "ListInt" && values[*i].is_null())
            .map(|(i, _)| i)
            .collect();
        let [only] = free.as_slice() else {
            return None;
        };
        values[*only] = c["const_value"].clone();
    }
    Some(values)
}

/// Compiles each op's InferShape and the driver into one program.
fn build(ops: &[&GeneratedOp], work: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(work).map_err(|e| e.to_string())?;
    let mut objs = Vec::new();
    for op in ops {
        let snake = op.dir.file_name().unwrap().to_string_lossy().into_owned();
        let src = PathBuf::from(format!("op_host/{snake}_infershape.cpp"));
        let obj = work.join(format!("{snake}.o"));
        let c = cxx::compile(&op.dir, &src, &[cxx::standins()], &[], Some(&obj));
        if !c.ok {
            return Err(format!("{}: {}", op.dir.join(&src).display(), c.error));
        }
        objs.push(obj);
    }
    let driver = work.join("driver.cpp");
    std::fs::write(&driver, DRIVER).map_err(|e| e.to_string())?;
    let obj = work.join("driver.o");
    let c = cxx::compile(
        work,
        Path::new("driver.cpp"),
        &[cxx::standins()],
        &[],
        Some(&obj),
    );
    if !c.ok {
        return Err(format!("driver: {}", c.error));
    }
    objs.push(obj);
    let exe = work.join("infershape-driver");
    let o = Command::new("g++")
        .args(&objs)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(common::text(&o.stderr));
    }
    Ok(exe)
}

fn run(exe: &Path, cases: &[Value]) -> Vec<Value> {
    use std::io::Write;
    let mut child = Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run the driver");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(Value::Array(cases.to_vec()).to_string().as_bytes())
        .expect("write cases");
    let out = child.wait_with_output().expect("driver output");
    assert!(out.status.success(), "the driver failed");
    serde_json::from_slice(&out.stdout).expect("driver JSON")
}

/// Whether the driver's result is the fact's expectation (outputs it leaves null are free).
fn agrees(fact: &Value, result: &Value) -> bool {
    if result["status"] != "GRAPH_SUCCESS" {
        return false;
    }
    let expected = fact["expected_outputs"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let got = result["outputs"].as_array().cloned().unwrap_or_default();
    expected
        .iter()
        .zip(got.iter().chain(std::iter::repeat(&Value::Null)))
        .all(|(e, g)| e.is_null() || e == g)
}

/// One dev set's figures: facts with shapes, facts on a generated op, facts run, agreeing.
fn check_set(corpus: &Path, set: &str) -> (usize, usize, usize, usize) {
    let (_, ops) = common::dev_set_sample(corpus, set, 1, "corpus_infershape");
    let generated = generated_ops(&ops);
    let facts: Vec<Value> =
        std::fs::read_to_string(corpus.join(set).join("infershape-facts.jsonl"))
            .expect("infershape-facts.jsonl")
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .filter(runnable)
            .collect();
    let on_ops: Vec<(&Value, &GeneratedOp)> = facts
        .iter()
        .filter_map(|f| generated.get(f["op"].as_str()?).map(|op| (f, op)))
        .collect();
    let mapped: Vec<(&Value, &GeneratedOp)> = on_ops
        .iter()
        .copied()
        .filter(|(f, op)| maps_by_position(f, op))
        .collect();
    let mut used: Vec<&GeneratedOp> = mapped.iter().map(|(_, op)| *op).collect();
    used.sort_by_key(|op| op.dir.clone());
    used.dedup_by_key(|op| op.dir.clone());
    let work = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("corpus_infershape")
        .join(format!("{set}-build"));
    let exe = build(&used, &work).unwrap_or_else(|e| panic!("{set}: {e}"));
    let cases: Vec<Value> = mapped
        .iter()
        .map(|(f, op)| {
            let values = attr_values(f, op).unwrap_or_default();
            json!({
                "op": f["op"],
                "inputs": tensor_inputs(f).iter().map(|i| i["shape"].clone()).collect::<Vec<_>>(),
                "attrs": op.attrs.iter().zip(values).map(|((_, kind), value)| {
                    json!({"kind": kind, "value": value})
                }).collect::<Vec<_>>(),
                "n_outputs": f["expected_outputs"].as_array().map_or(0, |a| a.len()),
            })
        })
        .collect();
    let results = run(&exe, &cases);
    let mut agree = 0;
    for ((fact, _), result) in mapped.iter().zip(&results) {
        if agrees(fact, result) {
            agree += 1;
        } else {
            let reviewed = REVIEWED
                .iter()
                .find(|(op, test, _)| fact["op"] == *op && fact["test"] == *test)
                .map_or(String::new(), |(_, _, why)| format!(" (reviewed: {why})"));
            println!(
                "  differs: {set} {} {}: inputs {} expected {} got {} {}{reviewed}",
                fact["op"].as_str().unwrap_or(""),
                fact["test"].as_str().unwrap_or(""),
                Value::Array(
                    fact["inputs"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|i| i["shape"].clone())
                        .collect()
                ),
                fact["expected_outputs"],
                result["status"],
                result["outputs"],
            );
        }
    }
    (facts.len(), on_ops.len(), mapped.len(), agree)
}

#[test]
#[ignore = "generates both dev sets whole and compiles their InferShape (a few minutes); .ci/run runs it"]
fn generated_infershape_agrees_with_canns_infershape_tests() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    if !cxx::available() {
        return;
    }
    let mut run_total = 0;
    let mut agree_total = 0;
    for set in ["ops-nn", "ops-math-dev"] {
        let (facts, on_ops, mapped, agree) = check_set(&corpus, set);
        println!(
            "infershape {set}: {facts} CANN InferShape tests with output shapes; {on_ops} on an op \
             gen registers an InferShape for, {mapped} of them mapping by position; {agree} of \
             {mapped} agree"
        );
        run_total += mapped;
        agree_total += agree;
    }
    let share = agree_total as f64 / run_total.max(1) as f64;
    println!(
        "infershape: {agree_total} of {run_total} agree ({:.1}%)",
        100.0 * share
    );
    assert!(
        run_total > 0 && share >= MIN_AGREEMENT,
        "the generated InferShape agrees with CANN's tests on {:.1}% of them (at least {:.0}% \
         wanted): the differences are printed above",
        100.0 * share,
        100.0 * MIN_AGREEMENT
    );
}
