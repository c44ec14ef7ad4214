// aclgen's own AI Core model for the CPU (Atlas A2 vector core, arch 2201): the intrinsics aclgen's
// Ascend C runtime (sim/runtime) lowers every API call to, executed on the host, with a pipe model
// that reports hazards. Written for aclgen from CANN's public Ascend C API reference (DataCopy/
// DataCopyPad, Duplicate, Cast, Compare/Select, the vector instructions' repeat/block strides and
// mask modes, SetFlag/WaitFlag, PipeBarrier); nothing of CANN is included or copied.
//
// Pipe model. Every instruction is issued on its pipe (MTE2: GM->UB, MTE3: UB->GM, V: vector and
// UB->UB, S: scalar) and numbered per pipe. Each pipe P keeps known[P][Q]: how many of Q's
// instructions P is ordered after. set_flag(P, Q, e) records P's view, wait_flag(P, Q, e) merges
// it into Q's; pipe_barrier(PIPE_ALL) orders every pipe after everything issued. A shadow of the
// Unified Buffer and of every GM tensor keeps, per byte, the last writer (pipe, number) and the
// last reader of each pipe. An access on pipe P to a byte whose last write (or, for a write, last
// read) on another pipe Q is not in known[P][Q] is a hazard: on the hardware the pipes run
// concurrently and nothing orders the two.
//
// Scalar accesses. LocalTensor::GetValue/SetValue are plain pointer accesses (as on the device:
// the scalar unit reads UB directly) that the model never sees called. The model protects
// (mprotect) the UB pages holding a byte the scalar pipe is not yet ordered after: PROT_NONE for
// a pending write of another pipe, read-only for a pending read. A scalar access there faults;
// the handler checks the exact byte against the shadow: a hazard is reported (file:line from the
// faulting instruction), otherwise the page is opened, the access single-stepped (x86 trap flag)
// and the page closed again. This sees every scalar access, the kernel's own raw pointer reads
// included, with no instrumentation of the compile. Scalar accesses to pages with nothing pending
// are not recorded, so a scalar write read later by another pipe without S->X ordering is not
// reported (documented limit).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <execinfo.h>
#include <sched.h>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <vector>

#include "aclgen_model.h"
#include "stub_fun.h"

namespace {

constexpr int kPipes = 11;
constexpr int kEvents = 8;
constexpr uint64_t kBlock = 32;
constexpr uint64_t kRepeatBytes = 256;

const char* PipeName(int p) {
    static const char* names[kPipes] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX"};
    return p >= 0 && p < kPipes ? names[p] : "?";
}

// ---- shared between core processes ----
struct Shared {
    std::atomic<int32_t> atomicLock;
    std::atomic<uint32_t> barrierCount;
    std::atomic<uint32_t> barrierGeneration;
    std::atomic<uint32_t> flagArrivals[16];
    std::atomic<int32_t> failed;  // a core broke a rule: cores waiting for it in SyncAll stop
    uint32_t cores;
    AclgenCoreReport reports[1];
};
Shared* g_shared = nullptr;

// ---- shadow memory ----
/// Reader slots: S, V, MTE2, MTE3 each their own, the other pipes (cube, fixpipe) share one.
constexpr int kReadSlots = 5;
int ReadSlot(int pipe) {
    switch (pipe) {
        case PIPE_S: return 0;
        case PIPE_V: return 1;
        case PIPE_MTE2: return 2;
        case PIPE_MTE3: return 3;
        default: return 4;
    }
}
const int kSlotPipe[kReadSlots] = {PIPE_S, PIPE_V, PIPE_MTE2, PIPE_MTE3, PIPE_M};

struct ByteState {
    uint32_t writeSeq;
    uint32_t readSeq[kReadSlots];
    uint8_t writer;  // pipe + 1, 0 = none
};

struct Region {
    uint8_t* base;
    uint64_t bytes;
    std::string name;
    bool ub;
    ByteState* shadow;  // calloc'd lazily
};

struct Buffer {  // a TQue/TBuf buffer of the Unified Buffer, from the debug hooks
    uint64_t addr, len;
    int state;  // 0 free, 1 allocated, 2 enqueued, 3 TBuf
};

struct Core {
    uint32_t index = 0;
    uint32_t issued[kPipes] = {};
    uint32_t known[kPipes][kPipes] = {};
    std::vector<std::vector<uint32_t>> flags[kPipes][kPipes][kEvents];
    uint64_t maskHigh = ~0ull, maskLow = ~0ull;
    bool counterMode = false;
    uint64_t padValue = 0;
    int atomic = ATOMIC_NONE;
    bool atomicMax = false, atomicMin = false;
    std::vector<Buffer> buffers;
    uint64_t ubPeak = 0;
    bool active = false;
} g_core;

std::vector<Region> g_regions;
Region* g_ub = nullptr;
uint64_t g_pageSize = 4096;
std::vector<int> g_pageProt;  // current protection of each UB page
const char* g_currentIntrinsic = "";

// ---- reporting ----
[[noreturn]] void Fail(const char* rule, const char* fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (g_shared != nullptr && g_core.active) {
        AclgenCoreReport& r = g_shared->reports[g_core.index];
        r.status = 1;
        snprintf(r.rule, sizeof(r.rule), "%s", rule);
        snprintf(r.message, sizeof(r.message), "%s", msg);
        void* frames[48];
        int n = backtrace(frames, 48);
        for (int i = 0; i < n; ++i) r.frames[i] = reinterpret_cast<uint64_t>(frames[i]);
        r.frameCount = n;
        g_shared->failed.store(1);
        fflush(stdout);
        _exit(3);
    }
    fprintf(stderr, "aclgen model: rule '%s': %s\n", rule, msg);
    _exit(3);
}

// ---- UB page protection for the scalar pipe ----
void SetPageProt(size_t page, int prot) {
    if (g_pageProt[page] == prot) return;
    uint8_t* first = reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(g_ub->base) & ~(g_pageSize - 1));
    if (mprotect(first + page * g_pageSize, g_pageSize, prot) != 0) {
        Fail("model", "mprotect of a Unified Buffer page failed: %s", strerror(errno));
    }
    g_pageProt[page] = prot;
}

size_t PageCount() { return g_pageProt.size(); }

uint8_t* PageStart(size_t page) {
    return reinterpret_cast<uint8_t*>(reinterpret_cast<uintptr_t>(g_ub->base) & ~(g_pageSize - 1)) +
           page * g_pageSize;
}

void OpenAllPages() {
    for (size_t p = 0; p < PageCount(); ++p) SetPageProt(p, PROT_READ | PROT_WRITE);
}

/// Per UB page, the newest write of each pipe and read of each reader slot: what WantedProt
/// decides by, so it costs a few compares instead of a scan of the page's shadow after every
/// instruction. A byte rewritten later by another pipe keeps the page's older entry: the page may
/// be protected when nothing on it is pending, never the reverse; the fault handler checks the
/// exact byte, so that only costs a single step.
struct PageSummary {
    uint32_t write[kPipes];
    uint32_t read[kReadSlots];
};
std::vector<PageSummary> g_pageSummary;

/// The protection the scalar pipe's pending hazards ask for on one page.
int WantedProt(size_t page) {
    if (g_ub == nullptr || g_ub->shadow == nullptr || page >= g_pageSummary.size()) return PROT_READ | PROT_WRITE;
    const PageSummary& ps = g_pageSummary[page];
    const uint32_t* known = g_core.known[PIPE_S];
    for (int w = 0; w < kPipes; ++w) {
        if (w != PIPE_S && ps.write[w] > known[w]) return PROT_NONE;
    }
    for (int q = 1; q < kReadSlots; ++q) {
        if (ps.read[q] > known[kSlotPipe[q]]) return PROT_READ;
    }
    return PROT_READ | PROT_WRITE;
}

void ProtectPending() {
    if (g_ub == nullptr || !g_core.active) return;
    for (size_t p = 0; p < PageCount(); ++p) SetPageProt(p, WantedProt(p));
}

Region* Find(const void* addr) {
    auto a = static_cast<const uint8_t*>(addr);
    for (Region& r : g_regions) {
        if (a >= r.base && a < r.base + r.bytes) return &r;
    }
    return nullptr;
}

ByteState* Shadow(Region& r) {
    if (r.shadow == nullptr) {
        r.shadow = static_cast<ByteState*>(calloc(r.bytes, sizeof(ByteState)));
        if (r.shadow == nullptr) Fail("model", "out of memory for the shadow of %s", r.name.c_str());
    }
    return r.shadow;
}

const char* KindName(bool write) { return write ? "writes" : "reads"; }

