//! `aclgen conform`: CANN's own op_api unit tests as the oracle of the doc-generated validators.
//!
//! Each gtest call (`ut::read_file`) is mapped to the doc whose first-phase prototype it calls
//! (by the aclnn function name), its `INPUT(...)`/`OUTPUT(...)` arguments to the prototype's
//! parameters by position, and checked with the same `rules::validate_call` that `aclgen validate`
//! runs. The report gives agreement per op and per status code, and for each disagreement the
//! doc line of the rule that fired or the documented conditions that have no rule. Calls it
//! cannot check (unreadable test text, unmapped calls, statuses other than 0/161001/161002) are
//! counted and named with file:line.

pub mod calls;
pub mod contradictions;
pub mod drift;
mod examples;
pub mod suggest;

use crate::programs as ut;
use crate::rules::program::map_args;

pub use calls::run_calls;
pub use examples::run_examples;

use crate::ir::{Mapping, OpIr};
use aclnn_runtime::{status, Call, Product};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use ut::UtCall;

/// Why the tests, docs or overlays could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConformError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Specs(#[from] crate::specs::SpecsError),
    /// A file `conform --suggest-overlays` would replace that it did not write.
    #[error("{}: not written by conform --suggest-overlays; left as it is", .0.display())]
    NotOurs(std::path::PathBuf),
    /// A list of reviewed contradictions that is no valid YAML list of entries.
    #[error("{}:{line}: {message}", path.display())]
    List {
        path: std::path::PathBuf,
        line: usize,
        message: String,
    },
}

impl ConformError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        ConformError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The status codes the oracle compares; others are counted as skipped.
pub const CODES: [u32; 3] = [
    status::SUCCESS,
    status::PARAM_NULLPTR,
    status::PARAM_INVALID,
];

/// One checked call.
#[derive(Debug, Clone, Serialize)]
pub struct CheckedCall {
    /// `file:line` of the test's status expectation.
    pub at: String,
    pub test: String,
    pub op: String,
    pub product: String,
    pub expected: u32,
    pub got: u32,
    pub agree: bool,
    /// For a rejection: the doc condition of the rule that fired.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub condition: String,
    /// For a disagreement: where in the doc (file:line) and what.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub why: String,
    /// For a false rejection a reviewed list names (`--contradictions`): why the doc and CANN
    /// disagree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<String>,
    /// For a false rejection: what would make the validator accept it (`--suggest-overlays`).
    #[serde(skip)]
    pub widenings: Vec<suggest::Widening>,
}

/// A call or test the oracle could not check, and why.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub kind: SkipKind,
    pub at: String,
    pub test: String,
    pub reason: String,
}

/// Why a call was not checked, as reports name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipKind {
    /// Test text that was not evaluated.
    Unreadable,
    /// No doc, an argument count or kind that does not fit the prototype, a format the
    /// vocabulary lacks, an argument an earlier call may have changed.
    Unmapped,
    /// A status other than 0/161001/161002, or `EXPECT_NE`.
    Status,
    /// A call whose status no `EXPECT_EQ` checks.
    NoExpectation,
}

impl SkipKind {
    /// The name reports print (`no-expectation`).
    pub fn as_str(self) -> &'static str {
        match self {
            SkipKind::Unreadable => "unreadable",
            SkipKind::Unmapped => "unmapped",
            SkipKind::Status => "status",
            SkipKind::NoExpectation => "no-expectation",
        }
    }
}

impl std::fmt::Display for SkipKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// By name, so reports list skips in the order they did when kinds were strings.
impl Ord for SkipKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for SkipKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct Tally {
    pub agree: usize,
    pub total: usize,
}

impl Tally {
    fn add(&mut self, agree: bool) {
        self.total += 1;
        self.agree += usize::from(agree);
    }

