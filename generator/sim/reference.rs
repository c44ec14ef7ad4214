//! Pure-Rust references of the seed kernels (f64, PyTorch semantics), independent of the C++
//! bodies: the golden tests compare `sim` against them.

/// Window of adaptive pooling: output `i` of `out` covers input [floor(i·in/out), ceil((i+1)·in/out)).
pub fn adaptive_window(i: usize, input: usize, output: usize) -> (usize, usize) {
    let start = i * input / output;
    let end = ((i + 1) * input).div_ceil(output);
    (start, end)
}

/// Backward of adaptive average pooling over the last three dims of `planes` planes
/// (2-D pooling: depth 1 in and out). Each output gradient is spread evenly over its window.
pub fn adaptive_avg_pool_backward(
    grad_out: &[f64],
    planes: usize,
    input: [usize; 3],
    output: [usize; 3],
) -> Vec<f64> {
    let [id, ih, iw] = input;
    let [od, oh, ow] = output;
    let mut grad_in = vec![0.0; planes * id * ih * iw];
    for p in 0..planes {
        for d in 0..od {
            let (d0, d1) = adaptive_window(d, id, od);
            for h in 0..oh {
                let (h0, h1) = adaptive_window(h, ih, oh);
                for w in 0..ow {
                    let (w0, w1) = adaptive_window(w, iw, ow);
                    let g = grad_out[((p * od + d) * oh + h) * ow + w];
                    let size = ((d1 - d0) * (h1 - h0) * (w1 - w0)) as f64;
                    for x in d0..d1 {
                        for y in h0..h1 {
                            for z in w0..w1 {
                                grad_in[((p * id + x) * ih + y) * iw + z] += g / size;
                            }
                        }
                    }
                }
            }
        }
    }
    grad_in
}

/// Backward of adaptive max pooling: gradOutput scattered into gradInput at `indices` (flat over
/// D·H·W of each plane), duplicates accumulating.
pub fn adaptive_max_pool_backward(
    grad_out: &[f64],
    indices: &[i32],
    planes: usize,
    input_elems: usize,
) -> Vec<f64> {
    let mut grad_in = vec![0.0; planes * input_elems];
    let per_plane = grad_out.len().checked_div(planes).unwrap_or(0);
    for (j, (g, idx)) in grad_out.iter().zip(indices).enumerate() {
        let p = j / per_plane.max(1);
        grad_in[p * input_elems + *idx as usize] += g;
    }
    grad_in
}

/// Parameters of 2-D average pooling, already expanded to (H, W) pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pool2d {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub ceil_mode: bool,
    pub count_include_pad: bool,
    /// 0: no override.
    pub divisor_override: i64,
}

/// PyTorch's pooling output size (`pooling_output_shape`), dilation 1.
pub fn pool_output_size(
    input: usize,
    kernel: usize,
    stride: usize,
    pad: usize,
    ceil: bool,
) -> usize {
    let span =
        input as i64 + 2 * pad as i64 - kernel as i64 + if ceil { stride as i64 - 1 } else { 0 };
    let mut out = span.div_euclid(stride as i64) + 1;
    if ceil && (out - 1) * stride as i64 >= input as i64 + pad as i64 {
        out -= 1;
    }
    out.max(0) as usize
}

