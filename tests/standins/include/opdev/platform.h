// aclgen's stand-in for opdev/platform.h (not CANN's header), written from CANN's public opbase reference: op::SocVersion, GetCurrentPlatformInfo().GetSocVersion().
// SocVersionManager switches the SoC for a scope, as op_api unit tests do (there it belongs to the UT
// framework; CANN's runtime reads the SoC from the device). The SoC starts as ASCEND910B.
#ifndef ACLGEN_STANDIN_OPDEV_PLATFORM_H_
#define ACLGEN_STANDIN_OPDEV_PLATFORM_H_

namespace op {
enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND950, ASCEND350, ASCEND910E, ASCEND310, ASCEND310P,
    ASCEND310B, ASCEND310C, ASCEND610LITE, KIRINX90, KIRIN9030, RESERVED_VERSION = 99999
};

class PlatformInfo {
public:
    SocVersion GetSocVersion() const { return soc_; }
    void SetSocVersion(SocVersion soc) { soc_ = soc; }

private:
    SocVersion soc_ = SocVersion::ASCEND910B;
};

/// The platform this process runs on (one per process: a C++17 inline variable).
inline PlatformInfo g_aclgenStandinPlatform;
inline const PlatformInfo& GetCurrentPlatformInfo() { return g_aclgenStandinPlatform; }
inline void SetPlatformSocVersion(SocVersion soc) { g_aclgenStandinPlatform.SetSocVersion(soc); }

/// Sets the SoC until the end of the scope, then restores the previous one.
class SocVersionManager {
public:
    explicit SocVersionManager(SocVersion soc) : saved_(GetCurrentPlatformInfo().GetSocVersion())
    {
        SetPlatformSocVersion(soc);
    }
    ~SocVersionManager() { SetPlatformSocVersion(saved_); }
    SocVersionManager(const SocVersionManager&) = delete;
    SocVersionManager& operator=(const SocVersionManager&) = delete;

private:
    SocVersion saved_;
};
} // namespace op

#endif
