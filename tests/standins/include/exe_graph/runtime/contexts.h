// aclgen's stand-in for the gert contexts of exe_graph/runtime (not CANN's headers), written from CANN's public Ascend C op development reference: InferShapeContext, InferDataTypeContext, TilingContext, RuntimeAttrs, CompileTimeTensorDesc, TilingData.
// Each context is a plain value a test fills (its public `inputs`, `outputs`, `attrs`) before calling an
// op's function; CANN's are views of the graph engine's memory.
#ifndef ACLGEN_STANDIN_EXE_GRAPH_CONTEXTS_H_
#define ACLGEN_STANDIN_EXE_GRAPH_CONTEXTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace fe {
/// The platform a tiling function runs for (read through platform_ascendc::PlatformAscendC).
struct PlatFormInfos {
    uint32_t aivCores = 40;
    uint32_t aicCores = 20;
    uint64_t ubBytes = 196608;
};
} // namespace fe

namespace gert {
/// A list attribute's values.
template <class T>
class TypedContinuousVector {
public:
    std::vector<T> values;
    size_t GetSize() const { return values.size(); }
    const T* GetData() const { return values.data(); }
};

/// One attribute value; which member holds it follows the OpDef's attribute type.
struct AttrValue {
    bool b = false;
    int64_t i = 0;
    float f = 0.0f;
    std::string s;
    TypedContinuousVector<int64_t> ints;
    TypedContinuousVector<float> floats;
    TypedContinuousVector<bool> bools;
    bool present = true;
};

class RuntimeAttrs {
public:
    std::vector<AttrValue> attrs;
    template <class T>
    const T* GetAttrPointer(size_t i) const
    {
        if (i >= attrs.size() || !attrs[i].present) {
            return nullptr;
        }
        return Pick(attrs[i], static_cast<const T*>(nullptr));
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const char* GetStr(size_t i) const { return i < attrs.size() ? attrs[i].s.c_str() : nullptr; }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const
    {
        return i < attrs.size() && attrs[i].present ? &attrs[i].ints : nullptr;
    }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const
    {
        return i < attrs.size() && attrs[i].present ? &attrs[i].floats : nullptr;
    }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const
    {
        return i < attrs.size() && attrs[i].present ? &attrs[i].bools : nullptr;
    }
    size_t GetAttrNum() const { return attrs.size(); }

private:
    static const bool* Pick(const AttrValue& a, const bool*) { return &a.b; }
    static const int64_t* Pick(const AttrValue& a, const int64_t*) { return &a.i; }
    static const float* Pick(const AttrValue& a, const float*) { return &a.f; }
    static const char* Pick(const AttrValue& a, const char*) { return a.s.c_str(); }
};

/// A tensor's dtype and formats as the graph compiles them.
class CompileTimeTensorDesc {
public:
    ge::DataType dtype = ge::DT_FLOAT;
    ge::Format format = ge::FORMAT_ND;
    ge::DataType GetDataType() const { return dtype; }
    ge::Format GetStorageFormat() const { return format; }
    ge::Format GetOriginFormat() const { return format; }
};

/// What InferShape and InferDataType contexts share: the node and its attributes.
class NodeContext {
public:
    std::string name = "aclgen_standin_node";
    RuntimeAttrs runtimeAttrs;
    const char* GetNodeName() const { return name.c_str(); }
    const char* GetNodeType() const { return name.c_str(); }
    const RuntimeAttrs* GetAttrs() const { return &runtimeAttrs; }
};

class InferShapeContext : public NodeContext {
public:
    std::vector<Shape> inputs;
    std::vector<Shape> outputs;
    const Shape* GetInputShape(size_t i) const { return i < inputs.size() ? &inputs[i] : nullptr; }
    const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    Shape* GetOutputShape(size_t i) { return i < outputs.size() ? &outputs[i] : nullptr; }
    size_t GetComputeNodeInputNum() const { return inputs.size(); }
};

class InferDataTypeContext : public NodeContext {
public:
    std::vector<ge::DataType> inputs;
    std::vector<ge::DataType> outputs;
    ge::DataType GetInputDataType(size_t i) const { return i < inputs.size() ? inputs[i] : ge::DT_UNDEFINED; }
    ge::DataType GetOptionalInputDataType(size_t i) const { return GetInputDataType(i); }
    ge::DataType GetOutputDataType(size_t i) const { return i < outputs.size() ? outputs[i] : ge::DT_UNDEFINED; }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType d)
    {
        if (i >= outputs.size()) {
            outputs.resize(i + 1, ge::DT_UNDEFINED);
        }
        outputs[i] = d;
        return ge::GRAPH_SUCCESS;
    }
};

/// The tiling data buffer of one launch.
class TilingData {
public:
    std::vector<uint8_t> bytes = std::vector<uint8_t>(4096);
    size_t size = 0;
    size_t GetCapacity() const { return bytes.size(); }
    void* GetData() { return bytes.data(); }
    size_t GetDataSize() const { return size; }
    void SetDataSize(size_t n) { size = n; }
};

class TilingContext : public NodeContext {
public:
    std::vector<StorageShape> inputShapes;
    std::vector<StorageShape> outputShapes;
    std::vector<CompileTimeTensorDesc> inputDescs;
    std::vector<CompileTimeTensorDesc> outputDescs;
    fe::PlatFormInfos platform;
    TilingData rawTilingData;
    std::vector<size_t> workspaces = std::vector<size_t>(1);
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    const StorageShape* GetInputShape(size_t i) const { return i < inputShapes.size() ? &inputShapes[i] : nullptr; }
    const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const StorageShape* GetOutputShape(size_t i) const
    {
        return i < outputShapes.size() ? &outputShapes[i] : nullptr;
    }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const
    {
        return i < inputDescs.size() ? &inputDescs[i] : nullptr;
    }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const
    {
        return i < outputDescs.size() ? &outputDescs[i] : nullptr;
    }
    fe::PlatFormInfos* GetPlatformInfo() { return &platform; }
    TilingData* GetRawTilingData() { return &rawTilingData; }
    size_t* GetWorkspaceSizes(size_t n)
    {
        if (workspaces.size() < n) {
            workspaces.resize(n);
        }
        return workspaces.data();
    }
    ge::graphStatus SetBlockDim(uint32_t n)
    {
        blockDim = n;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetTilingKey(uint64_t k)
    {
        tilingKey = k;
        return ge::GRAPH_SUCCESS;
    }
};
} // namespace gert

#endif
