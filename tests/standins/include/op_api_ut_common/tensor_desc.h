// aclgen's stand-in for the op_api UT framework's tensor_desc.h (not CANN's header), written from the public conventions of CANN's op_api unit tests: TensorDesc, TensorListDesc, IntArrayDesc, FloatArrayDesc, BoolArrayDesc.
// A desc is a value; OP_API_UT (op_api_ut.h) makes the aclTensor/aclIntArray/... a call passes from it.
#ifndef ACLGEN_STANDIN_TENSOR_DESC_H_
#define ACLGEN_STANDIN_TENSOR_DESC_H_

#include <cstdint>
#include <vector>

#include "aclnn/aclnn_base.h"

class TensorDesc {
public:
    TensorDesc(const std::vector<int64_t>& viewDims, aclDataType dataType, aclFormat format,
               const std::vector<int64_t>& stride = {})
        : dims_(viewDims), dtype_(dataType), format_(format), strides_(stride) {}
    /// The tensor: the strides given, else row-major ones over the view dims.
    aclTensor* Make() const;

private:
    std::vector<int64_t> dims_;
    aclDataType dtype_;
    aclFormat format_;
    std::vector<int64_t> strides_;
};

class TensorListDesc {
public:
    TensorListDesc(const std::vector<TensorDesc>& descs) : descs_(descs) {}
    aclTensorList* Make() const;

private:
    std::vector<TensorDesc> descs_;
};

class IntArrayDesc {
public:
    explicit IntArrayDesc(const std::vector<int64_t>& values) : values_(values) {}
    aclIntArray* Make() const { return aclCreateIntArray(values_.data(), values_.size()); }

private:
    std::vector<int64_t> values_;
};

class FloatArrayDesc {
public:
    explicit FloatArrayDesc(const std::vector<float>& values) : values_(values) {}
    aclFloatArray* Make() const { return aclCreateFloatArray(values_.data(), values_.size()); }

private:
    std::vector<float> values_;
};

class BoolArrayDesc {
public:
    explicit BoolArrayDesc(const std::vector<bool>& values) : values_(values) {}
    aclBoolArray* Make() const
    {
        bool* raw = new bool[values_.size() + 1];
        for (size_t i = 0; i < values_.size(); ++i) {
            raw[i] = values_[i];
        }
        aclBoolArray* a = aclCreateBoolArray(raw, values_.size());
        delete[] raw;
        return a;
    }

private:
    std::vector<bool> values_;
};

#endif
