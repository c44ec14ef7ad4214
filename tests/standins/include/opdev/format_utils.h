// aclgen's stand-in for opdev/format_utils.h (not CANN's header), written from CANN's public opbase reference: GetPrimaryFormat, IsPrivateFormat, ToOpFormat.
#ifndef ACLGEN_STANDIN_OPDEV_FORMAT_UTILS_H_
#define ACLGEN_STANDIN_OPDEV_FORMAT_UTILS_H_

#include "opdev/common_types.h"

namespace op {
/// The format without its sub-format and C0 bits (the low byte).
inline Format GetPrimaryFormat(Format f) { return static_cast<Format>(static_cast<int32_t>(f) & 0xff); }
/// Ascend's private layouts: the 5D ones and the fractal ones.
inline bool IsPrivateFormat(Format f)
{
    switch (GetPrimaryFormat(f)) {
        case Format::FORMAT_NC1HWC0:
        case Format::FORMAT_FRACTAL_Z:
        case Format::FORMAT_FRACTAL_NZ:
        case Format::FORMAT_NDC1HWC0:
        case Format::FORMAT_FRACTAL_Z_3D:
        case Format::FORMAT_NC1HWC0_C04:
        case Format::FORMAT_FRACTAL_Z_C04:
            return true;
        default:
            return false;
    }
}
inline Format ToOpFormat(aclFormat f) { return static_cast<Format>(f); }
} // namespace op

#endif
