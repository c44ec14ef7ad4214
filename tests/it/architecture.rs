//! The import graph of `generator/` runs one way: each stage uses only the stages before it
//! (the order of `LAYERS`, the order of `lib.rs`), nothing but `main.rs` uses the CLI, and the
//! files inside a stage import each other without a circle.
//!
//! Every `use` and every path in the code (types, calls, macros) that starts with `crate::`,
//! `super::` or `self::` is resolved to the module file it names; `#[cfg(test)]` items are left
//! out (tests may reach across, as tests do). A child module using its own folder's `mod.rs`
//! (the stage's interface) is not a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// Top-level modules, lowest first: a module may use those before it, never one after it.
const LAYERS: &[&str] = &[
    "ctype", "diag", "files", "ir", "products", "toolkit", "fixture", "programs", "read", "specs",
    "rules", "cases", "pipeline", "emit", "write", "generate", "conform", "audit", "sim", "cli",
];

type Module = Vec<String>;

fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).expect("below generator/");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read generator/") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Every path a file writes, as segments, with `use` trees flattened.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.push(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.push(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.0.push(prefix.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }

    fn push(&mut self, prefix: &[String], last: &syn::Ident) {
        let mut path = prefix.to_vec();
        if last != "self" {
            path.push(last.to_string());
        }
        self.0.push(path);
    }
}

