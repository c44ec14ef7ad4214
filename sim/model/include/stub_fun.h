// aclgen's own AI Core model: the intrinsics (the machine's instructions) the model implements,
// declared for aclgen's Ascend C runtime (sim/runtime/include/kernel_operator.h), which lowers
// every API call to them. Written for aclgen from CANN's public Ascend C API reference (DataCopy,
// DataCopyPad, the vector instructions' repeat/block strides and mask modes, SetFlag/WaitFlag,
// PipeBarrier); nothing of CANN is included or copied.
#ifndef ACLGEN_MODEL_STUB_FUN_H
#define ACLGEN_MODEL_STUB_FUN_H

#include <cstdint>
#include "aclgen_types.h"

// ---- the machine's enumerations (values as the CCE intrinsics number them) ----
typedef enum {
    PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL,
    PIPE_MTE4 = 7, PIPE_MTE5 = 8, PIPE_V2 = 9, PIPE_FIX = 10
} pipe_t;
typedef enum { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 } event_t;
typedef enum { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ } mem_dsb_t;
typedef enum { L1 = 0, L0A, L0B, L0C, UB, BT } mem_t;
typedef enum { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 } pad_t;
typedef enum { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 } ub_addr8_t;
typedef enum { UFMode0 = 0, Reserved, UFMode2, UFMode3 } unit_flag_t;
typedef enum { L128 = 0, H128 } vpart_t;
typedef enum { b8 = 0, b16 = 1, b32 = 2, s8 = 3, s32 = 4, f16 = 5, fmix = 6, f32 = 7 } vtype_t;
typedef enum { W_3 = 0, W_5 } w_size_t;
typedef enum { inc = 0, dec = 1 } addr_cal_mode_t;
typedef enum { ATOMIC_SUM = 0 } atomic_op_t;
typedef enum { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 } atomic_type_t;
typedef enum { BM_DISABLE = 0, BM_ENABLE = 1 } bm_t;
typedef enum { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE } cache_line_t;
typedef enum { CSIZE0 = 0, CSIZE1 = 1 } csize_t;
typedef enum { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC } dcci_dst_t;
typedef enum { e0 = 0, e2 = 2, e4 = 4, e6 = 6 } even0_7_t;
typedef enum {
    NoQuant = 0, F322F16 = 1, VQF322HIF8_PRE = 2, QF322HIF8_PRE = 3, VQF322HIF8_PRE_HYBRID = 4,
    QF322HIF8_PRE_HYBRID = 5, AttachF16Mul = 6, VREQ8 = 8, REQ8 = 9, VDEQF16 = 10, DEQF16 = 11,
    VSHIFTS322S16 = 12, SHIFTS322S16 = 13, VQF322FP8_PRE = 12, QF322FP8_PRE = 13, VQF322F32_PRE = 14,
    QF322F32_PRE = 15, F322BF16 = 16, VQF162B8_PRE = 17, QF162B8_PRE = 18, VQF162S4_PRE = 19, QF162S4_PRE = 20,
    VREQ4 = 21, REQ4 = 22, VQF322B8_PRE = 23, QF322B8_PRE = 24, VQF322S4_PRE = 25, QF322S4_PRE = 26,
    VDEQS16 = 27, DEQS16 = 28, VQF162S16_PRE = 29, QF162S16_PRE = 30, VQF322F16_PRE = 31, QF322F16_PRE = 32,
    VQF322BF16_PRE = 33, QF322BF16_PRE = 34, VQS322BF16_PRE = 35, QS322BF16_PRE = 36
} QuantMode_t;
typedef enum { NoRELU = 0, NormalRELU = 1, LeakyRELU = 2, PRELU = 3 } Relu_t;
typedef enum { NoREQ = 0, REQ = 1, VREQ = 2 } Req_t;
typedef enum {
    CRMODE_NONE = 0, CRMODE_F32toF16_NONE = 1, CRMODE_F32toF16_RELU = 2, CRMODE_S32toF16_NONE = 3,
    CRMODE_F16toF32_NONE = 4, CRMODE_NONE_RELU = 5, CRMODE_F16_MUL = 6, CRMODE_S32toF16_DEQSCALE_SPR = 7,
    CRMODE_DEQSCALE_VDEQ8 = 8, CRMODE_DEQSCALE_DEQ8 = 9, CRMODE_DEQSCALE_VDEQ16 = 10, CRMODE_DEQSCALE_DEQ16 = 11,
    CRMODE_DEQSCALE_VDEQS16 = 12, CRMODE_DEQSCALE_DEQS16 = 13
} ConvRelu_t;
typedef enum { NoConversion = 0, CvtMode1 = 1, CvtMode2 = 2 } CvtMode_t;
typedef enum { VALUE_INDEX = 0, INDEX_VALUE = 1, ONLY_VALUE = 2, ONLY_INDEX = 3 } Order_t;
typedef enum { NoPooling = 0, AVGPooling = 1, MAXPooling = 2, GAVGPooling = 3 } Pool_t;
typedef enum { No_LUT = 0 } QMode_t;
typedef enum { UNKNOWN_VALUE = 0, MERGING_VALUE = 1, ZEROING_VALUE = 2 } CpuMode;

