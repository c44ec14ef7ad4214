// aclgen's own sim driver: reads a job file (tensors, attrs, the SoC's facts from aclgen's SoC
// table, cores), runs the op's generated tiling function on aclgen's host runtime (a TilingContext
// of its own, the IMPL_OP_OPTILING registry, sim/runtime/include/aclgen_host.h), then the kernel,
// built against aclgen's Ascend C runtime, on aclgen's AI Core model: one process per core, global
// memory shared. Writes the outputs. Nothing of CANN is included or copied.
//
// Exit codes: 0 ran, 2 bad job or data, 3 the kernel broke a rule (rule, core and file:line named),
// 4 tiling failed. stdout gets one JSON object either way; the kernel's own printing goes to stderr.
#include <sys/mman.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "aclgen_host.h"
#include "aclgen_model.h"
#include "stub_fun.h"

extern const char* const kAclgenOpType;
void AclgenLaunch(uint8_t** tensors, uint8_t* workspace, uint8_t* tiling);
extern "C" uint64_t AclgenKernelTilingStructBytes();

namespace {

struct Tensor {
    std::string name;
    bool output = false;
    bool null = false;
    std::string dtype;
    std::vector<int64_t> shape;
    std::string path;
    uint8_t* data = nullptr;
    uint64_t bytes = 0;
    ge::DataType dt = ge::DT_UNDEFINED;
    gert::Shape shape_;
};

struct Attr {
    std::string kind;
    int64_t i = 0;
    double f = 0;
    std::vector<int64_t> list;
};

struct Job {
    std::string soc;
    uint64_t ubBytes = 0;
    uint32_t aiCores = 0;
    uint32_t vectorCores = 0;
    uint32_t coreNum = 0;  // 0: the SoC's
    uint64_t ddrRate = 0;  // GM bytes per cycle per core: the cycle model's bandwidth
    std::string trace;     // per-core instruction traces: <trace>.<core>
    std::string exe;
    std::vector<std::string> ignorePrefixes;
    std::vector<Tensor> tensors;
    std::vector<Attr> attrs;
    // Kernel only (no tiling function): block dim, tiling key, workspace bytes, tiling data file.
    bool kernelOnly = false;
    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    uint64_t workspaceBytes = 0;
    std::string tilingPath;
};

std::string JsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

[[noreturn]] void BadJob(const std::string& msg) {
    std::cout << "{\"status\":\"bad_job\",\"message\":" << JsonString(msg) << "}" << std::endl;
    std::cerr << "aclgen sim: " << msg << std::endl;
    std::exit(2);
}

bool DtypeOf(const std::string& name, ge::DataType& t, size_t& bytes) {
    struct Entry {
        const char* name;
        ge::DataType t;
        size_t bytes;
    };
    static const Entry table[] = {
        {"FLOAT32", ge::DT_FLOAT, 4}, {"FLOAT16", ge::DT_FLOAT16, 2}, {"BFLOAT16", ge::DT_BF16, 2},
        {"INT32", ge::DT_INT32, 4},   {"INT64", ge::DT_INT64, 8},     {"INT8", ge::DT_INT8, 1},
        {"UINT8", ge::DT_UINT8, 1},   {"INT16", ge::DT_INT16, 2},     {"BOOL", ge::DT_BOOL, 1},
        {"DOUBLE", ge::DT_DOUBLE, 8},
    };
    for (const Entry& e : table) {
        if (name == e.name) {
            t = e.t;
            bytes = e.bytes;
            return true;
        }
    }
    return false;
}

Job ReadJob(const char* path) {
    std::ifstream in(path);
    if (!in) BadJob(std::string("cannot read job file ") + path);
    Job job;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string kind;
        ls >> kind;
        if (kind.empty()) continue;
        if (kind == "soc") {
            ls >> job.soc;
        } else if (kind == "ub_bytes") {
            ls >> job.ubBytes;
        } else if (kind == "core_num") {
            ls >> job.coreNum;
        } else if (kind == "ddr_rate") {
            ls >> job.ddrRate;
        } else if (kind == "trace") {
            ls >> job.trace;
        } else if (kind == "cores") {
            ls >> job.aiCores >> job.vectorCores;
        } else if (kind == "kernel_only") {
            job.kernelOnly = true;
            ls >> job.blockDim >> job.tilingKey >> job.workspaceBytes >> job.tilingPath;
        } else if (kind == "ignore_prefix") {
            std::string p;
            ls >> p;
            job.ignorePrefixes.push_back(p);
        } else if (kind == "input" || kind == "output") {
            Tensor t;
            t.output = kind == "output";
            size_t rank = 0;
            ls >> t.name >> t.dtype;
            if (t.dtype == "null") {
                t.null = true;
            } else {
                ls >> rank;
                t.shape.resize(rank);
                for (auto& d : t.shape) ls >> d;
                ls >> t.path;
            }
            job.tensors.push_back(std::move(t));
        } else if (kind.rfind("attr_", 0) == 0) {
            Attr a;
            a.kind = kind;
            std::string name;
            ls >> name;
            if (kind == "attr_int" || kind == "attr_bool") {
                ls >> a.i;
            } else if (kind == "attr_float") {
                ls >> a.f;
            } else if (kind == "attr_list") {
                size_t n = 0;
                ls >> n;
                a.list.resize(n);
                for (auto& x : a.list) ls >> x;
            } else {
                BadJob("attribute " + name + " has no value: sim passes every attribute the OpDef registers");
            }
            job.attrs.push_back(a);
        } else {
            BadJob("unknown job line: " + line);
        }
        if (ls.fail()) BadJob("malformed job line: " + line);
    }
    return job;
}

