//! The reader never panics or hangs: truncated and mutated seed (and corpus) docs, huge docs,
//! deeply nested tags, binary and UTF-16 input.

use aclgen::read::read_doc;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn seed_docs() -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("specs/docs"))
        .expect("specs/docs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("seed"))
        .collect()
}

/// A sample of corpus docs (every 25th), when the corpus is present.
fn corpus_docs() -> Vec<Vec<u8>> {
    let dir = root().join("../shared/corpus/ops-nn/docs");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        println!(
            "corpus docs absent ({}): mutating seeds only",
            dir.display()
        );
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
        .iter()
        .step_by(25)
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

fn docs() -> Vec<Vec<u8>> {
    let mut d = seed_docs();
    d.extend(corpus_docs());
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn truncated_docs_never_panic(doc in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
        let docs = docs();
        let bytes = &docs[doc.index(docs.len())];
        let cut = cut.index(bytes.len() + 1);
        let _ = read_doc("t.md", &bytes[..cut]);
    }

    #[test]
    fn mutated_docs_never_panic(
        doc in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..40),
    ) {
        let docs = docs();
        let mut bytes = docs[doc.index(docs.len())].clone();
        for (at, b) in edits {
            let i = at.index(bytes.len().max(1));
            if i < bytes.len() {
                bytes[i] = b;
            }
        }
        let _ = read_doc("t.md", &bytes);
    }
}

/// Markup that steers the reader into its tables, fences, prototypes, notes and error blocks.
const SNIPPETS: &[&str] = &[
    "<table>",
    "<tr>",
    "<td rowspan=\"99999\">",
    "<td colspan=\"0\">",
    "</table>",
    "```",
    "```Cpp\n",
    "\n# ",
    "\n## aclnnXGetWorkspaceSize\n",
    "aclnnStatus aclnnXGetWorkspaceSize(",
    ")",
    "|",
    "\n| 参数名 | 输入/输出 |\n",
    "<!-- npu=\"A3\" id1 -->",
    "<!-- end id1 -->",
    "（",
    "：",
    "$$",
    "\n- x（aclTensor*，计算输入）：数据类型支持",
    "161002(ACLNN_ERR_PARAM_INVALID)：1. ",
    "<term>Atlas A2 训练系列产品</term>：",
    "参数self、out的数据类型不支持BFLOAT16",
    "\r\n",
    "\u{FEFF}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn docs_with_markup_inserted_never_panic(
        doc in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..40),
    ) {
        let docs = docs();
        let mut bytes = docs[doc.index(docs.len())].clone();
        for (at, snippet) in edits {
            let i = at.index(bytes.len() + 1);
            let s = SNIPPETS[snippet.index(SNIPPETS.len())].as_bytes();
            bytes.splice(i..i, s.iter().copied());
        }
        let _ = read_doc("t.md", &bytes);
    }
}

// How fast these inputs are read (well under a second each, in release) is measured by the
// corpus benchmark (`benches/corpus.rs`), not here: these tests check what comes out.

#[test]
fn ten_megabyte_doc_reads_as_one_op_with_bounded_diagnostics() {
    let seed = std::fs::read(root().join("specs/docs/003-aclnnAvgPool2dBackward.txt")).unwrap();
    let mut big = Vec::with_capacity(10 << 20);
    while big.len() < 10 << 20 {
        big.extend_from_slice(&seed);
    }
    let r = read_doc("big.md", &big);
    assert_eq!(r.ops.len(), 1, "the repeated doc is one op");
    let diags = r.all_diagnostics();
    assert!(diags.len() < 1000, "{} diagnostics", diags.len());
    let one_line = read_doc("line.md", &vec![b'a'; 10 << 20]);
    assert!(one_line.ops.is_empty());
}

#[test]
fn nested_tags_and_unclosed_tables() {
    let mut s = String::from("# aclnnX\n## aclnnXGetWorkspaceSize\n<table><tr><td>");
    for _ in 0..20_000 {
        s.push_str("<div><table><tr><td>");
    }
    let nested = read_doc("nested.md", s.as_bytes());
    assert!(nested.ops.iter().all(|op| op.params.is_empty()));
    let many = read_doc("tables.md", "<table>\n".repeat(100_000).as_bytes());
    assert!(many.ops.is_empty());
}

#[test]
fn binary_empty_and_utf16_inputs_end_in_diagnostics() {
    for bytes in [
        Vec::new(),
        (0..=255u8).cycle().take(100_000).collect::<Vec<u8>>(),
        "# aclnnX\n"
            .encode_utf16()
            .flat_map(|u| u.to_le_bytes())
            .collect(),
    ] {
        let r = read_doc("x.md", &bytes);
        assert!(r.ops.is_empty());
        assert!(!r.diagnostics.is_empty());
    }
}
