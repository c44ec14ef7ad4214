// aclgen's open AI Core model: what the sim driver calls (plain C types, no CANN header).
#ifndef ACLGEN_MODEL_API_H
#define ACLGEN_MODEL_API_H

#include <cstdint>

extern "C" {

/// One core's outcome, in memory shared by every core process.
struct AclgenCoreReport {
    int32_t status;  // 0 ran, 1 violation, 2 never finished, 3 stopped: another core failed
    char rule[48];
    char message[1024];
    uint64_t frames[48];  // return addresses, innermost first, for file:line
    int32_t frameCount;
    uint64_t ubPeak;  // Unified Buffer bytes the core's buffers reserved (InitBuffer)
};

/// Before forking the cores: shared state for `cores` cores (reports, atomics lock, barriers).
void AclgenModelInit(uint32_t cores);
/// Global memory the kernel may touch (the tensors, workspace and tiling), named for messages.
void AclgenModelRegisterGm(const void* base, uint64_t bytes, const char* name);
/// In the core's process, before the kernel: the core's Unified Buffer and index.
void AclgenModelCoreBegin(uint32_t core, uint8_t* ubBase, uint64_t ubBytes);
/// After the kernel returned on this core: end-of-kernel checks (queues, flags).
void AclgenModelCoreEnd();
AclgenCoreReport* AclgenModelReport(uint32_t core);
/// Stops the core's run with a violation of `rule` (from the driver's signal handlers).
[[noreturn]] void AclgenModelFail(const char* rule, const char* message);
}

#endif
