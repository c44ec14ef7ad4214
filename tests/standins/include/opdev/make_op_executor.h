// aclgen's stand-in for opdev/make_op_executor.h (not CANN's header), written from CANN's public opbase reference: CREATE_EXECUTOR, ADD_TO_LAUNCHER_LIST_AICORE, OP_INPUT, OP_OUTPUT, OP_ATTR.
#ifndef ACLGEN_STANDIN_OPDEV_MAKE_OP_EXECUTOR_H_
#define ACLGEN_STANDIN_OPDEV_MAKE_OP_EXECUTOR_H_

#include <cstddef>

#include "opdev/op_def.h"
#include "opdev/op_executor.h"

#define CREATE_EXECUTOR() ::op::UniqueExecutor()

namespace aclgen_standin {
/// The arguments of one OP_INPUT/OP_OUTPUT/OP_ATTR: any values, counted (their types are checked by
/// the compiler at the call; nothing else is kept).
struct OpArgs {
    size_t count;
};
template <class... A>
OpArgs Collect(const A&...)
{
    return OpArgs{sizeof...(A)};
}
inline aclnnStatus AddToLauncher(aclOpExecutor* executor, const char* opType)
{
    if (executor == nullptr) {
        return ACLNN_ERR_INNER_NULLPTR;
    }
    executor->AddLaunch(opType);
    return ACLNN_SUCCESS;
}
template <class... P>
aclnnStatus AddToLauncher(aclOpExecutor* executor, const char* opType, const OpArgs&, const P&... rest)
{
    return AddToLauncher(executor, opType, rest...);
}
} // namespace aclgen_standin

#define OP_INPUT(...) ::aclgen_standin::Collect(__VA_ARGS__)
#define OP_OUTPUT(...) ::aclgen_standin::Collect(__VA_ARGS__)
#define OP_ATTR(...) ::aclgen_standin::Collect(__VA_ARGS__)
/// Adds the AI Core launch of l0 op `name` (registered by OP_TYPE_REGISTER) to the local `executor`.
#define ADD_TO_LAUNCHER_LIST_AICORE(name, ...) \
    ::aclgen_standin::AddToLauncher(executor, name##AclgenStandinOpType, __VA_ARGS__)

#endif
