// aclgen's own host side of an Ascend C op for the CPU: what aclgen's generated tiling
// (op_host/<op>_tiling.{h,cpp}, aclgen_tiling.h) uses of the tiling API, written for aclgen from
// CANN's public reference (tiling data definition macros, gert::TilingContext, PlatformAscendC,
// IMPL_OP_OPTILING). Nothing of CANN is included or copied. The platform facts (cores, UB size)
// come from aclgen's own SoC table (aclnn_runtime::soc), passed in by the sim driver.
#ifndef ACLGEN_HOST_H
#define ACLGEN_HOST_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace ge {
/// Dtype numbering of GE's public graph API (the values aclnn_runtime's vocabulary table holds).
enum DataType {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_BF16 = 27, DT_UNDEFINED = 28
};
enum Format { FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NCDHW = 30 };
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
}  // namespace ge

namespace fe {
/// The facts of one SoC the tiling may ask for.
struct PlatFormInfos {
    std::string socName;
    uint32_t aiCores = 0;
    uint32_t vectorCores = 0;
    uint64_t ubBytes = 0;
};
}  // namespace fe

namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDims = 8;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    size_t GetDimNum() const { return num_; }
    int64_t GetDim(size_t i) const { return i < num_ ? dims_[i] : 0; }
    void SetDim(size_t i, int64_t v) {
        if (i < num_) dims_[i] = v;
    }
    void SetDimNum(size_t n) { num_ = n <= kMaxDims ? n : kMaxDims; }
    Shape& AppendDim(int64_t d) {
        if (num_ < kMaxDims) dims_[num_++] = d;
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < num_; ++i) n *= dims_[i];
        return n;
    }
    bool IsScalar() const { return num_ == 0; }
    bool operator==(const Shape& o) const {
        if (num_ != o.num_) return false;
        for (size_t i = 0; i < num_; ++i) {
            if (dims_[i] != o.dims_[i]) return false;
        }
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }

private:
    int64_t dims_[kMaxDims] = {};
    size_t num_ = 0;
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(const Shape& s) : origin_(s), storage_(s) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }

private:
    Shape origin_, storage_;
};

class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    CompileTimeTensorDesc(ge::DataType dt, ge::Format f) : dtype_(dt), format_(f) {}
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return format_; }
    ge::Format GetOriginFormat() const { return format_; }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    ge::Format format_ = ge::FORMAT_ND;
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

/// The op's attributes by index, each of one kind.
class RuntimeAttrs {
public:
    enum class Kind { Int, Bool, Float, ListInt, Str };
    struct Attr {
        Kind kind = Kind::Int;
        int64_t i = 0;
        bool b = false;
        float f = 0;
        TypedContinuousVector<int64_t> list;
        std::string s;
    };
    void Append(Attr a) { attrs_.push_back(std::move(a)); }
    size_t GetAttrNum() const { return attrs_.size(); }
    /// The value at `index` as T, or null where the attribute is absent or of another kind.
    template <typename T>
    const T* GetAttrPointer(size_t index) const {
        const Attr* a = At(index);
        if (a == nullptr) return nullptr;
        if constexpr (std::is_same_v<T, int64_t>) return a->kind == Kind::Int ? &a->i : nullptr;
        else if constexpr (std::is_same_v<T, bool>) return a->kind == Kind::Bool ? &a->b : nullptr;
        else if constexpr (std::is_same_v<T, float>) return a->kind == Kind::Float ? &a->f : nullptr;
        else if constexpr (std::is_same_v<T, char>) return a->kind == Kind::Str ? a->s.c_str() : nullptr;
        else return nullptr;
    }
    const int64_t* GetInt(size_t index) const { return GetAttrPointer<int64_t>(index); }
    const bool* GetBool(size_t index) const { return GetAttrPointer<bool>(index); }
    const float* GetFloat(size_t index) const { return GetAttrPointer<float>(index); }
    const char* GetStr(size_t index) const { return GetAttrPointer<char>(index); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t index) const {
        const Attr* a = At(index);
        return a != nullptr && a->kind == Kind::ListInt ? &a->list : nullptr;
    }

private:
    const Attr* At(size_t index) const { return index < attrs_.size() ? &attrs_[index] : nullptr; }
    std::vector<Attr> attrs_;
};

