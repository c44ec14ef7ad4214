//! Diagnostics: their codes, building them with a location, and rendering them like rustc and
//! ruff do.

use annotate_snippets::{Level, Renderer, Snippet};
use serde::{Deserialize, Serialize};

/// Every diagnostic aclgen reports has one of these codes: a stable kebab-case id that
/// `lint --format json` prints and tools may match on. The doc of each is what it means.
macro_rules! codes {
    ($($(#[doc = $doc:literal])+ $variant:ident = $name:literal,)*) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[doc = $doc])+ $variant,)*
        }

        impl Code {
            /// Every code, in the order of this list.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable id (`no-prototype`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the code means (its documentation).
            pub fn explain(self) -> &'static str {
                match self {
                    $(Code::$variant => concat!($($doc),+).trim_ascii(),)*
                }
            }
        }
    };
}

codes! {
    /// A byte-order mark was removed from the start of the doc.
    Bom = "bom",
    /// The doc is UTF-16 and was decoded as such.
    Utf16 = "utf16",
    /// The file is binary (NUL bytes), not a doc: nothing is read from it.
    Binary = "binary",
    /// A line has bytes that are not UTF-8; they were replaced.
    InvalidUtf8 = "invalid-utf8",
    /// Damaged UTF-8 bytes were recovered into the characters they meant.
    BytesRecovered = "bytes-recovered",
    /// The doc is in a legacy encoding (GB18030/GBK, Big5, Shift_JIS, EUC) and was decoded from it.
    LegacyEncoding = "legacy-encoding",
    /// The doc is in no encoding aclgen can decode cleanly: nothing is read from it.
    UnknownEncoding = "unknown-encoding",
    /// A line double-encoded (UTF-8 read as GBK or Latin-1) was repaired.
    MojibakeRepaired = "mojibake-repaired",
    /// A line looks double-encoded and could not be repaired.
    MojibakeUnrecovered = "mojibake-unrecovered",
    /// Text left by a web scrape (navigation, footers) was dropped.
    ScrapeArtifact = "scrape-artifact",
    /// A heading of a scraped plain-text doc was recognized from its wording.
    ScrapeHeading = "scrape-heading",
    /// A parameter line of a scraped doc was turned back into a list item.
    ScrapeParamBullet = "scrape-param-bullet",
    /// A prototype of a scraped doc was rejoined from broken lines.
    ScrapePrototype = "scrape-prototype",
    /// `[object Object]` left by a scraper was dropped.
    ScrapeObjectObject = "scrape-object-object",
    /// A link to `undefined` left by a scraper was dropped.
    ScrapeUndefinedLink = "scrape-undefined-link",
    /// No `aclnn…GetWorkspaceSize(...)` prototype (error; also names a misspelled `…GetWorkspaceSze`).
    NoPrototype = "no-prototype",
    /// The doc has one function where aclnn has two phases.
    SinglePhaseApi = "single-phase-api",
    /// The doc describes more ops than its title names.
    TooManyOps = "too-many-ops",
    /// A prototype has no return type.
    MissingReturnType = "missing-return-type",
    /// The first phase has no matching `aclnnX(...)` execute function.
    NoExecuteFunction = "no-execute-function",
    /// The title or heading names another op than the prototype.
    NameMismatch = "name-mismatch",
    /// The doc has no product section.
    NoProducts = "no-products",
    /// A product name aclgen does not know; kept under a slug id.
    UnknownProduct = "unknown-product",
    /// A product line that is damaged (half a name, stray marks).
    DamagedProduct = "damaged-product",
    /// A note names a product the product section does not list.
    ProductNotListed = "product-not-listed",
    /// The doc has no parameter section.
    NoParamSection = "no-param-section",
    /// A prototype parameter the parameter section does not describe.
    ParamUndocumented = "param-undocumented",
    /// A described parameter that is not in the prototype.
    ParamNotInPrototype = "param-not-in-prototype",
    /// The prototype and the description give a parameter different C types.
    TypeDrift = "type-drift",
    /// A parameter described both as input and as output.
    RoleConflict = "role-conflict",
    /// A product note names a parameter the op does not have.
    NoteUnknownParam = "note-unknown-param",
    /// A dtype name aclgen does not know (an error for a tensor's near miss of a known one).
    UnknownDtype = "unknown-dtype",
    /// A format name aclgen does not know.
    UnknownFormat = "unknown-format",
    /// The doc has no table of error codes.
    NoErrorTable = "no-error-table",
    /// A prototype parameter's C type is not an aclnn type (gen refuses the op).
    UnknownCType = "unknown-c-type",
    /// A parameter name that is not a C identifier (gen refuses the op).
    BadParamName = "bad-param-name",
    /// The op lacks its GetWorkspaceSize or its execute function (gen refuses the op).
    NoTwoPhaseApi = "no-two-phase-api",
    /// The op has no tensor parameter (gen refuses the op).
    NoTensorParam = "no-tensor-param",
    /// An op name that is not an identifier: it would become a file name.
    BadOpName = "bad-op-name",
    /// A YAML spec that does not parse or breaks the schema.
    SpecInvalid = "spec-invalid",
    /// A full spec's file name differs from its op.
    SpecFileName = "spec-file-name",
    /// A full spec and a doc describe the same op differently.
    SpecConflict = "spec-conflict",
    /// Two docs of one op differ; the note names what was kept.
    DocsDiffer = "docs-differ",
    /// The in-place and out-of-place functions of one doc list different dtypes for one tensor;
    /// both accept the union (one implementation checks both).
    InplaceDtypesDiffer = "inplace-dtypes-differ",
    /// An overlay corrected the doc (a note, so the change is visible).
    OverlayApplied = "overlay-applied",
    /// import would overwrite a spec it did not write or that was edited.
    ImportOverwrite = "import-overwrite",
    /// msOpGen's op JSON that does not parse, lacks a field, or names a dtype, format or
    /// attribute type aclgen does not know (`import`).
    MsOpGenInvalid = "msopgen-invalid",
    /// The doc's first-phase prototype differs from CANN's header (`lint --headers`): both
    /// spellings are named.
    HeaderDrift = "header-drift",
    /// A rule that rejects every call gen can build on a product the op supports (no valid
    /// call exists with it): it is not checked, and its condition is manual with the reason.
    RuleDemoted = "rule-demoted",
    /// An op gen synthesizes no valid call for (no product the runtime knows is supported): its
    /// validators have no case to replay.
    NoValidCall = "no-valid-call",
    /// An op's folder of hand-written kernel sources (`kernels/<op>/`) breaks kernels/README.md:
    /// a file that is none of body, tiling choices and `tiling.yaml`, a body without its tiling
    /// choices, a `tiling.yaml` without a body or one that does not read. gen refuses the op and
    /// keeps its files of the last run.
    KernelFolder = "kernel-folder",
    /// An op without a hand-written kernel body in `kernels/<op>/`: its tiling and kernel are
    /// the skeleton that fails at run time (a warning).
    MissingKernelBody = "missing-kernel-body",
    /// An output whose shape or dtype the doc does not state (no rule ties it to an input), or
    /// an op whose outputs no l0 op can allocate: the C++ aclnn layer takes what is missing from
    /// the caller's output tensor or launches nothing, and no InferShape (or InferDataType) is
    /// registered that would have to guess it (a warning; the generated files say it at the place).
    CppUndocumented = "cpp-undocumented",
    /// An op name gen cannot make file names of (not an identifier, such as `../../x`): nothing
    /// is generated for it, and it may own no file of an earlier run.
    UnsafeOpName = "unsafe-op-name",
    /// A generated path that would leave the output folder or is not a plain portable name (a
    /// header name a doc gives as `../x.h`): nothing is written for the op.
    UnsafePath = "unsafe-path",
}

