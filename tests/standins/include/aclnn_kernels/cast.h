// aclgen's stand-in for aclnn_kernels/cast.h (not CANN's header), written from CANN's public aclnn reference: l0op::Cast.
#ifndef ACLGEN_STANDIN_ACLNN_KERNELS_CAST_H_
#define ACLGEN_STANDIN_ACLNN_KERNELS_CAST_H_

#include "opdev/op_executor.h"

namespace l0op {
/// `self` converted to `dstDtype`: `self` where it has that dtype already, else a tensor of its
/// view shape in `dstDtype` (the Cast launch's output).
inline const aclTensor* Cast(const aclTensor* self, op::DataType dstDtype, aclOpExecutor* executor)
{
    if (self == nullptr || executor == nullptr) {
        return nullptr;
    }
    if (self->GetDataType() == dstDtype) {
        return self;
    }
    executor->AddLaunch("Cast");
    return executor->AllocTensor(self->GetViewShape(), dstDtype, self->GetStorageFormat());
}
} // namespace l0op

#endif
