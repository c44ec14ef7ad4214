// aclgen's own: the header name CANN's tiling API is included by (register/tilingdata_base.h), written for aclgen from
// CANN's public reference; everything is in aclgen_host.h. Nothing of CANN is included or copied.
#pragma once
#include "aclgen_host.h"