/// The codes of `cases::prove`: what gen changed so that what it emits holds.
pub const PROOF_CODES: &[Code] = &[Code::RuleDemoted, Code::NoValidCall];

/// The diagnostics of `diags` that `cases::prove` made.
pub fn proof_diagnostics(diags: &[Diagnostic]) -> Vec<Diagnostic> {
    diags
        .iter()
        .filter(|d| PROOF_CODES.contains(&d.code))
        .cloned()
        .collect()
}

/// The codes of `emit`: problems gen finds while making one op's files (its kernel folder, its
/// name, its paths). Their message names the op and the place, so gen prints each on one line,
/// `severity: message`, with no source line to quote.
pub const EMIT_CODES: &[Code] = &[
    Code::KernelFolder,
    Code::MissingKernelBody,
    Code::CppUndocumented,
    Code::UnsafeOpName,
    Code::UnsafePath,
];

impl Code {
    /// The code with this id, if there is one.
    pub fn parse(id: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == id)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Ordered by id, so reports sort the same way they did when codes were strings.
impl Ord for Code {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        Code::parse(&id)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown diagnostic code `{id}`")))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`, as rendered.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A problem found in an input, with its location. Errors make `lint` and `gen` exit 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub file: String,
    pub line: usize,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: usize,
    /// The source line the diagnostic points at (after decoding).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source_line: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Diagnostic {
    /// A diagnostic at `file:line:column` (1-based; column 0 = whole line) quoting `source_line`.
    pub fn at(
        severity: Severity,
        code: Code,
        message: impl Into<String>,
        file: &str,
        line: usize,
        column: usize,
        source_line: &str,
    ) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            file: file.to_string(),
            line,
            column,
            source_line: source_line.trim_end_matches(['\r', '\n']).to_string(),
        }
    }

    /// A diagnostic about a whole file (no line).
    pub fn file_level(
        severity: Severity,
        code: Code,
        message: impl Into<String>,
        file: &str,
    ) -> Self {
        Diagnostic::at(severity, code, message, file, 0, 0, "")
    }
}

