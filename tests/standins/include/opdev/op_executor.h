// aclgen's stand-in for opdev/op_executor.h (not CANN's header), written from CANN's public opbase reference: aclOpExecutor (AllocTensor, GetWorkspaceSize), UniqueExecutor, CommonOpExecutorRun.
// The executor owns what it allocates and records the l0 launches added to it (opdev/make_op_executor.h);
// nothing runs on a device.
#ifndef ACLGEN_STANDIN_OPDEV_OP_EXECUTOR_H_
#define ACLGEN_STANDIN_OPDEV_OP_EXECUTOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "opdev/common_types.h"

struct aclOpExecutor {
public:
    /// A contiguous tensor of `shape` with no data: an l0 op's output.
    aclTensor* AllocTensor(const op::Shape& shape, op::DataType dtype, op::Format format = op::Format::FORMAT_ND)
    {
        return AllocTensor(shape, shape, dtype, format, format);
    }
    aclTensor* AllocTensor(const op::Shape& storage, const op::Shape& origin, op::DataType dtype,
                           op::Format storageFormat, op::Format)
    {
        op::Strides strides(origin.GetDimNum(), 1);
        for (size_t i = origin.GetDimNum(); i > 1; --i) {
            strides[i - 2] = strides[i - 1] * origin.GetDim(i - 1);
        }
        tensors_.push_back(std::make_unique<aclTensor>(origin, strides, 0, dtype, storageFormat, storage, nullptr));
        return tensors_.back().get();
    }
    uint64_t GetWorkspaceSize() const { return 0; }
    /// The l0 ops launched, by type, in order (what a test may look at).
    const std::vector<std::string>& Launches() const { return launches_; }
    void AddLaunch(const char* opType) { launches_.emplace_back(opType); }

private:
    std::vector<std::unique_ptr<aclTensor>> tensors_;
    std::vector<std::string> launches_;
};

namespace op {
/// The executor of one first-phase call: released to the caller on success, else freed.
class UniqueExecutor {
public:
    UniqueExecutor() : executor_(new aclOpExecutor()) {}
    aclOpExecutor* get() const { return executor_.get(); }
    aclOpExecutor* operator->() const { return executor_.get(); }
    void ReleaseTo(aclOpExecutor** out) { *out = executor_.release(); }

private:
    std::unique_ptr<aclOpExecutor> executor_;
};
} // namespace op

/// The second phase: nothing to run here; the executor is spent.
inline aclnnStatus CommonOpExecutorRun(void*, uint64_t, aclOpExecutor* executor, aclrtStream)
{
    delete executor;
    return ACLNN_SUCCESS;
}

#endif
