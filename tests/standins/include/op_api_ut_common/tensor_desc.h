/* Minimal declarations of CANN's op_api UT descriptors used to syntax-check aclgen's output; not CANN's header. */
#ifndef ACLGEN_TEST_TENSOR_DESC_H_
#define ACLGEN_TEST_TENSOR_DESC_H_

#include <cstdint>
#include <vector>
#include "aclnn/aclnn_base.h"

class TensorDesc {
public:
    TensorDesc(const std::vector<int64_t>& viewDims, aclDataType dataType, aclFormat format,
               const std::vector<int64_t>& stride = {});
};

class TensorListDesc {
public:
    TensorListDesc(const std::vector<TensorDesc>& descs);
};

class IntArrayDesc {
public:
    explicit IntArrayDesc(const std::vector<int64_t>& values);
};

class FloatArrayDesc {
public:
    explicit FloatArrayDesc(const std::vector<float>& values);
};

class BoolArrayDesc {
public:
    explicit BoolArrayDesc(const std::vector<bool>& values);
};

#endif