    pub fn pct(&self) -> f64 {
        if self.total == 0 {
            100.0
        } else {
            100.0 * self.agree as f64 / self.total as f64
        }
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub files: usize,
    pub tests: usize,
    pub overall: Tally,
    /// Calls CANN accepts (expected 0) that the validator rejects, over all accepted calls.
    pub false_rejections: Tally,
    pub per_code: BTreeMap<u32, Tally>,
    pub per_op: BTreeMap<String, Tally>,
    pub cases: Vec<CheckedCall>,
    pub skipped: Vec<Skipped>,
    /// With `--headers`: docs whose prototype differs from CANN's header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<drift::DriftReport>,
    /// With `--contradictions`: the false rejections against the reviewed list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradictions: Option<contradictions::Review>,
}

impl Report {
    /// Share of accepted calls that are rejected, in percent.
    pub fn false_rejection_pct(&self) -> f64 {
        let t = self.false_rejections;
        if t.total == 0 {
            0.0
        } else {
            100.0 * (t.total - t.agree) as f64 / t.total as f64
        }
    }

    pub fn code(&self, code: u32) -> Tally {
        self.per_code.get(&code).copied().unwrap_or_default()
    }
}

/// The project's overlays (`specs/ops/*.yaml`, `kind: overlay`) applied to every op of that
/// name, so a doc the project corrects is measured corrected. Returns the overlays' problems
/// (a correction that matches nothing in one of the docs, for instance).
pub fn apply_overlays(
    ops: &mut [OpIr],
    dir: &Path,
) -> Result<Vec<crate::ir::Diagnostic>, ConformError> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ConformError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    let mut problems = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(&f).map_err(|e| ConformError::io(&f, e))?;
        match crate::specs::parse_spec(&name, &text) {
            Ok(crate::specs::SpecFile::Overlay(o)) => {
                for op in ops.iter_mut().filter(|op| op.op == o.op) {
                    problems.extend(crate::specs::apply_overlay(op, &o, &name, &text));
                }
            }
            Ok(crate::specs::SpecFile::Full(_)) => {}
            Err(d) => problems.push(d),
        }
    }
    problems.retain(|d| d.severity == crate::ir::Severity::Error);
    Ok(problems)
}

/// The ops of a specs folder (docs and overlays, reconciled as `gen` does), or of a bare folder
/// of docs read one by one, without rules: CANN keeps several implementations of one aclnn
/// function (`experimental/...`), each documented next to its own tests, and `find_op` picks the
/// doc of the test's own op folder.
pub fn load_docs(docs: &Path) -> Result<Vec<OpIr>, ConformError> {
    let ops = if docs.join("ops").is_dir() || docs.join("docs").is_dir() {
        crate::specs::load_specs(docs)?.ops
    } else {
        let files = files_below(docs, &|_| true).map_err(|e| ConformError::io(docs, e))?;
        let mut ops = Vec::new();
        for f in files {
            let bytes = std::fs::read(&f).map_err(|e| ConformError::io(&f, e))?;
            ops.extend(crate::read::read_doc(&f.display().to_string(), &bytes).ops);
        }
        ops
    };
    Ok(ops)
}

/// Reads every `*.cpp` below `tests` (sorted) and checks its calls against `ops`.
pub fn run(tests: &Path, ops: &[OpIr]) -> Result<Report, ConformError> {
    let files = files_below(tests, &|p| has_ext(p, &["cpp", "cc"]))
        .map_err(|e| ConformError::io(tests, e))?;
    let mut report = Report::default();
    for path in &files {
        let bytes = std::fs::read(path).map_err(|e| ConformError::io(path, e))?;
        let text = String::from_utf8_lossy(&bytes);
        let name = path
            .strip_prefix(tests)
            .unwrap_or(path)
            .display()
            .to_string();
        check_file(&name, &text, ops, &mut report);
    }
    report.files = files.len();
    report.skipped.sort();
    Ok(report)
}

/// Every file below `dir` (or `dir` itself, a file) that `keep` accepts, sorted.
pub(crate) fn files_below(
    dir: &Path,
    keep: &dyn Fn(&Path) -> bool,
) -> std::io::Result<Vec<std::path::PathBuf>> {
    if dir.is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    if !dir.is_dir() {
        // A tests or headers folder that is not there is a mistake, not an empty report.
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no such file or folder",
        ));
    }
    let mut files = crate::files::files_below(dir)?;
    files.retain(|p| keep(p));
    Ok(files)
}