// ---- what the model implements (sim/model/src/model.cpp) ----
#define ACLGEN_MODEL_DEBUG_HOOKS(X)                                                           \
    X(AscendCBufInit, (uint8_t pos, int32_t kind, int32_t num, uint64_t addr, uint64_t len))   \
    X(AscendCBufAbsAddr, (uint8_t pos, uint64_t addr, uint64_t len))                           \
    X(AscendCBufAlloc, (uint8_t hw, uint8_t pos, uint64_t addr, uint64_t len))                 \
    X(AscendCBufFree, (uint8_t hw, uint8_t pos, uint64_t addr, uint64_t len))                  \
    X(AscendCBufEnque, (uint8_t src, uint8_t dst, uint8_t pos, uint64_t addr))                 \
    X(AscendCBufDeque, (uint8_t src, uint8_t dst, uint8_t pos, uint64_t addr))                 \
    X(AscendCBufGet, (uint8_t pos, uint8_t hw, uint64_t addr, uint64_t len))                   \
    X(AscendCQueCreate, (uint8_t src, uint8_t dst, int32_t depth))                             \
    X(AscendCTBufPoolResetCheck, (uint8_t pos, uint64_t addr, uint64_t len, uint64_t handle)) \
    X(AscendCUpdateTbufPoolStatus, (uint64_t handle, bool reset))                              \
    X(AscendCTBufPoolInit, (uint8_t pos, uint64_t addr, uint64_t len, uint64_t handle))        \
    X(AscendCRecordPoolHierarchy, (uint64_t parent, uint64_t child))
#define ACLGEN_DECLARE_HOOK(name, params) int64_t name params;
ACLGEN_MODEL_DEBUG_HOOKS(ACLGEN_DECLARE_HOOK)
#undef ACLGEN_DECLARE_HOOK

// Flags and barriers.
int64_t set_flag(pipe_t pipe, pipe_t tpipe, event_t event);
int64_t wait_flag(pipe_t pipe, pipe_t tpipe, event_t event);
int64_t set_flag(pipe_t pipe, pipe_t tpipe, int event);
int64_t wait_flag(pipe_t pipe, pipe_t tpipe, int event);
int64_t pipe_barrier(pipe_t pipe);
int64_t dcci(void* addr, cache_line_t line, dcci_dst_t dst);
int64_t dcci(void* addr, uint64_t line, uint64_t dst);
int64_t dcci(void* addr, uint64_t line);
int64_t dsb(mem_dsb_t kind);
int64_t trap();

