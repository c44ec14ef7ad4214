/* Minimal declarations of CANN's op_api UT scalar descriptor; not CANN's header. */
#ifndef ACLGEN_TEST_SCALAR_DESC_H_
#define ACLGEN_TEST_SCALAR_DESC_H_

class ScalarDesc {
public:
    explicit ScalarDesc(float value);
};

#endif
