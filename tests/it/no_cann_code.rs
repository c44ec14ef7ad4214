//! Nothing of CANN's code is in the repository: no tracked file outside `specs/docs` (the seed
//! docs, the only CANN text the project ships) carries CANN's copyright or licence header, and
//! nothing refers to the folders of CANN's code that once stood in `../shared` (`cann/`, ops-nn's
//! `ut/`, `headers/` and `ops/`).

use crate::common;
use std::process::Command;

/// Lines of CANN's source headers (ops-nn, opbase, metadef, asc-devkit): its copyright holder
/// and its licence.
const CANN_HEADER_MARKS: [&str; 2] = ["Huawei Technologies Co., Ltd", "CANN Open Software License"];

/// Folders of CANN's code that once stood in `../shared` and are gone for good.
const REMOVED_FOLDERS: [&str; 5] = [
    "shared/cann/",
    "shared/cann\"",
    "corpus/ops-nn/ut/",
    "corpus/ops-nn/headers",
    "corpus/ops-nn/ops/",
];

/// Tracked files (git's index; where git is absent, every file below the repository).
fn tracked_files() -> Vec<std::path::PathBuf> {
    let repo = common::repo();
    let out = Command::new("git")
        .arg("-C")
        .arg(&repo)
        .args(["ls-files", "-z"])
        .output();
    match out {
        Ok(o) if o.status.success() => o
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| repo.join(String::from_utf8_lossy(p).as_ref()))
            .collect(),
        _ => aclgen::files::files_below(&repo).expect("list the repository"),
    }
}

#[test]
fn no_file_outside_the_seed_docs_carries_canns_header() {
    let repo = common::repo();
    let this_file = repo.join(file!());
    let mut found = Vec::new();
    let mut read = 0;
    for path in tracked_files() {
        let rel = path.strip_prefix(&repo).unwrap_or(&path);
        if rel.starts_with("specs/docs") || rel.starts_with("target") || path == this_file {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        read += 1;
        let text = String::from_utf8_lossy(&bytes);
        for mark in CANN_HEADER_MARKS {
            if text.contains(mark) {
                found.push(format!("{}: \"{mark}\"", rel.display()));
            }
        }
        for gone in REMOVED_FOLDERS {
            if text.contains(gone) {
                found.push(format!("{}: refers to ../{gone}", rel.display()));
            }
        }
    }
    assert!(read > 100, "only {read} files read");
    assert!(
        found.is_empty(),
        "CANN's code in the repository:\n{}",
        found.join("\n")
    );
}
