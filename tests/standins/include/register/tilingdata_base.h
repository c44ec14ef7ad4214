// aclgen's stand-in for register/tilingdata_base.h (not CANN's header), written from CANN's public Ascend C tiling reference: BEGIN_TILING_DATA_DEF, TILING_DATA_FIELD_DEF, END_TILING_DATA_DEF, REGISTER_TILING_DATA_CLASS.
// A tiling data class is its fields, in order, each with set_/get_; SaveToBuffer writes them packed in
// declaration order (what the kernel's struct reads).
#ifndef ACLGEN_STANDIN_REGISTER_TILINGDATA_BASE_H_
#define ACLGEN_STANDIN_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace optiling {
/// The fields a tiling data class registered, as (address, size) in declaration order.
class TilingDef {
public:
    TilingDef() = default;
    TilingDef(const TilingDef&) = delete;
    TilingDef& operator=(const TilingDef&) = delete;
    size_t GetDataSize() const
    {
        size_t n = 0;
        for (const auto& f : fields_) {
            n += f.size;
        }
        return n;
    }
    void SaveToBuffer(void* data, size_t capacity) const
    {
        size_t at = 0;
        for (const auto& f : fields_) {
            if (at + f.size > capacity) {
                return;
            }
            std::memcpy(static_cast<uint8_t*>(data) + at, f.at, f.size);
            at += f.size;
        }
    }

protected:
    struct Field {
        const void* at;
        size_t size;
    };
    bool Register(const void* at, size_t size)
    {
        fields_.push_back(Field{at, size});
        return true;
    }

private:
    std::vector<Field> fields_;
};
} // namespace optiling

#define BEGIN_TILING_DATA_DEF(name)                \
    class name : public ::optiling::TilingDef { \
    public:
#define TILING_DATA_FIELD_DEF(type, field)                                  \
    type field##_ = type();                                                 \
    bool field##Registered_ = Register(&field##_, sizeof(type));            \
                                                                            \
public:                                                                     \
    void set_##field(type v) { field##_ = v; }                              \
    type get_##field() const { return field##_; }
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(opType, className) \
    [[maybe_unused]] static const char* const g_aclgenTilingDataOf##opType = #className

#endif
