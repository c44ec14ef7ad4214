//! Long lines of generated C++ broken at their arguments, as a person (or clang-format with
//! `BinPackArguments: false`) lays them out: a line over [`MAX`] columns is split at the
//! top-level commas of its first argument list with several arguments, each argument on its own
//! line one indent deeper, and so on inside each argument that is still too long; a list of
//! short plain items (dtypes, formats, numbers) is packed, as many per line as fit.
//!
//! Only line breaks and indentation are inserted, never inside a string or char literal, so the
//! code means exactly what the one-line form means (C++ ignores whitespace between tokens).
//! A comment over [`MAX`] columns is broken into comment lines of the same prefix, at a space or
//! between CJK characters (a path, at a `/`). Preprocessor lines and the lines of a multi-line
//! macro are left as they are.

/// The column limit (CANN's `.clang-format`).
pub const MAX: usize = 120;

/// One indent level of a continuation.
const STEP: usize = 4;

/// The longest item a packed list holds (longer ones get a line each).
const PACKED_ITEM: usize = 40;

/// `text` with every code line over [`MAX`] columns broken at its arguments, and every comment
/// line over it broken into several.
pub fn wrap_long_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut in_macro = false;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let continued = in_macro;
        in_macro =
            body.trim_end().ends_with('\\') && (continued || body.trim_start().starts_with('#'));
        let t = body.trim_start();
        let block = in_block || t.starts_with("/*");
        in_block = block && !body.contains("*/");
        if width(body) <= MAX || continued || t.starts_with('#') {
            out.push_str(line);
            continue;
        }
        if block || t.starts_with("//") || t == "*" || t.starts_with("* ") || t.starts_with("*/") {
            out.push_str(&wrap_comment(body).join("\n"));
            out.push_str(newline);
            continue;
        }
        let indent = body.len() - t.len();
        let (code, comment) = split_comment(t);
        let mut lines = wrap(code.trim_end(), indent);
        if let Some(comment) = comment {
            let last = lines.last_mut().expect("wrap gives a line");
            if width(last) + 1 + width(comment) <= MAX {
                last.push(' ');
                last.push_str(comment);
            } else {
                let above = format!("{}{comment}", " ".repeat(indent));
                let mut all = wrap_comment(&above);
                all.append(&mut lines);
                lines = all;
            }
        }
        out.push_str(&lines.join("\n"));
        out.push_str(newline);
    }
    out
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// A comment line as several of at most [`MAX`] columns, each with the first one's prefix (its
/// indent and `//`, `///`, `*` or `/**` with one space).
fn wrap_comment(line: &str) -> Vec<String> {
    let indent = line.len() - line.trim_start().len();
    let t = &line[indent..];
    let marker = ["///", "//!", "//", "/**", "/*", "*"]
        .iter()
        .find(|m| t.starts_with(**m))
        .map_or("", |m| *m);
    let rest = &t[marker.len()..];
    let text = rest.trim_start();
    let spaces = &rest[..rest.len() - text.len()];
    let first = format!("{}{marker}{spaces}", &line[..indent]);
    let next_marker = match marker {
        "/**" | "/*" => " *",
        m => m,
    };
    let next = format!(
        "{}{next_marker}{}",
        &line[..indent],
        if spaces.is_empty() { " " } else { spaces }
    );
    let mut out = Vec::new();
    let mut prefix = first;
    let mut rest: Vec<char> = text.chars().collect();
    loop {
        let room = MAX.saturating_sub(width(&prefix)).max(20);
        if rest.len() <= room {
            out.push(format!("{prefix}{}", rest.iter().collect::<String>()));
            return out;
        }
        let at = comment_break(&rest, room);
        let head: String = rest[..at].iter().collect();
        out.push(format!("{prefix}{}", head.trim_end()));
        let mut tail = &rest[at..];
        while tail.first() == Some(&' ') {
            tail = &tail[1..];
        }
        rest = tail.to_vec();
        prefix = next.clone();
    }
}

