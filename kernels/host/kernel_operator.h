// aclgen host emulation of the Ascend C kernel API subset the aclgen kernels use.
//
// Compiled with the system g++ (C++17) in place of CANN's kernel_operator.h. Every checked call
// takes a defaulted `Site` so a violation names the kernel line that broke the rule:
//   ub-capacity        TPipe::InitBuffer beyond the product's Unified Buffer
//   ub-bounds          a vector op or scalar access past the end of its LocalTensor
//   vector-alignment   a vector instruction operand not starting on a 32-byte UB boundary
//   datacopy-alignment DataCopy of a length that is not a multiple of 32 bytes, or a UB address
//                      that is not 32-byte aligned (DataCopy and DataCopyPad)
//   queue-ownership    AllocTensor/EnQue/DeQue/FreeTensor misuse, use of a freed tensor
//   gm-bounds          global-memory access outside the tensor's allocation
//   gm-race            two cores writing one global-memory byte without SetAtomicAdd
//   kernel-trap        trap() / ACLGEN_KERNEL_FAIL reached
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <sstream>
#include <string>
#include <type_traits>

#include "aclgen_emu/runtime.h"
#include "aclgen_emu/types.h"

#define __global__
#define __aicore__
#define __gm__
using GM_ADDR = uint8_t*;

/// The tiling struct type of the kernel being compiled: `aclgen sim` injects it, as CANN's op
/// compiler does, from the generated tests/ut/op_kernel/<op>_tiling_def.h and names it
/// ACLGEN_KERNEL_TILING_TYPE; this GET_TILING_DATA replaces that header's with one that checks
/// the struct against the bytes the host tiling wrote.
#undef GET_TILING_DATA
#define GET_TILING_DATA(var, tiling)  \
    ACLGEN_KERNEL_TILING_TYPE var;    \
    ::aclgen_emu::LoadTiling(&var, sizeof(var), (tiling), ::aclgen_emu::Site())
#define TILING_KEY_IS(key) (::aclgen_emu::Device().tilingKey == static_cast<uint64_t>(key))

namespace aclgen_emu {

inline void LoadTiling(void* dst, uint64_t bytes, const uint8_t* tiling, const Site& site) {
    if (Device().tilingBytes < bytes) {
        std::ostringstream msg;
        msg << "the host tiling wrote " << Device().tilingBytes << " bytes but the kernel's tiling struct has "
            << bytes;
        Fail("tiling", msg.str(), site);
    }
    std::memcpy(dst, tiling, bytes);
}

/// Ownership state of one queue or TBuf buffer.
struct BufSlot {
    enum State { Free, Allocated, Queued, Dequeued };
    State state = Free;
    uint32_t generation = 0;
    uint8_t* addr = nullptr;
    uint32_t bytes = 0;
    const char* owner = "queue";
};

inline const char* StateName(BufSlot::State s) {
    switch (s) {
        case BufSlot::Free: return "free";
        case BufSlot::Allocated: return "allocated";
        case BufSlot::Queued: return "enqueued";
        case BufSlot::Dequeued: return "dequeued";
    }
    return "?";
}

/// Vector instructions address UB in 32-byte blocks: every operand must start on one.
inline void CheckVectorAligned(uint64_t ubOffset, const char* what, const Site& site) {
    if (ubOffset % 32 != 0) {
        std::ostringstream msg;
        msg << what << ": operand at Unified Buffer byte " << ubOffset << " is not 32-byte aligned";
        Fail("vector-alignment", msg.str(), site);
    }
}

template <typename T>
struct Identity {
    using type = T;
};

template <typename T>
inline float ToFloat(T v) {
    return static_cast<float>(v);
}

}  // namespace aclgen_emu

namespace AscendC {

using aclgen_emu::Site;

enum class TPosition { GM, VECIN, VECOUT, VECCALC, A1, A2, B1, B2, CO1, CO2 };
using QuePosition = TPosition;
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL };

inline int64_t GetBlockIdx() { return aclgen_emu::Device().blockIdx; }
inline int64_t GetBlockNum() { return aclgen_emu::Device().blockNum; }

template <pipe_t pipe>
inline void PipeBarrier() {}

