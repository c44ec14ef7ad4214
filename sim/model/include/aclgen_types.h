// aclgen's own: the number types and kernel qualifiers of Ascend C (half, bfloat16_t, __aicore__,
// __gm__, GM_ADDR), written from CANN's public Ascend C API reference (data types; function and
// variable qualifiers). No CANN header is included or copied. Shared by aclgen's AI Core model
// (sim/model) and aclgen's Ascend C runtime (sim/runtime), for the CPU.
#ifndef ACLGEN_TYPES_H
#define ACLGEN_TYPES_H

#include <cstdint>
#include <cstring>

// On the CPU every function runs on the host and every pointer is a host pointer.
#define __aicore__
#define __global__
#define __gm__
#define __ubuf__
#define __inout_pipe__(p)
#define __in_pipe__(p)
#define __out_pipe__(p)
typedef uint8_t* GM_ADDR;

namespace aclgen_num {

/// Rounding modes of conversions (the Cast API's RoundMode and the intrinsics' suffixes).
enum Round { RINT, ROUND, FLOOR, CEIL, TRUNC, ODD };

inline uint32_t F32Bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float BitsF32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

/// `m` shifted right by `shift` bits, rounded by `mode` (`neg`: the value's sign).
inline uint64_t RoundShift(uint64_t m, int shift, Round mode, bool neg) {
    if (shift <= 0) return m << (-shift);
    bool inexact;
    uint64_t q, rem, half;
    if (shift >= 64) {
        q = 0;
        inexact = m != 0;
        rem = m;
        half = ~0ull;  // never reached by a remainder below 2^63 for the modes that compare
    } else {
        q = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
        inexact = rem != 0;
    }
    switch (mode) {
        case RINT:
            if (shift < 64 && (rem > half || (rem == half && (q & 1)))) q += 1;
            break;
        case ROUND:
            if (shift < 64 && rem >= half) q += 1;
            break;
        case FLOOR:
            if (neg && inexact) q += 1;
            break;
        case CEIL:
            if (!neg && inexact) q += 1;
            break;
        case TRUNC:
            break;
        case ODD:
            if (inexact) q |= 1;
            break;
    }
    return q;
}

/// fp32 -> an IEEE-like 16-bit format with `expBits`/`manBits`, rounding by `mode`: subnormals
/// kept, overflow to infinity or the largest finite value as the mode says.
inline uint16_t NarrowFloat(float f, int expBits, int manBits, Round mode) {
    uint32_t u = F32Bits(f);
    bool neg = (u >> 31) != 0;
    int exp = static_cast<int>((u >> 23) & 0xff);
    uint32_t man = u & 0x7fffff;
    uint16_t sign = static_cast<uint16_t>(neg ? 1u << (expBits + manBits) : 0);
    uint16_t expMax = static_cast<uint16_t>((1u << expBits) - 1);
    if (exp == 0xff) {
        if (man != 0) return static_cast<uint16_t>(sign | (expMax << manBits) | (1u << (manBits - 1)));
        return static_cast<uint16_t>(sign | (expMax << manBits));
    }
    int bias = (1 << (expBits - 1)) - 1;
    uint64_t sig = exp == 0 ? man : (man | 0x800000u);
    int e = (exp == 0 ? 1 : exp) - 127 - 23;
    if (sig == 0) return sign;
    int msb = 63 - __builtin_clzll(sig);
    int valueExp = msb + e;
    int targetExp = valueExp > 1 - bias ? valueExp : 1 - bias;
    int shift = (targetExp - manBits) - e;
    uint64_t q = RoundShift(sig, shift, mode, neg);
    if (q >> (manBits + 1)) {
        q >>= 1;
        targetExp += 1;
    }
    if (targetExp > bias) {
        bool toInf = mode == RINT || mode == ROUND || (mode == CEIL && !neg) || (mode == FLOOR && neg);
        if (toInf) return static_cast<uint16_t>(sign | (expMax << manBits));
        return static_cast<uint16_t>(sign | ((expMax - 1) << manBits) | ((1u << manBits) - 1));
    }
    if ((q >> manBits) == 0) return static_cast<uint16_t>(sign | q);
    uint16_t biased = static_cast<uint16_t>(targetExp + bias);
    return static_cast<uint16_t>(sign | (biased << manBits) | (q & ((1u << manBits) - 1)));
}

inline uint16_t F32ToF16(float f, Round mode) { return NarrowFloat(f, 5, 10, mode); }
inline uint16_t F32ToBf16(float f, Round mode) { return NarrowFloat(f, 8, 7, mode); }

inline float F16ToF32(uint16_t h) {
    uint32_t sign = (h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t man = h & 0x3ff;
    if (exp == 0x1f) return BitsF32(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (man == 0) return BitsF32(sign);
        // man * 2^-24, exact in fp32.
        float v = static_cast<float>(man) * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return BitsF32(sign | ((exp + 112) << 23) | (man << 13));
}
inline float Bf16ToF32(uint16_t b) { return BitsF32(static_cast<uint32_t>(b) << 16); }

}  // namespace aclgen_num

/// IEEE binary16, stored as its bits; arithmetic rounds the fp32 result to nearest even.
struct half {
    uint16_t val = 0;
    half() = default;
    half(float f) : val(aclgen_num::F32ToF16(f, aclgen_num::RINT)) {}
    half(double f) : half(static_cast<float>(f)) {}
    half(int v) : half(static_cast<float>(v)) {}
    half(int64_t v) : half(static_cast<float>(v)) {}
    half(uint32_t v) : half(static_cast<float>(v)) {}
    operator float() const { return aclgen_num::F16ToF32(val); }
    float ToFloat() const { return aclgen_num::F16ToF32(val); }
    half operator-() const {
        half r;
        r.val = static_cast<uint16_t>(val ^ 0x8000u);
        return r;
    }
    half& operator+=(half o) { return *this = half(ToFloat() + o.ToFloat()); }
    half& operator-=(half o) { return *this = half(ToFloat() - o.ToFloat()); }
    half& operator*=(half o) { return *this = half(ToFloat() * o.ToFloat()); }
    half& operator/=(half o) { return *this = half(ToFloat() / o.ToFloat()); }
};

/// bfloat16 (8 exponent bits, 7 mantissa bits), stored as its bits; conversion from fp32 rounds
/// to nearest even.
struct bfloat16_t {
    uint16_t val = 0;
    bfloat16_t() = default;
    bfloat16_t(float f) : val(aclgen_num::F32ToBf16(f, aclgen_num::RINT)) {}
    bfloat16_t(double f) : bfloat16_t(static_cast<float>(f)) {}
    bfloat16_t(int v) : bfloat16_t(static_cast<float>(v)) {}
    operator float() const { return aclgen_num::Bf16ToF32(val); }
    float ToFloat() const { return aclgen_num::Bf16ToF32(val); }
    bfloat16_t operator-() const {
        bfloat16_t r;
        r.val = static_cast<uint16_t>(val ^ 0x8000u);
        return r;
    }
    bfloat16_t& operator+=(bfloat16_t o) { return *this = bfloat16_t(ToFloat() + o.ToFloat()); }
    bfloat16_t& operator-=(bfloat16_t o) { return *this = bfloat16_t(ToFloat() - o.ToFloat()); }
};

#endif  // ACLGEN_TYPES_H
