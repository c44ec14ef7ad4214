// aclgen's stand-in for opdev/common_types.h (not CANN's header), written from CANN's public opbase reference: op::DataType, op::Format, op::Shape, and the members of aclTensor, aclScalar and the arrays.
// Only what aclgen's generated code and aclgen_check.h call. The objects are plain values here, made by
// the aclCreate* calls (tests/standins/src/acl_meta.cpp) or by the executor (opdev/op_executor.h).
#ifndef ACLGEN_STANDIN_OPDEV_COMMON_TYPES_H_
#define ACLGEN_STANDIN_OPDEV_COMMON_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace op {
using DataType = ge::DataType;
using Format = ge::Format;
using Shape = gert::Shape;
template <class T, size_t N = 8>
using FVector = std::vector<T>;
using Strides = FVector<int64_t>;
} // namespace op

/// A tensor: view shape, view strides and offset, dtype, view and storage format, storage shape.
struct aclTensor {
public:
    aclTensor(const op::Shape& view, const op::Strides& strides, int64_t offset, op::DataType dtype,
              op::Format format, const op::Shape& storage, void* data)
        : view_(view), storage_(storage), strides_(strides), offset_(offset), dtype_(dtype),
          viewFormat_(format), storageFormat_(format), data_(data) {}
    const op::Shape& GetViewShape() const { return view_; }
    const op::Shape& GetStorageShape() const { return storage_; }
    const op::Shape& GetOriginalShape() const { return view_; }
    const op::Strides& GetViewStrides() const { return strides_; }
    int64_t GetViewOffset() const { return offset_; }
    op::DataType GetDataType() const { return dtype_; }
    op::Format GetViewFormat() const { return viewFormat_; }
    op::Format GetStorageFormat() const { return storageFormat_; }
    op::Format GetOriginalFormat() const { return viewFormat_; }
    void SetDataType(op::DataType d) { dtype_ = d; }
    void SetViewShape(const op::Shape& s) { view_ = s; }
    void SetStorageFormat(op::Format f) { storageFormat_ = f; }
    void SetViewFormat(op::Format f) { viewFormat_ = f; }
    void SetOriginalFormat(op::Format f) { viewFormat_ = f; }
    int64_t Numel() const { return view_.GetShapeSize(); }
    int64_t Size() const { return Numel(); }
    bool IsEmpty() const { return Numel() == 0; }
    void* GetData() const { return data_; }

private:
    op::Shape view_;
    op::Shape storage_;
    op::Strides strides_;
    int64_t offset_;
    op::DataType dtype_;
    op::Format viewFormat_;
    op::Format storageFormat_;
    void* data_;
};

/// A host scalar: its dtype and its value (kept as a double and, for integers, exactly).
struct aclScalar {
public:
    aclScalar(op::DataType dtype, double value, int64_t exact) : dtype_(dtype), value_(value), exact_(exact) {}
    op::DataType GetDataType() const { return dtype_; }
    double ToDouble() const { return value_; }
    float ToFloat() const { return static_cast<float>(value_); }
    int64_t ToInt64() const { return exact_; }
    int32_t ToInt32() const { return static_cast<int32_t>(exact_); }
    bool ToBool() const { return value_ != 0.0; }

private:
    op::DataType dtype_;
    double value_;
    int64_t exact_;
};

namespace aclgen_standin {
/// The array types share one shape: a vector of values with CANN's Size/operator[]/GetData.
template <class T>
struct Array {
    std::vector<T> values;
    uint64_t Size() const { return values.size(); }
    const T& operator[](uint64_t i) const { return values[i]; }
    T& operator[](uint64_t i) { return values[i]; }
    const T* GetData() const { return values.data(); }
};
} // namespace aclgen_standin

struct aclIntArray : aclgen_standin::Array<int64_t> {};
struct aclFloatArray : aclgen_standin::Array<float> {};
/// CANN's aclBoolArray holds bools; a vector<bool> has no GetData, so a char-sized bool is kept.
struct aclBoolArray {
    std::vector<bool> values;
    uint64_t Size() const { return values.size(); }
    bool operator[](uint64_t i) const { return values[i]; }
};
struct aclTensorList {
    std::vector<aclTensor*> tensors;
    uint64_t Size() const { return tensors.size(); }
    aclTensor* operator[](uint64_t i) const { return tensors[i]; }
};
struct aclScalarList {
    std::vector<aclScalar*> scalars;
    uint64_t Size() const { return scalars.size(); }
    aclScalar* operator[](uint64_t i) const { return scalars[i]; }
};

#endif
