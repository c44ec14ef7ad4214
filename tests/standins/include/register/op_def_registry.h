// aclgen's stand-in for register/op_def_registry.h (not CANN's header), written from CANN's public Ascend C op registration reference: OpDef, OpAICoreConfig, OP_ADD.
#ifndef ACLGEN_TEST_OP_DEF_REGISTRY_H_
#define ACLGEN_TEST_OP_DEF_REGISTRY_H_

#include <cstdint>
#include <string>
#include <vector>
#include "graph/types.h"

namespace gert {
class TilingContext;
class InferShapeContext;
} // namespace gert

namespace ops {
enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

class OpParamDef {
public:
    OpParamDef& ParamType(Option type);
    OpParamDef& DataType(std::vector<ge::DataType> types);
    OpParamDef& DataTypeList(std::vector<ge::DataType> types);
    OpParamDef& Format(std::vector<ge::Format> formats);
    OpParamDef& FormatList(std::vector<ge::Format> formats);
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats);
    OpParamDef& ValueDepend(Option valueDepend);
    OpParamDef& AutoContiguous();
};

class OpAttrDef {
public:
    OpAttrDef& AttrType(Option attrType);
    OpAttrDef& Bool();
    OpAttrDef& Bool(bool value);
    OpAttrDef& Float();
    OpAttrDef& Float(float value);
    OpAttrDef& Int();
    OpAttrDef& Int(int64_t value);
    OpAttrDef& String();
    OpAttrDef& String(const char* value);
    OpAttrDef& ListBool();
    OpAttrDef& ListBool(std::vector<bool> value);
    OpAttrDef& ListFloat();
    OpAttrDef& ListFloat(std::vector<float> value);
    OpAttrDef& ListInt();
    OpAttrDef& ListInt(std::vector<int64_t> value);
};

class OpAICoreConfig {
public:
    OpAICoreConfig();
    explicit OpAICoreConfig(const char* soc);
    OpParamDef& Input(const char* name);
    OpParamDef& Output(const char* name);
    OpAICoreConfig& DynamicCompileStaticFlag(bool flag);
    OpAICoreConfig& DynamicFormatFlag(bool flag);
    OpAICoreConfig& DynamicRankSupportFlag(bool flag);
    OpAICoreConfig& DynamicShapeSupportFlag(bool flag);
    OpAICoreConfig& NeedCheckSupportFlag(bool flag);
    OpAICoreConfig& PrecisionReduceFlag(bool flag);
    OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value);
};

using TilingKernelFunc = ge::graphStatus (*)(gert::TilingContext*);

class OpAICoreDef {
public:
    OpAICoreDef& SetTiling(TilingKernelFunc func);
    void AddConfig(const char* soc);
    void AddConfig(const char* soc, OpAICoreConfig& aicoreConfig);
};

class OpDef {
public:
    explicit OpDef(const char* type);
    virtual ~OpDef();
    OpParamDef& Input(const char* name);
    OpParamDef& Output(const char* name);
    OpAttrDef& Attr(const char* name);
    OpAICoreDef& AICore();
};
} // namespace ops

#define OP_ADD(opType, ...) static opType g_aclgen_op_##opType(#opType)

#endif
