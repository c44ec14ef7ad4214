//! Several descriptions of one op (docs of two formats, a full spec) reconciled into one IR,
//! every difference reported.

use crate::diag::Code;
use crate::ir::{CParam, Diagnostic, ErrorCase, Function, Loc, OpIr, Param, ProductId, Severity};
use aclnn_runtime::DType;
use std::collections::{BTreeMap, BTreeSet};

/// One op as one source describes it.
pub(super) struct Candidate {
    pub op: OpIr,
    pub file: String,
    /// The doc uses the newer format (HTML tables, `<term>` tags, `npu` markers).
    pub newer_format: bool,
    pub full_spec: bool,
    /// First line naming each product, for reports on products (the IR has no product lines).
    pub product_lines: BTreeMap<String, usize>,
}

/// Groups candidates by op name and reconciles each group into one IR.
pub(crate) fn merge_candidates(
    candidates: Vec<Candidate>,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, OpIr> {
    use rayon::prelude::*;
    let mut groups: BTreeMap<String, Vec<Candidate>> = BTreeMap::new();
    for c in candidates {
        groups.entry(c.op.op.clone()).or_default().push(c);
    }
    // Ops are reconciled independently (one described twice re-reads its docs): on all cores,
    // then folded in name order.
    let merged: Vec<(String, Option<OpIr>, Vec<Diagnostic>)> = groups
        .into_par_iter()
        .map(|(name, group)| {
            let mut diags = Vec::new();
            let op = merge_group(&name, group, &mut diags);
            (name, op, diags)
        })
        .collect();
    let mut ops = BTreeMap::new();
    for (name, op, diags) in merged {
        diagnostics.extend(diags);
        if let Some(op) = op {
            ops.insert(name, op);
        }
    }
    ops
}

fn merge_group(
    name: &str,
    group: Vec<Candidate>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<OpIr> {
    let (docs, mut fulls): (Vec<Candidate>, Vec<Candidate>) =
        group.into_iter().partition(|c| !c.full_spec);
    // A full spec stands alone: for an op a doc describes, an overlay is the way to correct it.
    let pool = if docs.is_empty() && !fulls.is_empty() {
        vec![fulls.remove(0)]
    } else {
        docs
    };
    let conflicts: Vec<Diagnostic> = fulls
        .iter()
        .map(|extra| {
            Diagnostic::file_level(
                Severity::Error,
                Code::SpecConflict,
                format!(
                    "full spec for `{name}` conflicts with {}; correct a doc with an overlay",
                    pool.first().map_or("another spec", |c| c.file.as_str())
                ),
                &extra.file,
            )
        })
        .collect();
    let mut op = reconcile(pool);
    // The conflict is the op's: gen refuses it and keeps its files from the last good run,
    // instead of regenerating them from the doc alone.
    match op.as_mut() {
        Some(op) => {
            op.diagnostics.extend(conflicts);
            // The conflicting spec is an input of the op too: editing it may resolve the conflict.
            op.sources.extend(fulls.into_iter().map(|c| c.file));
        }
        None => diagnostics.extend(conflicts),
    }
    op
}

fn supported(op: &OpIr) -> BTreeSet<&str> {
    op.supported_products().collect()
}

/// Whether `a` should win over `b` (see specs/README.md): a strict superset of supported
/// products wins; else the newer doc format; else more supported products; else the later file.
fn wins_over(a: &Candidate, b: &Candidate) -> bool {
    let (sa, sb) = (supported(&a.op), supported(&b.op));
    if sa != sb {
        if sa.is_superset(&sb) {
            return true;
        }
        if sb.is_superset(&sa) {
            return false;
        }
    }
    (a.newer_format, sa.len(), &a.file) > (b.newer_format, sb.len(), &b.file)
}

/// Reconciles the docs of one op: the winning doc's facts stand, the others fill its gaps, and
/// each differing fact is a `docs-differ` warning naming both files.
fn reconcile(mut pool: Vec<Candidate>) -> Option<OpIr> {
    if pool.len() > 1 {
        for c in pool
            .iter_mut()
            .filter(|c| !c.full_spec && c.product_lines.is_empty())
        {
            c.product_lines = std::fs::read(&c.file)
                .map(|b| product_lines(&b))
                .unwrap_or_default();
        }
    }
    let best = (0..pool.len()).reduce(|best, i| {
        if wins_over(&pool[i], &pool[best]) {
            i
        } else {
            best
        }
    })?;
    let winner = pool.remove(best);
    let mut op = winner.op;
    for other in pool {
        merge_into(
            &mut op,
            (&winner.file, &winner.product_lines),
            other.op,
            (&other.file, &other.product_lines),
        );
    }
    Some(op)
}

fn loc_text(file: &str, source: &Option<Loc>) -> String {
    match source {
        Some(loc) if loc.line > 0 => format!("{}:{}", loc.file, loc.line),
        _ => file.to_string(),
    }
}

struct Differ<'a> {
    win_file: &'a str,
    other_file: &'a str,
    win_products: &'a BTreeMap<String, usize>,
    other_products: &'a BTreeMap<String, usize>,
    diags: Vec<Diagnostic>,
}

impl Differ<'_> {
    /// Where the winning doc and the other one name product `id`.
    fn product_locs(&self, id: &str) -> (Option<Loc>, Option<Loc>) {
        let loc = |file: &str, lines: &BTreeMap<String, usize>| {
            lines.get(id).map(|&line| Loc {
                file: file.to_string(),
                line,
                column: 0,
            })
        };
        (
            loc(self.win_file, self.win_products),
            loc(self.other_file, self.other_products),
        )
    }

    fn report(&mut self, what: &str, win: (&Option<Loc>, String), other: (&Option<Loc>, String)) {
        let line = win.0.as_ref().map_or(0, |l| l.line);
        let file = win
            .0
            .as_ref()
            .map_or(self.win_file, |l| l.file.as_str())
            .to_string();
        self.diags.push(Diagnostic::at(
            Severity::Warning,
            Code::DocsDiffer,
            format!(
                "docs differ on {what}: {} says {}, {} says {}; kept {}",
                loc_text(self.win_file, win.0),
                win.1,
                loc_text(self.other_file, other.0),
                other.1,
                self.win_file
            ),
            &file,
            line,
            0,
            "",
        ));
    }
}

