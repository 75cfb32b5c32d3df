// The plan node's private data: relation list text form, and the CustomScanMethods object.
extern "C" {
#include "postgres.h"

#include "nodes/extensible.h"
#include "pgtime.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
}

#include "pg_base/plan_node.h"

namespace rndn::pg {

std::string ParamName(int paramid, bool by_value) { return (by_value ? "rndn_v" : "rndn_p") + std::to_string(paramid); }

int ParamIdOf(const std::string &name, bool *by_value) {
    static const std::string kExact = "rndn_p", kValue = "rndn_v";
    const bool value = name.compare(0, kValue.size(), kValue) == 0;
    if (name.size() <= kExact.size() || (!value && name.compare(0, kExact.size(), kExact) != 0)) return -1;
    int id = 0;
    for (size_t i = kExact.size(); i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9' || id > 100000000) return -1;
        id = id * 10 + (name[i] - '0');
    }
    if (by_value != nullptr) *by_value = value;
    return id;
}

std::string TimeZoneKey() {
    const char *name = session_timezone != nullptr ? pg_get_timezone_name(session_timezone) : nullptr;
    const char *abbrevs = GetConfigOption("timezone_abbreviations", true, false);
    return std::string("TimeZone=") + (name != nullptr ? name : "") + ";abbreviations=" + (abbrevs != nullptr ? abbrevs : "");
}

std::string SerializeRelations(const std::vector<RelationRead> &rels) {
    std::string s;
    for (const RelationRead &r : rels) {
        s += r.name + " " + std::to_string(r.relid) + " ";
        for (size_t i = 0; i < r.attnums.size(); ++i) s += (i ? "," : "") + std::to_string(r.attnums[i]);
        s += "\n";
    }
    return s;
}

bool ParseRelations(const std::string &text, std::vector<RelationRead> *rels) {
    rels->clear();
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string::npos) eol = text.size();
        std::string line = text.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.empty()) continue;
        RelationRead r;
        size_t a = line.find(' ');
        if (a == std::string::npos) return false;
        size_t b = line.find(' ', a + 1);
        if (b == std::string::npos) return false;
        r.name = line.substr(0, a);
        r.relid = (unsigned)std::stoul(line.substr(a + 1, b - a - 1));
        std::string cols = line.substr(b + 1);
        size_t p = 0;
        while (p < cols.size()) {
            size_t c = cols.find(',', p);
            if (c == std::string::npos) c = cols.size();
            r.attnums.push_back(std::stoi(cols.substr(p, c - p)));
            p = c + 1;
        }
        rels->push_back(r);
    }
    return true;
}

namespace {
CustomScanMethods g_scan_methods;
}

const CustomScanMethods *ScanMethods() { return &g_scan_methods; }

ColumnCacheProbe &CacheProbe() {
    static ColumnCacheProbe probe;
    return probe;
}

void RegisterScanMethods(CreateScanStateFn create) {
    g_scan_methods.CustomName = "rndn";
    g_scan_methods.CreateCustomScanState = create;
    RegisterCustomScanMethods(&g_scan_methods);
}

}  // namespace rndn::pg