// Scalar bit operations (the queues' buffer masks).
int64_t sbitset0(uint64_t x, int64_t bit);
int64_t sbitset1(uint64_t x, int64_t bit);
int64_t sff0(uint64_t x);
int64_t sff1(uint64_t x);
int64_t bcnt0(uint64_t x);
int64_t bcnt1(uint64_t x);
int64_t clz(uint64_t x);

// Special registers.
int64_t set_vector_mask(uint64_t high, uint64_t low);
int64_t set_mask_count();
int64_t set_mask_norm();
int64_t set_mov_pad_val(uint64_t value);
int64_t set_padding(uint64_t value);
int64_t set_l1_3d_size(uint64_t value);
int64_t set_ctrl(uint64_t value);
int64_t get_ctrl();
int64_t set_atomic_none();
int64_t set_atomic_add();
int64_t set_atomic_max();
int64_t set_atomic_min();
int64_t set_atomic_f32();
int64_t set_atomic_f16();
int64_t set_atomic_bf16();
int64_t set_atomic_s32();
int64_t set_atomic_s16();
int64_t set_atomic_s8();

// DMA. Burst lengths and gaps of the plain copies are in 32-byte blocks; the align copies
// take the burst length in bytes, the GM-side gap in bytes and the UB-side gap in blocks.
int64_t copy_gm_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                        uint16_t srcStride, uint16_t dstStride);
int64_t copy_ubuf_to_gm(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                        uint16_t srcStride, uint16_t dstStride);
int64_t copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                          uint16_t srcStride, uint16_t dstStride);
#define ACLGEN_ALIGN_COPY(name, T)                                                                      \
    int64_t name(T* dst, T* src, uint8_t sid, uint16_t nBurst, uint32_t lenBurst, uint8_t leftPadding, \
                 uint8_t rightPadding, uint32_t srcGap, uint32_t dstGap);
#define ACLGEN_ALIGN_COPIES(T)                  \
    ACLGEN_ALIGN_COPY(copy_gm_to_ubuf_align_b8, T)  \
    ACLGEN_ALIGN_COPY(copy_ubuf_to_gm_align_b8, T)  \
    ACLGEN_ALIGN_COPY(copy_gm_to_ubuf_align_b16, T) \
    ACLGEN_ALIGN_COPY(copy_ubuf_to_gm_align_b16, T) \
    ACLGEN_ALIGN_COPY(copy_gm_to_ubuf_align_b32, T) \
    ACLGEN_ALIGN_COPY(copy_ubuf_to_gm_align_b32, T)
ACLGEN_ALIGN_COPIES(void)
ACLGEN_ALIGN_COPIES(int8_t)
ACLGEN_ALIGN_COPIES(uint8_t)
ACLGEN_ALIGN_COPIES(int16_t)
ACLGEN_ALIGN_COPIES(uint16_t)
ACLGEN_ALIGN_COPIES(half)
ACLGEN_ALIGN_COPIES(bfloat16_t)
ACLGEN_ALIGN_COPIES(int32_t)
ACLGEN_ALIGN_COPIES(uint32_t)
ACLGEN_ALIGN_COPIES(float)
ACLGEN_ALIGN_COPIES(int64_t)
ACLGEN_ALIGN_COPIES(uint64_t)
ACLGEN_ALIGN_COPIES(double)
#undef ACLGEN_ALIGN_COPIES
#undef ACLGEN_ALIGN_COPY

// Vector instructions: a repeat covers 8 blocks of 32 bytes of the wider operand; block strides
// in blocks, repeat strides in blocks; the mask selects elements (normal mode) or counts them
// (counter mode, repeat ignored).
#define ACLGEN_DUP(T)                                                                                    \
    int64_t vector_dup(T* dst, T value, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                       uint8_t dstRepeatStride, uint8_t srcRepeatStride);
