//! Corpus benchmark: read+parse, lint and gen over ../shared/corpus, each reported as a ratio to a
//! bare pulldown-cmark pass over the same files measured in the same run (machines here are
//! shared and noisy, so only ratios are comparable). Each phase alternates with its bare pass round by
//! round and reports the median of the per-round ratios, so both meet the same neighbours.
//!
//! Run: `cargo build --release && cargo bench --bench corpus` (add `-- --quick` for fewer rounds,
//! `-- lint` for only the rows whose name contains "lint").
//! The bare pass runs on one thread, as "just reading the docs" does; aclgen's `lint` and `gen`
//! use every core (rayon), as they do from the command line.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use aclgen::GenOptions;
use pulldown_cmark::{Event, Parser};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Doc {
    path: String,
    bytes: Vec<u8>,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

fn load_docs(dirs: &[&str]) -> Vec<Doc> {
    let mut docs = Vec::new();
    for dir in dirs {
        let dir = corpus_dir().join(dir);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|it| it.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        paths.sort();
        for path in paths {
            if let Ok(bytes) = std::fs::read(&path) {
                docs.push(Doc {
                    path: path.display().to_string(),
                    bytes,
                });
            }
        }
    }
    docs
}

/// Median wall time of `rounds` runs of `f`.
fn measure(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Runs `baseline` and `f` alternately for `rounds` rounds: the median of each, and the median
/// of the per-round ratios.
fn measure_against(
    rounds: usize,
    baseline: &mut dyn FnMut(),
    f: &mut dyn FnMut(),
) -> (Duration, Duration, f64) {
    let time = |g: &mut dyn FnMut()| {
        let start = Instant::now();
        g();
        start.elapsed()
    };
    // One untimed round of each first: caches and the allocator warm up outside the figures.
    baseline();
    f();
    let samples: Vec<(Duration, Duration)> =
        (0..rounds).map(|_| (time(baseline), time(f))).collect();
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let ratio = median(
        samples
            .iter()
            .map(|(b, t)| t.as_secs_f64() / b.as_secs_f64().max(1e-9))
            .collect(),
    );
    let base = median(samples.iter().map(|(b, _)| b.as_secs_f64()).collect());
    let phase = median(samples.iter().map(|(_, t)| t.as_secs_f64()).collect());
    (
        Duration::from_secs_f64(phase),
        Duration::from_secs_f64(base),
        ratio,
    )
}

/// The baseline: what it costs just to read the files and run pulldown-cmark over them.
fn bare_pass(docs: &[Doc]) -> usize {
    let mut events = 0;
    for doc in docs {
        let text = String::from_utf8_lossy(&doc.bytes);
        events += Parser::new(&text)
            .filter(|e| !matches!(e, Event::Text(_)))
            .count();
    }
    events
}

fn read_all(docs: &[Doc]) -> usize {
    docs.iter()
        .map(|d| aclgen::read::read_doc(&d.path, &d.bytes).ops.len())
        .sum()
}

/// What `aclgen lint` does once the files are read: read every doc and render the report, on all cores.
fn lint_all(docs: &[Doc]) -> usize {
    use rayon::prelude::*;
    let per_file: Vec<_> = docs
        .par_iter()
        .map(|d| aclgen::read::read_doc(&d.path, &d.bytes).all_diagnostics())
        .collect();
    aclgen::diag::lint_text(&per_file).len()
}

/// A doc whose one parameter line is 10 MB of unclosed links, tags, emphasis and comments: every
/// inline pattern starts everywhere and ends nowhere.
fn markup_line() -> Vec<u8> {
    let mut doc = String::from(
        "# aclnnX\n## aclnnXGetWorkspaceSize\n## 参数说明\n- x（aclTensor*，计算输入）：",
    );
    while doc.len() < 10 << 20 {
        doc.push_str("**[a](<b <!-- &lt;\\*`");
    }
    doc.push('\n');
    doc.into_bytes()
}

/// Pathological inputs the reader must get through in well under a second each.
fn big_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/docs");
    let repeat = |name: &str| {
        let seed = std::fs::read(root.join(name)).unwrap_or_default();
        let mut big = Vec::with_capacity(10 << 20);
        while !seed.is_empty() && big.len() < 10 << 20 {
            big.extend_from_slice(&seed);
        }
        big
    };
    let mut nested = String::from("# aclnnX\n## aclnnXGetWorkspaceSize\n<table><tr><td>");
    for _ in 0..20_000 {
        nested.push_str("<div><table><tr><td>");
    }
    vec![
        (
            "10 MB doc (seed 003 repeated)",
            repeat("003-aclnnAvgPool2dBackward.txt"),
        ),
        (
            "10 MB mojibake (seed 004 repeated)",
            repeat("004-aclnnAvgPool2dBackward.txt"),
        ),
        ("10 MB on one line", vec![b'a'; 10 << 20]),
        ("10 MB of open markup on one line", markup_line()),
        ("20,000 nested tags", nested.into_bytes()),
        (
            "100,000 unclosed tables",
            "<table>\n".repeat(100_000).into_bytes(),
        ),
    ]
}

/// A specs folder whose docs/ is the ops-nn corpus, so `gen` runs on all 526 docs.
fn corpus_specs(tmp: &Path) -> PathBuf {
    let specs = tmp.join("specs");
    std::fs::create_dir_all(specs.join("ops")).expect("temp specs dir");
    #[cfg(unix)]
    std::os::unix::fs::symlink(corpus_dir().join("ops-nn/docs"), specs.join("docs"))
        .expect("symlink corpus docs");
    specs
}

fn gen_args(specs: &Path, out: &Path) -> GenOptions {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    GenOptions {
        specs: specs.to_path_buf(),
        out: out.to_path_buf(),
        kernels: root.join("kernels"),
        templates: root.join("templates"),
        check: false,
    }
}

/// A full `gen`: the output folder removed first.
fn gen_from_scratch(specs: &Path, out: &Path) {
    move_aside(out);
    let _ = aclgen::generate(&gen_args(specs, out));
}

/// A specs folder holding a copy of the ops-nn docs, so the benchmark can edit one.
fn copied_corpus_specs(tmp: &Path) -> PathBuf {
    let specs = tmp.join("specs-copy");
    let docs = specs.join("docs");
    std::fs::create_dir_all(specs.join("ops")).expect("temp specs dir");
    std::fs::create_dir_all(&docs).expect("temp docs dir");
    for entry in std::fs::read_dir(corpus_dir().join("ops-nn/docs")).expect("corpus docs") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            std::fs::copy(&path, docs.join(path.file_name().expect("name"))).expect("copy doc");
        }
    }
    specs
}