/// One access of `bytes` bytes at `addr` by `pipe`: bounds, then hazards, then the shadow.
void Access(int pipe, const void* addr, uint64_t bytes, bool write, bool wantUb) {
    if (bytes == 0) return;
    auto a = static_cast<const uint8_t*>(addr);
    Region* r = Find(a);
    if (r == nullptr || a + bytes > r->base + r->bytes) {
        if (wantUb) {
            if (r != nullptr) {
                Fail("ub-bounds", "%s %s Unified Buffer bytes [%llu, %llu), past its end (%llu bytes)",
                     g_currentIntrinsic, KindName(write), (unsigned long long)(a - r->base),
                     (unsigned long long)(a - r->base + bytes), (unsigned long long)r->bytes);
            }
            Fail("ub-bounds", "%s %s %llu bytes at %p, outside the Unified Buffer", g_currentIntrinsic,
                 KindName(write), (unsigned long long)bytes, addr);
        }
        if (r == nullptr) {
            // Past the end of a tensor: name the nearest one below the address.
            for (Region& g : g_regions) {
                if (!g.ub && g.base <= a && (r == nullptr || g.base > r->base)) r = &g;
            }
            if (r != nullptr && static_cast<uint64_t>(a - r->base) > r->bytes + (1u << 20)) r = nullptr;
        }
        if (r != nullptr) {
            Fail("gm-bounds", "%s %s bytes [%llu, %llu) of global tensor '%s', which has %llu bytes",
                 g_currentIntrinsic, KindName(write), (unsigned long long)(a - r->base),
                 (unsigned long long)(a - r->base + bytes), r->name.c_str(), (unsigned long long)r->bytes);
        }
        Fail("gm-bounds", "%s %s %llu bytes at %p, in no global tensor", g_currentIntrinsic, KindName(write),
             (unsigned long long)bytes, addr);
    }
    if (r->ub != wantUb) {
        Fail(wantUb ? "ub-bounds" : "gm-bounds", "%s expects %s memory but got %s", g_currentIntrinsic,
             wantUb ? "Unified Buffer" : "global", r->name.c_str());
    }
    if (r->ub && pipe != PIPE_S) {
        // The operand must stay inside one buffer of the queues/TBufs.
        uint64_t lo = reinterpret_cast<uint64_t>(a), hi = lo + bytes;
        const Buffer* owner = nullptr;
        for (const Buffer& b : g_core.buffers) {
            if (lo >= b.addr && lo < b.addr + b.len) owner = &b;
        }
        if (owner != nullptr && hi > owner->addr + owner->len) {
            Fail("ub-overrun",
                 "%s %s UB bytes [%llu, %llu), past the end of its buffer [%llu, %llu)", g_currentIntrinsic,
                 KindName(write), (unsigned long long)(lo - (uint64_t)r->base),
                 (unsigned long long)(hi - (uint64_t)r->base), (unsigned long long)(owner->addr - (uint64_t)r->base),
                 (unsigned long long)(owner->addr + owner->len - (uint64_t)r->base));
        }
    }
    ByteState* sh = Shadow(*r);
    const uint32_t* known = g_core.known[pipe];
    uint32_t seq = g_core.issued[pipe];
    uintptr_t firstPage = r->ub ? reinterpret_cast<uintptr_t>(r->base) & ~(g_pageSize - 1) : 0;
    for (uint64_t i = 0; i < bytes; ++i) {
        ByteState& s = sh[a - r->base + i];
        PageSummary* ps = nullptr;
        if (r->ub) {
            size_t page = (reinterpret_cast<uintptr_t>(a + i) - firstPage) / g_pageSize;
            if (page < g_pageSummary.size()) ps = &g_pageSummary[page];
        }
        int w = s.writer - 1;
        if (s.writer != 0 && w != pipe && s.writeSeq > known[w]) {
            Fail("pipe-hazard",
                 "%s on pipe %s %s %s byte %llu, last written on pipe %s with no set_flag/wait_flag or barrier "
                 "ordering the two (%s after %s)",
                 g_currentIntrinsic, PipeName(pipe), KindName(write), r->ub ? "Unified Buffer" : r->name.c_str(),
                 (unsigned long long)(a - r->base + i), PipeName(w), PipeName(pipe), PipeName(w));
        }
        if (write) {
            for (int q = 0; q < kReadSlots; ++q) {
                int qp = kSlotPipe[q];
                if (q != ReadSlot(pipe) && s.readSeq[q] > known[qp]) {
                    Fail("pipe-hazard",
                         "%s on pipe %s writes %s byte %llu, last read on pipe %s with no set_flag/wait_flag or "
                         "barrier ordering the two (write after read)",
                         g_currentIntrinsic, PipeName(pipe), r->ub ? "Unified Buffer" : r->name.c_str(),
                         (unsigned long long)(a - r->base + i), PipeName(qp));
                }
            }
            s.writer = static_cast<uint8_t>(pipe + 1);
            s.writeSeq = seq;
            if (ps != nullptr) ps->write[pipe] = std::max(ps->write[pipe], seq);
        } else {
            s.readSeq[ReadSlot(pipe)] = seq;
            if (ps != nullptr) ps->read[ReadSlot(pipe)] = std::max(ps->read[ReadSlot(pipe)], seq);
        }
    }
}

/// Starts an instruction on a pipe: numbers it and opens UB for the model's own accesses.
// ---- the cycle model ----
// Per core, a timeline per pipe: an instruction starts when its pipe is free and every flag or
// barrier it waits for has fired, and keeps the pipe busy for its cost. Costs are the public
// figures of ../shared/cann-data/README.md (CANN's open cost model of the A2/A3 AI Core,
// hicann/pypto framework/src/cost_model/simulation_ca/A2A3), each cited where used; the GM
// bandwidth per core is the SoC's ddr_rate (aclgen's SoC table), as in the roofline.
struct Timeline {
    uint64_t free[kPipes] = {};   // the cycle each pipe finishes its last instruction
    uint64_t ready[kPipes] = {};  // the cycle the flags and barriers a pipe waited for fired
    uint64_t busy[kPipes] = {};   // cycles each pipe worked
    uint64_t gmRead = 0, gmWrite = 0;
};
Timeline g_time;
uint64_t g_ddrRate = 0;  // GM bytes per cycle per core (0: no cycle model)
uint64_t g_work = 0;     // bytes of the instruction being issued (DMA: burst-rounded; vector: element bytes)
uint32_t g_workElem = 0; // the widest element of the vector instruction being issued
FILE* g_trace = nullptr;

/// Cycles of one instruction of `bytes` on `pipe`, by the public figures.
uint64_t CostOf(const char* name, int pipe, uint64_t bytes) {
    auto ceilDiv = [](uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; };
    auto is = [&](const char* prefix) { return strncmp(name, prefix, strlen(prefix)) == 0; };
    if (pipe == PIPE_MTE2) return 350 + ceilDiv(bytes, g_ddrRate);  // GM read: ~350 cycles latency
    if (pipe == PIPE_MTE3) return 200 + ceilDiv(bytes, g_ddrRate);  // GM write: ~200 cycles latency
    // Vector: latency 15 + the op's delay, plus its bytes at the op's throughput.
    if (is("vdiv") || is("vexp") || is("vln") || is("vsqrt") || is("vrec")) {
        // 128 B/cycle for fp32 vdiv/vexp/vln/vsqrt, 64 B/cycle for fp16 vdiv/vexp; delay vdiv 13,
        // vexp 12 (vln, vsqrt, vrec taken as vexp).
        uint64_t delay = is("vdiv") ? 13 : 12;
        return 15 + delay + ceilDiv(bytes, g_workElem == 2 ? 64 : 128);
    }
    if (is("copy_ubuf_to_ubuf")) return 15 + 4 + ceilDiv(bytes, 128);  // vcopy: 128 B/cycle
    // vgather: the figures list none; taken as vcopy/vbrcb (data movement on the vector unit,
    // 128 B/cycle), its bytes counted at the 4-byte offsets (the widest operand).
    if (is("vgather")) return 15 + 4 + ceilDiv(bytes, 128);
    if (is("vbrcb")) return 15 + 4 + ceilDiv(bytes, 128);  // vbrcb: 128 B/cycle (delay taken as vcopy's)
    // vadd/vsub/vmul/vmuls/vadds/vmax/vsel/vconv: 256 B/cycle; delay vadd 6, vmul 7, vmax/vconv 4.
    uint64_t delay = (is("vmul") || is("vmuls")) ? 7 : (is("vadd") || is("vsub")) ? 6 : 4;
    return 15 + delay + ceilDiv(bytes, 256);
}

/// Instructions are issued in program order by the scalar unit, one per cycle: an instruction
/// starts no earlier than its issue, and scalar work before it delays it.
uint64_t IssueSlot() {
    uint64_t at = std::max(g_time.free[PIPE_S], g_time.ready[PIPE_S]);
    g_time.free[PIPE_S] = at + 1;
    g_time.busy[PIPE_S] += 1;
    return at;
}

void Charge(const char* name, int pipe, uint64_t bytes) {
    if (g_ddrRate == 0) return;
    uint64_t issued = IssueSlot();
    uint64_t start = std::max({g_time.free[pipe], g_time.ready[pipe], issued});
    uint64_t cycles = CostOf(name, pipe, bytes);
    g_time.free[pipe] = start + cycles;
    g_time.busy[pipe] += cycles;
    if (g_trace != nullptr) {
        fprintf(g_trace, "%d %llu %llu %s\n", pipe, (unsigned long long)start, (unsigned long long)cycles, name);
    }
}

/// A flag fires when its pipe has finished what it issued before the set_flag.
uint64_t FlagTime(int pipe) { return g_time.free[pipe]; }

