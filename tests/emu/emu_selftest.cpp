// Self-test of the Ascend C host emulation (kernels/host/): each case is run by name from
// tests/it/emu_rules.rs. A broken rule prints "violation <rule> core <n> line <l>: <message>" and
// exits 3; a case that should work prints "ok <values>" and exits 0.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint64_t kUb = 192 * 1024;

/// Two cores add 1.5 and 2.5 to the same 8 floats with atomic add on: 4.0 each, on top of 0.
void AtomicAdd() {
    std::vector<float> gm(8, 0.0f);
    aclgen_emu::RegisterGm(gm.data(), gm.size() * 4, "y");
    for (int core = 0; core < 2; ++core) {
        aclgen_emu::ResetCore(core, 2, kUb);
        TPipe pipe;
        TQue<QuePosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 32);
        GlobalTensor<float> y;
        y.SetGlobalBuffer(gm.data());
        LocalTensor<float> t = q.AllocTensor<float>();
        Duplicate(t, core == 0 ? 1.5f : 2.5f, 8);
        q.EnQue(t);
        t = q.DeQue<float>();
        SetAtomicAdd<float>();
        DataCopy(y, t, 8);
        SetAtomicNone();
        q.FreeTensor(t);
    }
    std::printf("ok %g %g\n", gm[0], gm[7]);
}

/// Two cores write the same 8 floats without atomic add: a race on hardware.
void RacingCores() {
    std::vector<float> gm(8, 0.0f);
    aclgen_emu::RegisterGm(gm.data(), gm.size() * 4, "y");
    for (int core = 0; core < 2; ++core) {
        aclgen_emu::ResetCore(core, 2, kUb);
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        GlobalTensor<float> y;
        y.SetGlobalBuffer(gm.data());
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, 1.0f, 8);
        DataCopy(y, t, 8);  // line of the violation (on core 1)
    }
}

/// DataCopyPad GM->UB of 3 blocks of 3 floats, 2 floats apart in GM: each block lands on a
/// 32-byte boundary in UB; back to GM packed.
void DataCopyPadStrides() {
    std::vector<float> src(13);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
    std::vector<float> dst(9, -1.0f);
    aclgen_emu::RegisterGm(src.data(), src.size() * 4, "x");
    aclgen_emu::RegisterGm(dst.data(), dst.size() * 4, "y");
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 32);
    GlobalTensor<float> x, y;
    x.SetGlobalBuffer(src.data());
    y.SetGlobalBuffer(dst.data());
    LocalTensor<float> t = buf.Get<float>();
    DataCopyPad(t, x, DataCopyExtParams(3, 12, 8, 0, 0), DataCopyPadExtParams<float>(true, 0, 5, 9.0f));
    std::printf("ok ub %g %g %g %g %g | ", t.GetValue(0), t.GetValue(2), t.GetValue(3), t.GetValue(8), t.GetValue(16));
    DataCopyPad(y, t, DataCopyExtParams(3, 12, 0, 0, 0));
    for (float v : dst) std::printf("%g ", v);
    std::printf("\n");
}

/// float -> half and bfloat16 round to nearest even.
void CastRounding() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TBuf<TPosition::VECCALC> f, h, b;
    pipe.InitBuffer(f, 32);
    pipe.InitBuffer(h, 32);
    pipe.InitBuffer(b, 32);
    LocalTensor<float> ft = f.Get<float>();
    ft.SetValue(0, 1.0f + 1.0f / 2048);      // halfway between two halves: even (1.0)
    ft.SetValue(1, 1.0f + 3.0f / 2048);      // halfway: even (1 + 2^-9)
    ft.SetValue(2, 65520.0f);                // rounds to inf in half
    ft.SetValue(3, 1.0f + 1.0f / 256);       // halfway between two bfloat16: even (1.0)
    LocalTensor<half> ht = h.Get<half>();
    LocalTensor<bfloat16_t> bt = b.Get<bfloat16_t>();
    Cast(ht, ft, RoundMode::CAST_RINT, 4);
    Cast(bt, ft, RoundMode::CAST_RINT, 4);
    std::printf("ok %04x %04x %04x %04x\n", ht.GetValue(0).bits, ht.GetValue(1).bits, ht.GetValue(2).bits,
                bt.GetValue(3).bits);
}

