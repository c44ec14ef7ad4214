//! Identifiers of generated code, one reserved-word list per target language: a doc's name
//! becomes a Rust or C++ identifier here, escaped where it would be a keyword or clash with a
//! name the generated code binds or includes.

use crate::ir::snake_case;

/// Names a generated Rust identifier may not take: the ones the generated code binds itself
/// (closure and `let` bindings in rule expressions, the test module's `run(call)`, the modules
/// it names), which a parameter of the same name would shadow or be shadowed by. Rust's own
/// keywords are whatever `syn` does not take as an identifier.
const RUST_RESERVED: &[&str] = &[
    "a",
    "aclnn_runtime",
    "call",
    "d",
    "l",
    "layout",
    "len",
    "lens",
    "name",
    "pred",
    "product",
    "r",
    "run",
    "s",
    "target",
    "testing",
    "v",
    "vs",
];

/// A Rust identifier for a doc name: `gradOutput` → `grad_output`, `self` → `self_`, `v` → `v_`.
/// The API keeps the doc's names.
pub fn rust_ident(name: &str) -> String {
    let snake = snake_case(name);
    let snake = if snake.is_empty() || snake.starts_with(|c: char| c.is_ascii_digit()) {
        format!("p_{snake}")
    } else {
        snake
    };
    if RUST_RESERVED.contains(&snake.as_str()) || syn::parse_str::<syn::Ident>(&snake).is_err() {
        format!("{snake}_")
    } else {
        snake
    }
}

/// Why a C/C++ name is taken: each generated name avoids the kinds that can collide with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CppClash {
    /// C++'s keywords and alternative tokens: no generated C++ name may be one.
    Keyword,
    /// Names the generated aclnn-layer functions bind themselves.
    Local,
    /// C library functions: an `extern "C"` kernel entry with one of these names collides with
    /// `<cstdlib>`, `<cmath>`, ... (an op `Abs` would define `abs`).
    Library,
    /// Names the generated call example (`ascend/main.cpp`) binds or calls itself.
    ExampleLocal,
}

/// The C/C++ reserved words, by why each is taken.
const CPP_RESERVED: &[(CppClash, &[&str])] = &[
    (
        CppClash::Keyword,
        &[
            "and",
            "asm",
            "auto",
            "bool",
            "break",
            "case",
            "catch",
            "char",
            "class",
            "const",
            "continue",
            "default",
            "delete",
            "do",
            "double",
            "else",
            "enum",
            "explicit",
            "export",
            "extern",
            "false",
            "float",
            "for",
            "friend",
            "goto",
            "if",
            "inline",
            "int",
            "long",
            "mutable",
            "namespace",
            "new",
            "not",
            "operator",
            "or",
            "private",
            "protected",
            "public",
            "register",
            "return",
            "short",
            "signed",
            "sizeof",
            "static",
            "struct",
            "switch",
            "template",
            "this",
            "throw",
            "true",
            "try",
            "typedef",
            "typeid",
            "typename",
            "union",
            "unsigned",
            "using",
            "virtual",
            "void",
            "volatile",
            "while",
            "xor",
        ],
    ),
    (
        CppClash::Local,
        &[
            "ret",
            "result",
            "uniqueExecutor",
            "pred",
            "product",
            "op",
            "l0op",
            "std",
        ],
    ),
    (
        CppClash::Library,
        &[
            // <stdlib.h>
            "abort",
            "abs",
            "atexit",
            "atof",
            "atoi",
            "atol",
            "atoll",
            "bsearch",
            "calloc",
            "div",
            "exit",
            "free",
            "getenv",
            "labs",
            "ldiv",
            "llabs",
            "lldiv",
            "malloc",
            "mblen",
            "mbstowcs",
            "mbtowc",
            "qsort",
            "rand",
            "realloc",
            "srand",
            "strtod",
            "strtof",
            "strtol",
            "strtold",
            "strtoll",
            "strtoul",
            "strtoull",
            "system",
            "wcstombs",
            "wctomb",
            "random",
            "srandom",
            // <math.h>
            "acos",
            "acosh",
            "asin",
            "asinh",
            "atan",
            "atan2",
            "atanh",
            "cbrt",
            "ceil",
            "copysign",
            "cos",
            "cosh",
            "erf",
            "erfc",
            "exp",
            "exp2",
            "expm1",
            "fabs",
            "fdim",
            "floor",
            "fma",
            "fmax",
            "fmin",
            "fmod",
            "frexp",
            "hypot",
            "ilogb",
            "ldexp",
            "lgamma",
            "llrint",
            "llround",
            "log",
            "log10",
            "log1p",
            "log2",
            "logb",
            "lrint",
            "lround",
            "modf",
            "nan",
            "nearbyint",
            "nextafter",
            "nexttoward",
            "pow",
            "remainder",
            "remquo",
            "rint",
            "round",
            "scalbln",
            "scalbn",
            "sin",
            "sinh",
            "sqrt",
            "tan",
            "tanh",
            "tgamma",
            "trunc",
            "gamma",
            "j0",
            "j1",
            "jn",
            "y0",
            "y1",
            "yn",
            "signbit",
            "isnan",
            "isinf",
            "isfinite",
            "fpclassify",
            // <string.h>, <strings.h>
            "memchr",
            "memcmp",
            "memcpy",
            "memmove",
            "memset",
            "strcat",
            "strchr",
            "strcmp",
            "strcoll",
            "strcpy",
            "strcspn",
            "strerror",
            "strlen",
            "strncat",
            "strncmp",
            "strncpy",
            "strpbrk",
            "strrchr",
            "strspn",
            "strstr",
            "strtok",
            "strxfrm",
            "index",
            "rindex",
            "bzero",
            "bcopy",
            "ffs",
            // <stdio.h>, <time.h>, <signal.h>, <ctype.h>, <unistd.h>
            "printf",
            "fprintf",
            "sprintf",
            "snprintf",
            "scanf",
            "puts",
            "putchar",
            "getchar",
            "remove",
            "rename",
            "fopen",
            "fclose",
            "fread",
            "fwrite",
            "fflush",
            "perror",
            "clock",
            "time",
            "difftime",
            "mktime",
            "signal",
            "raise",
            "isalpha",
            "isdigit",
            "tolower",
            "toupper",
            "select",
            "read",
            "write",
            "close",
            "open",
            "sleep",
            "pipe",
            "dup",
            "link",
            "sync",
            "kill",
            "wait",
        ],
    ),
    (
        CppClash::ExampleLocal,
        &[
            "ret",
            "stream",
            "deviceId",
            "workspaceSize",
            "workspaceAddr",
            "executor",
            "resultSize",
            "resultData",
            "main",
            "Init",
            "GetShapeSize",
            "CreateAclTensor",
        ],
    ),
];

