// The driver shim itself: opening, device facts, errors named clearly.
#include <gtest/gtest.h>

#include "common/corpus_util.h"
#include "cuda/harness.h"
#include "horseir/horseir.h"

namespace rndn::cpujit::testing {
namespace {

TEST(CudaDriver, OpensTheDeviceAndReportsItsArchitecture) {
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    const auto &info = (*d)->info();
    EXPECT_FALSE(info.name.empty());
    EXPECT_GE(info.major * 10 + info.minor, 75);
    EXPECT_GE(info.driver_version, 12000);
    std::printf("[cuda] %s: %s, %s, driver %d\n", info.library.c_str(), info.name.c_str(), info.arch().c_str(), info.driver_version);
}

TEST(CudaDriver, AMissingLibraryIsAClearError) {
    auto d = cuda::Device::Open(0, "/nonexistent/libcuda.so.1");
    ASSERT_FALSE(d.ok());
    EXPECT_NE(d.status().message().find("cannot load the CUDA driver /nonexistent/libcuda.so.1"), std::string::npos)
        << d.status().ToString();
}

TEST(CudaDriver, ABadImageAndAMissingKernelAreErrors) {
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    std::vector<uint8_t> junk(256, 0x5a);
    auto bad = (*d)->LoadModule(junk);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.status().message().find("cuModuleLoadData"), std::string::npos) << bad.status().ToString();
    auto bytes = CubinFor("ptxas", (*d)->info().arch(), "saxpy", "saxpy");
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto m = (*d)->LoadModule(*bytes);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    EXPECT_NE((*m)->Find("saxpy"), nullptr);
    EXPECT_EQ((*m)->Find("no_such_kernel"), nullptr);
}

// The same launch through ptxas's cubin and through rndn's: equal results, both equal to C++.
TEST(CudaDriver, RndnAndPtxasCubinsAgree) {
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    const int n = 5000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = 0.25f * (float)(i % 97) - 7.f, y[i] = (float)(i % 13) * 1.5f;
    for (const char *mode : {"ptxas", "rndn"}) {
        auto bytes = CubinFor(mode, (*d)->info().arch(), "saxpy", "saxpy");
        ASSERT_TRUE(bytes.ok()) << mode << ": " << bytes.status().ToString();
        auto m = (*d)->LoadModule(*bytes);
        ASSERT_TRUE(m.ok()) << mode << ": " << m.status().ToString();
        const cuda::Kernel *k = (*m)->Find("saxpy");
        ASSERT_NE(k, nullptr);
        float *dx = static_cast<float *>((*d)->Allocate(n * 4)), *dy = static_cast<float *>((*d)->Allocate(n * 4));
        ASSERT_TRUE(dx && dy);
        std::memcpy(dx, x.data(), n * 4);
        std::memcpy(dy, y.data(), n * 4);
        auto a = [](auto v) { return sassemu::Arg::Of(v).bytes; };
        Status st = (*d)->Launch(*k, {(uint32_t)Blocks(n, 128)}, {128}, 0, {a(n), a(2.5f), a((uint64_t)(uintptr_t)dx), a((uint64_t)(uintptr_t)dy)});
        ASSERT_TRUE(st.ok()) << mode << ": " << st.ToString();
        for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(dy[i], std::fmaf(2.5f, x[i], y[i]))) << mode << " " << i;
        (*d)->Free(dx);
        (*d)->Free(dy);
    }
}