/// Global memory shared by every core process.
uint8_t* SharedAlloc(uint64_t bytes) {
    void* p = mmap(nullptr, bytes == 0 ? 1 : bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) BadJob("cannot map " + std::to_string(bytes) + " bytes of global memory");
    return static_cast<uint8_t*>(p);
}

void LoadTensors(Job& job) {
    for (Tensor& t : job.tensors) {
        if (t.null) continue;
        ge::DataType dt;
        size_t elem = 0;
        if (!DtypeOf(t.dtype, dt, elem)) BadJob("unsupported dtype " + t.dtype + " of " + t.name);
        uint64_t n = 1;
        gert::Shape shape;
        for (int64_t d : t.shape) {
            n *= static_cast<uint64_t>(d < 0 ? 0 : d);
            shape.AppendDim(d);
        }
        t.bytes = n * elem;
        // Outputs start as 0xFF (NaN in every float type): elements a kernel forgets show up.
        t.data = SharedAlloc(t.bytes);
        std::memset(t.data, 0xFF, t.bytes == 0 ? 1 : t.bytes);
        if (!t.output) {
            std::ifstream f(t.path, std::ios::binary);
            if (!f) BadJob("cannot read data of " + t.name + " from " + t.path);
            f.read(reinterpret_cast<char*>(t.data), static_cast<std::streamsize>(t.bytes));
            if (static_cast<uint64_t>(f.gcount()) != t.bytes || f.peek() != EOF) {
                BadJob("data file of " + t.name + " (" + t.path + ") does not hold exactly " + std::to_string(t.bytes) +
                       " bytes");
            }
        }
        AclgenModelRegisterGm(t.data, t.bytes, t.name.c_str());
        t.dt = dt;
        t.shape_ = shape;
    }
}

void WriteOutputs(const Job& job) {
    for (const Tensor& t : job.tensors) {
        if (!t.output || t.null) continue;
        std::ofstream f(t.path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(t.data), static_cast<std::streamsize>(t.bytes));
        if (!f) BadJob("cannot write output " + t.name + " to " + t.path);
    }
}

/// The SoC's facts from aclgen's SoC table, with its core counts set to `cores` when given.
fe::PlatFormInfos Platform(const Job& job) {
    fe::PlatFormInfos p;
    p.socName = job.soc;
    p.ubBytes = job.ubBytes;
    p.aiCores = job.coreNum != 0 ? job.coreNum : job.aiCores;
    p.vectorCores = job.coreNum != 0 ? job.coreNum : job.vectorCores;
    if (p.vectorCores == 0 || p.ubBytes == 0) BadJob("the job names no core count or UB size of SoC " + job.soc);
    return p;
}