/// Whether `name` is reserved in C/C++ for one of `clashes`.
fn cpp_reserved(name: &str, clashes: &[CppClash]) -> bool {
    CPP_RESERVED
        .iter()
        .any(|(clash, words)| clashes.contains(clash) && words.contains(&name))
}

/// The C++ identifier of a parameter in the aclnn layer's definitions: a keyword or a name the
/// generated functions bind gets a `_` (a declaration may name its parameters differently).
pub fn cpp_ident(name: &str) -> String {
    if cpp_reserved(name, &[CppClash::Keyword, CppClash::Local]) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// A parameter's variable in the generated call example: any doc name made a C identifier, with
/// a `_` where it is a keyword or a name the example binds itself.
pub fn example_ident(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        id.insert(0, '_');
    }
    if cpp_reserved(&id, &[CppClash::Keyword, CppClash::ExampleLocal]) {
        id.push('_');
    }
    id
}

/// The kernel's `extern "C"` entry: the op's snake-case name, as CANN's op compiler derives it,
/// unless that is a C library function or a C++ keyword; then `<snake>_kernel`, which the OpDef
/// names with `ExtendCfgInfo("opInterface.value", ...)`.
pub fn kernel_entry_name(op: &str) -> String {
    let snake = snake_case(op);
    if cpp_reserved(&snake, &[CppClash::Keyword, CppClash::Library]) {
        format!("{snake}_kernel")
    } else {
        snake
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_escape_per_language() {
        assert_eq!(rust_ident("self"), "self_");
        assert_eq!(rust_ident("type"), "type_");
        assert_eq!(rust_ident("product"), "product_");
        assert_eq!(rust_ident("gradOutput"), "grad_output");
        assert_eq!(rust_ident("1x"), "p_1x");
        assert_eq!(cpp_ident("self"), "self");
        assert_eq!(cpp_ident("result"), "result_");
        assert_eq!(cpp_ident("template"), "template_");
        assert_eq!(cpp_ident("abs"), "abs");
        assert_eq!(kernel_entry_name("Abs"), "abs_kernel");
        assert_eq!(example_ident("self"), "self");
        assert_eq!(example_ident("stream"), "stream_");
        assert_eq!(example_ident("2x-y"), "_2x_y");
        assert_eq!(example_ident("int"), "int_");
        assert_eq!(example_ident(""), "_");
        assert_eq!(kernel_entry_name("Result"), "result");
        assert_eq!(
            kernel_entry_name("AvgPool2dBackward"),
            "avg_pool2d_backward"
        );
    }
}
