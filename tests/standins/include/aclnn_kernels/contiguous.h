// aclgen's stand-in for aclnn_kernels/contiguous.h (not CANN's header), written from CANN's public aclnn reference: l0op::Contiguous, l0op::ViewCopy.
#ifndef ACLGEN_STANDIN_ACLNN_KERNELS_CONTIGUOUS_H_
#define ACLGEN_STANDIN_ACLNN_KERNELS_CONTIGUOUS_H_

#include "opdev/op_executor.h"

namespace l0op {
/// `x` itself where its view is row-major, else a contiguous tensor of its view shape (a copy's target).
inline const aclTensor* Contiguous(const aclTensor* x, aclOpExecutor* executor)
{
    if (x == nullptr || executor == nullptr) {
        return nullptr;
    }
    const op::Shape& s = x->GetViewShape();
    int64_t want = 1;
    bool rowMajor = x->GetViewStrides().size() == s.GetDimNum();
    for (size_t i = s.GetDimNum(); rowMajor && i > 0; --i) {
        rowMajor = s.GetDim(i - 1) == 1 || x->GetViewStrides()[i - 1] == want;
        want *= s.GetDim(i - 1);
    }
    if (rowMajor) {
        return x;
    }
    executor->AddLaunch("Contiguous");
    return executor->AllocTensor(s, x->GetDataType(), x->GetStorageFormat());
}

/// Copies `x` into the view of `y`: `y` where the shapes agree, else null (CANN's fails too).
inline const aclTensor* ViewCopy(const aclTensor* x, const aclTensor* y, aclOpExecutor* executor)
{
    if (x == nullptr || y == nullptr || executor == nullptr) {
        return nullptr;
    }
    executor->AddLaunch("ViewCopy");
    return y;
}
} // namespace l0op

#endif