/// Where to break a comment's text so its first part has at most `room` characters: after the
/// last space, else between CJK characters, else after a `/`, `,` or `.`, else at `room`.
fn comment_break(text: &[char], room: usize) -> usize {
    let wide = |c: char| !c.is_ascii();
    let fits = |at: usize| at > 0 && at <= room;
    let space = (1..=room).rev().find(|&at| text[at] == ' ');
    if let Some(at) = space.filter(|&at| at * 2 >= room) {
        return at;
    }
    let cjk = (1..=room)
        .rev()
        .find(|&at| wide(text[at - 1]) || (wide(text[at]) && text[at - 1] != ' '));
    if let Some(at) = cjk.filter(|&at| fits(at)) {
        return at;
    }
    if let Some(at) = space {
        return at;
    }
    (1..=room)
        .rev()
        .find(|&at| matches!(text[at - 1], '/' | ',' | '.' | '_'))
        .unwrap_or(room)
}

/// The lines of `expr` at `indent`, broken at the first argument list that has several
/// arguments when it does not fit (else at its `||`/`&&`/`<<`, else inside a long literal).
fn wrap(expr: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    if indent + width(expr) <= MAX {
        return vec![format!("{pad}{expr}")];
    }
    let Some(list) = first_list(expr).or_else(|| first_operators(expr)) else {
        // `c ? a : b`: each branch on a line of its own.
        if let Some(lines) = split_ternary(expr, indent) {
            return lines;
        }
        // `A(x).B(y)`: the call chained on goes on the next line.
        if let Some(at) = expr
            .find(").")
            .filter(|&at| at > 0 && !expr[..at].contains('"'))
        {
            let mut lines = vec![format!("{pad}{}", &expr[..=at])];
            lines.extend(wrap(&expr[at + 1..], indent + STEP));
            return lines;
        }
        return split_literal(expr, indent);
    };
    let mut lines = vec![format!("{pad}{}", expr[..=list.open].trim_end())];
    let mut start = list.open + 1;
    let ends: Vec<usize> = list.commas.iter().copied().chain([list.close]).collect();
    let args: Vec<&str> = ends
        .iter()
        .map(|&end| {
            let arg = expr[start..end].trim();
            start = (end + list.sep.len()).min(expr.len());
            arg
        })
        .collect();
    let tail = &expr[list.close.min(expr.len())..];
    let count = args.len();
    let packed = list.sep == "," && args.iter().all(|a| is_atom(a));
    let inner = indent + STEP;
    let mut current = String::new();
    for (i, arg) in args.iter().enumerate() {
        let last = i + 1 == count;
        let text = match (last, list.sep) {
            (false, sep) if sep.len() > 1 => format!("{arg} {sep}"),
            (false, sep) => format!("{arg}{sep}"),
            (true, _) if arg.is_empty() => {
                // A block's statements end with `;`: its `}` closes at the outer indent.
                lines.extend(wrap(tail.trim_start(), indent));
                continue;
            }
            (true, _) => format!("{arg}{tail}"),
        };
        if !packed {
            lines.extend(wrap(&text, inner));
            continue;
        }
        if !current.is_empty() && inner + width(&current) + 1 + width(&text) <= MAX {
            current.push(' ');
            current.push_str(&text);
            continue;
        }
        if !current.is_empty() {
            lines.push(format!("{}{current}", " ".repeat(inner)));
        }
        current = text;
    }
    if !current.is_empty() {
        lines.extend(wrap(&current, inner));
    }
    lines
}

/// `c ? a : b` at the expression's own depth as three lines.
fn split_ternary(expr: &str, indent: usize) -> Option<Vec<String>> {
    let mut depth = 0usize;
    let (mut q, mut colon) = (None, None);
    let tokens = code_chars(expr);
    for (k, &(pos, c)) in tokens.iter().enumerate() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '?' if depth == 0 && q.is_none() => q = Some(pos),
            ':' if depth == 0 && q.is_some() && colon.is_none() => {
                let next = tokens.get(k + 1).map(|t| t.1);
                let prev = k.checked_sub(1).map(|i| tokens[i].1);
                if next != Some(':') && prev != Some(':') {
                    colon = Some(pos);
                }
            }
            _ => {}
        }
    }
    let (q, colon) = (q?, colon?);
    let pad = " ".repeat(indent);
    let more = indent + STEP;
    let mut lines = vec![format!("{pad}{}", expr[..q].trim_end())];
    lines.extend(wrap(&format!("? {}", expr[q + 1..colon].trim()), more));
    lines.extend(wrap(&format!(": {}", expr[colon + 1..].trim()), more));
    Some(lines)
}