struct Issue {
    Issue(const char* name, int pipe) : name_(name), pipe_(pipe) {
        g_currentIntrinsic = name;
        g_work = 0;
        if (g_core.active) {
            g_core.issued[pipe] += 1;
            if (g_ub != nullptr) OpenAllPages();
        }
    }
    ~Issue() {
        if (g_core.active) Charge(name_, pipe_, g_work);
        ProtectPending();
    }
    const char* name_;
    int pipe_;
};

void CheckUbAligned(const void* p, const char* what) {
    if (g_ub == nullptr) return;
    auto a = static_cast<const uint8_t*>(p);
    if (a >= g_ub->base && a < g_ub->base + g_ub->bytes && (a - g_ub->base) % kBlock != 0) {
        Fail("dma-alignment", "%s: the %s address is Unified Buffer byte %llu, not on a 32-byte block",
             g_currentIntrinsic, what, (unsigned long long)(a - g_ub->base));
    }
}

// ---- the fault handler for scalar accesses ----
size_t g_steppedPage = SIZE_MAX;
struct sigaction g_oldSegv, g_oldTrap;

void OnSegv(int sig, siginfo_t* info, void* ctx) {
    auto* uc = static_cast<ucontext_t*>(ctx);
    auto a = static_cast<uint8_t*>(info->si_addr);
    size_t pages = PageCount();
    uint8_t* first = pages ? PageStart(0) : nullptr;
    if (g_ub == nullptr || pages == 0 || a < first || a >= first + pages * g_pageSize) {
        sigaction(SIGSEGV, &g_oldSegv, nullptr);
        if (g_core.active) Fail("crash", "segmentation fault at %p (outside the Unified Buffer)", info->si_addr);
        return;
    }
    bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    if (a >= g_ub->base && a < g_ub->base + g_ub->bytes && g_ub->shadow != nullptr) {
        const ByteState& s = g_ub->shadow[a - g_ub->base];
        const uint32_t* known = g_core.known[PIPE_S];
        int w = s.writer - 1;
        bool hazard = s.writer != 0 && w != PIPE_S && s.writeSeq > known[w];
        int readPipe = -1;
        if (write) {
            for (int q = 1; q < kReadSlots && readPipe < 0; ++q) {
                if (s.readSeq[q] > known[kSlotPipe[q]]) readPipe = kSlotPipe[q];
            }
        }
        if (hazard || readPipe >= 0) {
            AclgenCoreReport& r = g_shared->reports[g_core.index];
            r.frames[0] = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]) + 1;
            void* frames[47];
            int n = backtrace(frames, 47);
            for (int i = 0; i < n; ++i) r.frames[i + 1] = reinterpret_cast<uint64_t>(frames[i]);
            r.frameCount = n + 1;
            r.status = 1;
            g_shared->failed.store(1);
            snprintf(r.rule, sizeof(r.rule), "pipe-hazard");
            if (hazard) {
                snprintf(r.message, sizeof(r.message),
                         "scalar %s (GetValue/SetValue) on pipe S of Unified Buffer byte %llu, last written on pipe "
                         "%s with no set_flag/wait_flag or barrier ordering the two (S after %s)",
                         write ? "write" : "read", (unsigned long long)(a - g_ub->base), PipeName(w), PipeName(w));
            } else {
                snprintf(r.message, sizeof(r.message),
                         "scalar write (SetValue) on pipe S of Unified Buffer byte %llu, last read on pipe %s with "
                         "no set_flag/wait_flag or barrier ordering the two (write after read)",
                         (unsigned long long)(a - g_ub->base), PipeName(readPipe));
            }
            _exit(3);
        }
    }
    // Not a hazard: let this one access through, then close the page again.
    size_t page = static_cast<size_t>(a - first) / g_pageSize;
    SetPageProt(page, PROT_READ | PROT_WRITE);
    g_steppedPage = page;
    uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
    (void)sig;
}

void OnTrap(int sig, siginfo_t* info, void* ctx) {
    auto* uc = static_cast<ucontext_t*>(ctx);
    if (g_steppedPage == SIZE_MAX) {
        sigaction(SIGTRAP, &g_oldTrap, nullptr);
        (void)sig;
        (void)info;
        return;
    }
    uc->uc_mcontext.gregs[REG_EFL] &= ~0x100LL;
    size_t page = g_steppedPage;
    g_steppedPage = SIZE_MAX;
    SetPageProt(page, WantedProt(page));
}

// ---- number formats (aclgen_types.h) ----
using namespace aclgen_num;

template <class T>
float ToF(const T& v);
template <>
float ToF<float>(const float& v) {
    return v;
}
template <>
float ToF<half>(const half& v) {
    return F16ToF32(v.val);
}
template <>
float ToF<bfloat16_t>(const bfloat16_t& v) {
    return Bf16ToF32(v.val);
}
template <class T>
T FromF(float f);
template <>
float FromF<float>(float f) {
    return f;
}
template <>
half FromF<half>(float f) {
    half h;
    h.val = F32ToF16(f, RINT);
    return h;
}
template <>
bfloat16_t FromF<bfloat16_t>(float f) {
    bfloat16_t b;
    b.val = F32ToBf16(f, RINT);
    return b;
}

// ---- vector execution ----
/// Calls f(element, dstAddr, srcAddrs...) for each active element of each repeat.
struct Operand {
    uint8_t* base;
    uint32_t elemBytes;
    uint32_t blockStride;
    uint32_t repeatStride;
    uint8_t* At(uint64_t repeat, uint64_t i) const {
        uint64_t perBlock = kBlock / elemBytes;
        return base + repeat * repeatStride * kBlock + (i / perBlock) * blockStride * kBlock + (i % perBlock) * elemBytes;
    }
};

template <class F>
void ForEachElement(uint32_t widest, uint8_t repeat, F f) {
    uint64_t perRepeat = kRepeatBytes / widest;
    g_workElem = widest;
    if (g_core.counterMode) {
        uint64_t total = g_core.maskLow;
        g_work += total * widest;
        for (uint64_t k = 0; k < total; ++k) f(k / perRepeat, k % perRepeat);
        return;
    }
    // Normal mode: every repeat costs its 256 bytes, masked lanes or not.
    g_work += static_cast<uint64_t>(repeat) * kRepeatBytes;
    for (uint64_t r = 0; r < repeat; ++r) {
        for (uint64_t i = 0; i < perRepeat; ++i) {
            bool on = i < 64 ? ((g_core.maskLow >> i) & 1) : ((g_core.maskHigh >> (i - 64)) & 1);
            if (on) f(r, i);
        }
    }
}

template <class D, class S, class Conv>
void VecUnary(const char* name, D* dst, const S* src, uint8_t repeat, uint16_t dBlk, uint16_t sBlk, uint16_t dRep,
              uint16_t sRep, Conv conv) {
    Issue issue(name, PIPE_V);
    Operand d{reinterpret_cast<uint8_t*>(dst), sizeof(D), dBlk, dRep};
    Operand s{reinterpret_cast<uint8_t*>(const_cast<S*>(src)), sizeof(S), sBlk, sRep};
    uint32_t widest = std::max<uint32_t>(sizeof(D), sizeof(S));
    // Read every source element first (in-place operands see the old values), then write.
    std::vector<std::pair<uint8_t*, D>> results;
    ForEachElement(widest, repeat, [&](uint64_t r, uint64_t i) {
        uint8_t* sp = s.At(r, i);
        Access(PIPE_V, sp, sizeof(S), false, true);
        S v;
        memcpy(&v, sp, sizeof(S));
        results.emplace_back(d.At(r, i), conv(v));
    });
    for (auto& [p, v] : results) {
        Access(PIPE_V, p, sizeof(D), true, true);
        memcpy(p, &v, sizeof(D));
    }
}

template <class T, class Op>
void VecBinary(const char* name, T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dBlk, uint8_t s0Blk, uint8_t s1Blk,
               uint8_t dRep, uint8_t s0Rep, uint8_t s1Rep, Op op) {
    Issue issue(name, PIPE_V);
    Operand d{reinterpret_cast<uint8_t*>(dst), sizeof(T), dBlk, dRep};
    Operand a{reinterpret_cast<uint8_t*>(src0), sizeof(T), s0Blk, s0Rep};
    Operand b{reinterpret_cast<uint8_t*>(src1), sizeof(T), s1Blk, s1Rep};
    std::vector<std::pair<uint8_t*, T>> results;
    ForEachElement(sizeof(T), repeat, [&](uint64_t r, uint64_t i) {
        T x, y;
        Access(PIPE_V, a.At(r, i), sizeof(T), false, true);
        Access(PIPE_V, b.At(r, i), sizeof(T), false, true);
        memcpy(&x, a.At(r, i), sizeof(T));
        memcpy(&y, b.At(r, i), sizeof(T));
        results.emplace_back(d.At(r, i), op(x, y));
    });
    for (auto& [p, v] : results) {
        Access(PIPE_V, p, sizeof(T), true, true);
        memcpy(p, &v, sizeof(T));
    }
}

