// Hand-written body of AvgPool2dBackward, filled by gen into the generated kernel class
// (op_kernel/avg_pool2d_backward.cpp); see kernels/README.md for the contract.
//
// The pooling windows, for gather_spread_body.inc (which does the work, as depth-1 3-D pooling):
// output o of an axis pools input [o*s - pad, o*s - pad + k), weighted by 1 / the divisor
// (PyTorch: divisorOverride, else the window size with or without padding; both are products of
// an H and a W factor).

__aicore__ inline GlobalTensor<T> OutGm() { return gradInputGm_; }

__aicore__ inline void AxisPool(int axis, int64_t& in, int64_t& out, int64_t& k, int64_t& s, int64_t& pad) {
    bool h = axis == 1;
    in = h ? tiling_.inH : tiling_.inW;
    out = h ? tiling_.outH : tiling_.outW;
    k = h ? tiling_.kH : tiling_.kW;
    s = h ? tiling_.sH : tiling_.sW;
    pad = h ? tiling_.padH : tiling_.padW;
}

/// The c-th output whose window covers input index i, or -1.
__aicore__ inline int64_t Cover(int axis, int64_t i, int64_t c) {
    if (axis == 0) {
        return c == 0 ? 0 : -1;
    }
    int64_t in = 0, out = 0, k = 1, s = 1, pad = 0;
    AxisPool(axis, in, out, k, s, pad);
    int64_t first = i + pad - k < 0 ? 0 : (i + pad - k) / s + 1;
    int64_t o = first + c;
    return o < out && o * s - pad <= i ? o : -1;
}

__aicore__ inline float Factor(int axis, int64_t o) {
    if (axis == 0) {
        return tiling_.divisorOverride != 0 ? 1.0f / static_cast<float>(tiling_.divisorOverride) : 1.0f;
    }
    if (tiling_.divisorOverride != 0) {
        return 1.0f;
    }
    int64_t in = 0, out = 0, k = 1, s = 1, pad = 0;
    AxisPool(axis, in, out, k, s, pad);
    int64_t start = o * s - pad;
    int64_t end = start + k < in + pad ? start + k : in + pad;
    int64_t size = tiling_.countIncludePad != 0 ? end - start
                                                 : (end < in ? end : in) - (start > 0 ? start : 0);
    return 1.0f / static_cast<float>(size);
}

#include "../common/gather_spread_body.inc"