/// file:line of the innermost frame in the kernel's own sources (not the runtime's, not the model's).
std::pair<std::string, int> KernelLine(const Job& job, const AclgenCoreReport& r) {
    if (r.frameCount <= 0 || job.exe.empty()) return {"", 0};
    std::string cmd = "addr2line -i -a -e '" + job.exe + "'";
    for (int i = 0; i < r.frameCount; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), " 0x%llx", static_cast<unsigned long long>(r.frames[i] - 1));
        cmd += buf;
    }
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return {"", 0};
    char line[4096];
    std::pair<std::string, int> found{"", 0};
    while (std::fgets(line, sizeof(line), p) != nullptr) {
        std::string s(line);
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
        if (s.rfind("0x", 0) == 0 || !found.first.empty()) continue;
        size_t colon = s.rfind(':');
        if (colon == std::string::npos) continue;
        std::string file = s.substr(0, colon);
        std::string rest = s.substr(colon + 1);
        size_t sp = rest.find(' ');
        if (sp != std::string::npos) rest = rest.substr(0, sp);
        int lineNo = std::atoi(rest.c_str());
        if (file == "??" || lineNo <= 0 || file.rfind("/usr/", 0) == 0) continue;
        bool ignored = false;
        for (const std::string& prefix : job.ignorePrefixes) {
            if (file.rfind(prefix, 0) == 0) ignored = true;
        }
        if (!ignored) found = {file, lineNo};
    }
    pclose(p);
    return found;
}

/// The op's tiling function, looked up in the IMPL_OP_OPTILING registry, on a TilingContext of
/// the job's tensors, attributes and SoC. Returns 0, or the exit code of a failure.
int RunTiling(Job& job, uint32_t& blockDim, uint64_t& tilingKey, uint64_t& workspaceBytes,
              std::vector<uint8_t>& tilingData) {
    gert::TilingContext ctx(std::string(kAclgenOpType) + "_sim", kAclgenOpType, 64 * 1024);
    for (Tensor& t : job.tensors) {
        if (t.null) BadJob("tensor " + t.name + " is null: sim passes every tensor");
        gert::TilingTensor tt{gert::StorageShape(t.shape_), gert::CompileTimeTensorDesc(t.dt, ge::FORMAT_ND)};
        (t.output ? ctx.Outputs() : ctx.Inputs()).push_back(tt);
    }
    for (const Attr& a : job.attrs) {
        gert::RuntimeAttrs::Attr attr;
        if (a.kind == "attr_int") {
            attr.kind = gert::RuntimeAttrs::Kind::Int;
            attr.i = a.i;
        } else if (a.kind == "attr_bool") {
            attr.kind = gert::RuntimeAttrs::Kind::Bool;
            attr.b = a.i != 0;
        } else if (a.kind == "attr_float") {
            attr.kind = gert::RuntimeAttrs::Kind::Float;
            attr.f = static_cast<float>(a.f);
        } else {
            attr.kind = gert::RuntimeAttrs::Kind::ListInt;
            attr.list = gert::TypedContinuousVector<int64_t>(a.list);
        }
        ctx.MutableAttrs().Append(attr);
    }
    ctx.SetPlatform(Platform(job));
    const auto* impl = gert::OpImplRegistry::GetInstance().GetOpImpl(kAclgenOpType);
    if (impl == nullptr || impl->tiling == nullptr) BadJob(std::string("no IMPL_OP_OPTILING for ") + kAclgenOpType);
    if (impl->tiling(&ctx) != ge::GRAPH_SUCCESS || ctx.GetBlockDim() == 0) {
        std::cout << "{\"status\":\"tiling_failed\",\"message\":"
                  << JsonString(std::string("TilingFunc of ") + kAclgenOpType +
                                " failed (see its message on stderr) or set no block dim")
                  << "}" << std::endl;
        return 4;
    }
    blockDim = ctx.GetBlockDim();
    tilingKey = ctx.GetTilingKey();
    gert::TilingData* raw = ctx.GetRawTilingData();
    const uint8_t* data = static_cast<const uint8_t*>(raw->GetData());
    tilingData.assign(data, data + raw->GetDataSize());
    workspaceBytes = 0;
    size_t wsNum = ctx.GetWorkspaceNum();
    for (size_t i = 0; i < wsNum; ++i) workspaceBytes += ctx.GetWorkspaceSizes(wsNum)[i];
    return 0;
}