/// Backward of 2-D average pooling with PyTorch's semantics (CPU kernel of avg_pool2d_backward).
pub fn avg_pool2d_backward(
    grad_out: &[f64],
    planes: usize,
    input: [usize; 2],
    output: [usize; 2],
    pool: &Pool2d,
) -> Vec<f64> {
    let [ih, iw] = input.map(|v| v as i64);
    let [oh, ow] = output;
    let [kh, kw] = pool.kernel.map(|v| v as i64);
    let [sh, sw] = pool.stride.map(|v| v as i64);
    let [ph, pw] = pool.padding.map(|v| v as i64);
    let mut grad_in = vec![0.0; planes * (ih * iw) as usize];
    for p in 0..planes {
        for y in 0..oh {
            for x in 0..ow {
                let mut h0 = y as i64 * sh - ph;
                let mut w0 = x as i64 * sw - pw;
                let mut h1 = (h0 + kh).min(ih + ph);
                let mut w1 = (w0 + kw).min(iw + pw);
                let pool_size = (h1 - h0) * (w1 - w0);
                h0 = h0.max(0);
                w0 = w0.max(0);
                h1 = h1.min(ih);
                w1 = w1.min(iw);
                if h0 >= h1 || w0 >= w1 {
                    continue;
                }
                let divisor = if pool.divisor_override != 0 {
                    pool.divisor_override
                } else if pool.count_include_pad {
                    pool_size
                } else {
                    (h1 - h0) * (w1 - w0)
                };
                let g = grad_out[(p * oh + y) * ow + x] / divisor as f64;
                for a in h0..h1 {
                    for b in w0..w1 {
                        grad_in[p * (ih * iw) as usize + (a * iw + b) as usize] += g;
                    }
                }
            }
        }
    }
    grad_in
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adaptive_windows_cover_and_overlap() {
        // 5 → 3: [0,2), [1,4), [3,5): every input covered, neighbours overlap.
        let w: Vec<_> = (0..3).map(|i| adaptive_window(i, 5, 3)).collect();
        assert_eq!(w, vec![(0, 2), (1, 4), (3, 5)]);
        // 2 → 4 (upsampling): windows of one element, each input used twice.
        let w: Vec<_> = (0..4).map(|i| adaptive_window(i, 2, 4)).collect();
        assert_eq!(w, vec![(0, 1), (0, 1), (1, 2), (1, 2)]);
    }

    #[test]
    fn adaptive_avg_backward_conserves_gradient_mass() {
        let g: Vec<f64> = (0..2 * 3 * 2).map(|i| i as f64).collect();
        let out = adaptive_avg_pool_backward(&g, 2, [1, 5, 4], [1, 3, 2]);
        let sum_in: f64 = out.iter().sum();
        assert!((sum_in - g.iter().sum::<f64>()).abs() < 1e-9);
    }

    #[test]
    fn avg_pool_backward_of_the_docs_example_spreads_evenly() {
        // kernel 4x4 over 4x4, stride 1: one output, each input gets g/16.
        let pool = Pool2d {
            kernel: [4, 4],
            stride: [1, 1],
            padding: [0, 0],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: 0,
        };
        let out = avg_pool2d_backward(&[16.0], 1, [4, 4], [1, 1], &pool);
        assert_eq!(out, vec![1.0; 16]);
    }

    #[test]
    fn avg_pool_divisor_follows_padding_rules() {
        let mut pool = Pool2d {
            kernel: [3, 3],
            stride: [2, 2],
            padding: [1, 1],
            ceil_mode: false,
            count_include_pad: true,
            divisor_override: 0,
        };
        assert_eq!(pool_output_size(3, 3, 2, 1, false), 2);
        let g = [9.0, 0.0, 0.0, 0.0];
        // Output (0,0) covers input [0,2)x[0,2) inside a 3x3 padded window.
        let with_pad = avg_pool2d_backward(&g, 1, [3, 3], [2, 2], &pool);
        assert_eq!(with_pad[0], 1.0);
        pool.count_include_pad = false;
        let without_pad = avg_pool2d_backward(&g, 1, [3, 3], [2, 2], &pool);
        assert_eq!(without_pad[0], 9.0 / 4.0);
        pool.divisor_override = 2;
        let overridden = avg_pool2d_backward(&g, 1, [3, 3], [2, 2], &pool);
        assert_eq!(overridden[0], 4.5);
    }

    #[test]
    fn ceil_mode_adds_a_partial_window_unless_it_starts_in_padding() {
        assert_eq!(pool_output_size(5, 2, 2, 0, false), 2);
        assert_eq!(pool_output_size(5, 2, 2, 0, true), 3);
        // The last window would start at 4 >= 3 + 1 (input + pad): dropped.
        assert_eq!(pool_output_size(3, 2, 2, 1, true), 2);
    }

    #[test]
    fn max_pool_backward_accumulates_duplicates() {
        let out = adaptive_max_pool_backward(&[1.0, 2.0, 4.0, 8.0], &[0, 0, 1, 1], 2, 2);
        assert_eq!(out, vec![3.0, 0.0, 0.0, 12.0]);
    }
}
