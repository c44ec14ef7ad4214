//! Doc/header drift: where a doc's first-phase prototype differs from the one CANN's real header
//! declares (a renamed parameter such as `lambd`/`lambda`, a dropped `const`, a missing
//! parameter), named with both spellings. Headers are matched by function name, so any layout
//! of header files works (`op_api/aclnn_x.h` or a flattened corpus).

use crate::diag::{Code, Diagnostic, Severity};
use crate::ir::{CParam, OpIr};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Drift {
    /// The doc (first source of the op).
    pub doc: String,
    pub function: String,
    pub header: String,
    /// One line per difference: `param 3: doc \`double lambd\`, header \`double lambda\``.
    pub differences: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct DriftReport {
    /// Docs whose first-phase function some header declares.
    pub compared: usize,
    pub drifts: Vec<Drift>,
}

/// Every `aclnn*GetWorkspaceSize` declaration below `dir`: function name → (header file,
/// params) for each header declaring it (an op and its experimental variant may both do).
pub type Headers = BTreeMap<String, Vec<(String, Vec<CParam>)>>;

/// Prototypes as data, one JSON object a line (`prototypes.jsonl`): `{"header", "function",
/// "params": [[C type, name], ...]}`; a line that is no prototype is an error naming its line.
pub fn prototypes_jsonl(path: &Path) -> Result<Headers, super::ConformError> {
    #[derive(serde::Deserialize)]
    struct Line {
        header: String,
        function: String,
        params: Vec<(String, String)>,
    }
    let text = std::fs::read_to_string(path).map_err(|e| super::ConformError::io(path, e))?;
    let mut out = Headers::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let l: Line = serde_json::from_str(line).map_err(|e| super::ConformError::List {
            path: path.to_path_buf(),
            line: i + 1,
            message: format!("not a prototype: {e}"),
        })?;
        let params = l
            .params
            .into_iter()
            .map(|(ty, name)| CParam {
                name,
                ty: normalize_type(&ty).into(),
            })
            .collect();
        out.entry(l.function).or_default().push((l.header, params));
    }
    Ok(out)
}

/// CANN's prototypes from a folder of headers, or from a `*.jsonl` file of them as data.
pub fn prototypes(path: &Path) -> Result<Headers, super::ConformError> {
    if path.is_file() && path.extension().is_some_and(|e| e == "jsonl") {
        prototypes_jsonl(path)
    } else {
        header_prototypes(path).map_err(|e| super::ConformError::io(path, e))
    }
}