/// The cycle model's figures: the slowest core's cycles and its pipes' busy cycles, every core's
/// cycles, GM bytes moved, and the bytes of the tensors the kernel touched.
std::string CycleJson(const Job& job, uint32_t blockDim) {
    static const char* names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX"};
    uint32_t slowest = 0;
    uint64_t touched = 0, gmRead = 0, gmWrite = 0;
    std::string cores = "[";
    for (uint32_t c = 0; c < blockDim; ++c) {
        const AclgenCoreReport& r = *AclgenModelReport(c);
        if (r.cycles > AclgenModelReport(slowest)->cycles) slowest = c;
        touched |= r.touched;
        gmRead += r.gmRead;
        gmWrite += r.gmWrite;
        cores += (c ? "," : "") + std::to_string(r.cycles);
    }
    cores += "]";
    const AclgenCoreReport& s = *AclgenModelReport(slowest);
    std::string busy = "{";
    bool first = true;
    for (int p : {0, 1, 4, 5}) {
        busy += std::string(first ? "" : ",") + "\"" + names[p] + "\":" + std::to_string(s.busy[p]);
        first = false;
    }
    busy += "}";
    // Registered in job order: the tensors come first (tiling and workspace after).
    uint64_t needed = 0;
    size_t i = 0;
    for (const Tensor& t : job.tensors) {
        if (t.null) continue;
        if (i < 64 && (touched >> i) & 1) needed += t.bytes;
        ++i;
    }
    return "{\"modeled_cycles\":" + std::to_string(s.cycles) + ",\"slowest_core\":" + std::to_string(slowest) +
           ",\"busy\":" + busy + ",\"core_cycles\":" + cores + ",\"gm_read\":" + std::to_string(gmRead) +
           ",\"gm_write\":" + std::to_string(gmWrite) + ",\"gm_bytes_needed\":" + std::to_string(needed) + "}";
}

