//! The emitters on every doc of the real corpus (`../shared/corpus`, skipped when absent): the
//! generated headers compile as C and C++, the OpDef sources compile with g++, and the header
//! prototypes are compared with CANN's real headers, as data (`prototypes.jsonl` of ops-nn and
//! ops-math-dev; a figure, printed).

use crate::common;

use aclgen::emit::{ascend, c_header, OutFile};
use aclgen::ir::OpIr;
use aclgen::read::read_doc;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every op the reader gets from the corpus docs with both phases' prototypes.
fn corpus_ops(corpus: &Path) -> Vec<OpIr> {
    let mut ops = Vec::new();
    for folder in ["ops-nn/docs", "ops-nn-2025-12/docs", "ops-math-dev/docs"] {
        let mut docs: Vec<PathBuf> = fs::read_dir(corpus.join(folder))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        docs.sort();
        for doc in docs {
            let bytes = fs::read(&doc).unwrap();
            let read = read_doc(&doc.to_string_lossy(), &bytes);
            ops.extend(
                read.ops
                    .into_iter()
                    .filter(|op| aclgen::emit::check_op_name(&op.op).is_ok())
                    .filter(|op| {
                        let problems = op.generation_problems();
                        for p in &problems {
                            println!("refused by gen: aclnn{}: {}", op.op, p.message);
                        }
                        problems.is_empty()
                    }),
            );
        }
    }
    ops
}

/// CANN's headers of both dev sets as data, by their file name from `aclnn_` on (the name a
/// generated header has): each header's declarations as `common::prototypes` reads them.
fn cann_headers(corpus: &Path) -> BTreeMap<String, Vec<String>> {
    let mut decls: BTreeMap<String, String> = BTreeMap::new();
    for set in ["ops-nn", "ops-math-dev"] {
        for p in common::cann_prototypes(&corpus.join(set).join("prototypes.jsonl")) {
            if let Some(i) = p.header.rfind("aclnn_") {
                let short = p.header[i..].to_string();
                decls.entry(short).or_default().push_str(&p.declaration());
            }
        }
    }
    decls
        .into_iter()
        .map(|(h, text)| (h, common::prototypes(&text)))
        .collect()
}

/// Splits files into translation units so no include guard, class or function name repeats
/// within one (two docs of one function may declare it differently).
fn buckets(files: Vec<(Vec<String>, PathBuf)>) -> Vec<Vec<PathBuf>> {
    let mut buckets: Vec<(BTreeSet<String>, Vec<PathBuf>)> = Vec::new();
    for (key, path) in files {
        match buckets
            .iter_mut()
            .find(|(keys, _)| key.iter().all(|k| !keys.contains(k)))
        {
            Some((keys, paths)) => {
                keys.extend(key);
                paths.push(path);
            }
            None => buckets.push((key.into_iter().collect(), vec![path])),
        }
    }
    buckets.into_iter().map(|(_, paths)| paths).collect()
}

fn compile_unit(compiler: &str, lang: &str, std: &str, files: &[PathBuf], dir: &Path, n: usize) {
    let unit = dir.join(format!("unit{n}.{}", if lang == "c" { "c" } else { "cpp" }));
    let text: String = files
        .iter()
        .map(|f| format!("#include \"{}\"\n", f.display()))
        .collect();
    fs::write(&unit, text).unwrap();
    let include = common::cxx::standins();
    let output = Command::new(compiler)
        .args([
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-x",
            lang,
            std,
            "-I",
        ])
        .arg(&include)
        .arg(&unit)
        .output()
        .expect("compiler runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{compiler} -x {lang}: {}",
        stderr.lines().take(30).collect::<Vec<_>>().join("\n")
    );
}

fn write(dir: &Path, file: &OutFile) -> PathBuf {
    let path = dir.join(&file.path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, &file.contents).unwrap();
    path
}

