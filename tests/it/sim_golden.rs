//! Golden tests of the seed kernels: `sim` (the generated tiling and kernel on aclgen's own Ascend
//! C runtime and AI Core model, no CANN) against the pure-Rust references, on random shapes for
//! every dtype on 1, 2, 8 and 48 cores; and the model's checks on mutated and deliberately broken
//! bodies, each reported with the kernel's file:line.
//!
//! Tolerances, |got − ref| ≤ atol + rtol·|ref| with inputs in [−1, 1] (16-bit inputs are first
//! rounded to their dtype, and the reference sees the rounded values):
//!   FLOAT32  atol 1e-5, rtol 1e-5  (fp32 accumulation)
//!   FLOAT16  atol 1e-3, rtol 1e-3  (fp32 accumulation, one rounding to fp16: 2^-11 relative)
//!   BFLOAT16 atol 8e-3, rtol 8e-3  (fp32 accumulation, one rounding to bf16: 2^-8 relative)

use crate::common;

use aclgen::ir::OpIr;
use aclgen::sim::float16::{bf16_bits_to_f32, f16_bits_to_f32, f32_to_bf16_bits, f32_to_f16_bits};
use aclgen::sim::reference::{self, Pool2d};
use aclgen::sim::{self, SimError, SimOptions};
use aclnn_runtime::DType;
use common::repo;
use common::seed_ops::seed_op;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const CASES_PER_DTYPE: usize = 18;
/// Core counts every op and dtype runs on.
const CORES: [u32; 4] = [1, 2, 8, 48];

/// Largest |got - want| per (op, dtype, cores), printed by each test.
/// (op, dtype, cores) → (max |error|, runs).
type ErrorTable = BTreeMap<(String, String, u32), (f64, usize)>;
static MAX_ERROR: Mutex<ErrorTable> = Mutex::new(BTreeMap::new());

fn record_error(op: &str, dtype: DType, cores: u32, got: &[f64], want: &[f64]) {
    let err = got
        .iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0, f64::max);
    let mut table = MAX_ERROR.lock().unwrap_or_else(|e| e.into_inner());
    let entry = table
        .entry((op.to_string(), dtype.to_string(), cores))
        .or_insert((0.0, 0));
    entry.0 = entry.0.max(err);
    entry.1 += 1;
}

fn print_errors(op: &str) {
    let table = MAX_ERROR.lock().unwrap_or_else(|e| e.into_inner());
    for ((o, dtype, cores), (err, runs)) in table.iter() {
        if o == op {
            println!("sim figures: {o:<26} {dtype:<9} cores {cores}: {runs:>3} runs, max |error| {err:.3e}");
        }
    }
}
const DTYPES: [DType; 3] = [DType::Float32, DType::Float16, DType::BFloat16];

/// Splitmix64: a small seeded generator, so every run draws the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi].
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// An op's generated project and how to run it: the committed `generated/` when it holds the op
/// and the bodies are the project's (the project `gen` wrote is the one sim runs), else the
/// kernel files rendered into a temp dir, as `gen` would.
struct Harness {
    op: OpIr,
    _generated: Option<tempfile::TempDir>,
    opts: SimOptions,
}

impl Harness {
    fn new(op_name: &str, kernels: &Path) -> Harness {
        let op = seed_op(op_name).expect("seed op");
        let committed = repo().join("generated");
        let snake = aclgen::ir::snake_case(op_name);
        let use_committed = kernels == repo().join("kernels")
            && committed
                .join(format!("ops/{snake}/op_kernel/{snake}.cpp"))
                .is_file();
        let (generated, root) = if use_committed {
            (None, committed)
        } else {
            let dir = tempfile::tempdir().expect("temp dir");
            common::write_kernel_side(&op, kernels, dir.path());
            let root = dir.path().to_path_buf();
            (Some(dir), root)
        };
        let opts = SimOptions {
            generated: root,
            toolkit: None,
            cache: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("aclgen-sim"),
            core_num: None,
            profile: false,
            trace: None,
        };
        Harness {
            op,
            _generated: generated,
            opts,
        }
    }

