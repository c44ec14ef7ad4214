// aclgen's stand-in for the op_api UT framework's op_api_ut.h (not CANN's header), written from the public conventions of CANN's op_api unit tests: OP_API_UT, INPUT, OUTPUT, TestGetWorkspaceSize.
// OP_API_UT(aclnnX, INPUT(...), OUTPUT(...), extra...) keeps the descs; TestGetWorkspaceSize makes the
// objects they describe, converts each to the type aclnnXGetWorkspaceSize takes at its place (a desc to
// its object, a raw pointer or value as it is) and calls it. The argument count is checked at compile time.
#ifndef ACLGEN_STANDIN_OP_API_UT_H_
#define ACLGEN_STANDIN_OP_API_UT_H_

#include <cstdint>
#include <functional>
#include <vector>
#include <tuple>
#include <type_traits>
#include <utility>

#include "aclnn/aclnn_base.h"
#include "op_api_ut_common/scalar_desc.h"
#include "op_api_ut_common/tensor_desc.h"

#define INPUT(...) std::make_tuple(__VA_ARGS__)
#define OUTPUT(...) std::make_tuple(__VA_ARGS__)

namespace aclgen_standin {
/// The objects one call made, freed after it.
struct Made {
    std::vector<aclTensor*> tensors;
    std::vector<aclTensorList*> tensorLists;
    std::vector<aclIntArray*> ints;
    std::vector<aclFloatArray*> floats;
    std::vector<aclBoolArray*> bools;
    std::vector<aclScalar*> scalars;
    ~Made();
};

template <class P>
P Convert(Made& made, const TensorDesc& d)
{
    made.tensors.push_back(d.Make());
    return made.tensors.back();
}
template <class P>
P Convert(Made& made, const TensorListDesc& d)
{
    made.tensorLists.push_back(d.Make());
    return made.tensorLists.back();
}
template <class P>
P Convert(Made& made, const IntArrayDesc& d)
{
    made.ints.push_back(d.Make());
    return made.ints.back();
}
template <class P>
P Convert(Made& made, const FloatArrayDesc& d)
{
    made.floats.push_back(d.Make());
    return made.floats.back();
}
template <class P>
P Convert(Made& made, const BoolArrayDesc& d)
{
    made.bools.push_back(d.Make());
    return made.bools.back();
}
template <class P>
P Convert(Made& made, const ScalarDesc& d)
{
    made.scalars.push_back(d.Make());
    return made.scalars.back();
}
/// A pointer (nullptr, a raw aclScalar/aclScalarList) or a value (bool, int64_t, aclDataType...).
template <class P, class V,
          std::enable_if_t<std::is_pointer<V>::value || std::is_arithmetic<V>::value || std::is_enum<V>::value ||
                               std::is_null_pointer<V>::value,
                           int> = 0>
P Convert(Made&, const V& v)
{
    if constexpr (std::is_pointer<P>::value && std::is_pointer<V>::value) {
        return const_cast<P>(v);
    } else {
        return static_cast<P>(v);
    }
}

template <class... P>
class OpApiUt {
public:
    using Fn = aclnnStatus (*)(P...);
    template <class Args>
    OpApiUt(Fn fn, const Args& args) : fn_(fn), call_(MakeCall(fn, args, std::make_index_sequence<sizeof...(P) - 2>()))
    {
    }
    /// The first phase's status (the executor is freed).
    aclnnStatus TestGetWorkspaceSize(uint64_t* workspaceSize) const { return call_(workspaceSize); }

private:
    template <class Args, size_t... I>
    static std::function<aclnnStatus(uint64_t*)> MakeCall(Fn fn, const Args& args, std::index_sequence<I...>)
    {
        return [fn, args](uint64_t* workspaceSize) {
            Made made;
            aclOpExecutor* executor = nullptr;
            using Params = std::tuple<P...>;
            aclnnStatus status =
                fn(Convert<std::tuple_element_t<I, Params>>(made, std::get<I>(args))..., workspaceSize, &executor);
            aclDestroyAclOpExecutor(executor);
            return status;
        };
    }
    Fn fn_;
    std::function<aclnnStatus(uint64_t*)> call_;
};

template <class... P, class In, class Out, class... Extra>
OpApiUt<P...> MakeOpApiUt(aclnnStatus (*fn)(P...), const In& in, const Out& out, const Extra&... extra)
{
    auto args = std::tuple_cat(in, out, std::make_tuple(extra...));
    static_assert(sizeof...(P) == std::tuple_size<decltype(args)>::value + 2,
                  "OP_API_UT: INPUT + OUTPUT + extras do not match the aclnn prototype's parameter count");
    return OpApiUt<P...>(fn, args);
}
} // namespace aclgen_standin

#define OP_API_UT(api, ...) ::aclgen_standin::MakeOpApiUt(&api##GetWorkspaceSize, __VA_ARGS__)

#endif
