// aclgen's stand-in for aclnn_kernels/common/op_error_check.h (not CANN's header), written from CANN's public aclnn reference: OP_CHECK_NULL, OP_CHECK_COMM_INPUT.
#ifndef ACLGEN_STANDIN_ACLNN_KERNELS_OP_ERROR_CHECK_H_
#define ACLGEN_STANDIN_ACLNN_KERNELS_OP_ERROR_CHECK_H_

#include "aclnn/aclnn_base.h"
#include "opdev/op_log.h"

/// A null `param`: logged, then `retExpr` (a return of the status).
#define OP_CHECK_NULL(param, retExpr)                                                      \
    do {                                                                                   \
        if ((param) == nullptr) {                                                          \
            OP_LOGE(ACLNN_ERR_PARAM_NULLPTR, "check %s != nullptr failed", #param);        \
            retExpr;                                                                       \
        }                                                                                  \
    } while (0)

/// The first phase's own outputs must not be null.
#define OP_CHECK_COMM_INPUT(workspaceSize, executor)        \
    do {                                                    \
        OP_CHECK_NULL(workspaceSize, return ACLNN_ERR_PARAM_NULLPTR); \
        OP_CHECK_NULL(executor, return ACLNN_ERR_PARAM_NULLPTR);      \
    } while (0)

#endif
