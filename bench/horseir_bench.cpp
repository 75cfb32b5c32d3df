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

// TPC-H-shaped joins (and groups and sorts) at SF 1 sizes (`horseir_bench joins`), best of 5 each: the probe side
// lineitem-like (6M rows, 4 per key), the build side a filtered orders-like table (direct
// address: the keys' range is small), wide i64 keys (the hash table), a two-column key packed
// into one i64 (lineitem x partsupp), and string keys.
void Joins(const std::string &only) {
    std::mt19937_64 rng(22);
    const int64_t n = 6000000, orders = 1500000, ps = 800000;
    auto lk = MakeVector(TypeKind::I32, n).value(), lw = MakeVector(TypeKind::I64, n).value();
    auto lp = MakeVector(TypeKind::I32, n).value(), lsu = MakeVector(TypeKind::I32, n).value();
    auto ls = MakeVector(TypeKind::STR, 0).value();
    for (int64_t i = 0; i < n; ++i) {
        const int64_t o = i / 4;
        lk->Data<int32_t>()[i] = static_cast<int32_t>(o + 1);
        lw->Data<int64_t>()[i] = (o + 1) * 7919 + 13;
        const int64_t part = static_cast<int64_t>(rng() % 200000);
        lp->Data<int32_t>()[i] = static_cast<int32_t>(part + 1);
        lsu->Data<int32_t>()[i] = static_cast<int32_t>((part + static_cast<int64_t>(rng() % 4) * 2500) % 10000 + 1);
        if (i < n / 6) ls->AppendString("Customer#" + std::to_string(rng() % 250000));
    }
    std::vector<int64_t> picked;
    for (int64_t o = 0; o < orders; ++o)
        if (rng() % 7 == 0) picked.push_back(o + 1);
    const int64_t nb = static_cast<int64_t>(picked.size());
    auto ok = MakeVector(TypeKind::I32, nb).value(), ow = MakeVector(TypeKind::I64, nb).value();
    for (int64_t i = 0; i < nb; ++i) {
        ok->Data<int32_t>()[i] = static_cast<int32_t>(picked[static_cast<size_t>(i)]);
        ow->Data<int64_t>()[i] = picked[static_cast<size_t>(i)] * 7919 + 13;
    }
    auto pp = MakeVector(TypeKind::I32, ps).value(), psu = MakeVector(TypeKind::I32, ps).value();
    for (int64_t i = 0; i < ps; ++i) {
        const int64_t part = i / 4;
        pp->Data<int32_t>()[i] = static_cast<int32_t>(part + 1);
        psu->Data<int32_t>()[i] = static_cast<int32_t>((part + (i % 4) * 2500) % 10000 + 1);
    }
    auto cs = MakeVector(TypeKind::STR, 0).value();
    for (int64_t i = 0; i < 250000; ++i) cs->AppendString("Customer#" + std::to_string(i));
    DataRegistry reg;
    (void)reg.AddTable("l", {"k", "w", "p", "s"}, {Value(lk), Value(lw), Value(lp), Value(lsu)});
    (void)reg.AddTable("ls", {"c"}, {Value(ls)});
    (void)reg.AddTable("o", {"k", "w"}, {Value(ok), Value(ow)});
    (void)reg.AddTable("ps", {"p", "s"}, {Value(pp), Value(psu)});
    (void)reg.AddTable("c", {"c"}, {Value(cs)});
    const std::string load =
        "l:? = @load_table(`l:sym); o:? = @load_table(`o:sym); ps:? = @load_table(`ps:sym); c:? = @load_table(`c:sym);"
        " lk:i32 = check_cast(@column_value(l, `k:sym), i32); lw:i64 = check_cast(@column_value(l, `w:sym), i64);"
        " lp:i32 = check_cast(@column_value(l, `p:sym), i32); ls:i32 = check_cast(@column_value(l, `s:sym), i32);"
        " lst:? = @load_table(`ls:sym); lc:str = check_cast(@column_value(lst, `c:sym), str);"
        " ok:i32 = check_cast(@column_value(o, `k:sym), i32); ow:i64 = check_cast(@column_value(o, `w:sym), i64);"
        " pp:i32 = check_cast(@column_value(ps, `p:sym), i32); psu:i32 = check_cast(@column_value(ps, `s:sym), i32);"
        " cc:str = check_cast(@column_value(c, `c:sym), str);";
    const std::pair<const char *, const char *> cases[] = {
        {"orders x lineitem, direct", "x:? = @join_index(@eq, ok, lk);"},
        {"lineitem x orders, direct", "x:? = @join_index(@eq, lk, ok);"},
        {"orders x lineitem, i64 hash", "x:? = @join_index(@eq, ow, lw);"},
        {"partsupp x lineitem, 2 keys", "a:? = @list(pp, psu); b:? = @list(lp, ls); x:? = @join_index(@eq, @eq, a, b);"},
        {"customer x 1M strings", "x:? = @join_index(@eq, cc, lc);"},
        {"member lineitem in orders", "x:? = @member(lw, ow);"},
        {"group lineitem by orderkey", "x:? = @group(lk);"},
        {"group lineitem by 2 keys", "a:? = @list(lp, ls); x:? = @group(a);"},
        {"sort lineitem by 2 keys", "a:? = @list(lp, ls); x:? = @order(a, (1,1):bool);"},
        {"sort lineitem by i64", "x:? = @order(lw, 0:bool);"},
    };
    std::printf("TPC-H-shaped joins (best of 5): lineitem %lld rows, orders %lld picked, partsupp %lld\n", static_cast<long long>(n),
                static_cast<long long>(nb), static_cast<long long>(ps));
    for (const auto &[name, stmt] : cases) {
        if (!only.empty() && std::string(name).find(only) == std::string::npos) continue;
        auto p = ParseProgram("module m{ import Builtin.*; def main() : ?{ " + load + " " + stmt + " return x; } }", "joins.hir");
        if (!p.ok() || !CheckProgram(*p).ok()) {
            std::printf("  %-30s program failed to check\n", name);
            continue;
        }
        std::string err;
        const double s = TimeProgram(*p, reg, 5, &err);
        if (s < 0) {
            std::printf("  %-30s %s\n", name, err.c_str());
            continue;
        }
        std::printf("  %-30s %8.1f ms\n", name, s * 1e3);
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
    if (argc > 1 && std::string(argv[1]) == "joins") {
        Joins(argc > 2 ? argv[2] : "");  // a second argument: only the cases whose name has it
        return 0;
    }
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
