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

    int64_t dims[6];  // inD, inH, inW, outD, outH, outW
    for (size_t a = 0; a < 3; ++a) {
        dims[a] = in.GetDim(rank - 3 + a);
        dims[3 + a] = grad.GetDim(rank - 3 + a);
    }
    tiling.set_inD(dims[0]);
    tiling.set_inH(dims[1]);
    tiling.set_inW(dims[2]);
    tiling.set_outD(dims[3]);
    tiling.set_outH(dims[4]);
    tiling.set_outW(dims[5]);
    tiling.set_inElems(inElems);
    tiling.set_outElems(outElems);

    // Window path (unit = one plane, whole planes per tile): every window is k elements apart on
    // each axis (input divisible by output: the adaptive windows tile the plane without overlap),
    // rows on 32-byte blocks and planes of whole 256-byte fp32 repeats (the Compare); the kernel
    // checks per tile that every index lies in its window and falls back to the scalar spread.
    bool divisible = outElems > 0 && dims[3] > 0 && dims[4] > 0 && dims[5] > 0 && dims[0] % dims[3] == 0 &&
                     dims[1] % dims[4] == 0 && dims[2] % dims[5] == 0;
    // Per plane: gradOutput and indices (double-buffered), their fp32 copies; per input element
    // the window-offset tables (fp32, and half for 16-bit types) and the position table, the ones and
    // the match counts (half), two fp32 spreads, the output (double-buffered)
    // and a mask bit. Fixed: 32-byte rounding of the buffers.
    uint64_t windowPlaneBytes = static_cast<uint64_t>(outElems) * (2 * env.typeSize + 16) +
                                static_cast<uint64_t>(inElems) * (2 * env.typeSize + 20 + (env.typeSize == 2 ? 4 : 0)) +
                                static_cast<uint64_t>(inElems) / 8;
    // Half keys (fp16, planes of at most 2048 elements in whole 256-byte repeats of half): half
    // spreads and positions, no fp32 offsets (the kernel's HalfKeys()).
    if (env.dtype == ge::DT_FLOAT16 && inElems <= 2048 && inElems % 128 == 0) {
        windowPlaneBytes = static_cast<uint64_t>(outElems) * 24 + static_cast<uint64_t>(inElems) * 19;
    }
    uint64_t windowFixedBytes = 1024;
    if (divisible && dims[2] % 8 == 0 && inElems % 64 == 0 && windowPlaneBytes + windowFixedBytes <= env.ubBytes) {
        tiling.set_fast(1);
        tiling.set_segLen(inElems);
        tiling.set_segsPerPlane(1);
        tiling.set_chunkLen(outElems);
        plan.totalUnits = static_cast<uint64_t>(planes);
        plan.ubFixedBytes = windowFixedBytes;
        plan.ubBytesPerUnit = windowPlaneBytes;
        plan.maxTileUnits = 0;
        return true;
    }
    tiling.set_fast(0);

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
