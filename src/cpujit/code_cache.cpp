// The cpu device's code cache on disk (code_cache.h).
#include "cpujit/code_cache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <llvm/Config/llvm-config.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA1.h>

namespace rndn::cpujit {

namespace {

constexpr char kMagic[8] = {'R', 'N', 'D', 'N', 'O', 'B', 'J', '1'};
constexpr size_t kHeader = 8 + 8 + 20;  // magic, length, SHA-1 of the bytes
constexpr int kTrimEvery = 16;          // writes between two checks of the directory's size

std::string Hex(llvm::ArrayRef<uint8_t> h) {
    static const char *d = "0123456789abcdef";
    std::string s;
    for (uint8_t b : h) s += d[b >> 4], s += d[b & 15];
    return s;
}

std::array<uint8_t, 20> Sha1(llvm::StringRef data) {
    llvm::SHA1 h;
    h.update(data);
    std::array<uint8_t, 20> out{};
    llvm::StringRef r = h.final();
    std::memcpy(out.data(), r.data(), 20);
    return out;
}

// What makes compiled code differ besides its input: this shared object (any rebuild changes
// its size or mtime), LLVM's version and the code generator's target.
std::string BuildIdentity() {
    std::string id = "llvm " LLVM_VERSION_STRING "|cpu ";
    id += llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features;
    if (llvm::sys::getHostCPUFeatures(features)) {
        std::vector<std::string> on;
        for (auto &f : features)
            if (f.second) on.push_back(f.first().str());
        std::sort(on.begin(), on.end());
        for (auto &f : on) id += "," + f;
    }
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&BuildIdentity), &info) && info.dli_fname) {
        struct stat st;
        id += "|so ";
        id += info.dli_fname;
        if (stat(info.dli_fname, &st) == 0)
            id += " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    }
    return id;
}

}  // namespace

void DiskCodeCache::Configure(const std::string &dir, uint64_t max_bytes) {
    std::lock_guard<std::mutex> g(mu_);
    if (build_.empty()) build_ = BuildIdentity();
    dir_.clear();
    max_bytes_ = 0;
    preloaded_.clear();
    hits_ = writes_ = 0;
    if (dir.empty() || max_bytes == 0) return;
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return;  // unusable: stays off
    struct stat st;
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;
    dir_ = dir;
    max_bytes_ = max_bytes;
}

bool DiskCodeCache::enabled() const {
    std::lock_guard<std::mutex> g(mu_);
    return !dir_.empty();
}

std::string DiskCodeCache::KernelId(const std::string &module_key, const std::string &kernel) const {
    std::string s;
    {
        std::lock_guard<std::mutex> g(mu_);
        s = build_;
    }
    s += '\0';
    s += module_key;
    s += '\0';
    s += kernel;
    return Hex(Sha1(s));
}

std::string DiskCodeCache::ModuleId(const std::string &module_key) const { return KernelId(module_key, "\x01module"); }

std::string DiskCodeCache::Path(const char *prefix, const std::string &id) const { return dir_ + "/" + prefix + id + ".bin"; }

bool DiskCodeCache::HasModule(const std::string &module_id) const {
    std::lock_guard<std::mutex> g(mu_);
    if (dir_.empty()) return false;
    return access(Path("m_", module_id).c_str(), R_OK) == 0;
}

void DiskCodeCache::MarkModule(const std::string &module_id) {
    std::lock_guard<std::mutex> g(mu_);
    if (dir_.empty()) return;
    WriteFile(Path("m_", module_id), "", 0);
}