    /// Runs one call: `tensors` are (name, shape, values); values of the output are ignored.
    fn run(
        &self,
        dtype: DType,
        tensors: &[(&str, Vec<usize>, Data)],
        attrs: Value,
        cores: Option<u32>,
    ) -> Result<(Vec<f64>, Value), SimError> {
        let dir = tempfile::tempdir().expect("case dir");
        let mut args = attrs.as_object().cloned().unwrap_or_default();
        let mut output = None;
        for (name, shape, data) in tensors {
            let file = format!("{name}.bin");
            let (ty, bytes) = match data {
                Data::Float(v) => (dtype, encode(dtype, v)),
                Data::Int32(v) => (
                    DType::Int32,
                    v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                ),
                Data::Output => {
                    output = Some(file.clone());
                    (dtype, Vec::new())
                }
            };
            if !matches!(data, Data::Output) {
                std::fs::write(dir.path().join(&file), bytes).expect("write input");
            }
            args.insert(
                name.to_string(),
                json!({"shape": shape, "dtype": ty.as_str(), "format": "ND", "data": file}),
            );
        }
        let case_json = json!({"product": "ascend910b", "args": args}).to_string();
        let case = sim::parse_case(&self.op, &case_json, dir.path()).expect("case parses");
        let mut opts = self.opts.clone();
        opts.core_num = cores;
        let summary = sim::run(&self.op, &case, &opts)?;
        let out = output.expect("an output tensor");
        let bytes = std::fs::read(dir.path().join(out)).expect("output written");
        Ok((decode(dtype, &bytes), summary))
    }
}

enum Data {
    Float(Vec<f64>),
    Int32(Vec<i32>),
    Output,
}

fn encode(dtype: DType, values: &[f64]) -> Vec<u8> {
    match dtype {
        DType::Float32 => values
            .iter()
            .flat_map(|v| (*v as f32).to_le_bytes())
            .collect(),
        DType::Float16 => values
            .iter()
            .flat_map(|v| f32_to_f16_bits(*v as f32).to_le_bytes())
            .collect(),
        DType::BFloat16 => values
            .iter()
            .flat_map(|v| f32_to_bf16_bits(*v as f32).to_le_bytes())
            .collect(),
        other => panic!("no encoding for {other}"),
    }
}

fn decode(dtype: DType, bytes: &[u8]) -> Vec<f64> {
    match dtype {
        DType::Float32 => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect(),
        DType::Float16 => bytes
            .chunks_exact(2)
            .map(|c| f16_bits_to_f32(u16::from_le_bytes([c[0], c[1]])) as f64)
            .collect(),
        DType::BFloat16 => bytes
            .chunks_exact(2)
            .map(|c| bf16_bits_to_f32(u16::from_le_bytes([c[0], c[1]])) as f64)
            .collect(),
        other => panic!("no decoding for {other}"),
    }
}

/// Values as the kernel sees them: rounded to the dtype.
fn quantize(dtype: DType, values: &[f64]) -> Vec<f64> {
    decode(dtype, &encode(dtype, values))
}

fn random_values(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.unit()).collect()
}

fn tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Float32 => (1e-5, 1e-5),
        DType::Float16 => (1e-3, 1e-3),
        _ => (8e-3, 8e-3),
    }
}

fn assert_close(dtype: DType, got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: output length");
    let (atol, rtol) = tolerance(dtype);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= atol + rtol * w.abs(),
            "{what}: element {i}: got {g}, want {w} (dtype {dtype})"
        );
    }
}

/// Case i of a dtype runs on CORES[i % 3].
fn pick_cores(i: usize) -> u32 {
    CORES[i % CORES.len()]
}

fn check_summary(summary: &Value, what: &str) {
    assert_eq!(summary["status"], "ok", "{what}: {summary}");
    let used = summary["ub_bytes_per_core"].as_u64().expect("ub bytes");
    assert!(used <= 192 * 1024, "{what}: {summary}");
    assert!(summary["block_dim"].as_u64().expect("block dim") >= 1);
}

// ---- AvgPool2dBackward -------------------------------------------------------------------

struct AvgCase {
    lead: Vec<usize>,
    input: [usize; 2],
    pool: Pool2d,
}

fn random_avg_case(rng: &mut Rng) -> AvgCase {
    loop {
        let kernel = [rng.range(1, 4), rng.range(1, 4)];
        let padding = [rng.range(0, kernel[0] / 2), rng.range(0, kernel[1] / 2)];
        let stride = [rng.range(1, 3), rng.range(1, 3)];
        let input = [
            rng.range(kernel[0].saturating_sub(2 * padding[0]).max(1), 11),
            rng.range(kernel[1].saturating_sub(2 * padding[1]).max(1), 13),
        ];
        let divisor_override = if rng.range(0, 3) == 0 {
            rng.range(1, 5) as i64
        } else {
            0
        };
        let pool = Pool2d {
            kernel,
            stride,
            padding,
            ceil_mode: rng.coin(),
            count_include_pad: rng.coin(),
            divisor_override,
        };
        let lead = if rng.coin() {
            vec![rng.range(1, 3), rng.range(1, 4)]
        } else {
            vec![rng.range(1, 5)]
        };
        if avg_output(&input, &pool).iter().all(|d| *d > 0) {
            return AvgCase { lead, input, pool };
        }
    }
}

