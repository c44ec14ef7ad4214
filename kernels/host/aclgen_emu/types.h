// aclgen host emulation: 16-bit float types (half, bfloat16_t) with round-to-nearest-even
// conversions, shared by the kernel side and the sim driver.
#pragma once
#include <cstdint>
#include <cstring>

namespace aclgen_emu {

inline uint32_t FloatBits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

inline float BitsFloat(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline uint16_t FloatToHalfBits(float f) {
    uint32_t x = FloatBits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xffu) {  // inf / nan
        return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0u));
    }
    int32_t e = static_cast<int32_t>(exp) - 127 + 15;
    if (e >= 0x1f) {
        return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (e <= 0) {  // subnormal half or zero
        if (e < -10) {
            return static_cast<uint16_t>(sign);
        }
        man |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half_man = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_man & 1u))) {
            half_man++;
        }
        return static_cast<uint16_t>(sign | half_man);
    }
    uint32_t half_man = man >> 13;
    uint32_t rem = man & 0x1fffu;
    uint32_t out = sign | (static_cast<uint32_t>(e) << 10) | half_man;
    if (rem > 0x1000u || (rem == 0x1000u && (half_man & 1u))) {
        out++;  // may carry into the exponent, which is the right rounding
    }
    return static_cast<uint16_t>(out);
}

inline float HalfBitsToFloat(uint16_t h) {
    uint32_t sign = (static_cast<uint32_t>(h) & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0) {
        if (man == 0) {
            return BitsFloat(sign);
        }
        float v = static_cast<float>(man) / 1024.0f / 16384.0f;  // man * 2^-24
        return sign ? -v : v;
    }
    if (exp == 0x1f) {
        return BitsFloat(sign | 0x7f800000u | (man << 13));
    }
    return BitsFloat(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

inline uint16_t FloatToBf16Bits(float f) {
    uint32_t x = FloatBits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) {
        return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
    }
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return static_cast<uint16_t>(x >> 16);
}

inline float Bf16BitsToFloat(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

}  // namespace aclgen_emu

/// IEEE binary16, as Ascend C's `half`.
struct half {
    uint16_t bits = 0;
    half() = default;
    half(float f) : bits(aclgen_emu::FloatToHalfBits(f)) {}
    operator float() const { return aclgen_emu::HalfBitsToFloat(bits); }
};

/// bfloat16, as Ascend C's `bfloat16_t`.
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    bfloat16_t(float f) : bits(aclgen_emu::FloatToBf16Bits(f)) {}
    operator float() const { return aclgen_emu::Bf16BitsToFloat(bits); }
};

static_assert(sizeof(half) == 2, "half is 2 bytes");
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t is 2 bytes");
