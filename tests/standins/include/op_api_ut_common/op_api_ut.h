/* Minimal declarations of CANN's OP_API_UT harness used to syntax-check aclgen's output; not CANN's header.
 * Unlike the real one it checks at compile time that INPUT and OUTPUT together pass as many
 * arguments as the aclnn first-phase prototype takes (plus workspaceSize and executor). */
#ifndef ACLGEN_TEST_OP_API_UT_H_
#define ACLGEN_TEST_OP_API_UT_H_

#include <cstdint>
#include <tuple>
#include "aclnn/aclnn_base.h"

#define INPUT(...) std::make_tuple(__VA_ARGS__)
#define OUTPUT(...) std::make_tuple(__VA_ARGS__)

class OpApiUt {
public:
    aclnnStatus TestGetWorkspaceSize(uint64_t* workspaceSize);
};

template <typename... Args, typename In, typename Out>
OpApiUt MakeOpApiUt(aclnnStatus (*)(Args...), const In&, const Out&)
{
    static_assert(sizeof...(Args) == std::tuple_size<In>::value + std::tuple_size<Out>::value + 2,
                  "OP_API_UT: INPUT + OUTPUT do not match the aclnn prototype's parameter count");
    return OpApiUt();
}

#define OP_API_UT(api, inputs, outputs) MakeOpApiUt(api##GetWorkspaceSize, inputs, outputs)

#endif