fn avg_output(input: &[usize; 2], pool: &Pool2d) -> [usize; 2] {
    [0, 1].map(|i| {
        reference::pool_output_size(
            input[i],
            pool.kernel[i],
            pool.stride[i],
            pool.padding[i],
            pool.ceil_mode,
        )
    })
}

fn run_avg_case(h: &Harness, dtype: DType, case: &AvgCase, cores: u32, what: &str) {
    let output = avg_output(&case.input, &case.pool);
    let planes: usize = case.lead.iter().product();
    let shape = |hw: [usize; 2]| [case.lead.clone(), hw.to_vec()].concat();
    let mut rng = Rng(planes as u64 * 7919 + case.input[0] as u64);
    let grad = quantize(
        dtype,
        &random_values(&mut rng, planes * output[0] * output[1]),
    );
    let want = reference::avg_pool2d_backward(&grad, planes, case.input, output, &case.pool);
    let pool = &case.pool;
    let attrs = json!({
        "kernelSize": pool.kernel, "stride": pool.stride, "padding": pool.padding,
        "ceilMode": pool.ceil_mode, "countIncludePad": pool.count_include_pad,
        "divisorOverride": pool.divisor_override, "cubeMathType": 1,
    });
    let zeros = vec![0.0; planes * case.input[0] * case.input[1]];
    let tensors = [
        ("gradOutput", shape(output), Data::Float(grad)),
        ("self", shape(case.input), Data::Float(zeros)),
        ("gradInput", shape(case.input), Data::Output),
    ];
    let (got, summary) = h
        .run(dtype, &tensors, attrs, Some(cores))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    check_summary(&summary, what);
    assert!(
        summary["block_dim"].as_u64().unwrap_or(0) <= u64::from(cores),
        "{what}: {summary}"
    );
    assert_close(dtype, &got, &want, what);
    record_error(&h.op.op, dtype, cores, &got, &want);
}

#[test]
fn avg_pool2d_backward_matches_reference() {
    let h = Harness::new("AvgPool2dBackward", &repo().join("kernels"));
    let mut rng = Rng(2024);
    for dtype in DTYPES {
        for i in 0..CASES_PER_DTYPE {
            let case = random_avg_case(&mut rng);
            let cores = pick_cores(i);
            let what = format!(
                "AvgPool2dBackward {dtype} case {i}: lead {:?} input {:?} {:?} cores {cores}",
                case.lead, case.input, case.pool
            );
            run_avg_case(&h, dtype, &case, cores, &what);
        }
        // One element, and rows too wide for one UB tile (several tiles per core).
        let one = AvgCase {
            lead: vec![1],
            input: [1, 1],
            pool: Pool2d {
                kernel: [1, 1],
                stride: [1, 1],
                padding: [0, 0],
                ceil_mode: false,
                count_include_pad: true,
                divisor_override: 0,
            },
        };
        run_avg_case(&h, dtype, &one, 8, "AvgPool2dBackward one element");
        let wide = AvgCase {
            lead: vec![2, 1],
            input: [9, 3001],
            pool: Pool2d {
                kernel: [3, 2],
                stride: [2, 1],
                padding: [1, 1],
                ceil_mode: true,
                count_include_pad: false,
                divisor_override: 0,
            },
        };
        run_avg_case(&h, dtype, &wide, 2, "AvgPool2dBackward wide rows");
        // Packed mode (every index covered, outW a multiple of 8: no pad column, no zero row), with
        // W windows side by side and overlapping.
        let packed = AvgCase {
            lead: vec![2, 3],
            input: [9, 16],
            pool: Pool2d {
                kernel: [3, 2],
                stride: [2, 2],
                padding: [1, 0],
                ceil_mode: false,
                count_include_pad: false,
                divisor_override: 0,
            },
        };
        run_avg_case(&h, dtype, &packed, 8, "AvgPool2dBackward packed rows");
        let overlapping = AvgCase {
            lead: vec![3],
            input: [9, 16],
            pool: Pool2d {
                kernel: [3, 3],
                stride: [2, 2],
                padding: [1, 1],
                ceil_mode: false,
                count_include_pad: true,
                divisor_override: 0,
            },
        };
        run_avg_case(
            &h,
            dtype,
            &overlapping,
            48,
            "AvgPool2dBackward packed rows, overlapping columns",
        );
    }
    print_errors("AvgPool2dBackward");
}

// ---- AdaptiveAvgPool2dBackward / AdaptiveAvgPool3dBackward -----------------------------------

