// aclgen host emulation: CANN's op implementation registry (IMPL_OP_OPTILING) and TilingContext.
#pragma once
#include "../aclgen_emu/tiling_context.h"
