// Column files on disk (see column_files.h).  Plain POSIX calls only: the column writer calls
// these from its worker loop and backends from inside the error boundary; none raises.
#include "executor/column_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace rndn::exec {

namespace {

constexpr char kMagic[8] = {'r', 'n', 'd', 'n', 'c', 'o', 'l', '\0'};
// Bump when the header or the meaning of a buffer changes: older files are then removed unread.
constexpr uint32 kFormat = 2;
constexpr int64 kHeaderBytes = 4096;  // the header, padded: the buffers start page aligned
constexpr int64 kAlign = 64;          // each buffer starts 64-byte aligned (mapped in place)
constexpr int kMaxLsns = 64;
constexpr int64 kPiece = 8 << 20;

// The header as it lies on disk (fixed-width fields only; the type kind by name, so that a
// renumbered TypeKind never misreads a file).
struct FileHeader {
    char magic[8];
    uint32 format;
    uint32 header_bytes;
    uint64 system_id;
    uint32 db, relid;
    uint32 spc_node, db_node, rel_node, nblocks;
    int32 nlsns;
    int32 attnum;
    uint64 lsns[kMaxLsns];
    int64 rows, length;
    uint32 type;
    int32 typmod;
    int32 scale, scale_max;
    uint32 non_ascii;
    uint32 elem_size;
    char kind[16];
    int64 sizes[5];  // data bytes, validity bytes, offsets bytes, string bytes, scale bytes
    int64 total_bytes;
};
static_assert(sizeof(FileHeader) <= kHeaderBytes);

int64 Round(int64 n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Where each buffer starts, and the file's size.
int64 Layout(const int64 sizes[5], int64 offs[5]) {
    int64 off = kHeaderBytes;
    for (int k = 0; k < 5; ++k) {
        offs[k] = off;
        off += Round(sizes[k]);
    }
    return off;
}

int64 SectionBytes(const ColumnFileMeta &m, int s) {
    switch (s) {
        case 0: return m.data_bytes;
        case 1: return m.validity_words * 8;
        case 2: return m.offsets_count * 8;
        case 3: return m.bytes_len;
        default: return m.escale_len;
    }
}

bool WriteAll(int fd, const void *p, int64 n, bool (*stop)()) {
    const char *c = (const char *)p;
    while (n > 0) {
        if (stop != nullptr && stop()) return false;
        const ssize_t w = write(fd, c, (size_t)std::min(n, kPiece));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        c += w;
        n -= w;
    }
    return true;
}

bool ReadAt(int fd, void *to, int64 n, int64 off) {
    char *c = (char *)to;
    while (n > 0) {
        const ssize_t r = pread(fd, c, (size_t)std::min(n, kPiece), (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        c += r;
        n -= r;
        off += r;
    }
    return true;
}

bool KindFromName(const char *name, hir::TypeKind *out) {
    for (int k = (int)hir::TypeKind::WILDCARD; k <= (int)hir::TypeKind::INTERVAL; ++k)
        if (std::strcmp(hir::TypeKindName((hir::TypeKind)k), name) == 0 && hir::IsBasic((hir::TypeKind)k)) {
            *out = (hir::TypeKind)k;
            return true;
        }
    return false;
}

std::string Prefix(Oid db, Oid relid) { return std::to_string(db) + "_" + std::to_string(relid) + "_"; }

}  // namespace

std::string ColumnFilePath(const std::string &dir, Oid db, Oid relid, int attnum) {
    return dir + "/" + Prefix(db, relid) + std::to_string(attnum);
}

bool WriteColumnFile(const std::string &dir, uint64 system_id, const ColumnFileMeta &m, const ColumnFileSections &s,
                     bool sync, bool (*stop)(), const std::function<bool(const std::function<bool()> &)> &commit) {
    if ((int)m.key.vm_lsns.size() > kMaxLsns || std::strlen(hir::TypeKindName(m.kind)) >= 16) return false;
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
    FileHeader h;
    std::memset(&h, 0, sizeof h);
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.format = kFormat;
    h.header_bytes = sizeof(FileHeader);
    h.system_id = system_id;
    h.db = m.db;
    h.relid = m.relid;
    h.spc_node = m.key.node.spcNode;
    h.db_node = m.key.node.dbNode;
    h.rel_node = m.key.node.relNode;
    h.nblocks = m.key.nblocks;
    h.nlsns = (int32)m.key.vm_lsns.size();
    for (int i = 0; i < h.nlsns; ++i) h.lsns[i] = m.key.vm_lsns[(size_t)i];
    h.attnum = m.attnum;
    h.rows = m.rows;
    h.length = m.length;
    h.type = m.type;
    h.typmod = m.typmod;
    h.scale = m.scale;
    h.scale_max = m.scale_max;
    h.non_ascii = m.non_ascii ? 1 : 0;
    h.elem_size = (uint32)hir::ElementSize(m.kind);
    std::strncpy(h.kind, hir::TypeKindName(m.kind), sizeof h.kind - 1);
    for (int k = 0; k < 5; ++k) h.sizes[k] = SectionBytes(m, k);
    int64 offs[5];
    h.total_bytes = Layout(h.sizes, offs);

    const std::string path = ColumnFilePath(dir, m.db, m.relid, m.attnum);
    const std::string tmp = path + ".tmp" + std::to_string((long)getpid());
    const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    const void *bufs[5] = {s.data, s.validity, s.offsets, s.bytes, s.escale};
    static const char zeros[kHeaderBytes] = {};
    bool ok = WriteAll(fd, &h, sizeof h, stop) && WriteAll(fd, zeros, kHeaderBytes - (int64)sizeof h, stop);
    for (int k = 0; k < 5 && ok; ++k) {
        if (h.sizes[k] > 0) ok = bufs[k] != nullptr && WriteAll(fd, bufs[k], h.sizes[k], stop);
        if (ok) ok = WriteAll(fd, zeros, Round(h.sizes[k]) - h.sizes[k], stop);
    }
    if (ok && sync) ok = fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (ok) ok = commit([&tmp, &path] { return rename(tmp.c_str(), path.c_str()) == 0; });
    if (!ok) {
        unlink(tmp.c_str());
        return false;
    }
    if (sync) {
        const int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    return true;
}

ColumnFileReader::~ColumnFileReader() {
    if (fd >= 0) close(fd);
}

bool OpenColumnFile(const std::string &dir, uint64 system_id, Oid db, Oid relid, int attnum, ColumnFileReader *r) {
    const std::string path = ColumnFilePath(dir, db, relid, attnum);
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    FileHeader h;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && ReadAt(fd, &h, sizeof h, 0);
    ok = ok && std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 && h.format == kFormat &&
         h.header_bytes == sizeof(FileHeader) && h.system_id == system_id && h.db == db && h.relid == relid &&
         h.attnum == attnum && h.nlsns >= 0 && h.nlsns <= kMaxLsns && h.kind[sizeof h.kind - 1] == '\0' &&
         h.total_bytes == (int64)st.st_size && h.length >= 0;
    hir::TypeKind kind = hir::TypeKind::WILDCARD;
    ok = ok && KindFromName(h.kind, &kind) && h.elem_size == (uint32)hir::ElementSize(kind);
    for (int k = 0; k < 5 && ok; ++k) ok = h.sizes[k] >= 0 && h.sizes[k] <= h.total_bytes;
    int64 offs[5] = {0, 0, 0, 0, 0};
    // the buffers' sizes must be what the column's length and type say
    ok = ok && Layout(h.sizes, offs) == h.total_bytes && h.sizes[0] == h.length * (int64)h.elem_size && h.sizes[1] % 8 == 0 &&
         h.sizes[2] % 8 == 0 && (h.sizes[2] == 0 || h.sizes[2] == (h.length + 1) * 8) &&
         (h.sizes[4] == 0 || h.sizes[4] == h.length);
    if (!ok) {
        close(fd);
        unlink(path.c_str());
        return false;
    }
    if (r->fd >= 0) close(r->fd);
    r->fd = fd;
    ColumnFileMeta &m = r->meta;
    m.db = h.db;
    m.relid = h.relid;
    m.attnum = h.attnum;
    m.type = h.type;
    m.typmod = h.typmod;
    m.non_ascii = h.non_ascii != 0;
    m.kind = kind;
    m.scale = h.scale;
    m.scale_max = h.scale_max;
    m.length = h.length;
    m.rows = h.rows;
    m.key.node.spcNode = h.spc_node;
    m.key.node.dbNode = h.db_node;
    m.key.node.relNode = h.rel_node;
    m.key.nblocks = h.nblocks;
    m.key.vm_lsns.assign(h.lsns, h.lsns + h.nlsns);
    m.data_bytes = h.sizes[0];
    m.validity_words = h.sizes[1] / 8;
    m.offsets_count = h.sizes[2] / 8;
    m.bytes_len = h.sizes[3];
    m.escale_len = h.sizes[4];
    for (int k = 0; k < 5; ++k) r->section_off[k] = offs[k];
    r->file_bytes = h.total_bytes;
    return true;
}

std::shared_ptr<const hir::Vector> ViewVector(const ColumnFileMeta &m, const ColumnFileSections &s,
                                              std::shared_ptr<const void> owner) {
    auto v = std::make_shared<hir::Vector>();
    v->type = hir::Type::Decimal(m.kind, m.scale);
    v->length = m.length;
    if (m.validity_words > 0)
        v->validity = hir::Buf<uint64_t>::View((const uint64_t *)s.validity, (size_t)m.validity_words, owner);
    if (m.offsets_count > 0) {
        v->offsets = hir::Buf<int64_t>::View((const int64_t *)s.offsets, (size_t)m.offsets_count, owner);
        v->bytes = hir::Buf<char>::View((const char *)s.bytes, (size_t)m.bytes_len, owner);
    }
    if (m.escale_len > 0) v->elem_scale.assign((const uint8_t *)s.escale, (const uint8_t *)s.escale + m.escale_len);
    v->scale_max = m.scale_max;
    if (m.data_bytes > 0)
        v->data = std::shared_ptr<uint8_t[]>(owner, (uint8_t *)s.data);
    else if (hir::ElementSize(m.kind) > 0)
        v->data = std::shared_ptr<uint8_t[]>(new uint8_t[kAlign]());
    return v;
}

std::shared_ptr<const hir::Vector> MapColumnFile(const ColumnFileReader &r) {
    void *base = mmap(nullptr, (size_t)r.file_bytes, PROT_READ, MAP_SHARED | MAP_POPULATE, r.fd, 0);
    if (base == MAP_FAILED) return nullptr;
    const size_t len = (size_t)r.file_bytes;
    // one owner for every buffer: the mapping goes with the vector's last buffer
    std::shared_ptr<const void> owner(base, [len](const void *p) { munmap(const_cast<void *>(p), len); });
    const char *b = (const char *)base;
    ColumnFileSections s;
    s.data = b + r.section_off[0];
    s.validity = b + r.section_off[1];
    s.offsets = b + r.section_off[2];
    s.bytes = b + r.section_off[3];
    s.escale = b + r.section_off[4];
    return ViewVector(r.meta, s, std::move(owner));
}

void TouchColumnFile(const ColumnFileReader &r) { (void)futimens(r.fd, nullptr); }

std::map<Oid, std::vector<int>> ColumnFileRelations(const std::string &dir, Oid db) {
    std::map<Oid, std::vector<int>> out;
    DIR *d = opendir(dir.c_str());
    if (d == nullptr) return out;
    const std::string prefix = std::to_string(db) + "_";
    while (struct dirent *e = readdir(d)) {
        if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0) continue;
        const char *rest = e->d_name + prefix.size();
        char *end = nullptr;
        const unsigned long relid = std::strtoul(rest, &end, 10);
        if (end == rest || *end != '_' || relid == 0 || relid > 0xffffffffUL) continue;
        const char *a = end + 1;
        const long attnum = std::strtol(a, &end, 10);
        if (end != a && *end == '\0' && attnum > 0 && attnum < 32768) out[(Oid)relid].push_back((int)attnum);
    }
    closedir(d);
    return out;
}

void RemoveColumnFiles(const std::string &dir, Oid db, Oid relid, int attnum) {
    if (attnum != 0) {
        unlink(ColumnFilePath(dir, db, relid, attnum).c_str());
        return;
    }
    DIR *d = opendir(dir.c_str());
    if (d == nullptr) return;
    const std::string prefix = Prefix(db, relid);
    std::vector<std::string> doomed;
    while (struct dirent *e = readdir(d))
        if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0 && std::strchr(e->d_name, '.') == nullptr)
            doomed.push_back(dir + "/" + e->d_name);
    closedir(d);
    for (const std::string &p : doomed) unlink(p.c_str());
}

void TrimColumnFiles(const std::string &dir, int64 limit_bytes) {
    DIR *d = opendir(dir.c_str());
    if (d == nullptr) return;
    struct File {
        std::string path;
        int64 bytes;
        struct timespec used;
    };
    std::vector<File> files;
    int64 total = 0;
    const std::string mypid = ".tmp" + std::to_string((long)getpid());
    while (struct dirent *e = readdir(d)) {
        if (e->d_name[0] == '.') continue;
        const std::string path = dir + "/" + e->d_name;
        const char *tmp = std::strstr(e->d_name, ".tmp");
        if (tmp != nullptr) {
            // a writer that died mid-file (a live one is this process, the only writer)
            if (mypid != tmp) unlink(path.c_str());
            continue;
        }
        struct stat st;
        if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        files.push_back(File{path, (int64)st.st_size, st.st_mtim});
        total += (int64)st.st_size;
    }
    closedir(d);
    if (total <= limit_bytes) return;
    std::sort(files.begin(), files.end(), [](const File &a, const File &b) {
        return a.used.tv_sec != b.used.tv_sec ? a.used.tv_sec < b.used.tv_sec : a.used.tv_nsec < b.used.tv_nsec;
    });
    for (const File &f : files) {
        if (total <= limit_bytes) break;
        if (unlink(f.path.c_str()) == 0) total -= f.bytes;
    }
}

}  // namespace rndn::exec