pub fn header_prototypes(dir: &Path) -> std::io::Result<Headers> {
    let files = super::files_below(dir, &|p| super::has_ext(p, &["h", "hpp"]))?;
    let mut out = Headers::new();
    for f in files {
        let text = String::from_utf8_lossy(&std::fs::read(&f)?).into_owned();
        let name = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
        for (func, params) in declarations(&strip_comments(&text)) {
            out.entry(func).or_default().push((name.clone(), params));
        }
    }
    Ok(out)
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("//") {
            rest = tail.find('\n').map_or("", |e| &tail[e..]);
        } else if tail.starts_with("/*") {
            rest = tail.find("*/").map_or("", |e| &tail[e + 2..]);
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `aclnnXGetWorkspaceSize(params)` declarations of a header's text.
fn declarations(text: &str) -> Vec<(String, Vec<CParam>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("GetWorkspaceSize") {
        let before = &rest[..i];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |k| k + 1);
        let name = format!("{}GetWorkspaceSize", &before[start..]);
        let after = &rest[i + "GetWorkspaceSize".len()..];
        rest = after;
        let Some(body) = after.trim_start().strip_prefix('(') else {
            continue;
        };
        let Some(close) = body.find(')') else {
            continue;
        };
        if !name.starts_with("aclnn") {
            continue;
        }
        let params = body[..close]
            .split(',')
            .filter_map(param)
            .collect::<Vec<_>>();
        out.push((name, params));
    }
    out
}

/// `const aclTensor *self` → {name: self, type: const aclTensor*}.
fn param(text: &str) -> Option<CParam> {
    let text = text.split('=').next()?.trim();
    let split = text.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (ty, name) = (&text[..=split], &text[split + 1..]);
    if name.is_empty() {
        return None;
    }
    Some(CParam {
        name: name.to_string(),
        ty: normalize_type(ty).into(),
    })
}

/// Types spelled as the IR spells them: single spaces, `*` attached (`const aclTensor*`).
pub fn normalize_type(ty: &str) -> String {
    let words: Vec<&str> = ty.split_whitespace().collect();
    words.join(" ").replace(" *", "*").replace("* ", "*")
}

/// Drift of every op whose first-phase function a header declares.
pub fn compare(ops: &[OpIr], headers: &Headers) -> DriftReport {
    let mut report = DriftReport::default();
    let mut seen = std::collections::BTreeSet::new();
    for op in ops {
        let Some(f) = op.workspace_fn() else { continue };
        let doc = op.sources.first().cloned().unwrap_or_default();
        // The header of the doc's own op folder, when several declare the function.
        let Some((header, real)) = headers.get(&f.name).and_then(|hs| {
            let folder = super::op_folder(&doc);
            hs.iter()
                .find(|(h, _)| !folder.is_empty() && super::op_folder(h) == folder)
                .or(hs.first())
        }) else {
            continue;
        };
        if !seen.insert((doc.clone(), f.name.clone())) {
            continue;
        }
        report.compared += 1;
        let differences = differences(&f.params, real);
        if !differences.is_empty() {
            report.drifts.push(Drift {
                doc,
                function: f.name.clone(),
                header: header.clone(),
                differences,
            });
        }
    }
    report
}

/// One `header-drift` warning per op whose first-phase prototype differs from its header, at
/// the prototype's line in the doc (what `lint --headers` adds to a doc's diagnostics).
pub fn diagnostics(ops: &[OpIr], headers: &Headers) -> Vec<Diagnostic> {
    let report = compare(ops, headers);
    report
        .drifts
        .iter()
        .map(|d| {
            let at = ops
                .iter()
                .filter_map(|op| op.workspace_fn())
                .find(|f| f.name == d.function)
                .and_then(|f| f.source.clone());
            let message = format!(
                "{} differs from CANN's header {}: {}",
                d.function,
                d.header,
                d.differences.join("; ")
            );
            match at {
                Some(loc) => Diagnostic::at(
                    Severity::Warning,
                    Code::HeaderDrift,
                    message,
                    &loc.file,
                    loc.line,
                    loc.column,
                    "",
                ),
                None => {
                    Diagnostic::file_level(Severity::Warning, Code::HeaderDrift, message, &d.doc)
                }
            }
        })
        .collect()
}

fn differences(doc: &[CParam], header: &[CParam]) -> Vec<String> {
    let spell = |p: &CParam| format!("{} {}", normalize_type(p.ty.as_str()), p.name);
    let mut out = Vec::new();
    for i in 0..doc.len().max(header.len()) {
        match (doc.get(i), header.get(i)) {
            (Some(d), Some(h)) if spell(d) != spell(h) => out.push(format!(
                "param {}: doc `{}`, header `{}`",
                i + 1,
                spell(d),
                spell(h)
            )),
            (Some(d), None) => out.push(format!(
                "param {}: doc `{}`, header has no such parameter",
                i + 1,
                spell(d)
            )),
            (None, Some(h)) => out.push(format!(
                "param {}: doc has no such parameter, header `{}`",
                i + 1,
                spell(h)
            )),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Function;

    const HEADER: &str = r#"
/** doc comment with aclnnFooGetWorkspaceSize(...) in it */
ACLNN_API aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *self, double lambda,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
// aclnnBarGetWorkspaceSize(int x) in a comment
"#;

    fn op(params: &[(&str, &str)]) -> OpIr {
        OpIr {
            op: "Foo".into(),
            functions: vec![Function {
                name: "aclnnFooGetWorkspaceSize".into(),
                params: params
                    .iter()
                    .map(|(t, n)| CParam {
                        name: n.to_string(),
                        ty: (*t).into(),
                    })
                    .collect(),
                ..Default::default()
            }],
            sources: vec!["docs/aclnnFoo.md".into()],
            ..Default::default()
        }
    }

    #[test]
    fn header_declarations_are_read_without_comments() {
        let d = declarations(&strip_comments(HEADER));
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].0, "aclnnFooGetWorkspaceSize");
        let names: Vec<&str> = d[0].1.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["self", "lambda", "out", "workspaceSize", "executor"]
        );
        assert_eq!(d[0].1[0].ty, "const aclTensor*");
        assert_eq!(d[0].1[4].ty, "aclOpExecutor**");
    }

    #[test]
    fn drift_names_both_spellings() {
        let headers: Headers = declarations(&strip_comments(HEADER))
            .into_iter()
            .map(|(f, p)| (f, vec![("aclnn_foo.h".to_string(), p)]))
            .collect();
        let same = op(&[
            ("const aclTensor*", "self"),
            ("double", "lambda"),
            ("aclTensor*", "out"),
            ("uint64_t*", "workspaceSize"),
            ("aclOpExecutor**", "executor"),
        ]);
        assert!(compare(&[same], &headers).drifts.is_empty());
        let drifted = op(&[
            ("aclTensor*", "self"),
            ("double", "lambd"),
            ("aclTensor*", "out"),
            ("uint64_t*", "workspaceSize"),
        ]);
        let r = compare(&[drifted], &headers);
        assert_eq!(r.compared, 1);
        assert_eq!(
            r.drifts[0].differences,
            vec![
                "param 1: doc `aclTensor* self`, header `const aclTensor* self`",
                "param 2: doc `double lambd`, header `double lambda`",
                "param 5: doc has no such parameter, header `aclOpExecutor** executor`",
            ]
        );
    }

    #[test]
    fn lint_warns_at_the_prototype_naming_both_spellings() {
        let headers: Headers = declarations(&strip_comments(HEADER))
            .into_iter()
            .map(|(f, p)| (f, vec![("aclnn_foo.h".to_string(), p)]))
            .collect();
        let mut drifted = op(&[
            ("const aclTensor*", "self"),
            ("double", "lambd"),
            ("aclTensor*", "out"),
            ("uint64_t*", "workspaceSize"),
            ("aclOpExecutor**", "executor"),
        ]);
        drifted.functions[0].source = Some(crate::ir::Loc {
            file: "docs/aclnnFoo.md".into(),
            line: 12,
            column: 13,
        });
        let found = diagnostics(&[drifted], &headers);
        assert_eq!(found.len(), 1);
        let d = &found[0];
        assert_eq!(
            (d.code, d.line, d.severity),
            (Code::HeaderDrift, 12, Severity::Warning)
        );
        assert!(
            d.message.contains("`double lambd`") && d.message.contains("`double lambda`"),
            "{}",
            d.message
        );
    }
}
