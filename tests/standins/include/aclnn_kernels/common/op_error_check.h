// aclgen's stand-in for aclnn_kernels/common/op_error_check.h (not CANN's header), written from opbase's public reference: OP_CHECK_NULL, OP_CHECK_COMM_INPUT, OP_CHECK_DTYPE_NOT_SUPPORT/MATCH/SAME, OP_CHECK_SHAPE_NOT_EQUAL(_WITH_EXPECTED_SIZE), OP_CHECK_MAX_DIM, OP_CHECK_MIN_DIM, OP_CHECK_WRONG_DIMENSION, OP_CHECK_BROADCAST(_AND_INFER_SHAPE), CheckType.
// Each macro checks one tensor property, logs what broke it (ACLNN_ERR_PARAM_INVALID) and runs `retExpr`
// (a return of the caller's status); a tensor it is given is not null (CANN checks that first).
#ifndef ACLGEN_STANDIN_ACLNN_KERNELS_OP_ERROR_CHECK_H_
#define ACLGEN_STANDIN_ACLNN_KERNELS_OP_ERROR_CHECK_H_

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "opdev/common_types.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

namespace op {
/// `dtype` is one of `supportList`.
inline bool CheckType(DataType dtype, std::initializer_list<DataType> supportList)
{
    return std::find(supportList.begin(), supportList.end(), dtype) != supportList.end();
}
inline bool CheckType(DataType dtype, const std::vector<DataType>& supportList)
{
    return std::find(supportList.begin(), supportList.end(), dtype) != supportList.end();
}
} // namespace op

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

/// The tensor's dtype is in `supportList`.
#define OP_CHECK_DTYPE_NOT_SUPPORT(tensor, supportList, retExpr)                                     \
    do {                                                                                             \
        if (!op::CheckType((tensor)->GetDataType(), supportList)) {                                  \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s dtype is not in its dtype support list.", #tensor); \
            retExpr;                                                                                 \
        }                                                                                            \
    } while (0)

/// The tensor's dtype is `expectedDtype`.
#define OP_CHECK_DTYPE_NOT_MATCH(tensor, expectedDtype, retExpr)                              \
    do {                                                                                      \
        if ((tensor)->GetDataType() != (expectedDtype)) {                                     \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s dtype is not the expected dtype.", #tensor); \
            retExpr;                                                                          \
        }                                                                                     \
    } while (0)

/// The two tensors have one dtype.
#define OP_CHECK_DTYPE_NOT_SAME(tensor1, tensor2, retExpr)                                                \
    do {                                                                                                  \
        if ((tensor1)->GetDataType() != (tensor2)->GetDataType()) {                                       \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s dtype and %s dtype are not the same.", #tensor1, #tensor2); \
            retExpr;                                                                                      \
        }                                                                                                 \
    } while (0)

/// The two tensors have one view shape.
#define OP_CHECK_SHAPE_NOT_EQUAL(tensor1, tensor2, retExpr)                                               \
    do {                                                                                                  \
        if ((tensor1)->GetViewShape() != (tensor2)->GetViewShape()) {                                     \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s shape and %s shape are not equal.", #tensor1, #tensor2); \
            retExpr;                                                                                      \
        }                                                                                                 \
    } while (0)

/// The tensor's view shape is `expectedShape` (an op::Shape).
#define OP_CHECK_SHAPE_NOT_EQUAL_WITH_EXPECTED_SIZE(tensor, expectedShape, retExpr)            \
    do {                                                                                     \
        if ((tensor)->GetViewShape() != (expectedShape)) {                                   \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s shape is not the expected shape.", #tensor); \
            retExpr;                                                                         \
        }                                                                                    \
    } while (0)

/// The tensor has at most `maxDim` dims.
#define OP_CHECK_MAX_DIM(tensor, maxDim, retExpr)                                                \
    do {                                                                                         \
        if ((tensor)->GetViewShape().GetDimNum() > static_cast<size_t>(maxDim)) {                \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has more dims than %s.", #tensor, #maxDim);     \
            retExpr;                                                                             \
        }                                                                                        \
    } while (0)

/// The tensor has at least `minDim` dims.
#define OP_CHECK_MIN_DIM(tensor, minDim, retExpr)                                                \
    do {                                                                                         \
        if ((tensor)->GetViewShape().GetDimNum() < static_cast<size_t>(minDim)) {                \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s has fewer dims than %s.", #tensor, #minDim);    \
            retExpr;                                                                             \
        }                                                                                        \
    } while (0)

/// The tensor has exactly `dim` dims.
#define OP_CHECK_WRONG_DIMENSION(tensor, dim, retExpr)                                           \
    do {                                                                                         \
        if ((tensor)->GetViewShape().GetDimNum() != static_cast<size_t>(dim)) {                  \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s does not have %s dims.", #tensor, #dim);        \
            retExpr;                                                                             \
        }                                                                                        \
    } while (0)

/// The two tensors' view shapes broadcast (NumPy's rule).
#define OP_CHECK_BROADCAST(tensor1, tensor2, retExpr)                                                   \
    do {                                                                                                \
        op::Shape aclgenStandinBroadcast;                                                               \
        if (!op::BroadcastInferShape((tensor1)->GetViewShape(), (tensor2)->GetViewShape(),              \
                                     aclgenStandinBroadcast)) {                                          \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s shape and %s shape do not broadcast.", #tensor1, #tensor2); \
            retExpr;                                                                                    \
        }                                                                                               \
    } while (0)

/// The two tensors' view shapes broadcast to `broadcastShape` (an op::Shape it sets).
#define OP_CHECK_BROADCAST_AND_INFER_SHAPE(tensor1, tensor2, broadcastShape, retExpr)                  \
    do {                                                                                                \
        if (!op::BroadcastInferShape((tensor1)->GetViewShape(), (tensor2)->GetViewShape(),              \
                                     broadcastShape)) {                                                  \
            OP_LOGE(ACLNN_ERR_PARAM_INVALID, "%s shape and %s shape do not broadcast.", #tensor1, #tensor2); \
            retExpr;                                                                                    \
        }                                                                                               \
    } while (0)

#endif