/// The buffer the tiling function writes its tiling data into.
class TilingData {
public:
    explicit TilingData(size_t capacity) : bytes_(capacity, 0) {}
    size_t GetCapacity() const { return bytes_.size(); }
    void* GetData() { return bytes_.data(); }
    const void* GetData() const { return bytes_.data(); }
    size_t GetDataSize() const { return size_; }
    void SetDataSize(size_t size) { size_ = size <= bytes_.size() ? size : bytes_.size(); }

private:
    std::vector<uint8_t> bytes_;
    size_t size_ = 0;
};

struct TilingTensor {
    StorageShape shape;
    CompileTimeTensorDesc desc;
};

/// What a tiling function reads (tensors, attributes, the platform) and writes (tiling data,
/// block dim, tiling key, workspace sizes).
class TilingContext {
public:
    TilingContext(std::string name, std::string type, size_t tilingCapacity)
        : name_(std::move(name)), type_(std::move(type)), tiling_(tilingCapacity) {}
    std::vector<TilingTensor>& Inputs() { return inputs_; }
    std::vector<TilingTensor>& Outputs() { return outputs_; }
    RuntimeAttrs& MutableAttrs() { return attrs_; }
    void SetPlatform(const fe::PlatFormInfos& p) { platform_ = p; }

    const char* GetNodeName() const { return name_.c_str(); }
    const char* GetNodeType() const { return type_.c_str(); }
    size_t GetComputeNodeInputNum() const { return inputs_.size(); }
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i].shape : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i].shape : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < inputs_.size() ? &inputs_[i].desc : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < outputs_.size() ? &outputs_[i].desc : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    fe::PlatFormInfos* GetPlatformInfo() { return &platform_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    ge::graphStatus SetBlockDim(uint32_t dim) {
        blockDim_ = dim;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return blockDim_; }
    ge::graphStatus SetTilingKey(uint64_t key) {
        tilingKey_ = key;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tilingKey_; }
    size_t* GetWorkspaceSizes(size_t num) {
        if (workspace_.size() < num) workspace_.resize(num, 0);
        return workspace_.data();
    }
    size_t GetWorkspaceNum() const { return workspace_.size(); }
    ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }

private:
    std::string name_, type_;
    std::vector<TilingTensor> inputs_, outputs_;
    RuntimeAttrs attrs_;
    fe::PlatFormInfos platform_;
    TilingData tiling_;
    uint32_t blockDim_ = 0;
    uint64_t tilingKey_ = 0;
    std::vector<size_t> workspace_;
};

using TilingFunc = std::function<ge::graphStatus(TilingContext*)>;

/// IMPL_OP_OPTILING's registry: op type -> tiling function.
class OpImplRegistry {
public:
    struct OpImpl {
        ge::graphStatus (*tiling)(TilingContext*) = nullptr;
    };
    static OpImplRegistry& GetInstance() {
        static OpImplRegistry registry;
        return registry;
    }
    OpImpl& CreateOrGetOpImpl(const std::string& type) { return impls_[type]; }
    const OpImpl* GetOpImpl(const std::string& type) const {
        auto it = impls_.find(type);
        return it == impls_.end() ? nullptr : &it->second;
    }

private:
    std::map<std::string, OpImpl> impls_;
};

class OpImplRegisterV2 {
public:
    explicit OpImplRegisterV2(const char* type) : type_(type) {}
    OpImplRegisterV2& Tiling(ge::graphStatus (*f)(TilingContext*)) {
        OpImplRegistry::GetInstance().CreateOrGetOpImpl(type_).tiling = f;
        return *this;
    }
    template <typename CompileInfo, typename F>
    OpImplRegisterV2& TilingParse(F) {
        return *this;
    }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }

private:
    std::string type_;
};

}  // namespace gert

