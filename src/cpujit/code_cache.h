// The cpu device's code cache on disk: object code of -O2 compiled kernels, shared by every
// process that names the same directory (every backend of a PostgreSQL server) and kept across
// restarts, so a query shape compiled once is not compiled again by the next session.
//
// Files: <dir>/o_<id>.bin, the object of one kernel (LLVM module), id = SHA-1 of the build's
// identity (rndn's shared object: path, size, mtime; LLVM's version; the target CPU and its
// features), the module's PTX text and the kernel's name; <dir>/m_<id>.bin, a marker written
// when every kernel of a module is in the cache.  Each object file holds a header (magic,
// length, SHA-1 of the bytes) checked on every read: a short, corrupt or foreign file is a miss,
// never a crash.  Written to a temporary name and renamed (readers see whole files only).  The
// directory is bounded: past its byte limit the oldest files go (checked every few writes).
// Modules with module-scope variables (their addresses are compiled into the code) are never
// cached.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <llvm/ExecutionEngine/ObjectCache.h>

namespace rndn::cpujit {

class DiskCodeCache final : public llvm::ObjectCache {
public:
    // dir empty or max_bytes 0: off.  The directory is created when missing.
    void Configure(const std::string &dir, uint64_t max_bytes);
    bool enabled() const;

    // Ids (hex SHA-1) of a module's kernel and of the whole module.
    std::string KernelId(const std::string &module_key, const std::string &kernel) const;
    std::string ModuleId(const std::string &module_key) const;

    // Whether every kernel of the module is in the cache (its marker exists).
    bool HasModule(const std::string &module_id) const;
    void MarkModule(const std::string &module_id);

    // Reads and checks a kernel's object; when present it is kept for the next getObject of the
    // LLVM module named `id` (so the compile layer never sees a miss after this said hit).
    bool Preload(const std::string &id);

    // llvm::ObjectCache (LLVM modules named "rc_<id>" only)
    void notifyObjectCompiled(const llvm::Module *m, llvm::MemoryBufferRef obj) override;
    std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module *m) override;

    uint64_t hits() const { return hits_; }
    uint64_t writes() const { return writes_; }

private:
    std::string Path(const char *prefix, const std::string &id) const;
    std::unique_ptr<llvm::MemoryBuffer> Read(const std::string &id) const;
    void Touch(const std::string &id) const;
    void WriteFile(const std::string &path, const char *data, size_t n);
    void Trim();

    mutable std::mutex mu_;
    std::string dir_;
    uint64_t max_bytes_ = 0;
    std::string build_;  // the build's identity, part of every id
    std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> preloaded_;
    uint64_t hits_ = 0, writes_ = 0;
};

}  // namespace rndn::cpujit