impl<'a> Visit<'a> for Paths {
    fn visit_item(&mut self, item: &'a syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, path: &'a syn::Path) {
        self.0
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        // Paths inside macro calls (`format!("{}", crate::x::y(..))`) are tokens: read them.
        let text = mac.tokens.to_string().replace(' ', "");
        for start in ["crate::", "super::"] {
            for (at, _) in text.match_indices(start) {
                let rest = &text[at..];
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                self.0
                    .push(rest[..end].split("::").map(str::to_string).collect());
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

/// The module file a path names (the longest known prefix), resolved from `from`.
fn resolve(from: &Module, path: &[String], modules: &BTreeSet<Module>) -> Option<Module> {
    let mut abs: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => from.clone(),
        _ => return None,
    };
    let mut rest = path;
    if path[0] == "crate" {
        rest = &path[1..];
    }
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                abs.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    abs.extend(rest.iter().cloned());
    (0..=abs.len())
        .rev()
        .map(|n| abs[..n].to_vec())
        .find(|m| modules.contains(m) && !m.is_empty())
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("generator");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(&root, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let me = module_of(&root, file);
        let text = std::fs::read_to_string(file).expect("read source");
        let ast = syn::parse_file(&text).expect("parse source");
        let mut paths = Paths::default();
        paths.visit_file(&ast);
        let targets: BTreeSet<Module> = paths
            .0
            .iter()
            .filter_map(|p| resolve(&me, p, &modules))
            .filter(|t| *t != me)
            .collect();
        edges.insert(me, targets);
    }
    edges
}

fn layer(m: &Module) -> Option<usize> {
    LAYERS
        .iter()
        .position(|l| m.first().map(String::as_str) == Some(l))
}

fn show(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

#[test]
fn every_stage_uses_only_the_stages_before_it() {
    let edges = graph();
    let mut up = Vec::new();
    let mut stages: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, targets) in &edges {
        let (Some(a), false) = (layer(from), from.is_empty()) else {
            continue;
        };
        for to in targets {
            let Some(b) = layer(to) else { continue };
            if a != b {
                stages.entry(LAYERS[a]).or_default().insert(LAYERS[b]);
            }
            if b > a {
                up.push(format!("{} -> {}", show(from), show(to)));
            }
        }
    }
    let unknown: Vec<String> = edges
        .keys()
        .filter(|m| !m.is_empty() && m[0] != "main" && layer(m).is_none())
        .map(show)
        .collect();
    for (stage, uses) in &stages {
        println!(
            "{stage} -> {}",
            uses.iter().copied().collect::<Vec<_>>().join(", ")
        );
    }
    assert!(
        unknown.is_empty(),
        "modules missing from LAYERS: {unknown:?}"
    );
    assert!(
        up.is_empty(),
        "imports running back up the pipeline:\n{}",
        up.join("\n")
    );
}

#[test]
fn files_of_a_stage_import_each_other_without_a_circle() {
    let edges = graph();
    // Edges to an ancestor (a child using its folder's interface) are not counted.
    let sibling_edges: BTreeMap<&Module, Vec<&Module>> = edges
        .iter()
        .map(|(from, targets)| {
            let kept = targets.iter().filter(|t| !from.starts_with(t)).collect();
            (from, kept)
        })
        .collect();
    let mut state: BTreeMap<&Module, u8> = BTreeMap::new();
    let mut circles = Vec::new();
    fn visit<'m>(
        m: &'m Module,
        edges: &BTreeMap<&'m Module, Vec<&'m Module>>,
        state: &mut BTreeMap<&'m Module, u8>,
        stack: &mut Vec<&'m Module>,
        circles: &mut Vec<String>,
    ) {
        state.insert(m, 1);
        stack.push(m);
        for &t in edges.get(m).map(Vec::as_slice).unwrap_or(&[]) {
            match state.get(t) {
                Some(1) => {
                    let at = stack.iter().position(|s| *s == t).unwrap_or(0);
                    let names: Vec<String> = stack[at..].iter().map(|m| show(m)).collect();
                    circles.push(format!("{} -> {}", names.join(" -> "), show(t)));
                }
                None => visit(t, edges, state, stack, circles),
                _ => {}
            }
        }
        stack.pop();
        state.insert(m, 2);
    }
    for m in sibling_edges.keys() {
        if !state.contains_key(*m) {
            visit(m, &sibling_edges, &mut state, &mut Vec::new(), &mut circles);
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_checker_sees_an_import_that_runs_back_up() {
    // The checker itself: a stage that names the CLI is found, through `use`, a path in an
    // expression and a macro's tokens.
    let modules: BTreeSet<Module> = [vec!["cli".to_string()], vec!["read".to_string()]]
        .into_iter()
        .collect();
    let ast: syn::File = syn::parse_str(
        "use crate::cli::Failure; fn f() { let _ = crate::cli::run; println!(\"{}\", crate::cli::X); }",
    )
    .expect("parse");
    let mut paths = Paths::default();
    paths.visit_file(&ast);
    let from = vec!["read".to_string(), "mod_x".to_string()];
    let hits = paths
        .0
        .iter()
        .filter(|p| resolve(&from, p, &modules) == Some(vec!["cli".to_string()]))
        .count();
    assert!(hits >= 3, "{:?}", paths.0);
}

#[test]
fn lib_rs_declares_the_stages_in_layer_order() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("generator/lib.rs"))
            .expect("read lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert_eq!(
        declared, LAYERS,
        "generator/lib.rs lists the stages in another order than LAYERS"
    );
}

/// The backends of `emit`: each prints the IR for one target. What two of them need lives in a
/// module below them (`SHARED`), so no backend reaches into another.
const BACKENDS: &[&str] = &["ascend", "c_header", "case_files", "cpp", "msopgen", "rust"];
const SHARED: &[&str] = &["ident", "opdef", "render", "wrap"];

#[test]
fn no_backend_imports_another() {
    let edges = graph();
    let backend = |m: &Module| {
        (m.len() >= 2 && m[0] == "emit" && BACKENDS.contains(&m[1].as_str())).then(|| m[1].clone())
    };
    let unplaced: Vec<String> = edges
        .keys()
        .filter(|m| m.len() >= 2 && m[0] == "emit")
        .filter(|m| !BACKENDS.contains(&m[1].as_str()) && !SHARED.contains(&m[1].as_str()))
        .map(show)
        .collect();
    let sideways: Vec<String> = edges
        .iter()
        .filter_map(|(from, targets)| Some((from, backend(from)?, targets)))
        .flat_map(|(from, mine, targets)| {
            targets
                .iter()
                .filter(move |t| backend(t).is_some_and(|b| b != mine))
                .map(move |t| format!("{} -> {}", show(from), show(t)))
        })
        .collect();
    assert!(
        unplaced.is_empty(),
        "emit modules neither a backend nor shared (add them to BACKENDS or SHARED): {unplaced:?}"
    );
    assert!(
        sideways.is_empty(),
        "backends importing another backend (move what they share below them):\n{}",
        sideways.join("\n")
    );
}

/// Functions of at most this many lines: a longer one is several steps that want names. Test
/// code (`#[cfg(test)]` modules and the `tests.rs` files they name) is not held to it.
const MAX_FN_LINES: usize = 150;

/// Every function (free, in an impl or a trait) with its first and last line.
#[derive(Default)]
struct FnSpans(Vec<(String, usize, usize)>);

impl FnSpans {
    fn push(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
        self.0
            .push((name.to_string(), span.start().line, span.end().line));
    }
}

impl<'a> Visit<'a> for FnSpans {
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        // Test code (fixture tables, long scenario tests) is not held to it.
        if !is_test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        self.push(&f.sig.ident, syn::spanned::Spanned::span(f));
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
        self.push(&f.sig.ident, syn::spanned::Spanned::span(f));
        syn::visit::visit_impl_item_fn(self, f);
    }
}

#[test]
fn no_function_is_longer_than_150_lines() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&repo.join("generator"), &mut files);
    rust_files(&repo.join("runtime/src"), &mut files);
    let mut long = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
        let text = std::fs::read_to_string(file).expect("read source");
        let ast = syn::parse_file(&text).expect("parse source");
        let mut spans = FnSpans::default();
        spans.visit_file(&ast);
        for (name, start, end) in spans.0 {
            let lines = end + 1 - start;
            if lines > MAX_FN_LINES {
                let rel = file.strip_prefix(&repo).unwrap_or(file);
                long.push(format!("{}:{start} {name}: {lines} lines", rel.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{}",
        long.join("\n")
    );
}

/// Source files of at most this many lines before their `#[cfg(test)]` module: a longer one is
/// several topics that want files of their own. Test files (`tests.rs`) are not held to it.
const MAX_FILE_LINES: usize = 1000;

#[test]
fn no_source_file_is_longer_than_1000_lines_outside_its_tests() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&repo.join("generator"), &mut files);
    rust_files(&repo.join("runtime/src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter(|f| !f.ends_with("tests.rs"))
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).expect("read source");
            let lines = text
                .lines()
                .take_while(|l| !l.starts_with("#[cfg(test)]"))
                .count();
            let rel = f.strip_prefix(&repo).unwrap_or(f);
            (lines > MAX_FILE_LINES).then(|| format!("{}: {lines} lines", rel.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "source files over {MAX_FILE_LINES} lines outside their tests:\n{}",
        long.join("\n")
    );
}
