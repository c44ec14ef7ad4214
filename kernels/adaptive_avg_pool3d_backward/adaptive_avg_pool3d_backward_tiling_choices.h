// Op-specific tiling choices of AdaptiveAvgPool3dBackward (CDHW or NCDHW inputs), filled by gen into the generated
// op_host/adaptive_avg_pool3d_backward_tiling.cpp. Shared with the other adaptive average pooling backward op.
#pragma once

namespace optiling {
#include "../common/adaptive_avg_pool_backward_tiling.inc"

inline bool AdaptiveAvgPool3dBackwardTilingChoices(gert::TilingContext* context, const TilingEnv& env,
                                         AdaptiveAvgPool3dBackwardTilingData& tiling, WorkPlan& plan) {
    return adaptive_avg_pool_backward_choices::Choose(context, env, tiling, plan, 3);
}
}  // namespace optiling
