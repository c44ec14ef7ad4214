// aclgen's stand-in for opdev/op_dfx.h (not CANN's header), written from CANN's public opbase reference: L2_DFX_PHASE_1/2, L0_DFX, DFX_IN, DFX_OUT.
// CANN records these for profiling; here they only evaluate their arguments (so they type-check).
#ifndef ACLGEN_STANDIN_OPDEV_OP_DFX_H_
#define ACLGEN_STANDIN_OPDEV_OP_DFX_H_

namespace aclgen_standin {
template <class... A>
inline void Dfx(const char*, const A&...)
{
}
struct DfxArgs {};
template <class... A>
inline DfxArgs DfxCollect(const A&...)
{
    return DfxArgs{};
}
} // namespace aclgen_standin

#define DFX_IN(...) ::aclgen_standin::DfxCollect(__VA_ARGS__)
#define DFX_OUT(...) ::aclgen_standin::DfxCollect(__VA_ARGS__)
#define L2_DFX_PHASE_1(api, in, out) ::aclgen_standin::Dfx(#api, in, out)
#define L2_DFX_PHASE_2(api) ::aclgen_standin::Dfx(#api)
#define L0_DFX(op, ...) ::aclgen_standin::Dfx(#op, ##__VA_ARGS__)

#endif
