// Hand-written body of AdaptiveMaxPool3dBackward (CDHW or NCDHW), filled by gen into the generated
// kernel class (op_kernel/adaptive_max_pool3d_backward.cpp); see kernels/README.md.
//
// Window path (tiling fast = 1: the windows tile the plane, input divisible by output on every
// axis): unit = one plane, a tile holds whole planes. Per tile, with the window of every input
// element i (a table of byte offsets built once per core) the kernel Gathers the window's index
// and gradient to i, Compares the index with i's position, and Selects the gradient or 0. Each
// window has at most one match; when the matches number the windows (the Compare masks as half
// ones, summed by Adds to 16 values the scalar unit reads: once a core over every tile's kept
// mask, or per tile), every index lay in its window, no two windows share a target and that is
// the exact result. Else the core's tiles run again with a check each, and a failing tile falls
// back to the scalar spread of its planes (indices anywhere, duplicates accumulating in order).
//
// Segment path: unit = one segment [segFirst, segEnd) of a gradInput plane; a tile is one unit. Step s loads
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

TBuf<TPosition::VECCALC> workBuf_;  // window path: fp32 indices, gradients, spread indices, spread gradients
TBuf<TPosition::VECCALC> offBuf_;   // window path: per input element, the byte offset of its window
TBuf<TPosition::VECCALC> offHalfBuf_;  // window path, half: the same offsets for half elements (gathered in half)
TBuf<TPosition::VECCALC> posBuf_;   // window path: per input element, its position in the plane (fp32)
TBuf<TPosition::VECCALC> onesBuf_;  // window path: 1.0 in half (the match counts, exact up to 2048)
TBuf<TPosition::VECCALC> maskBuf_;  // window path: the Compare's bits
TBuf<TPosition::VECCALC> hitBuf_;   // window path, one check a core: every tile's Compare bits, counted at the end
bool built_ = false;
bool coreCheck_ = false;  // window path: the matches are counted once, after the core's last tile
bool redo_ = false;       // window path: an index lay outside its window, the core's tiles run again
bool prefetched_ = false;  // window path: the next tile's copy in was issued by this tile's Compute

/// Window path sizes: out elements of a tile (rounded to 8), input elements of a tile.
__aicore__ inline uint32_t TStride()
{
    return static_cast<uint32_t>((tiling_.tileUnits * tiling_.outElems + 15) / 16 * 16);
}
/// Half keys (half, planes of at most 2048 elements, whole 256-byte repeats of half): positions
/// and indices compared in half, exact (an index of 2048 or more rounds to 2048 or more, no
/// position); the offsets only in half. The tiling sizes UB the same way.
__aicore__ inline bool HalfKeys()
{
    return std::is_same_v<T, half> && tiling_.inElems <= 2048 && tiling_.inElems % 128 == 0;
}
/// Pair keys (half keys, windows an even number of elements wide): input elements 2j and 2j + 1
/// share a window, so one 32-bit Gather fills both from a copy of the tile's indices (gradients)
/// with each doubled ([x, x], one half Gather of 2 t): per tile 2 t + n / 2 offsets gathered
/// instead of n. The pair offsets (n / 2) and the doubling table (2 TStride) share the half
/// offsets' buffer.
__aicore__ inline bool PairKeys()
{
    return HalfKeys() && tiling_.inW / tiling_.outW % 2 == 0 && NMax() / 2 + 2 * TStride() <= NMax();
}
/// fp32 elements of workBuf_ before the spreads: the fp32 indices, then the fp32 gradients (half
/// keys: the half indices and the half gradients).
__aicore__ inline uint32_t SpreadAt() { return 2 * TStride(); }
__aicore__ inline uint32_t NMax() { return static_cast<uint32_t>(tiling_.tileUnits * tiling_.inElems); }

