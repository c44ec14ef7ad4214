//! sim's own speed: wall time per million gradInput elements of `aclgen sim` (aclgen's Ascend C
//! runtime and AI Core model, the pipe checker, one process per core) against the pure-Rust
//! reference computing the same op on the same data, measured in the same run (machines here are
//! shared and noisy: only the ratio is comparable). The op is AdaptiveAvgPool2dBackward at
//! (4, 16, 8, 8) → (4, 16, 32, 32) on 8 cores; the first run builds the binary and is not timed.
//!
//! Run: `cargo bench --bench sim` (add `-- --quick` for one round).

use aclgen::sim::{self, reference, SimOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const PLANES: usize = 4 * 16;
const OUT: [usize; 3] = [1, 8, 8];
const IN: [usize; 3] = [1, 32, 32];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 1 } else { 5 };
    let specs = aclgen::pipeline::load(&repo().join("specs")).expect("specs load");
    let op = specs
        .ops
        .into_iter()
        .find(|o| o.op == "AdaptiveAvgPool2dBackward")
        .expect("seed op");
    let dir = tempfile::tempdir().expect("temp dir");
    let n_out = PLANES * OUT.iter().product::<usize>();
    let n_in = PLANES * IN.iter().product::<usize>();
    let grad: Vec<f32> = (0..n_out)
        .map(|i| ((i * 37 % 101) as f32) / 50.0 - 1.0)
        .collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.path().join("g.bin"), bytes(&grad)).expect("write");
    std::fs::write(dir.path().join("s.bin"), vec![0u8; n_in * 4]).expect("write");
    let t = |shape: &[usize], data: &str| serde_json::json!({"shape": shape, "dtype": "FLOAT32", "format": "NCHW", "data": data});
    let case = serde_json::json!({"product": "ascend910b", "args": {
        "gradOutput": t(&[4, 16, 8, 8], "g.bin"), "self": t(&[4, 16, 32, 32], "s.bin"),
        "out": t(&[4, 16, 32, 32], "o.bin")}});
    let case = sim::parse_case(&op, &case.to_string(), dir.path()).expect("case");
    let opts = SimOptions {
        generated: repo().join("generated"),
        toolkit: None,
        cache: sim::default_cache(),
        core_num: Some(8),
        profile: false,
        trace: None,
    };
    sim::run(&op, &case, &opts).expect("first run (builds the binary)");
    let grad64: Vec<f64> = grad.iter().map(|&g| f64::from(g)).collect();
    let (mut sims, mut refs) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let start = Instant::now();
        sim::run(&op, &case, &opts).expect("sim runs");
        sims.push(start.elapsed());
        let start = Instant::now();
        // The reference is fast: repeat it so its time is measurable, then divide.
        const REPEAT: u32 = 20;
        for _ in 0..REPEAT {
            std::hint::black_box(reference::adaptive_avg_pool_backward(
                std::hint::black_box(&grad64),
                PLANES,
                IN,
                OUT,
            ));
        }
        refs.push(start.elapsed() / REPEAT);
    }
    let per_million = |d: Duration| d.as_secs_f64() * 1e6 / n_in as f64;
    let (s, r) = (median(sims), median(refs));
    println!(
        "sim bench: AdaptiveAvgPool2dBackward {n_in} elements, 8 cores, {rounds} rounds (median)"
    );
    println!(
        "sim bench: sim        {:>10.3} s per million elements",
        per_million(s)
    );
    println!(
        "sim bench: reference  {:>10.6} s per million elements",
        per_million(r)
    );
    println!(
        "sim bench: sim / reference = {:.0}x",
        s.as_secs_f64() / r.as_secs_f64().max(1e-12)
    );
}
