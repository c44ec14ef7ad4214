//! The README's examples run as written on the shipped ops: a newcomer copies them first.

use crate::common;

use common::{aclgen_in as aclgen, repo, text};

fn readme() -> String {
    std::fs::read_to_string(repo().join("README.md")).expect("README.md")
}

/// The ```json block that follows `marker`.
fn json_block_after(doc: &str, marker: &str) -> String {
    let from = doc.find(marker).expect("marker in README");
    let rest = &doc[from..];
    let start = rest.find("```json\n").expect("a json block") + "```json\n".len();
    let end = rest[start..].find("```").expect("closed block");
    rest[start..start + end].to_string()
}

/// Every inline `aclgen validate …` command of the README, whitespace folded.
fn validate_commands(doc: &str) -> Vec<Vec<String>> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|code| code.starts_with("aclgen validate --op ") && !code.contains(" OP "))
        .map(|code| {
            code.split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// Runs every inline `aclgen validate …` of the README in a folder laid out like the project
/// (its `specs/` and `generated/`), with the README's CALL.json example saved as `call.json`.
#[test]
fn the_readme_validate_examples_run_as_written() {
    let doc = readme();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("call.json"),
        json_block_after(&doc, "A CALL.json for the shipped op"),
    )
    .unwrap();
    for folder in ["specs", "generated"] {
        std::os::unix::fs::symlink(repo().join(folder), dir.path().join(folder)).unwrap();
    }
    let commands = validate_commands(&doc);
    assert!(
        commands.len() >= 2,
        "the README shows validate on a shipped op: {commands:?}"
    );
    for args in commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = aclgen(&args, dir.path());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        let verdict: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON verdict");
        assert_eq!(verdict["status"], 0, "{args:?}: {verdict}");
    }
}
