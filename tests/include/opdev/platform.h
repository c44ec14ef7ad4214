/* Minimal declarations of CANN's opdev/platform.h used to syntax-check aclgen's output; not CANN's header.
   They agree with ops-nn's UT framework (ut/framework/stub/opdev/platform.h): SoC enumerators, and
   SocVersionManager to switch SoC (SetPlatformSocVersion is private there). tests/it/cann_headers.rs
   checks the same files against the real headers. */
#ifndef ACLGEN_TEST_PLATFORM_H_
#define ACLGEN_TEST_PLATFORM_H_

namespace op {
enum class SocVersion {
    ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND950, ASCEND350, ASCEND910E, ASCEND310, ASCEND310P,
    ASCEND310B, ASCEND310C, ASCEND610LITE, KIRINX90, KIRIN9030, RESERVED_VERSION = 99999
};
class SocVersionManager {
public:
    explicit SocVersionManager(SocVersion newVersion);
    ~SocVersionManager();
};
}  // namespace op

#endif
