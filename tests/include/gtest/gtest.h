/* Minimal declarations of googletest used to syntax-check aclgen's generated unit tests; not googletest. */
#ifndef ACLGEN_TEST_GTEST_H_
#define ACLGEN_TEST_GTEST_H_

#include <iostream>

namespace testing {
class Test {
public:
    virtual ~Test() = default;
    virtual void TestBody() = 0;
};
}  // namespace testing

#define TEST_F(fixture, name)                          \
    class fixture##_##name##_Test : public fixture {   \
    public:                                            \
        void TestBody() override;                      \
    };                                                 \
    void fixture##_##name##_Test::TestBody()

#define EXPECT_EQ(a, b)                                \
    do {                                               \
        if (!((a) == (b))) {                           \
            std::cerr << "EXPECT_EQ failed" << std::endl; \
        }                                              \
    } while (0)

#endif
