// codegen's kernel device interface over the SASS emulator: PTX -> ptxas (a subprocess: tests and
// tools only; the production path is our own assembler) -> cubin -> rndn::sassemu.  Modules are
// cached by PTX text; every launch can check ptxas's control codes for hazards.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "codegen/codegen.h"
#include "sassemu/sassemu.h"

namespace rndn::sassemu::testing {

class PtxasKernels final : public codegen::KernelDevice {
public:
    PtxasKernels(std::string ptxas, std::string arch, unsigned workers, bool check_hazards)
        : ptxas_(std::move(ptxas)), arch_(std::move(arch)), dev_(workers), check_hazards_(check_hazards) {
        char tmpl[] = "/tmp/rndn-sassemu-XXXXXX";
        if (mkdtemp(tmpl)) dir_ = tmpl;
    }
    ~PtxasKernels() override {
        if (!dir_.empty()) std::system(("rm -rf " + dir_).c_str());
    }

    Expected<std::shared_ptr<const void>> LoadModule(const std::string &ptx, const std::function<bool()> * /*cancel*/) override {
        auto it = cache_.find(ptx);
        if (it != cache_.end()) return std::shared_ptr<const void>(it->second);
        if (dir_.empty()) return Status::Internal("no temporary directory");
        std::string base = dir_ + "/m" + std::to_string(cache_.size());
        std::ofstream(base + ".ptx") << ptx;
        std::string cmd = ptxas_ + " -O3 -arch=" + arch_ + " " + base + ".ptx -o " + base + ".cubin 2>" + base + ".log";
        int rc = std::system(cmd.c_str());
        if (rc != 0) {
            std::ifstream log(base + ".log");
            std::stringstream ss;
            ss << log.rdbuf();
            return Status::Internal("ptxas failed (" + arch_ + "): " + ss.str());
        }
        std::ifstream in(base + ".cubin", std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
        RNDN_ASSIGN_OR_RETURN(std::shared_ptr<const Module> m, dev_.LoadModule(bytes));
        cache_[ptx] = m;
        ++compiled_;
        return std::shared_ptr<const void>(std::move(m));
    }
    const void *FindKernel(const void *module, const std::string &name) override {
        return static_cast<const Module *>(module)->Find(name);
    }
    Status Launch(const void *kernel, uint32_t grid, uint32_t block, const std::vector<std::vector<uint8_t>> &args,
                  const std::function<bool()> * /*cancel*/) override {
        LaunchConfig cfg;
        cfg.grid = {grid, 1, 1};
        cfg.block = {block, 1, 1};
        cfg.check_hazards = check_hazards_;
        std::vector<Arg> a(args.size());
        for (size_t i = 0; i < args.size(); ++i) a[i].bytes = args[i];
        LaunchStats st;
        Status s = dev_.Launch(*static_cast<const Kernel *>(kernel), cfg, a, &st);
        warp_instructions_ += st.warp_instructions;
        seconds_ += st.seconds;
        ++launches_;
        for (const Hazard &h : st.hazards) hazards_.push_back(h.kernel + " " + std::to_string(h.address) + ": " + h.what);
        return s;
    }
    void RegisterMemory(const void *p, size_t bytes) override { dev_.RegisterMemory(p, bytes); }
    void UnregisterMemory(const void *p) override { dev_.UnregisterMemory(p); }

    unsigned workers() const { return dev_.worker_threads(); }
    uint64_t warp_instructions() const { return warp_instructions_; }
    double seconds() const { return seconds_; }  // inside launches
    int launches() const { return launches_; }
    int compiled() const { return compiled_; }
    const std::vector<std::string> &hazards() const { return hazards_; }

private:
    std::string ptxas_, arch_, dir_;
    Device dev_;
    bool check_hazards_;
    std::map<std::string, std::shared_ptr<const Module>> cache_;
    uint64_t warp_instructions_ = 0;
    double seconds_ = 0;
    int launches_ = 0, compiled_ = 0;
    std::vector<std::string> hazards_;
};

}  // namespace rndn::sassemu::testing
