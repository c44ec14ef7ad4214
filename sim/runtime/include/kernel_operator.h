// aclgen's own Ascend C runtime for the CPU: the part of Ascend C's basic API that aclgen's
// generated kernels and the project's kernel bodies use, written for aclgen from CANN's public
// Ascend C API reference (signatures, semantics and constraints: 32-byte UB alignment, whole
// blocks for DataCopy, repeat <= 255, the Unified Buffer's size). Nothing of CANN is included or
// copied. Every call lowers to the intrinsics of aclgen's AI Core model (sim/model, stub_fun.h),
// so the pipe model and its hazard checker see every instruction; an API this runtime does not
// implement stops the run naming itself (rule `unmodelled-intrinsic`), and a broken constraint
// stops it naming the API (rule `kernel-assert`).
//
// Queues and events, as the reference describes them: a VECIN queue's buffers are written by
// MTE2 (copy in) and read by V; EnQue is a set_flag MTE2->V on the buffer's event, DeQue its
// wait_flag; FreeTensor sets V->MTE2 so the next AllocTensor of that buffer waits until the
// vector pipe has read it. VECOUT is the same with V (producer) and MTE3 (consumer).
#ifndef ACLGEN_KERNEL_OPERATOR_H
#define ACLGEN_KERNEL_OPERATOR_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "aclgen_model.h"
#include "aclgen_types.h"
#include "stub_fun.h"

namespace AscendC {

// ---------------------------------------------------------------- failures
/// Stops the run: a constraint of the API reference is broken (rule kernel-assert).
[[noreturn]] inline void AclgenApiFail(const char* api, const char* fmt, ...) {
    char why[768];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    char msg[900];
    std::snprintf(msg, sizeof(msg), "%s: %s", api, why);
    AclgenModelFail("kernel-assert", msg);
}

/// Stops the run naming an API (or a variant of one) the runtime does not implement.
[[noreturn]] inline void AclgenApiUnmodelled(const char* api) {
    char msg[256];
    std::snprintf(msg, sizeof(msg), "Ascend C API %s (aclgen's runtime does not implement it)", api);
    AclgenModelUnmodelled(msg);
}

// ---------------------------------------------------------------- enums
enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM, SPM, SHM, TSCM, MAX };
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1,
    MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2,
    MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MAX
};

/// The pipes a HardEvent orders: (waited-for pipe, waiting pipe).
constexpr pipe_t EventSrc(HardEvent e) {
    switch (e) {
        case HardEvent::MTE2_V: case HardEvent::MTE2_S: case HardEvent::MTE2_MTE3: case HardEvent::MTE2_MTE1:
        case HardEvent::MTE2_M: case HardEvent::MTE2_FIX: return PIPE_MTE2;
        case HardEvent::V_MTE2: case HardEvent::V_MTE3: case HardEvent::V_S: case HardEvent::V_V:
        case HardEvent::V_M: case HardEvent::V_MTE1: return PIPE_V;
        case HardEvent::MTE3_V: case HardEvent::MTE3_S: case HardEvent::MTE3_MTE2: case HardEvent::MTE3_MTE1:
            return PIPE_MTE3;
        case HardEvent::S_V: case HardEvent::S_MTE2: case HardEvent::S_MTE3: return PIPE_S;
        case HardEvent::MTE1_MTE2: case HardEvent::MTE1_M: case HardEvent::MTE1_MTE3: case HardEvent::MTE1_V:
            return PIPE_MTE1;
        case HardEvent::M_MTE1: case HardEvent::M_V: case HardEvent::M_MTE2: case HardEvent::M_FIX: case HardEvent::M_S:
            return PIPE_M;
        default: return PIPE_FIX;
    }
}
constexpr pipe_t EventDst(HardEvent e) {
    switch (e) {
        case HardEvent::MTE2_V: case HardEvent::MTE3_V: case HardEvent::S_V: case HardEvent::V_V:
        case HardEvent::M_V: case HardEvent::MTE1_V: return PIPE_V;
        case HardEvent::V_MTE2: case HardEvent::MTE3_MTE2: case HardEvent::S_MTE2: case HardEvent::MTE1_MTE2:
        case HardEvent::M_MTE2: case HardEvent::FIX_MTE2: return PIPE_MTE2;
        case HardEvent::V_MTE3: case HardEvent::MTE2_MTE3: case HardEvent::S_MTE3: case HardEvent::MTE1_MTE3:
        case HardEvent::FIX_MTE3: return PIPE_MTE3;
        case HardEvent::V_S: case HardEvent::MTE2_S: case HardEvent::MTE3_S: case HardEvent::FIX_S: case HardEvent::M_S:
            return PIPE_S;
        case HardEvent::MTE2_MTE1: case HardEvent::M_MTE1: case HardEvent::MTE3_MTE1: case HardEvent::V_MTE1:
            return PIPE_MTE1;
        case HardEvent::MTE1_M: case HardEvent::V_M: case HardEvent::MTE2_M: case HardEvent::FIX_M: return PIPE_M;
        default: return PIPE_FIX;
    }
}

enum class RoundMode : uint8_t { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
using TEventID = int8_t;

constexpr uint32_t ONE_BLK_SIZE = 32;      // bytes of a UB block: every UB operand starts on one
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one vector repeat covers (8 blocks)
constexpr uint32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t QUE_MAX_EVENT = 8;       // event ids per pair of pipes

// ---------------------------------------------------------------- tensors
/// Global memory: a typed view of a kernel argument.
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ inline GlobalTensor() {}
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) {
        addr_ = buffer;
        size_ = size;
    }
    __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor r;
        r.addr_ = addr_ + offset;
        r.size_ = size_ > offset ? size_ - offset : 0;
        return r;
    }
    __aicore__ inline T GetValue(uint64_t i) const {
        AclgenModelScalarAccess(0);
        return addr_[i];
    }
    __aicore__ inline void SetValue(uint64_t i, T v) const {
        AclgenModelScalarAccess(1);
        addr_[i] = v;
    }
    __aicore__ inline T& operator()(uint64_t i) const { return addr_[i]; }
    __aicore__ inline __gm__ T* GetPhyAddr() const { return addr_; }
    __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    __aicore__ inline uint64_t GetSize() const { return size_; }
    __aicore__ inline void SetL2CacheHint(int) {}

    T* addr_ = nullptr;
    uint64_t size_ = 0;
};