/// Arithmetic in the element type: floats computed exactly in double and rounded once.
template <class T, class F>
T Arith(T x, T y, F f) {
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        return FromF<T>(static_cast<float>(f(static_cast<double>(ToF(x)), static_cast<double>(ToF(y)))));
    } else if constexpr (std::is_same_v<T, float>) {
        return static_cast<float>(f(static_cast<double>(x), static_cast<double>(y)));
    } else {
        return static_cast<T>(f(static_cast<int64_t>(x), static_cast<int64_t>(y)));
    }
}

// ---- DMA ----
void CheckAtomicType(const char* name) {
    (void)name;
}

void AtomicLock() {
    int32_t expected = 0;
    while (!g_shared->atomicLock.compare_exchange_weak(expected, 1)) {
        expected = 0;
        sched_yield();
    }
}
void AtomicUnlock() { g_shared->atomicLock.store(0); }

/// Writes `bytes` from UB `src` to GM `dst`, honouring the atomic mode.
/// GM moves in 512-byte bursts (the public figures): a burst's cost is its bytes rounded up.
uint64_t BurstBytes(uint64_t bytes) { return (bytes + 511) / 512 * 512; }

void StoreGm(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    g_work += BurstBytes(bytes);
    g_time.gmWrite += bytes;
    Access(PIPE_MTE3, src, bytes, false, true);
    Access(PIPE_MTE3, dst, bytes, true, false);
    if (g_core.atomic == ATOMIC_NONE) {
        memcpy(dst, src, bytes);
        return;
    }
    AtomicLock();
    auto apply = [&](auto tag) {
        using T = decltype(tag);
        for (uint64_t off = 0; off + sizeof(T) <= bytes; off += sizeof(T)) {
            T a, b;
            memcpy(&a, dst + off, sizeof(T));
            memcpy(&b, src + off, sizeof(T));
            T r;
            if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
                float x = ToF(a), y = ToF(b);
                float v = g_core.atomicMax ? std::max(x, y) : g_core.atomicMin ? std::min(x, y) : x + y;
                r = FromF<T>(v);
            } else {
                r = g_core.atomicMax ? std::max(a, b) : g_core.atomicMin ? std::min(a, b) : static_cast<T>(a + b);
            }
            memcpy(dst + off, &r, sizeof(T));
        }
    };
    switch (g_core.atomic) {
        case ATOMIC_F32: apply(float{}); break;
        case ATOMIC_F16: apply(half{}); break;
        case ATOMIC_BF16: apply(bfloat16_t{}); break;
        case ATOMIC_S32: apply(int32_t{}); break;
        case ATOMIC_S16: apply(int16_t{}); break;
        case ATOMIC_S8: apply(int8_t{}); break;
        default: AtomicUnlock(); Fail("unmodelled-intrinsic", "atomic mode %d", g_core.atomic);
    }
    AtomicUnlock();
}

void LoadUb(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
    g_work += BurstBytes(bytes);
    g_time.gmRead += bytes;
    Access(PIPE_MTE2, src, bytes, false, false);
    Access(PIPE_MTE2, dst, bytes, true, true);
    memcpy(dst, src, bytes);
}

uint64_t AlignUp(uint64_t v) { return (v + kBlock - 1) / kBlock * kBlock; }

/// DataCopyPad GM -> UB: nBurst rows of lenBurst bytes; GM rows `srcGap` bytes apart (gap after a
/// row), UB rows start on blocks, `dstGap` blocks between them; left/right padding elements and
/// the tail up to the block take the pad value.
void AlignCopyIn(const char* name, uint32_t elem, void* dstV, void* srcV, uint16_t nBurst, uint32_t lenBurst,
                 uint8_t left, uint8_t right, uint32_t srcGap, uint32_t dstGap) {
    Issue issue(name, PIPE_MTE2);
    auto dst = static_cast<uint8_t*>(dstV);
    auto src = static_cast<uint8_t*>(srcV);
    CheckUbAligned(dst, "destination");
    uint64_t rowUb = AlignUp(static_cast<uint64_t>(left) * elem + lenBurst + static_cast<uint64_t>(right) * elem);
    for (uint64_t r = 0; r < nBurst; ++r) {
        uint8_t* d = dst + r * (rowUb + static_cast<uint64_t>(dstGap) * kBlock);
        const uint8_t* s = src + r * (static_cast<uint64_t>(lenBurst) + srcGap);
        LoadUb(d + static_cast<uint64_t>(left) * elem, s, lenBurst);
        uint64_t padBytes = rowUb - lenBurst;
        if (padBytes == 0) continue;
        Access(PIPE_MTE2, d, static_cast<uint64_t>(left) * elem, true, true);
        uint8_t* tail = d + static_cast<uint64_t>(left) * elem + lenBurst;
        Access(PIPE_MTE2, tail, rowUb - static_cast<uint64_t>(left) * elem - lenBurst, true, true);
        for (uint64_t k = 0; k < static_cast<uint64_t>(left); ++k) memcpy(d + k * elem, &g_core.padValue, elem);
        for (uint8_t* p = tail; p + elem <= d + rowUb; p += elem) memcpy(p, &g_core.padValue, elem);
    }
}

/// DataCopyPad UB -> GM: nBurst rows of lenBurst bytes; UB rows on blocks, `srcGap` blocks apart
/// (gap after the row's blocks); GM rows `dstGap` bytes apart.
void AlignCopyOut(const char* name, void* dstV, void* srcV, uint16_t nBurst, uint32_t lenBurst, uint32_t srcGap,
                  uint32_t dstGap) {
    Issue issue(name, PIPE_MTE3);
    auto dst = static_cast<uint8_t*>(dstV);
    auto src = static_cast<uint8_t*>(srcV);
    CheckUbAligned(src, "source");
    uint64_t rowUb = AlignUp(lenBurst);
    for (uint64_t r = 0; r < nBurst; ++r) {
        StoreGm(dst + r * (static_cast<uint64_t>(lenBurst) + dstGap), src + r * (rowUb + static_cast<uint64_t>(srcGap) * kBlock),
                lenBurst);
    }
}

}  // namespace

// =============================== the C API for the driver ===============================
extern "C" void AclgenModelInit(uint32_t cores) {
    size_t bytes = sizeof(Shared) + sizeof(AclgenCoreReport) * (cores == 0 ? 1 : cores);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) Fail("model", "cannot map shared state: %s", strerror(errno));
    memset(p, 0, bytes);
    g_shared = static_cast<Shared*>(p);
    g_shared->cores = cores;
    for (uint32_t c = 0; c < cores; ++c) g_shared->reports[c].status = 2;
    g_pageSize = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

extern "C" void AclgenModelRegisterGm(const void* base, uint64_t bytes, const char* name) {
    g_regions.push_back(Region{static_cast<uint8_t*>(const_cast<void*>(base)), bytes, name, false, nullptr});
}

/// A scalar load (GetValue) or store (SetValue) of the Unified Buffer or GM: 6 and 4 cycles on
/// the scalar pipe (public figures), after the flags the scalar pipe waited for.
extern "C" void AclgenModelScalarAccess(int store) {
    if (g_ddrRate == 0 || !g_core.active) return;
    uint64_t start = std::max(g_time.free[PIPE_S], g_time.ready[PIPE_S]);
    uint64_t cycles = store ? 4 : 6;
    g_time.free[PIPE_S] = start + cycles;
    g_time.busy[PIPE_S] += cycles;
}

extern "C" void AclgenModelSetCosts(uint64_t ddrBytesPerCycle, const char* tracePath) {
    g_ddrRate = ddrBytesPerCycle;
    g_trace = tracePath != nullptr && tracePath[0] != 0 ? fopen(tracePath, "w") : nullptr;
}

extern "C" void AclgenModelCoreBegin(uint32_t core, uint8_t* ubBase, uint64_t ubBytes) {
    g_core = Core();
    g_time = Timeline();
    g_core.index = core;
    g_core.active = true;
    g_regions.push_back(Region{ubBase, ubBytes, "Unified Buffer", true, nullptr});
    g_ub = &g_regions.back();
    Shadow(*g_ub);
    uintptr_t first = reinterpret_cast<uintptr_t>(ubBase) & ~(g_pageSize - 1);
    uintptr_t end = (reinterpret_cast<uintptr_t>(ubBase) + ubBytes + g_pageSize - 1) & ~(g_pageSize - 1);
    g_pageProt.assign((end - first) / g_pageSize, PROT_READ | PROT_WRITE);
    g_pageSummary.assign(g_pageProt.size(), PageSummary{});
    struct sigaction sa {};
    sa.sa_sigaction = OnSegv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_oldSegv);
    struct sigaction st {};
    st.sa_sigaction = OnTrap;
    st.sa_flags = SA_SIGINFO;
    sigemptyset(&st.sa_mask);
    sigaction(SIGTRAP, &st, &g_oldTrap);
}

