// HorseIR interpreter benchmarks (not run in CI): `make bench-horseir`.
//  1. element-wise i64 @plus and @lt throughput (values/s, one core);
//  2. key matching (joins, membership, groups) with hash_keys on and off;
//  3. the 22 TPC-H programs (test/horseir/tpch/q*.hir) with hash_keys on and off, and Q1/Q6
//     (test/horseir/tpch/q{1,6}.hir) on data already loaded into columns, for
//     every scale factor whose build/tpch/sf<SF> directory exists, against PostgreSQL running
//     the same SQL (test/tpch/queries) in the same run when the throwaway cluster
//     (build/pgcluster/env) has database tpch_sf<SF>; prints PostgreSQL time / HorseIR time.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "horseir/horseir.h"

using namespace rndn::hir;

namespace {

std::string ReadAll(const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

double Seconds(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// Best of `reps` runs of a checked program, in seconds; -1 on error.
double TimeProgram(Program &p, DataRegistry &reg, int reps, std::string *err, bool hash_keys = true) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        InterpretOptions opts;
        opts.hash_keys = hash_keys;
        auto t0 = std::chrono::steady_clock::now();
        auto r = Interpret(p, reg, opts);
        auto t1 = std::chrono::steady_clock::now();
        if (!r.ok()) {
            *err = r.status().ToString();
            return -1;
        }
        best = std::min(best, Seconds(t0, t1));
    }
    return best;
}

void Micro(int64_t n) {
    auto a = MakeVector(TypeKind::I64, n).value();
    auto b = MakeVector(TypeKind::I64, n).value();
    std::mt19937_64 rng(7);
    for (int64_t i = 0; i < n; ++i) {
        a->Data<int64_t>()[i] = static_cast<int64_t>(rng() >> 2) - (int64_t(1) << 60);
        b->Data<int64_t>()[i] = static_cast<int64_t>(rng() >> 2) - (int64_t(1) << 60);
    }
    DataRegistry reg;
    (void)reg.AddTable("v", {"a", "b"}, {Value(a), Value(b)});
    for (const char *op : {"plus", "lt"}) {
        std::string text = std::string("module m{ import Builtin.*; def main() : ?{ t:? = @load_table(`v:sym);"
                                       " a:i64 = check_cast(@column_value(t, `a:sym), i64); b:i64 = check_cast(@column_value(t, `b:sym), i64);"
                                       " r:? = @") + op + "(a, b); return r; } }";
        auto p = ParseProgram(text, "micro.hir");
        if (!p.ok() || !CheckProgram(*p).ok()) {
            std::printf("micro %s: program failed to check\n", op);
            continue;
        }
        std::string err;
        double s = TimeProgram(*p, reg, 7, &err);
        if (s < 0) {
            std::printf("micro %s: %s\n", op, err.c_str());
            continue;
        }
        std::printf("i64 @%-4s  %lld values in %.2f ms: %.0f M values/s (target >= 500)\n", op, static_cast<long long>(n), s * 1e3, n / s / 1e6);
    }
}

// Key matching (issue 16): @join_index / @member / @group / @unique through the hash tables
// against the sort-based rank path (InterpretOptions::hash_keys = false), same data, same run.
void Keys(int64_t n) {
    std::mt19937_64 rng(16);
    const int64_t nr = n / 4;
    auto la = MakeVector(TypeKind::I64, n).value(), ra = MakeVector(TypeKind::I64, nr).value();
    auto ls = MakeVector(TypeKind::STR, 0).value(), rs = MakeVector(TypeKind::STR, 0).value();
    for (int64_t i = 0; i < n; ++i) {
        const int64_t k = static_cast<int64_t>(rng() % static_cast<uint64_t>(nr));
        la->Data<int64_t>()[i] = k * 7919 + 13;  // wide range: no counting or direct address
        ls->AppendString("Customer#" + std::to_string(k * 31));
    }
    for (int64_t i = 0; i < nr; ++i) {
        ra->Data<int64_t>()[i] = i * 7919 + 13;
        rs->AppendString("Customer#" + std::to_string(i * 31));
    }
    DataRegistry reg;
    (void)reg.AddTable("l", {"a", "s"}, {Value(la), Value(ls)});
    (void)reg.AddTable("r", {"a", "s"}, {Value(ra), Value(rs)});
    const std::string load = "l:? = @load_table(`l:sym); r:? = @load_table(`r:sym);"
                             " la:i64 = check_cast(@column_value(l, `a:sym), i64); ra:i64 = check_cast(@column_value(r, `a:sym), i64);"
                             " ls:str = check_cast(@column_value(l, `s:sym), str); rs:str = check_cast(@column_value(r, `s:sym), str);"
                             " lk:? = @list(la, ls); rk:? = @list(ra, rs);";
    const std::pair<const char *, const char *> cases[] = {
        {"join i64", "x:? = @join_index(@eq, la, ra);"},         {"join str", "x:? = @join_index(@eq, ls, rs);"},
        {"join i64+str", "x:? = @join_index(@eq, lk, rk);"},     {"member i64", "x:? = @member(la, ra);"},
        {"index_of str", "x:? = @index_of(ls, rs);"},            {"group i64", "x:? = @group(la);"},
        {"group str", "x:? = @group(ls);"},                      {"group i64+str", "x:? = @group(lk);"},
        {"unique i64", "x:? = @unique(la);"},
    };
    std::printf("key matching, %lld x %lld rows (best of 3; rank = sort-based reference path):\n", static_cast<long long>(n),
                static_cast<long long>(nr));
    for (const auto &[name, stmt] : cases) {
        auto p = ParseProgram("module m{ import Builtin.*; def main() : ?{ " + load + " " + stmt + " return x; } }", "keys.hir");
        if (!p.ok() || !CheckProgram(*p).ok()) {
            std::printf("  %-14s program failed to check\n", name);
            continue;
        }
        std::string err;
        const double rank = TimeProgram(*p, reg, 3, &err, false), hash = TimeProgram(*p, reg, 3, &err, true);
        if (rank < 0 || hash < 0) {
            std::printf("  %-14s %s\n", name, err.c_str());
            continue;
        }
        std::printf("  %-14s rank %8.1f ms   hash %8.1f ms   rank/hash = %.2fx\n", name, rank * 1e3, hash * 1e3, rank / hash);
    }
}

// PostgreSQL's best of `reps` executions (ms) of a query file, or -1 when unavailable.
double PostgresMs(const std::string &db, const std::string &sql_file, int reps) {
    std::ifstream env("build/pgcluster/env");
    if (!env) return -1;
    std::string cmd = "bash -c 'source build/pgcluster/env && psql -X -q -d " + db +
                      " -c \"set rndn.enabled = off\" -c \"\\timing on\"";
    for (int i = 0; i < reps; ++i) cmd += " -f " + sql_file;
    cmd += " 2>/dev/null' | grep '^Time:'";
    FILE *f = popen(cmd.c_str(), "r");
    if (!f) return -1;
    char line[256];
    double best = -1;
    while (std::fgets(line, sizeof line, f)) {
        double ms = std::atof(line + 5);
        if (best < 0 || ms < best) best = ms;
    }
    pclose(f);
    return best;
}

void Tpch(const std::string &sf) {
    std::string dir = "build/tpch/sf" + sf;
    std::ifstream probe(dir + "/lineitem.tbl");
    if (!probe) {
        std::printf("TPC-H SF %s: skipped (no data in %s; tools/tpch.sh gen %s)\n", sf.c_str(), dir.c_str(), sf.c_str());
        return;
    }
    DataRegistry reg;
    auto t0 = std::chrono::steady_clock::now();
    rndn::Status st = LoadSchemaAndData(ReadAll("test/tpch/schema.sql"), dir, reg);
    auto t1 = std::chrono::steady_clock::now();
    if (!st.ok()) {
        std::printf("TPC-H SF %s: load failed: %s\n", sf.c_str(), st.ToString().c_str());
        return;
    }
    std::printf("TPC-H SF %s: loaded into columns in %.1f s (not timed below)\n", sf.c_str(), Seconds(t0, t1));
    std::string db = "tpch_sf" + sf;
    for (char &c : db)
        if (c == '.') c = '_';
    for (int q = 1; q <= 22; ++q) {
        std::string hir = "test/horseir/tpch/q" + std::to_string(q) + ".hir";
        auto p = ParseProgram(ReadAll(hir), hir);
        if (!p.ok() || !CheckProgram(*p).ok()) {
            std::printf("  Q%d: program failed to check\n", q);
            continue;
        }
        std::string err;
        double s = TimeProgram(*p, reg, 3, &err);
        if (s < 0) {
            std::printf("  Q%d: %s\n", q, err.c_str());
            continue;
        }
        const double rank = TimeProgram(*p, reg, 3, &err, false);  // the sort-based key path, same run
        std::printf("  Q%-2d HorseIR interpreter, keys by rank (sort) %9.1f ms, by hash %9.1f ms: %.2fx\n", q, rank * 1e3, s * 1e3, rank / s);
        if (q != 1 && q != 6) continue;  // PostgreSQL beside Q1 and Q6
        double pg = PostgresMs(db, "test/tpch/queries/q" + std::to_string(q) + ".sql", 3);
        if (pg < 0)
            std::printf("  Q%-2d HorseIR interpreter %9.1f ms   PostgreSQL: unavailable (no database %s in build/pgcluster)\n", q, s * 1e3, db.c_str());
        else
            std::printf("  Q%-2d HorseIR interpreter %9.1f ms   PostgreSQL %9.1f ms   PostgreSQL/HorseIR = %.2fx\n", q, s * 1e3, pg, pg / (s * 1e3));
    }
}

}  // namespace

int main(int argc, char **argv) {
    // 16M elements: every result is a fresh 128 MiB buffer (page faults included);
    // 1M elements: the result buffer is recycled by malloc, closer to chunked execution.
    Micro(int64_t(1) << 24);
    Micro(int64_t(1) << 20);
    Keys(int64_t(1) << 20);
    if (argc > 1) {
        for (int i = 1; i < argc; ++i) Tpch(argv[i]);
    } else {
        Tpch("0.01");
        Tpch("1");
    }
    return 0;
}
