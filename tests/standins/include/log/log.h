// aclgen's stand-in for op_host's log/log.h (not CANN's header), written from CANN's public Ascend C op development reference: OP_LOGE by node name, OP_CHECK_NULL_WITH_CONTEXT.
#ifndef ACLGEN_STANDIN_LOG_LOG_H_
#define ACLGEN_STANDIN_LOG_LOG_H_

#include "aclgen_standin/log.h"
#include "graph/types.h"

/// A null `ptr` fails the graph function `context` runs: logged under its node name.
#define OP_CHECK_NULL_WITH_CONTEXT(context, ptr)                                 \
    do {                                                                         \
        if ((ptr) == nullptr) {                                                  \
            OP_LOGE((context)->GetNodeName(), "%s is nullptr", #ptr);            \
            return ge::GRAPH_FAILED;                                             \
        }                                                                        \
    } while (0)

#endif
