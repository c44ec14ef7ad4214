//! C prototypes of the two-phase API, from inline code, fenced blocks or plain text lines.

use super::text::ascii_punct;
use crate::ir::CParam;
use regex::Regex;
use std::sync::LazyLock;

/// A prototype found in the doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proto {
    pub name: String,
    /// `None` when the doc omitted it.
    pub return_type: Option<String>,
    pub params: Vec<CParam>,
    /// 0-based line of the function name.
    pub line: usize,
    /// 1-based character column of the function name.
    pub column: usize,
}

static PROTO_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\b([A-Za-z_][A-Za-z0-9_]*)[ \t]+(?:\*[ \t]*)?)?\b(aclnn[A-Za-z0-9_]*)\s*\(")
        .unwrap()
});

/// Longest parameter list accepted: anything longer is not a prototype.
const MAX_PARAMS_BYTES: usize = 4000;

/// Every prototype in `lines` (starting at doc line `first`), first occurrence of each name kept.
pub fn find_prototypes(lines: &[&str], first: usize) -> Vec<Proto> {
    // Full-width punctuation is normalized per line so line numbers stay aligned.
    let text = lines
        .iter()
        .map(|l| ascii_punct(&l.replace("\\*", "*").replace('`', " ")))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out: Vec<Proto> = Vec::new();
    let mut next_close: Option<usize> = None;
    let mut resume = 0;
    for caps in PROTO_START.captures_iter(&text) {
        let Some(whole) = caps.get(0) else { continue };
        if whole.start() < resume {
            continue;
        }
        let open = whole.end();
        // The first ')' after the '(' closes the list (C parameter lists hold no parentheses);
        // it is cached so scanning stays linear.
        let close = match next_close {
            Some(c) if c >= open => Some(c),
            _ => text[open..].find(')').map(|i| open + i),
        };
        next_close = close;
        let Some(close) = close else { break };
        let inner = &text[open..close];
        if inner.len() > MAX_PARAMS_BYTES || inner.contains('(') || inner.contains(';') {
            continue;
        }
        let name_m = caps.get(2).expect("group 2 always matches");
        let name = name_m.as_str().to_string();
        let Some(params) = parse_params(inner) else {
            continue;
        };
        resume = close;
        if out.iter().any(|p| p.name == name) {
            continue;
        }
        let before = &text[..name_m.start()];
        let line_in = before.matches('\n').count();
        let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        let column = text[line_start..name_m.start()].chars().count() + 1;
        let return_type = caps
            .get(1)
            .map(|m| m.as_str().to_string())
            .filter(|t| !matches!(t.as_str(), "return" | "ret" | "auto" | "if" | "else"));
        out.push(Proto {
            name,
            return_type,
            params,
            line: first + line_in,
            column,
        });
    }
    out
}

/// `const aclTensor *self, uint64_t* workspaceSize` → params; `None` if it does not look like C.
fn parse_params(inner: &str) -> Option<Vec<CParam>> {
    let inner = inner.trim();
    if inner.is_empty() || inner == "void" {
        return Some(Vec::new());
    }
    let mut params = Vec::new();
    for raw in inner.split(',') {
        let p = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        let p = p.split('=').next().unwrap_or("").trim(); // default arguments
        let name_start = p
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map(|(i, c)| i + c.len_utf8())
            .unwrap_or(0);
        let name = &p[name_start..];
        let ty = canonical_type(&p[..name_start]);
        if name.is_empty() || ty.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        if !ty
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '*' || c == ' ' || c == '&')
        {
            return None;
        }
        params.push(CParam {
            name: name.to_string(),
            ty: ty.into(),
        });
    }
    Some(params)
}

/// `const aclTensor   *` → `const aclTensor*`; `aclOpExecutor * *` → `aclOpExecutor**`.
pub fn canonical_type(t: &str) -> String {
    let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        if c == '*' || c == '&' {
            while out.ends_with(' ') {
                out.pop();
            }
        }
        out.push(c);
    }
    out.replace("* ", "*").trim().to_string()
}

/// Key for comparing a doc's spelling of a type with the prototype's: no `const`, no spaces,
/// lower case, no `_t` (`INT8` = `int8_t`).
pub fn type_key(t: &str) -> String {
    let t = t.replace("const", "");
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    t.to_ascii_lowercase().replace("_t", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Proto {
        let lines: Vec<&str> = src.lines().collect();
        let mut p = find_prototypes(&lines, 10);
        assert_eq!(p.len(), 1, "{p:?}");
        p.remove(0)
    }

    #[test]
    fn inline_code_prototype() {
        let p = one("- `aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)`");
        assert_eq!(p.name, "aclnnFooGetWorkspaceSize");
        assert_eq!(p.return_type.as_deref(), Some("aclnnStatus"));
        assert_eq!(p.line, 10);
        assert_eq!(p.column, 16);
        let tys: Vec<_> = p
            .params
            .iter()
            .map(|c| (c.name.as_str(), c.ty.as_str()))
            .collect();
        assert_eq!(
            tys,
            [
                ("self", "const aclTensor*"),
                ("out", "aclTensor*"),
                ("workspaceSize", "uint64_t*"),
                ("executor", "aclOpExecutor**")
            ]
        );
    }

    #[test]
    fn multiline_fenced_full_width_and_missing_return_type() {
        let p = one("aclnnStatus aclnnFoo(\n  const aclTensor   *gradOutput，\n  aclOpExecutor     **executor)");
        assert_eq!(p.params[0].ty, "const aclTensor*");
        assert_eq!(p.params[1].ty, "aclOpExecutor**");
        let p = one("aclnnFooGetWorkspaceSize(const aclTensor* a， int64_t b)");
        assert_eq!(p.return_type, None);
        assert_eq!(p.params[1].ty, "int64_t");
    }

    #[test]
    fn calls_and_prose_are_not_prototypes() {
        let lines = [
            "调用“aclnnFooGetWorkspaceSize”接口",
            "ret = aclnnFoo(a, b);",
            "aclnnFoo(1, 2)",
        ];
        assert!(find_prototypes(&lines, 0).is_empty());
    }

    #[test]
    fn type_keys_ignore_const_case_and_suffix() {
        assert_eq!(type_key("INT8"), type_key("int8_t"));
        assert_eq!(type_key("aclTensor *"), type_key("const aclTensor*"));
        assert_ne!(type_key("aclTensorList*"), type_key("aclTensor*"));
    }
}