__aicore__ inline void InitBuffers() {
    if (tiling_.fast != 0) {
        uint32_t t = TStride(), n = NMax();
        pipe_.InitBuffer(gradQueue_, BUFFER_NUM, AlignUp32(t * sizeof(T)));
        pipe_.InitBuffer(indexQueue_, BUFFER_NUM, AlignUp32(t * sizeof(int32_t)));
        pipe_.InitBuffer(outQueue_, BUFFER_NUM, AlignUp32(n * sizeof(T)));
        // Half keys: the two spreads are half (n fp32 in all), no fp32 offsets, half positions.
        bool hk = HalfKeys();
        pipe_.InitBuffer(workBuf_, (2 * t + (hk ? 1 : 2) * n) * 4);  // n * 4 bytes: whole 256-byte repeats
        if (!hk) {
            pipe_.InitBuffer(offBuf_, n * 4);
        }
        if constexpr (std::is_same_v<T, half>) {
            pipe_.InitBuffer(offHalfBuf_, n * 4);
        }
        pipe_.InitBuffer(posBuf_, n * (hk ? 2 : 4));
        pipe_.InitBuffer(onesBuf_, n * 2);
        pipe_.InitBuffer(maskBuf_, AlignUp32(n / 8));
        // One check a core when its 16 partial sums of matches stay exact in half (at most 2048)
        // and every tile's mask fits the n * 2 bytes the tiling gives the match counts.
        uint64_t tiles = (unitEnd_ - unitBegin_ + tiling_.tileUnits - 1) / tiling_.tileUnits;
        coreCheck_ = static_cast<uint64_t>(n / 16) * tiles <= 2048 && tiles * AlignUp32(n / 8) <= n * 2;
        if (coreCheck_) {
            pipe_.InitBuffer(hitBuf_, n * 2);
        }
        return;
    }
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
    if (tiling_.fast != 0) {
        return 1;
    }
    return static_cast<uint64_t>((tiling_.outElems + tiling_.chunkLen - 1) / tiling_.chunkLen);
}

__aicore__ inline void CopyIn(uint64_t first, uint64_t count, uint64_t step) {
    if (tiling_.fast != 0) {
        if (!prefetched_) {
            WindowCopyIn(first, count);
        }
        prefetched_ = false;
        return;
    }
    int64_t plane = static_cast<int64_t>(first) / tiling_.segsPerPlane;
    int64_t begin = static_cast<int64_t>(step) * tiling_.chunkLen;
    chunkElems_ = tiling_.outElems - begin < tiling_.chunkLen ? tiling_.outElems - begin : tiling_.chunkLen;
    uint64_t offset = static_cast<uint64_t>(plane * tiling_.outElems + begin);
    LocalTensor<T> grad = gradQueue_.template AllocTensor<T>();
    LocalTensor<int32_t> index = indexQueue_.template AllocTensor<int32_t>();
    DataCopyPad(grad, gradOutputGm_[offset],
                DataCopyExtParams(1, static_cast<uint32_t>(chunkElems_ * sizeof(T)), 0, 0, 0),
                DataCopyPadExtParams<T>(false, 0, 0, T(0.0f)));
    DataCopyPad(index, indicesGm_[offset],
                DataCopyExtParams(1, static_cast<uint32_t>(chunkElems_ * sizeof(int32_t)), 0, 0, 0),
                DataCopyPadExtParams<int32_t>(false, 0, 0, 0));
    gradQueue_.EnQue(grad);
    indexQueue_.EnQue(index);
}