/// Whether `path` has one of these extensions.
pub(crate) fn has_ext(path: &Path, exts: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.contains(&e))
}

/// The op folder a doc or test belongs to: the path before its `docs`/`tests` folder, or in a
/// flattened corpus the file name before `_docs_`/`_tests_`.
pub fn op_folder(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    for marker in ["_docs_", "_tests_", "_op_host_", "_op_api_"] {
        if let Some(i) = file.find(marker) {
            return file[..i].to_string();
        }
    }
    for marker in ["/docs/", "/tests/"] {
        if let Some(i) = path.find(marker) {
            let head = &path[..i];
            return head.rsplit('/').next().unwrap_or(head).to_string();
        }
    }
    String::new()
}

/// Reads one test file and adds its calls to the report.
pub fn check_file(name: &str, text: &str, ops: &[OpIr], report: &mut Report) {
    let read = ut::read_file(text);
    report.add_read(name, &read);
    for call in &read.calls {
        let at = format!("{name}:{}", call.line);
        report.add(at, check_call(call, ops, name, None));
    }
}

impl Report {
    /// Counts the tests (or example programs) of one file and names the ones it could not read.
    fn add_read(&mut self, file: &str, read: &ut::FileRead) {
        self.tests += read.tests;
        for u in &read.unreadable {
            self.skipped.push(Skipped {
                kind: SkipKind::Unreadable,
                at: format!("{file}:{}", u.line),
                test: u.test.clone(),
                reason: u.reason.clone(),
            });
        }
    }

    /// Adds one checked call, or the reason it could not be checked.
    pub(crate) fn add(&mut self, at: String, checked: Result<CheckedCall, SkipReason>) {
        let report = self;
        match checked {
            Ok(case) => {
                let case = CheckedCall { at, ..case };
                report.overall.add(case.agree);
                report
                    .per_code
                    .entry(case.expected)
                    .or_default()
                    .add(case.agree);
                report
                    .per_op
                    .entry(case.op.clone())
                    .or_default()
                    .add(case.agree);
                if case.expected == status::SUCCESS {
                    report.false_rejections.add(case.agree);
                }
                report.cases.push(case);
            }
            Err(SkipReason { kind, test, reason }) => report.skipped.push(Skipped {
                kind,
                at,
                test,
                reason,
            }),
        }
    }
}

/// Why one call is not checked: the kind of skip, the test that makes the call, and the reason
/// in words.
pub(crate) struct SkipReason {
    kind: SkipKind,
    test: String,
    reason: String,
}

/// Checks one call; `product` overrides the product the test would run on.
fn check_call(
    call: &UtCall,
    ops: &[OpIr],
    file: &str,
    product: Option<&[String]>,
) -> Result<CheckedCall, SkipReason> {
    let skip = |kind, reason| SkipReason {
        kind,
        test: call.test.clone(),
        reason,
    };
    let Some((code, name)) = call.expected.clone() else {
        return Err(skip(
            SkipKind::NoExpectation,
            format!("{}: no EXPECT_EQ checks its status", call.ut.api),
        ));
    };
    if call.ne {
        return Err(skip(
            SkipKind::Status,
            format!("EXPECT_NE(…, {name}): no single expected status"),
        ));
    }
    if !CODES.contains(&code) {
        return Err(skip(
            SkipKind::Status,
            format!("expects {name}, not a first-phase parameter status"),
        ));
    }
    let op = find_op(ops, &call.ut.api, file).ok_or_else(|| {
        skip(
            SkipKind::Unmapped,
            format!("no doc has the prototype {}GetWorkspaceSize", call.ut.api),
        )
    })?;
    let product = if let Some(named) = product {
        preferred_product(op, named)
    } else if call.soc_switched {
        soc_product(&call.soc).ok_or_else(|| {
            skip(
                SkipKind::Unmapped,
                format!("SoC {} has no product id", call.soc),
            )
        })?
    } else {
        named_product(&call.test, op).unwrap_or_else(|| crate::products::build_product(op))
    };
    let (args, opaque) = map_args(op, call).map_err(|r| skip(SkipKind::Unmapped, r.0))?;
    Ok(judge(op, product, args, &opaque, code, &call.test))
}