/// Unified Buffer: a typed view of (part of) a queue or TBuf buffer.
template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    __aicore__ inline LocalTensor() {}
    __aicore__ inline LocalTensor(T* addr, uint32_t size) : addr_(addr), size_(size) {}
    __aicore__ inline LocalTensor operator[](uint32_t offset) const {
        return LocalTensor(addr_ + offset, size_ > offset ? size_ - offset : 0);
    }
    // Plain accesses: the scalar pipe, which the model watches through page protection (and
    // counts for the cycle model).
    __aicore__ inline T GetValue(uint32_t i) const {
        AclgenModelScalarAccess(0);
        return addr_[i];
    }
    __aicore__ inline void SetValue(uint32_t i, T v) const {
        AclgenModelScalarAccess(1);
        addr_[i] = v;
    }
    __aicore__ inline T& operator()(uint32_t i) const { return addr_[i]; }
    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(reinterpret_cast<U*>(addr_), static_cast<uint32_t>(uint64_t(size_) * sizeof(T) / sizeof(U)));
    }
    __aicore__ inline T* GetPhyAddr() const { return addr_; }
    __aicore__ inline T* GetPhyAddr(uint32_t offset) const { return addr_ + offset; }
    __aicore__ inline uint32_t GetSize() const { return size_; }
    __aicore__ inline void SetSize(uint32_t size) { size_ = size; }
    __aicore__ inline uint32_t GetLength() const { return static_cast<uint32_t>(size_ * sizeof(T)); }

    T* addr_ = nullptr;
    uint32_t size_ = 0;  // elements
};

// ---------------------------------------------------------------- pipe, queues, buffers
class TPipe;
inline TPipe*& AclgenCurrentPipe() {
    static TPipe* pipe = nullptr;
    return pipe;
}
__aicore__ inline TPipe* GetTPipePtr() { return AclgenCurrentPipe(); }

/// One buffer of a queue: its bytes, its state and its two events.
struct AclgenQueBuf {
    uint8_t* addr = nullptr;
    uint32_t len = 0;
    uint8_t state = 0;  // 0 free, 1 allocated, 2 enqueued
    TEventID enqEvent = -1;
    TEventID freeEvent = -1;
    bool freePending = false;
};

class TPipe {
public:
    __aicore__ inline TPipe() {
        AclgenCurrentPipe() = this;
        used_ = 0;
        std::memset(held_, 0, sizeof(held_));
    }
    __aicore__ inline ~TPipe() {
        if (AclgenCurrentPipe() == this) AclgenCurrentPipe() = nullptr;
    }
    template <class Q>
    __aicore__ inline bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        que.AclgenInit(*this, num, len);
        return true;
    }
    template <class B>
    __aicore__ inline bool InitBuffer(B& buf, uint32_t len) {
        buf.AclgenInit(*this, len);
        return true;
    }
    /// An event id of `evt` no queue holds, not reserved (the reference's FetchEventID).
    __aicore__ inline TEventID FetchEventID(HardEvent evt) {
        for (int id = 0; id < QUE_MAX_EVENT; ++id) {
            if ((held_[static_cast<int>(evt)] & (1u << id)) == 0) return static_cast<TEventID>(id);
        }
        AclgenApiFail("TPipe::FetchEventID", "every event id of this HardEvent is held by a queue");
    }
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID() {
        return FetchEventID(evt);
    }
    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID() {
        return AclgenHoldEvent(evt, "TPipe::AllocEventID");
    }
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id) {
        held_[static_cast<int>(evt)] &= static_cast<uint8_t>(~(1u << id));
    }
    __aicore__ inline void Reset() { used_ = 0; }
    __aicore__ inline void Destroy() {}

    /// Reserves `bytes` (rounded up to a block) of the Unified Buffer, or stops the run.
    uint8_t* AclgenReserve(uint64_t bytes, const char* api) {
        uint64_t aligned = (bytes + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        uint64_t capacity = AclgenModelUbBytes();
        if (used_ + aligned > capacity) {
            AclgenApiFail(api, "%llu bytes from UB byte %llu run past the Unified Buffer's %llu bytes",
                          (unsigned long long)aligned, (unsigned long long)used_, (unsigned long long)capacity);
        }
        uint8_t* p = AclgenModelUbBase() + used_;
        used_ += aligned;
        return p;
    }
    TEventID AclgenHoldEvent(HardEvent evt, const char* api) {
        for (int id = QUE_MAX_EVENT - 1; id >= 0; --id) {
            if ((held_[static_cast<int>(evt)] & (1u << id)) == 0) {
                held_[static_cast<int>(evt)] |= static_cast<uint8_t>(1u << id);
                return static_cast<TEventID>(id);
            }
        }
        AclgenApiFail(api, "more than %d buffers wait on one pair of pipes: no event id left", QUE_MAX_EVENT);
    }

private:
    uint64_t used_ = 0;
    uint8_t held_[static_cast<int>(HardEvent::MAX) + 1];
};

/// A queue of buffers between two pipes (VECIN: MTE2 -> V, VECOUT: V -> MTE3, VECCALC: V -> V).
template <TPosition pos, int32_t depth = 1, int32_t mask = 0>
class TQue {
public:
    static constexpr int kMaxBuffers = 16;
    __aicore__ inline TQue() {}