/// Renders diagnostics for a terminal: `error[code]: message`, `--> file:line:col`, the source line
/// and a caret under the column.
pub fn render(diags: &[Diagnostic]) -> String {
    let renderer = Renderer::plain();
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Note => Level::Note,
        };
        let title = level.title(&d.message).id(d.code.as_str());
        let origin = format!("{}:{}:{}", d.file, d.line, d.column.max(1));
        let whole_file = format!("{} (whole file)", d.file);
        let message = if d.line == 0 {
            title.footer(Level::Note.title(&whole_file))
        } else if d.source_line.is_empty() {
            // Past the end of the file (an unclosed YAML list): the place, without a snippet.
            title.footer(Level::Note.title(&origin))
        } else {
            let span = caret_span(&d.source_line, d.column);
            title.snippet(
                Snippet::source(&d.source_line)
                    .line_start(d.line)
                    // annotate-snippets appends `:line:column` (from the span) itself.
                    .origin(&d.file)
                    .annotation(level.span(span).label("")),
            )
        };
        out.push_str(&renderer.render(message).to_string());
        out.push('\n');
    }
    out
}

/// Byte span of the character at 1-based `column` (the whole line when column is 0).
fn caret_span(line: &str, column: usize) -> std::ops::Range<usize> {
    if column == 0 || line.is_empty() {
        return 0..line.len();
    }
    let mut indices = line.char_indices().skip(column - 1);
    match indices.next() {
        Some((start, c)) => start..start + c.len_utf8(),
        None => line.len().saturating_sub(1)..line.len(),
    }
}

/// One line per diagnostic, `file:line:col: severity[code]: message`, for logs and grep.
pub fn render_short(d: &Diagnostic) -> String {
    let sev = d.severity.as_str();
    // A whole-file diagnostic has no line to point at: `file: …`, not `file:0:1: …`.
    let place = if d.line == 0 {
        d.file.clone()
    } else {
        format!("{}:{}:{}", d.file, d.line, d.column.max(1))
    };
    format!("{place}: {sev}[{}]: {}", d.code, d.message)
}

/// `lint`'s text report: each file's diagnostics rendered on all cores, in file order.
pub fn lint_text(per_file: &[Vec<Diagnostic>]) -> String {
    use rayon::prelude::*;
    per_file
        .par_iter()
        .map(|diags| render(diags))
        .collect::<Vec<String>>()
        .concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_kebab_case_unique_and_documented() {
        let mut seen = std::collections::BTreeSet::new();
        for code in Code::ALL {
            let id = code.as_str();
            assert!(seen.insert(id), "{id} twice");
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id}"
            );
            assert!(code.explain().len() > 20, "{id}: {}", code.explain());
            assert_eq!(Code::parse(id), Some(*code));
        }
        let json = serde_json::to_string(&Code::NoPrototype).unwrap();
        assert_eq!(json, "\"no-prototype\"");
        assert!(serde_json::from_str::<Code>("\"no-such-code\"").is_err());
    }

    #[test]
    fn renders_location_source_and_caret() {
        let d = Diagnostic::at(
            Severity::Warning,
            Code::NameMismatch,
            "heading differs",
            "a.md",
            42,
            5,
            "### aclnnFoo",
        );
        let text = render(&[d]);
        assert!(
            text.contains("warning[name-mismatch]: heading differs"),
            "{text}"
        );
        assert!(text.contains("a.md:42:5"), "{text}");
        assert!(
            !text.contains("a.md:42:5:"),
            "location printed twice: {text}"
        );
        assert!(text.contains("### aclnnFoo"), "{text}");
    }

    #[test]
    fn whole_file_diagnostics_say_so_instead_of_line_zero() {
        let d = Diagnostic::file_level(Severity::Warning, Code::NoProducts, "no products", "a.md");
        assert_eq!(render_short(&d), "a.md: warning[no-products]: no products");
        let text = render(&[d]);
        assert!(text.contains("a.md (whole file)"), "{text}");
        assert!(!text.contains(":0:"), "{text}");
    }

    #[test]
    fn caret_span_handles_wide_chars_and_overflow() {
        assert_eq!(caret_span("参数x", 3), 6..7);
        assert_eq!(caret_span("ab", 9), 1..2);
        assert_eq!(caret_span("ab", 0), 0..2);
    }
}