/// The validator's answer to one mapped call, set against the status CANN gives it.
fn judge(
    op: &OpIr,
    product: &str,
    args: BTreeMap<String, aclnn_runtime::Arg>,
    opaque: &[String],
    code: u32,
    test: &str,
) -> CheckedCall {
    let c = Call {
        product: product.to_string(),
        args,
    };
    let result = aclnn_runtime::check(&rules_for(op, opaque), &c);
    let (got, condition) = match &result {
        Ok(()) => (status::SUCCESS, String::new()),
        Err(e) => (e.code, e.condition.clone()),
    };
    let agree = got == code;
    let widenings = if code == status::SUCCESS && !agree {
        suggest::widenings(&rules_for(op, opaque), &c)
    } else {
        Vec::new()
    };
    let why = if agree {
        String::new()
    } else {
        explain(op, code, result.as_ref().err())
    };
    CheckedCall {
        at: String::new(),
        test: test.to_string(),
        op: op.op.clone(),
        product: product.to_string(),
        expected: code,
        got,
        agree,
        condition,
        why,
        contradiction: None,
        widenings,
    }
}

/// The doc of the aclnn function `api`, preferring the one in the test's own op folder.
pub(crate) fn find_op<'a>(ops: &'a [OpIr], api: &str, test_file: &str) -> Option<&'a OpIr> {
    let want = format!("{api}GetWorkspaceSize");
    let folder = op_folder(test_file);
    let mut candidates = ops
        .iter()
        .filter(|o| o.workspace_fn().is_some_and(|f| f.name == want));
    let first = candidates.clone().next();
    candidates
        .find(|o| !folder.is_empty() && o.sources.iter().any(|s| op_folder(s) == folder))
        .or(first)
}

/// The first of `named` the op supports, in build order; the build product when none is.
fn preferred_product(op: &OpIr, named: &[String]) -> &'static str {
    Product::build_order()
        .map(Product::id)
        .find(|p| named.iter().any(|n| n == p) && op.supported_products().any(|q| q == *p))
        .unwrap_or_else(|| crate::products::build_product(op))
}

/// The SoC a test names as the prefix of its name ("ascend950PR_…", "ascend910_9589_…",
/// "ascend910B2_…", "Ascend310P_…"), the CANN convention for a case written for one SoC, when the op supports it.
fn named_product(test: &str, op: &OpIr) -> Option<&'static str> {
    let p = Product::from_test_name(test)?.id();
    op.supported_products().any(|q| q == p).then_some(p)
}

/// The product id of a `SocVersion` enumerator.
pub fn soc_product(soc: &str) -> Option<&'static str> {
    Product::from_ut_soc(soc).map(Product::id)
}

/// The op's rules for a call whose `opaque` parameters got a non-null value `validate` cannot
/// take (a `char*` string the reader could not evaluate): absent from the call, they would read as null pointers, so
/// `NotNull` leaves them out (every other rule skips an absent argument anyway).
fn rules_for(op: &OpIr, opaque: &[String]) -> Vec<aclnn_runtime::CheckedRule> {
    let mut rules = op.all_rules();
    for r in &mut rules {
        if let aclnn_runtime::Rule::NotNull { params } = &mut r.rule {
            params.retain(|p| !opaque.contains(p));
        }
    }
    rules
}

