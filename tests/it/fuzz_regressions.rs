//! Replays every input a fuzzer once crashed on (fuzz/regressions/), so a fixed crash stays fixed.
//! No fuzz run has crashed the readers yet (read_doc: 10 min in session 1 and 11 min on the
//! html5ever table reader in session 4; read_spec: 10 min), so the folders do not exist yet: this
//! is where `fuzz/run.sh` sends the first crash input once it is fixed.

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
        let _ = aclgen::specs::read_spec_file("regression.yaml", &text);
    }
}