fn show<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

fn dtype_list(list: &[DType]) -> String {
    let names: Vec<&str> = list.iter().map(|d| d.as_str()).collect();
    format!("[{}]", names.join(", "))
}

/// Merges `other` (a losing doc) into `op` (the winner's IR).
fn merge_into(
    op: &mut OpIr,
    (win_file, win_products): (&str, &BTreeMap<String, usize>),
    other: OpIr,
    (other_file, other_products): (&str, &BTreeMap<String, usize>),
) {
    let mut d = Differ {
        win_file,
        other_file,
        win_products,
        other_products,
        diags: Vec::new(),
    };
    let none = &None;
    let winner_products = op.products.clone();
    for (id, ok) in &other.products {
        let (mine_at, theirs_at) = d.product_locs(id);
        match op.products.get(id) {
            Some(mine) if mine != ok => d.report(
                &format!("support of product {id}"),
                (&mine_at, mine.to_string()),
                (&theirs_at, ok.to_string()),
            ),
            Some(_) => {}
            None => {
                d.report(
                    &format!("product {id}"),
                    (&mine_at, "nothing".into()),
                    (&theirs_at, ok.to_string()),
                );
                op.products.insert(id.clone(), *ok);
            }
        }
    }
    for (id, mine) in &winner_products {
        if !other.products.contains_key(id) {
            let (mine_at, theirs_at) = d.product_locs(id);
            d.report(
                &format!("product {id}"),
                (&mine_at, mine.to_string()),
                (&theirs_at, "nothing".into()),
            );
        }
    }
    if op.description.is_empty() {
        op.description = other.description;
    }
    if op.formula.is_none() {
        op.formula = other.formula;
    }
    match (&op.header, &other.header) {
        (None, _) => op.header = other.header,
        (Some(a), Some(b)) if a != b => d.report("header", (none, a.clone()), (none, b.clone())),
        _ => {}
    }
    if op.example.is_none() {
        op.example = other.example;
    }
    if op.constraints.is_empty() {
        op.constraints = other.constraints;
    }
    merge_functions(op, other.functions, &mut d);
    merge_params(op, &winner_products, other.params, &mut d);
    merge_errors(op, other.errors, &mut d);
    for s in other.sources {
        if !op.sources.contains(&s) {
            op.sources.push(s);
        }
    }
    op.diagnostics.extend(other.diagnostics);
    op.diagnostics.extend(d.diags);
}

