//! The five seed docs of `specs/docs` read into their IR, pinned by reviewed insta snapshots.

use aclgen::read::read_doc;
use std::path::Path;

fn snapshot_seed(file: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = format!("specs/docs/{file}");
    let bytes = std::fs::read(root.join(&rel)).expect("seed doc present");
    let read = read_doc(&rel, &bytes);
    assert!(
        !read.ops.is_empty(),
        "{rel}: no op read: {:?}",
        read.diagnostics
    );
    insta::assert_yaml_snapshot!(file.trim_end_matches(".txt"), read.ops);
}

#[test]
fn seed_000_bullets_fenced_errors() {
    snapshot_seed("000-aclnnAdaptiveAvgPool3dBackward.txt");
}

#[test]
fn seed_001_misindented_damaged_products_heading_mismatch() {
    snapshot_seed("001-aclnnAdaptiveMaxPool3dBackward.txt");
}

#[test]
fn seed_002_scraped_plain_text() {
    snapshot_seed("002-aclnnAdaptiveAvgPool2dBackward.txt");
}

#[test]
fn seed_003_term_tags_enum_values() {
    snapshot_seed("003-aclnnAvgPool2dBackward.txt");
}

#[test]
fn seed_004_html_tables_mojibake() {
    snapshot_seed("004-aclnnAvgPool2dBackward.txt");
}