[[noreturn]] inline void trap(Site site = Site()) {
    aclgen_emu::Fail("kernel-trap", "the kernel called trap()", site);
}

template <typename T>
class LocalTensor {
public:
    LocalTensor() = default;
    LocalTensor(T* ptr, uint32_t size, aclgen_emu::BufSlot* slot)
        : ptr_(ptr), size_(size), slot_(slot), generation_(slot ? slot->generation : 0) {}

    /// The tensor from element `offset` to the end of the buffer.
    LocalTensor operator[](uint32_t offset) const {
        if (offset > size_) {
            std::ostringstream msg;
            msg << "offset " << offset << " past the end of a LocalTensor of " << size_ << " elements";
            aclgen_emu::Fail("ub-bounds", msg.str(), Site());
        }
        LocalTensor t = *this;
        t.ptr_ += offset;
        t.size_ -= offset;
        return t;
    }

    T GetValue(uint32_t i, Site site = Site()) const {
        Check(i, 1, "GetValue", site);
        return ptr_[i];
    }
    void SetValue(uint32_t i, T v, Site site = Site()) const {
        Check(i, 1, "SetValue", site);
        ptr_[i] = v;
    }
    uint32_t GetSize() const { return size_; }
    T* GetPhyAddr() const { return ptr_; }

    /// Checks the tensor is still owned and that [first, first + count) lies inside it.
    void Check(uint64_t first, uint64_t count, const char* what, const Site& site) const {
        if (ptr_ == nullptr) {
            aclgen_emu::Fail("queue-ownership", std::string(what) + " on a LocalTensor that was never allocated", site);
        }
        if (slot_ != nullptr && (slot_->generation != generation_ || slot_->state == aclgen_emu::BufSlot::Free)) {
            aclgen_emu::Fail("queue-ownership", std::string(what) + " on a LocalTensor after its FreeTensor", site);
        }
        if (first + count > size_) {
            std::ostringstream msg;
            msg << what << " reaches element " << (first + count) << " of a LocalTensor of " << size_ << " elements";
            aclgen_emu::Fail("ub-bounds", msg.str(), site);
        }
    }
    uint64_t UbOffset() const { return reinterpret_cast<uint8_t*>(ptr_) - aclgen_emu::Device().ubBase; }
    aclgen_emu::BufSlot* Slot() const { return slot_; }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(reinterpret_cast<U*>(ptr_), size_ * sizeof(T) / sizeof(U), slot_);
    }

private:
    T* ptr_ = nullptr;
    uint32_t size_ = 0;
    aclgen_emu::BufSlot* slot_ = nullptr;
    uint32_t generation_ = 0;
};

template <typename T>
class GlobalTensor {
public:
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize = 0) {
        ptr_ = buffer;
        size_ = bufferSize;
    }
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t = *this;
        t.ptr_ += offset;
        t.size_ = size_ > offset ? size_ - offset : 0;
        return t;
    }
    T GetValue(uint64_t i, Site site = Site()) const {
        Check(i, 1, "GlobalTensor::GetValue", site);
        return ptr_[i];
    }
    void SetValue(uint64_t i, T v, Site site = Site()) const {
        Check(i, 1, "GlobalTensor::SetValue", site);
        aclgen_emu::RecordGmWrite(ptr_ + i, sizeof(T), site);
        ptr_[i] = v;
    }
    T* GetPhyAddr() const { return ptr_; }
    uint64_t GetSize() const { return size_; }

    void Check(uint64_t first, uint64_t count, const char* what, const Site& site) const {
        if (ptr_ == nullptr) {
            aclgen_emu::Fail("gm-bounds", std::string(what) + " on a GlobalTensor without SetGlobalBuffer", site);
        }
        aclgen_emu::CheckGm(ptr_ + first, count * sizeof(T), what, site);
    }

private:
    T* ptr_ = nullptr;
    uint64_t size_ = 0;
};

class TPipe;

