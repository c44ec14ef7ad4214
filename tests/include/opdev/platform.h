/* Minimal declarations of CANN's opdev/platform.h used to syntax-check aclgen's output; not CANN's header. */
#ifndef ACLGEN_TEST_PLATFORM_H_
#define ACLGEN_TEST_PLATFORM_H_

namespace op {
enum class SocVersion { ASCEND910, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND950, KIRIN };
void SetPlatformSocVersion(SocVersion version);
}  // namespace op

#endif