/// Why the validator's answer differs from CANN's: the rule that fired (its doc line), or the
/// documented conditions of the expected code that have no rule.
fn explain(op: &OpIr, expected: u32, fired: Option<&aclnn_runtime::AclnnError>) -> String {
    let doc = op.sources.first().cloned().unwrap_or_default();
    if let Some(e) = fired {
        let at = op
            .errors
            .iter()
            .find(|c| c.condition == e.condition)
            .and_then(|c| c.source.as_ref())
            .map(|l| format!("{}:{}", l.file, l.line));
        return match at {
            Some(at) => format!("{at}: rule of \"{}\" fired: {}", e.condition, e.message),
            None => format!(
                "{}: inferred rule \"{}\" fired: {}",
                stating_param_line(op, &e.condition).unwrap_or(doc),
                e.condition,
                e.message
            ),
        };
    }
    let manual: Vec<String> = op
        .errors
        .iter()
        .filter(|c| c.code == expected)
        .filter_map(|c| {
            let reason = c.mapping.as_ref().and_then(Mapping::unread)?;
            let at = c
                .source
                .as_ref()
                .map(|l| format!("{}:{}", l.file, l.line))
                .unwrap_or_else(|| doc.clone());
            Some(format!("{at}: \"{}\" has no rule ({reason})", c.condition))
        })
        .collect();
    if manual.is_empty() {
        format!("{doc}: no documented {expected} condition rejects this call",)
    } else {
        manual.join("; ")
    }
}

/// `file:line` of the parameter row an inferred rule comes from: its condition starts with the
/// parameter's name ("self的数据类型与gradOutput不一致（参数说明）").
fn stating_param_line(op: &OpIr, condition: &str) -> Option<String> {
    let name: String = condition
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let loc = op.params.iter().find(|p| p.name == name)?.source.as_ref()?;
    Some(format!("{}:{}", loc.file, loc.line))
}

pub fn render_table(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} files, {} tests, {} calls checked, {} skipped",
        r.files,
        r.tests,
        r.overall.total,
        r.skipped.len()
    );
    let _ = writeln!(s, "agreement: {}", fmt_tally(&r.overall));
    let fr = r.false_rejections;
    let _ = writeln!(
        s,
        "false rejections: {:.1}% ({}/{} calls CANN accepts)",
        r.false_rejection_pct(),
        fr.total - fr.agree,
        fr.total
    );
    if let Some(review) = &r.contradictions {
        let _ = writeln!(
            s,
            "  reviewed doc contradictions ({}): {}",
            review.list,
            review.counts()
        );
    }
    for (code, t) in &r.per_code {
        let _ = writeln!(
            s,
            "  {code:>6} {:<24} {}",
            status::name(*code),
            fmt_tally(t)
        );
    }
    let _ = writeln!(s, "\nper op:");
    for (op, t) in &r.per_op {
        let _ = writeln!(s, "  {op:<40} {}", fmt_tally(t));
    }
    let _ = writeln!(s, "\ndisagreements:");
    for c in r.cases.iter().filter(|c| !c.agree) {
        let _ = writeln!(
            s,
            "  {} {} [{}] {}: expected {}, got {}\n      {}",
            c.at, c.test, c.product, c.op, c.expected, c.got, c.why
        );
        if let Some(note) = &c.contradiction {
            let _ = writeln!(s, "      reviewed doc contradiction: {note}");
        }
    }
    if let Some(review) = &r.contradictions {
        for (what, lines) in [
            (
                "false rejections the reviewed list does not name",
                &review.unreviewed,
            ),
            (
                "reviewed entries no false rejection matches any more",
                &review.stale,
            ),
        ] {
            if !lines.is_empty() {
                let _ = writeln!(s, "\n{what}:");
                for l in lines {
                    let _ = writeln!(s, "  {l}");
                }
            }
        }
    }
    let _ = writeln!(s, "\nskipped:");
    for k in &r.skipped {
        let _ = writeln!(s, "  {} {} {}: {}", k.kind, k.at, k.test, k.reason);
    }
    if let Some(d) = &r.drift {
        let _ = writeln!(
            s,
            "\ndrift: {} of {} docs have a first-phase prototype that differs from CANN's header",
            d.drifts.len(),
            d.compared
        );
        for x in &d.drifts {
            let _ = writeln!(s, "  {} ({} in {}):", x.doc, x.function, x.header);
            for diff in &x.differences {
                let _ = writeln!(s, "      {diff}");
            }
        }
    }
    s
}