/// A queue of `depth` in-flight buffers between pipeline stages (VECIN, VECOUT).
template <TPosition pos, int32_t depth>
class TQue {
public:
    template <typename T>
    LocalTensor<T> AllocTensor(Site site = Site()) {
        for (aclgen_emu::BufSlot& s : slots_) {
            if (s.state == aclgen_emu::BufSlot::Free) {
                s.state = aclgen_emu::BufSlot::Allocated;
                return LocalTensor<T>(reinterpret_cast<T*>(s.addr), s.bytes / sizeof(T), &s);
            }
        }
        std::ostringstream msg;
        if (slots_.empty()) {
            msg << "AllocTensor on a queue that has no buffers (missing TPipe::InitBuffer)";
        } else {
            msg << "AllocTensor with all " << slots_.size()
                << " buffers of the queue in use (a FreeTensor is missing)";
        }
        aclgen_emu::Fail("queue-ownership", msg.str(), site);
    }

    template <typename T>
    bool EnQue(const LocalTensor<T>& t, Site site = Site()) {
        aclgen_emu::BufSlot* s = Own(t, "EnQue", site);
        if (s->state != aclgen_emu::BufSlot::Allocated) {
            aclgen_emu::Fail("queue-ownership",
                             std::string("EnQue of a tensor that is ") + aclgen_emu::StateName(s->state) +
                                 ", not freshly allocated",
                             site);
        }
        if (static_cast<int32_t>(queued_.size()) >= depth) {
            std::ostringstream msg;
            msg << "EnQue beyond the queue depth of " << depth;
            aclgen_emu::Fail("queue-ownership", msg.str(), site);
        }
        s->state = aclgen_emu::BufSlot::Queued;
        queued_.push_back(s);
        return true;
    }

    template <typename T>
    LocalTensor<T> DeQue(Site site = Site()) {
        if (queued_.empty()) {
            aclgen_emu::Fail("queue-ownership", "DeQue on an empty queue (EnQue is missing)", site);
        }
        aclgen_emu::BufSlot* s = queued_.front();
        queued_.pop_front();
        s->state = aclgen_emu::BufSlot::Dequeued;
        return LocalTensor<T>(reinterpret_cast<T*>(s->addr), s->bytes / sizeof(T), s);
    }

    template <typename T>
    void FreeTensor(const LocalTensor<T>& t, Site site = Site()) {
        aclgen_emu::BufSlot* s = Own(t, "FreeTensor", site);
        if (s->state == aclgen_emu::BufSlot::Free || s->state == aclgen_emu::BufSlot::Queued) {
            aclgen_emu::Fail("queue-ownership",
                             std::string("FreeTensor of a tensor that is ") + aclgen_emu::StateName(s->state), site);
        }
        s->state = aclgen_emu::BufSlot::Free;
        s->generation++;
    }

private:
    friend class TPipe;

    template <typename T>
    aclgen_emu::BufSlot* Own(const LocalTensor<T>& t, const char* what, const Site& site) {
        aclgen_emu::BufSlot* s = t.Slot();
        for (aclgen_emu::BufSlot& mine : slots_) {
            if (&mine == s) {
                t.Check(0, 0, what, site);
                return s;
            }
        }
        aclgen_emu::Fail("queue-ownership", std::string(what) + " of a tensor that belongs to another queue", site);
    }

    std::deque<aclgen_emu::BufSlot> slots_;
    std::deque<aclgen_emu::BufSlot*> queued_;
};

template <TPosition pos>
class TBuf {
public:
    template <typename T>
    LocalTensor<T> Get(Site site = Site()) {
        if (slot_.addr == nullptr) {
            aclgen_emu::Fail("queue-ownership", "TBuf::Get before TPipe::InitBuffer", site);
        }
        return LocalTensor<T>(reinterpret_cast<T*>(slot_.addr), slot_.bytes / sizeof(T), &slot_);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len, Site site = Site()) {
        LocalTensor<T> t = Get<T>(site);
        t.Check(0, len, "TBuf::Get", site);
        return LocalTensor<T>(t.GetPhyAddr(), len, &slot_);
    }

private:
    friend class TPipe;
    aclgen_emu::BufSlot slot_;
};

