//! aclgen's Ascend C runtime and AI Core model on kernels the project writes itself, each against
//! a reference the test computes: AddCustom as msOpGen's op JSON describes it
//! (`../shared/cann-data/msopgen/add_custom.json`), a kernel calling every modelled API (bit for
//! bit: its arithmetic is exact), and Cast in every rounding mode. No CANN is needed.

use aclgen::sim::float16::{f16_bits_to_f32, f32_to_f16_bits};
use aclgen::sim::{run_kernel, KernelRun, KernelSource};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("aclgen-sim")
}

/// Splitmix64, so every run draws the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f32 {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) as f32
    }
}

fn fixture_kernel(name: &str, tensors: usize, tiling_type: &str) -> KernelSource {
    KernelSource {
        name: name.into(),
        source: repo().join(format!("tests/fixtures/sim/{name}_kernel.cpp")),
        force_includes: Vec::new(),
        include_dirs: Vec::new(),
        defines: Vec::new(),
        entry: name.into(),
        tensors,
        tiling_type: tiling_type.into(),
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn f32_values(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The op JSON's tensors as (name, types), inputs then outputs; None where ../shared is absent.
fn add_custom_json() -> Option<Vec<(String, Vec<String>)>> {
    let path = repo().join("../shared/cann-data/msopgen/add_custom.json");
    let text = std::fs::read_to_string(&path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).expect("add_custom.json is JSON");
    let op = &json[0];
    assert_eq!(op["op"], "AddCustom");
    let mut tensors = Vec::new();
    for list in ["input_desc", "output_desc"] {
        for t in op[list].as_array().expect("tensor list") {
            let types = t["type"].as_array().expect("types");
            let types = types.iter().map(|v| v.as_str().unwrap_or("").to_string());
            tensors.push((
                t["name"].as_str().unwrap_or("").to_string(),
                types.collect(),
            ));
        }
    }
    Some(tensors)
}

#[test]
fn add_custom_from_msopgen_json_runs_and_agrees_bit_for_bit() {
    // The kernel's tensors are those of msOpGen's JSON: x, y in, z out, all fp16.
    match add_custom_json() {
        Some(tensors) => {
            let want = [("x", "fp16"), ("y", "fp16"), ("z", "fp16")];
            let got: Vec<(&str, &str)> = tensors
                .iter()
                .map(|(n, t)| (n.as_str(), t.first().map(String::as_str).unwrap_or("")))
                .collect();
            assert_eq!(
                got, want,
                "add_custom.json changed: rewrite the fixture kernel"
            );
        }
        None => eprintln!("../shared/cann-data is absent: the op JSON is not compared"),
    }
    let (cores, tiles) = (8u32, 4u32);
    let total = cores * tiles * 2 * 128;
    let mut rng = Rng(42);
    let mut draw = || -> Vec<u16> {
        (0..total)
            .map(|_| f32_to_f16_bits(rng.unit() * 4.0))
            .collect()
    };
    let (x, y) = (draw(), draw());
    let bytes = |v: &[u16]| v.iter().flat_map(|h| h.to_le_bytes()).collect::<Vec<u8>>();
    let mut tiling = total.to_le_bytes().to_vec();
    tiling.extend(tiles.to_le_bytes());
    let run = KernelRun {
        tensors: vec![
            ("x".into(), bytes(&x), false),
            ("y".into(), bytes(&y), false),
            ("z".into(), vec![0; total as usize * 2], true),
        ],
        tiling,
        block_dim: cores,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: false,
    };
    let source = fixture_kernel("add_custom", 3, "AddCustomTilingData");
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let z: Vec<u16> = outputs[0]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    // fp16 addition rounds the exact sum once (nearest even): bit-exact.
    let mismatches = (0..total as usize)
        .filter(|&i| z[i] != f32_to_f16_bits(f16_bits_to_f32(x[i]) + f16_bits_to_f32(y[i])))
        .count();
    println!("sim figures: AddCustom (own kernel, msOpGen JSON) on {cores} cores: {total} elements, {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

/// What every_api_kernel.cpp computes for one element (sel, sel2).
fn every_api_reference(x: f32, y: f32) -> (f32, f32) {
    let q = ((x + 1.0) + 2.0 * y - x) * y / 4.0;
    let lt = x < y;
    let sel = if lt { q.max(x) } else { q.min(x) };
    (sel, if lt { x } else { -1.0 })
}

#[test]
fn every_modelled_api_agrees_bit_for_bit_with_the_reference() {
    let (cores, n) = (4u32, 128u32);
    let mut rng = Rng(7);
    // Small integers: every step's result is exact in fp32 and in fp16.
    let mut draw = || -> Vec<f32> {
        (0..cores * n)
            .map(|_| (rng.next() % 17) as f32 - 8.0)
            .collect()
    };
    let (x, y) = (draw(), draw());
    let mut tiling = n.to_le_bytes().to_vec();
    tiling.extend(cores.to_le_bytes());
    let run = KernelRun {
        tensors: vec![
            ("x".into(), f32_bytes(&x), false),
            ("y".into(), f32_bytes(&y), false),
            ("out".into(), vec![0; (3 * cores * n) as usize * 4], true),
            ("acc".into(), vec![0; n as usize * 4], true),
        ],
        tiling,
        block_dim: cores,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: false,
    };
    let source = fixture_kernel("every_api", 4, "EveryApiTiling");
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let (out, acc) = (f32_values(&outputs[0]), f32_values(&outputs[1]));
    let n = n as usize;
    let mut checked = 0;
    for c in 0..cores as usize {
        for i in 0..n {
            let (sel, mut sel2) = every_api_reference(x[c * n + i], y[c * n + i]);
            if i == 0 {
                sel2 = c as f32; // the kernel's SetValue
            }
            let base = 3 * c * n;
            let got = [out[base + i], out[base + n + i], out[base + 2 * n + i]];
            assert_eq!(
                got.map(f32::to_bits),
                [sel, sel2, sel].map(f32::to_bits),
                "core {c} element {i}: x {} y {}",
                x[c * n + i],
                y[c * n + i]
            );
            checked += 3;
        }
    }
    for i in 0..n {
        let want: f32 = (0..cores as usize).map(|c| x[c * n + i]).sum();
        assert_eq!(acc[i].to_bits(), want.to_bits(), "acc {i}");
        checked += 1;
    }
    println!("sim figures: every modelled API on {cores} cores: {checked} values bit-exact");
}

/// Gather, Brcb and the Level-0 Add/Mul (gather_brcb_kernel.cpp), bit for bit.
#[test]
fn gather_brcb_and_level0_agree_bit_for_bit_with_the_reference() {
    let mut rng = Rng(11);
    let x: Vec<f32> = (0..64).map(|_| (rng.next() % 17) as f32 - 8.0).collect();
    let run = KernelRun {
        tensors: vec![
            ("x".into(), f32_bytes(&x), false),
            ("out".into(), vec![0; 512 * 4], true),
        ],
        tiling: 64u32.to_le_bytes().to_vec(),
        block_dim: 1,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: true,
    };
    let source = fixture_kernel("gather_brcb", 2, "GatherBrcbTiling");
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let out = f32_values(&outputs[0]);
    let mut want = Vec::with_capacity(512);
    want.extend((0..64).map(|i| x[63 - i]));
    want.extend((0..64).map(|i| if i < 56 { x[i + 8] } else { 0.0 }));
    want.extend((0..128).map(|i| x[i / 8]));
    want.extend((0..128).map(|i| x[i % 16] + x[i / 16]));
    want.extend((0..128).map(|i| x[i % 16] * x[i / 16]));
    for (i, (g, w)) in out.iter().zip(&want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "out[{i}]: got {g}, want {w}");
    }
    // The vector pipe's cycles, 15 latency + delay + bytes at the op's rate each: Gather of 64
    // (4-byte offsets, taken at vcopy's 128 B/cycle) 15 + 4 + 2 = 21; Duplicate of 64 fp32
    // 15 + 4 + 1 = 20; Gather of 56: 21; Brcb of 2 repeats (512 bytes at vbrcb's 128 B/cycle)
    // 15 + 4 + 4 = 23; Level-0 Add of 8 repeats (256 bytes each, masked or not) 15 + 6 + 8 = 29;
    // Level-0 Mul 15 + 7 + 8 = 30.
    let model = &summary["cycle_model"];
    assert_eq!(model["busy"]["V"], 21 + 20 + 21 + 23 + 29 + 30, "{model}");
}

/// Every finite value of a 16-bit float format, sorted, with its bits.
fn finite_values(to_f32: fn(u16) -> f32) -> Vec<(f64, u16)> {
    let mut v: Vec<(f64, u16)> = (0..=u16::MAX)
        .map(|b| (to_f32(b) as f64, b))
        .filter(|(f, b)| f.is_finite() && *b != 0x8000)
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// The reference rounding: the representable neighbours of `x` and the mode's choice between
/// them (ties of RINT to the even significand, of ROUND away from zero; ODD to the odd one).
fn round_to(values: &[(f64, u16)], x: f64, mode: &str) -> u16 {
    let bits = pick(values, x, mode);
    // A zero keeps the sign of what was rounded.
    if bits == 0 && x < 0.0 {
        0x8000
    } else {
        bits
    }
}

fn pick(values: &[(f64, u16)], x: f64, mode: &str) -> u16 {
    let i = values.partition_point(|(v, _)| *v < x);
    if i < values.len() && values[i].0 == x {
        return values[i].1;
    }
    let (lo, hi) = (values[i - 1], values[i]);
    let toward_zero = if x > 0.0 { lo } else { hi };
    let away = if x > 0.0 { hi } else { lo };
    let (dl, dh) = (x - lo.0, hi.0 - x);
    match mode {
        "floor" => lo.1,
        "ceil" => hi.1,
        "trunc" => toward_zero.1,
        "odd" => {
            if lo.1 & 1 == 1 {
                lo.1
            } else {
                hi.1
            }
        }
        "round" if dl == dh => away.1,
        "rint" if dl == dh => {
            if lo.1 & 1 == 0 {
                lo.1
            } else {
                hi.1
            }
        }
        _ if dl < dh => lo.1,
        _ => hi.1,
    }
}

#[test]
fn cast_rounds_fp32_to_fp16_and_bf16_bit_exactly_in_every_mode() {
    let half_values = finite_values(f16_bits_to_f32);
    let bf16_values = finite_values(aclgen::sim::float16::bf16_bits_to_f32);
    // Random magnitudes across both formats' ranges, exact ties of each format, subnormals.
    let mut rng = Rng(99);
    let mut x: Vec<f32> = Vec::new();
    for _ in 0..448 {
        let e = (rng.next() % 40) as i32 - 26;
        x.push(rng.unit() * 2f32.powi(e));
    }
    for k in 0..32u16 {
        let h = f16_bits_to_f32(0x3c00 + k) as f64;
        let next = f16_bits_to_f32(0x3c01 + k) as f64;
        x.push(((h + next) / 2.0) as f32);
        x.push(-((h + next) / 2.0) as f32);
    }
    x.truncate(512);
    let n = x.len() as u32;
    let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let source = KernelSource {
        name: "cast_modes".into(),
        source: repo().join("tests/fixtures/sim/cast_modes_kernel.cpp"),
        force_includes: Vec::new(),
        include_dirs: Vec::new(),
        defines: Vec::new(),
        entry: "cast_modes".into(),
        tensors: 3,
        tiling_type: "uint32_t".into(),
    };
    let run = KernelRun {
        tensors: vec![
            ("x".into(), floats(&x), false),
            ("h".into(), vec![0; 6 * n as usize * 2], true),
            ("b".into(), vec![0; 5 * n as usize * 2], true),
        ],
        tiling: n.to_le_bytes().to_vec(),
        block_dim: 1,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: false,
    };
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let bits = |b: &[u8]| -> Vec<u16> {
        b.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    let (h, b) = (bits(&outputs[0]), bits(&outputs[1]));
    let mut checked = 0;
    for (m, mode) in ["rint", "round", "floor", "ceil", "trunc", "odd"]
        .iter()
        .enumerate()
    {
        for (i, v) in x.iter().enumerate() {
            let want = round_to(&half_values, *v as f64, mode);
            let got = h[m * n as usize + i];
            assert_eq!(
                got, want,
                "fp16 {mode} of {v:e}: got {got:#06x}, want {want:#06x}"
            );
            checked += 1;
        }
    }
    for (m, mode) in ["rint", "round", "floor", "ceil", "trunc"]
        .iter()
        .enumerate()
    {
        for (i, v) in x.iter().enumerate() {
            let want = round_to(&bf16_values, *v as f64, mode);
            let got = b[m * n as usize + i];
            assert_eq!(
                got, want,
                "bf16 {mode} of {v:e}: got {got:#06x}, want {want:#06x}"
            );
            checked += 1;
        }
    }
    println!(
        "sim figures: Cast fp32 -> fp16 (6 modes), bf16 (5 modes): {checked} values bit-exact"
    );
}

/// The cycle model on a kernel whose timeline is computed by hand from the public figures
/// (../shared/cann-data/README.md) and Ascend910B2's GM rate of 32 bytes per cycle per core:
///
/// | pipe | instruction | cost | start → end |
/// | --- | --- | --- | --- |
/// | MTE2 | DataCopy 4096 B in | 350 latency + 4096/32 = 478 | 0 → 478 |
/// | MTE2 | DataCopy 4096 B in, issued after the SetFlag (nothing waits for it) | 478 | 478 → 956 |
/// | V | Adds 1024 fp32 after MTE2_V | 15 + 6 + 4096/256 = 37 | 478 → 515 |
/// | V | Div 1024 fp32 | 15 + 13 + 4096/128 = 60 | 515 → 575 |
/// | MTE3 | DataCopy 4096 B out after V_MTE3 | 200 latency + 4096/32 = 328 | 575 → 903 |
/// | V | Duplicate 64 fp32 after PipeBarrier<PIPE_ALL> (waits for all pipes) | 15 + 4 + 256/256 = 20 | 956 → 976 |
///
/// A flag fires when its pipe has finished everything issued before the SetFlag. The scalar unit
/// issues each instruction, SetFlag and WaitFlag in program order, one cycle each: 10 cycles of S.
#[test]
fn cycle_model_matches_a_timeline_computed_by_hand() {
    let n = 1024usize;
    let x: Vec<f32> = (0..2 * n).map(|i| (i % 7) as f32 + 1.0).collect();
    let run = profiled_run(&x, n);
    let source = fixture_kernel("timing", 2, "uint32_t");
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let z = f32_values(&outputs[0]);
    for i in 0..n {
        assert_eq!(z[i], (x[i] + 1.0) / x[i], "z[{i}]");
    }
    let model = &summary["cycle_model"];
    println!("sim figures: cycle model on the timing kernel: {model}");
    assert_eq!(model["modeled_cycles"], 976, "{model}");
    assert_eq!(model["busy"]["MTE2"], 956, "{model}");
    assert_eq!(model["busy"]["V"], 37 + 60 + 20, "{model}");
    assert_eq!(model["busy"]["MTE3"], 328, "{model}");
    assert_eq!(model["busy"]["S"], 10, "{model}");
}

/// One core's profiled run of the timing fixtures: input `x`, an fp32 output `z` of `n`
/// elements, `n` as the tiling.
fn profiled_run(x: &[f32], n: usize) -> KernelRun {
    KernelRun {
        tensors: vec![
            ("x".into(), f32_bytes(x), false),
            ("z".into(), vec![0; n * 4], true),
        ],
        tiling: (n as u32).to_le_bytes().to_vec(),
        block_dim: 1,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: true,
    }
}

/// Scalar GetValue/SetValue cost the scalar pipe 6 and 4 cycles (public figures), and a vector
/// instruction issued after a scalar loop starts after it: the profile counts scalar work.
#[test]
fn cycle_model_counts_scalar_accesses_and_orders_issue() {
    let n = 64usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let run = profiled_run(&x, n);
    let source = fixture_kernel("scalar_timing", 2, "uint32_t");
    let (outputs, summary) = run_kernel(&source, &run, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let z = f32_values(&outputs[0]);
    for i in 0..n {
        assert_eq!(z[i], 2.0 * x[i] + 1.0, "z[{i}]");
    }
    let model = &summary["cycle_model"];
    println!("sim figures: cycle model on the scalar timing kernel: {model}");
    // S: DataCopy, SetFlag, WaitFlag (MTE2_S: the scalar unit waits for the load, 350 latency +
    // one 512-byte burst / 32 = 366), 64 x (GetValue 6 + SetValue 4) = 640 → 1006, then SetFlag,
    // WaitFlag (S_V), Adds, SetFlag, WaitFlag (V_MTE3), DataCopy: 6 more issue cycles.
    assert_eq!(model["busy"]["S"], 3 + 640 + 6, "{model}");
    assert_eq!(model["busy"]["MTE2"], 366, "{model}");
    // S_V fires at 1007; Adds is issued at 1008: 1008 → 1008 + 15 + 6 + 256/256 = 1030. MTE3
    // waits for it (V_MTE3): 1030 → 1030 + 200 + 512/32 = 1246.
    assert_eq!(model["busy"]["V"], 22, "{model}");
    assert_eq!(model["modeled_cycles"], 1246, "{model}");
}

/// An API the runtime does not implement compiles and stops the run naming itself, at the
/// kernel's line.
#[test]
fn an_unmodelled_api_stops_the_run_naming_itself() {
    let run = KernelRun {
        tensors: vec![("x".into(), vec![0; 256], false)],
        tiling: vec![0; 8],
        block_dim: 1,
        tiling_key: 0,
        workspace_bytes: 0,
        profile: false,
    };
    let source = fixture_kernel("unmodelled", 1, "uint64_t");
    match run_kernel(&source, &run, &cache()) {
        Err(aclgen::sim::SimError::Failed { summary, stderr }) => {
            assert_eq!(summary["rule"], "unmodelled-intrinsic", "{summary}");
            let message = summary["message"].as_str().unwrap_or("");
            assert!(message.contains("ReduceSum"), "{message}");
            let line = std::fs::read_to_string(&source.source)
                .expect("fixture")
                .lines()
                .position(|l| l.contains("UNMODELLED"))
                .expect("marked line")
                + 1;
            assert!(
                stderr.contains(&format!("unmodelled_kernel.cpp:{line}")),
                "{stderr}"
            );
        }
        Ok((_, summary)) => panic!("ran: {summary}"),
        Err(e) => panic!("{e}"),
    }
}
