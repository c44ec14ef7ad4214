//! Replays every input a fuzzer once crashed on (fuzz/regressions/), so a fixed crash stays fixed.

use std::path::Path;

fn inputs(target: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|it| {
            it.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn doc_reader_regressions_do_not_panic() {
    for path in inputs("read_doc") {
        let bytes = std::fs::read(&path).expect("regression input");
        let read = aclgen::read::read_doc("regression.md", &bytes);
        let _ = read.ops.len() + read.diagnostics.len();
    }
}

#[test]
fn spec_reader_regressions_do_not_panic() {
    for path in inputs("read_spec") {
        let bytes = std::fs::read(&path).expect("regression input");
        let text = String::from_utf8_lossy(&bytes);
        let _ = aclgen::read::specs::read_spec_file("regression.yaml", &text);
    }
}
