//! A small C++ tokenizer, enough for CANN's op_api gtests: identifiers, numbers (with their C
//! type, which decides a `ScalarDesc`'s dtype), strings, punctuation. Comments and preprocessor
//! lines are dropped. Every token keeps its line, so what cannot be read is named by file:line.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Ident(String),
    /// An integer literal and whether it had an `l`/`ll` suffix (an `int64_t`-ish literal).
    Int(i64, bool),
    /// A floating literal and whether it had an `f` suffix (`float`, else `double`).
    Float(f64, bool),
    Str(String),
    Punct(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

/// Multi-character punctuators first: the longest match wins. `>>` is deliberately absent so
/// that `vector<vector<int64_t>>` closes two templates.
const PUNCTS: &[&str] = &[
    "::", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", "++", "--", "+=", "-=", "*=", "/=", "(",
    ")", "{", "}", "[", "]", "<", ">", ",", ";", ":", ".", "=", "+", "-", "*", "/", "%", "!", "&",
    "|", "?", "~", "^", "#",
];

pub fn tokenize(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            at_line_start = true;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // Preprocessor lines (with their backslash continuations) carry nothing a call needs.
        if c == '#' && at_line_start {
            while i < chars.len() && chars[i] != '\n' {
                if chars[i] == '\\' && chars.get(i + 1) == Some(&'\n') {
                    line += 1;
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        let start_line = line;
        if c.is_ascii_alphabetic() || c == '_' {
            let s = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(chars[s..i].iter().collect()),
                line,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let (tok, next) = number(&chars, i);
            out.push(Token { tok, line });
            i = next;
            continue;
        }
        if c == '"' || c == '\'' {
            let s = i + 1;
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            let text: String = chars[s..i.min(chars.len())].iter().collect();
            i += 1;
            out.push(Token {
                tok: Tok::Str(text),
                line: start_line,
            });
            continue;
        }
        let rest: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let p = PUNCTS
            .iter()
            .find(|p| rest.starts_with(**p))
            .copied()
            .unwrap_or("?");
        i += p.len().max(1);
        out.push(Token {
            tok: Tok::Punct(p),
            line,
        });
    }
    out
}

/// A numeric literal at `i`: decimal, hex, float with exponent, and C suffixes.
fn number(chars: &[char], mut i: usize) -> (Tok, usize) {
    let s = i;
    if chars[i] == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
        i += 2;
        while i < chars.len() && chars[i].is_ascii_hexdigit() {
            i += 1;
        }
        let text: String = chars[s + 2..i].iter().collect();
        let v = i64::from_str_radix(&text, 16)
            .or_else(|_| u64::from_str_radix(&text, 16).map(|u| u as i64))
            .unwrap_or(0);
        let (long, next) = int_suffix(chars, i);
        return (Tok::Int(v, long), next);
    }
    let mut float = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            i += 1;
        } else if c == '.' {
            float = true;
            i += 1;
        } else if (c == 'e' || c == 'E')
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_digit() || *n == '-' || *n == '+')
        {
            float = true;
            i += 2;
        } else {
            break;
        }
    }
    let text: String = chars[s..i].iter().collect();
    if float || matches!(chars.get(i), Some('f' | 'F')) {
        let v = text.parse::<f64>().unwrap_or(0.0);
        let is_f32 = matches!(chars.get(i), Some('f' | 'F'));
        if is_f32 || matches!(chars.get(i), Some('l' | 'L')) {
            i += 1;
        }
        return (Tok::Float(v, is_f32), i);
    }
    let v = text
        .parse::<i64>()
        .or_else(|_| text.parse::<u64>().map(|u| u as i64))
        .unwrap_or(i64::MAX);
    let (long, next) = int_suffix(chars, i);
    (Tok::Int(v, long), next)
}

fn int_suffix(chars: &[char], mut i: usize) -> (bool, usize) {
    let mut long = false;
    while i < chars.len() && matches!(chars[i], 'u' | 'U' | 'l' | 'L') {
        long |= matches!(chars[i], 'l' | 'L');
        i += 1;
    }
    (long, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_keep_their_c_type() {
        assert_eq!(
            toks("1 2L 1.5f 2.0 1e-5 0x10"),
            vec![
                Tok::Int(1, false),
                Tok::Int(2, true),
                Tok::Float(1.5, true),
                Tok::Float(2.0, false),
                Tok::Float(1e-5, false),
                Tok::Int(16, false),
            ]
        );
    }

    #[test]
    fn comments_and_preprocessor_are_dropped_lines_kept() {
        let t = tokenize("#include \"x.h\"\n// a\n/* b\n c */ foo(1);\n#define X \\\n  2\nbar");
        assert_eq!(t[0].tok, Tok::Ident("foo".into()));
        assert_eq!(t[0].line, 4);
        assert_eq!(t.last().unwrap().tok, Tok::Ident("bar".into()));
        assert_eq!(t.last().unwrap().line, 7);
    }

    #[test]
    fn nested_templates_close_one_by_one() {
        assert_eq!(
            toks("vector<vector<int>> a::b"),
            vec![
                Tok::Ident("vector".into()),
                Tok::Punct("<"),
                Tok::Ident("vector".into()),
                Tok::Punct("<"),
                Tok::Ident("int".into()),
                Tok::Punct(">"),
                Tok::Punct(">"),
                Tok::Ident("a".into()),
                Tok::Punct("::"),
                Tok::Ident("b".into()),
            ]
        );
    }

    #[test]
    fn unterminated_input_does_not_panic() {
        for s in ["\"abc", "/* x", "'", "0x", "1e", "#", "a\\"] {
            let _ = tokenize(s);
        }
    }
}