/// Runs one adaptive average pooling case: `lead` (C or N, C), spatial `input` and `output`
/// of `spatial` dims (2 or 3).
fn run_adaptive_case(
    h: &Harness,
    dtype: DType,
    lead: &[usize],
    input: &[usize],
    output: &[usize],
    cores: u32,
    what: &str,
) {
    let planes: usize = lead.iter().product();
    let pad3 = |dims: &[usize]| {
        let mut d = [1usize; 3];
        d[3 - dims.len()..].copy_from_slice(dims);
        d
    };
    let (in3, out3) = (pad3(input), pad3(output));
    let mut rng = Rng((planes * 31 + in3.iter().sum::<usize>()) as u64);
    let grad = quantize(
        dtype,
        &random_values(&mut rng, planes * out3.iter().product::<usize>()),
    );
    let want = reference::adaptive_avg_pool_backward(&grad, planes, in3, out3);
    let zeros = vec![0.0; planes * in3.iter().product::<usize>()];
    let shape = |dims: &[usize]| [lead, dims].concat();
    let tensors = [
        ("gradOutput", shape(output), Data::Float(grad)),
        ("self", shape(input), Data::Float(zeros)),
        ("out", shape(input), Data::Output),
    ];
    let (got, summary) = h
        .run(dtype, &tensors, json!({}), Some(cores))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    check_summary(&summary, what);
    assert!(
        summary["block_dim"].as_u64().unwrap_or(0) <= u64::from(cores),
        "{what}: {summary}"
    );
    assert_close(dtype, &got, &want, what);
    record_error(&h.op.op, dtype, cores, &got, &want);
}

fn random_lead(rng: &mut Rng) -> Vec<usize> {
    if rng.coin() {
        vec![rng.range(1, 2), rng.range(1, 3)]
    } else {
        vec![rng.range(1, 4)]
    }
}

#[test]
fn adaptive_avg_pool2d_backward_matches_reference() {
    let h = Harness::new("AdaptiveAvgPool2dBackward", &repo().join("kernels"));
    let mut rng = Rng(7);
    for dtype in DTYPES {
        for i in 0..CASES_PER_DTYPE {
            let lead = random_lead(&mut rng);
            // Outputs larger and smaller than inputs: overlapping and one-element windows.
            let input = [rng.range(1, 11), rng.range(1, 13)];
            let output = [rng.range(1, 9), rng.range(1, 9)];
            let cores = pick_cores(i);
            let what = format!(
                "AdaptiveAvgPool2dBackward {dtype} case {i}: lead {lead:?} in {input:?} out {output:?} cores {cores}"
            );
            run_adaptive_case(&h, dtype, &lead, &input, &output, cores, &what);
        }
        run_adaptive_case(&h, dtype, &[1], &[1, 1], &[1, 1], 8, "one element");
        run_adaptive_case(&h, dtype, &[2, 3], &[7, 2500], &[3, 999], 2, "wide rows");
        // Packed mode (one covering output per column, outW a multiple of 8): no pad column, no
        // zero row; whole planes and planes split over cores.
        run_adaptive_case(&h, dtype, &[2], &[12, 24], &[5, 8], 2, "packed rows");
        run_adaptive_case(
            &h,
            dtype,
            &[2],
            &[12, 20],
            &[5, 8],
            8,
            "packed rows, overlapping columns",
        );
        run_adaptive_case(
            &h,
            dtype,
            &[3],
            &[20, 32],
            &[8, 16],
            48,
            "packed rows, split planes",
        );
    }
    print_errors("AdaptiveAvgPool2dBackward");
}

#[test]
fn adaptive_avg_pool3d_backward_matches_reference() {
    let h = Harness::new("AdaptiveAvgPool3dBackward", &repo().join("kernels"));
    let mut rng = Rng(11);
    for dtype in DTYPES {
        for i in 0..CASES_PER_DTYPE {
            let lead = random_lead(&mut rng);
            let input = [rng.range(1, 5), rng.range(1, 7), rng.range(1, 9)];
            let output = [rng.range(1, 4), rng.range(1, 5), rng.range(1, 7)];
            let cores = pick_cores(i);
            let what = format!(
                "AdaptiveAvgPool3dBackward {dtype} case {i}: lead {lead:?} in {input:?} out {output:?} cores {cores}"
            );
            run_adaptive_case(&h, dtype, &lead, &input, &output, cores, &what);
        }
        run_adaptive_case(&h, dtype, &[1], &[1, 1, 1], &[1, 1, 1], 8, "one element");
        run_adaptive_case(&h, dtype, &[2], &[3, 5, 2100], &[5, 2, 700], 2, "wide rows");
        // Packed mode: overlapping D and H windows (combination blocks), split planes.
        run_adaptive_case(
            &h,
            dtype,
            &[2, 3],
            &[5, 6, 16],
            &[3, 4, 8],
            8,
            "packed rows",
        );
        run_adaptive_case(
            &h,
            dtype,
            &[2],
            &[3, 5, 12],
            &[2, 3, 8],
            2,
            "packed rows, overlapping columns",
        );
        // Packed whole planes, outH a multiple of 8: the row weights as an outer product.
        run_adaptive_case(
            &h,
            dtype,
            &[2, 3],
            &[5, 16, 8],
            &[3, 8, 8],
            2,
            "packed rows, outer weights",
        );
        run_adaptive_case(
            &h,
            dtype,
            &[1],
            &[4, 8, 32],
            &[2, 4, 16],
            48,
            "packed rows, split planes",
        );
    }
    print_errors("AdaptiveAvgPool3dBackward");
}

