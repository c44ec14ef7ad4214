/* Minimal declarations of CANN's aclnn_util.h used to syntax-check aclgen's output; not CANN's header. */
#ifndef ACLGEN_TEST_ACLNN_UTIL_H_
#define ACLGEN_TEST_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif
