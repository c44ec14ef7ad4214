// aclgen's stand-in for tiling/platform/platform_ascendc.h (not CANN's header), written from CANN's public Ascend C tiling reference: PlatformAscendC (core counts, memory sizes).
#ifndef ACLGEN_STANDIN_PLATFORM_ASCENDC_H_
#define ACLGEN_STANDIN_PLATFORM_ASCENDC_H_

#include <cstdint>

#include "exe_graph/runtime/contexts.h"

namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatformAscendC {
public:
    explicit PlatformAscendC(fe::PlatFormInfos* info) : info_(info) {}
    uint32_t GetCoreNumAiv() const { return info_ == nullptr ? 0 : info_->aivCores; }
    uint32_t GetCoreNumAic() const { return info_ == nullptr ? 0 : info_->aicCores; }
    uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const
    {
        size = (info_ != nullptr && type == CoreMemType::UB) ? info_->ubBytes : 0;
    }

private:
    fe::PlatFormInfos* info_;
};
} // namespace platform_ascendc

#endif