/// Edits one doc of `specs` (a line added or taken away, in turn), as a person saving a spec.
fn edit_one_spec(specs: &Path) {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(specs.join("docs"))
        .expect("docs")
        .map(|e| e.expect("entry").path())
        .collect();
    docs.sort();
    let doc = &docs[docs.len() / 2];
    let text = std::fs::read_to_string(doc).expect("doc");
    const EDIT: &str = "\n<!-- edited -->\n";
    let edited = match text.strip_suffix(EDIT) {
        Some(original) => original.to_string(),
        None => text + EDIT,
    };
    std::fs::write(doc, edited).expect("edit doc");
}

/// Empties `out` for the next round with one rename: deleting the last round's 5,400 files is not
/// part of a gen (the temp folder holding them is removed when the benchmark ends).
fn move_aside(out: &Path) {
    static ROUND: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = ROUND.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let _ = std::fs::rename(out, out.with_extension(format!("old{n}")));
}

/// Runs `aclgen gen` in a child process and returns its peak resident set in MiB.
fn gen_peak_rss_mib(specs: &Path, out: &Path) -> Option<f64> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/aclgen");
    if !bin.exists() {
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(&bin)
        .args(["gen", "--specs"])
        .arg(specs)
        .arg("--out")
        .arg(out)
        .arg("--kernels")
        .arg(root.join("kernels"))
        .arg("--templates")
        .arg(root.join("templates"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    let _ = status;
    // SAFETY: getrusage only writes into the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    Some(usage.ru_maxrss as f64 / 1024.0)
}

const RSS_ROW: &str = "gen, full, child process";

/// Its ratio is to "nothing changed" on the same tree, measured in the same rounds.
const EDIT_ROW: &str = "gen, one spec edited (526)";
const EDIT_TARGET: f64 = 1.5;

const STAGE_ROWS: [&str; 4] = [
    "  stage: read specs + rules",
    "  stage: emit into memory",
    "    of which Rust validators",
    "  stage: write into empty tmpfs",
];

/// The stages of a full gen, run one at a time on inputs prepared once.
struct Stages {
    ops: Vec<aclgen::ir::OpIr>,
    ctx: aclgen::emit::EmitCtx,
    emitted: aclgen::emit::Emitted,
}

impl Stages {
    fn prepare(specs: &Path) -> Stages {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let ctx = aclgen::emit::EmitCtx {
            tera: aclgen::emit::render::load_templates(&root.join("templates")).expect("templates"),
            specs_dir: specs.to_path_buf(),
            kernels_dir: root.join("kernels"),
        };
        let ops = Stages::read_and_rules_of(specs);
        let emitted = aclgen::emit::emit_all(&ops, &ctx).expect("emit");
        Stages { ops, ctx, emitted }
    }

    fn read_and_rules_of(specs: &Path) -> Vec<aclgen::ir::OpIr> {
        use rayon::prelude::*;
        let mut ops = aclgen::specs::load_specs(specs)
            .map(|s| s.ops)
            .unwrap_or_default();
        ops.par_iter_mut().for_each(aclgen::rules::apply);
        ops
    }

    fn read_and_rules(&self, specs: &Path) -> usize {
        Stages::read_and_rules_of(specs).len()
    }

    fn emit(&self) -> usize {
        aclgen::emit::emit_all(&self.ops, &self.ctx).map_or(0, |e| e.files.len())
    }

    /// The validator modules and rules JSON alone (with the case synthesis they share with the
    /// case files), as emit renders them.
    fn validators(&self) -> usize {
        use rayon::prelude::*;
        self.ops
            .par_iter()
            .filter(|op| !op.has_errors() && op.workspace_fn().is_some())
            .map(|op| {
                let cases = aclgen::cases::synthesize(op);
                aclgen::emit::rust::op_files(op, &cases)[0].contents.len()
            })
            .sum()
    }

    fn write(&self, out: &Path) {
        move_aside(out);
        let _ = aclgen::generate::sync(out, &self.ctx.kernels_dir, &self.emitted, false);
    }
}

struct Row {
    name: &'static str,
    /// Median wall time of the phase.
    time: Duration,
    /// Median wall time of the bare pass over the same docs, in the same rounds.
    baseline: Duration,
    /// Median of the per-round ratios phase / bare pass.
    ratio: f64,
    docs: usize,
    target: Option<f64>,
}

fn main() {
    if !corpus_dir().is_dir() {
        println!("../shared/corpus is absent: corpus benchmark skipped");
        return;
    }
    let quick = std::env::args().any(|a| a == "--quick");
    // `cargo bench --bench corpus -- lint` runs only the rows whose name contains "lint".
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let rounds = if quick { 3 } else { 7 };
    // First, while this process is small: a child's peak RSS includes what it inherited before
    // exec, so measured later it would report the benchmark's own memory.
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    let peak_rss = wanted(RSS_ROW).then(|| {
        let rss_tmp = tempfile::tempdir().expect("tempdir");
        let rss_specs = corpus_specs(rss_tmp.path());
        gen_peak_rss_mib(&rss_specs, &rss_tmp.path().join("generated"))
    });
    let all = load_docs(&["ops-nn/docs", "ops-nn-2025-12/docs"]);
    let ops_nn = load_docs(&["ops-nn/docs"]);
    println!(
        "corpus: {} docs ({} in ops-nn), {} rounds each, median reported",
        all.len(),
        ops_nn.len(),
        rounds
    );

    let tmp = tempfile::tempdir().expect("tempdir");
    let specs = corpus_specs(tmp.path());
    let out = tmp.path().join("generated");

    // Each row runs round by round against its baseline (bare pass over the same docs), so both
    // see the same neighbours on this shared machine; the ratio is the median of the per-round
    // ratios.
    let bare = |docs: &[Doc]| {
        std::hint::black_box(bare_pass(docs));
    };
    let mut rows: Vec<Row> = Vec::new();
    let mut row = |name: &'static str, docs: &[Doc], target: Option<f64>, f: &mut dyn FnMut()| {
        if wanted(name) {
            let (time, baseline, ratio) = measure_against(rounds, &mut || bare(docs), f);
            rows.push(Row {
                name,
                time,
                baseline,
                ratio,
                docs: docs.len(),
                target,
            });
        }
    };
    row("read+parse (617 docs)", &all, None, &mut || {
        std::hint::black_box(read_all(&all));
    });
    row("lint (617 docs)", &all, Some(4.0), &mut || {
        std::hint::black_box(lint_all(&all));
    });
    row(
        "gen, full, to disk (526 ops-nn)",
        &ops_nn,
        Some(10.0),
        &mut || gen_from_scratch(&specs, &out),
    );
    row(
        "gen, nothing changed (526)",
        &ops_nn,
        Some(3.0),
        &mut || {
            if !out.is_dir() {
                let _ = aclgen::generate(&gen_args(&specs, &out));
            }
            let _ = aclgen::generate(&gen_args(&specs, &out));
        },
    );
    // An edit to one spec against no change at all, round by round on the same tree: only the
    // edited op is read and rendered again, so this stays close to the no-change run.
    let mut edited_row = None;
    if wanted(EDIT_ROW) {
        let specs = copied_corpus_specs(tmp.path());
        let out = tmp.path().join("generated-edited");
        let _ = aclgen::generate(&gen_args(&specs, &out));
        edited_row = Some(measure_against(
            rounds,
            &mut || {
                let _ = aclgen::generate(&gen_args(&specs, &out));
            },
            &mut || {
                edit_one_spec(&specs);
                let _ = aclgen::generate(&gen_args(&specs, &out));
            },
        ));
    }
    // The same run into memory (tmpfs): what aclgen costs without this machine's shared disk,
    // where creating 5,400 files alone takes 0.5-4 s depending on the neighbours.
    if let Ok(shm) = tempfile::tempdir_in("/dev/shm") {
        let out = shm.path().join("generated");
        row(
            "gen, full, into tmpfs (526)",
            &ops_nn,
            Some(10.0),
            &mut || gen_from_scratch(&specs, &out),
        );
        // Where that run's time goes, stage by stage (each stage's input computed once, outside
        // the timing), so the floor the rest of gen cannot go below is visible.
        if STAGE_ROWS.iter().any(|name| wanted(name)) {
            let stages = Stages::prepare(&specs);
            row(STAGE_ROWS[0], &ops_nn, None, &mut || {
                std::hint::black_box(stages.read_and_rules(&specs));
            });
            row(STAGE_ROWS[1], &ops_nn, None, &mut || {
                std::hint::black_box(stages.emit());
            });
            row(STAGE_ROWS[2], &ops_nn, None, &mut || {
                std::hint::black_box(stages.validators());
            });
            row(STAGE_ROWS[3], &ops_nn, None, &mut || stages.write(&out));
        }
    }

    println!(
        "{:<34} {:>10} {:>12} {:>12} {:>8} {:>8}  verdict",
        "phase", "total ms", "per doc µs", "baseline ms", "ratio", "target"
    );
    let mut failed = false;
    for row in &rows {
        let verdict = match row.target {
            Some(t) if row.ratio <= t => "ok",
            Some(_) => {
                failed = true;
                "OVER TARGET"
            }
            None => "",
        };
        println!(
            "{:<34} {:>10.1} {:>12.1} {:>12.1} {:>8.2} {:>8}  {}",
            row.name,
            row.time.as_secs_f64() * 1e3,
            row.time.as_secs_f64() * 1e6 / row.docs.max(1) as f64,
            row.baseline.as_secs_f64() * 1e3,
            row.ratio,
            row.target.map(|t| format!("≤{t}×")).unwrap_or_default(),
            verdict
        );
    }
    if let Some((time, baseline, ratio)) = edited_row {
        let ok = ratio <= EDIT_TARGET;
        failed |= !ok;
        println!(
            "{:<34} {:>10.1} ms; nothing changed {:.1} ms; ratio {:.2} (target ≤{EDIT_TARGET}×)  {}",
            EDIT_ROW,
            time.as_secs_f64() * 1e3,
            baseline.as_secs_f64() * 1e3,
            ratio,
            if ok { "ok" } else { "OVER TARGET" }
        );
    }
    for (label, bytes) in big_inputs().into_iter().filter(|(label, _)| wanted(label)) {
        let time = measure(rounds.min(3), || {
            std::hint::black_box(aclgen::read::read_doc("big.md", &bytes));
        });
        let ok = time < Duration::from_secs(1);
        failed |= !ok;
        println!(
            "{:<34} {:>10.1} ms for {:.1} MB (target < 1 s)  {}",
            label,
            time.as_secs_f64() * 1e3,
            bytes.len() as f64 / 1e6,
            if ok { "ok" } else { "OVER TARGET" }
        );
    }
    match peak_rss {
        None => {}
        Some(Some(mib)) => {
            let verdict = if mib < 200.0 { "ok" } else { "OVER TARGET" };
            failed |= mib >= 200.0;
            println!(
                "{:<34} {:>10.1} MiB peak RSS (target < 200 MiB)  {}",
                RSS_ROW, mib, verdict
            );
        }
        Some(None) => {
            println!("peak memory: build target/release/aclgen first (cargo build --release)")
        }
    }
    if failed {
        println!("result: some targets missed");
    } else {
        println!("result: all targets met");
    }
}