pub fn render_markdown(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Agreement with CANN's unit tests\n");
    let _ = writeln!(
        s,
        "{} files, {} tests, {} calls checked, {} skipped.\n",
        r.files,
        r.tests,
        r.overall.total,
        r.skipped.len()
    );
    let _ = writeln!(s, "| status | agreement |\n| --- | --- |");
    let _ = writeln!(s, "| all | {} |", fmt_tally(&r.overall));
    for (code, t) in &r.per_code {
        let _ = writeln!(s, "| {code} {} | {} |", status::name(*code), fmt_tally(t));
    }
    let fr = r.false_rejections;
    let _ = writeln!(
        s,
        "\nFalse rejections: {:.1}% ({}/{}).\n",
        r.false_rejection_pct(),
        fr.total - fr.agree,
        fr.total
    );
    if let Some(review) = &r.contradictions {
        let _ = writeln!(
            s,
            "Reviewed doc contradictions (`{}`): {}.\n",
            review.list,
            review.counts()
        );
    }
    let _ = writeln!(s, "| op | agreement |\n| --- | --- |");
    for (op, t) in &r.per_op {
        let _ = writeln!(s, "| {op} | {} |", fmt_tally(t));
    }
    let _ = writeln!(s, "\n## Disagreements\n\n| test | op | expected | got | why |\n| --- | --- | --- | --- | --- |");
    for c in r.cases.iter().filter(|c| !c.agree) {
        let _ = writeln!(
            s,
            "| {} {} | {} | {} | {} | {} |",
            c.at,
            c.test,
            c.op,
            c.expected,
            c.got,
            c.why.replace('|', "\\|")
        );
    }
    let _ = writeln!(
        s,
        "\n## Skipped\n\n| kind | where | reason |\n| --- | --- | --- |"
    );
    for k in &r.skipped {
        let _ = writeln!(
            s,
            "| {} | {} {} | {} |",
            k.kind,
            k.at,
            k.test,
            k.reason.replace('|', "\\|")
        );
    }
    if let Some(d) = &r.drift {
        let _ = writeln!(
            s,
            "\n## Drift\n\n{} of {} docs differ from CANN's header.\n\n| doc | function | difference |\n| --- | --- | --- |",
            d.drifts.len(),
            d.compared
        );
        for x in &d.drifts {
            for diff in &x.differences {
                let _ = writeln!(s, "| {} | {} | {} |", x.doc, x.function, diff);
            }
        }
    }
    s
}