    void AclgenInit(TPipe& pipe, uint8_t num, uint32_t len) {
        if (pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC) {
            AclgenApiUnmodelled("TQue on a position other than VECIN, VECOUT or VECCALC");
        }
        if (num == 0 || num > kMaxBuffers) AclgenApiFail("TPipe::InitBuffer", "a queue of %u buffers", num);
        if (len == 0) AclgenApiFail("TPipe::InitBuffer", "a queue buffer of 0 bytes");
        num_ = num;
        uint8_t* base = pipe.AclgenReserve(uint64_t(num) * ((len + 31) / 32 * 32), "TPipe::InitBuffer");
        uint32_t stride = (len + 31) / 32 * 32;
        AscendCBufInit(static_cast<uint8_t>(pos), 0, num, reinterpret_cast<uint64_t>(base), stride);
        for (int i = 0; i < num; ++i) {
            bufs_[i] = AclgenQueBuf();
            bufs_[i].addr = base + uint64_t(i) * stride;
            bufs_[i].len = stride;
            if (Synced()) {
                bufs_[i].enqEvent = pipe.AclgenHoldEvent(EnqEvent(), "TPipe::InitBuffer");
                bufs_[i].freeEvent = pipe.AclgenHoldEvent(FreeEvent(), "TPipe::InitBuffer");
            }
        }
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor() {
        for (int k = 0; k < num_; ++k) {
            int i = (next_ + k) % num_;
            AclgenQueBuf& b = bufs_[i];
            if (b.state != 0) continue;
            next_ = (i + 1) % num_;
            if (b.freePending) {
                wait_flag(Consumer(), Producer(), b.freeEvent);
                b.freePending = false;
            }
            b.state = 1;
            AscendCBufAlloc(0, static_cast<uint8_t>(pos), reinterpret_cast<uint64_t>(b.addr), b.len);
            return LocalTensor<T>(reinterpret_cast<T*>(b.addr), static_cast<uint32_t>(b.len / sizeof(T)));
        }
        AclgenApiFail("TQue::AllocTensor",
                      "all %d buffers of the queue are allocated or enqueued: a FreeTensor is missing", num_);
    }

    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor) {
        AclgenQueBuf& b = Owner(tensor.addr_, "TQue::EnQue");
        if (b.state != 1) AclgenApiFail("TQue::EnQue", "the buffer is not allocated (or enqueued twice)");
        if (count_ >= num_) AclgenApiFail("TQue::EnQue", "the queue is full");
        if (Synced()) set_flag(Producer(), Consumer(), b.enqEvent);
        b.state = 2;
        fifo_[(head_ + count_) % kMaxBuffers] = static_cast<int8_t>(&b - bufs_);
        ++count_;
        AscendCBufEnque(0, 0, static_cast<uint8_t>(pos), reinterpret_cast<uint64_t>(b.addr));
        return true;
    }

    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue() {
        if (count_ == 0) AclgenApiFail("TQue::DeQue", "the queue is empty: no EnQue before this DeQue");
        AclgenQueBuf& b = bufs_[fifo_[head_]];
        head_ = (head_ + 1) % kMaxBuffers;
        --count_;
        if (Synced()) wait_flag(Producer(), Consumer(), b.enqEvent);
        b.state = 1;
        AscendCBufDeque(0, 0, static_cast<uint8_t>(pos), reinterpret_cast<uint64_t>(b.addr));
        return LocalTensor<T>(reinterpret_cast<T*>(b.addr), static_cast<uint32_t>(b.len / sizeof(T)));
    }

    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor) {
        AclgenQueBuf& b = Owner(tensor.addr_, "TQue::FreeTensor");
        if (b.state != 1) AclgenApiFail("TQue::FreeTensor", "the buffer is not allocated (or still enqueued)");
        if (Synced()) {
            set_flag(Consumer(), Producer(), b.freeEvent);
            b.freePending = true;
        }
        b.state = 0;
        AscendCBufFree(0, static_cast<uint8_t>(pos), reinterpret_cast<uint64_t>(b.addr), b.len);
    }

    __aicore__ inline bool VacantInQue() const { return count_ < num_; }
    __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }
    __aicore__ inline int32_t GetTensorCountInQue() const { return count_; }
    __aicore__ inline void FreeAllEvent() {
        for (int i = 0; i < num_; ++i) {
            if (bufs_[i].freePending) {
                wait_flag(Consumer(), Producer(), bufs_[i].freeEvent);
                bufs_[i].freePending = false;
            }
        }
    }

private:
    static constexpr bool Synced() { return pos == TPosition::VECIN || pos == TPosition::VECOUT; }
    static constexpr pipe_t Producer() { return pos == TPosition::VECIN ? PIPE_MTE2 : PIPE_V; }
    static constexpr pipe_t Consumer() { return pos == TPosition::VECIN ? PIPE_V : PIPE_MTE3; }
    static constexpr HardEvent EnqEvent() { return pos == TPosition::VECIN ? HardEvent::MTE2_V : HardEvent::V_MTE3; }
    static constexpr HardEvent FreeEvent() { return pos == TPosition::VECIN ? HardEvent::V_MTE2 : HardEvent::MTE3_V; }
    template <typename T>
    AclgenQueBuf& Owner(T* addr, const char* api) {
        auto a = reinterpret_cast<uint8_t*>(addr);
        for (int i = 0; i < num_; ++i) {
            if (a == bufs_[i].addr) return bufs_[i];
        }
        AclgenApiFail(api, "the tensor is not (the start of) a buffer of this queue");
    }

    AclgenQueBuf bufs_[kMaxBuffers];
    int8_t fifo_[kMaxBuffers] = {};
    int num_ = 0, next_ = 0, head_ = 0, count_ = 0;
};

template <TPosition pos>
using TQueBind = TQue<pos, 1>;

/// A buffer for the vector pipe's own use (no queue, no events).
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    __aicore__ inline TBuf() {}
    void AclgenInit(TPipe& pipe, uint32_t len) {
        if (len == 0) AclgenApiFail("TPipe::InitBuffer", "a TBuf of 0 bytes");
        len_ = (len + 31) / 32 * 32;
        addr_ = pipe.AclgenReserve(len_, "TPipe::InitBuffer");
        AscendCBufInit(static_cast<uint8_t>(pos), 1, 1, reinterpret_cast<uint64_t>(addr_), len_);
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get() const {
        return LocalTensor<T>(reinterpret_cast<T*>(Checked("TBuf::Get")), static_cast<uint32_t>(len_ / sizeof(T)));
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len) const {
        if (uint64_t(len) * sizeof(T) > len_) AclgenApiFail("TBuf::Get", "%u elements exceed the buffer's %u bytes", len, len_);
        return LocalTensor<T>(reinterpret_cast<T*>(Checked("TBuf::Get")), len);
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t offsetBytes) const {
        if (offsetBytes % ONE_BLK_SIZE != 0) AclgenApiFail("TBuf::GetWithOffset", "offset %u is not 32-byte aligned", offsetBytes);
        if (offsetBytes + uint64_t(size) * sizeof(T) > len_) {
            AclgenApiFail("TBuf::GetWithOffset", "[%u, +%u elements) runs past the buffer's %u bytes", offsetBytes, size, len_);
        }
        return LocalTensor<T>(reinterpret_cast<T*>(Checked("TBuf::GetWithOffset") + offsetBytes), size);
    }

private:
    uint8_t* Checked(const char* api) const {
        if (addr_ == nullptr) AclgenApiFail(api, "the TBuf has no InitBuffer");
        return addr_;
    }
    uint8_t* addr_ = nullptr;
    uint32_t len_ = 0;
};