// ---- AdaptiveMaxPool3dBackward ---------------------------------------------------------------

/// `dims`: leading dims (C or N, C), input D, H, W and output D, H, W.
fn run_max_case(
    h: &Harness,
    dtype: DType,
    dims: (&[usize], [usize; 3], [usize; 3]),
    rng: &mut Rng,
    cores: u32,
    what: &str,
) {
    run_max_case_with(h, dtype, dims, rng, cores, what, MaxIndices::Random);
}

/// How a case draws AdaptiveMaxPool3dBackward's indices.
#[derive(Clone, Copy, PartialEq)]
enum MaxIndices {
    /// Anywhere in the plane (half the cases from a few positions, so duplicates accumulate).
    Random,
    /// Each in its own window (what the forward op gives), the windows `input / output` apart; a
    /// `Some(k)` puts the k-th one in the next window instead.
    InWindow(Option<usize>),
}

fn run_max_case_with(
    h: &Harness,
    dtype: DType,
    dims: (&[usize], [usize; 3], [usize; 3]),
    rng: &mut Rng,
    cores: u32,
    what: &str,
    draw: MaxIndices,
) {
    let (lead, input, output) = dims;
    let planes: usize = lead.iter().product();
    let (in_elems, out_elems) = (
        input.iter().product::<usize>(),
        output.iter().product::<usize>(),
    );
    let grad = quantize(dtype, &random_values(rng, planes * out_elems));
    let indices: Vec<i32> = match draw {
        MaxIndices::Random => {
            let spread = if rng.coin() {
                in_elems
            } else {
                in_elems.min(3)
            };
            (0..planes * out_elems)
                .map(|_| rng.range(0, spread - 1) as i32)
                .collect()
        }
        MaxIndices::InWindow(stray) => {
            let k: Vec<usize> = (0..3).map(|a| input[a] / output[a]).collect();
            (0..planes * out_elems)
                .map(|j| {
                    let o = j % out_elems;
                    let (od, oh, ow) = (
                        o / (output[1] * output[2]),
                        o / output[2] % output[1],
                        o % output[2],
                    );
                    let d = od * k[0] + rng.range(0, k[0] - 1);
                    let hh = oh * k[1] + rng.range(0, k[1] - 1);
                    let mut w = ow * k[2] + rng.range(0, k[2] - 1);
                    if stray == Some(j) {
                        w = (w + k[2]) % input[2];
                    }
                    ((d * input[1] + hh) * input[2] + w) as i32
                })
                .collect()
        }
    };
    let want = reference::adaptive_max_pool_backward(&grad, &indices, planes, in_elems);
    let zeros = vec![0.0; planes * in_elems];
    let shape = |dims: [usize; 3]| [lead, &dims[..]].concat();
    let tensors = [
        ("gradOutput", shape(output), Data::Float(grad)),
        ("self", shape(input), Data::Float(zeros)),
        ("indices", shape(output), Data::Int32(indices)),
        ("gradInput", shape(input), Data::Output),
    ];
    let (got, summary) = h
        .run(dtype, &tensors, json!({}), Some(cores))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    check_summary(&summary, what);
    assert!(
        summary["block_dim"].as_u64().unwrap_or(0) <= u64::from(cores),
        "{what}: {summary}"
    );
    assert_close(dtype, &got, &want, what);
    record_error(&h.op.op, dtype, cores, &got, &want);
}