fn fmt_tally(t: &Tally) -> String {
    format!("{:.1}% ({}/{})", t.pct(), t.agree, t.total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skip kinds are named as reports always named them, and sort by that name.
    #[test]
    fn skip_kinds_read_and_sort_by_name() {
        let json = serde_json::to_string(&SkipKind::NoExpectation).unwrap();
        assert_eq!(json, "\"no-expectation\"");
        let mut kinds = [
            SkipKind::Unreadable,
            SkipKind::Unmapped,
            SkipKind::Status,
            SkipKind::NoExpectation,
        ];
        kinds.sort();
        let names: Vec<String> = kinds.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["no-expectation", "status", "unmapped", "unreadable"]
        );
    }
    use crate::ir::{CParam, CType, ErrorCase, Function, Param, Role};

    fn op() -> OpIr {
        let cp = |n: &str, t: &str| CParam {
            name: n.into(),
            ty: t.into(),
        };
        let p = |n: &str, role, t: &str| Param {
            name: n.into(),
            role,
            ty: t.into(),
            dtypes: if role.is_tensor() {
                [("ascend910b".into(), vec![aclnn_runtime::DType::Float32])]
                    .into_iter()
                    .collect()
            } else {
                Default::default()
            },
            ..Default::default()
        };
        let mut op = OpIr {
            op: "Foo".into(),
            products: [("ascend910b".into(), true)].into_iter().collect(),
            functions: vec![Function {
                name: "aclnnFooGetWorkspaceSize".into(),
                return_type: "aclnnStatus".into(),
                params: vec![
                    cp("self", "const aclTensor*"),
                    cp("alpha", "const aclScalar*"),
                    cp("out", "aclTensor*"),
                    cp("workspaceSize", "uint64_t*"),
                    cp("executor", "aclOpExecutor**"),
                ],
                source: None,
            }],
            params: vec![
                p("self", Role::InputTensor, "const aclTensor*"),
                p("alpha", Role::Attribute, "const aclScalar*"),
                p("out", Role::OutputTensor, "aclTensor*"),
                p("workspaceSize", Role::WorkspaceSize, "uint64_t*"),
                p("executor", Role::Executor, "aclOpExecutor**"),
            ],
            errors: vec![
                ErrorCase {
                    code: 161001,
                    name: "ACLNN_ERR_PARAM_NULLPTR".into(),
                    condition: "传入的self、out是空指针。".into(),
                    ..Default::default()
                },
                ErrorCase {
                    code: 161002,
                    name: "ACLNN_ERR_PARAM_INVALID".into(),
                    condition: "self和out的数据类型不在支持的范围之内。".into(),
                    ..Default::default()
                },
            ],
            sources: vec!["docs/aclnnFoo.md".into()],
            ..Default::default()
        };
        crate::rules::apply(&mut op);
        op
    }

    const TESTS: &str = r#"
class t : public testing::Test {};
TEST_F(t, ok) {
    auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnFoo, INPUT(s, ScalarDesc(1.0f)), OUTPUT(s));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
}
TEST_F(t, null_self) {
    auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnFoo, INPUT((aclTensor*)nullptr, ScalarDesc(1.0f)), OUTPUT(s));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_ERR_PARAM_NULLPTR);
}
TEST_F(t, bad_dtype_accepted_by_cann) {
    auto s = TensorDesc({2}, ACL_INT8, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnFoo, INPUT(s, ScalarDesc(1.0f)), OUTPUT(s));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
}
TEST_F(t, other_status) {
    auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
    auto ut = OP_API_UT(aclnnFoo, INPUT(s, ScalarDesc(1.0f)), OUTPUT(s));
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_ERR_INNER);
}
TEST_F(t, unmapped) {
    auto ut = OP_API_UT(aclnnBar, INPUT(), OUTPUT());
    uint64_t ws = 0;
    EXPECT_EQ(ut.TestGetWorkspaceSize(&ws), ACLNN_SUCCESS);
}
TEST_F(t, unreadable) {
    while (true) {}
}
"#;

    #[test]
    fn agreement_per_code_and_every_skip_named() {
        let mut r = Report::default();
        check_file("t.cpp", TESTS, &[op()], &mut r);
        assert_eq!(r.tests, 6);
        assert_eq!(r.overall, Tally { agree: 2, total: 3 });
        assert_eq!(r.code(0), Tally { agree: 1, total: 2 });
        assert_eq!(r.code(161001), Tally { agree: 1, total: 1 });
        assert!((r.false_rejection_pct() - 50.0).abs() < 1e-9);
        let bad = r.cases.iter().find(|c| !c.agree).unwrap();
        assert_eq!(bad.at, "t.cpp:19");
        assert_eq!(bad.got, 161002);
        assert!(
            bad.why.contains("数据类型不在支持的范围之内"),
            "{}",
            bad.why
        );
        let kinds: Vec<(&str, &str)> = r
            .skipped
            .iter()
            .map(|s| (s.kind.as_str(), s.at.as_str()))
            .collect();
        assert!(kinds.contains(&("status", "t.cpp:25")), "{kinds:?}");
        assert!(kinds.contains(&("unmapped", "t.cpp:30")), "{kinds:?}");
        assert!(kinds.contains(&("unreadable", "t.cpp:33")), "{kinds:?}");
    }

    /// `op()` with a string attribute `mode` (`const char*`) second, stating `constraints`.
    fn with_mode(constraints: &[&str]) -> OpIr {
        let mut op = op();
        let ty = CType::from("const char*");
        op.functions[0].params.insert(
            1,
            CParam {
                name: "mode".into(),
                ty: ty.clone(),
            },
        );
        op.params.insert(
            1,
            Param {
                name: "mode".into(),
                role: Role::Attribute,
                ty,
                constraints: constraints.iter().map(|c| c.to_string()).collect(),
                ..Default::default()
            },
        );
        op
    }

    #[test]
    fn a_string_argument_is_not_a_null_pointer() {
        let mut op = with_mode(&[]);
        op.errors[0].condition = "传入的self、mode、out是空指针。".into();
        op.errors[0].mapping = None;
        crate::rules::apply(&mut op);
        let t = r#"
TEST_F(t, given) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND); const char* m = "rint";
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, m, ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS); }
TEST_F(t, null) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, nullptr, ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_ERR_PARAM_NULLPTR); }
"#;
        let mut r = Report::default();
        check_file("x.cpp", t, &[op], &mut r);
        assert_eq!(r.overall, Tally { agree: 2, total: 2 }, "{:?}", r.cases);
    }

    #[test]
    fn string_arguments_are_checked_against_the_listed_values() {
        let mut op = with_mode(&[r#"支持"rint"、"round""#]);
        op.errors[1].condition = "mode不在支持的范围之内。".into();
        op.errors[1].mapping = None;
        crate::rules::apply(&mut op);
        // A literal argument, a `char*` variable holding one, and a bad value of each kind; a
        // value the reader cannot evaluate stays unchecked.
        let t = r#"
TEST_F(t, literal) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, "round", ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS); }
TEST_F(t, variable) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND); const char* m = "rint";
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, m, ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS); }
TEST_F(t, bad_literal) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, "floor", ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_ERR_PARAM_INVALID); }
TEST_F(t, bad_variable) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND); char* m = "RINT";
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, m, ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_ERR_PARAM_INVALID); }
TEST_F(t, opaque) { auto s = TensorDesc({2}, ACL_FLOAT, ACL_FORMAT_ND);
  auto ut = OP_API_UT(aclnnFoo, INPUT(s, Unknown(), ScalarDesc(1.0f)), OUTPUT(s)); uint64_t w;
  EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS); }