std::unique_ptr<llvm::MemoryBuffer> DiskCodeCache::Read(const std::string &id) const {
    if (dir_.empty()) return nullptr;
    auto buf = llvm::MemoryBuffer::getFile(Path("o_", id), /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buf) return nullptr;
    llvm::StringRef all = (*buf)->getBuffer();
    if (all.size() < kHeader || std::memcmp(all.data(), kMagic, 8) != 0) return nullptr;
    uint64_t n;
    std::memcpy(&n, all.data() + 8, 8);
    if (n != all.size() - kHeader) return nullptr;
    llvm::StringRef body = all.substr(kHeader);
    auto sum = Sha1(body);
    if (std::memcmp(sum.data(), all.data() + 16, 20) != 0) return nullptr;
    return llvm::MemoryBuffer::getMemBufferCopy(body, "rc_" + id);
}

bool DiskCodeCache::Preload(const std::string &id) {
    std::lock_guard<std::mutex> g(mu_);
    auto b = Read(id);
    if (!b) return false;
    preloaded_[id] = std::move(b);
    Touch(id);
    return true;
}

// A hit makes the file recently used (Trim removes the least recently written or used).
void DiskCodeCache::Touch(const std::string &id) const { (void)utimensat(AT_FDCWD, Path("o_", id).c_str(), nullptr, 0); }

std::unique_ptr<llvm::MemoryBuffer> DiskCodeCache::getObject(const llvm::Module *m) {
    const std::string &name = m->getModuleIdentifier();
    if (name.rfind("rc_", 0) != 0) return nullptr;
    const std::string id = name.substr(3);
    std::lock_guard<std::mutex> g(mu_);
    auto it = preloaded_.find(id);
    std::unique_ptr<llvm::MemoryBuffer> b;
    if (it != preloaded_.end()) {
        b = std::move(it->second);
        preloaded_.erase(it);
    } else {
        b = Read(id);
        if (b) Touch(id);
    }
    if (b) ++hits_;
    return b;
}

void DiskCodeCache::notifyObjectCompiled(const llvm::Module *m, llvm::MemoryBufferRef obj) {
    const std::string &name = m->getModuleIdentifier();
    if (name.rfind("rc_", 0) != 0) return;
    std::lock_guard<std::mutex> g(mu_);
    if (dir_.empty()) return;
    llvm::StringRef body = obj.getBuffer();
    std::string file(kHeader + body.size(), '\0');
    std::memcpy(file.data(), kMagic, 8);
    uint64_t n = body.size();
    std::memcpy(file.data() + 8, &n, 8);
    auto sum = Sha1(body);
    std::memcpy(file.data() + 16, sum.data(), 20);
    std::memcpy(file.data() + kHeader, body.data(), body.size());
    WriteFile(Path("o_", name.substr(3)), file.data(), file.size());
    if (++writes_ % kTrimEvery == 0) Trim();
}

// Whole files only: written under a name of this process and renamed over the final one.
void DiskCodeCache::WriteFile(const std::string &path, const char *data, size_t n) {
    const std::string tmp = path + ".tmp" + std::to_string(getpid());
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, data + done, n - done);
        if (w <= 0) break;
        done += static_cast<size_t>(w);
    }
    const bool ok = done == n && close(fd) == 0;
    if (!ok || rename(tmp.c_str(), path.c_str()) != 0) unlink(tmp.c_str());
}

// Past max_bytes: the least recently written files go until 3/4 of the limit is left.
void DiskCodeCache::Trim() {
    DIR *d = opendir(dir_.c_str());
    if (!d) return;
    struct File {
        std::string path;
        uint64_t bytes;
        int64_t mtime_ns;
    };
    std::vector<File> files;
    uint64_t total = 0;
    while (dirent *e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        std::string p = dir_ + "/" + e->d_name;
        struct stat st;
        if (stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        files.push_back({p, static_cast<uint64_t>(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec});
        total += static_cast<uint64_t>(st.st_size);
    }
    closedir(d);
    if (total <= max_bytes_) return;
    std::sort(files.begin(), files.end(), [](const File &a, const File &b) { return a.mtime_ns < b.mtime_ns; });
    for (const File &f : files) {
        if (total <= max_bytes_ / 4 * 3) break;
        if (unlink(f.path.c_str()) == 0) total -= f.bytes;
    }
}

}  // namespace rndn::cpujit