#[test]
fn adaptive_max_pool3d_backward_matches_reference() {
    let h = Harness::new("AdaptiveMaxPool3dBackward", &repo().join("kernels"));
    let mut rng = Rng(13);
    for dtype in DTYPES {
        for i in 0..CASES_PER_DTYPE {
            let lead = random_lead(&mut rng);
            let input = [rng.range(1, 5), rng.range(1, 7), rng.range(1, 9)];
            let output = [rng.range(1, 4), rng.range(1, 5), rng.range(1, 6)];
            let cores = pick_cores(i);
            let what = format!(
                "AdaptiveMaxPool3dBackward {dtype} case {i}: lead {lead:?} in {input:?} out {output:?} cores {cores}"
            );
            run_max_case(&h, dtype, (&lead, input, output), &mut rng, cores, &what);
        }
        run_max_case(
            &h,
            dtype,
            (&[1], [1, 1, 1], [1, 1, 1]),
            &mut rng,
            8,
            "one element",
        );
        // A plane larger than UB (several segments) and gradOutput in several chunks.
        run_max_case(
            &h,
            dtype,
            (&[1], [4, 100, 150], [3, 40, 50]),
            &mut rng,
            1,
            "large plane",
        );
        run_max_case(
            &h,
            dtype,
            (&[2], [2, 9, 11], [2, 5, 6]),
            &mut rng,
            8,
            "planes split over cores",
        );
        // The window path (input divisible by output, rows of 8): indices in their windows; one
        // index outside its window (the tile falls back to the scalar spread); random indices.
        let window = (&[2usize, 3][..], [4, 8, 16], [2, 4, 8]);
        for (cores, draw, name) in [
            (2, MaxIndices::InWindow(None), "window path"),
            (
                48,
                MaxIndices::InWindow(None),
                "window path, a plane a core",
            ),
            (
                1,
                MaxIndices::InWindow(Some(77)),
                "window path, one index outside its window",
            ),
            (2, MaxIndices::Random, "window path, random indices"),
        ] {
            let what = format!("AdaptiveMaxPool3dBackward {dtype} {name}");
            run_max_case_with(&h, dtype, window, &mut rng, cores, &what, draw);
        }
        // A plane a tile, three tiles on one core: one check for the core finds the stray index,
        // the tiles run again with a check each and the second falls back.
        run_max_case_with(
            &h,
            dtype,
            (&[3], [8, 16, 32], [4, 8, 8]),
            &mut rng,
            1,
            &format!("AdaptiveMaxPool3dBackward {dtype} window path, tile 2 of 3 falls back"),
            MaxIndices::InWindow(Some(256 + 5)),
        );
        // Many tiles on one core (too many matches for one check a core in half): a check per
        // tile, the stray index's tile falls back alone.
        let many = (&[64usize][..], [4, 8, 16], [2, 4, 8]);
        for (draw, name) in [
            (MaxIndices::InWindow(None), "window path, a check per tile"),
            (
                MaxIndices::InWindow(Some(64 * 30 + 7)),
                "window path, a check per tile, one tile falls back",
            ),
        ] {
            let what = format!("AdaptiveMaxPool3dBackward {dtype} {name}");
            run_max_case_with(&h, dtype, many, &mut rng, 1, &what, draw);
        }
    }
    print_errors("AdaptiveMaxPool3dBackward");
}

// ---- the model's checks on mutated and broken bodies -------------------------------------------

