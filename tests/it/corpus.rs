//! Corpus figures: the reader over the real aclnn docs of `../shared/corpus` (ops-nn, its older
//! docs, and ops-math-dev), checked against CANN's headers as data (`prototypes.jsonl` of ops-nn
//! and ops-math-dev). Skips with a message where the corpus is absent (a fresh clone).

use aclgen::read::read_doc;
use regex::Regex;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.join("ops-nn/docs").is_dir() {
        Some(dir)
    } else {
        println!("corpus test skipped: {} not found", dir.display());
        None
    }
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == ext));
    out.sort();
    out
}

/// The test's own prototype finder, independent of the reader: a plain regex.
fn proto_regex() -> Regex {
    Regex::new(r"aclnnStatus\s+(aclnn\w+GetWorkspaceSize)\s*\(([^)]*)\)").unwrap()
}

/// Whitespace-normalized parameter list: `const aclTensor *a , int b` → `const aclTensor*a,int b`.
fn normalize(params: &str) -> String {
    let s = params.replace('，', ",");
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let s = Regex::new(r"\s*([*,&])\s*")
        .unwrap()
        .replace_all(&s, "$1")
        .to_string();
    s.trim().to_string()
}

/// (name, type) pairs from a normalized list, for comparison with the IR.
fn pairs(normalized: &str) -> Vec<(String, String)> {
    normalized
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let cut = p
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map(|(i, c)| i + c.len_utf8())
                .unwrap_or(0);
            (p[cut..].to_string(), p[..cut].trim().to_string())
        })
        .collect()
}

/// The dev sets whose headers are given as data.
const WITH_PROTOTYPES: [&str; 2] = ["ops-nn", "ops-math-dev"];

/// Every header's prototype of each function (an op and its experimental variant may both
/// declare it), from the dev sets' `prototypes.jsonl`, as the test's `normalize` writes them.
fn all_header_protos(dir: &Path) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for set in WITH_PROTOTYPES {
        for p in crate::common::cann_prototypes(&dir.join(set).join("prototypes.jsonl")) {
            out.entry(p.function)
                .or_default()
                .push(normalize(&p.params));
        }
    }
    out
}

fn header_protos(all: &BTreeMap<String, Vec<String>>) -> BTreeMap<String, String> {
    all.iter()
        .map(|(f, ps)| (f.clone(), ps[0].clone()))
        .collect()
}

/// Diagnostics that flag a doc whose prototype disagrees with its own descriptions.
const DRIFT_CODES: &[&str] = &[
    "type-drift",
    "param-not-in-prototype",
    "param-undocumented",
    "name-mismatch",
    "role-conflict",
];

/// How many tensor parameters carry each fact (figures only; docs do not state every fact).
fn print_coverage(ops: &[aclgen::ir::OpIr]) {
    let tensors: Vec<&aclgen::ir::Param> = ops
        .iter()
        .flat_map(|o| o.params.iter())
        .filter(|p| p.role.is_tensor())
        .collect();
    let count = |f: &dyn Fn(&aclgen::ir::Param) -> bool| tensors.iter().filter(|p| f(p)).count();
    println!(
        "ops: {}; error rows: {}; tensor params: {}: dtypes {}, formats {}, rank {}, non_contiguous {}, empty_tensor {}",
        ops.len(),
        ops.iter().map(|o| o.errors.len()).sum::<usize>(),
        tensors.len(),
        count(&|p| !p.dtypes.is_empty()),
        count(&|p| !p.formats.is_empty()),
        count(&|p| p.rank.is_some()),
        count(&|p| p.non_contiguous.is_some()),
        count(&|p| p.empty_tensor.is_some()),
    );
}

