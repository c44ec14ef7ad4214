//! aclgen's AI Core model on kernels the project did not write: the AddCustom kernel of CANN's
//! msOpGen example (asc-tools/examples/03_msopgen) and ops-nn's real 910B kernel of
//! AdaptiveAvgPool3dBackward (ops/adaptive_avg_pool3d_grad: its SyncAll, SetAtomicAdd,
//! DataCopyPad, Duplicate and Muls), each against an independent reference. The kernels, their
//! tiling structs and tiling constants are read from ../shared at run time (never copied); the
//! tests skip, with a message, where ../shared is absent.

use aclgen::sim::float16::{f16_bits_to_f32, f32_to_f16_bits};
use aclgen::sim::reference;
use aclgen::sim::{run_kernel, KernelRun, KernelSource};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shared(rel: &str) -> Option<PathBuf> {
    let dir = repo().join("../shared").join(rel);
    if dir.exists() {
        Some(dir)
    } else {
        eprintln!("skipping: {} is absent", dir.display());
        None
    }
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

/// `const uint32_t NAME = 8;` in a C++ source.
fn constant(source: &Path, name: &str) -> u64 {
    let text = std::fs::read_to_string(source).expect("source");
    let re = regex::Regex::new(&format!(r"\b{name}\s*=\s*(\d+)")).expect("regex");
    re.captures(&text)
        .and_then(|c| c[1].parse().ok())
        .unwrap_or_else(|| panic!("{name} in {}", source.display()))
}

#[test]
fn msopgen_add_custom_example_runs_and_agrees() {
    let Some(cann) = shared("cann") else {
        return;
    };
    let example = cann.join("asc-tools/examples/03_msopgen/op_dev");
    let kernel_dir = example.join("op_kernel");
    // The host tiling's constants: BLOCK_DIM cores, TILE_NUM tiles per core.
    let host = example.join("op_host/add_custom.cpp");
    let block_dim = constant(&host, "BLOCK_DIM") as u32;
    let tile_num = constant(&host, "TILE_NUM") as u32;
    // Each core's block splits into TILE_NUM x BUFFER_NUM tiles of 32-byte multiples.
    let total = block_dim * tile_num * 2 * 128;
    let mut rng = Rng(42);
    let x: Vec<u16> = (0..total)
        .map(|_| f32_to_f16_bits(rng.unit() * 4.0))
        .collect();
    let y: Vec<u16> = (0..total)
        .map(|_| f32_to_f16_bits(rng.unit() * 4.0))
        .collect();
    let bytes = |v: &[u16]| v.iter().flat_map(|h| h.to_le_bytes()).collect::<Vec<u8>>();
    let mut tiling = total.to_le_bytes().to_vec();
    tiling.extend(tile_num.to_le_bytes());
    let source = KernelSource {
        name: "add_custom".into(),
        source: kernel_dir.join("add_custom.cpp"),
        // What the op compiler injects: GET_TILING_DATA for the struct REGISTER_TILING_DEFAULT names.
        force_includes: vec![repo().join("tests/fixtures/sim/add_custom_injection.h")],
        include_dirs: vec![kernel_dir.clone()],
        defines: vec![
            "DTYPE_X=half".into(),
            "DTYPE_Y=half".into(),
            "DTYPE_Z=half".into(),
        ],
        entry: "add_custom".into(),
        tensors: 3,
        tiling_type: "AddCustomTilingData".into(),
    };
    let run = KernelRun {
        tensors: vec![
            ("x".into(), bytes(&x), false),
            ("y".into(), bytes(&y), false),
            ("z".into(), vec![0; total as usize * 2], true),
        ],
        tiling,
        block_dim,
        tiling_key: 0,
        workspace_bytes: 0,
    };
    let (outputs, summary) =
        run_kernel(&source, &run, &cann, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let z: Vec<u16> = outputs[0]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    // fp16 addition rounds the exact sum once (nearest even): bit-exact.
    let mut mismatches = 0;
    for i in 0..total as usize {
        let want = f32_to_f16_bits(f16_bits_to_f32(x[i]) + f16_bits_to_f32(y[i]));
        if z[i] != want {
            mismatches += 1;
        }
    }
    println!(
        "sim figures: msOpGen AddCustom fp16, {total} elements on {block_dim} cores: {mismatches} bits differ"
    );
    assert_eq!(mismatches, 0);
}

/// ops-nn's AdaptiveAvgPool3dGrad tiling (op_host/adaptive_avg_pool3d_grad_tiling.cpp,
/// CalTilingKey) for float32 with NC small enough for one slice, worked out here from its
/// constants; the fields in the order of the kernel UT's AdaptiveAvgPool3dGradTilingData.
fn ops_nn_tiling(host: &Path, nc: u64, input: [u64; 3], output: [u64; 3], cores: u64) -> Vec<u64> {
    let ub = 196_608 - constant(host, "RESERVED_UB") * 1024 - constant(host, "INDEX_USE_UB") * 1024;
    let align = constant(host, "ALIGN_SIZE") / 4;
    let nc_align = nc.div_ceil(align) * align;
    let per_calc = nc_align * 4 * 2;
    assert!(per_calc < ub, "one slice of NC");
    let task_num = output.iter().product::<u64>();
    let mut core_used = task_num.min(cores);
    let per_core = task_num.div_ceil(core_used);
    core_used = task_num.div_ceil(per_core);
    let last = task_num - per_core * (core_used - 1);
    let y_per_calc = (ub / per_calc).min(per_core);
    vec![
        nc, input[0], input[1], input[2], output[0], output[1], output[2], core_used, per_core,
        last, y_per_calc, 1, nc_align, nc_align, 1, 0,
    ]
}

#[test]
fn ops_nn_adaptive_avg_pool3d_grad_kernel_runs_on_the_model_and_agrees() {
    let Some(cann) = shared("cann") else {
        return;
    };
    let Some(op) = shared("corpus/ops-nn/ops/adaptive_avg_pool3d_grad") else {
        return;
    };
    let host = op.join("op_host/adaptive_avg_pool3d_grad_tiling.cpp");
    let (nc, input, output, cores) = (24u64, [4u64, 6, 5], [2u64, 3, 2], 8u64);
    let fields = ops_nn_tiling(&host, nc, input, output, cores);
    let tiling: Vec<u8> = fields.iter().flat_map(|v| v.to_le_bytes()).collect();
    // Data is channels-last: yGrad [dOut, hOut, wOut, NC], xGrad [dIn, hIn, wIn, NC].
    let out_elems = output.iter().product::<u64>() * nc;
    let in_elems = input.iter().product::<u64>() * nc;
    let mut rng = Rng(7);
    let grad: Vec<f32> = (0..out_elems).map(|_| rng.unit()).collect();
    let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let source = KernelSource {
        name: "ops_nn_adaptive_avg_pool3d_grad".into(),
        source: op.join("op_kernel/adaptive_avg_pool3d_grad.cpp"),
        force_includes: vec![op.join("tests/ut/op_kernel/adaptive_avg_pool3d_grad_tiling_def.h")],
        include_dirs: vec![op.join("op_kernel")],
        defines: Vec::new(),
        entry: "adaptive_avg_pool3d_grad".into(),
        tensors: 3,
        tiling_type: "AdaptiveAvgPool3dGradTilingData".into(),
    };
    let run = KernelRun {
        tensors: vec![
            ("yGrad".into(), floats(&grad), false),
            ("x".into(), vec![0; in_elems as usize * 4], false),
            ("xGrad".into(), vec![0; in_elems as usize * 4], true),
        ],
        tiling,
        // The tiling sets block dim to every core; the kernel's SyncAll waits for all of them.
        block_dim: cores as u32,
        tiling_key: 0,
        workspace_bytes: in_elems * 4,
    };
    let (outputs, summary) =
        run_kernel(&source, &run, &cann, &cache()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(summary["status"], "ok", "{summary}");
    let got: Vec<f64> = outputs[0]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
        .collect();
    // The reference works on planes (NC first): transpose in and out.
    let spatial_out = output.iter().product::<u64>() as usize;
    let spatial_in = input.iter().product::<u64>() as usize;
    let nc = nc as usize;
    let mut planes = vec![0.0f64; out_elems as usize];
    for s in 0..spatial_out {
        for c in 0..nc {
            planes[c * spatial_out + s] = grad[s * nc + c] as f64;
        }
    }
    let [id, ih, iw] = input.map(|v| v as usize);
    let [od, oh, ow] = output.map(|v| v as usize);
    let want_planes =
        reference::adaptive_avg_pool_backward(&planes, nc, [id, ih, iw], [od, oh, ow]);
    let mut max_err = 0.0f64;
    for s in 0..spatial_in {
        for c in 0..nc {
            let want = want_planes[c * spatial_in + s];
            let g = got[s * nc + c];
            max_err = max_err.max((g - want).abs());
            assert!(
                (g - want).abs() <= 1e-5 + 1e-5 * want.abs(),
                "xGrad[{s}, {c}]: got {g}, want {want}"
            );
        }
    }
    println!(
        "sim figures: ops-nn adaptive_avg_pool3d_grad fp32 (NC {nc}, {input:?} <- {output:?}) on {cores} cores, SyncAll + atomic add: max |error| {max_err:.3e}"
    );
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
    let Some(cann) = shared("cann") else {
        return;
    };
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
    };
    let (outputs, summary) =
        run_kernel(&source, &run, &cann, &cache()).unwrap_or_else(|e| panic!("{e}"));
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