void EnQueBeyondDepth() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 32);
    q.EnQue(q.AllocTensor<float>());
    q.EnQue(q.AllocTensor<float>());  // line of the violation
}

void UseAfterFree() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    LocalTensor<float> d = q.DeQue<float>();
    q.FreeTensor(d);
    Adds(t, t, 1.0f, 8);  // line of the violation
}

void FreeEnqueued() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 32);
    LocalTensor<float> t = q.AllocTensor<float>();
    q.EnQue(t);
    q.FreeTensor(t);  // line of the violation
}

void DeQueEmpty() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TQue<QuePosition::VECOUT, 2> q;
    pipe.InitBuffer(q, 2, 32);
    q.DeQue<float>();  // line of the violation
}

void OtherQueue() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> a;
    TQue<QuePosition::VECOUT, 2> b;
    pipe.InitBuffer(a, 2, 32);
    pipe.InitBuffer(b, 2, 32);
    b.EnQue(a.AllocTensor<float>());  // line of the violation
}

void VectorPastEnd() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<float> t = buf.Get<float>();
    Muls(t[8], t[8], 2.0f, 9);  // line of the violation: 8 + 9 > 16
}

void MisalignedVectorOperand() {
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<float> t = buf.Get<float>();
    Adds(t[3], t[3], 1.0f, 4);  // line of the violation: UB byte 12
}

void MisalignedUbAddress() {
    std::vector<float> src(8, 1.0f);
    aclgen_emu::RegisterGm(src.data(), 32, "x");
    aclgen_emu::ResetCore(0, 1, kUb);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    GlobalTensor<float> x;
    x.SetGlobalBuffer(src.data());
    DataCopy(buf.Get<float>()[3], x, 8);  // line of the violation: UB byte 12
}

void UbCapacityOnOtherProduct() {
    aclgen_emu::ResetCore(0, 1, 256 * 1024);  // ascend910: 256 KiB
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 200 * 1024);
    pipe.InitBuffer(b, 56 * 1024);
    std::printf("ok %llu\n", static_cast<unsigned long long>(aclgen_emu::Device().ubPeak));
    TBuf<TPosition::VECCALC> c;
    pipe.InitBuffer(c, 32);  // line of the violation
}

}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "";
    struct Case {
        const char* name;
        void (*run)();
    };
    const Case cases[] = {
        {"atomic_add", AtomicAdd},
        {"racing_cores", RacingCores},
        {"datacopypad_strides", DataCopyPadStrides},
        {"cast_rounding", CastRounding},
        {"enque_beyond_depth", EnQueBeyondDepth},
        {"use_after_free", UseAfterFree},
        {"free_enqueued", FreeEnqueued},
        {"deque_empty", DeQueEmpty},
        {"other_queue", OtherQueue},
        {"vector_past_end", VectorPastEnd},
        {"misaligned_ub_address", MisalignedUbAddress},
        {"misaligned_vector_operand", MisalignedVectorOperand},
        {"ub_capacity_on_other_product", UbCapacityOnOtherProduct},
    };
    for (const Case& c : cases) {
        if (which != c.name) continue;
        try {
            c.run();
            return 0;
        } catch (const aclgen_emu::Violation& v) {
            std::printf("violation %s core %lld line %d: %s\n", v.rule.c_str(), static_cast<long long>(v.core), v.line,
                        v.message.c_str());
            return 3;
        }
    }
    std::printf("unknown case %s\n", which.c_str());
    return 2;
}