/// A line whose only break left is inside a string literal: the literal as adjacent literals
/// (C++ joins them), one per line.
fn split_literal(expr: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let (Some(open), Some(close)) = (expr.find('"'), expr.rfind('"')) else {
        return vec![format!("{pad}{expr}")];
    };
    let inner = &expr[open + 1..close];
    if close <= open || inner.contains('"') {
        return vec![format!("{pad}{expr}")];
    }
    let more = " ".repeat(indent + STEP);
    let rest_width = width(&expr[close + 1..]);
    let room = MAX.saturating_sub(indent + STEP + 2 + rest_width).max(20);
    let chars: Vec<char> = inner.chars().collect();
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let mut end = (at + room).min(chars.len());
        if end < chars.len() {
            // Never inside an escape: back off to after a run of backslashes of even length.
            while end > at + 1 && chars[end - 1] == '\\' {
                end -= 1;
            }
            if let Some(space) = (at + room / 2..end).rev().find(|&i| chars[i] == ' ') {
                end = space + 1;
            }
        }
        pieces.push(chars[at..end].iter().collect::<String>());
        at = end;
    }
    let mut lines = vec![format!("{pad}{}", &expr[..open]).trim_end().to_string()];
    if lines[0].trim().is_empty() {
        lines.clear();
    }
    let n = pieces.len();
    for (i, piece) in pieces.into_iter().enumerate() {
        let rest = if i + 1 == n { &expr[close + 1..] } else { "" };
        let lead = if lines.is_empty() { &pad } else { &more };
        lines.push(format!("{lead}\"{piece}\"{rest}"));
    }
    lines
}

/// A short argument with no list inside it: packed with its neighbours.
fn is_atom(arg: &str) -> bool {
    width(arg) <= PACKED_ITEM && !arg.contains(['(', '{', '[', '"', '\'', '?'])
}

/// An argument list: its `(` or `{`, its closing bracket (the line's end for a list the next
/// line goes on with) and its separators at its own depth (byte offsets).
struct ArgList {
    open: usize,
    close: usize,
    commas: Vec<usize>,
    /// `,`, `;` (a block's statements) or an operator (`||`, `&&`, `<<`).
    sep: &'static str,
}

/// The first `(`, `{` (a brace-init list or a one-line block) or `std::tuple<` whose list
/// holds two or more items, outside literals; a `(` the line leaves open counts up to its end.
fn first_list(expr: &str) -> Option<ArgList> {
    let tokens = code_chars(expr);
    for (i, &(at, c)) in tokens.iter().enumerate() {
        let closing = match c {
            '(' => ')',
            '{' => '}',
            '<' if expr[..at].ends_with("std::tuple") => '>',
            _ => continue,
        };
        let mut depth = 0usize;
        let mut commas = Vec::new();
        let mut semis = Vec::new();
        let mut closed = false;
        for &(pos, d) in &tokens[i + 1..] {
            match d {
                '(' | '[' | '{' => depth += 1,
                '<' if closing == '>' => depth += 1,
                '>' if closing == '>' && depth > 0 => depth -= 1,
                ')' | ']' | '}' if depth > 0 => depth -= 1,
                d if d == closing => {
                    if closing == '}' && !semis.is_empty() {
                        return Some(ArgList {
                            open: at,
                            close: pos,
                            commas: semis,
                            sep: ";",
                        });
                    }
                    if !commas.is_empty() {
                        return Some(ArgList {
                            open: at,
                            close: pos,
                            commas,
                            sep: ",",
                        });
                    }
                    closed = true;
                    break;
                }
                ')' | ']' | '}' => {
                    closed = true;
                    break;
                }
                ',' if depth == 0 => commas.push(pos),
                ';' if depth == 0 => semis.push(pos),
                _ => {}
            }
        }
        if !closed && closing == ')' && depth == 0 && !commas.is_empty() {
            // The list goes on on the next line: its last comma ends this one.
            let end = expr.trim_end().len();
            let last = commas.last().copied().filter(|&c| c + 1 == end);
            let close = last.unwrap_or(expr.len());
            if last.is_some() {
                commas.pop();
            }
            return Some(ArgList {
                open: at,
                close,
                commas,
                sep: ",",
            });
        }
    }
    None
}