namespace platform_ascendc {
enum class CoreMemType { L0_A, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };
enum class SocVersion { ASCEND910, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND910_93, RESERVED_VERSION };

/// The SoC's facts, as PlatformAscendC answers them.
class PlatformAscendC {
public:
    explicit PlatformAscendC(const fe::PlatFormInfos* info) : info_(info) {}
    uint32_t GetCoreNum() const { return info_->vectorCores; }
    uint32_t GetCoreNumAiv() const { return info_->vectorCores; }
    uint32_t GetCoreNumAic() const { return info_->aiCores; }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const { size = type == CoreMemType::UB ? info_->ubBytes : 0; }
    SocVersion GetSocVersion() const {
        const std::string& n = info_->socName;
        if (n.rfind("Ascend910B", 0) == 0) return SocVersion::ASCEND910B;
        if (n.rfind("Ascend910_93", 0) == 0) return SocVersion::ASCEND910_93;
        if (n.rfind("Ascend310P", 0) == 0) return SocVersion::ASCEND310P;
        if (n.rfind("Ascend310B", 0) == 0) return SocVersion::ASCEND310B;
        if (n.rfind("Ascend910", 0) == 0) return SocVersion::ASCEND910;
        return SocVersion::RESERVED_VERSION;
    }
    uint32_t GetLibApiWorkSpaceSize() const { return 0; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t, uint32_t) const { return sliceNum; }

private:
    const fe::PlatFormInfos* info_;
};
}  // namespace platform_ascendc

namespace optiling {

/// The base of a BEGIN_TILING_DATA_DEF class: fields laid out in declaration order at their
/// natural alignment, as the kernel's injected struct lays them out.
class TilingDef {
public:
    size_t GetDataSize() const { return (bytes_.size() + align_ - 1) / align_ * align_; }
    void SaveToBuffer(void* dst, size_t capacity) const {
        size_t n = GetDataSize() <= capacity ? GetDataSize() : capacity;
        std::memset(dst, 0, n);
        std::memcpy(dst, bytes_.data(), bytes_.size() <= n ? bytes_.size() : n);
    }
    /// Reserves a field of `size` bytes aligned to `align`; returns its offset.
    size_t AclgenField(size_t size, size_t align) {
        size_t off = (bytes_.size() + align - 1) / align * align;
        bytes_.resize(off + size, 0);
        align_ = align > align_ ? align : align_;
        return off;
    }
    void AclgenSet(size_t off, const void* v, size_t size) { std::memcpy(bytes_.data() + off, v, size); }
    void AclgenGet(size_t off, void* v, size_t size) const { std::memcpy(v, bytes_.data() + off, size); }

private:
    std::vector<uint8_t> bytes_;
    size_t align_ = 1;
};

template <typename T>
struct TilingField {
    TilingField(TilingDef* def, size_t count) : def_(def), off_(def->AclgenField(sizeof(T) * count, alignof(T))) {}
    TilingDef* def_;
    size_t off_;
};

inline bool RegisterTilingDataClass(const char*, const char*) { return true; }

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(name)               \
    class name : public ::optiling::TilingDef {  \
    public:
#define TILING_DATA_FIELD_DEF(type, field)                                                              \
private:                                                                                                \
    ::optiling::TilingField<type> field##_field_{this, 1};                                              \
                                                                                                        \
public:                                                                                                 \
    void set_##field(type v) { AclgenSet(field##_field_.off_, &v, sizeof(type)); }                      \
    type get_##field() const {                                                                          \
        type v;                                                                                         \
        AclgenGet(field##_field_.off_, &v, sizeof(type));                                               \
        return v;                                                                                       \
    }
#define TILING_DATA_FIELD_DEF_ARR(type, num, field)                                                     \
private:                                                                                                \
    ::optiling::TilingField<type> field##_field_{this, num};                                            \
                                                                                                        \
public:                                                                                                 \
    void set_##field(const type* v) { AclgenSet(field##_field_.off_, v, sizeof(type) * (num)); }
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(op, cls)                                                  \
    namespace {                                                                              \
    [[maybe_unused]] const bool aclgen_tiling_class_##op = ::optiling::RegisterTilingDataClass(#op, #cls); \
    }
#define IMPL_OP_OPTILING(op) \
    [[maybe_unused]] static ::gert::OpImplRegisterV2 aclgen_op_impl_optiling_##op = ::gert::OpImplRegisterV2(#op)

#endif  // ACLGEN_HOST_H
