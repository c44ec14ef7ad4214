// aclgen's stand-in for opdev/shape_utils.h (not CANN's header), written from CANN's public opbase reference: ToShapeVector, BroadcastInferShape.
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

/// NumPy's broadcast of two shapes; false where a pair of dims is neither equal nor 1.
inline bool BroadcastInferShape(const Shape& self, const Shape& other, Shape& broadcastShape)
{
    size_t rank = self.GetDimNum() > other.GetDimNum() ? self.GetDimNum() : other.GetDimNum();
    Shape out;
    for (size_t i = 0; i < rank; ++i) {
        size_t back = rank - 1 - i;
        int64_t a = back < self.GetDimNum() ? self.GetDim(self.GetDimNum() - 1 - back) : 1;
        int64_t b = back < other.GetDimNum() ? other.GetDim(other.GetDimNum() - 1 - back) : 1;
        if (a != b && a != 1 && b != 1) {
            return false;
        }
        out.AppendDim(a == 1 ? b : a);
    }
    broadcastShape = out;
    return true;
}
} // namespace op

#endif