#[test]
fn corpus_figures() {
    let Some(dir) = corpus() else { return };
    let all_headers = all_header_protos(&dir);
    let headers = header_protos(&all_headers);
    let mut other_header_agrees = 0;
    let re = proto_regex();
    let mut docs = files(&dir.join("ops-nn/docs"), "md");
    docs.extend(files(&dir.join("ops-nn-2025-12/docs"), "md"));
    docs.extend(files(&dir.join("ops-math-dev/docs"), "md"));
    let started = std::time::Instant::now();
    let mut ops_read: Vec<aclgen::ir::OpIr> = Vec::new();
    let (mut complete, mut with_header, mut agree, mut agree_match) = (0, 0, 0, 0);
    // The same two figures for ops-nn/docs alone (the corpus README's 343 of 371).
    let (mut ops_nn_header, mut ops_nn_agree) = (0, 0);
    let (mut with_errors, mut errors_read) = (0, 0);
    let mut incomplete = Vec::new();
    let mut mismatches = Vec::new();
    let mut drifting = Vec::new();
    let mut drifted_flagged = 0;
    // What `lint --headers` warns about, from CANN's own headers.
    let mut cann_headers = aclgen::conform::drift::Headers::new();
    for set in WITH_PROTOTYPES {
        let path = dir.join(set).join("prototypes.jsonl");
        for (f, hs) in aclgen::conform::drift::prototypes(&path).expect("prototypes.jsonl") {
            cann_headers.entry(f).or_default().extend(hs);
        }
    }
    let mut missing_errors = Vec::new();
    for path in &docs {
        let bytes = std::fs::read(path).expect("corpus doc readable");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let read = read_doc(&name, &bytes);
        ops_read.extend(read.ops.iter().cloned());
        let ok = read.ops.iter().any(|o| {
            o.functions.len() == 2
                && o.workspace_fn()
                    .is_some_and(|f| f.params.len() == o.params.len())
                && !o.params.is_empty()
        });
        if ok {
            complete += 1;
        } else {
            incomplete.push(name.clone());
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Some(c) = re.captures(&text) {
            if let Some(h) = headers.get(&c[1]) {
                with_header += 1;
                let in_ops_nn = path
                    .parent()
                    .and_then(|p| p.parent())
                    .is_some_and(|p| p.ends_with("ops-nn"));
                ops_nn_header += usize::from(in_ops_nn);
                ops_nn_agree += usize::from(in_ops_nn && normalize(&c[2]) == *h);
                let ir = read
                    .ops
                    .iter()
                    .find(|o| o.workspace_fn().is_some_and(|f| f.name == c[1]));
                if normalize(&c[2]) == *h {
                    agree += 1;
                    let got: Option<Vec<(String, String)>> =
                        ir.and_then(|o| o.workspace_fn()).map(|f| {
                            f.params
                                .iter()
                                .map(|p| {
                                    (
                                        p.name.clone(),
                                        p.ty.as_str().replace(' ', "").replace("const", "const "),
                                    )
                                })
                                .collect()
                        });
                    let want: Vec<(String, String)> = pairs(h)
                        .into_iter()
                        .map(|(n, t)| (n, t.replace(' ', "").replace("const", "const ")))
                        .collect();
                    if got.as_ref() == Some(&want) {
                        agree_match += 1;
                    } else {
                        mismatches.push(format!("{name}: IR {got:?} vs header {want:?}"));
                    }
                } else {
                    let mut codes: Vec<&str> = ir
                        .map(|o| {
                            o.diagnostics
                                .iter()
                                .map(|d| d.code.as_str())
                                .filter(|c| DRIFT_CODES.contains(c))
                                .collect()
                        })
                        .unwrap_or_default();
                    if !aclgen::conform::drift::diagnostics(&read.ops, &cann_headers).is_empty() {
                        codes.push("header-drift");
                    }
                    // Compared with the first header of the function; another one (the doc's own
                    // op folder's) may agree, and then it is no drift.
                    let agrees_elsewhere = all_headers
                        .get(&c[1])
                        .is_some_and(|hs| hs.contains(&normalize(&c[2])));
                    other_header_agrees += usize::from(agrees_elsewhere && codes.is_empty());
                    let flagged = !codes.is_empty();
                    drifted_flagged += usize::from(flagged);
                    drifting.push(format!("{name} (flagged: {codes:?})"));
                }
            }
        }
        if text.contains("ACLNN_ERR_") {
            with_errors += 1;
            if read.ops.iter().any(|o| !o.errors.is_empty()) {
                errors_read += 1;
            } else {
                missing_errors.push(name.clone());
            }
        }
    }
    let n = docs.len();
    print_coverage(&ops_read);
    println!("corpus: {n} docs read in {:?}", started.elapsed());
    println!(
        "complete IR (both functions, params): {complete}/{n} = {:.1}%",
        100.0 * complete as f64 / n as f64
    );
    println!("docs with a header: {with_header}; doc prototype agrees with header: {agree}; IR equals header: {agree_match}/{agree}");
    println!("ops-nn/docs only: with a header: {ops_nn_header}; prototype agrees with header: {ops_nn_agree}");
    println!("docs with error codes: {with_errors}; yielding error rows: {errors_read}");
    for d in &incomplete {
        println!("  incomplete: {d}");
    }
    println!(
        "doc prototype differs from header: {}; flagged by a reader diagnostic or `lint --headers`: {drifted_flagged}; agrees with another header of the same function: {other_header_agrees}",
        drifting.len()
    );
    for d in &drifting {
        println!("  drift: {d}");
    }
    for d in &mismatches {
        println!("  MISMATCH: {d}");
    }
    for d in &missing_errors {
        println!("  no error rows: {d}");
    }
    assert!(
        complete * 100 >= n * 99,
        "complete IRs below 99%: {complete}/{n}"
    );
    assert_eq!(
        agree_match, agree,
        "IR prototype differs from an agreeing header"
    );
    assert_eq!(
        errors_read, with_errors,
        "docs with error codes but no error rows"
    );
    assert_eq!(
        drifted_flagged + other_header_agrees,
        drifting.len(),
        "a doc whose prototype differs from every CANN header of its function is not flagged"
    );
}
