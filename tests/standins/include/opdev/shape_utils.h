// aclgen's stand-in for opdev/shape_utils.h (not CANN's header), written from CANN's public opbase reference: ToShapeVector.
#ifndef ACLGEN_STANDIN_OPDEV_SHAPE_UTILS_H_
#define ACLGEN_STANDIN_OPDEV_SHAPE_UTILS_H_

#include <vector>

#include "opdev/common_types.h"

namespace op {
inline std::vector<int64_t> ToShapeVector(const Shape& s)
{
    std::vector<int64_t> out;
    for (size_t i = 0; i < s.GetDimNum(); ++i) {
        out.push_back(s.GetDim(i));
    }
    return out;
}
} // namespace op

#endif