ACLGEN_DUP(half)
ACLGEN_DUP(bfloat16_t)
ACLGEN_DUP(float)
ACLGEN_DUP(int16_t)
ACLGEN_DUP(uint16_t)
ACLGEN_DUP(int32_t)
ACLGEN_DUP(uint32_t)
#undef ACLGEN_DUP

#define ACLGEN_CONV(name, D, S)                                                                             \
    int64_t name(D* dst, S* src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                 uint16_t dstRepeatStride, uint16_t srcRepeatStride);
#define ACLGEN_MODEL_CONVERSIONS(X)          \
    X(vconv_f162f32, float, half)            \
    X(vconv_bf162f32, float, bfloat16_t)     \
    X(vconv_f322f16, half, float)            \
    X(vconv_f322f16r, half, float)           \
    X(vconv_f322f16a, half, float)           \
    X(vconv_f322f16f, half, float)           \
    X(vconv_f322f16c, half, float)           \
    X(vconv_f322f16z, half, float)           \
    X(vconv_f322f16o, half, float)           \
    X(vconv_f322bf16r, bfloat16_t, float)    \
    X(vconv_f322bf16a, bfloat16_t, float)    \
    X(vconv_f322bf16f, bfloat16_t, float)    \
    X(vconv_f322bf16c, bfloat16_t, float)    \
    X(vconv_f322bf16z, bfloat16_t, float)    \
    X(vconv_f322f32r, float, float)          \
    X(vconv_f322f32a, float, float)          \
    X(vconv_f322f32f, float, float)          \
    X(vconv_f322f32c, float, float)          \
    X(vconv_f322f32z, float, float)          \
    X(vconv_s322f32, float, int32_t)         \
    X(vconv_f322s32r, int32_t, float)        \
    X(vconv_f322s32a, int32_t, float)        \
    X(vconv_f322s32f, int32_t, float)        \
    X(vconv_f322s32c, int32_t, float)        \
    X(vconv_f322s32z, int32_t, float)
ACLGEN_MODEL_CONVERSIONS(ACLGEN_CONV)
#undef ACLGEN_CONV

#define ACLGEN_BINARY(name, T)                                                                                \
    int64_t name(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dstBlockStride, uint8_t src0BlockStride, \
                 uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride,                  \
                 uint8_t src1RepeatStride);
#define ACLGEN_BINARY_SCALAR(name, T)                                                                   \
    int64_t name(T* dst, T* src, T value, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                 uint16_t dstRepeatStride, uint16_t srcRepeatStride);
#define ACLGEN_UNARY(name, T)                                                                        \
    int64_t name(T* dst, T* src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                 uint16_t dstRepeatStride, uint16_t srcRepeatStride);
#define ACLGEN_FOR_ARITH(X, name) X(name, half) X(name, float) X(name, int16_t) X(name, int32_t)
#define ACLGEN_FOR_FLOAT(X, name) X(name, half) X(name, float)
ACLGEN_FOR_ARITH(ACLGEN_BINARY, vadd)
ACLGEN_FOR_ARITH(ACLGEN_BINARY, vsub)
ACLGEN_FOR_ARITH(ACLGEN_BINARY, vmul)
ACLGEN_FOR_FLOAT(ACLGEN_BINARY, vdiv)
ACLGEN_FOR_ARITH(ACLGEN_BINARY, vmax)
ACLGEN_FOR_ARITH(ACLGEN_BINARY, vmin)
ACLGEN_FOR_ARITH(ACLGEN_BINARY_SCALAR, vadds)
ACLGEN_FOR_ARITH(ACLGEN_BINARY_SCALAR, vmuls)
#define ACLGEN_BINARY_SCALAR_MODE(name, T)                                                                  \
    int64_t name(T* dst, T* src, T value, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                 uint16_t dstRepeatStride, uint16_t srcRepeatStride, bool mode0, bool mode1);