// Host memory from an allocation noted in common/tracked_memory.h (here the interpreter's
// payload pool) stays registered after its first use until the allocation goes back to the
// system: a later launch reads it with no registration of its own (the emulated driver checks
// every access against the registered ranges), and releasing the pool ends the registration.
TEST(CudaDriver, KeptRegistrationsLastUntilTheirAllocationIsReleased) {
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    if ((*d)->info().pageable_memory_access) GTEST_SKIP() << "the device reads pageable memory: nothing is registered";
    cuda::Device &dev = **d;
    dev.set_keep_registrations(true);
    const int n = 50000;  // 200 KB per vector: the pooled path
    auto xv = hir::MakeVector(hir::TypeKind::F32, n), yv = hir::MakeVector(hir::TypeKind::F32, n);
    ASSERT_TRUE(xv.ok() && yv.ok());
    float *x = (*xv)->Data<float>(), *y = (*yv)->Data<float>();
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) {
        x[i] = 0.5f * (float)(i % 31) - 3.f, y[i] = (float)(i % 7);
        want[i] = std::fmaf(1.5f, x[i], y[i]);
    }
    const size_t before = dev.kept_registrations();
    // a part of each vector registered, as the runner registers a column, then unregistered
    ASSERT_TRUE(dev.RegisterHost(x + 100, 4000).ok());
    ASSERT_TRUE(dev.RegisterHost(y, (size_t)n * 4).ok());
    dev.UnregisterHost(x + 100);
    dev.UnregisterHost(y);
    EXPECT_EQ(dev.kept_registrations(), before + 2);
    EXPECT_GE(dev.kept_bytes(), (size_t)2 * n * 4);
    // memory outside any noted allocation is registered for its own use only
    std::vector<float> plain(n);
    ASSERT_TRUE(dev.RegisterHost(plain.data(), plain.size() * 4).ok());
    EXPECT_EQ(dev.kept_registrations(), before + 2);
    dev.UnregisterHost(plain.data());
    auto bytes = CubinFor("rndn", dev.info().arch(), "saxpy", "saxpy");
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto m = dev.LoadModule(*bytes);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    auto a = [](auto v) { return sassemu::Arg::Of(v).bytes; };
    Status st = dev.Launch(*(*m)->Find("saxpy"), {(uint32_t)Blocks(n, 128)}, {128}, 0,
                           {a(n), a(1.5f), a((uint64_t)(uintptr_t)x), a((uint64_t)(uintptr_t)y)});
    ASSERT_TRUE(st.ok()) << st.ToString();
    for (int i = 0; i < n; ++i) ASSERT_TRUE(SameF(y[i], want[i])) << i;
    // back in the pool the buffers stay registered; out of it, they are not
    xv->reset();
    yv->reset();
    EXPECT_EQ(dev.kept_registrations(), before + 2);
    hir::ReleasePooledPayloads(0);
    EXPECT_EQ(dev.kept_registrations(), 0u);
    // without keeping, the same use leaves nothing registered
    auto zv = hir::MakeVector(hir::TypeKind::F32, n);
    ASSERT_TRUE(zv.ok());
    dev.set_keep_registrations(false);
    ASSERT_TRUE(dev.RegisterHost((*zv)->Data<float>(), (size_t)n * 4).ok());
    dev.UnregisterHost((*zv)->Data<float>());
    EXPECT_EQ(dev.kept_registrations(), 0u);
    dev.set_keep_registrations(true);
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::cpujit::testing {
namespace {

// The non-empty items of a separated list ("a:b::c" -> a, b, c).
std::vector<std::string> SplitList(const std::string &list, char sep) {
    std::vector<std::string> out;
    for (size_t b = 0; b <= list.size();) {
        size_t e = list.find(sep, b);
        if (e == std::string::npos) e = list.size();
        if (e > b) out.push_back(list.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

// Diagnosis on a GPU (disabled: tools/gpu-check.sh runs it with --gtest_also_run_disabled_tests):
// saxpy from each cubin named in RNDN_SAXPY_CUBINS (colon-separated; run one
// file per process, as a fault poisons the context).  Skipped without the variable.
TEST(CudaDriver, DISABLED_SaxpyFromCubinFiles) {
    const char *env = std::getenv("RNDN_SAXPY_CUBINS");
    if (!env || !*env) GTEST_SKIP() << "RNDN_SAXPY_CUBINS is not set";
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    for (const std::string &path : SplitList(env, ':')) {
        std::string s = rndn::testing::ReadText(path);
        ASSERT_FALSE(s.empty()) << path;
        auto m = (*d)->LoadModule(std::vector<uint8_t>(s.begin(), s.end()));
        ASSERT_TRUE(m.ok()) << path << ": " << m.status().ToString();
        const cuda::Kernel *k = (*m)->Find("saxpy");
        ASSERT_NE(k, nullptr) << path;
        const int n = 5000;
        float *dx = static_cast<float *>((*d)->Allocate(n * 4)), *dy = static_cast<float *>((*d)->Allocate(n * 4));
        for (int i = 0; i < n; ++i) dx[i] = (float)(i % 91), dy[i] = 1.f;
        auto a = [](auto v) { return sassemu::Arg::Of(v).bytes; };
        Status st = (*d)->Launch(*k, {(uint32_t)Blocks(n, 128)}, {128}, 0, {a(n), a(2.f), a((uint64_t)(uintptr_t)dx), a((uint64_t)(uintptr_t)dy)});
        int bad = 0;
        if (st.ok())
            for (int i = 0; i < n; ++i) bad += dy[i] != 2.f * (float)(i % 91) + 1.f;
        std::printf("[cuda] %s: %s, %d of %d wrong\n", path.c_str(), st.ok() ? "ran" : st.ToString().c_str(), bad, n);
        EXPECT_TRUE(st.ok() && bad == 0) << path;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing

namespace rndn::cpujit::testing {
namespace {

// Diagnosis on a GPU (disabled, as above): kernel $RNDN_KERNEL from each cubin in
// RNDN_KERNEL_CUBINS, arguments from
// RNDN_KERNEL_ARGS ("p" a 1 MiB buffer of 0x3f bytes, a number a 32-bit integer; comma-separated), one
// block of 64 threads; prints whether it ran.  Skipped without the variables.
TEST(CudaDriver, DISABLED_KernelFromCubinFiles) {
    const char *files = std::getenv("RNDN_KERNEL_CUBINS"), *name = std::getenv("RNDN_KERNEL"), *spec = std::getenv("RNDN_KERNEL_ARGS");
    if (!files || !name || !spec) GTEST_SKIP() << "RNDN_KERNEL_CUBINS, RNDN_KERNEL and RNDN_KERNEL_ARGS are not set";
    auto d = TheDevice();
    ASSERT_TRUE(d.ok()) << d.status().ToString();
    for (const std::string &path : SplitList(files, ':')) {
        std::string s = rndn::testing::ReadText(path);
        auto m = (*d)->LoadModule(std::vector<uint8_t>(s.begin(), s.end()));
        ASSERT_TRUE(m.ok()) << path << ": " << m.status().ToString();
        const cuda::Kernel *k = (*m)->Find(name);
        ASSERT_NE(k, nullptr) << path;
        std::vector<std::vector<uint8_t>> args;
        std::vector<void *> bufs;
        // RNDN_KERNEL_FILL=random: each buffer's 32-bit words are floats of magnitude 2^-8..2^8
        // with random signs and mantissas (tools/gpu-bisect.py fill writes the same words), so
        // that the emulator can run the kernel on the same input; else 0x3f bytes
        const char *fill = std::getenv("RNDN_KERNEL_FILL");
        bool random = fill && std::string(fill) == "random";
        for (const std::string &a : SplitList(spec, ',')) {
            if (a == "p") {
                void *p = (*d)->Allocate(1 << 20);
                if (random) {
                    uint64_t x = 0x9e3779b97f4a7c15ull * (bufs.size() + 1);
                    auto *w = static_cast<uint32_t *>(p);
                    for (size_t i = 0; i < (1u << 18); ++i) {
                        x += 0x9e3779b97f4a7c15ull;  // splitmix64
                        uint64_t z = x;
                        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                        z ^= z >> 31;
                        w[i] = (uint32_t)(z & 0x807fffffu) | (uint32_t)((119 + (z >> 32) % 16) << 23);
                    }
                } else {
                    std::memset(p, 0x3f, 1 << 20);  // floats near 0.75, large integers
                }
                bufs.push_back(p);
                args.push_back(sassemu::Arg::Ptr(p).bytes);
            } else {
                args.push_back(sassemu::Arg::S32(std::atoi(a.c_str())).bytes);
            }
        }
        Status st = (*d)->Launch(*k, {2}, {64}, 0, args);
        std::printf("[cuda] %s %s: %s\n", path.c_str(), name, st.ok() ? "ran" : st.ToString().c_str());
        // RNDN_KERNEL_DUMP=DIR: the first 16 KiB of each buffer after the run, DIR/<cubin>.<kernel>.<n>.bin
        if (const char *dump = std::getenv("RNDN_KERNEL_DUMP"); dump && st.ok())
            for (size_t b = 0; b < bufs.size(); ++b) {
                std::string base = path.substr(path.rfind('/') + 1);
                std::string out = std::string(dump) + "/" + base + "." + name + "." + std::to_string(b) + ".bin";
                if (FILE *f = std::fopen(out.c_str(), "wb")) {
                    std::fwrite(bufs[b], 1, 16384, f);
                    std::fclose(f);
                }
            }
        for (void *p : bufs) (*d)->Free(p);
        EXPECT_TRUE(st.ok()) << path;
    }
}

}  // namespace
}  // namespace rndn::cpujit::testing