// ---------------------------------------------------------------- sync, atomics, launch
template <HardEvent evt>
__aicore__ inline void SetFlag(int32_t eventID) {
    set_flag(EventSrc(evt), EventDst(evt), eventID);
}
template <HardEvent evt>
__aicore__ inline void WaitFlag(int32_t eventID) {
    wait_flag(EventSrc(evt), EventDst(evt), eventID);
}
template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {
    pipe_barrier(pipe);
}
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
    __sync_all_stub(0, isAIVOnly);
}
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>&, const LocalTensor<int32_t>&, int32_t usedCores = 0) {
    __sync_all_stub(usedCores, isAIVOnly);
}

template <typename T>
__aicore__ inline void AclgenAtomicType(const char* api) {
    if constexpr (std::is_same_v<T, float>) set_atomic_f32();
    else if constexpr (std::is_same_v<T, half>) set_atomic_f16();
    else if constexpr (std::is_same_v<T, bfloat16_t>) set_atomic_bf16();
    else if constexpr (std::is_same_v<T, int32_t>) set_atomic_s32();
    else if constexpr (std::is_same_v<T, int16_t>) set_atomic_s16();
    else if constexpr (std::is_same_v<T, int8_t>) set_atomic_s8();
    else AclgenApiFail(api, "no atomic operation on elements of %zu bytes", sizeof(T));
}
template <typename T>
__aicore__ inline void SetAtomicAdd() {
    AclgenAtomicType<T>("SetAtomicAdd");
    set_atomic_add();
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
    AclgenAtomicType<T>("SetAtomicMax");
    set_atomic_max();
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
    AclgenAtomicType<T>("SetAtomicMin");
    set_atomic_min();
}
__aicore__ inline void SetAtomicNone() { set_atomic_none(); }

__aicore__ inline int64_t GetBlockIdx() { return get_block_idx(); }
__aicore__ inline int64_t GetBlockNum() { return get_block_num(); }
__aicore__ inline int64_t GetSubBlockIdx() { return get_subblockid(); }
__aicore__ inline int64_t GetTaskRation() { return get_subblockdim(); }

// ---------------------------------------------------------------- checks shared by the APIs
template <typename T>
inline uint64_t AclgenUbOffset(const LocalTensor<T>& t) {
    return reinterpret_cast<uint64_t>(t.addr_) - reinterpret_cast<uint64_t>(AclgenModelUbBase());
}
/// Every UB operand starts on a 32-byte block (the reference's general constraint).
template <typename T>
inline void AclgenAligned(const LocalTensor<T>& t, const char* api, const char* which) {
    if (AclgenUbOffset(t) % ONE_BLK_SIZE != 0) {
        AclgenApiFail(api, "%s starts at Unified Buffer byte %llu, not on a 32-byte block", which,
                      (unsigned long long)AclgenUbOffset(t));
    }
}

/// A vector operand of `count` elements stays inside its tensor (its queue or TBuf buffer).
template <typename T>
inline void AclgenFits(const LocalTensor<T>& t, uint64_t count, const char* api, const char* which) {
    if (count > t.size_) {
        char msg[512];
        std::snprintf(msg, sizeof(msg), "%s: %llu elements of %s run past its tensor's %u (UB bytes [%llu, %llu))", api,
                      (unsigned long long)count, which, t.size_, (unsigned long long)AclgenUbOffset(t),
                      (unsigned long long)(AclgenUbOffset(t) + count * sizeof(T)));
        AclgenModelFail("ub-overrun", msg);
    }
}

/// Level-2 vector calls (`count` elements): the counter mode of the mask, restored after.
template <typename F>
inline void AclgenCounted(uint64_t count, F issue) {
    set_mask_count();
    set_vector_mask(0, count);
    issue();
    set_mask_norm();
    set_vector_mask(~0ull, ~0ull);
}

// ---------------------------------------------------------------- data movement
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;   // 32-byte blocks
    uint16_t srcStride = 0;  // blocks between bursts
    uint16_t dstStride = 0;
    __aicore__ DataCopyParams() {}
    __aicore__ DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;   // bytes
    uint32_t srcStride = 0;  // GM side in bytes, UB side in blocks
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    __aicore__ DataCopyExtParams() {}
    __aicore__ DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};
struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    __aicore__ DataCopyPadParams() {}
    __aicore__ DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue{};
    __aicore__ DataCopyPadExtParams() {}
    __aicore__ DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