fn merge_functions(op: &mut OpIr, others: Vec<Function>, d: &mut Differ) {
    for f in others {
        match op.functions.iter().find(|g| g.name == f.name) {
            Some(g) => {
                if g.return_type != f.return_type {
                    d.report(
                        &format!("the return type of {}", f.name),
                        (&g.source, show(&g.return_type)),
                        (&f.source, show(&f.return_type)),
                    );
                }
                if g.params != f.params {
                    let sig = |ps: &[CParam]| {
                        let parts: Vec<String> =
                            ps.iter().map(|p| format!("{} {}", p.ty, p.name)).collect();
                        format!("({})", parts.join(", "))
                    };
                    d.report(
                        &format!("the parameters of {}", f.name),
                        (&g.source, sig(&g.params)),
                        (&f.source, sig(&f.params)),
                    );
                }
            }
            None => op.functions.push(f),
        }
    }
}

fn merge_params(
    op: &mut OpIr,
    winner_products: &BTreeMap<ProductId, bool>,
    others: Vec<Param>,
    d: &mut Differ,
) {
    for o in &others {
        if op.param(&o.name).is_none() {
            d.report(
                &format!("parameter {}", o.name),
                (&None, "nothing".into()),
                (&o.source, "a parameter".into()),
            );
        }
    }
    for p in op.params.iter_mut() {
        let Some(o) = others.iter().find(|o| o.name == p.name) else {
            d.report(
                &format!("parameter {}", p.name),
                (&p.source, "a parameter".into()),
                (&None, "nothing".into()),
            );
            continue;
        };
        merge_param(p, o, winner_products, d);
    }
}

fn merge_param(
    p: &mut Param,
    o: &Param,
    winner_products: &BTreeMap<ProductId, bool>,
    d: &mut Differ,
) {
    let name = p.name.clone();
    for (product, list) in &o.dtypes {
        match p.dtypes.get(product) {
            Some(mine) if !same_set(mine, list) => d.report(
                &format!("{name} dtypes on {product}"),
                (&p.source, dtype_list(mine)),
                (&o.source, dtype_list(list)),
            ),
            Some(_) => {}
            // Only for products the winning doc does not describe at all.
            None if !winner_products.contains_key(product) => {
                p.dtypes.insert(product.clone(), list.clone());
            }
            None => {}
        }
    }
    if !p.formats.is_empty() && !o.formats.is_empty() && !same_set(&p.formats, &o.formats) {
        d.report(
            &format!("{name} formats"),
            (&p.source, show(&p.formats)),
            (&o.source, show(&o.formats)),
        );
    }
    let sources = (&p.source, &o.source);
    report_option(&p.rank, &o.rank, &format!("{name} rank"), sources, d);
    let what = format!("{name} non-contiguous support");
    report_option(&p.non_contiguous, &o.non_contiguous, &what, sources, d);
    let what = format!("{name} empty-tensor support");
    report_option(&p.empty_tensor, &o.empty_tensor, &what, sources, d);
    if p.optional != o.optional {
        d.report(
            &format!("whether {name} is optional"),
            (&p.source, p.optional.to_string()),
            (&o.source, o.optional.to_string()),
        );
    }
    fill_empty(p, o);
}

/// Fields the loser does not fill from its own: provenance stays the winner's, and dtypes merge
/// per product (`merge_param`).
const NOT_FILLED: [&str; 2] = ["source", "dtypes"];

/// Every field the winner leaves empty comes from the loser. The IR serializes a field only when
/// it holds something, so "empty" is "absent from the winner's mapping", for every field by its
/// name: a field added to `Param` merges with no code here.
fn fill_empty(p: &mut Param, o: &Param) {
    use serde_yaml::Value;
    let filled = || -> Option<Param> {
        let Value::Mapping(mut mine) = serde_yaml::to_value(&*p).ok()? else {
            return None;
        };
        let Value::Mapping(theirs) = serde_yaml::to_value(o).ok()? else {
            return None;
        };
        for (key, value) in theirs {
            let filled_here = key.as_str().is_some_and(|k| !NOT_FILLED.contains(&k));
            if filled_here && !mine.contains_key(&key) {
                mine.insert(key, value);
            }
        }
        serde_yaml::from_value(Value::Mapping(mine)).ok()
    };
    // A Param always round-trips through its own serialization; were it ever not to, the
    // winner's parameter stays as it is rather than half-filled.
    if let Some(param) = filled() {
        *p = param;
    }
}

/// Docs list dtypes and formats in different orders; only the set is a fact.
fn same_set<T: Ord + Clone>(a: &[T], b: &[T]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a.dedup();
    b.dedup();
    a == b
}

/// Two values where both sources give one and they differ are a difference to report (one
/// given alone fills in, `fill_empty`).
fn report_option<T: PartialEq + std::fmt::Debug>(
    mine: &Option<T>,
    other: &Option<T>,
    what: &str,
    sources: (&Option<Loc>, &Option<Loc>),
    d: &mut Differ,
) {
    if let (Some(a), Some(b)) = (mine, other) {
        if a != b {
            d.report(what, (sources.0, show(a)), (sources.1, show(b)));
        }
    }
}

