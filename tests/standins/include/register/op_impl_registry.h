// aclgen's stand-in for register/op_impl_registry.h (not CANN's header), written from CANN's public Ascend C op development reference: IMPL_OP_INFERSHAPE, IMPL_OP_OPTILING and the gert contexts they take.
// Registration keeps the functions in a table a test can look up by op type (ImplOf).
#ifndef ACLGEN_STANDIN_REGISTER_OP_IMPL_REGISTRY_H_
#define ACLGEN_STANDIN_REGISTER_OP_IMPL_REGISTRY_H_

#include <map>
#include <string>

#include "exe_graph/runtime/contexts.h"
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {
using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);

/// The functions registered for one op type.
struct OpImplFunctions {
    InferShapeKernelFunc inferShape = nullptr;
    InferDataTypeKernelFunc inferDataType = nullptr;
    TilingKernelFunc tiling = nullptr;
};

inline std::map<std::string, OpImplFunctions>& OpImplTable()
{
    static std::map<std::string, OpImplFunctions> table;
    return table;
}
inline const OpImplFunctions* ImplOf(const std::string& opType)
{
    auto it = OpImplTable().find(opType);
    return it == OpImplTable().end() ? nullptr : &it->second;
}

class OpImplRegisterV2 {
public:
    explicit OpImplRegisterV2(const char* opType) : opType_(opType) {}
    OpImplRegisterV2& InferShape(InferShapeKernelFunc f)
    {
        OpImplTable()[opType_].inferShape = f;
        return *this;
    }
    OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f)
    {
        OpImplTable()[opType_].inferDataType = f;
        return *this;
    }
    OpImplRegisterV2& Tiling(TilingKernelFunc f)
    {
        OpImplTable()[opType_].tiling = f;
        return *this;
    }
    template <class CompileInfo>
    OpImplRegisterV2& TilingParse(ge::graphStatus (*)(void*))
    {
        return *this;
    }

private:
    std::string opType_;
};
} // namespace gert

#define ACLGEN_STANDIN_CAT2(a, b) a##b
#define ACLGEN_STANDIN_CAT(a, b) ACLGEN_STANDIN_CAT2(a, b)
#define IMPL_OP_INFERSHAPE(opType)                                                                        \
    [[maybe_unused]] static ::gert::OpImplRegisterV2 ACLGEN_STANDIN_CAT(g_aclgenInferShape_, __COUNTER__) = \
        ::gert::OpImplRegisterV2(#opType)
#define IMPL_OP_OPTILING(opType)                                                                        \
    [[maybe_unused]] static ::gert::OpImplRegisterV2 ACLGEN_STANDIN_CAT(g_aclgenTiling_, __COUNTER__) = \
        ::gert::OpImplRegisterV2(#opType)

#endif