/// Runs AvgPool2dBackward (4x4 → 1x1 per plane, 2 planes) with the bodies of `kernels` and
/// returns the failure.
fn broken_run(kernels: &Path, cores: Option<u32>) -> (Value, String) {
    let h = Harness::new("AvgPool2dBackward", kernels);
    let attrs = json!({"kernelSize": [4, 4], "stride": [1, 1], "padding": [0, 0], "ceilMode": false,
        "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1});
    let tensors = [
        ("gradOutput", vec![2, 1, 1], Data::Float(vec![1.0, 2.0])),
        ("self", vec![2, 4, 4], Data::Float(vec![0.0; 32])),
        ("gradInput", vec![2, 4, 4], Data::Output),
    ];
    match h.run(DType::Float32, &tensors, attrs, cores) {
        Err(SimError::Failed { summary, stderr }) => (summary, stderr),
        Ok((_, summary)) => panic!("the broken body ran: {summary}"),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures/kernels").join(name)
}

/// The line marked BROKEN (in the op's body or the common code it includes), as the message must
/// name it.
fn broken_line(kernels: &Path) -> String {
    for file in [
        "avg_pool2d_backward/avg_pool2d_backward_body.h",
        "common/gather_spread_body.inc",
    ] {
        let Ok(text) = std::fs::read_to_string(kernels.join(file)) else {
            continue;
        };
        if let Some(index) = text.lines().position(|l| l.contains("BROKEN")) {
            let name = Path::new(file)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy();
            return format!("{name}:{}", index + 1);
        }
    }
    panic!("a BROKEN line in {}", kernels.display());
}

/// Runs the broken bodies of `kernels` and checks the rule, the core and the BROKEN line.
fn assert_stops_in(kernels: &Path, rules: &[&str], core: i64, cores: Option<u32>) -> Value {
    let (summary, stderr) = broken_run(kernels, cores);
    assert_eq!(summary["status"], "violation", "{summary}");
    let rule = summary["rule"].as_str().unwrap_or("");
    assert!(
        rules.contains(&rule),
        "expected one of {rules:?}: {summary}"
    );
    assert_eq!(summary["core"], core, "{summary}");
    assert!(
        stderr.contains(&format!("rule '{rule}'")) && stderr.contains(&format!("on core {core}")),
        "{stderr}"
    );
    let line = broken_line(kernels);
    assert!(stderr.contains(&line), "the report names {line}: {stderr}");
    println!(
        "sim mutation: {}: {}",
        kernels.file_name().unwrap_or_default().to_string_lossy(),
        stderr
            .lines()
            .find(|l| l.starts_with("aclgen sim: rule"))
            .unwrap_or("")
    );
    summary
}

/// The project's avg_pool2d_backward (its body and the common code it includes) with one edit of
/// `file` (relative to kernels/), the edited line marked BROKEN.
fn mutant(name: &str, file: &str, find: &str, replace: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{name}-"))
        .tempdir()
        .expect("temp dir");
    copy_dir(
        &repo().join("kernels/avg_pool2d_backward"),
        &dir.path().join("avg_pool2d_backward"),
    );
    copy_dir(&repo().join("kernels/common"), &dir.path().join("common"));
    let body = dir.path().join(file);
    let text = std::fs::read_to_string(&body).expect("body");
    assert_eq!(
        text.matches(find).count(),
        1,
        "{name}: `{find}` once in {file}"
    );
    std::fs::write(&body, text.replace(find, replace)).expect("write mutant");
    dir
}

/// Marks the line starting (after indentation) with `find` in `file` of the mutant as BROKEN; a
/// `find` ending in a newline is the whole line.
fn mark_broken(m: &tempfile::TempDir, file: &str, find: &str) {
    let body = m.path().join(file);
    let text = std::fs::read_to_string(&body).expect("body");
    assert_eq!(text.matches(find).count(), 1, "`{find}` once in {file}");
    let (head, whole_line) = match find.strip_suffix('\n') {
        Some(head) => (head, true),
        None => (find, false),
    };
    let marked: Vec<String> = text
        .lines()
        .map(|l| {
            let l_head = l.trim_start();
            if (whole_line && l_head == head) || (!whole_line && l_head.starts_with(head)) {
                format!("{l}  // BROKEN")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&body, marked.join("\n") + "\n").expect("mark");
}

const SPREAD: &str = "common/gather_spread_body.inc";

#[test]
fn mutation_enque_deque_removed_is_a_v_to_mte3_hazard() {
    let m = mutant(
        "enque_deque_removed",
        SPREAD,
        "    outQueue_.EnQue(outLocal_);\n    LocalTensor<T> out = outQueue_.template DeQue<T>();\n",
        "    LocalTensor<T> out = outLocal_;  // no EnQue/DeQue before the copy out\n",
    );
    // The copy out that reads what the vector unit wrote is the BROKEN line.
    mark_broken(&m, SPREAD, "DataCopyPad(OutGm()[at], out,\n");
    let summary = assert_stops_in(m.path(), &["pipe-hazard"], 0, Some(2));
    let message = summary["message"].as_str().unwrap_or("");
    assert!(
        message.contains("on pipe MTE3 reads") && message.contains("last written on pipe V"),
        "{message}"
    );
}

#[test]
fn mutation_barrier_removed_is_a_v_to_s_hazard_seen_on_a_scalar_write() {
    // Rows() ends with the V->S flag that orders the next SetValue of the row values after the
    // Brcb that read them.
    let m = mutant(
        "barrier_removed",
        SPREAD,
        "    VectorToScalar();  // the next SetValue of vals waits for the vector unit to have read them\n",
        "",
    );
    // The SetValue that overwrites what the Brcb read is the BROKEN line.
    mark_broken(&m, SPREAD, "vals.SetValue(static_cast<uint32_t>(s),\n");
    let summary = assert_stops_in(m.path(), &["pipe-hazard"], 0, Some(2));
    let message = summary["message"].as_str().unwrap_or("");
    assert!(
        message.contains("scalar write (SetValue) on pipe S")
            && message.contains("last read on pipe V"),
        "{message}"
    );
}

#[test]
fn mutation_unified_buffer_overrun_is_caught() {
    let m = mutant(
        "ub_overrun",
        SPREAD,
        "    Mul(gs, gs, factorBuf_.template Get<float>(), static_cast<int32_t>(padded));\n",
        "    Mul(gs, gs, factorBuf_.template Get<float>(), static_cast<int32_t>(padded + 4096));  // BROKEN: past factorBuf_\n",
    );
    assert_stops_in(
        m.path(),
        &["ub-overrun", "ub-bounds", "kernel-assert"],
        0,
        Some(2),
    );
}

#[test]
fn mutation_misaligned_copy_is_caught() {
    let m = mutant(
        "misaligned_copy",
        SPREAD,
        "        DataCopyPad(grad, gradOutputGm_[static_cast<uint64_t>(plane_ * planeSrcRows_) * outW],\n",
        "        DataCopyPad(grad[1], gradOutputGm_[static_cast<uint64_t>(plane_ * planeSrcRows_) * outW],  // BROKEN\n",
    );
    assert_stops_in(m.path(), &["dma-alignment", "kernel-assert"], 0, Some(2));
}

// The UB capacity check of InitBuffer (fixture ub_overflow) is tests/sim_cli.rs's broken-body test.

#[test]
fn sim_stops_on_a_data_copy_of_part_of_a_block() {
    assert_stops_in(
        &fixture("misaligned_copy"),
        &["kernel-assert", "dma-alignment"],
        0,
        None,
    );
}

#[test]
fn sim_stops_on_queue_misuse() {
    assert_stops_in(
        &fixture("queue_misuse"),
        &["kernel-assert", "queue-balance"],
        0,
        None,
    );
}

#[test]
fn sim_stops_on_global_memory_overrun_on_the_core_that_did_it() {
    // Two units on two cores: only the second one reads past the end.
    let summary = assert_stops_in(&fixture("gm_out_of_bounds"), &["gm-bounds"], 1, Some(2));
    let message = summary["message"].as_str().expect("message");
    assert!(
        message.contains("bytes [8, 12) of global tensor 'gradOutput', which has 8 bytes"),
        "{message}"
    );
}

#[test]
fn skeleton_without_body_compiles_and_fails_loudly() {
    let empty = tempfile::tempdir().expect("temp dir");
    let (summary, stderr) = broken_run(empty.path(), None);
    assert_eq!(summary["rule"], "kernel-trap", "{summary}");
    assert!(stderr.contains("trap()"), "{stderr}");
}

// ---- build cache ---------------------------------------------------------------------------

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[test]
fn binary_is_cached_and_rebuilt_when_a_body_changes() {
    let kernels = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &repo().join("kernels/avg_pool2d_backward"),
        &kernels.path().join("avg_pool2d_backward"),
    );
    copy_dir(
        &repo().join("kernels/common"),
        &kernels.path().join("common"),
    );
    let body = kernels
        .path()
        .join("avg_pool2d_backward/avg_pool2d_backward_body.h");
    // A body no earlier run built (the cache is shared with the other tests).
    let mut text = std::fs::read_to_string(&body).expect("body");
    text.push_str(&format!("// {}\n", kernels.path().display()));
    std::fs::write(&body, &text).expect("edit body");
    let h = Harness::new("AvgPool2dBackward", kernels.path());
    // The docs' call example: a 4x4 kernel over 4x4 planes spreads g/16 everywhere.
    let run = |h: &Harness| {
        let attrs = json!({"kernelSize": [4, 4], "stride": [1, 1], "padding": [0, 0],
            "ceilMode": false, "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1});
        let tensors = [
            ("gradOutput", vec![1, 16, 1, 1], Data::Float(vec![16.0; 16])),
            ("self", vec![1, 16, 4, 4], Data::Float(vec![0.0; 256])),
            ("gradInput", vec![1, 16, 4, 4], Data::Output),
        ];
        let (out, summary) = h.run(DType::Float32, &tensors, attrs, None).expect("runs");
        assert_eq!(out, vec![1.0; 256]);
        summary["binary_cached"].as_bool().expect("binary_cached")
    };
    assert!(!run(&h), "first run builds");
    assert!(run(&h), "second run reuses the binary");
    text.push_str("// edited\n");
    std::fs::write(&body, text).expect("edit body");
    // gen renders the edited body into the project; sim rebuilds that project.
    let h = Harness::new("AvgPool2dBackward", kernels.path());
    assert!(!run(&h), "an edited body is rebuilt");
}

#[test]
fn tiling_refuses_a_grad_output_that_is_not_the_pooling_output_size() {
    let h = Harness::new("AvgPool2dBackward", &repo().join("kernels"));
    let attrs = json!({"kernelSize": [2, 2], "stride": [2, 2], "padding": [0, 0], "ceilMode": false,
        "countIncludePad": true, "divisorOverride": 0, "cubeMathType": 1});
    // 5x5 pooled by 2x2/2 gives 2x2 (3x3 only in ceil mode).
    let tensors = [
        ("gradOutput", vec![1, 3, 3], Data::Float(vec![1.0; 9])),
        ("self", vec![1, 5, 5], Data::Float(vec![0.0; 25])),
        ("gradInput", vec![1, 5, 5], Data::Output),
    ];
    match h.run(DType::Float32, &tensors, attrs, None) {
        Err(SimError::Failed { summary, stderr }) => {
            assert_eq!(summary["status"], "tiling_failed", "{summary}");
            assert!(
                stderr.contains("gradOutput's H and W are not the pooling output size"),
                "{stderr}"
            );
        }
        Ok((_, summary)) => panic!("tiling accepted it: {summary}"),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}
