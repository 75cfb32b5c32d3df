// Test harness for the cuda device (src/cuda): the cpu device's corpus tests (with their C++
// references) and sasscomp's execution tests compile against this file and run through the CUDA
// driver API.  The driver is $RNDN_LIBCUDA, by default build/lib/libcuda_emu.so (the SASS
// emulator behind the driver's entry points, so CI runs this path without a GPU); on a machine
// with a GPU `RNDN_LIBCUDA=libcuda.so.1` runs the same tests on the hardware.
// The test parameter's first element picks the code: "ptxas" loads build/corpus/<arch>/<file>.cubin,
// "rndn" compiles build/corpus/<arch>/<file>.ptx with rndn::sasscomp; <arch> is the device's.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/corpus_util.h"
#include "cuda/cuda.h"
#include "ptx/ptx.h"
#include "sassemu/sassemu.h"  // Arg (header only)
#include "sasscomp/sasscomp.h"

#define RNDN_CORPUS_DEVICE_IS_SASSEMU 1  // leaves out the cpu device's own prefetcher test

namespace rndn::cpujit {
using sassemu::Arg;
using cuda::Dim3;
}  // namespace rndn::cpujit

namespace rndn::cpujit::testing {

using rndn::testing::Blocks;
using rndn::testing::SameD;
using rndn::testing::SameF;
using rndn::testing::UlpD;
using rndn::testing::UlpF;
using Kernel = cuda::Kernel;

inline std::string DriverLibrary() {
    const char *env = std::getenv("RNDN_LIBCUDA");
    return env && *env ? env : "build/lib/libcuda_emu.so";
}

// One device for the whole binary; a driver that cannot be opened fails every test that uses it.
inline Expected<cuda::Device *> TheDevice() {
    static Expected<std::unique_ptr<cuda::Device>> dev = cuda::Device::Open(0, DriverLibrary());
    if (!dev.ok()) return dev.status();
    return dev->get();
}

inline Expected<std::vector<uint8_t>> CubinFor(const std::string &mode, const std::string &arch, const std::string &file,
                                               const std::string &kernel) {
    if (mode == "ptxas") {
        std::string path = "build/corpus/" + arch + "/" + file + ".cubin";
        std::string s = rndn::testing::ReadText(path);
        if (s.empty()) return Status::Internal("missing corpus file " + path + " (run make corpus)");
        return std::vector<uint8_t>(s.begin(), s.end());
    }
    std::string path = "build/corpus/" + arch + "/" + file + ".ptx";
    std::string text = rndn::testing::ReadText(path);
    if (text.empty()) return Status::Internal("missing corpus file " + path + " (run make corpus)");
    RNDN_ASSIGN_OR_RETURN(ptx::Module m, ptx::ParseModule(text, path));
    RNDN_ASSIGN_OR_RETURN(sass::Arch a, sass::ParseArch(arch));
    RNDN_ASSIGN_OR_RETURN(std::vector<sasscomp::CompiledKernel> ks, sasscomp::CompileModule(m, a, kernel));
    return sasscomp::BuildCubin(ks, a);
}

class CorpusTest : public ::testing::TestWithParam<std::tuple<std::string, unsigned>>,
                   public rndn::testing::CorpusData<CorpusTest> {
protected:
    std::string mode() const { return std::get<0>(GetParam()); }
    // the device itself (tests that load their own cubins); the driver must open
    cuda::Device &dev() {
        auto d = TheDevice();
        if (!d.ok()) {
            ADD_FAILURE() << d.status().ToString();
            std::abort();
        }
        return **d;
    }
    std::string arch() const {
        auto d = TheDevice();
        return d.ok() ? (*d)->info().arch() : "sm_90";
    }

    const Kernel *K(const std::string &file, const std::string &kernel) {
        auto d = TheDevice();
        EXPECT_TRUE(d.ok()) << d.status().ToString();
        if (!d.ok()) return nullptr;
        static std::map<std::string, std::shared_ptr<const cuda::Module>> cache;
        const std::string key = mode() + "/" + file + "/" + (mode() == "ptxas" ? "" : kernel);
        auto it = cache.find(key);
        if (it == cache.end()) {
            auto bytes = CubinFor(mode(), arch(), file, kernel);
            EXPECT_TRUE(bytes.ok()) << file << "/" << kernel << " (" << mode() << ", " << arch() << "): " << bytes.status().ToString();
            if (!bytes.ok()) return nullptr;
            auto m = (*d)->LoadModule(*bytes);
            EXPECT_TRUE(m.ok()) << file << "/" << kernel << " (" << mode() << "): " << m.status().ToString();
            if (!m.ok()) return nullptr;
            it = cache.emplace(key, *m).first;
        }
        const Kernel *k = it->second->Find(kernel);
        EXPECT_NE(k, nullptr) << "no kernel " << kernel << " in " << file << " (" << mode() << ")";
        return k;
    }

    friend class rndn::testing::CorpusData<CorpusTest>;
    // CorpusData's buffers: managed memory
    void *AllocateBytes(size_t n) {
        auto d = TheDevice();
        return d.ok() ? (*d)->Allocate(n) : nullptr;
    }
    void FreeBytes(void *p) {
        if (auto d = TheDevice(); d.ok()) (*d)->Free(p);
    }

    Status Launch(const Kernel *k, Dim3 grid, Dim3 block, const std::vector<Arg> &args, uint32_t dyn = 0) {
        if (!k) return Status::Internal("no kernel");
        RNDN_ASSIGN_OR_RETURN(cuda::Device * d, TheDevice());
        std::vector<std::vector<uint8_t>> bytes;
        for (const auto &a : args) bytes.push_back(a.bytes);
        return d->Launch(*k, grid, block, dyn, bytes);
    }

    void TearDown() override { FreeBuffers(); }
};

inline ::testing::AssertionResult Ok(const Status &st) {
    if (st.ok()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << st.ToString();
}

inline Dim3 D1(uint32_t x) { return Dim3{x, 1, 1}; }

// The modes a test file runs: RNDN_CUDA_MODE ("ptxas" or "rndn", defined by the including file),
// and where RNDN_CUDA_MODES lists "rndn" too ("ptxas,rndn": tools/gpu-check.sh on a GPU), the
// corpus tests again on cubins of rndn::sasscomp (a kernel it cannot compile fails there with the
// compiler's error; make test runs ptxas's cubins only).
inline std::vector<std::tuple<std::string, unsigned>> ModesFor(const char *mode) {
    std::vector<std::tuple<std::string, unsigned>> out{{mode, 1u}};
    const char *env = std::getenv("RNDN_CUDA_MODES");
    if (std::string(mode) == "ptxas" && env && std::string(env).find("rndn") != std::string::npos) out.push_back({"rndn", 1u});
    return out;
}
#define RNDN_CJ_INSTANTIATE(suite)                                                   \
    INSTANTIATE_TEST_SUITE_P(Cuda, suite, ::testing::ValuesIn(ModesFor(RNDN_CUDA_MODE)), \
                             [](const auto &info) { return std::get<0>(info.param); })

}  // namespace rndn::cpujit::testing
