// aclgen's stand-in for the op_api UT framework's scalar_desc.h (not CANN's header), written from the public conventions of CANN's op_api unit tests: ScalarDesc.
#ifndef ACLGEN_STANDIN_SCALAR_DESC_H_
#define ACLGEN_STANDIN_SCALAR_DESC_H_

#include <cstdint>
#include <cstring>

#include "aclnn/aclnn_base.h"

/// A host scalar: its value as its C type stores it, and its dtype (by default the C type's).
class ScalarDesc {
public:
    explicit ScalarDesc(float v, aclDataType dt = ACL_FLOAT) { Set(v, dt); }
    explicit ScalarDesc(double v, aclDataType dt = ACL_DOUBLE) { Set(v, dt); }
    explicit ScalarDesc(bool v, aclDataType dt = ACL_BOOL) { Set(v, dt); }
    explicit ScalarDesc(int8_t v, aclDataType dt = ACL_INT8) { Set(v, dt); }
    explicit ScalarDesc(uint8_t v, aclDataType dt = ACL_UINT8) { Set(v, dt); }
    explicit ScalarDesc(int16_t v, aclDataType dt = ACL_INT16) { Set(v, dt); }
    explicit ScalarDesc(uint16_t v, aclDataType dt = ACL_UINT16) { Set(v, dt); }
    explicit ScalarDesc(int32_t v, aclDataType dt = ACL_INT32) { Set(v, dt); }
    explicit ScalarDesc(uint32_t v, aclDataType dt = ACL_UINT32) { Set(v, dt); }
    explicit ScalarDesc(int64_t v, aclDataType dt = ACL_INT64) { Set(v, dt); }
    explicit ScalarDesc(uint64_t v, aclDataType dt = ACL_UINT64) { Set(v, dt); }
    /// The scalar; a FLOAT16 or BFLOAT16 desc of a float value is that float converted.
    aclScalar* Make() const;

private:
    template <class T>
    void Set(T v, aclDataType dt)
    {
        std::memcpy(bytes_, &v, sizeof v);
        asDouble_ = static_cast<double>(v);
        dtype_ = dt;
        own_ = TypeOf(v);
    }
    static aclDataType TypeOf(float) { return ACL_FLOAT; }
    static aclDataType TypeOf(double) { return ACL_DOUBLE; }
    static aclDataType TypeOf(bool) { return ACL_BOOL; }
    static aclDataType TypeOf(int8_t) { return ACL_INT8; }
    static aclDataType TypeOf(uint8_t) { return ACL_UINT8; }
    static aclDataType TypeOf(int16_t) { return ACL_INT16; }
    static aclDataType TypeOf(uint16_t) { return ACL_UINT16; }
    static aclDataType TypeOf(int32_t) { return ACL_INT32; }
    static aclDataType TypeOf(uint32_t) { return ACL_UINT32; }
    static aclDataType TypeOf(int64_t) { return ACL_INT64; }
    static aclDataType TypeOf(uint64_t) { return ACL_UINT64; }
    unsigned char bytes_[16] = {};
    double asDouble_ = 0.0;
    aclDataType dtype_ = ACL_FLOAT;
    aclDataType own_ = ACL_FLOAT;
};

#endif
