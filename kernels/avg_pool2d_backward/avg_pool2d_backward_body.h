// Hand-written body of AvgPool2dBackward, filled by gen into the generated kernel class
// (op_kernel/avg_pool2d_backward.cpp); see kernels/README.md for the contract.
//
// Unit = one gradInput row (plane p, row h). Step s of a tile handles row first + s: CopyIn
// loads the gradOutput rows whose windows cover it (one DataCopyPad, they are contiguous),
// Compute spreads each gradOutput element over the row's columns of its window, divided by the
// window's divisor (PyTorch: divisorOverride, else the window size with or without padding).
// CopyOut casts the tile's fp32 rows to T and writes them with one DataCopyPad, a block per row.

TQue<QuePosition::VECIN, BUFFER_NUM> gradQueue_;
TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
TBuf<TPosition::VECCALC> gradFloatBuf_;  // fp32 copy of the loaded gradOutput rows
TBuf<TPosition::VECCALC> accBuf_;        // fp32 accumulators of the tile's gradInput rows
int64_t rowFirst_ = 0;                   // gradOutput rows [rowFirst_, rowEnd_) of the current step
int64_t rowEnd_ = 0;
int64_t rowH_ = 0;                       // the gradInput row of the current step
uint64_t accStride_ = 0;                 // fp32 row stride in UB (rows start on 32-byte blocks)
uint64_t outStride_ = 0;                 // T row stride in UB

__aicore__ inline void InitBuffers() {
    uint64_t rowsElems = static_cast<uint64_t>(tiling_.maxRows) * tiling_.outW;
    accStride_ = AlignUp32(tiling_.inW * sizeof(float)) / sizeof(float);
    outStride_ = AlignUp32(tiling_.inW * sizeof(T)) / sizeof(T);
    pipe_.InitBuffer(gradQueue_, BUFFER_NUM, AlignUp32(rowsElems * sizeof(T)));
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, tiling_.tileUnits * outStride_ * sizeof(T));
    pipe_.InitBuffer(gradFloatBuf_, AlignUp32(rowsElems * sizeof(float)));
    pipe_.InitBuffer(accBuf_, tiling_.tileUnits * accStride_ * sizeof(float));
}

__aicore__ inline uint64_t Steps(uint64_t /*first*/, uint64_t count) { return count; }

__aicore__ inline void CopyIn(uint64_t first, uint64_t /*count*/, uint64_t step) {
    uint64_t row = first + step;
    int64_t plane = static_cast<int64_t>(row / tiling_.inH);
    rowH_ = static_cast<int64_t>(row % tiling_.inH);
    // Output rows oh with oh*sH - padH <= h < oh*sH - padH + kH.
    int64_t top = rowH_ + tiling_.padH;
    rowFirst_ = top - tiling_.kH < 0 ? 0 : (top - tiling_.kH) / tiling_.sH + 1;
    rowEnd_ = top / tiling_.sH + 1;
    if (rowEnd_ > tiling_.outH) {
        rowEnd_ = tiling_.outH;
    }
    LocalTensor<T> grad = gradQueue_.template AllocTensor<T>();
    if (rowEnd_ > rowFirst_) {
        uint64_t offset = static_cast<uint64_t>(plane * tiling_.outH + rowFirst_) * tiling_.outW;
        uint32_t bytes = static_cast<uint32_t>((rowEnd_ - rowFirst_) * tiling_.outW * sizeof(T));
        DataCopyPad(grad, gradOutputGm_[offset], DataCopyExtParams(1, bytes, 0, 0, 0),
                    DataCopyPadExtParams<T>(false, 0, 0, T(0.0f)));
    }
    gradQueue_.EnQue(grad);
}

__aicore__ inline void Compute(uint64_t /*first*/, uint64_t /*count*/, uint64_t step) {
    LocalTensor<T> grad = gradQueue_.template DeQue<T>();
    LocalTensor<float> acc = accBuf_.template Get<float>()[static_cast<uint32_t>(step * accStride_)];
    Duplicate(acc, 0.0f, static_cast<int32_t>(tiling_.inW));
    int64_t rows = rowEnd_ - rowFirst_;
    if (rows > 0) {
        LocalTensor<float> g = ToFloat(grad, static_cast<uint32_t>(rows * tiling_.outW));
        VectorToScalar();  // the scalar loop reads g and acc, which the copy in, Cast and Duplicate wrote
        for (int64_t r = 0; r < rows; ++r) {
            int64_t h0 = (rowFirst_ + r) * tiling_.sH - tiling_.padH;
            int64_t h1 = Min64(h0 + tiling_.kH, tiling_.inH + tiling_.padH);
            int64_t poolH = h1 - h0;
            int64_t spanH = Min64(h1, tiling_.inH) - Max64(h0, 0);
            for (int64_t x = 0; x < tiling_.outW; ++x) {
                int64_t w0 = x * tiling_.sW - tiling_.padW;
                int64_t w1 = Min64(w0 + tiling_.kW, tiling_.inW + tiling_.padW);
                int64_t poolW = w1 - w0;
                w0 = Max64(w0, 0);
                w1 = Min64(w1, tiling_.inW);
                if (w0 >= w1) {
                    continue;
                }
                int64_t divisor = tiling_.divisorOverride != 0 ? tiling_.divisorOverride
                                  : tiling_.countIncludePad ? poolH * poolW
                                                            : spanH * (w1 - w0);
                float delta = g.GetValue(static_cast<uint32_t>(r * tiling_.outW + x)) / static_cast<float>(divisor);
                // Window starts are arbitrary columns; vector instructions need 32-byte-aligned
                // operands, so the spread is scalar.
                for (int64_t w = w0; w < w1; ++w) {
                    uint32_t k = static_cast<uint32_t>(w);
                    acc.SetValue(k, acc.GetValue(k) + delta);
                }
            }
        }
    } else {
        VectorToScalar();
    }
    ScalarToVector();  // CopyOut's vector instructions read what SetValue wrote
    gradQueue_.FreeTensor(grad);
}

__aicore__ inline void CopyOut(uint64_t first, uint64_t count) {
    LocalTensor<T> out = outQueue_.template AllocTensor<T>();
    LocalTensor<float> acc = accBuf_.template Get<float>();
    for (uint64_t r = 0; r < count; ++r) {
        FromFloat(out[static_cast<uint32_t>(r * outStride_)], acc[static_cast<uint32_t>(r * accStride_)],
                  static_cast<uint32_t>(tiling_.inW));
    }
    outQueue_.EnQue(out);
    out = outQueue_.template DeQue<T>();
    // One block per row: UB rows start on 32-byte blocks, gradInput rows are contiguous.
    DataCopyPad(gradInputGm_[first * tiling_.inW], out,
                DataCopyExtParams(static_cast<uint16_t>(count), static_cast<uint32_t>(tiling_.inW * sizeof(T)), 0, 0, 0));
    outQueue_.FreeTensor(out);
}

// ---- helpers ----

__aicore__ static inline uint64_t AlignUp32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }
__aicore__ static inline int64_t Min64(int64_t a, int64_t b) { return a < b ? a : b; }
__aicore__ static inline int64_t Max64(int64_t a, int64_t b) { return a > b ? a : b; }

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

/// The loaded rows as fp32: the buffer itself for float, a Cast into gradFloatBuf_ otherwise.
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
        DataCopy(dst.template ReinterpretCast<float>(), src, static_cast<uint32_t>(AlignUp32(elems * 4) / 4));
    } else {
        Cast(dst, src, RoundMode::CAST_RINT, elems);
    }
}
