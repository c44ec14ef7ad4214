/* Minimal declarations of CANN's aclnn/aclnn_base.h used to syntax-check aclgen's output; not CANN's header. */
#ifndef ACLGEN_TEST_ACLNN_BASE_H_
#define ACLGEN_TEST_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#endif
