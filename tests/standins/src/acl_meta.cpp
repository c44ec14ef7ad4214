// aclgen's stand-in definitions of aclnn/acl_meta.h's calls (not CANN's code), written from CANN's public aclnn reference: aclCreate*/aclDestroy* on the plain objects of opdev/common_types.h.
#include <cstring>

#include "aclnn/acl_meta.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/format_utils.h"
#include "opdev/op_executor.h"

namespace {
template <class T>
T Load(const void* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// IEEE half bits to float.
double Half(uint16_t h)
{
    int exp = (h >> 10) & 0x1f;
    double mant = h & 0x3ff;
    double v = exp == 0 ? mant / 1024.0 / 16384.0 : (1.0 + mant / 1024.0) * static_cast<double>(1LL << exp) / 32768.0;
    if (exp == 31) {
        v = mant == 0 ? __builtin_inf() : __builtin_nan("");
    }
    return (h & 0x8000) ? -v : v;
}

/// BFLOAT16 bits to float: the high half of a float's bits.
double BFloat(uint16_t b)
{
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    return Load<float>(&bits);
}

/// A scalar of `dtype` stored at `p` as (value, exact integer value).
aclScalar* ScalarFrom(const void* p, aclDataType dtype)
{
    op::DataType d = op::ToOpDataType(dtype);
    auto integer = [d](int64_t v) { return new aclScalar(d, static_cast<double>(v), v); };
    auto real = [d](double v) { return new aclScalar(d, v, static_cast<int64_t>(v)); };
    switch (dtype) {
        case ACL_FLOAT:
        case ACL_COMPLEX64:
            return real(Load<float>(p));
        case ACL_DOUBLE:
        case ACL_COMPLEX128:
            return real(Load<double>(p));
        case ACL_FLOAT16:
        case ACL_COMPLEX32:
            return real(Half(Load<uint16_t>(p)));
        case ACL_BF16:
            return real(BFloat(Load<uint16_t>(p)));
        case ACL_BOOL:
            return integer(Load<bool>(p) ? 1 : 0);
        case ACL_INT8:
            return integer(Load<int8_t>(p));
        case ACL_UINT8:
            return integer(Load<uint8_t>(p));
        case ACL_INT16:
            return integer(Load<int16_t>(p));
        case ACL_UINT16:
            return integer(Load<uint16_t>(p));
        case ACL_INT32:
            return integer(Load<int32_t>(p));
        case ACL_UINT32:
            return integer(Load<uint32_t>(p));
        case ACL_INT64:
            return integer(Load<int64_t>(p));
        case ACL_UINT64:
            return integer(static_cast<int64_t>(Load<uint64_t>(p)));
        default:
            return nullptr;
    }
}
} // namespace

extern "C" {
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData)
{
    if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0)) {
        return nullptr;
    }
    op::Shape view(std::vector<int64_t>(viewDims, viewDims + viewDimsNum));
    op::Shape storage(std::vector<int64_t>(storageDims, storageDims + storageDimsNum));
    op::Strides strides;
    if (stride != nullptr) {
        strides.assign(stride, stride + viewDimsNum);
    }
    return new aclTensor(view, strides, offset, op::ToOpDataType(dataType), op::ToOpFormat(format), storage,
                         tensorData);
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType)
{
    return value == nullptr ? nullptr : ScalarFrom(value, dataType);
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size)
{
    if (value == nullptr && size > 0) {
        return nullptr;
    }
    auto* a = new aclIntArray();
    a->values.assign(value, value + size);
    return a;
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size)
{
    if (value == nullptr && size > 0) {
        return nullptr;
    }
    auto* a = new aclFloatArray();
    a->values.assign(value, value + size);
    return a;
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size)
{
    if (value == nullptr && size > 0) {
        return nullptr;
    }
    auto* a = new aclBoolArray();
    a->values.assign(value, value + size);
    return a;
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size)
{
    if (value == nullptr && size > 0) {
        return nullptr;
    }
    auto* l = new aclTensorList();
    for (uint64_t i = 0; i < size; ++i) {
        l->tensors.push_back(const_cast<aclTensor*>(value[i]));
    }
    return l;
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size)
{
    if (value == nullptr && size > 0) {
        return nullptr;
    }
    auto* l = new aclScalarList();
    for (uint64_t i = 0; i < size; ++i) {
        l->scalars.push_back(const_cast<aclScalar*>(value[i]));
    }
    return l;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor)
{
    delete tensor;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar)
{
    delete scalar;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array)
{
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array)
{
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array)
{
    delete array;
    return ACLNN_SUCCESS;
}
/// A list owns its elements, as CANN's does.
aclnnStatus aclDestroyTensorList(const aclTensorList* array)
{
    if (array != nullptr) {
        for (aclTensor* t : array->tensors) {
            delete t;
        }
    }
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array)
{
    if (array != nullptr) {
        for (aclScalar* s : array->scalars) {
            delete s;
        }
    }
    delete array;
    return ACLNN_SUCCESS;
}
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor)
{
    delete executor;
    return ACLNN_SUCCESS;
}
}
