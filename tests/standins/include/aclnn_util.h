/* aclgen's stand-in for aclnn_util.h (not CANN's header), written from CANN's public aclnn reference: ACLNN_API. */
#ifndef ACLGEN_TEST_ACLNN_UTIL_H_
#define ACLGEN_TEST_ACLNN_UTIL_H_

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

#endif