/// DataCopy of `count` contiguous elements moves whole 32-byte blocks.
template <typename T>
inline uint16_t AclgenWholeBlocks(uint64_t count, const char* api) {
    uint64_t bytes = count * sizeof(T);
    if (bytes % ONE_BLK_SIZE != 0) {
        AclgenApiFail(api, "%llu elements are %llu bytes, not a whole number of 32-byte blocks (DataCopyPad copies any length)",
                      (unsigned long long)count, (unsigned long long)bytes);
    }
    if (bytes / ONE_BLK_SIZE > 65535) AclgenApiFail(api, "%llu blocks exceed one burst's 65535", (unsigned long long)(bytes / 32));
    return static_cast<uint16_t>(bytes / ONE_BLK_SIZE);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
    AclgenAligned(dst, "DataCopy (GM->UB)", "the destination");
    copy_gm_to_ubuf(dst.addr_, src.addr_, 0, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    AclgenAligned(src, "DataCopy (UB->GM)", "the source");
    copy_ubuf_to_gm(dst.addr_, src.addr_, 0, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    AclgenAligned(dst, "DataCopy (UB->UB)", "the destination");
    AclgenAligned(src, "DataCopy (UB->UB)", "the source");
    copy_ubuf_to_ubuf(dst.addr_, src.addr_, 0, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
    DataCopy(dst, src, DataCopyParams(1, AclgenWholeBlocks<T>(count, "DataCopy (GM->UB)"), 0, 0));
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
    DataCopy(dst, src, DataCopyParams(1, AclgenWholeBlocks<T>(count, "DataCopy (UB->GM)"), 0, 0));
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
    DataCopy(dst, src, DataCopyParams(1, AclgenWholeBlocks<T>(count, "DataCopy (UB->UB)"), 0, 0));
}

template <typename T>
inline void AclgenPadIn(T* dst, T* src, uint16_t n, uint32_t len, uint8_t l, uint8_t r, uint32_t sg, uint32_t dg) {
    if constexpr (sizeof(T) == 1) copy_gm_to_ubuf_align_b8(dst, src, 0, n, len, l, r, sg, dg);
    else if constexpr (sizeof(T) == 2) copy_gm_to_ubuf_align_b16(dst, src, 0, n, len, l, r, sg, dg);
    else copy_gm_to_ubuf_align_b32(dst, src, 0, n, len, l, r, sg, dg);
}
template <typename T>
inline void AclgenPadOut(T* dst, T* src, uint16_t n, uint32_t len, uint32_t sg, uint32_t dg) {
    if constexpr (sizeof(T) == 1) copy_ubuf_to_gm_align_b8(dst, src, 0, n, len, 0, 0, sg, dg);
    else if constexpr (sizeof(T) == 2) copy_ubuf_to_gm_align_b16(dst, src, 0, n, len, 0, 0, sg, dg);
    else copy_ubuf_to_gm_align_b32(dst, src, 0, n, len, 0, 0, sg, dg);
}

template <typename T>
inline void AclgenPadChecks(uint16_t count, uint8_t left, uint8_t right, bool in) {
    const char* api = in ? "DataCopyPad (GM->UB)" : "DataCopyPad (UB->GM)";
    if (count == 0) AclgenApiFail(api, "blockCount is 0");
    // Padding fills at most one block on either side.
    if (uint32_t(left) * sizeof(T) > ONE_BLK_SIZE || uint32_t(right) * sizeof(T) > ONE_BLK_SIZE) {
        AclgenApiFail(api, "leftPadding %u / rightPadding %u elements exceed one 32-byte block", left, right);
    }
    if (sizeof(T) > 4 && (left != 0 || right != 0)) AclgenApiFail(api, "padding of 8-byte elements");
}

template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad) {
    AclgenPadChecks<T>(p.blockCount, pad.leftPadding, pad.rightPadding, true);
    AclgenAligned(dst, "DataCopyPad (GM->UB)", "the destination");
    uint64_t bits = 0;
    std::memcpy(&bits, &pad.paddingValue, sizeof(T) < 8 ? sizeof(T) : 8);
    set_mov_pad_val(bits);
    uint8_t left = pad.isPad ? pad.leftPadding : 0, right = pad.isPad ? pad.rightPadding : 0;
    AclgenPadIn(dst.addr_, src.addr_, p.blockCount, p.blockLen, left, right, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                   const DataCopyPadParams& pad) {
    AclgenPadChecks<T>(p.blockCount, pad.leftPadding, pad.rightPadding, true);
    AclgenAligned(dst, "DataCopyPad (GM->UB)", "the destination");
    set_mov_pad_val(pad.paddingValue);
    uint8_t left = pad.isPad ? pad.leftPadding : 0, right = pad.isPad ? pad.rightPadding : 0;
    AclgenPadIn(dst.addr_, src.addr_, p.blockCount, p.blockLen, left, right, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
    AclgenPadChecks<T>(p.blockCount, 0, 0, false);
    AclgenAligned(src, "DataCopyPad (UB->GM)", "the source");
    AclgenPadOut(dst.addr_, src.addr_, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
    AclgenPadChecks<T>(p.blockCount, 0, 0, false);
    AclgenAligned(src, "DataCopyPad (UB->GM)", "the source");
    AclgenPadOut(dst.addr_, src.addr_, p.blockCount, p.blockLen, p.srcStride, p.dstStride);
}

// ---------------------------------------------------------------- vector computation
template <typename T>
constexpr bool AclgenArith = std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, int16_t> ||
                             std::is_same_v<T, int32_t>;

/// Elements of `t` a call of `count` reads (Compare/Select masks aside).
template <typename T>
inline uint64_t AclgenCount(const LocalTensor<T>&, int64_t count) {
    return count < 0 ? 0 : static_cast<uint64_t>(count);
}

template <typename T>
inline void AclgenVecChecks(const char* api, int32_t count, const LocalTensor<T>& dst) {
    if (count < 0) AclgenApiFail(api, "count %d is negative", count);
    AclgenAligned(dst, api, "the destination");
    AclgenFits(dst, static_cast<uint64_t>(count), api, "the destination");
}

template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalar, const int32_t& count) {
    static_assert(AclgenArith<T> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, uint32_t>,
                  "Duplicate: a dtype the A2 vector unit does not duplicate");
    AclgenVecChecks("Duplicate", count, dst);
    AclgenCounted(count, [&] { vector_dup(dst.addr_, scalar, 1, 1, 1, 8, 8); });
}

#define ACLGEN_BINARY_API(Name, intrinsic)                                                                  \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count) {                                                     \
        static_assert(AclgenArith<T>, #Name ": a dtype the A2 vector unit does not compute in");           \
        AclgenVecChecks(#Name, count, dst);                                                                 \
        AclgenAligned(src0, #Name, "src0"); \
        AclgenFits(src0, AclgenCount(src0, count), #Name, "src0");                                                                 \
        AclgenAligned(src1, #Name, "src1"); \
        AclgenFits(src1, AclgenCount(src1, count), #Name, "src1");                                                                 \
        AclgenCounted(count, [&] { intrinsic(dst.addr_, src0.addr_, src1.addr_, 1, 1, 1, 1, 8, 8, 8); });  \
    }
ACLGEN_BINARY_API(Add, vadd)
ACLGEN_BINARY_API(Sub, vsub)
ACLGEN_BINARY_API(Mul, vmul)
ACLGEN_BINARY_API(Max, vmax)
ACLGEN_BINARY_API(Min, vmin)
#undef ACLGEN_BINARY_API

/// Strides of a Level-0 binary instruction: blocks between the blocks of a repeat, blocks between
/// repeats (the reference's BinaryRepeatParams; the defaults are contiguous).
struct BinaryRepeatParams {
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    __aicore__ BinaryRepeatParams() {}
    __aicore__ BinaryRepeatParams(uint8_t dBlk, uint8_t s0Blk, uint8_t s1Blk, uint8_t dRep, uint8_t s0Rep, uint8_t s1Rep)
        : dstBlkStride(dBlk), src0BlkStride(s0Blk), src1BlkStride(s1Blk), dstRepStride(dRep), src0RepStride(s0Rep),
          src1RepStride(s1Rep) {}
};

/// The bytes a Level-0 operand spans: the last element of the last repeat's last block, plus one.
template <typename T>
inline uint64_t AclgenLevel0Extent(uint8_t repeat, uint8_t blkStride, uint8_t repStride, uint64_t mask) {
    if (repeat == 0) return 0;
    uint64_t perBlock = ONE_BLK_SIZE / sizeof(T);
    uint64_t blocks = (mask + perBlock - 1) / perBlock;
    return ((repeat - 1) * uint64_t(repStride) + (blocks - 1) * uint64_t(blkStride)) * ONE_BLK_SIZE + ONE_BLK_SIZE;
}

/// Level 0, continuous mask: the first `mask` elements of each of `repeatTimes` repeats (mask at
/// most 256 bytes of elements, repeat at most 255), operands strided by `p`.
template <typename T, typename F>
inline void AclgenLevel0Binary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                               const LocalTensor<T>& src1, uint64_t mask, uint8_t repeatTimes,
                               const BinaryRepeatParams& p, F issue) {
    uint64_t perRepeat = 256 / sizeof(T);
    if (mask == 0 || mask > perRepeat) AclgenApiFail(api, "mask %llu is not in [1, %llu]", (unsigned long long)mask, (unsigned long long)perRepeat);
    AclgenAligned(dst, api, "the destination");
    AclgenAligned(src0, api, "src0");
    AclgenAligned(src1, api, "src1");
    AclgenFits(dst, AclgenLevel0Extent<T>(repeatTimes, p.dstBlkStride, p.dstRepStride, mask) / sizeof(T), api, "the destination");
    AclgenFits(src0, AclgenLevel0Extent<T>(repeatTimes, p.src0BlkStride, p.src0RepStride, mask) / sizeof(T), api, "src0");
    AclgenFits(src1, AclgenLevel0Extent<T>(repeatTimes, p.src1BlkStride, p.src1RepStride, mask) / sizeof(T), api, "src1");
    if (mask >= 64) {
        set_vector_mask(mask == 64 ? 0 : (~0ull >> (128 - mask)), ~0ull);
    } else {
        set_vector_mask(0, (1ull << mask) - 1);
    }
    issue();
    set_vector_mask(~0ull, ~0ull);
}

#define ACLGEN_BINARY_L0_API(Name, intrinsic)                                                                     \
    template <typename T, bool isSetMask = true>                                                                  \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams& p) {          \
        static_assert(AclgenArith<T>, #Name ": a dtype the A2 vector unit does not compute in");                 \
        AclgenLevel0Binary(#Name, dst, src0, src1, mask, repeatTimes, p, [&] {                                   \
            intrinsic(dst.addr_, src0.addr_, src1.addr_, repeatTimes, p.dstBlkStride, p.src0BlkStride,           \
                      p.src1BlkStride, p.dstRepStride, p.src0RepStride, p.src1RepStride);                        \
        });                                                                                                       \
    }
ACLGEN_BINARY_L0_API(Add, vadd)
ACLGEN_BINARY_L0_API(Mul, vmul)
#undef ACLGEN_BINARY_L0_API

/// Brcb's strides: blocks between the 8 destination blocks of a repeat, blocks between repeats.
struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;
    __aicore__ BrcbRepeatParams() {}
    __aicore__ BrcbRepeatParams(uint16_t dBlk, uint16_t dRep) : dstBlkStride(dBlk), dstRepStride(dRep) {}
};

/// Brcb: each repeat takes 8 elements of src0 and fills 8 blocks of dst (32 bytes each), block k
/// with element k. src0 holds at least 8 x repeatTime elements; src0 and dst do not overlap.
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                            const BrcbRepeatParams& p) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: a 16- or 32-bit dtype");
    AclgenAligned(dst, "Brcb", "the destination");
    AclgenAligned(src0, "Brcb", "src0");
    AclgenFits(src0, uint64_t(repeatTime) * 8, "Brcb", "src0");
    uint64_t extent = repeatTime == 0 ? 0 : ((repeatTime - 1) * uint64_t(p.dstRepStride) + 7 * uint64_t(p.dstBlkStride) + 1) * ONE_BLK_SIZE;
    AclgenFits(dst, extent / sizeof(T), "Brcb", "the destination");
    uint64_t d0 = AclgenUbOffset(dst), s0 = AclgenUbOffset(src0);
    if (repeatTime != 0 && d0 < s0 + uint64_t(repeatTime) * 8 * sizeof(T) && s0 < d0 + extent) {
        AclgenApiFail("Brcb", "src0 and dst overlap");
    }
    vbrcb(dst.addr_, src0.addr_, p.dstBlkStride, p.dstRepStride, repeatTime);
}

template <typename T>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Div: half or float");
    AclgenVecChecks("Div", count, dst);
    AclgenAligned(src0, "Div", "src0");
    AclgenFits(src0, AclgenCount(src0, count), "Div", "src0");
    AclgenAligned(src1, "Div", "src1");
    AclgenFits(src1, AclgenCount(src1, count), "Div", "src1");
    AclgenCounted(count, [&] { vdiv(dst.addr_, src0.addr_, src1.addr_, 1, 1, 1, 1, 8, 8, 8); });
}

#define ACLGEN_SCALAR_API(Name, call)                                                                           \
    template <typename T>                                                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar,          \
                                const int32_t& count) {                                                         \
        static_assert(AclgenArith<T>, #Name ": a dtype the A2 vector unit does not compute in");               \
        AclgenVecChecks(#Name, count, dst);                                                                     \
        AclgenAligned(src, #Name, "the source"); \
        AclgenFits(src, AclgenCount(src, count), #Name, "the source");                                                                \
        AclgenCounted(count, [&] { call; });                                                                    \
    }
ACLGEN_SCALAR_API(Adds, vadds(dst.addr_, src.addr_, scalar, 1, 1, 1, 8, 8))
ACLGEN_SCALAR_API(Muls, vmuls(dst.addr_, src.addr_, scalar, 1, 1, 1, 8, 8))
ACLGEN_SCALAR_API(Maxs, vmaxs(dst.addr_, src.addr_, scalar, 1, 1, 1, 8, 8, false, false))
ACLGEN_SCALAR_API(Mins, vmins(dst.addr_, src.addr_, scalar, 1, 1, 1, 8, 8, false, false))
#undef ACLGEN_SCALAR_API

#define ACLGEN_UNARY_API(Name, intrinsic)                                                                     \
    template <typename T>                                                                                     \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) { \
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #Name ": half or float");        \
        AclgenVecChecks(#Name, count, dst);                                                                   \
        AclgenAligned(src, #Name, "the source"); \
        AclgenFits(src, AclgenCount(src, count), #Name, "the source");                                                              \
        AclgenCounted(count, [&] { intrinsic(dst.addr_, src.addr_, 1, 1, 1, 8, 8); });                      \
    }
ACLGEN_UNARY_API(Abs, vabs)
ACLGEN_UNARY_API(Exp, vexp)
ACLGEN_UNARY_API(Sqrt, vsqrt)
ACLGEN_UNARY_API(Reciprocal, vrec)
ACLGEN_UNARY_API(Ln, vln)
#undef ACLGEN_UNARY_API

/// Cast: one conversion instruction per dtype pair and rounding mode, as the reference lists them
/// for Atlas A2 (widening conversions are exact and take CAST_NONE).
template <typename D, typename S>
__aicore__ inline void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode,
                            const uint32_t& count) {
    AclgenVecChecks("Cast", static_cast<int32_t>(count), dst);
    AclgenAligned(src, "Cast", "the source");
    AclgenFits(src, AclgenCount(src, count), "Cast", "the source");
    uint16_t dRep = sizeof(D) < sizeof(S) ? 4 : 8, sRep = sizeof(S) < sizeof(D) ? 4 : 8;
    D* d = dst.addr_;
    S* s = src.addr_;
    auto by = [&](auto r, auto a, auto f, auto c, auto z, auto o, const char* what) {
        switch (mode) {
            case RoundMode::CAST_NONE:
            case RoundMode::CAST_RINT: r(); break;
            case RoundMode::CAST_ROUND: a(); break;
            case RoundMode::CAST_FLOOR: f(); break;
            case RoundMode::CAST_CEIL: c(); break;
            case RoundMode::CAST_TRUNC: z(); break;
            default: o(what);
        }
    };
    auto none = [](const char* what) { AclgenApiUnmodelled(what); };
    AclgenCounted(count, [&] {
        if constexpr (std::is_same_v<D, float> && std::is_same_v<S, half>) {
            vconv_f162f32(d, s, 1, 1, 1, dRep, sRep);
        } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, bfloat16_t>) {
            vconv_bf162f32(d, s, 1, 1, 1, dRep, sRep);
        } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, int32_t>) {
            vconv_s322f32(d, s, 1, 1, 1, dRep, sRep);
        } else if constexpr (std::is_same_v<D, half> && std::is_same_v<S, float>) {
            if (mode == RoundMode::CAST_ODD) {
                vconv_f322f16o(d, s, 1, 1, 1, dRep, sRep);
            } else {
                by([&] { vconv_f322f16r(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322f16a(d, s, 1, 1, 1, dRep, sRep); },
                   [&] { vconv_f322f16f(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322f16c(d, s, 1, 1, 1, dRep, sRep); },
                   [&] { vconv_f322f16z(d, s, 1, 1, 1, dRep, sRep); }, none, "Cast float->half");
            }
        } else if constexpr (std::is_same_v<D, bfloat16_t> && std::is_same_v<S, float>) {
            by([&] { vconv_f322bf16r(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322bf16a(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322bf16f(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322bf16c(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322bf16z(d, s, 1, 1, 1, dRep, sRep); }, none, "Cast float->bfloat16_t with CAST_ODD");
        } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
            by([&] { vconv_f322f32r(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322f32a(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322f32f(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322f32c(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322f32z(d, s, 1, 1, 1, dRep, sRep); }, none, "Cast float->float with CAST_ODD");
        } else if constexpr (std::is_same_v<D, int32_t> && std::is_same_v<S, float>) {
            by([&] { vconv_f322s32r(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322s32a(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322s32f(d, s, 1, 1, 1, dRep, sRep); }, [&] { vconv_f322s32c(d, s, 1, 1, 1, dRep, sRep); },
               [&] { vconv_f322s32z(d, s, 1, 1, 1, dRep, sRep); }, none, "Cast float->int32_t with CAST_ODD");
        } else {
            AclgenApiUnmodelled("Cast between these dtypes");
        }
    });
}

/// Compare: one bit per element into `dst`; count x sizeof(T) must be whole 256-byte repeats.
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE mode, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Compare: half or float");
    AclgenAligned(dst, "Compare", "the destination mask");
    AclgenFits(dst, (uint64_t(count) + 8 * sizeof(U) - 1) / (8 * sizeof(U)), "Compare", "the destination mask");
    AclgenAligned(src0, "Compare", "src0");
    AclgenFits(src0, AclgenCount(src0, count), "Compare", "src0");
    AclgenAligned(src1, "Compare", "src1");
    AclgenFits(src1, AclgenCount(src1, count), "Compare", "src1");
    if ((uint64_t(count) * sizeof(T)) % ONE_REPEAT_BYTE_SIZE != 0) {
        AclgenApiFail("Compare", "count %u x %zu bytes is not a whole number of 256-byte repeats", count, sizeof(T));
    }
    auto* bits = reinterpret_cast<uint8_t*>(dst.addr_);
    AclgenCounted(count, [&] { aclgen_vcmp(bits, src0.addr_, src1.addr_, static_cast<int>(mode), 1); });
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE mode, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Select: half or float");
    if (mode != SELMODE::VSEL_TENSOR_TENSOR_MODE) AclgenApiUnmodelled("Select (two tensors) in a mode other than VSEL_TENSOR_TENSOR_MODE");
    AclgenVecChecks("Select", static_cast<int32_t>(count), dst);
    AclgenAligned(selMask, "Select", "selMask");
    AclgenFits(selMask, (uint64_t(count) + 8 * sizeof(U) - 1) / (8 * sizeof(U)), "Select", "selMask");
    AclgenAligned(src0, "Select", "src0");
    AclgenFits(src0, AclgenCount(src0, count), "Select", "src0");
    AclgenAligned(src1, "Select", "src1");
    AclgenFits(src1, AclgenCount(src1, count), "Select", "src1");
    auto* bits = reinterpret_cast<uint8_t*>(selMask.addr_);
    AclgenCounted(count, [&] { aclgen_vsel(dst.addr_, bits, src0.addr_, src1.addr_, T{}, 1); });
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE mode, uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Select: half or float");
    if (mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) AclgenApiUnmodelled("Select (tensor, scalar) in a mode other than VSEL_TENSOR_SCALAR_MODE");
    AclgenVecChecks("Select", static_cast<int32_t>(count), dst);
    AclgenAligned(selMask, "Select", "selMask");
    AclgenFits(selMask, (uint64_t(count) + 8 * sizeof(U) - 1) / (8 * sizeof(U)), "Select", "selMask");
    AclgenAligned(src0, "Select", "src0");
    AclgenFits(src0, AclgenCount(src0, count), "Select", "src0");
    auto* bits = reinterpret_cast<uint8_t*>(selMask.addr_);
    AclgenCounted(count, [&] { aclgen_vsel(dst.addr_, bits, src0.addr_, static_cast<T*>(nullptr), src1, 1); });
}

/// Gather, the "first `count` elements" form: dst[k] = the element at byte srcBaseAddr + srcOffset[k]
/// of src. Offsets are bytes (>= 0, on the element's width); count is at most src's and srcOffset's
/// elements (the reference's constraints); every element read stays inside src.
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                              const uint32_t srcBaseAddr, const uint32_t count) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t> ||
                      std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> ||
                      std::is_same_v<T, uint32_t>,
                  "Gather: a dtype the A2 vector unit does not gather");
    AclgenVecChecks("Gather", static_cast<int32_t>(count), dst);
    AclgenAligned(src, "Gather", "src");
    AclgenFits(src, count, "Gather", "src");
    AclgenAligned(srcOffset, "Gather", "srcOffset");
    AclgenFits(srcOffset, count, "Gather", "srcOffset");
    if (srcBaseAddr % sizeof(T) != 0) AclgenApiFail("Gather", "srcBaseAddr %u is not on a %zu-byte element", srcBaseAddr, sizeof(T));
    // Each offset is checked by the model as it reads it (the offsets are on the vector pipe's side).
    aclgen_vgather(dst.addr_, src.addr_, srcOffset.addr_, srcBaseAddr, count, static_cast<uint64_t>(src.size_) * sizeof(T));
}

// ---------------------------------------------------------------- not implemented: fail naming themselves
// Every call of these compiles and stops the run with rule `unmodelled-intrinsic` naming the API,
// never computing a silent zero.
#define ACLGEN_UNMODELLED_API(Name)                         \
    template <typename... A>                                \
    __aicore__ inline void Name(A&&...) {                   \
        AclgenApiUnmodelled(#Name);                         \
    }
ACLGEN_UNMODELLED_API(ReduceSum)
ACLGEN_UNMODELLED_API(ReduceMax)
ACLGEN_UNMODELLED_API(ReduceMin)
ACLGEN_UNMODELLED_API(WholeReduceSum)
ACLGEN_UNMODELLED_API(WholeReduceMax)
ACLGEN_UNMODELLED_API(WholeReduceMin)
ACLGEN_UNMODELLED_API(BlockReduceSum)
ACLGEN_UNMODELLED_API(PairReduceSum)
ACLGEN_UNMODELLED_API(GatherMask)
ACLGEN_UNMODELLED_API(Scatter)
ACLGEN_UNMODELLED_API(Transpose)
ACLGEN_UNMODELLED_API(TransDataTo5HD)
ACLGEN_UNMODELLED_API(Copy)
ACLGEN_UNMODELLED_API(Sort)
ACLGEN_UNMODELLED_API(Relu)
ACLGEN_UNMODELLED_API(Rsqrt)
ACLGEN_UNMODELLED_API(LeakyRelu)
ACLGEN_UNMODELLED_API(Not)
ACLGEN_UNMODELLED_API(And)
ACLGEN_UNMODELLED_API(Or)
ACLGEN_UNMODELLED_API(ShiftLeft)
ACLGEN_UNMODELLED_API(ShiftRight)
ACLGEN_UNMODELLED_API(CompareScalar)
ACLGEN_UNMODELLED_API(SetCmpMask)
ACLGEN_UNMODELLED_API(GetCmpMask)
ACLGEN_UNMODELLED_API(SetVectorMask)
ACLGEN_UNMODELLED_API(SetMaskCount)
ACLGEN_UNMODELLED_API(SetMaskNorm)
ACLGEN_UNMODELLED_API(ResetMask)
ACLGEN_UNMODELLED_API(LoadData)
ACLGEN_UNMODELLED_API(Mmad)
ACLGEN_UNMODELLED_API(Fixpipe)
ACLGEN_UNMODELLED_API(DumpTensor)
ACLGEN_UNMODELLED_API(CrossCoreSetFlag)
ACLGEN_UNMODELLED_API(CrossCoreWaitFlag)
ACLGEN_UNMODELLED_API(IBSet)
ACLGEN_UNMODELLED_API(IBWait)
#undef ACLGEN_UNMODELLED_API

}  // namespace AscendC

/// The launch's tiling key (the generated entry dispatches on it).
#define TILING_KEY_IS(k) (get_tiling_key() == static_cast<uint64_t>(k))
#define KERNEL_LOG(level, fmt, ...) std::printf("[%s] " fmt "\n", #level, ##__VA_ARGS__)

#endif  // ACLGEN_KERNEL_OPERATOR_H
