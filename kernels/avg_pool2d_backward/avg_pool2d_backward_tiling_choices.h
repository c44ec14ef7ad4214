// Op-specific tiling choices of AvgPool2dBackward, filled by gen into the generated
// op_host/avg_pool2d_backward_tiling.cpp (which makes visible input::, attr:: and, from
// op_host/aclgen_tiling.h, TilingEnv, WorkPlan, CeilDiv, Align32, TilingFail).
//
// The work is gather_spread_tiling.inc's (shared with the adaptive average pooling ops): units are
// blocks of gradInput rows, each gathering the gradOutput rows whose windows cover it.
#pragma once

namespace optiling {
#include "../common/gather_spread_tiling.inc"

namespace avg_pool2d_backward_choices {

/// An aclIntArray attribute of 1 or 2 elements as (H, W); `whenEmpty` for an empty list.
inline bool PairOf(const gert::RuntimeAttrs* attrs, size_t index, int64_t whenEmptyH, int64_t whenEmptyW,
                   int64_t& h, int64_t& w) {
    const gert::TypedContinuousVector<int64_t>* list = attrs->GetListInt(index);
    if (list == nullptr || list->GetSize() == 0) {
        h = whenEmptyH;
        w = whenEmptyW;
        return true;
    }
    if (list->GetSize() > 2) {
        return false;
    }
    h = list->GetData()[0];
    w = list->GetData()[list->GetSize() - 1];
    return true;
}

/// PyTorch's pooling output size (dilation 1).
inline int64_t PoolOutSize(int64_t in, int64_t k, int64_t s, int64_t pad, bool ceilMode) {
    int64_t span = in + 2 * pad - k + (ceilMode ? s - 1 : 0);
    int64_t out = (span >= 0 ? span / s : -((-span + s - 1) / s)) + 1;
    if (ceilMode && (out - 1) * s >= in + pad) {
        --out;
    }
    return out;
}

}  // namespace avg_pool2d_backward_choices

inline bool AvgPool2dBackwardTilingChoices(gert::TilingContext* context, const TilingEnv& env,
                                           AvgPool2dBackwardTilingData& tiling, WorkPlan& plan) {
    using namespace avg_pool2d_backward_choices;
    const gert::Shape& grad = context->GetInputShape(input::gradOutput)->GetStorageShape();
    const gert::Shape& in = context->GetInputShape(input::self)->GetStorageShape();
    size_t rank = in.GetDimNum();
    if ((rank != 3 && rank != 4) || grad.GetDimNum() != rank) {
        return TilingFail(context, "self and gradOutput must both be CHW or NCHW");
    }
    int64_t planes = 1;
    for (size_t i = 0; i + 2 < rank; ++i) {
        if (in.GetDim(i) != grad.GetDim(i)) {
            return TilingFail(context, "self and gradOutput differ in N or C");
        }
        planes *= in.GetDim(i);
    }
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    int64_t kH = 0, kW = 0, sH = 0, sW = 0, padH = 0, padW = 0;
    if (!PairOf(attrs, attr::kernelSize, 0, 0, kH, kW) || !PairOf(attrs, attr::stride, kH, kW, sH, sW) ||
        !PairOf(attrs, attr::padding, 0, 0, padH, padW)) {
        return TilingFail(context, "kernelSize, stride and padding take 1 or 2 values");
    }
    const bool* ceilMode = attrs->GetAttrPointer<bool>(attr::ceilMode);
    const bool* countIncludePad = attrs->GetAttrPointer<bool>(attr::countIncludePad);
    const int64_t* divisorOverride = attrs->GetAttrPointer<int64_t>(attr::divisorOverride);
    if (kH <= 0 || kW <= 0 || sH <= 0 || sW <= 0 || padH < 0 || padW < 0 || ceilMode == nullptr ||
        countIncludePad == nullptr) {
        return TilingFail(context, "kernelSize and stride must be positive, padding non-negative");
    }
    int64_t inH = in.GetDim(rank - 2), inW = in.GetDim(rank - 1);
    int64_t outH = grad.GetDim(rank - 2), outW = grad.GetDim(rank - 1);
    if (inH > 0 && inW > 0 &&
        (PoolOutSize(inH, kH, sH, padH, *ceilMode) != outH || PoolOutSize(inW, kW, sW, padW, *ceilMode) != outW)) {
        return TilingFail(context, "gradOutput's H and W are not the pooling output size of self");
    }
    tiling.set_kH(kH);
    tiling.set_kW(kW);
    tiling.set_sH(sH);
    tiling.set_sW(sW);
    tiling.set_padH(padH);
    tiling.set_padW(padW);
    tiling.set_divisorOverride(divisorOverride == nullptr ? 0 : *divisorOverride);
    tiling.set_countIncludePad(*countIncludePad ? 1 : 0);

    gather_spread_choices::Geometry g;
    g.in[1] = inH;
    g.in[2] = inW;
    g.out[1] = outH;
    g.out[2] = outW;
    const int64_t ks[3] = {1, kH, kW}, ss[3] = {1, sH, sW}, pads[3] = {0, padH, padW};
    // The c-th output whose window covers input index i (as the kernel's Cover), or -1.
    auto cover = [&](int axis, int64_t i, int64_t c) -> int64_t {
        if (axis == 0) {
            return c == 0 ? 0 : -1;
        }
        int64_t first = i + pads[axis] - ks[axis] < 0 ? 0 : (i + pads[axis] - ks[axis]) / ss[axis] + 1;
        int64_t o = first + c;
        return o < g.out[axis] && o * ss[axis] - pads[axis] <= i ? o : -1;
    };
    bool empty = planes == 0 || inH == 0 || inW == 0 || outH <= 0 || outW <= 0;
    for (int axis = 1; axis < 3 && !empty; ++axis) {
        int64_t most = 1;
        for (int64_t i = 0; i < g.in[axis]; ++i) {
            int64_t n = 0;
            while (cover(axis, i, n) >= 0) {
                ++n;
            }
            most = n > most ? n : most;
        }
        g.cover[axis] = most;
    }
    if (empty) {
        g.out[1] = g.out[1] < 1 ? 1 : g.out[1];
        g.out[2] = g.out[2] < 1 ? 1 : g.out[2];
    }
    return gather_spread_choices::Choose(context, env, tiling, plan, g, empty ? 0 : planes, cover);
}

}  // namespace optiling
