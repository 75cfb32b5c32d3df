// Loading CREATE TABLE schemas and dbgen '|'-separated .tbl files into a DataRegistry.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

#include "horseir/internal.h"

namespace rndn::hir {

namespace {

struct ColumnDef {
    std::string name;
    Type type;
    std::string ref_table, ref_column;
};

struct TableDef {
    std::string name;
    std::vector<ColumnDef> columns;
    std::vector<std::string> primary_key;
};

std::string Lower(std::string s) {
    for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Tokens: identifiers/numbers, and single punctuation characters.
std::vector<std::string> Tokenize(std::string_view s) {
    std::vector<std::string> t;
    size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
            t.push_back(Lower(std::string(s.substr(i, j - i))));
            i = j;
        } else if (c == '"') {
            size_t j = s.find('"', i + 1);
            if (j == std::string_view::npos) j = s.size();
            t.push_back(std::string(s.substr(i + 1, j - i - 1)));
            i = j + 1;
        } else {
            t.push_back(std::string(1, c));
            ++i;
        }
    }
    return t;
}

Status SchemaError(const std::string &m) { return Status::ParseError("schema: " + m); }

Expected<Type> SqlType(const std::vector<std::string> &t, size_t &i, const LoadOptions &opt) {
    if (i >= t.size()) return SchemaError("missing type");
    std::string n = t[i++];
    auto args = [&](std::vector<int> &out) {
        if (i < t.size() && t[i] == "(") {
            ++i;
            while (i < t.size() && t[i] != ")") {
                if (t[i] != ",") out.push_back(std::atoi(t[i].c_str()));
                ++i;
            }
            ++i;
        }
    };
    std::vector<int> a;
    if (n == "integer" || n == "int" || n == "int4") return Type(TypeKind::I32);
    if (n == "bigint" || n == "int8") return Type(TypeKind::I64);
    if (n == "smallint" || n == "int2") return Type(TypeKind::I16);
    if (n == "real" || n == "float4") return Type(TypeKind::F32);
    if (n == "float8") return Type(TypeKind::F64);
    if (n == "double") {
        if (i < t.size() && t[i] == "precision") ++i;
        return Type(TypeKind::F64);
    }
    if (n == "date") return Type(TypeKind::DATE);
    if (n == "boolean" || n == "bool") return Type(TypeKind::BOOL);
    if (n == "numeric" || n == "decimal") {
        args(a);
        if (opt.decimal_as_f64) return Type(TypeKind::F64);
        int p = a.size() > 0 ? a[0] : 38, s = a.size() > 1 ? a[1] : 0;
        if (a.empty()) return Status::Unsupported("schema: numeric without precision and scale");
        return Type::Decimal(p > 18 ? TypeKind::DEC128 : TypeKind::DEC64, s);
    }
    Type text = opt.text_as_sym ? Type(TypeKind::SYM) : Type(TypeKind::STR);
    if (n == "char" || n == "character" || n == "bpchar") {
        if (i < t.size() && t[i] == "varying") {
            ++i;
            args(a);
            return text;
        }
        args(a);
        if (a.empty() || a[0] == 1) return Type(TypeKind::CHAR);
        return text;
    }
    if (n == "varchar" || n == "text") {
        args(a);
        return text;
    }
    return SchemaError("unsupported column type '" + n + "'");
}

Expected<std::vector<TableDef>> ParseSchema(std::string_view sql, const LoadOptions &opt) {
    std::vector<std::string> t = Tokenize(sql);
    std::vector<TableDef> tables;
    size_t i = 0;
    while (i < t.size()) {
        if (!(t[i] == "create" && i + 2 < t.size() && t[i + 1] == "table")) {
            ++i;
            continue;
        }
        i += 2;
        if (t[i] == "if") i += 3;  // IF NOT EXISTS
        TableDef def;
        def.name = t[i++];
        if (i < t.size() && t[i] == ".") def.name = t[i + 1], i += 2;
        if (i >= t.size() || t[i] != "(") return SchemaError("expected '(' after CREATE TABLE " + def.name);
        ++i;
        // items separated by top-level commas
        while (i < t.size() && t[i] != ")") {
            size_t start = i;
            int depth = 0;
            while (i < t.size() && !(depth == 0 && (t[i] == "," || t[i] == ")"))) {
                if (t[i] == "(") ++depth;
                if (t[i] == ")") --depth;
                ++i;
            }
            std::vector<std::string> item(t.begin() + static_cast<long>(start), t.begin() + static_cast<long>(i));
            if (i < t.size() && t[i] == ",") ++i;
            if (item.empty()) continue;
            auto paren_list = [&](size_t &k) {
                std::vector<std::string> names;
                if (k < item.size() && item[k] == "(") {
                    ++k;
                    while (k < item.size() && item[k] != ")") {
                        if (item[k] != ",") names.push_back(item[k]);
                        ++k;
                    }
                    ++k;
                }
                return names;
            };
            if (item[0] == "primary" && item.size() > 1 && item[1] == "key") {
                size_t k = 2;
                def.primary_key = paren_list(k);
                continue;
            }
            if (item[0] == "foreign" && item.size() > 1 && item[1] == "key") {
                size_t k = 2;
                auto cols = paren_list(k);
                if (k < item.size() && item[k] == "references") {
                    std::string rt = item[k + 1];
                    k += 2;
                    auto rcols = paren_list(k);
                    if (cols.size() == 1 && rcols.size() <= 1)
                        for (auto &c : def.columns)
                            if (c.name == cols[0]) c.ref_table = rt, c.ref_column = rcols.empty() ? "" : rcols[0];
                }
                continue;
            }
            if (item[0] == "constraint" || item[0] == "unique" || item[0] == "check") continue;
            ColumnDef col;
            col.name = item[0];
            size_t k = 1;
            RNDN_ASSIGN_OR_RETURN(col.type, SqlType(item, k, opt));
            for (; k < item.size(); ++k) {
                if (item[k] == "primary" && k + 1 < item.size() && item[k + 1] == "key") def.primary_key = {col.name};
                if (item[k] == "references" && k + 1 < item.size()) {
                    col.ref_table = item[k + 1];
                    size_t m = k + 2;
                    auto rc = paren_list(m);
                    col.ref_column = rc.empty() ? "" : rc[0];
                }
            }
            def.columns.push_back(std::move(col));
        }
        ++i;
        tables.push_back(std::move(def));
    }
    return tables;
}

Status ParseField(Vector &v, int64_t row, std::string_view f, const std::string &path, int64_t lineno) {
    TypeKind k = v.type.kind;
    auto bad = [&]() { return Status::UserError(sqlstate::kInvalidTextRepresentation, path + ":" + std::to_string(lineno) + ": invalid " + TypeToString(v.type) + " value \"" + std::string(f) + "\""); };
    if (IsString(k)) {
        v.AppendString(f);
        return Status::Ok();
    }
    switch (k) {
        case TypeKind::CHAR:
            v.Data<uint8_t>()[row] = f.empty() ? ' ' : static_cast<uint8_t>(f[0]);
            return Status::Ok();
        case TypeKind::BOOL:
            v.Data<uint8_t>()[row] = !f.empty() && (f[0] == 't' || f[0] == '1' || f[0] == 'T');
            return Status::Ok();
        case TypeKind::I16:
        case TypeKind::I32:
        case TypeKind::I64: {
            long long x = 0;
            auto r = std::from_chars(f.data(), f.data() + f.size(), x);
            if (r.ec != std::errc() || r.ptr != f.data() + f.size()) return bad();
            if (k == TypeKind::I16) v.Data<int16_t>()[row] = static_cast<int16_t>(x);
            else if (k == TypeKind::I32) v.Data<int32_t>()[row] = static_cast<int32_t>(x);
            else v.Data<int64_t>()[row] = x;
            return Status::Ok();
        }
        case TypeKind::F32:
        case TypeKind::F64: {
            std::string s(f);
            char *end = nullptr;
            double d = std::strtod(s.c_str(), &end);
            if (end == s.c_str() || *end) return bad();
            if (k == TypeKind::F32) v.Data<float>()[row] = static_cast<float>(d);
            else v.Data<double>()[row] = d;
            return Status::Ok();
        }
        case TypeKind::DEC64:
        case TypeKind::DEC128: {
            auto d = ParseDecimal(f, v.type.scale);
            if (!d.ok()) return bad();
            if (k == TypeKind::DEC64) v.Data<int64_t>()[row] = static_cast<int64_t>(*d);
            else v.Data<__int128>()[row] = *d;
            return Status::Ok();
        }
        case TypeKind::DATE: {
            if (f.size() != 10 || f[4] != '-' || f[7] != '-') return bad();
            auto num = [&](size_t at, size_t len) {
                int x = 0;
                for (size_t i = at; i < at + len; ++i) x = x * 10 + (f[i] - '0');
                return x;
            };
            for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
                if (f[i] < '0' || f[i] > '9') return bad();
            int y = num(0, 4), m = num(5, 2), d = num(8, 2);
            if (m < 1 || m > 12 || d < 1 || d > 31) return bad();
            v.Data<int32_t>()[row] = DaysFromCivil(y, m, d);
            return Status::Ok();
        }
        default: return bad();
    }
}

}  // namespace