extern "C" void AclgenModelCoreEnd() {
    g_currentIntrinsic = "end of kernel";
    OpenAllPages();
    for (const Buffer& b : g_core.buffers) {
        if (b.state == 1 || b.state == 2) {
            Fail("queue-balance",
                 "a queue buffer (Unified Buffer bytes [%llu, %llu)) was %s and never freed when the kernel returned: "
                 "an AllocTensor/EnQue without its DeQue/FreeTensor",
                 (unsigned long long)(b.addr - reinterpret_cast<uint64_t>(g_ub->base)),
                 (unsigned long long)(b.addr + b.len - reinterpret_cast<uint64_t>(g_ub->base)),
                 b.state == 2 ? "enqueued" : "allocated");
        }
    }
    g_core.active = false;
    AclgenCoreReport& r = g_shared->reports[g_core.index];
    r.ubPeak = g_core.ubPeak;
    for (int p = 0; p < kPipes; ++p) {
        r.cycles = std::max({r.cycles, g_time.free[p], g_time.ready[p]});
        r.busy[p] = g_time.busy[p];
    }
    r.gmRead = g_time.gmRead;
    r.gmWrite = g_time.gmWrite;
    // The global tensors the kernel moved data of (their shadow exists once accessed).
    for (size_t i = 0; i < g_regions.size() && i < 64; ++i) {
        if (!g_regions[i].ub && g_regions[i].shadow != nullptr) r.touched |= 1ull << i;
    }
    if (g_trace != nullptr) fclose(g_trace);
    g_shared->reports[g_core.index].status = 0;
}

extern "C" AclgenCoreReport* AclgenModelReport(uint32_t core) { return &g_shared->reports[core]; }
extern "C" void AclgenModelFail(const char* rule, const char* message) { Fail(rule, "%s", message); }

[[noreturn]] void AclgenModelUnmodelled(const char* name) {
    Fail("unmodelled-intrinsic", "the kernel called intrinsic %s, which aclgen's AI Core model does not implement",
         name);
}

// =============================== debug hooks ===============================
namespace {
Buffer* FindBuffer(uint64_t addr) {
    for (Buffer& b : g_core.buffers) {
        if (b.addr == addr) return &b;
    }
    return nullptr;
}
}  // namespace

int64_t AscendCBufInit(uint8_t, int32_t kind, int32_t num, uint64_t addr, uint64_t len) {
    for (int32_t i = 0; i < num; ++i) {
        g_core.buffers.push_back(Buffer{addr + static_cast<uint64_t>(i) * len, len, kind == 1 ? 3 : 0});
    }
    if (g_ub != nullptr) {
        uint64_t end = addr + static_cast<uint64_t>(num) * len - reinterpret_cast<uint64_t>(g_ub->base);
        g_core.ubPeak = std::max(g_core.ubPeak, end);
    }
    return 0;
}
int64_t AscendCBufAbsAddr(uint8_t, uint64_t, uint64_t) { return 0; }
int64_t AscendCBufAlloc(uint8_t, uint8_t, uint64_t addr, uint64_t) {
    if (Buffer* b = FindBuffer(addr)) b->state = 1;
    return 0;
}
int64_t AscendCBufFree(uint8_t, uint8_t, uint64_t addr, uint64_t) {
    if (Buffer* b = FindBuffer(addr)) b->state = 0;
    return 0;
}
int64_t AscendCBufEnque(uint8_t, uint8_t, uint8_t, uint64_t addr) {
    if (Buffer* b = FindBuffer(addr)) b->state = 2;
    return 0;
}
int64_t AscendCBufDeque(uint8_t, uint8_t, uint8_t, uint64_t addr) {
    if (Buffer* b = FindBuffer(addr)) b->state = 1;
    return 0;
}
int64_t AscendCBufGet(uint8_t, uint8_t, uint64_t, uint64_t) { return 0; }
int64_t AscendCQueCreate(uint8_t, uint8_t, int32_t) { return 0; }
int64_t AscendCTBufPoolResetCheck(uint8_t, uint64_t, uint64_t, uint64_t) { return 0; }
int64_t AscendCUpdateTbufPoolStatus(uint64_t, bool) { return 0; }
int64_t AscendCTBufPoolInit(uint8_t, uint64_t, uint64_t, uint64_t) { return 0; }
int64_t AscendCRecordPoolHierarchy(uint64_t, uint64_t) { return 0; }

// =============================== flags and barriers ===============================
namespace {
bool PipeOk(int p) { return p >= 0 && p < kPipes && p != PIPE_ALL; }
}  // namespace

int64_t set_flag(pipe_t pipe, pipe_t tpipe, int event) {
    g_currentIntrinsic = "set_flag";
    if (g_ddrRate != 0 && g_core.active) IssueSlot();
    if (!PipeOk(pipe) || !PipeOk(tpipe) || event < 0 || event >= kEvents) {
        Fail("pipe-flag", "set_flag(%d, %d, %d): no such pipe or event", pipe, tpipe, event);
    }
    std::vector<uint32_t> view(g_core.known[pipe], g_core.known[pipe] + kPipes);
    view[pipe] = g_core.issued[pipe];
    // The cycle the flag fires, after the view (two words: a timeline outlives 32 bits).
    view.push_back(static_cast<uint32_t>(FlagTime(pipe)));
    view.push_back(static_cast<uint32_t>(FlagTime(pipe) >> 32));
    auto& slot = g_core.flags[pipe][tpipe][event];
    if (!slot.empty()) {
        Fail("pipe-flag", "set_flag(PIPE_%s, PIPE_%s, EVENT_ID%d) again before its wait_flag", PipeName(pipe),
             PipeName(tpipe), event);
    }
    slot.push_back(view);
    return 0;
}
int64_t set_flag(pipe_t pipe, pipe_t tpipe, event_t event) { return set_flag(pipe, tpipe, static_cast<int>(event)); }

int64_t wait_flag(pipe_t pipe, pipe_t tpipe, int event) {
    g_currentIntrinsic = "wait_flag";
    if (g_ddrRate != 0 && g_core.active) IssueSlot();
    if (!PipeOk(pipe) || !PipeOk(tpipe) || event < 0 || event >= kEvents) {
        Fail("pipe-flag", "wait_flag(%d, %d, %d): no such pipe or event", pipe, tpipe, event);
    }
    auto& slot = g_core.flags[pipe][tpipe][event];
    if (slot.empty()) {
        Fail("pipe-flag",
             "wait_flag(PIPE_%s, PIPE_%s, EVENT_ID%d) with no set_flag before it: the core would wait forever",
             PipeName(pipe), PipeName(tpipe), event);
    }
    for (int q = 0; q < kPipes; ++q) g_core.known[tpipe][q] = std::max(g_core.known[tpipe][q], slot.front()[q]);
    uint64_t fired = slot.front()[kPipes] | (static_cast<uint64_t>(slot.front()[kPipes + 1]) << 32);
    g_time.ready[tpipe] = std::max(g_time.ready[tpipe], fired);
    slot.erase(slot.begin());
    ProtectPending();
    return 0;
}
int64_t wait_flag(pipe_t pipe, pipe_t tpipe, event_t event) { return wait_flag(pipe, tpipe, static_cast<int>(event)); }

int64_t pipe_barrier(pipe_t pipe) {
    g_currentIntrinsic = "pipe_barrier";
    if (pipe == PIPE_ALL) {
        for (int p = 0; p < kPipes; ++p) {
            for (int q = 0; q < kPipes; ++q) g_core.known[p][q] = g_core.issued[q];
        }
        uint64_t all = 0;
        for (int p = 0; p < kPipes; ++p) all = std::max({all, g_time.free[p], g_time.ready[p]});
        for (int p = 0; p < kPipes; ++p) g_time.ready[p] = all;
        ProtectPending();
    }
    // A barrier on one pipe orders that pipe's own instructions, which the model runs in order.
    return 0;
}
int64_t dcci(void*, cache_line_t, dcci_dst_t) { return 0; }
int64_t dcci(void*, uint64_t, uint64_t) { return 0; }
int64_t dcci(void*, uint64_t) { return 0; }
int64_t dsb(mem_dsb_t) { return 0; }
int64_t trap() { Fail("kernel-trap", "the kernel called trap()"); }

// =============================== scalar bit operations ===============================
int64_t sbitset0(uint64_t x, int64_t bit) { return static_cast<int64_t>(x & ~(1ull << (bit & 63))); }
int64_t sbitset1(uint64_t x, int64_t bit) { return static_cast<int64_t>(x | (1ull << (bit & 63))); }
int64_t sff0(uint64_t x) { return ~x == 0 ? -1 : __builtin_ctzll(~x); }
int64_t sff1(uint64_t x) { return x == 0 ? -1 : __builtin_ctzll(x); }
int64_t bcnt0(uint64_t x) { return 64 - __builtin_popcountll(x); }
int64_t bcnt1(uint64_t x) { return __builtin_popcountll(x); }
int64_t clz(uint64_t x) { return x == 0 ? 64 : __builtin_clzll(x); }