fn merge_errors(op: &mut OpIr, others: Vec<ErrorCase>, d: &mut Differ) {
    if op.errors.is_empty() {
        op.errors = others;
        return;
    }
    let count = |errors: &[ErrorCase]| {
        let mut by_code: BTreeMap<u32, (usize, Option<Loc>)> = BTreeMap::new();
        for e in errors {
            let entry = by_code.entry(e.code).or_insert((0, e.source.clone()));
            entry.0 += 1;
        }
        by_code
    };
    let (mine, theirs) = (count(&op.errors), count(&others));
    let codes: BTreeSet<u32> = mine.keys().chain(theirs.keys()).copied().collect();
    for code in codes {
        let (a, la) = mine.get(&code).cloned().unwrap_or((0, None));
        let (b, lb) = theirs.get(&code).cloned().unwrap_or((0, None));
        if a != b {
            d.report(
                &format!("error {code}"),
                (&la, format!("{a} condition(s)")),
                (&lb, format!("{b} condition(s)")),
            );
        }
    }
}

/// 1-based line where each product is first named in a doc.
pub(super) fn product_lines(bytes: &[u8]) -> BTreeMap<String, usize> {
    let text = crate::read::decode::decode(bytes).text;
    let mut lines = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        for found in crate::products::find_products(line) {
            lines.entry(found.id.into()).or_insert(n + 1);
        }
    }
    lines
}