void OnAbort(int) {
    // An assert in the kernel's own code (or the C library) printed its message and raised SIGABRT.
    AclgenModelFail("kernel-assert", "the kernel aborted (its message is printed above)");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) BadJob("usage: aclgen-sim JOB_FILE");
    Job job = ReadJob(argv[1]);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) job.exe.assign(exe, static_cast<size_t>(n));
    LoadTensors(job);

    uint32_t blockDim = 0;
    uint64_t tilingKey = 0;
    uint64_t workspaceBytes = 0;
    std::vector<uint8_t> tilingData;
    if (job.kernelOnly) {
        blockDim = job.blockDim;
        tilingKey = job.tilingKey;
        workspaceBytes = job.workspaceBytes;
        std::ifstream f(job.tilingPath, std::ios::binary);
        if (!f) BadJob("cannot read the tiling data from " + job.tilingPath);
        tilingData.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        if (blockDim == 0) BadJob("block dim 0");
    } else {
        int rc = RunTiling(job, blockDim, tilingKey, workspaceBytes, tilingData);
        if (rc != 0) return rc;
    }
    uint64_t tilingBytes = tilingData.size();

    uint64_t structBytes = AclgenKernelTilingStructBytes();
    if (structBytes > tilingBytes) {
        std::cerr << "aclgen sim: rule 'tiling' broken: the kernel's tiling struct has " << structBytes
                  << " bytes, the host tiling wrote " << tilingBytes << std::endl;
        std::cout << "{\"status\":\"violation\",\"rule\":\"tiling\",\"core\":0,\"file\":\"\",\"line\":0,\"message\":"
                  << JsonString("the kernel's tiling struct is larger than the tiling data the host wrote") << "}"
                  << std::endl;
        return 3;
    }
    uint8_t* tilingGm = SharedAlloc(tilingBytes);
    std::memcpy(tilingGm, tilingData.data(), tilingBytes);
    AclgenModelRegisterGm(tilingGm, tilingBytes, "tiling");
    uint8_t* workspace = SharedAlloc(workspaceBytes == 0 ? 32 : workspaceBytes);
    AclgenModelRegisterGm(workspace, workspaceBytes == 0 ? 32 : workspaceBytes, "workspace");
    if (job.coreNum != 0 && blockDim > job.coreNum) {
        BadJob("the tiling set block dim " + std::to_string(blockDim) + " on " + std::to_string(job.coreNum) +
               " cores");
    }
    if (blockDim > 64 && job.coreNum == 0) BadJob("block dim " + std::to_string(blockDim) + " exceeds 64 cores");

    // ---- the kernel: one process per core ----
    AclgenModelInit(blockDim);
    std::vector<uint8_t*> args;
    for (Tensor& t : job.tensors) args.push_back(t.data);
    std::fflush(stdout);
    std::fflush(stderr);
    std::vector<pid_t> pids(blockDim, -1);
    // Each core's printing (KERNEL_LOG, the kernel's printf) into its own file: replayed on
    // stderr in core order, and the source of a failed check's message.
    std::vector<int> logs(blockDim, -1);
    for (uint32_t core = 0; core < blockDim; ++core) {
        FILE* f = tmpfile();
        if (f == nullptr) BadJob("cannot create a log file for core " + std::to_string(core));
        logs[core] = dup(fileno(f));
        std::fclose(f);
    }
    for (uint32_t core = 0; core < blockDim; ++core) {
        pid_t pid = fork();
        if (pid < 0) BadJob("fork failed");
        if (pid == 0) {
            dup2(logs[core], 1);
            dup2(logs[core], 2);
            std::signal(SIGABRT, OnAbort);
            AclgenModelSetLaunch(core, blockDim, tilingKey);
            std::string trace = job.trace.empty() ? "" : job.trace + "." + std::to_string(core);
            AclgenModelSetCosts(job.ddrRate, trace.c_str());
            // The core's Unified Buffer: page-aligned, so the model can protect its pages.
            void* ub = mmap(nullptr, job.ubBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (ub == MAP_FAILED) AclgenModelFail("model", "cannot map the Unified Buffer");
            AclgenModelCoreBegin(core, static_cast<uint8_t*>(ub), job.ubBytes);
            AclgenLaunch(args.data(), workspace, tilingGm);
            AclgenModelCoreEnd();
            std::fflush(stdout);
            std::fflush(stderr);
            _exit(0);
        }
        pids[core] = pid;
    }
    // Every core runs to its end or its first violation; a core waiting in SyncAll for one that
    // failed stops without a report (status 3), so the lowest failing core is the same each run.
    std::vector<int> statuses(blockDim, 0);
    for (uint32_t core = 0; core < blockDim; ++core) waitpid(pids[core], &statuses[core], 0);
    std::vector<std::string> output(blockDim);
    for (uint32_t core = 0; core < blockDim; ++core) {
        lseek(logs[core], 0, SEEK_SET);
        char buf[4096];
        ssize_t got;
        while ((got = read(logs[core], buf, sizeof(buf))) > 0) output[core].append(buf, static_cast<size_t>(got));
        close(logs[core]);
        std::cerr << output[core];
    }
    uint64_t ubPeak = 0;
    for (uint32_t core = 0; core < blockDim; ++core) {
        AclgenCoreReport& r = *AclgenModelReport(core);
        if (r.status == 0 && WIFEXITED(statuses[core]) && WEXITSTATUS(statuses[core]) == 0) {
            ubPeak = std::max<uint64_t>(ubPeak, r.ubPeak);
            continue;
        }
        if (r.status == 3) continue;  // stopped after another core failed
        std::string rule = r.status == 1 ? r.rule : "crash";
        std::string message = r.status == 1 ? r.message : "";
        if (r.status != 1) {
            if (WIFSIGNALED(statuses[core])) {
                message = std::string("the core's process died of signal ") + strsignal(WTERMSIG(statuses[core]));
            } else {
                message = "the core's process exited with " + std::to_string(WEXITSTATUS(statuses[core])) +
                          " before the kernel returned";
            }
        }
        if (rule == "kernel-assert" && message.find("the kernel aborted") == 0) {
            // The abort printed why: its last lines name what broke.
            std::vector<std::string> lines;
            std::istringstream in(output[core]);
            std::string l;
            while (std::getline(in, l)) {
                if (!l.empty()) lines.push_back(l);
            }
            std::string why;
            for (size_t i = lines.size() > 2 ? lines.size() - 2 : 0; i < lines.size(); ++i) {
                why += (why.empty() ? "" : " ") + lines[i];
            }
            message = "the kernel aborted: " + (why.empty() ? std::string("(it printed nothing)") : why);
        }
        auto [file, line] = KernelLine(job, r);
        std::cerr << "aclgen sim: rule '" << rule << "' broken in the kernel on core " << core << " at " << file << ":"
                  << line << ": " << message << std::endl;
        std::cout << "{\"status\":\"violation\",\"rule\":" << JsonString(rule) << ",\"core\":" << core
                  << ",\"file\":" << JsonString(file) << ",\"line\":" << line << ",\"message\":" << JsonString(message)
                  << "}" << std::endl;
        return 3;
    }
    WriteOutputs(job);
    std::cout << "{\"status\":\"ok\",\"block_dim\":" << blockDim << ",\"tiling_key\":" << tilingKey
              << ",\"tiling_bytes\":" << tilingBytes << ",\"workspace_bytes\":" << workspaceBytes
              << ",\"ub_bytes_per_core\":" << ubPeak << ",\"ub_capacity\":" << job.ubBytes
              << (job.ddrRate == 0 ? std::string() : ",\"cycle_model\":" + CycleJson(job, blockDim)) << "}"
              << std::endl;
    return 0;
}