Status LoadSchemaAndData(std::string_view schema_sql, const std::string &data_dir, DataRegistry &registry, const LoadOptions &options) {
    RNDN_ASSIGN_OR_RETURN(auto defs, ParseSchema(schema_sql, options));
    // load in dependency order (referenced tables first)
    std::vector<bool> done(defs.size(), false);
    for (size_t pass = 0; pass < defs.size(); ++pass) {
        for (size_t ti = 0; ti < defs.size(); ++ti) {
            if (done[ti]) continue;
            const TableDef &def = defs[ti];
            bool ready = true;
            for (const auto &c : def.columns)
                if (!c.ref_table.empty() && c.ref_table != def.name && !registry.HasTable(c.ref_table)) {
                    bool known = std::any_of(defs.begin(), defs.end(), [&](const TableDef &d) { return d.name == c.ref_table; });
                    if (known) ready = false;
                }
            if (!ready) continue;
            done[ti] = true;
            std::string path = data_dir + "/" + def.name + ".tbl";
            std::ifstream in(path, std::ios::binary);
            if (!in) return Status::UserError(sqlstate::kInvalidParameter, "cannot open " + path);
            std::vector<std::shared_ptr<Vector>> cols;
            for (const auto &c : def.columns) {
                RNDN_ASSIGN_OR_RETURN(auto v, MakeVector(c.type, 0));
                cols.push_back(v);
            }
            // read the whole file, count the rows, then parse each field straight into its column
            std::string text;
            {
                std::ostringstream ss;
                ss << in.rdbuf();
                text = ss.str();
            }
            int64_t n = 0;
            for (size_t p = 0; p < text.size();) {
                size_t e = text.find('\n', p);
                if (e == std::string::npos) e = text.size();
                if (e > p && !(e == p + 1 && text[p] == '\r')) ++n;
                p = e + 1;
            }
            for (size_t c = 0; c < cols.size(); ++c) {
                if (!IsString(cols[c]->type.kind)) {
                    RNDN_ASSIGN_OR_RETURN(cols[c], MakeVector(def.columns[c].type, n));
                }
            }
            int64_t row = 0, lineno = 0;
            for (size_t p = 0; p < text.size();) {
                size_t e = text.find('\n', p);
                if (e == std::string::npos) e = text.size();
                ++lineno;
                std::string_view line(text.data() + p, e - p);
                p = e + 1;
                if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
                if (line.empty()) continue;
                if (line.back() == '|') line.remove_suffix(1);
                size_t f = 0, c = 0;
                for (;;) {
                    size_t q = line.find('|', f);
                    std::string_view field = line.substr(f, q == std::string_view::npos ? std::string_view::npos : q - f);
                    if (c >= cols.size())
                        return Status::UserError(sqlstate::kInvalidTextRepresentation, path + ":" + std::to_string(lineno) + ": more than " +
                                                                                             std::to_string(cols.size()) + " fields");
                    RNDN_RETURN_IF_ERROR(ParseField(*cols[c], row, field, path, lineno));
                    ++c;
                    if (q == std::string_view::npos) break;
                    f = q + 1;
                }
                if (c != cols.size())
                    return Status::UserError(sqlstate::kInvalidTextRepresentation, path + ":" + std::to_string(lineno) + ": expected " +
                                                                                         std::to_string(cols.size()) + " fields, found " + std::to_string(c));
                ++row;
            }
            std::vector<std::string> names;
            std::vector<Value> values;
            for (size_t c = 0; c < cols.size(); ++c) {
                const ColumnDef &cd = def.columns[c];
                names.push_back(cd.name);
                if (!cd.ref_table.empty() && registry.HasTable(cd.ref_table)) {
                    RNDN_ASSIGN_OR_RETURN(auto target, registry.GetTable(cd.ref_table));
                    std::string rc = cd.ref_column.empty() ? registry.PrimaryKey(cd.ref_table) : cd.ref_column;
                    std::shared_ptr<const Vector> keys;
                    for (size_t k = 0; k < target->names.size(); ++k)
                        if (target->names[k] == rc && target->columns[k].is_vector()) keys = target->columns[k].vector_ptr();
                    if (!keys) return SchemaError(def.name + "." + cd.name + ": referenced column " + cd.ref_table + "." + rc + " not found");
                    RNDN_ASSIGN_OR_RETURN(auto e, MakeEnum(keys, cols[c], cd.ref_table));
                    values.emplace_back(std::shared_ptr<const Enum>(e));
                } else {
                    values.emplace_back(cols[c]);
                }
            }
            RNDN_RETURN_IF_ERROR(registry.AddTable(def.name, std::move(names), std::move(values)));
            if (def.primary_key.size() == 1) registry.SetPrimaryKey(def.name, def.primary_key[0]);
        }
    }
    for (size_t ti = 0; ti < defs.size(); ++ti)
        if (!done[ti]) return SchemaError("circular foreign keys involving " + defs[ti].name);
    return Status::Ok();
}

}  // namespace rndn::hir
