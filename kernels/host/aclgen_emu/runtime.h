// aclgen host emulation: the state of the emulated device (current core, Unified Buffer arena,
// global-memory regions) and the rule violations that stop a run.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace aclgen_emu {

/// Where a checked call was made: captured with GCC/Clang's __builtin_FILE/__builtin_LINE as
/// default arguments, so a violation names the line of the kernel body, not of this header.
struct Site {
    const char* file;
    int line;
    explicit Site(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

/// A broken hardware rule. `rule` is a stable id: ub-capacity, ub-bounds, datacopy-alignment,
/// queue-ownership, gm-bounds, tiling, kernel-trap, no-kernel-body.
struct Violation {
    std::string rule;
    std::string message;
    int64_t core;
    std::string file;
    int line;
};

/// One block of device memory the driver allocated (an input, an output, workspace, tiling).
struct GmRegion {
    const uint8_t* base;
    uint64_t bytes;
    std::string name;
    /// The core that last wrote each byte without atomic add (-1: none yet).
    std::vector<int32_t> writer;
};

struct DeviceState {
    int64_t blockIdx = 0;
    int64_t blockNum = 1;
    uint64_t tilingKey = 0;
    uint64_t tilingBytes = 0;
    // Unified Buffer of the current core: capacity from the product, arena reset per core.
    uint64_t ubCapacity = 192 * 1024;
    uint64_t ubUsed = 0;
    uint64_t ubPeak = 0;
    std::unique_ptr<uint8_t[]> ubArena;
    uint8_t* ubBase = nullptr;
    bool atomicAdd = false;
    std::vector<GmRegion> regions;
};

inline DeviceState& Device() {
    static DeviceState state;
    return state;
}

[[noreturn]] inline void Fail(const std::string& rule, const std::string& message, const Site& site) {
    throw Violation{rule, message, Device().blockIdx, site.file ? site.file : "?", site.line};
}

/// Prepares the Unified Buffer of a core: `capacity` bytes, 32-byte aligned, filled with a
/// pattern so reads of never-written UB show up as garbage rather than zeros.
inline void ResetCore(int64_t blockIdx, int64_t blockNum, uint64_t capacity) {
    DeviceState& d = Device();
    d.blockIdx = blockIdx;
    d.blockNum = blockNum;
    d.ubCapacity = capacity;
    d.ubUsed = 0;
    d.atomicAdd = false;
    if (!d.ubArena) {
        d.ubArena.reset(new uint8_t[capacity + 64 + 1024 * 1024]);
    }
    auto raw = reinterpret_cast<uintptr_t>(d.ubArena.get());
    d.ubBase = reinterpret_cast<uint8_t*>((raw + 31) & ~uintptr_t(31));
    for (uint64_t i = 0; i < capacity; ++i) {
        d.ubBase[i] = 0xA5;
    }
}

/// Reserves `bytes` of UB for a queue or TBuf; the rule is the product's UB capacity.
inline uint8_t* ReserveUb(uint64_t bytes, const char* what, const Site& site) {
    DeviceState& d = Device();
    uint64_t aligned = (bytes + 31) / 32 * 32;
    if (d.ubUsed + aligned > d.ubCapacity) {
        std::ostringstream msg;
        msg << what << " asks for " << aligned << " bytes of Unified Buffer with " << d.ubUsed
            << " already in use; the product has " << d.ubCapacity << " bytes per core";
        Fail("ub-capacity", msg.str(), site);
    }
    uint8_t* p = d.ubBase + d.ubUsed;
    d.ubUsed += aligned;
    if (d.ubUsed > d.ubPeak) {
        d.ubPeak = d.ubUsed;
    }
    return p;
}

inline void RegisterGm(const void* base, uint64_t bytes, const std::string& name) {
    Device().regions.push_back(GmRegion{static_cast<const uint8_t*>(base), bytes, name, {}});
}

/// Records a plain (non-atomic) write of [p, p + bytes) by the current core. Two cores writing
/// one address without atomic add race on hardware (the result depends on timing): stop.
inline void RecordGmWrite(const void* p, uint64_t bytes, const Site& site) {
    DeviceState& d = Device();
    if (d.atomicAdd || bytes == 0) {
        return;
    }
    auto addr = static_cast<const uint8_t*>(p);
    for (GmRegion& r : d.regions) {
        if (addr < r.base || addr >= r.base + r.bytes) {
            continue;
        }
        if (r.writer.empty()) {
            r.writer.assign(r.bytes, -1);
        }
        uint64_t first = static_cast<uint64_t>(addr - r.base);
        for (uint64_t i = first; i < first + bytes && i < r.bytes; ++i) {
            int32_t other = r.writer[i];
            if (other >= 0 && other != d.blockIdx) {
                std::ostringstream msg;
                msg << "byte " << i << " of global tensor '" << r.name << "' was written by core " << other
                    << " too, without atomic add (SetAtomicAdd) the result depends on timing";
                Fail("gm-race", msg.str(), site);
            }
            r.writer[i] = static_cast<int32_t>(d.blockIdx);
        }
        return;
    }
}

/// Checks that [p, p + bytes) lies inside one global-memory allocation; a miss is reported
/// against the nearest allocation below the address.
inline void CheckGm(const void* p, uint64_t bytes, const char* what, const Site& site) {
    if (bytes == 0) {
        return;
    }
    auto addr = static_cast<const uint8_t*>(p);
    const GmRegion* nearest = nullptr;
    for (const GmRegion& r : Device().regions) {
        if (addr >= r.base && addr < r.base + r.bytes && addr + bytes <= r.base + r.bytes) {
            return;
        }
        if (addr >= r.base && (nearest == nullptr || r.base > nearest->base)) {
            nearest = &r;
        }
    }
    std::ostringstream msg;
    if (nearest != nullptr) {
        msg << what << " touches bytes [" << (addr - nearest->base) << ", " << (addr - nearest->base + bytes)
            << ") of global tensor '" << nearest->name << "', which has " << nearest->bytes << " bytes";
    } else {
        msg << what << " touches " << bytes << " bytes at an address below every global tensor";
    }
    Fail("gm-bounds", msg.str(), site);
}

}  // namespace aclgen_emu
