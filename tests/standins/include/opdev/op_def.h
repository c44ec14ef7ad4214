// aclgen's stand-in for opdev/op_def.h (not CANN's header), written from CANN's public opbase reference: OP_TYPE_REGISTER.
#ifndef ACLGEN_STANDIN_OPDEV_OP_DEF_H_
#define ACLGEN_STANDIN_OPDEV_OP_DEF_H_

#include "opdev/common_types.h"

/// Registers l0 op type `name` for ADD_TO_LAUNCHER_LIST_AICORE.
#define OP_TYPE_REGISTER(name) [[maybe_unused]] static const char* const name##AclgenStandinOpType = #name

#endif
