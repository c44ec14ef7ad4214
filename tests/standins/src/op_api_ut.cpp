// aclgen's stand-in definitions of the op_api UT framework's descs (not CANN's code): the objects OP_API_UT passes.
#include "op_api_ut_common/op_api_ut.h"
#include "op_api_ut_common/scalar_desc.h"
#include "op_api_ut_common/tensor_desc.h"

#include <cstring>

aclTensor* TensorDesc::Make() const
{
    std::vector<int64_t> strides = strides_;
    if (strides.empty() && !dims_.empty()) {
        strides.assign(dims_.size(), 1);
        for (size_t i = dims_.size() - 1; i > 0; --i) {
            strides[i - 1] = strides[i] * dims_[i];
        }
    }
    return aclCreateTensor(dims_.data(), dims_.size(), dtype_, strides.data(), 0, format_, dims_.data(), dims_.size(),
                           nullptr);
}

aclTensorList* TensorListDesc::Make() const
{
    std::vector<const aclTensor*> ts;
    for (const auto& d : descs_) {
        ts.push_back(d.Make());
    }
    return aclCreateTensorList(ts.data(), ts.size());
}

namespace {
/// IEEE half bits of a float (round to nearest even).
uint16_t HalfBits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000);
    int exp = static_cast<int>((b >> 23) & 0xff) - 127 + 15;
    uint32_t mant = b & 0x7fffff;
    if (f == 0.0f || exp <= 0) {
        return sign;
    }
    if (exp >= 31) {
        return sign | 0x7c00;
    }
    uint32_t half = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
    bool round = ((mant >> 12) & 1) != 0 && ((mant & 0xfff) != 0 || (half & 1) != 0);
    return static_cast<uint16_t>(sign | (half + (round ? 1 : 0)));
}
} // namespace

aclScalar* ScalarDesc::Make() const
{
    if (dtype_ == own_) {
        return aclCreateScalar(const_cast<unsigned char*>(bytes_), dtype_);
    }
    // A value of one C type given another dtype (a float as FLOAT16): stored as that dtype stores it.
    unsigned char buf[16] = {};
    float f = static_cast<float>(asDouble_);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    uint16_t h = 0;
    switch (dtype_) {
        case ACL_FLOAT16:
            h = HalfBits(f);
            std::memcpy(buf, &h, sizeof h);
            break;
        case ACL_BF16:
            h = static_cast<uint16_t>(bits >> 16);
            std::memcpy(buf, &h, sizeof h);
            break;
        case ACL_FLOAT:
            std::memcpy(buf, &f, sizeof f);
            break;
        case ACL_DOUBLE:
            std::memcpy(buf, &asDouble_, sizeof asDouble_);
            break;
        default: {
            int64_t v = static_cast<int64_t>(asDouble_);
            std::memcpy(buf, &v, sizeof v);  // little-endian: the low bytes are the narrower integer
            break;
        }
    }
    return aclCreateScalar(buf, dtype_);
}

namespace aclgen_standin {
Made::~Made()
{
    for (auto* t : tensors) {
        aclDestroyTensor(t);
    }
    for (auto* l : tensorLists) {
        aclDestroyTensorList(l);
    }
    for (auto* a : ints) {
        aclDestroyIntArray(a);
    }
    for (auto* a : floats) {
        aclDestroyFloatArray(a);
    }
    for (auto* a : bools) {
        aclDestroyBoolArray(a);
    }
    for (auto* s : scalars) {
        aclDestroyScalar(s);
    }
}
} // namespace aclgen_standin