/// Owns the Unified Buffer of a core: every InitBuffer is charged against the product's capacity.
class TPipe {
public:
    template <TPosition pos, int32_t depth>
    void InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len, Site site = Site()) {
        if (num == 0 || num > 8) {
            aclgen_emu::Fail("queue-ownership", "InitBuffer with a buffer count outside 1..8", site);
        }
        for (uint8_t i = 0; i < num; ++i) {
            aclgen_emu::BufSlot s;
            s.addr = aclgen_emu::ReserveUb(len, "TPipe::InitBuffer(TQue)", site);
            s.bytes = len;
            que.slots_.push_back(s);
        }
    }
    template <TPosition pos>
    void InitBuffer(TBuf<pos>& buf, uint32_t len, Site site = Site()) {
        buf.slot_.addr = aclgen_emu::ReserveUb(len, "TPipe::InitBuffer(TBuf)", site);
        buf.slot_.bytes = len;
        buf.slot_.state = aclgen_emu::BufSlot::Allocated;
    }
};

// ---- data movement -------------------------------------------------------------------------

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;  // bytes
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};

template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T();
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

namespace detail {

inline void CheckUbAligned(uint64_t ubOffset, const char* what, const Site& site) {
    if (ubOffset % 32 != 0) {
        std::ostringstream msg;
        msg << what << ": Unified Buffer address at byte " << ubOffset << " is not 32-byte aligned";
        aclgen_emu::Fail("datacopy-alignment", msg.str(), site);
    }
}

inline void CheckLenAligned(uint64_t bytes, const char* what, const Site& site) {
    if (bytes % 32 != 0) {
        std::ostringstream msg;
        msg << what << " of " << bytes
            << " bytes: DataCopy moves whole 32-byte blocks (use DataCopyPad for other lengths)";
        aclgen_emu::Fail("datacopy-alignment", msg.str(), site);
    }
}

/// Stores `v` to global memory, adding to what is there when SetAtomicAdd is on.
template <typename T>
inline void StoreGm(T* dst, T v) {
    if (aclgen_emu::Device().atomicAdd) {
        *dst = static_cast<T>(static_cast<float>(*dst) + static_cast<float>(v));
    } else {
        *dst = v;
    }
}

template <>
inline void StoreGm<int32_t>(int32_t* dst, int32_t v) {
    *dst = aclgen_emu::Device().atomicAdd ? *dst + v : v;
}

}  // namespace detail

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, Site site = Site()) {
    detail::CheckLenAligned(uint64_t(count) * sizeof(T), "DataCopy GM->UB", site);
    detail::CheckUbAligned(dst.UbOffset(), "DataCopy GM->UB", site);
    dst.Check(0, count, "DataCopy GM->UB", site);
    src.Check(0, count, "DataCopy GM->UB", site);
    std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t(count) * sizeof(T));
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, Site site = Site()) {
    detail::CheckLenAligned(uint64_t(count) * sizeof(T), "DataCopy UB->GM", site);
    detail::CheckUbAligned(src.UbOffset(), "DataCopy UB->GM", site);
    src.Check(0, count, "DataCopy UB->GM", site);
    dst.Check(0, count, "DataCopy UB->GM", site);
    aclgen_emu::RecordGmWrite(dst.GetPhyAddr(), uint64_t(count) * sizeof(T), site);
    for (uint32_t i = 0; i < count; ++i) {
        detail::StoreGm(dst.GetPhyAddr() + i, src.GetPhyAddr()[i]);
    }
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, Site site = Site()) {
    detail::CheckLenAligned(uint64_t(count) * sizeof(T), "DataCopy UB->UB", site);
    detail::CheckUbAligned(dst.UbOffset(), "DataCopy UB->UB", site);
    detail::CheckUbAligned(src.UbOffset(), "DataCopy UB->UB", site);
    dst.Check(0, count, "DataCopy UB->UB", site);
    src.Check(0, count, "DataCopy UB->UB", site);
    std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), uint64_t(count) * sizeof(T));
}

