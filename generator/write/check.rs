//! `gen --check`: the stale files, each with a short unified diff.

use super::manifest::slash_path;
use super::plan::Plan;

/// Lines of unified diff shown per stale file by `--check`.
const DIFF_LINES: usize = 40;

/// The `--check` report: one line per stale file, with a short unified diff for changed files.
pub fn check_report(plan: &Plan) -> String {
    let mut report = String::new();
    for write in &plan.writes {
        let path = slash_path(&write.file.path);
        match &write.old {
            None => report.push_str(&format!("would create {path}\n")),
            Some(old) => {
                report.push_str(&format!("would change {path}\n"));
                report.push_str(&short_diff(&path, old, &write.file.contents));
            }
        }
    }
    for path in &plan.removals {
        report.push_str(&format!("would remove {}\n", slash_path(path)));
    }
    report
}

fn short_diff(path: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string();
    let lines: Vec<&str> = diff.lines().collect();
    let mut shown = lines
        .iter()
        .take(DIFF_LINES)
        .map(|l| format!("    {l}\n"))
        .collect::<String>();
    if lines.len() > DIFF_LINES {
        shown.push_str(&format!(
            "    ... ({} more diff lines)\n",
            lines.len() - DIFF_LINES
        ));
    }
    shown
}