/// The first `(` whose contents join several terms with `||`, `&&` or `<<` at its own depth
/// (or the whole line's, for a `<<` chain): broken after each operator.
fn first_operators(expr: &str) -> Option<ArgList> {
    let tokens = code_chars(expr);
    for (i, &(at, c)) in tokens.iter().enumerate() {
        if c != '(' && c != '{' {
            continue;
        }
        for op in ["||", "&&", "<<"] {
            let closing = if c == '(' { ')' } else { '}' };
            let mut depth = 0usize;
            let mut found = Vec::new();
            let mut prev: Option<(usize, char)> = None;
            for &(pos, d) in &tokens[i + 1..] {
                match d {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' if depth > 0 => depth -= 1,
                    d if d == closing => {
                        if !found.is_empty() {
                            return Some(ArgList {
                                open: at,
                                close: pos,
                                commas: found,
                                sep: op,
                            });
                        }
                        break;
                    }
                    ')' | ']' | '}' => break,
                    _ => {}
                }
                let bytes = op.as_bytes();
                if depth == 0
                    && d == bytes[1] as char
                    && prev.is_some_and(|(p, c)| c == bytes[0] as char && p + 1 == pos)
                {
                    found.push(pos - 1);
                }
                prev = Some((pos, d));
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
    fn an_argument_still_too_long_is_broken_in_turn_and_short_items_are_packed() {
        let args: Vec<String> = (0..12).map(|i| format!("argument_number_{i}")).collect();
        let line = format!(
            "return f(g({}), h(x(1), {}));",
            args.join(", "),
            "y".repeat(100)
        );
        let wrapped = wrap_long_lines(&line);
        assert!(wrapped.lines().all(|l| width(l) <= MAX), "{wrapped}");
        assert!(
            wrapped.starts_with("return f(\n    g(\n        argument_number_0, argument_number_1,"),
            "{wrapped}"
        );
        assert_eq!(squeezed(&wrapped), squeezed(&line));
    }

    #[test]
    fn directives_stay_whole_comments_and_literals_are_broken() {
        let long = "x".repeat(130);
        let text = format!("int a = f(1, 2);\n#define X(a, b) {long}\n");
        assert_eq!(wrap_long_lines(&text), text);
        let comment = format!("    // {} 中文{}", "word ".repeat(30), "字".repeat(130));
        let wrapped = wrap_long_lines(&comment);
        assert!(
            wrapped
                .lines()
                .all(|l| width(l) <= MAX && l.starts_with("    // ")),
            "{wrapped}"
        );
        assert_eq!(
            squeezed(&wrapped.replace("//", "")),
            squeezed(&comment.replace("//", ""))
        );
        let literal = format!("auto s = \"{long}\";");
        let wrapped = wrap_long_lines(&literal);
        assert!(wrapped.lines().all(|l| width(l) <= MAX), "{wrapped}");
        assert_eq!(squeezed(&wrapped).replace("\"\"", ""), squeezed(&literal));
    }

    #[test]
    fn conditions_break_after_their_operators() {
        let terms: Vec<String> = (0..8).map(|i| format!("tensor{i}->IsEmpty()")).collect();
        let line = format!("    if ({}) {{", terms.join(" || "));
        let wrapped = wrap_long_lines(&line);
        assert!(wrapped.lines().all(|l| width(l) <= MAX), "{wrapped}");
        assert!(
            wrapped.lines().nth(1).unwrap().trim_end().ends_with("||"),
            "{wrapped}"
        );
        assert_eq!(squeezed(&wrapped), squeezed(&line));
    }

    #[test]
    fn a_trailing_comment_stays_on_the_last_line() {
        let long = "y".repeat(60);
        let line = format!("call({long}, {long}); // (a, b)");
        assert_eq!(
            wrap_long_lines(&line),
            format!("call(\n    {long},\n    {long}); // (a, b)")
        );
    }
}