ACLGEN_FOR_ARITH(ACLGEN_BINARY_SCALAR_MODE, vmaxs)
ACLGEN_FOR_ARITH(ACLGEN_BINARY_SCALAR_MODE, vmins)
#undef ACLGEN_BINARY_SCALAR_MODE
ACLGEN_FOR_FLOAT(ACLGEN_UNARY, vabs)
ACLGEN_FOR_FLOAT(ACLGEN_UNARY, vexp)
ACLGEN_FOR_FLOAT(ACLGEN_UNARY, vsqrt)
ACLGEN_FOR_FLOAT(ACLGEN_UNARY, vrec)
ACLGEN_FOR_FLOAT(ACLGEN_UNARY, vln)
#undef ACLGEN_BINARY
#undef ACLGEN_BINARY_SCALAR
#undef ACLGEN_UNARY

// Multi-core.
int64_t get_block_num();
int64_t get_block_idx();
int64_t get_subblockid();
int64_t get_subblockdim();
int64_t __sync_all_stub(int32_t usedCores, bool isAIVOnly);
int64_t ffts_cross_core_sync(pipe_t pipe, uint64_t config);
int64_t wait_flag_dev(int64_t flagId);
int64_t set_ffts_base_addr(uint64_t addr);

// Compare and Select (aclgen's own intrinsics: the model's vcmpv/vsel). Compare writes one bit per
// element (element k: byte k/8, bit k%8); Select picks src0 where the bit is 1, else src1 (a
// tensor, or the scalar `value` when src1 is null).
#define ACLGEN_CMPSEL(T)                                                                                 \
    int64_t aclgen_vcmp(uint8_t* dst, T* src0, T* src1, int mode, uint8_t repeat);                       \
    int64_t aclgen_vsel(T* dst, uint8_t* sel, T* src0, T* src1, T value, uint8_t repeat);
ACLGEN_CMPSEL(half)
ACLGEN_CMPSEL(float)
ACLGEN_CMPSEL(int16_t)
ACLGEN_CMPSEL(int32_t)
#undef ACLGEN_CMPSEL

// Gather (aclgen's own intrinsic: the model's vgather in counter mode): dst[k] is the element at
// byte `base + offsets[k]` of src, for the first `count` elements; a byte past `srcBytes` or off
// the element's width stops the run.
#define ACLGEN_GATHER(T) \
    int64_t aclgen_vgather(T* dst, T* src, uint32_t* offsets, uint32_t base, uint32_t count, uint64_t srcBytes);
ACLGEN_GATHER(half)
ACLGEN_GATHER(bfloat16_t)
ACLGEN_GATHER(float)
ACLGEN_GATHER(int16_t)
ACLGEN_GATHER(uint16_t)
ACLGEN_GATHER(int32_t)
ACLGEN_GATHER(uint32_t)
#undef ACLGEN_GATHER

// vbrcb (Brcb): each repeat reads 8 consecutive elements of src and fills 8 destination blocks of
// 32 bytes, block k with element k; blocks dstBlockStride apart, repeats dstRepeatStride blocks apart.
#define ACLGEN_BRCB(T) \
    int64_t vbrcb(T* dst, T* src, uint16_t dstBlockStride, uint16_t dstRepeatStride, uint8_t repeat);
ACLGEN_BRCB(half)
ACLGEN_BRCB(bfloat16_t)
ACLGEN_BRCB(float)
ACLGEN_BRCB(int16_t)
ACLGEN_BRCB(uint16_t)
ACLGEN_BRCB(int32_t)
ACLGEN_BRCB(uint32_t)
#undef ACLGEN_BRCB

// The launch: block index/count and tiling key of the core running (set by the driver).
void AclgenModelSetLaunch(int64_t blockIdx, int64_t blockNum, uint64_t tilingKey);
uint64_t get_tiling_key();

// Stops the run naming what the model does not implement (rule `unmodelled-intrinsic`).
[[noreturn]] void AclgenModelUnmodelled(const char* name);

#endif  // ACLGEN_MODEL_STUB_FUN_H
