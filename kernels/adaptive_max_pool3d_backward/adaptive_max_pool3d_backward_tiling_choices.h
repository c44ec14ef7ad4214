// Op-specific tiling choices of AdaptiveMaxPool3dBackward (CDHW or NCDHW), filled by gen into the
// generated op_host/adaptive_max_pool3d_backward_tiling.cpp.
//
// Unit of work: one segment of a gradInput plane, accumulated in UB in fp32. The kernel streams
// the plane's gradOutput and indices through UB in chunks of chunkLen and adds each gradient
// whose index falls in the segment. Segments are as long as UB allows, and shorter when there
// are fewer planes than cores, so every core gets work.
#pragma once

namespace optiling {

inline bool AdaptiveMaxPool3dBackwardTilingChoices(gert::TilingContext* context, const TilingEnv& env,
                                                   AdaptiveMaxPool3dBackwardTilingData& tiling, WorkPlan& plan) {
    const gert::Shape& grad = context->GetInputShape(input::gradOutput)->GetStorageShape();
    const gert::Shape& in = context->GetInputShape(input::self)->GetStorageShape();
    const gert::Shape& idx = context->GetInputShape(input::indices)->GetStorageShape();
    size_t rank = in.GetDimNum();
    if ((rank != 4 && rank != 5) || grad.GetDimNum() != rank || idx.GetDimNum() != rank) {
        return TilingFail(context, "self, gradOutput and indices must all be CDHW or NCDHW");
    }
    int64_t planes = 1;
    for (size_t i = 0; i + 3 < rank; ++i) {
        if (in.GetDim(i) != grad.GetDim(i)) {
            return TilingFail(context, "self and gradOutput differ in N or C");
        }
        planes *= in.GetDim(i);
    }
    if (grad.GetShapeSize() != idx.GetShapeSize()) {
        return TilingFail(context, "indices and gradOutput differ in shape");
    }
    int64_t inElems = in.GetDim(rank - 3) * in.GetDim(rank - 2) * in.GetDim(rank - 1);
    int64_t outElems = grad.GetDim(rank - 3) * grad.GetDim(rank - 2) * grad.GetDim(rank - 1);

    int64_t chunkLen = outElems < 2048 ? outElems : 2048;
    if (chunkLen < 1) {
        chunkLen = 1;
    }
    // Per core: gradOutput and indices chunks (double-buffered) and the fp32 copy of gradients.
    uint64_t chunkBytes = env.bufferNum * (Align32(chunkLen * env.typeSize) + Align32(chunkLen * 4)) +
                          Align32(chunkLen * 4) + 128;
    if (chunkBytes >= env.ubBytes) {
        return TilingFail(context, "no room in UB for a chunk of gradOutput");
    }
    // Per segment element: fp32 accumulator and the double-buffered output.
    int64_t segMax = static_cast<int64_t>((env.ubBytes - chunkBytes) / (4 + env.bufferNum * env.typeSize)) / 8 * 8;
    int64_t segLen = inElems < segMax ? inElems : segMax;
    int64_t wantSegs = planes > 0 && planes < static_cast<int64_t>(env.coreNum) ? CeilDiv(env.coreNum, planes) : 1;
    int64_t parallelLen = CeilDiv(inElems, wantSegs);
    if (parallelLen < 32) {
        parallelLen = 32;  // shorter segments cost more gradOutput reads than they save
    }
    if (segLen > parallelLen) {
        segLen = parallelLen;
    }
    if (segLen < 1) {
        segLen = 1;
    }
    int64_t segsPerPlane = CeilDiv(inElems, segLen);

    tiling.set_inElems(inElems);
    tiling.set_outElems(outElems);
    tiling.set_segLen(segLen);
    tiling.set_segsPerPlane(segsPerPlane);
    tiling.set_chunkLen(chunkLen);
    plan.totalUnits = static_cast<uint64_t>(planes * segsPerPlane);
    plan.ubFixedBytes = chunkBytes + Align32(segLen * 4) + env.bufferNum * Align32(segLen * env.typeSize);
    plan.ubBytesPerUnit = 0;
    plan.maxTileUnits = 1;
    return true;
}

}  // namespace optiling
