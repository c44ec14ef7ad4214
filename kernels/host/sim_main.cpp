// aclgen sim driver: reads a job file (tensors, attrs, product), runs the op's generated tiling
// function, then its kernel over every emulated core in turn, and writes the outputs.
//
// Linked with the generated op_host/<op>_tiling.cpp, op_kernel/<op>.cpp and a small entry file
// that `aclgen sim` writes (AclgenOpType, AclgenLaunch). Exit codes: 0 ran, 2 bad job or data,
// 3 a hardware rule was broken (message names rule, core and call site), 4 tiling failed.
// stdout gets one JSON object either way.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "aclgen_emu/runtime.h"
#include "aclgen_emu/tiling_context.h"

extern const char* const kAclgenOpType;
void AclgenLaunch(uint8_t** tensors, uint8_t* workspace, uint8_t* tiling);

namespace {

struct Tensor {
    std::string name;
    bool output = false;
    bool null = false;
    std::string dtype;
    std::vector<int64_t> shape;
    std::string path;
    std::vector<uint8_t> data;
};

struct Job {
    std::string soc;
    uint64_t ubBytes = 0;
    uint32_t coreNum = 1;
    std::vector<Tensor> tensors;
    gert::RuntimeAttrs attrs;
};

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
            job.tensors.push_back(t);
        } else if (kind.rfind("attr_", 0) == 0) {
            gert::AttrValue v;
            std::string name;
            ls >> name;
            if (kind == "attr_int") {
                v.kind = gert::AttrValue::Int;
                ls >> v.i;
            } else if (kind == "attr_bool") {
                v.kind = gert::AttrValue::Bool;
                int b = 0;
                ls >> b;
                v.b = b != 0;
            } else if (kind == "attr_float") {
                v.kind = gert::AttrValue::Float;
                ls >> v.f;
            } else if (kind == "attr_list") {
                v.kind = gert::AttrValue::ListInt;
                size_t n = 0;
                ls >> n;
                std::vector<int64_t> items(n);
                for (auto& x : items) ls >> x;
                v.list = gert::TypedContinuousVector<int64_t>(items);
            }
            job.attrs.attrs_.push_back(v);
        } else {
            BadJob("unknown job line: " + line);
        }
        if (ls.fail()) BadJob("malformed job line: " + line);
    }
    return job;
}

void LoadTensors(Job& job) {
    for (Tensor& t : job.tensors) {
        if (t.null) continue;
        ge::DataType dt;
        size_t elem = 0;
        if (!DtypeOf(t.dtype, dt, elem)) BadJob("unsupported dtype " + t.dtype + " of " + t.name);
        uint64_t n = 1;
        for (int64_t d : t.shape) n *= static_cast<uint64_t>(d < 0 ? 0 : d);
        uint64_t bytes = n * elem;
        // At least one byte so every tensor has a distinct address; outputs start as 0xFF
        // (NaN in every float type) so elements a kernel forgets to write are visible.
        t.data.assign(bytes == 0 ? 1 : bytes, 0xFF);
        if (!t.output) {
            std::ifstream f(t.path, std::ios::binary);
            if (!f) BadJob("cannot read data of " + t.name + " from " + t.path);
            f.read(reinterpret_cast<char*>(t.data.data()), static_cast<std::streamsize>(bytes));
            if (static_cast<uint64_t>(f.gcount()) != bytes || f.peek() != EOF) {
                BadJob("data file of " + t.name + " (" + t.path + ") does not hold exactly " +
                       std::to_string(bytes) + " bytes");
            }
        }
        aclgen_emu::RegisterGm(t.data.data(), bytes, t.name);
    }
}

void FillContext(const Job& job, gert::TilingContext& ctx) {
    ctx.nodeName = kAclgenOpType;
    ctx.platform.coreNumAiv = job.coreNum;
    ctx.platform.ubBytes = job.ubBytes;
    ctx.platform.socVersion = job.soc;
    ctx.attrs = job.attrs;
    for (const Tensor& t : job.tensors) {
        ge::DataType dt = ge::DT_UNDEFINED;
        size_t elem = 0;
        if (!t.null) DtypeOf(t.dtype, dt, elem);
        auto shape = gert::StorageShape(gert::Shape(t.shape));
        if (t.output) {
            ctx.outShapes.push_back(shape);
            ctx.outDescs.push_back(gert::CompileTimeTensorDesc(dt));
        } else {
            ctx.inShapes.push_back(shape);
            ctx.inDescs.push_back(gert::CompileTimeTensorDesc(dt));
        }
    }
}

