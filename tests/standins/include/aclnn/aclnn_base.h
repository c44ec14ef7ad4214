/* aclgen's stand-in for aclnn/aclnn_base.h (not CANN's header), written from CANN's public aclnn reference. */
#ifndef ACLGEN_STANDIN_ACLNN_BASE_H_
#define ACLGEN_STANDIN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#endif
