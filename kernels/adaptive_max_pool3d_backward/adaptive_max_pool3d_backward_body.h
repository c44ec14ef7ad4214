// Hand-written body of AdaptiveMaxPool3dBackward (CDHW or NCDHW), filled by gen into the generated
// kernel class (op_kernel/adaptive_max_pool3d_backward.cpp); see kernels/README.md.
//
// Unit = one segment [segFirst, segEnd) of a gradInput plane; a tile is one unit. Step s loads
// chunk s of the plane's gradOutput and indices (CopyIn) and adds every gradient whose index
// falls in the segment to its fp32 accumulator, so duplicates accumulate (Compute). CopyOut
// casts the segment to T and writes it. Indices outside [0, D*H*W) match no segment and are
// ignored (the forward op never produces them).

TQue<QuePosition::VECIN, BUFFER_NUM> gradQueue_;
TQue<QuePosition::VECIN, BUFFER_NUM> indexQueue_;
TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
TBuf<TPosition::VECCALC> gradFloatBuf_;  // fp32 copy of a gradOutput chunk
TBuf<TPosition::VECCALC> accBuf_;        // fp32 accumulator of the segment, zero between tiles
int64_t chunkElems_ = 0;                 // elements of the current chunk

__aicore__ inline void InitBuffers() {
    uint32_t chunk = static_cast<uint32_t>(tiling_.chunkLen);
    uint32_t seg = static_cast<uint32_t>(tiling_.segLen);
    pipe_.InitBuffer(gradQueue_, BUFFER_NUM, AlignUp32(chunk * sizeof(T)));
    pipe_.InitBuffer(indexQueue_, BUFFER_NUM, AlignUp32(chunk * sizeof(int32_t)));
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, AlignUp32(seg * sizeof(T)));
    pipe_.InitBuffer(gradFloatBuf_, AlignUp32(chunk * sizeof(float)));
    pipe_.InitBuffer(accBuf_, AlignUp32(seg * sizeof(float)));
    Duplicate(accBuf_.template Get<float>(), 0.0f, static_cast<int32_t>(seg));
}

__aicore__ inline uint64_t Steps(uint64_t /*first*/, uint64_t /*count*/) {
    return static_cast<uint64_t>((tiling_.outElems + tiling_.chunkLen - 1) / tiling_.chunkLen);
}

__aicore__ inline void CopyIn(uint64_t first, uint64_t /*count*/, uint64_t step) {
    int64_t plane = static_cast<int64_t>(first) / tiling_.segsPerPlane;
    int64_t begin = static_cast<int64_t>(step) * tiling_.chunkLen;
    chunkElems_ = tiling_.outElems - begin < tiling_.chunkLen ? tiling_.outElems - begin : tiling_.chunkLen;
    uint64_t offset = static_cast<uint64_t>(plane * tiling_.outElems + begin);
    LocalTensor<T> grad = gradQueue_.template AllocTensor<T>();
    LocalTensor<int32_t> index = indexQueue_.template AllocTensor<int32_t>();
    DataCopyPad(grad, gradOutputGm_[offset], DataCopyExtParams(1, static_cast<uint32_t>(chunkElems_ * sizeof(T)), 0, 0, 0),
                DataCopyPadExtParams<T>(false, 0, 0, T(0.0f)));
    DataCopyPad(index, indicesGm_[offset],
                DataCopyExtParams(1, static_cast<uint32_t>(chunkElems_ * sizeof(int32_t)), 0, 0, 0),
                DataCopyPadExtParams<int32_t>(false, 0, 0, 0));
    gradQueue_.EnQue(grad);
    indexQueue_.EnQue(index);
}