void WriteOutputs(const Job& job) {
    for (const Tensor& t : job.tensors) {
        if (!t.output || t.null) continue;
        std::ofstream f(t.path, std::ios::binary | std::ios::trunc);
        uint64_t bytes = 1;
        ge::DataType dt;
        size_t elem = 0;
        DtypeOf(t.dtype, dt, elem);
        bytes = elem;
        for (int64_t d : t.shape) bytes *= static_cast<uint64_t>(d < 0 ? 0 : d);
        f.write(reinterpret_cast<const char*>(t.data.data()), static_cast<std::streamsize>(bytes));
        if (!f) BadJob("cannot write output " + t.name + " to " + t.path);
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) BadJob("usage: aclgen-sim JOB_FILE");
    Job job = ReadJob(argv[1]);
    LoadTensors(job);

    auto& registry = aclgen_emu::TilingRegistry();
    auto tiling = registry.find(kAclgenOpType);
    if (tiling == registry.end()) BadJob(std::string("no IMPL_OP_OPTILING for ") + kAclgenOpType);
    gert::TilingContext ctx;
    FillContext(job, ctx);
    std::string where = "tiling";
    try {
        if (tiling->second(&ctx) != ge::GRAPH_SUCCESS || ctx.GetBlockDim() == 0) {
            std::cout << "{\"status\":\"tiling_failed\",\"message\":"
                      << JsonString(std::string("TilingFunc of ") + kAclgenOpType +
                                    " failed (see its message on stderr) or set no block dim")
                      << "}" << std::endl;
            return 4;
        }
        aclgen_emu::DeviceState& dev = aclgen_emu::Device();
        dev.tilingKey = ctx.GetTilingKey();
        dev.tilingBytes = ctx.GetRawTilingData()->GetDataSize();
        std::vector<uint8_t> tilingGm(ctx.GetRawTilingData()->GetCapacity());
        std::memcpy(tilingGm.data(), ctx.GetRawTilingData()->GetData(), tilingGm.size());
        aclgen_emu::RegisterGm(tilingGm.data(), dev.tilingBytes, "tiling");
        uint64_t wsBytes = 0;
        for (size_t w : ctx.workspace) wsBytes += w;
        std::vector<uint8_t> workspace(wsBytes == 0 ? 32 : wsBytes, 0);
        aclgen_emu::RegisterGm(workspace.data(), workspace.size(), "workspace");

        std::vector<uint8_t*> args;
        for (Tensor& t : job.tensors) args.push_back(t.null ? nullptr : t.data.data());
        where = "kernel";
        for (uint32_t core = 0; core < ctx.GetBlockDim(); ++core) {
            aclgen_emu::ResetCore(core, ctx.GetBlockDim(), job.ubBytes);
            AclgenLaunch(args.data(), workspace.data(), tilingGm.data());
        }
        WriteOutputs(job);
        std::cout << "{\"status\":\"ok\",\"block_dim\":" << ctx.GetBlockDim() << ",\"tiling_key\":" << ctx.GetTilingKey()
                  << ",\"tiling_bytes\":" << dev.tilingBytes << ",\"workspace_bytes\":" << wsBytes
                  << ",\"ub_bytes_per_core\":" << dev.ubPeak << ",\"ub_capacity\":" << job.ubBytes << "}"
                  << std::endl;
        return 0;
    } catch (const aclgen_emu::Violation& v) {
        std::cerr << "aclgen sim: rule '" << v.rule << "' broken in the " << where << " on core " << v.core << " at "
                  << v.file << ":" << v.line << ": " << v.message << std::endl;
        std::cout << "{\"status\":\"violation\",\"rule\":" << JsonString(v.rule) << ",\"core\":" << v.core
                  << ",\"file\":" << JsonString(v.file) << ",\"line\":" << v.line
                  << ",\"message\":" << JsonString(v.message) << "}" << std::endl;
        return 3;
    }
}