/// GM->UB of `blockCount` blocks of `blockLen` bytes; GM blocks are `srcStride` bytes apart
/// (gap), UB blocks start on 32-byte boundaries `dstStride` 32-byte blocks apart (gap).
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, Site site = Site()) {
    detail::CheckUbAligned(dst.UbOffset(), "DataCopyPad GM->UB", site);
    if (p.blockLen % sizeof(T) != 0) {
        aclgen_emu::Fail("datacopy-alignment", "DataCopyPad blockLen is not a whole number of elements", site);
    }
    uint64_t elems = p.blockLen / sizeof(T);
    uint64_t ubBlock = (p.blockLen + 31) / 32 * 32 / sizeof(T);
    uint64_t gmPos = 0;
    uint64_t ubPos = 0;
    for (uint16_t b = 0; b < p.blockCount; ++b) {
        dst.Check(ubPos, ubBlock, "DataCopyPad GM->UB", site);
        src.Check(gmPos, elems, "DataCopyPad GM->UB", site);
        std::memcpy(dst.GetPhyAddr() + ubPos, src.GetPhyAddr() + gmPos, p.blockLen);
        if (pad.isPad) {
            for (uint64_t i = elems; i < ubBlock; ++i) {
                dst.GetPhyAddr()[ubPos + i] = pad.paddingValue;
            }
        }
        gmPos += elems + p.srcStride / sizeof(T);
        ubPos += ubBlock + uint64_t(p.dstStride) * 32 / sizeof(T);
    }
}

/// UB->GM of `blockCount` blocks of `blockLen` bytes; UB blocks start on 32-byte boundaries
/// `srcStride` 32-byte blocks apart, GM blocks are `dstStride` bytes apart.
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                        Site site = Site()) {
    detail::CheckUbAligned(src.UbOffset(), "DataCopyPad UB->GM", site);
    if (p.blockLen % sizeof(T) != 0) {
        aclgen_emu::Fail("datacopy-alignment", "DataCopyPad blockLen is not a whole number of elements", site);
    }
    uint64_t elems = p.blockLen / sizeof(T);
    uint64_t ubBlock = (p.blockLen + 31) / 32 * 32 / sizeof(T);
    uint64_t gmPos = 0;
    uint64_t ubPos = 0;
    for (uint16_t b = 0; b < p.blockCount; ++b) {
        src.Check(ubPos, elems, "DataCopyPad UB->GM", site);
        dst.Check(gmPos, elems, "DataCopyPad UB->GM", site);
        aclgen_emu::RecordGmWrite(dst.GetPhyAddr() + gmPos, elems * sizeof(T), site);
        for (uint64_t i = 0; i < elems; ++i) {
            detail::StoreGm(dst.GetPhyAddr() + gmPos + i, src.GetPhyAddr()[ubPos + i]);
        }
        gmPos += elems + p.dstStride / sizeof(T);
        ubPos += ubBlock + uint64_t(p.srcStride) * 32 / sizeof(T);
    }
}

template <typename T>
inline void SetAtomicAdd() {
    aclgen_emu::Device().atomicAdd = true;
}
inline void SetAtomicNone() { aclgen_emu::Device().atomicAdd = false; }

// ---- vector instructions (count-based forms) -----------------------------------------------