__aicore__ inline void Compute(uint64_t first, uint64_t /*count*/, uint64_t /*step*/) {
    LocalTensor<T> grad = gradQueue_.template DeQue<T>();
    LocalTensor<int32_t> index = indexQueue_.template DeQue<int32_t>();
    LocalTensor<float> acc = accBuf_.template Get<float>();
    LocalTensor<float> g = ToFloat(grad, static_cast<uint32_t>(chunkElems_));
    VectorToScalar();  // the scalar loop reads index, g and acc, which the copy in, Cast and Duplicate wrote
    int64_t segFirst = static_cast<int64_t>(first) % tiling_.segsPerPlane * tiling_.segLen;
    int64_t segEnd = segFirst + tiling_.segLen < tiling_.inElems ? segFirst + tiling_.segLen : tiling_.inElems;
    for (int64_t j = 0; j < chunkElems_; ++j) {
        int64_t at = index.GetValue(static_cast<uint32_t>(j));
        if (at >= segFirst && at < segEnd) {
            uint32_t k = static_cast<uint32_t>(at - segFirst);
            acc.SetValue(k, acc.GetValue(k) + g.GetValue(static_cast<uint32_t>(j)));
        }
    }
    ScalarToVector();  // CopyOut's vector instructions read what SetValue wrote
    gradQueue_.FreeTensor(grad);
    indexQueue_.FreeTensor(index);
}

__aicore__ inline void CopyOut(uint64_t first, uint64_t /*count*/) {
    int64_t plane = static_cast<int64_t>(first) / tiling_.segsPerPlane;
    int64_t segFirst = static_cast<int64_t>(first) % tiling_.segsPerPlane * tiling_.segLen;
    int64_t segEnd = segFirst + tiling_.segLen < tiling_.inElems ? segFirst + tiling_.segLen : tiling_.inElems;
    uint32_t elems = static_cast<uint32_t>(segEnd - segFirst);
    LocalTensor<float> acc = accBuf_.template Get<float>();
    LocalTensor<T> out = outQueue_.template AllocTensor<T>();
    FromFloat(out, acc, elems);
    outQueue_.EnQue(out);
    out = outQueue_.template DeQue<T>();
    DataCopyPad(gradInputGm_[static_cast<uint64_t>(plane * tiling_.inElems + segFirst)], out,
                DataCopyExtParams(1, static_cast<uint32_t>(elems * sizeof(T)), 0, 0, 0));
    outQueue_.FreeTensor(out);
    Duplicate(acc, 0.0f, static_cast<int32_t>(elems));  // zero for the next tile
}

// ---- helpers ----

__aicore__ static inline uint32_t AlignUp32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

/// Scalar GetValue/SetValue after vector instructions (and, through the DeQue, the copy in): the
/// scalar pipe waits until the vector pipe has written.
__aicore__ inline void VectorToScalar() {
    event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(e);
    WaitFlag<HardEvent::V_S>(e);
}

/// Vector instructions after scalar SetValue: the vector pipe waits until the scalar pipe has written.
__aicore__ inline void ScalarToVector() {
    event_t e = static_cast<event_t>(pipe_.FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(e);
    WaitFlag<HardEvent::S_V>(e);
}


/// The loaded chunk as fp32: the buffer itself for float, a Cast into gradFloatBuf_ otherwise.
__aicore__ inline LocalTensor<float> ToFloat(const LocalTensor<T>& src, uint32_t elems) {
    if constexpr (sizeof(T) == sizeof(float)) {
        return src.template ReinterpretCast<float>();
    } else {
        LocalTensor<float> dst = gradFloatBuf_.template Get<float>();
        Cast(dst, src, RoundMode::CAST_NONE, elems);
        return dst;
    }
}

/// fp32 accumulators to T: a 32-byte-block copy for float, a round-to-nearest Cast otherwise.
__aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t elems) {
    if constexpr (sizeof(T) == sizeof(float)) {
        DataCopy(dst.template ReinterpretCast<float>(), src, AlignUp32(elems * 4) / 4);
    } else {
        Cast(dst, src, RoundMode::CAST_RINT, elems);
    }
}