__aicore__ inline void Compute(uint64_t first, uint64_t count, uint64_t /*step*/) {
    if (tiling_.fast != 0) {
        WindowCompute(first, count);
        return;
    }
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

__aicore__ inline void CopyOut(uint64_t first, uint64_t count) {
    if (tiling_.fast != 0) {
        LocalTensor<T> o = outQueue_.template DeQue<T>();
        uint32_t n = static_cast<uint32_t>(count * tiling_.inElems);
        DataCopyPad(gradInputGm_[first * static_cast<uint64_t>(tiling_.inElems)], o,
                    DataCopyExtParams(1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0));
        outQueue_.FreeTensor(o);
        if (coreCheck_ && first + count == unitEnd_) {
            // One check a core: the matches number the core's windows, or every tile again.
            uint64_t windows = (unitEnd_ - unitBegin_) * static_cast<uint64_t>(tiling_.outElems);
            redo_ = CountCoreMatches() != static_cast<float>(windows);
            if (redo_) {
                Redo();
            }
        }
        return;
    }
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

// ---- window path ----

/// The tile's planes of gradOutput and indices, one burst each.
__aicore__ inline void WindowCopyIn(uint64_t first, uint64_t count) {
    uint32_t t = static_cast<uint32_t>(count * tiling_.outElems);
    uint64_t offset = first * static_cast<uint64_t>(tiling_.outElems);
    // The indices first: the vector unit starts on them while the gradients arrive.
    LocalTensor<int32_t> index = indexQueue_.template AllocTensor<int32_t>();
    LocalTensor<T> grad = gradQueue_.template AllocTensor<T>();
    DataCopyPad(index, indicesGm_[offset], DataCopyExtParams(1, static_cast<uint32_t>(t * sizeof(int32_t)), 0, 0, 0),
                DataCopyPadExtParams<int32_t>(false, 0, 0, 0));
    indexQueue_.EnQue(index);  // (its flag fires when the indices are in, not the gradients)
    DataCopyPad(grad, gradOutputGm_[offset], DataCopyExtParams(1, static_cast<uint32_t>(t * sizeof(T)), 0, 0, 0),
                DataCopyPadExtParams<T>(false, 0, 0, T(0.0f)));
    gradQueue_.EnQue(grad);
}

/// Elements [unit, reps * unit) of `t` from its first `unit`: copy k is the first plus k * step
/// (doubling: one Adds per power of two).
template <typename V>
__aicore__ inline void Grow(const LocalTensor<V>& t, uint32_t unit, uint32_t reps, V step) {
    for (uint32_t b = 1; b < reps;) {
        uint32_t c = reps - b < b ? reps - b : b;
        Adds(t[b * unit], t, V(static_cast<float>(step) * static_cast<float>(b)), static_cast<int32_t>(c * unit));
        b += c;
    }
}

/// Once per core, before the first tile's DeQue (so it overlaps the copy in): per input element of
/// a tile its plane position and the byte offset of its window's element in a tile of gradOutput.
/// The scalar unit writes one row of each; Adds repeat it along H, D and the planes.
__aicore__ inline void BuildWindowTables() {
    uint32_t inW = static_cast<uint32_t>(tiling_.inW), inH = static_cast<uint32_t>(tiling_.inH);
    uint32_t inD = static_cast<uint32_t>(tiling_.inD);
    uint32_t kD = static_cast<uint32_t>(tiling_.inD / tiling_.outD);
    uint32_t kH = static_cast<uint32_t>(tiling_.inH / tiling_.outH);
    uint32_t kW = static_cast<uint32_t>(tiling_.inW / tiling_.outW);
    uint32_t outH = static_cast<uint32_t>(tiling_.outH), outW = static_cast<uint32_t>(tiling_.outW);
    uint32_t hw = inH * inW, planes = static_cast<uint32_t>(tiling_.tileUnits), n = NMax();
    LocalTensor<float> pos = posBuf_.template Get<float>();
    // Byte offsets of the window's element: half gathers half gradients (2 bytes), the fp32
    // offsets are those doubled (one int32 Add).
    uint32_t bytes = std::is_same_v<T, half> ? 2 : 4;
    LocalTensor<half> posH = posBuf_.template Get<half>();
    bool hk = HalfKeys(), pk = PairKeys();
    // Pair keys: an offset per pair of elements, of its window's 4-byte [x, x] word.
    uint32_t per = pk ? 2 : 1, rowW = inW / per, plane = hw * inD / per;
    bytes = pk ? 4 : bytes;
    // The offsets first (in int32); the scalar unit writes the position row while the vector unit
    // grows them along H, D and the tile's planes.
    LocalTensor<int32_t> offs =
        std::is_same_v<T, half> ? offHalfBuf_.template Get<int32_t>() : offBuf_.template Get<int32_t>();
    for (uint32_t w = 0; w < rowW; ++w) {
        offs.SetValue(w, static_cast<int32_t>(w * per / kW * bytes));
    }
    ScalarToVector();  // the Adds read the row SetValue wrote
    Grow(offs, rowW, kH, 0);
    Grow(offs, kH * rowW, outH, static_cast<int32_t>(outW * bytes));
    Grow(offs, hw / per, kD, 0);
    Grow(offs, kD * hw / per, static_cast<uint32_t>(tiling_.outD), static_cast<int32_t>(outH * outW * bytes));
    Grow(offs, plane, planes, static_cast<int32_t>(tiling_.outElems * bytes));
    if (std::is_same_v<T, half> && !hk) {
        Add(offBuf_.template Get<int32_t>(), offs, offs, static_cast<int32_t>(n));
    }
    for (uint32_t w = 0; w < inW; ++w) {
        if (hk) {
            posH.SetValue(w, half(static_cast<float>(w)));
        } else {
            pos.SetValue(w, static_cast<float>(w));
        }
    }
    ScalarToVector();  // the Adds read the row SetValue wrote
    if (hk) {  // positions below 2048: exact in half
        Grow(posH, inW, inH, half(static_cast<float>(inW)));
        Grow(posH, hw, inD, half(static_cast<float>(hw)));
        Grow(posH, hw * inD, planes, half(0.0f));
    } else {
        Grow(pos, inW, inH, static_cast<float>(inW));
        Grow(pos, hw, inD, static_cast<float>(hw));
        Grow(pos, hw * inD, planes, 0.0f);
    }
    if (pk) {
        // The doubling table: entry k is the byte offset of element k / 2 (half), after the pair
        // offsets; the scalar unit writes its first row while the vector unit grows the positions.
        LocalTensor<int32_t> dup = offs[n / 2];
        uint32_t len = 2 * TStride(), row = len % 64 == 0 ? 64 : 32;  // TStride: a multiple of 16
        for (uint32_t k = 0; k < row; ++k) {
            dup.SetValue(k, static_cast<int32_t>(k / 2 * 2));
        }
        ScalarToVector();  // the Adds read the row SetValue wrote
        Grow(dup, row, len / row, static_cast<int32_t>(row));
    }
    if (!coreCheck_) {  // (one check a core: after the last tile, CountCoreMatches)
        Duplicate(onesBuf_.template Get<half>(), half(1.0f), static_cast<int32_t>(n));
    }
}

/// One check a core: byte offset in hitBuf_ of the mask of the tile starting at unit `first`.
__aicore__ inline uint32_t MaskAt(uint64_t first) {
    return static_cast<uint32_t>((first - unitBegin_) / tiling_.tileUnits) * AlignUp32(NMax() / 8);
}

/// One check a core: the matches of the first tile as half ones, in the spread indices (free
/// once the last tile's Compare has read them); the rest of the spreads holds another tile's.
__aicore__ inline LocalTensor<half> CoreHits() { return workBuf_.template Get<half>()[2 * SpreadAt()]; }
__aicore__ inline uint32_t FirstN() {
    uint64_t c = unitEnd_ - unitBegin_ < tiling_.tileUnits ? unitEnd_ - unitBegin_ : tiling_.tileUnits;
    return static_cast<uint32_t>(c * tiling_.inElems);
}

/// One check a core, under the last tile's copy out: the other tiles' masks as half ones (the
/// last tile selected the first's, and the ones), added up, then summed to 16 partial sums by
/// CountMatches.
__aicore__ inline float CountCoreMatches() {
    LocalTensor<half> ones = onesBuf_.template Get<half>();
    LocalTensor<half> hits = CoreHits(), more = hits[NMax()];
    LocalTensor<uint8_t> masks = hitBuf_.template Get<uint8_t>();
    for (uint64_t f = unitBegin_ + tiling_.tileUnits; f < unitEnd_; f += tiling_.tileUnits) {
        uint64_t c = unitEnd_ - f < tiling_.tileUnits ? unitEnd_ - f : tiling_.tileUnits;
        uint32_t n = static_cast<uint32_t>(c * tiling_.inElems);
        Select(more, masks[MaskAt(f)], ones, half(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Add(hits, hits, more, static_cast<int32_t>(n));
    }
    return CountMatches(hits, FirstN());
}

__aicore__ inline void WindowCompute(uint64_t first, uint64_t count) {
    if (!built_) {
        BuildWindowTables();
        built_ = true;
    }
    uint32_t t = static_cast<uint32_t>(count * tiling_.outElems), n = static_cast<uint32_t>(count * tiling_.inElems);
    uint32_t ts = TStride();
    // One check a core: its first steps in the last tile, where the vector unit waits for the copy in.
    bool lastTile = coreCheck_ && first + count == unitEnd_;
    if (lastTile) {
        Duplicate(onesBuf_.template Get<half>(), half(1.0f), static_cast<int32_t>(NMax()));
    }
    LocalTensor<int32_t> index = indexQueue_.template DeQue<int32_t>();
    // The next tile's copy in now, into the other buffers, so it runs under this tile's vector work.
    uint64_t next = first + count;
    if (next < unitEnd_) {
        WindowCopyIn(next, unitEnd_ - next < tiling_.tileUnits ? unitEnd_ - next : tiling_.tileUnits);
        prefetched_ = true;
    }
    LocalTensor<float> work = workBuf_.template Get<float>();
    bool hk = HalfKeys();
    LocalTensor<float> idxF = work, gF = work[ts], spreadIdx = work[2 * ts];
    LocalTensor<float> spreadGrad = work[2 * ts + (hk ? NMax() / 2 : NMax())];
    // One check a core: each tile's mask is kept (counted after the last tile's copy out).
    LocalTensor<uint8_t> mask =
        coreCheck_ ? hitBuf_.template Get<uint8_t>()[MaskAt(first)] : maskBuf_.template Get<uint8_t>();
    // half: the gradients are gathered in half (into the first n halves of the gradient spread,
    // from a copy in its second n; half keys: from the fp32 gradients' place), and selected
    // straight into the output.
    LocalTensor<half> spreadHalf = spreadGrad.template ReinterpretCast<half>();
    LocalTensor<half> gH = hk ? gF.template ReinterpretCast<half>() : spreadHalf[n];
    Cast(idxF, index, RoundMode::CAST_NONE, t);
    if (coreCheck_) {
        // Read: the buffer goes back to the copy in of the tile after next (a stray index makes
        // Redo load it again).
        indexQueue_.FreeTensor(index);
    }
    if (hk) {
        // The indices in half (after their half gradients), spread and compared in half.
        LocalTensor<half> idxH = gF.template ReinterpretCast<half>()[ts];
        Cast(idxH, idxF, RoundMode::CAST_RINT, t);
        if (PairKeys()) {
            SpreadPairs(spreadIdx.template ReinterpretCast<half>(), idxH, t, n);
        } else {
            Gather(spreadIdx.template ReinterpretCast<half>(), idxH, offHalfBuf_.template Get<uint32_t>(), 0, n);
        }
        Compare(mask, spreadIdx.template ReinterpretCast<half>(), posBuf_.template Get<half>(), CMPMODE::EQ, n);
    } else {
        Gather(spreadIdx, idxF, offBuf_.template Get<uint32_t>(), 0, n);
        Compare(mask, spreadIdx, posBuf_.template Get<float>(), CMPMODE::EQ, n);
    }
    if (lastTile) {  // (the gradients may still be on their way)
        Select(CoreHits(), hitBuf_.template Get<uint8_t>(), onesBuf_.template Get<half>(), half(0.0f),
               SELMODE::VSEL_TENSOR_SCALAR_MODE, FirstN());
    }
    // A check per tile: the matches as half ones (the spread indices are read: their bytes hold
    // them), summed to 16 partial sums: each at most n / 16, exact in half (n < 32768: the tile
    // fits UB).
    LocalTensor<half> hits = spreadIdx.template ReinterpretCast<half>();
    if (!coreCheck_) {
        Select(hits, mask, onesBuf_.template Get<half>(), half(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    }
    // The gradients (copied in after the indices).
    LocalTensor<T> grad = gradQueue_.template DeQue<T>();
    if constexpr (sizeof(T) == sizeof(float)) {
        Adds(gF, grad.template ReinterpretCast<float>(), 0.0f, static_cast<int32_t>(t));  // -0 -> +0, as 0 + g
    } else if constexpr (std::is_same_v<T, half>) {
        Adds(gH, grad, half(0.0f), static_cast<int32_t>(t));  // -0 -> +0, as 0 + g
    } else {
        Cast(gF, grad, RoundMode::CAST_NONE, t);
        Adds(gF, gF, 0.0f, static_cast<int32_t>(t));
    }
    if (coreCheck_) {
        gradQueue_.FreeTensor(grad);
    }
    if constexpr (std::is_same_v<T, half>) {
        if (PairKeys()) {
            SpreadPairs(spreadHalf, gH, t, n);
        } else {
            Gather(spreadHalf, gH, offHalfBuf_.template Get<uint32_t>(), 0, n);
        }
    } else {
        Gather(spreadGrad, gF, offBuf_.template Get<uint32_t>(), 0, n);
    }
    LocalTensor<T> out = outQueue_.template AllocTensor<T>();
    bool fast = true;
    if (coreCheck_) {
        // CopyOut counts the matches of every tile's mask after the last tile's copy out.
        SelectOut(out, mask, spreadGrad, n);
    } else {
        fast = CountMatches(hits, n) == static_cast<float>(t);
        if (fast) {
            SelectOut(out, mask, spreadGrad, n);
        }
    }
    if (!fast) {
        // An index outside its window: the scalar spread of the tile's planes, in order.
        ScalarSpread(grad, index, out, t, n);
    }
    outQueue_.EnQue(out);
    if (!coreCheck_) {
        gradQueue_.FreeTensor(grad);
        indexQueue_.FreeTensor(index);
    }
}

/// Pair keys: `src`'s t halves doubled ([x, x], into the free fp32 indices), then one 4-byte word
/// per pair of the n elements of `dst` (the window's doubled element).
__aicore__ inline void SpreadPairs(const LocalTensor<half>& dst, const LocalTensor<half>& src, uint32_t t, uint32_t n) {
    LocalTensor<half> twice = workBuf_.template Get<half>();
    LocalTensor<uint32_t> tables = offHalfBuf_.template Get<uint32_t>();
    Gather(twice, src, tables[NMax() / 2], 0, 2 * t);
    Gather(dst.template ReinterpretCast<uint32_t>(), twice.template ReinterpretCast<uint32_t>(), tables, 0, n / 2);
}

/// The matches of `len` half counts (a multiple of 64), summed by Adds to 16 partial sums the
/// scalar unit reads (each exact in half: at most 2048).
__aicore__ inline float CountMatches(const LocalTensor<half>& hits, uint32_t len) {
    if (len % 128 != 0 && len > 64) {
        Add(hits, hits, hits[len - 64], 64);
        len -= 64;
    }
    for (uint32_t m = len / 128; m > 1;) {  // whole 256-byte repeats of half
        uint32_t h = m / 2;
        Add(hits, hits, hits[(m - h) * 128], static_cast<int32_t>(h * 128));
        m -= h;
    }
    uint32_t left = len >= 128 ? 128 : 64;
    for (uint32_t h = left / 2; h >= 16; h /= 2) {
        Add(hits, hits, hits[h], static_cast<int32_t>(h));
    }
    VectorToScalar();  // the scalar unit reads the sums
    float matches = 0.0f;
    for (uint32_t k = 0; k < 16; ++k) {
        matches += static_cast<float>(hits.GetValue(k));
    }
    ScalarToVector();  // the next vector instructions write what GetValue read
    return matches;
}

/// The gradient where the index matched, else 0 (the spread gradients: fp32, or half for half).
__aicore__ inline void SelectOut(const LocalTensor<T>& out, const LocalTensor<uint8_t>& mask,
                                 const LocalTensor<float>& spreadGrad, uint32_t n) {
    if constexpr (sizeof(T) == sizeof(float)) {
        Select(out.template ReinterpretCast<float>(), mask, spreadGrad, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    } else if constexpr (std::is_same_v<T, half>) {
        Select(out, mask, spreadGrad.template ReinterpretCast<half>(), half(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE,
               n);
    } else {
        Select(spreadGrad, mask, spreadGrad, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        Cast(out, spreadGrad, RoundMode::CAST_RINT, n);
    }
}

/// The scalar spread of a tile's t gradients into its n outputs, in order (duplicates add up;
/// indices outside the plane are ignored).
__aicore__ inline void ScalarSpread(const LocalTensor<T>& grad, const LocalTensor<int32_t>& index,
                                    const LocalTensor<T>& out, uint32_t t, uint32_t n) {
    LocalTensor<float> work = workBuf_.template Get<float>();
    LocalTensor<float> gF = work[TStride()], spreadGrad = work[SpreadAt() + (HalfKeys() ? 0 : NMax())];
    if constexpr (sizeof(T) == sizeof(float)) {
        gF = grad.template ReinterpretCast<float>();
    } else {
        Cast(gF, grad, RoundMode::CAST_NONE, t);
    }
    Duplicate(spreadGrad, 0.0f, static_cast<int32_t>(n));
    VectorToScalar();  // the loop reads the indices, gF, and adds into what Duplicate wrote
    int64_t outElems = tiling_.outElems, inElems = tiling_.inElems;
    for (uint32_t j = 0; j < t; ++j) {
        int64_t at = index.GetValue(j);
        if (at >= 0 && at < inElems) {
            uint32_t k = static_cast<uint32_t>(static_cast<int64_t>(j) / outElems * inElems + at);
            spreadGrad.SetValue(k, spreadGrad.GetValue(k) + gF.GetValue(j));
        }
    }
    ScalarToVector();  // the copy below reads what SetValue wrote
    FromFloat(out, spreadGrad, n);
}

/// One check a core found an index outside its window: every tile of the core again, each with
/// a check of its own, so only a tile holding such an index is spread by the scalar unit; each
/// written over what the vector path wrote.
__aicore__ inline void Redo() {
    coreCheck_ = false;
    for (uint64_t f = unitBegin_; f < unitEnd_; f += tiling_.tileUnits) {
        uint64_t c = unitEnd_ - f < tiling_.tileUnits ? unitEnd_ - f : tiling_.tileUnits;
        CopyIn(f, c, 0);
        Compute(f, c, 0);
        CopyOut(f, c);
    }
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