// =============================== special registers ===============================
int64_t set_vector_mask(uint64_t high, uint64_t low) {
    g_core.maskHigh = high;
    g_core.maskLow = low;
    return 0;
}
int64_t set_mask_count() {
    g_core.counterMode = true;
    return 0;
}
int64_t set_mask_norm() {
    g_core.counterMode = false;
    return 0;
}
int64_t set_mov_pad_val(uint64_t value) {
    g_core.padValue = value;
    return 0;
}
int64_t set_padding(uint64_t) { return 0; }
int64_t set_l1_3d_size(uint64_t) { return 0; }
namespace {
uint64_t g_ctrl = 0;
}
int64_t set_ctrl(uint64_t value) {
    g_ctrl = value;
    return 0;
}
int64_t get_ctrl() { return static_cast<int64_t>(g_ctrl); }
namespace {
int64_t SetAtomic(int type, bool keepOp) {
    g_core.atomic = type;
    if (!keepOp) g_core.atomicMax = g_core.atomicMin = false;
    return 0;
}
}  // namespace
int64_t set_atomic_none() {
    g_core.atomicMax = g_core.atomicMin = false;
    return SetAtomic(ATOMIC_NONE, false);
}
int64_t set_atomic_add() {
    g_core.atomicMax = g_core.atomicMin = false;
    return 0;
}
int64_t set_atomic_max() {
    g_core.atomicMax = true;
    g_core.atomicMin = false;
    return 0;
}
int64_t set_atomic_min() {
    g_core.atomicMin = true;
    g_core.atomicMax = false;
    return 0;
}
int64_t set_atomic_f32() { return SetAtomic(ATOMIC_F32, true); }
int64_t set_atomic_f16() { return SetAtomic(ATOMIC_F16, true); }
int64_t set_atomic_bf16() { return SetAtomic(ATOMIC_BF16, true); }
int64_t set_atomic_s32() { return SetAtomic(ATOMIC_S32, true); }
int64_t set_atomic_s16() { return SetAtomic(ATOMIC_S16, true); }
int64_t set_atomic_s8() { return SetAtomic(ATOMIC_S8, true); }

// =============================== DMA ===============================
int64_t copy_gm_to_ubuf(void* dst, void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcStride,
                        uint16_t dstStride) {
    Issue issue("copy_gm_to_ubuf (DataCopy GM->UB)", PIPE_MTE2);
    CheckUbAligned(dst, "destination");
    auto d = static_cast<uint8_t*>(dst);
    auto s = static_cast<uint8_t*>(src);
    for (uint64_t r = 0; r < nBurst; ++r) {
        LoadUb(d + r * (lenBurst + dstStride) * kBlock, s + r * (lenBurst + srcStride) * kBlock,
               static_cast<uint64_t>(lenBurst) * kBlock);
    }
    return 0;
}
int64_t copy_ubuf_to_gm(void* dst, void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcStride,
                        uint16_t dstStride) {
    Issue issue("copy_ubuf_to_gm (DataCopy UB->GM)", PIPE_MTE3);
    CheckUbAligned(src, "source");
    auto d = static_cast<uint8_t*>(dst);
    auto s = static_cast<uint8_t*>(src);
    for (uint64_t r = 0; r < nBurst; ++r) {
        StoreGm(d + r * (lenBurst + dstStride) * kBlock, s + r * (lenBurst + srcStride) * kBlock,
                static_cast<uint64_t>(lenBurst) * kBlock);
    }
    return 0;
}
int64_t copy_ubuf_to_ubuf(void* dst, void* src, uint8_t, uint16_t nBurst, uint16_t lenBurst, uint16_t srcStride,
                          uint16_t dstStride) {
    Issue issue("copy_ubuf_to_ubuf (DataCopy UB->UB)", PIPE_V);
    CheckUbAligned(src, "source");
    CheckUbAligned(dst, "destination");
    auto d = static_cast<uint8_t*>(dst);
    auto s = static_cast<uint8_t*>(src);
    for (uint64_t r = 0; r < nBurst; ++r) {
        uint8_t* dr = d + r * (lenBurst + dstStride) * kBlock;
        uint8_t* sr = s + r * (lenBurst + srcStride) * kBlock;
        uint64_t bytes = static_cast<uint64_t>(lenBurst) * kBlock;
        g_work += bytes;
        Access(PIPE_V, sr, bytes, false, true);
        Access(PIPE_V, dr, bytes, true, true);
        memmove(dr, sr, bytes);
    }
    return 0;
}

#define ACLGEN_ALIGN_COPY_DEF(T)                                                                                      \
    int64_t copy_gm_to_ubuf_align_b8(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t l, uint8_t r,           \
                                     uint32_t sg, uint32_t dg) {                                                     \
        AlignCopyIn("copy_gm_to_ubuf_align_b8 (DataCopyPad GM->UB)", 1, d, s, n, len, l, r, sg, dg);                 \
        return 0;                                                                                                     \
    }                                                                                                                 \
    int64_t copy_gm_to_ubuf_align_b16(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t l, uint8_t r,          \
                                      uint32_t sg, uint32_t dg) {                                                    \
        AlignCopyIn("copy_gm_to_ubuf_align_b16 (DataCopyPad GM->UB)", 2, d, s, n, len, l, r, sg, dg);                \
        return 0;                                                                                                     \
    }                                                                                                                 \
    int64_t copy_gm_to_ubuf_align_b32(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t l, uint8_t r,          \
                                      uint32_t sg, uint32_t dg) {                                                    \
        AlignCopyIn("copy_gm_to_ubuf_align_b32 (DataCopyPad GM->UB)", 4, d, s, n, len, l, r, sg, dg);                \
        return 0;                                                                                                     \
    }                                                                                                                 \
    int64_t copy_ubuf_to_gm_align_b8(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t, uint8_t, uint32_t sg,  \
                                     uint32_t dg) {                                                                  \
        AlignCopyOut("copy_ubuf_to_gm_align_b8 (DataCopyPad UB->GM)", d, s, n, len, sg, dg);                         \
        return 0;                                                                                                     \
    }                                                                                                                 \
    int64_t copy_ubuf_to_gm_align_b16(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t, uint8_t, uint32_t sg, \
                                      uint32_t dg) {                                                                 \
        AlignCopyOut("copy_ubuf_to_gm_align_b16 (DataCopyPad UB->GM)", d, s, n, len, sg, dg);                        \
        return 0;                                                                                                     \
    }                                                                                                                 \
    int64_t copy_ubuf_to_gm_align_b32(T* d, T* s, uint8_t, uint16_t n, uint32_t len, uint8_t, uint8_t, uint32_t sg, \
                                      uint32_t dg) {                                                                 \
        AlignCopyOut("copy_ubuf_to_gm_align_b32 (DataCopyPad UB->GM)", d, s, n, len, sg, dg);                        \
        return 0;                                                                                                     \
    }
ACLGEN_ALIGN_COPY_DEF(void)
ACLGEN_ALIGN_COPY_DEF(int8_t)
ACLGEN_ALIGN_COPY_DEF(uint8_t)
ACLGEN_ALIGN_COPY_DEF(int16_t)
ACLGEN_ALIGN_COPY_DEF(uint16_t)
ACLGEN_ALIGN_COPY_DEF(half)
ACLGEN_ALIGN_COPY_DEF(bfloat16_t)
ACLGEN_ALIGN_COPY_DEF(int32_t)
ACLGEN_ALIGN_COPY_DEF(uint32_t)
ACLGEN_ALIGN_COPY_DEF(float)
ACLGEN_ALIGN_COPY_DEF(int64_t)
ACLGEN_ALIGN_COPY_DEF(uint64_t)
ACLGEN_ALIGN_COPY_DEF(double)

// =============================== vector ===============================
#define ACLGEN_DUP_DEF(T)                                                                                  \
    int64_t vector_dup(T* dst, T value, uint8_t repeat, uint16_t dBlk, uint16_t, uint8_t dRep, uint8_t) { \
        VecUnary("vector_dup (Duplicate)", dst, dst, repeat, dBlk, dBlk, dRep, dRep, [&](T) { return value; }); \
        return 0;                                                                                          \
    }
ACLGEN_DUP_DEF(half)
ACLGEN_DUP_DEF(bfloat16_t)
ACLGEN_DUP_DEF(float)
ACLGEN_DUP_DEF(int16_t)
ACLGEN_DUP_DEF(uint16_t)
ACLGEN_DUP_DEF(int32_t)
ACLGEN_DUP_DEF(uint32_t)

namespace {
template <class D, class S>
D Convert(S v, Round mode, bool keepMode);

Round ModeOf(const char* name) {
    size_t n = strlen(name);
    char last = name[n - 1];
    switch (last) {
        case 'r': return RINT;
        case 'a': return ROUND;
        case 'f': return FLOOR;
        case 'c': return CEIL;
        case 'z': return TRUNC;
        case 'o': return ODD;
        default: return RINT;
    }
}

template <class D, class S>
D ConvertValue(S v, Round mode) {
    if constexpr (std::is_same_v<D, float> && std::is_same_v<S, half>) {
        return F16ToF32(v.val);
    } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, bfloat16_t>) {
        return Bf16ToF32(v.val);
    } else if constexpr (std::is_same_v<D, half> && std::is_same_v<S, float>) {
        half h;
        h.val = F32ToF16(v, mode);
        return h;
    } else if constexpr (std::is_same_v<D, bfloat16_t> && std::is_same_v<S, float>) {
        bfloat16_t b;
        b.val = F32ToBf16(v, mode);
        return b;
    } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
        switch (mode) {
            case ROUND: return std::round(v);
            case FLOOR: return std::floor(v);
            case CEIL: return std::ceil(v);
            case TRUNC: return std::trunc(v);
            default: return std::nearbyint(v);
        }
    } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, int32_t>) {
        return static_cast<float>(v);
    } else if constexpr (std::is_same_v<D, int32_t> && std::is_same_v<S, float>) {
        double r;
        switch (mode) {
            case ROUND: r = std::round(v); break;
            case FLOOR: r = std::floor(v); break;
            case CEIL: r = std::ceil(v); break;
            case TRUNC: r = std::trunc(v); break;
            default: r = std::nearbyint(v); break;
        }
        if (std::isnan(r)) return 0;
        if (r > 2147483647.0) return 2147483647;
        if (r < -2147483648.0) return -2147483647 - 1;
        return static_cast<int32_t>(r);
    }
}
}  // namespace

