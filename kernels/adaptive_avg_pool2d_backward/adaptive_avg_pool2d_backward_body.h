// Hand-written body of AdaptiveAvgPool2dBackward (CHW or NCHW), filled by gen into the generated kernel class
// (op_kernel/adaptive_avg_pool2d_backward.cpp); see kernels/README.md for the contract.
#include "../common/adaptive_avg_pool_backward_body.inc"