#[test]
fn corpus_headers_and_opdefs_compile_and_prototypes_match_cann() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    let ops = corpus_ops(&corpus);
    let ctx = common::ctx();
    let dir = tempfile::tempdir().unwrap();
    let mut headers = Vec::new();
    let mut defs = Vec::new();
    let real = cann_headers(&corpus);
    let (mut compared, mut matched) = (0, 0);
    for (i, op) in ops.iter().enumerate() {
        let header = c_header::header(op, &ctx).expect("header renders");
        let header_path = write(&dir.path().join(i.to_string()), &header);
        let functions = op.functions.iter().map(|f| f.name.clone());
        let keys = std::iter::once(c_header::include_guard(&op.header_name()))
            .chain(functions)
            .collect();
        headers.push((keys, header_path));
        for file in ascend::project_files(op, &ctx).expect("project renders") {
            if file.path.to_string_lossy().ends_with("_def.cpp") {
                defs.push((
                    vec![op.op.clone()],
                    write(&dir.path().join(i.to_string()), &file),
                ));
            }
        }
        if let Some(real_decls) = real.get(&op.header_name()) {
            let ws = op.workspace_fn().unwrap();
            let ours = common::prototypes(&c_header::prototype(ws));
            // Headers that declare the function at all (some hold only other ops' APIs).
            if real_decls
                .iter()
                .any(|d| d.contains(&format!(" {} (", ws.name)))
            {
                compared += 1;
                if ours.first().is_some_and(|o| real_decls.contains(o)) {
                    matched += 1;
                }
            }
        }
    }
    println!(
        "corpus: {} ops emitted; first-phase prototype identical to CANN's header for {matched} of {compared} ops with a header",
        ops.len()
    );
    assert!(ops.len() > 300, "only {} ops read", ops.len());
    // The rest is doc/header drift (renamed parameters, dropped `const`) that the reader reports.
    assert!(
        matched * 10 >= compared * 9,
        "{matched} of {compared} prototypes match"
    );
    let units = dir.path().join("units");
    fs::create_dir_all(&units).unwrap();
    for (n, bucket) in buckets(headers).iter().enumerate() {
        compile_unit("gcc", "c", "-std=c11", bucket, &units, n);
        compile_unit("g++", "c++", "-std=c++17", bucket, &units, n);
    }
    for (n, bucket) in buckets(defs).iter().enumerate() {
        compile_unit("g++", "c++", "-std=c++17", bucket, &units, 1000 + n);
    }
}

/// The column limit of generated C++ (CANN's `.clang-format`), as `aclgen::emit::wrap::MAX`.
const MAX_COLUMNS: usize = 120;

/// The widest line of every `.cpp`/`.h` under `root` (in characters); each line over
/// [`MAX_COLUMNS`] is added to `over` as `file:line: width`.
fn widest_line(root: &Path, over: &mut Vec<String>) -> (usize, usize) {
    let mut files = common::files_with_ext(root, "cpp");
    files.extend(common::files_with_ext(root, "h"));
    files.sort();
    let mut widest = 0;
    for f in &files {
        let text = fs::read_to_string(f).expect("read a generated file");
        for (i, line) in text.lines().enumerate() {
            let w = line.chars().count();
            widest = widest.max(w);
            if w > MAX_COLUMNS {
                over.push(format!("{}:{}: {w} columns", f.display(), i + 1));
            }
        }
    }
    (widest, files.len())
}

/// Every generated C++ file of the seeds (`generated/`) and of both dev sets (every doc, gen'd
/// into the target folder; skipped, said once, where `../shared/corpus` is absent) has no line
/// over 120 columns. Prints the widest line of each set.
#[test]
fn generated_cpp_has_no_line_over_120_columns() {
    assert_eq!(aclgen::emit::wrap::MAX, MAX_COLUMNS);
    let mut over = Vec::new();
    let (w, n) = widest_line(&common::repo().join("generated"), &mut over);
    println!("line width: seeds (generated/): {n} C++ files, widest line {w} columns");
    if let Some(corpus) = common::corpus() {
        for set in ["ops-nn", "ops-math-dev"] {
            let (docs, ops) = common::dev_set_sample(&corpus, set, 1, "line-width");
            let out = docs.parent().expect("sample root").join("out");
            let (w, n) = widest_line(&out, &mut over);
            println!(
                "line width: {set}: {} ops, {n} C++ files, widest line {w} columns",
                ops.len()
            );
            assert!(ops.len() >= 100, "{set}: only {} ops generated", ops.len());
        }
    }
    assert!(
        over.is_empty(),
        "{} lines over {MAX_COLUMNS} columns:\n{}",
        over.len(),
        over.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