#define ACLGEN_CONV_DEF(name, D, S)                                                                      \
    int64_t name(D* dst, S* src, uint8_t repeat, uint16_t dBlk, uint16_t sBlk, uint16_t dRep, uint16_t sRep) { \
        Round mode = ModeOf(#name);                                                                      \
        VecUnary(#name " (Cast)", dst, src, repeat, dBlk, sBlk, dRep, sRep,                              \
                 [&](S v) { return ConvertValue<D, S>(v, mode); });                                      \
        return 0;                                                                                        \
    }
ACLGEN_MODEL_CONVERSIONS(ACLGEN_CONV_DEF)

#define ACLGEN_BINARY_DEF(name, T, expr)                                                                          \
    int64_t name(T* dst, T* src0, T* src1, uint8_t repeat, uint8_t dBlk, uint8_t s0Blk, uint8_t s1Blk, uint8_t dRep, \
                 uint8_t s0Rep, uint8_t s1Rep) {                                                                   \
        VecBinary(#name, dst, src0, src1, repeat, dBlk, s0Blk, s1Blk, dRep, s0Rep, s1Rep,                          \
                  [](T x, T y) { return Arith(x, y, [](auto a, auto b) { return expr; }); });                      \
        return 0;                                                                                                  \
    }
#define ACLGEN_ARITH_DEFS(name, expr)          \
    ACLGEN_BINARY_DEF(name, half, expr)        \
    ACLGEN_BINARY_DEF(name, float, expr)       \
    ACLGEN_BINARY_DEF(name, int16_t, expr)     \
    ACLGEN_BINARY_DEF(name, int32_t, expr)
ACLGEN_ARITH_DEFS(vadd, a + b)
ACLGEN_ARITH_DEFS(vsub, a - b)
ACLGEN_ARITH_DEFS(vmul, a * b)
ACLGEN_ARITH_DEFS(vmax, a > b ? a : b)
ACLGEN_ARITH_DEFS(vmin, a < b ? a : b)
ACLGEN_BINARY_DEF(vdiv, half, a / b)
ACLGEN_BINARY_DEF(vdiv, float, a / b)

#define ACLGEN_SCALAR_DEF(name, T, expr)                                                                         \
    int64_t name(T* dst, T* src, T value, uint8_t repeat, uint16_t dBlk, uint16_t sBlk, uint16_t dRep,           \
                 uint16_t sRep) {                                                                                \
        VecUnary(#name, dst, src, repeat, dBlk, sBlk, dRep, sRep,                                                \
                 [&](T x) { return Arith(x, value, [](auto a, auto b) { return expr; }); });                    \
        return 0;                                                                                                \
    }
#define ACLGEN_SCALAR_DEFS(name, expr)         \
    ACLGEN_SCALAR_DEF(name, half, expr)        \
    ACLGEN_SCALAR_DEF(name, float, expr)       \
    ACLGEN_SCALAR_DEF(name, int16_t, expr)     \
    ACLGEN_SCALAR_DEF(name, int32_t, expr)
ACLGEN_SCALAR_DEFS(vadds, a + b)
ACLGEN_SCALAR_DEFS(vmuls, a * b)
#define ACLGEN_SCALAR_MODE_DEF(name, T, expr)                                                                \
    int64_t name(T* dst, T* src, T value, uint8_t repeat, uint16_t dBlk, uint16_t sBlk, uint16_t dRep,      \
                 uint16_t sRep, bool, bool) {                                                               \
        VecUnary(#name, dst, src, repeat, dBlk, sBlk, dRep, sRep,                                           \
                 [&](T x) { return Arith(x, value, [](auto a, auto b) { return expr; }); });               \
        return 0;                                                                                           \
    }
#define ACLGEN_SCALAR_MODE_DEFS(name, expr)        \
    ACLGEN_SCALAR_MODE_DEF(name, half, expr)       \
    ACLGEN_SCALAR_MODE_DEF(name, float, expr)      \
    ACLGEN_SCALAR_MODE_DEF(name, int16_t, expr)    \
    ACLGEN_SCALAR_MODE_DEF(name, int32_t, expr)
ACLGEN_SCALAR_MODE_DEFS(vmaxs, a > b ? a : b)
ACLGEN_SCALAR_MODE_DEFS(vmins, a < b ? a : b)

#define ACLGEN_UNARY_DEF(name, T, expr)                                                                            \
    int64_t name(T* dst, T* src, uint8_t repeat, uint16_t dBlk, uint16_t sBlk, uint16_t dRep, uint16_t sRep) {     \
        VecUnary(#name, dst, src, repeat, dBlk, sBlk, dRep, sRep,                                                  \
                 [](T x) { return Arith(x, x, [](auto a, auto) { return expr; }); });                             \
        return 0;                                                                                                  \
    }
ACLGEN_UNARY_DEF(vabs, half, std::fabs(a))
ACLGEN_UNARY_DEF(vabs, float, std::fabs(a))
ACLGEN_UNARY_DEF(vexp, half, std::exp(a))
ACLGEN_UNARY_DEF(vexp, float, std::exp(a))
ACLGEN_UNARY_DEF(vsqrt, half, std::sqrt(a))
ACLGEN_UNARY_DEF(vsqrt, float, std::sqrt(a))
ACLGEN_UNARY_DEF(vrec, half, 1.0 / a)
ACLGEN_UNARY_DEF(vrec, float, 1.0 / a)
ACLGEN_UNARY_DEF(vln, half, std::log(a))
ACLGEN_UNARY_DEF(vln, float, std::log(a))

// =============================== multi-core ===============================
namespace {
/// Spins until `done`; a core that waits 60 s for the others is reported (they never arrive).
template <class F>
void WaitFor(const char* what, F done) {
    time_t start = time(nullptr);
    while (!done()) {
        sched_yield();
        if (g_shared->failed.load() != 0) {
            // Another core broke a rule and will never arrive: stop without a report of our own.
            g_shared->reports[g_core.index].status = 3;
            _exit(4);
        }
        if (time(nullptr) - start > 60) {
            Fail("sync-deadlock", "%s waited 60 s for the other cores of the launch: not every core reaches it", what);
        }
    }
}

void Barrier() {
    uint32_t gen = g_shared->barrierGeneration.load();
    if (g_shared->barrierCount.fetch_add(1) + 1 == g_shared->cores) {
        g_shared->barrierCount.store(0);
        g_shared->barrierGeneration.fetch_add(1);
    } else {
        WaitFor("SyncAll", [&] { return g_shared->barrierGeneration.load() != gen; });
    }
    // Every core's GM writes before the barrier are visible after it; the core's own pipes
    // are drained (SyncAll starts with a PIPE_ALL barrier on the hardware).
    pipe_barrier(PIPE_ALL);
}
}  // namespace

int64_t __sync_all_stub(int32_t, bool) {
    g_currentIntrinsic = "SyncAll";
    Barrier();
    return 0;
}
// The hardware SyncAll of vector cores: every core sets a cross-core flag (mode 0: all cores of
// the launch), then waits for it; the k-th wait returns once every core has set the flag k times.
namespace {
uint32_t g_flagWaits[16];
}
int64_t ffts_cross_core_sync(pipe_t, uint64_t config) {
    g_currentIntrinsic = "ffts_cross_core_sync (SyncAll)";
    uint64_t mode = (config >> 4) & 0x3;
    uint64_t flag = (config >> 8) & 0xf;
    if (mode != 0) {
        AclgenModelUnmodelled("ffts_cross_core_sync in a mode other than 0 (all cores): cube/vector group sync");
    }
    g_shared->flagArrivals[flag].fetch_add(1);
    return 0;
}
int64_t wait_flag_dev(int64_t flagId) {
    g_currentIntrinsic = "wait_flag_dev (SyncAll)";
    uint32_t flag = static_cast<uint32_t>(flagId) & 0xf;
    uint32_t k = ++g_flagWaits[flag];
    WaitFor("SyncAll (wait_flag_dev)", [&] { return g_shared->flagArrivals[flag].load() >= k * g_shared->cores; });
    pipe_barrier(PIPE_ALL);
    return 0;
}
int64_t set_ffts_base_addr(uint64_t) { return 0; }
// The launch's core numbering, set per core by the driver: one vector core per block.
namespace {
int64_t g_blockIdx = 0;
int64_t g_blockNum = 1;
uint64_t g_tilingKey = 0;
}  // namespace
void AclgenModelSetLaunch(int64_t blockIdx, int64_t blockNum, uint64_t tilingKey) {
    g_blockIdx = blockIdx;
    g_blockNum = blockNum;
    g_tilingKey = tilingKey;
}
int64_t get_block_num() { return g_blockNum; }
int64_t get_block_idx() { return g_blockIdx; }
int64_t get_subblockid() { return 0; }
int64_t get_subblockdim() { return 1; }
uint64_t get_tiling_key() { return g_tilingKey; }
extern "C" uint8_t* AclgenModelUbBase() { return g_ub == nullptr ? nullptr : g_ub->base; }
extern "C" uint64_t AclgenModelUbBytes() { return g_ub == nullptr ? 0 : g_ub->bytes; }

// =============================== compare and select ===============================
namespace {
template <class T>
bool CompareValues(T x, T y, int mode) {
    double a, b;
    if constexpr (std::is_same_v<T, half>) {
        a = ToF(x);
        b = ToF(y);
    } else {
        a = static_cast<double>(x);
        b = static_cast<double>(y);
    }
    switch (mode) {
        case 0: return a < b;   // LT
        case 1: return a > b;   // GT
        case 2: return a == b;  // EQ
        case 3: return a <= b;  // LE
        case 4: return a >= b;  // GE
        default: return a != b; // NE
    }
}

/// Element k of the run (repeat r, index i): its bit in a mask operand.
uint64_t BitIndex(uint32_t elemBytes, uint64_t r, uint64_t i) { return r * (kRepeatBytes / elemBytes) + i; }

template <class T>
void VecCompare(uint8_t* dst, T* src0, T* src1, int mode, uint8_t repeat) {
    Issue issue("vcmpv (Compare)", PIPE_V);
    Operand a{reinterpret_cast<uint8_t*>(src0), sizeof(T), 1, 8};
    Operand b{reinterpret_cast<uint8_t*>(src1), sizeof(T), 1, 8};
    std::vector<std::pair<uint64_t, bool>> bits;
    ForEachElement(sizeof(T), repeat, [&](uint64_t r, uint64_t i) {
        T x, y;
        Access(PIPE_V, a.At(r, i), sizeof(T), false, true);
        Access(PIPE_V, b.At(r, i), sizeof(T), false, true);
        memcpy(&x, a.At(r, i), sizeof(T));
        memcpy(&y, b.At(r, i), sizeof(T));
        bits.emplace_back(BitIndex(sizeof(T), r, i), CompareValues(x, y, mode));
    });
    for (auto& [k, on] : bits) {
        uint8_t* p = dst + k / 8;
        Access(PIPE_V, p, 1, true, true);
        *p = static_cast<uint8_t>(on ? (*p | (1u << (k % 8))) : (*p & ~(1u << (k % 8))));
    }
}

template <class T>
void VecSelect(T* dst, uint8_t* sel, T* src0, T* src1, T value, uint8_t repeat) {
    Issue issue("vsel (Select)", PIPE_V);
    Operand d{reinterpret_cast<uint8_t*>(dst), sizeof(T), 1, 8};
    Operand a{reinterpret_cast<uint8_t*>(src0), sizeof(T), 1, 8};
    Operand b{reinterpret_cast<uint8_t*>(src1), sizeof(T), 1, 8};
    std::vector<std::pair<uint8_t*, T>> results;
    ForEachElement(sizeof(T), repeat, [&](uint64_t r, uint64_t i) {
        uint64_t k = BitIndex(sizeof(T), r, i);
        Access(PIPE_V, sel + k / 8, 1, false, true);
        bool on = ((sel[k / 8] >> (k % 8)) & 1) != 0;
        T v = value;
        if (on) {
            Access(PIPE_V, a.At(r, i), sizeof(T), false, true);
            memcpy(&v, a.At(r, i), sizeof(T));
        } else if (src1 != nullptr) {
            Access(PIPE_V, b.At(r, i), sizeof(T), false, true);
            memcpy(&v, b.At(r, i), sizeof(T));
        }
        results.emplace_back(d.At(r, i), v);
    });
    for (auto& [p, v] : results) {
        Access(PIPE_V, p, sizeof(T), true, true);
        memcpy(p, &v, sizeof(T));
    }
}
}  // namespace

#define ACLGEN_CMPSEL_DEF(T)                                                                   \
    int64_t aclgen_vcmp(uint8_t* dst, T* src0, T* src1, int mode, uint8_t repeat) {            \
        VecCompare(dst, src0, src1, mode, repeat);                                             \
        return 0;                                                                              \
    }                                                                                          \
    int64_t aclgen_vsel(T* dst, uint8_t* sel, T* src0, T* src1, T value, uint8_t repeat) {     \
        VecSelect(dst, sel, src0, src1, value, repeat);                                        \
        return 0;                                                                              \
    }
ACLGEN_CMPSEL_DEF(half)
ACLGEN_CMPSEL_DEF(float)
ACLGEN_CMPSEL_DEF(int16_t)
ACLGEN_CMPSEL_DEF(int32_t)

// =============================== gather ===============================
namespace {
template <class T>
void VecGather(T* dst, T* src, uint32_t* offsets, uint32_t base, uint32_t count, uint64_t srcBytes) {
    Issue issue("vgather (Gather)", PIPE_V);
    uint32_t widest = std::max<uint32_t>(sizeof(T), sizeof(uint32_t));
    g_workElem = widest;
    g_work += static_cast<uint64_t>(count) * widest;
    auto s = reinterpret_cast<uint8_t*>(src);
    std::vector<std::pair<uint8_t*, T>> results;
    results.reserve(count);
    for (uint32_t k = 0; k < count; ++k) {
        Access(PIPE_V, reinterpret_cast<uint8_t*>(offsets + k), sizeof(uint32_t), false, true);
        uint64_t byte = static_cast<uint64_t>(base) + offsets[k];
        if (byte % sizeof(T) != 0) {
            Fail("kernel-assert", "Gather: srcOffset[%u] + srcBaseAddr = byte %llu is not on a %zu-byte element", k,
                 (unsigned long long)byte, sizeof(T));
        }
        if (byte + sizeof(T) > srcBytes) {
            Fail("ub-overrun", "Gather: srcOffset[%u] + srcBaseAddr = byte %llu runs past src's %llu bytes", k,
                 (unsigned long long)byte, (unsigned long long)srcBytes);
        }
        uint8_t* at = s + byte;
        Access(PIPE_V, at, sizeof(T), false, true);
        T v;
        memcpy(&v, at, sizeof(T));
        results.emplace_back(reinterpret_cast<uint8_t*>(dst + k), v);
    }
    for (auto& [p, v] : results) {
        Access(PIPE_V, p, sizeof(T), true, true);
        memcpy(p, &v, sizeof(T));
    }
}
}  // namespace

#define ACLGEN_GATHER_DEF(T)                                                                      \
    int64_t aclgen_vgather(T* dst, T* src, uint32_t* offsets, uint32_t base, uint32_t count, uint64_t srcBytes) { \
        VecGather(dst, src, offsets, base, count, srcBytes);                                      \
        return 0;                                                                                 \
    }
ACLGEN_GATHER_DEF(half)
ACLGEN_GATHER_DEF(bfloat16_t)
ACLGEN_GATHER_DEF(float)
ACLGEN_GATHER_DEF(int16_t)
ACLGEN_GATHER_DEF(uint16_t)
ACLGEN_GATHER_DEF(int32_t)
ACLGEN_GATHER_DEF(uint32_t)

// =============================== brcb ===============================
namespace {
template <class T>
void VecBrcb(T* dst, T* src, uint16_t dBlk, uint16_t dRep, uint8_t repeat) {
    Issue issue("vbrcb (Brcb)", PIPE_V);
    g_workElem = sizeof(T);
    g_work += static_cast<uint64_t>(repeat) * kRepeatBytes;
    uint64_t perBlock = kBlock / sizeof(T);
    std::vector<std::pair<uint8_t*, T>> results;
    for (uint64_t r = 0; r < repeat; ++r) {
        for (uint64_t k = 0; k < 8; ++k) {
            T* from = src + r * 8 + k;
            Access(PIPE_V, reinterpret_cast<uint8_t*>(from), sizeof(T), false, true);
            T v;
            memcpy(&v, from, sizeof(T));
            uint8_t* block = reinterpret_cast<uint8_t*>(dst) + (r * dRep + k * dBlk) * kBlock;
            for (uint64_t e = 0; e < perBlock; ++e) results.emplace_back(block + e * sizeof(T), v);
        }
    }
    for (auto& [p, v] : results) {
        Access(PIPE_V, p, sizeof(T), true, true);
        memcpy(p, &v, sizeof(T));
    }
}
}  // namespace

#define ACLGEN_BRCB_DEF(T)                                                                      \
    int64_t vbrcb(T* dst, T* src, uint16_t dBlk, uint16_t dRep, uint8_t repeat) {              \
        VecBrcb(dst, src, dBlk, dRep, repeat);                                                  \
        return 0;                                                                               \
    }
ACLGEN_BRCB_DEF(half)
ACLGEN_BRCB_DEF(bfloat16_t)
ACLGEN_BRCB_DEF(float)
ACLGEN_BRCB_DEF(int16_t)
ACLGEN_BRCB_DEF(uint16_t)
ACLGEN_BRCB_DEF(int32_t)
ACLGEN_BRCB_DEF(uint32_t)
