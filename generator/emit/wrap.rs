//! Long lines of generated C++ broken at their arguments, as a person (or clang-format with
//! `BinPackArguments: false`) lays them out: a line over [`MAX`] columns is split at the
//! top-level commas of its first argument list with several arguments, each argument on its own
//! line one indent deeper, and so on inside each argument that is still too long.
//!
//! Only line breaks and indentation are inserted, never inside a string or char literal or a
//! comment, so the code means exactly what the one-line form means (C++ ignores whitespace
//! between tokens). Comment lines and preprocessor lines are left as they are.

/// The column limit (CANN's `.clang-format` uses 120; the project's Rust uses 100).
pub const MAX: usize = 100;

/// One indent level of a continuation.
const STEP: usize = 4;

/// `text` with every code line over [`MAX`] columns broken at its arguments.
pub fn wrap_long_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        if width(body) <= MAX || is_comment_or_directive(body) {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let (code, comment) = split_comment(body.trim_start());
        let mut lines = wrap(code.trim_end(), indent);
        if let (Some(last), Some(comment)) = (lines.last_mut(), comment) {
            last.push(' ');
            last.push_str(comment);
        }
        out.push_str(&lines.join("\n"));
        out.push_str(newline);
    }
    out
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn is_comment_or_directive(line: &str) -> bool {
    let t = line.trim_start();
    ["//", "/*", "*", "#"].iter().any(|p| t.starts_with(p))
}

/// The lines of `expr` at `indent`, broken at the first argument list that has several
/// arguments when it does not fit.
fn wrap(expr: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    if indent + width(expr) <= MAX {
        return vec![format!("{pad}{expr}")];
    }
    let Some(list) = first_list(expr) else {
        return vec![format!("{pad}{expr}")];
    };
    let mut lines = vec![format!("{pad}{}", &expr[..=list.open])];
    let mut start = list.open + 1;
    let ends = list.commas.iter().copied().chain([list.close]);
    let count = list.commas.len() + 1;
    for (i, end) in ends.enumerate() {
        let arg = expr[start..end].trim();
        let text = if i + 1 < count {
            format!("{arg},")
        } else {
            format!("{arg}{}", &expr[list.close..])
        };
        lines.extend(wrap(&text, indent + STEP));
        start = end + 1;
    }
    lines
}

/// An argument list: its `(` or `{`, its closing bracket and the commas at its own depth (byte
/// offsets).
struct ArgList {
    open: usize,
    close: usize,
    commas: Vec<usize>,
}

/// The first `(` or `{` (a brace-init list) whose list holds two or more arguments, outside
/// literals. A `{` that opens a block has no `}` on the line and is no list.
fn first_list(expr: &str) -> Option<ArgList> {
    let tokens = code_chars(expr);
    for (i, &(at, c)) in tokens.iter().enumerate() {
        let closing = match c {
            '(' => ')',
            '{' => '}',
            _ => continue,
        };
        let mut depth = 0usize;
        let mut commas = Vec::new();
        for &(pos, d) in &tokens[i + 1..] {
            match d {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                d if d == closing => {
                    if !commas.is_empty() {
                        return Some(ArgList {
                            open: at,
                            close: pos,
                            commas,
                        });
                    }
                    break;
                }
                ')' | ']' | '}' => break,
                ',' if depth == 0 => commas.push(pos),
                _ => {}
            }
        }
    }
    None
}

/// The characters of `s` outside string and char literals, with their byte offsets.
pub(super) fn code_chars(s: &str) -> Vec<(usize, char)> {
    let mut out = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in s.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None => out.push((at, c)),
        }
    }
    out
}

/// The code of a line and its trailing `// comment`, if any (outside literals).
pub(super) fn split_comment(line: &str) -> (&str, Option<&str>) {
    let code = code_chars(line);
    let at = code
        .windows(2)
        .find(|w| w[0].1 == '/' && w[1].1 == '/' && w[1].0 == w[0].0 + 1)
        .map(|w| w[0].0);
    match at {
        Some(at) => (&line[..at], Some(&line[at..])),
        None => (line, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens of C++ text without whitespace: what wrapping must leave unchanged.
    fn squeezed(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    }

    #[test]
    fn a_long_call_puts_each_argument_on_its_own_line() {
        let line = format!(
            "    if (!pred::report(ACLNN_ERR_PARAM_INVALID, \"{}\", pred::dtype_same(pred::concat({{pred::one(\"a\", a), pred::one(\"b\", b)}})))) {{\n",
            "x的数据类型不一致, (y)"
        );
        let wrapped = wrap_long_lines(&line);
        assert_eq!(
            wrapped,
            "    if (!pred::report(\n        ACLNN_ERR_PARAM_INVALID,\n        \"x的数据类型不一致, (y)\",\n        pred::dtype_same(pred::concat({pred::one(\"a\", a), pred::one(\"b\", b)})))) {\n"
        );
        assert_eq!(squeezed(&wrapped), squeezed(&line));
        assert!(wrapped.lines().all(|l| width(l) <= MAX));
    }

    #[test]
    fn an_argument_still_too_long_is_broken_in_turn() {
        let args: Vec<String> = (0..12).map(|i| format!("argument_number_{i}")).collect();
        let line = format!("return f(g({}), h);", args.join(", "));
        let wrapped = wrap_long_lines(&line);
        assert!(wrapped.lines().all(|l| width(l) <= MAX), "{wrapped}");
        assert!(wrapped.starts_with("return f(\n    g(\n        argument_number_0,\n"));
        assert!(wrapped.ends_with("        argument_number_11),\n    h);"));
        assert_eq!(squeezed(&wrapped), squeezed(&line));
    }

    #[test]
    fn short_lines_comments_directives_and_literals_stay_whole() {
        let long = "x".repeat(120);
        let text = format!(
            "int a = f(1, 2);\n// {long}, (a, b)\n#define X(a, b) {long}\nauto s = \"{long}, (a, b)\";\n"
        );
        assert_eq!(wrap_long_lines(&text), text);
    }

    #[test]
    fn a_trailing_comment_stays_on_the_last_line() {
        let long = "y".repeat(60);
        let line = format!("call({long}, {long}); // why (a, b)");
        assert_eq!(
            wrap_long_lines(&line),
            format!("call(\n    {long},\n    {long}); // why (a, b)")
        );
    }
}
