// aclgen host emulation of CANN's tiling data definition macros.
//
// BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF declares a standard-layout struct whose
// fields sit in declaration order with natural alignment, the same layout as the plain struct
// the kernel side reads through GET_TILING_DATA; SaveToBuffer copies it into the raw tiling data.
// Signatures agree with metadef's register/tilingdata_base.h: SaveToBuffer returns void (callers
// check GetDataSize() against the capacity first), getters are not const.
#pragma once
#include <cstdint>
#include <cstring>

#include "../aclgen_emu/tiling_context.h"

#define BEGIN_TILING_DATA_DEF(name) \
    class name {                    \
    public:
#define TILING_DATA_FIELD_DEF(type, field)          \
    type field##_ = type();                          \
    void set_##field(type v) { field##_ = v; }       \
    type get_##field() { return field##_; }
#define END_TILING_DATA_DEF                                           \
    size_t GetDataSize() const { return sizeof(*this); }              \
    void SaveToBuffer(void* addr, size_t capacity) {                  \
        if (capacity >= sizeof(*this)) std::memcpy(addr, this, sizeof(*this)); \
    }                                                                 \
    }
#define REGISTER_TILING_DATA_CLASS(op, cls) \
    static_assert(sizeof(cls) > 0, "tiling data class of " #op)
