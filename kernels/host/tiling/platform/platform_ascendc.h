// aclgen host emulation of CANN's platform_ascendc::PlatformAscendC (core count, UB size).
#pragma once
#include <cstdint>

#include "../../aclgen_emu/tiling_context.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A, L0_B, L0_C, L1, L2, UB, HBM };

class PlatformAscendC {
public:
    explicit PlatformAscendC(const gert::PlatformInfo* info) : info_(info) {}
    uint32_t GetCoreNumAiv() const { return info_->coreNumAiv; }
    uint32_t GetCoreNum() const { return info_->coreNumAiv; }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const { size = type == CoreMemType::UB ? info_->ubBytes : 0; }

private:
    const gert::PlatformInfo* info_;
};

}  // namespace platform_ascendc
