// aclgen host emulation of the CANN host-side tiling API subset: ge status and dtypes,
// gert::TilingContext (shapes, dtypes, attrs, platform, outputs of tiling), op tiling registry.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
};
}  // namespace ge

namespace gert {

class Shape {
public:
    Shape() = default;
    explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

private:
    std::vector<int64_t> dims_;
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(Shape s) : shape_(std::move(s)) {}
    const Shape& GetStorageShape() const { return shape_; }
    const Shape& GetOriginShape() const { return shape_; }

private:
    Shape shape_;
};

class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    explicit CompileTimeTensorDesc(ge::DataType t) : dtype_(t) {}
    ge::DataType GetDataType() const { return dtype_; }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
};

template <typename T>
class TypedContinuousVector {
public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(std::vector<T> v) : data_(std::move(v)) {}
    size_t GetSize() const { return data_.size(); }
    const T* GetData() const { return data_.data(); }

private:
    std::vector<T> data_;
};

/// One attribute value: every kind the aclnn seed ops use.
struct AttrValue {
    enum Kind { None, Int, Bool, Float, ListInt } kind = None;
    int64_t i = 0;
    bool b = false;
    float f = 0.0f;
    TypedContinuousVector<int64_t> list;
};

class RuntimeAttrs {
public:
    template <typename T>
    const T* GetAttrPointer(size_t i) const;
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const {
        return i < attrs_.size() && attrs_[i].kind == AttrValue::ListInt ? &attrs_[i].list : nullptr;
    }
    size_t GetAttrNum() const { return attrs_.size(); }
    std::vector<AttrValue> attrs_;
};

template <>
inline const int64_t* RuntimeAttrs::GetAttrPointer<int64_t>(size_t i) const {
    return i < attrs_.size() && attrs_[i].kind == AttrValue::Int ? &attrs_[i].i : nullptr;
}
template <>
inline const bool* RuntimeAttrs::GetAttrPointer<bool>(size_t i) const {
    return i < attrs_.size() && attrs_[i].kind == AttrValue::Bool ? &attrs_[i].b : nullptr;
}
template <>
inline const float* RuntimeAttrs::GetAttrPointer<float>(size_t i) const {
    return i < attrs_.size() && attrs_[i].kind == AttrValue::Float ? &attrs_[i].f : nullptr;
}

class TilingData {
public:
    explicit TilingData(size_t capacity) : data_(capacity, 0) {}
    void* GetData() { return data_.data(); }
    size_t GetCapacity() const { return data_.size(); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }

private:
    std::vector<uint8_t> data_;
    size_t size_ = 0;
};

struct PlatformInfo {
    uint32_t coreNumAiv = 1;
    uint64_t ubBytes = 192 * 1024;
    std::string socVersion;
};

/// What the driver fills from a call and the tiling function reads and writes.
class TilingContext {
public:
    const StorageShape* GetInputShape(size_t i) const { return i < inShapes.size() ? &inShapes[i] : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outShapes.size() ? &outShapes[i] : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < inDescs.size() ? &inDescs[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < outDescs.size() ? &outDescs[i] : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs; }
    const PlatformInfo* GetPlatformInfo() const { return &platform; }
    const char* GetNodeName() const { return nodeName.c_str(); }
    // Return types as metadef's gert::TilingContext declares them.
    ge::graphStatus SetBlockDim(uint32_t n) {
        blockDim = n;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return blockDim; }
    ge::graphStatus SetTilingKey(uint64_t k) {
        tilingKey = k;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tilingKey; }
    TilingData* GetRawTilingData() { return &raw; }
    size_t* GetWorkspaceSizes(size_t n) {
        workspace.assign(n, 0);
        return workspace.data();
    }

    std::vector<StorageShape> inShapes, outShapes;
    std::vector<CompileTimeTensorDesc> inDescs, outDescs;
    RuntimeAttrs attrs;
    PlatformInfo platform;
    std::string nodeName;
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    TilingData raw{64 * 1024};
    std::vector<size_t> workspace;
};

}  // namespace gert

namespace aclgen_emu {

using TilingFn = std::function<ge::graphStatus(gert::TilingContext*)>;

inline std::map<std::string, TilingFn>& TilingRegistry() {
    static std::map<std::string, TilingFn> registry;
    return registry;
}

struct TilingRegistrar {
    explicit TilingRegistrar(const char* op) : op_(op) {}
    TilingRegistrar& Tiling(ge::graphStatus (*fn)(gert::TilingContext*)) {
        TilingRegistry()[op_] = fn;
        return *this;
    }
    std::string op_;
};

}  // namespace aclgen_emu

#define ACLGEN_CONCAT_INNER(a, b) a##b
#define ACLGEN_CONCAT(a, b) ACLGEN_CONCAT_INNER(a, b)
/// CANN's op tiling registration: `IMPL_OP_OPTILING(AddCustom).Tiling(TilingFunc);`
#define IMPL_OP_OPTILING(op) \
    static ::aclgen_emu::TilingRegistrar ACLGEN_CONCAT(aclgen_tiling_reg_, __COUNTER__) = \
        ::aclgen_emu::TilingRegistrar(#op)
