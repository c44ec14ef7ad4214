// aclgen's own AI Core model: what the sim driver and aclgen's Ascend C runtime call (plain C
// types). Written for aclgen; nothing of CANN is included or copied.
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
    uint64_t cycles;   // the cycle model: when the core's last pipe finished
    uint64_t busy[11]; // cycles each pipe (pipe_t order) worked
    uint64_t gmRead, gmWrite;  // GM bytes the core's DMA read and wrote
    uint64_t touched;  // bit i: the i-th registered global tensor was read or written
};

/// Before forking the cores: shared state for `cores` cores (reports, atomics lock, barriers).
void AclgenModelInit(uint32_t cores);
/// Global memory the kernel may touch (the tensors, workspace and tiling), named for messages.
void AclgenModelRegisterGm(const void* base, uint64_t bytes, const char* name);
/// The cycle model's GM bytes per cycle per core (the SoC's ddr_rate) and, when `tracePath` is
/// not empty, the file each instruction's (pipe, start, cycles, name) is written to.
void AclgenModelSetCosts(uint64_t ddrBytesPerCycle, const char* tracePath);
/// The cycle model's count of a scalar UB/GM access (LocalTensor/GlobalTensor GetValue: 0,
/// SetValue: 1).
void AclgenModelScalarAccess(int store);
/// In the core's process, before the kernel: the core's Unified Buffer and index.
void AclgenModelCoreBegin(uint32_t core, uint8_t* ubBase, uint64_t ubBytes);
/// After the kernel returned on this core: end-of-kernel checks (queues, flags).
void AclgenModelCoreEnd();
AclgenCoreReport* AclgenModelReport(uint32_t core);
/// The core's Unified Buffer (what TPipe::InitBuffer reserves from).
uint8_t* AclgenModelUbBase();
uint64_t AclgenModelUbBytes();
/// Stops the core's run with a violation of `rule` (from the driver's signal handlers).
[[noreturn]] void AclgenModelFail(const char* rule, const char* message);
}

#endif