#define ACLGEN_UNARY_SCALAR_OP(NAME, EXPR)                                                          \
    template <typename T>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                          \
                     const typename aclgen_emu::Identity<T>::type& scalar, int32_t count,           \
                     Site site = Site()) {                                                          \
        dst.Check(0, count, #NAME, site);                                                           \
        src.Check(0, count, #NAME, site);                                                           \
        aclgen_emu::CheckVectorAligned(dst.UbOffset(), #NAME, site);                                \
        aclgen_emu::CheckVectorAligned(src.UbOffset(), #NAME, site);                                \
        for (int32_t i = 0; i < count; ++i) {                                                       \
            float a = static_cast<float>(src.GetPhyAddr()[i]);                                      \
            float s = static_cast<float>(scalar);                                                   \
            dst.GetPhyAddr()[i] = static_cast<T>(EXPR);                                             \
        }                                                                                           \
    }

ACLGEN_UNARY_SCALAR_OP(Adds, a + s)
ACLGEN_UNARY_SCALAR_OP(Muls, a * s)
ACLGEN_UNARY_SCALAR_OP(Maxs, a > s ? a : s)
ACLGEN_UNARY_SCALAR_OP(Mins, a < s ? a : s)
#undef ACLGEN_UNARY_SCALAR_OP

#define ACLGEN_BINARY_OP(NAME, EXPR)                                                                 \
    template <typename T>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                     int32_t count, Site site = Site()) {                                           \
        dst.Check(0, count, #NAME, site);                                                           \
        src0.Check(0, count, #NAME, site);                                                          \
        src1.Check(0, count, #NAME, site);                                                          \
        aclgen_emu::CheckVectorAligned(dst.UbOffset(), #NAME, site);                                \
        aclgen_emu::CheckVectorAligned(src0.UbOffset(), #NAME, site);                               \
        aclgen_emu::CheckVectorAligned(src1.UbOffset(), #NAME, site);                               \
        for (int32_t i = 0; i < count; ++i) {                                                       \
            float a = static_cast<float>(src0.GetPhyAddr()[i]);                                     \
            float b = static_cast<float>(src1.GetPhyAddr()[i]);                                     \
            dst.GetPhyAddr()[i] = static_cast<T>(EXPR);                                             \
        }                                                                                           \
    }

ACLGEN_BINARY_OP(Add, a + b)
ACLGEN_BINARY_OP(Sub, a - b)
ACLGEN_BINARY_OP(Mul, a * b)
ACLGEN_BINARY_OP(Div, a / b)
ACLGEN_BINARY_OP(Max, a > b ? a : b)
ACLGEN_BINARY_OP(Min, a < b ? a : b)
#undef ACLGEN_BINARY_OP

template <typename T>
inline void Abs(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, Site site = Site()) {
    dst.Check(0, count, "Abs", site);
    src.Check(0, count, "Abs", site);
    aclgen_emu::CheckVectorAligned(dst.UbOffset(), "Abs", site);
    aclgen_emu::CheckVectorAligned(src.UbOffset(), "Abs", site);
    for (int32_t i = 0; i < count; ++i) {
        dst.GetPhyAddr()[i] = static_cast<T>(std::fabs(static_cast<float>(src.GetPhyAddr()[i])));
    }
}

template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const typename aclgen_emu::Identity<T>::type& value, int32_t count,
                      Site site = Site()) {
    dst.Check(0, count, "Duplicate", site);
    aclgen_emu::CheckVectorAligned(dst.UbOffset(), "Duplicate", site);
    for (int32_t i = 0; i < count; ++i) {
        dst.GetPhyAddr()[i] = value;
    }
}

namespace detail {

template <typename U>
inline U Convert(float v, RoundMode mode) {
    if constexpr (std::is_integral<U>::value) {
        switch (mode) {
            case RoundMode::CAST_FLOOR: return static_cast<U>(std::floor(v));
            case RoundMode::CAST_CEIL: return static_cast<U>(std::ceil(v));
            case RoundMode::CAST_ROUND: return static_cast<U>(std::round(v));
            case RoundMode::CAST_TRUNC: return static_cast<U>(std::trunc(v));
            default: return static_cast<U>(std::nearbyint(v));
        }
    } else {
        return static_cast<U>(v);  // float -> half/bf16 rounds to nearest even
    }
}

}  // namespace detail

template <typename U, typename T>
inline void Cast(const LocalTensor<U>& dst, const LocalTensor<T>& src, RoundMode mode, uint32_t count,
                 Site site = Site()) {
    dst.Check(0, count, "Cast", site);
    src.Check(0, count, "Cast", site);
    aclgen_emu::CheckVectorAligned(dst.UbOffset(), "Cast", site);
    aclgen_emu::CheckVectorAligned(src.UbOffset(), "Cast", site);
    for (uint32_t i = 0; i < count; ++i) {
        dst.GetPhyAddr()[i] = detail::Convert<U>(static_cast<float>(src.GetPhyAddr()[i]), mode);
    }
}

}  // namespace AscendC

/// What a generated skeleton calls where the op has no hand-written body: stop the run loudly.
#define ACLGEN_KERNEL_FAIL(msg) ::aclgen_emu::Fail("no-kernel-body", (msg), ::aclgen_emu::Site())