/// The newer CANN doc format: HTML parameter tables, `<term>` product tags, `npu` markers.
pub(super) fn is_newer_format(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"<table") || has(b"npu=\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specs::testing::*;
    // --- reconciling two docs -----------------------------------------------------------

    /// 003 (older markdown) and 004 (newer, HTML tables) of AvgPool2dBackward, in miniature.
    fn two_docs() -> (OpIr, OpIr) {
        let mut old = sample_op("AvgPool2dBackward", "003.txt");
        old.products = [
            ("ascend910", true),
            ("ascend910b", true),
            ("ascend310b", false),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v))
        .collect();
        old.params = vec![tensor(
            "self",
            "003.txt",
            40,
            &[
                ("ascend910", &[DType::Float16, DType::Float32]),
                (
                    "ascend910b",
                    &[DType::BFloat16, DType::Float16, DType::Float32],
                ),
            ],
        )];
        old.params[0].rank = Some(Rank { min: 3, max: 4 });
        old.header = Some("aclnn_avgpool2d_backward.h".into());
        let mut new = sample_op("AvgPool2dBackward", "004.txt");
        new.products = [
            ("ascend910", true),
            ("ascend910b", true),
            ("ascend950", true),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v))
        .collect();
        new.params = vec![tensor(
            "self",
            "004.txt",
            90,
            &[
                ("ascend910", &[DType::Float16, DType::Float32]),
                ("ascend910b", &[DType::Float16, DType::Float32]),
                (
                    "ascend950",
                    &[DType::BFloat16, DType::Float16, DType::Float32],
                ),
            ],
        )];
        new.errors.pop();
        (old, new)
    }

    #[test]
    fn two_docs_of_one_op_are_reconciled_and_differences_reported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (old, new) = two_docs();
        write(dir.path(), "docs/003.txt", &doc_json(&[old]));
        write(dir.path(), "docs/004.txt", &doc_json(&[new]));
        let specs = load_specs_with(dir.path(), &json_reader).expect("loads");
        assert_eq!(specs.ops.len(), 1);
        let op = &specs.ops[0];
        // 004 names a strict superset of supported products: it wins.
        assert!(op.sources[0].ends_with("004.txt"), "{:?}", op.sources);
        assert!(op.sources[1].ends_with("003.txt"));
        // Products only 003 names are filled in.
        assert_eq!(op.products.get("ascend310b"), Some(&false));
        let p = &op.params[0];
        // ascend910b is described by both: the winner's list stands, the difference is reported.
        assert_eq!(p.dtypes["ascend910b"], [DType::Float16, DType::Float32]);
        // The loser fills gaps: rank, header, the second error row.
        assert_eq!(p.rank, Some(Rank { min: 3, max: 4 }));
        assert_eq!(op.header.as_deref(), Some("aclnn_avgpool2d_backward.h"));
        let differ: Vec<&Diagnostic> = op
            .diagnostics
            .iter()
            .filter(|d| d.code == "docs-differ")
            .collect();
        let dtype_note = differ
            .iter()
            .find(|d| d.message.contains("self dtypes on ascend910b"))
            .expect("dtype difference reported");
        assert!(
            dtype_note.message.contains("004.txt:90"),
            "{}",
            dtype_note.message
        );
        assert!(
            dtype_note.message.contains("003.txt:40"),
            "{}",
            dtype_note.message
        );
        assert_eq!((dtype_note.file.as_str(), dtype_note.line), ("004.txt", 90));
        assert!(differ
            .iter()
            .any(|d| d.message.contains("product ascend950")));
        assert!(differ
            .iter()
            .any(|d| d.message.contains("product ascend310b")));
        assert!(differ.iter().any(|d| d.message.contains("error 161002")));
        assert!(differ.iter().all(|d| d.severity == Severity::Warning));
    }

    #[test]
    fn losing_doc_fills_dtypes_only_for_products_the_winner_does_not_name() {
        let (mut old, new) = two_docs();
        old.products.insert("ascend310p".into(), true);
        old.params[0]
            .dtypes
            .insert("ascend310p".into(), vec![DType::Float16]);
        let mut new = new;
        // The winner names ascend910 but gives self no dtypes there: not filled from the loser.
        new.params[0].dtypes.remove("ascend910");
        let pool = vec![
            Candidate {
                op: old,
                file: "003.txt".into(),
                newer_format: false,
                full_spec: false,
                product_lines: BTreeMap::new(),
            },
            Candidate {
                op: new,
                file: "004.txt".into(),
                newer_format: true,
                full_spec: false,
                product_lines: BTreeMap::new(),
            },
        ];
        let op = reconcile(pool).expect("one op");
        let p = &op.params[0];
        assert_eq!(p.dtypes.get("ascend310p"), Some(&vec![DType::Float16]));
        assert!(!p.dtypes.contains_key("ascend910"));
    }

    #[test]
    fn the_loser_fills_every_field_the_winner_leaves_empty_and_differences_are_reported() {
        let (mut old, new) = two_docs();
        let p = &mut old.params[0];
        p.description = "loser".into();
        p.shapes = vec![vec!["N".into(), "C".into()]];
        p.non_contiguous = Some(true);
        p.optional = true;
        let winner = new.params[0].clone();
        let no_lines = BTreeMap::new();
        let mut d = Differ {
            win_file: "004.txt",
            other_file: "003.txt",
            win_products: &no_lines,
            other_products: &no_lines,
            diags: Vec::new(),
        };
        let mut merged = winner.clone();
        merge_param(&mut merged, &old.params[0], &new.products, &mut d);
        assert_eq!(merged.description, "loser");
        assert_eq!(merged.shapes, old.params[0].shapes);
        assert_eq!(merged.non_contiguous, Some(true));
        // What the winner gives stays: its optionality (reported), its provenance.
        assert_eq!((merged.optional, &merged.source), (false, &winner.source));
        assert!(d
            .diags
            .iter()
            .any(|n| n.message.contains("whether self is optional")));
    }

    #[test]
    fn newer_format_is_recognised_from_the_bytes() {
        assert!(is_newer_format(b"- **x**\n  <table style=\"a\"><tr>"));
        assert!(is_newer_format(b"<!-- npu=\"A3,910b\" -->"));
        assert!(!is_newer_format(b"- self(aclTensor*, \xe8\xae\xa1)"));
    }

    #[test]
    fn winner_rule_superset_then_format_then_count_then_file() {
        let cand = |products: &[&str], newer: bool, file: &str| Candidate {
            op: OpIr {
                products: products.iter().map(|p| ((*p).into(), true)).collect(),
                ..OpIr::default()
            },
            file: file.into(),
            newer_format: newer,
            full_spec: false,
            product_lines: BTreeMap::new(),
        };
        // Superset beats newer format.
        assert!(wins_over(
            &cand(&["a", "b"], false, "1"),
            &cand(&["a"], true, "2")
        ));
        // Neither a superset: newer format wins.
        assert!(wins_over(
            &cand(&["a"], true, "1"),
            &cand(&["b", "c"], false, "2")
        ));
        // Same format: more products.
        assert!(wins_over(
            &cand(&["b", "c"], false, "1"),
            &cand(&["a"], false, "2")
        ));
        // Equal: later file.
        assert!(wins_over(
            &cand(&["a"], false, "2"),
            &cand(&["a"], false, "1")
        ));
        assert!(!wins_over(
            &cand(&["a"], false, "1"),
            &cand(&["a"], false, "2")
        ));
    }
}
