// Op-specific tiling choices of AvgPool2dBackward, filled by gen into the generated
// op_host/avg_pool2d_backward_tiling.cpp (which makes visible input::, attr:: and, from
// op_host/aclgen_tiling.h, TilingEnv, WorkPlan, CeilDiv, Align32, TilingFail).
//
// Unit of work: one row of gradInput (W elements). For that row the kernel loads the rows of
// gradOutput whose windows cover it (at most maxRows = ceil(kH / sH)) and gathers them.
#pragma once

namespace optiling {
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
    int64_t maxRows = CeilDiv(kH, sH);
    if (maxRows > outH) {
        maxRows = outH;
    }
    if (maxRows < 1) {
        maxRows = 1;
    }
    tiling.set_inH(inH);
    tiling.set_inW(inW);
    tiling.set_outH(outH);
    tiling.set_outW(outW);
    tiling.set_kH(kH);
    tiling.set_kW(kW);
    tiling.set_sH(sH);
    tiling.set_sW(sW);
    tiling.set_padH(padH);
    tiling.set_padW(padW);
    tiling.set_divisorOverride(divisorOverride == nullptr ? 0 : *divisorOverride);
    tiling.set_countIncludePad(*countIncludePad ? 1 : 0);
    tiling.set_maxRows(static_cast<int32_t>(maxRows));

    plan.totalUnits = inW == 0 ? 0 : static_cast<uint64_t>(planes * inH);
    // Per core: the gradOutput rows of one gradInput row, double-buffered, and their fp32 copy.
    uint64_t rowsBytes = Align32(maxRows * outW * env.typeSize);
    plan.ubFixedBytes = env.bufferNum * rowsBytes + Align32(maxRows * outW * 4) + 128;  // + rounding
    // Per gradInput row of a tile: its fp32 accumulator and its double-buffered output.
    // Rows start on 32-byte blocks (vector operands must).
    plan.ubBytesPerUnit = Align32(inW * 4) + env.bufferNum * Align32(inW * env.typeSize);
    plan.maxTileUnits = 4095;  // CopyOut writes a tile with one DataCopyPad of one block per row
    return true;
}

}  // namespace optiling
