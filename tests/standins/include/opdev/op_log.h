// aclgen's stand-in for opdev/op_log.h (not CANN's header), written from CANN's public opbase reference: OP_LOGE and kin, OP_CHECK, CHECK_RET.
#ifndef ACLGEN_STANDIN_OPDEV_OP_LOG_H_
#define ACLGEN_STANDIN_OPDEV_OP_LOG_H_

#include "aclgen_standin/log.h"

/// When `cond` fails: `log` (an OP_LOG call), then `expr` (a return).
#define OP_CHECK(cond, log, expr) \
    do {                          \
        if (!(cond)) {            \
            log;                  \
            expr;                 \
        }                         \
    } while (0)

#define CHECK_RET(cond, ret) \
    do {                     \
        if (!(cond)) {       \
            return ret;      \
        }                    \
    } while (0)

#endif