"#;
        let mut r = Report::default();
        check_file("x.cpp", t, &[op], &mut r);
        assert_eq!(r.overall, Tally { agree: 5, total: 5 }, "{:?}", r.cases);
    }

    #[test]
    fn op_folder_of_flattened_and_real_paths() {
        assert_eq!(
            op_folder("d/activation_elu_docs_aclnnElu.md"),
            "activation_elu"
        );
        assert_eq!(
            op_folder("activation_elu_tests_ut_op_api_test.cpp"),
            "activation_elu"
        );
        assert_eq!(op_folder("ops-nn/activation/elu/docs/aclnnElu.md"), "elu");
        assert_eq!(op_folder("elu/tests/ut/op_host/test.cpp"), "elu");
        assert_eq!(op_folder("x.md"), "");
        assert_eq!(
            op_folder("../corpus/ops-nn/docs/quant_x_v2_docs_aclnnX.md"),
            "quant_x_v2"
        );
    }

    #[test]
    fn argument_count_mismatch_is_unmapped_not_guessed() {
        let mut r = Report::default();
        let t = "TEST_F(t, x) { auto ut = OP_API_UT(aclnnFoo, INPUT(TensorDesc({1}, ACL_FLOAT, ACL_FORMAT_ND)), OUTPUT()); uint64_t w; EXPECT_EQ(ut.TestGetWorkspaceSize(&w), ACLNN_SUCCESS); }";
        check_file("x.cpp", t, &[op()], &mut r);
        assert_eq!(r.overall.total, 0);
        assert!(
            r.skipped[0].reason.contains("passes 1 arguments"),
            "{:?}",
            r.skipped
        );
        let table = render_table(&r);
        assert!(table.contains("unmapped x.cpp:1"), "{table}");
    }
}
