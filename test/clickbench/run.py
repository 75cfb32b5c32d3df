"""ClickBench's 43 queries (PostgreSQL dialect, queries.sql) on a generated `hits` table
(bench/clickbench_data.py), rndn off against on, in a C.UTF-8 database.

    run.py [--rows N] [--seed S] [--db NAME] [--locale L] [--device D] [--queries 1,2,...]

queries.sql holds the 43 queries of ClickBench's postgresql/queries.sql verbatim, one per line
(the benchmark defines them; query N is line N).  Needs PGHOST/PGPORT/PGUSER of a running
cluster with rndn preloaded (tools/pgcluster.sh).
Per query, one line 'clickbench qN: ok|FAILED ...'; then a summary; exit 1 on any failure.

A query passes when
  * its result with rndn on equals PostgreSQL's (rndn.enabled = off).  The benchmark's
    `ORDER BY c DESC LIMIT 10` queries may have ties at the cut (and query 18 has no ORDER BY at
    all), so a differing result is accepted only when it is another valid answer: as many rows,
    the same ORDER BY key values at every position (KEYS below), and every row a row of the
    query's full result (the query without LIMIT/OFFSET, run by PostgreSQL);
  * and it ran with `Custom Scan (rndn)` at the root of its plan, without falling back at run
    time, unless fallbacks.txt lists it with a reason; a listed query that now runs through rndn
    fails too (remove its line: the list only shrinks).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import clickbench_data  # noqa: E402

# ORDER BY key columns (0-based, in the output) of each query with an ORDER BY whose keys are
# all in its output; a query missing here is compared exactly (sorted first when it has no
# ORDER BY and no LIMIT).  Query 25 orders by EventTime, which it does not output: the generator
# makes EventTime unique, so its answer is unique.  Query 18 (LIMIT without ORDER BY): any rows
# of the full result (empty key list).
KEYS = {
    8: [1], 9: [1], 10: [2], 11: [1], 12: [2], 13: [1], 14: [1], 15: [2], 16: [1], 17: [2], 18: [],
    19: [3], 22: [2], 23: [3], 24: [4], 26: [0], 28: [1], 29: [1], 31: [2], 32: [2], 33: [2],
    34: [1], 35: [2], 36: [4], 37: [1], 38: [1], 39: [1], 40: [5], 41: [2], 42: [2], 43: [0],
}


def load_queries():
    with open(os.path.join(HERE, "queries.sql")) as f:
        return [line.strip() for line in f if line.strip()]


def load_fallbacks():
    out = {}
    with open(os.path.join(HERE, "fallbacks.txt")) as f:
        for line in f:
            m = re.match(r"^q(\d+):\s*(.+)$", line.strip())
            if m:
                out[int(m.group(1))] = m.group(2)
    return out


def psql(db, script, settings, stop_on_error=False):
    env = dict(os.environ, PGOPTIONS=" ".join(f"-c {k}={v}" for k, v in settings.items()))
    cmd = ["psql", "-X", "-q", "-A", "-F", "\t", "-P", "footer=off", "-t", "-d", db]
    if stop_on_error:
        cmd += ["-v", "ON_ERROR_STOP=1"]
    p = subprocess.run(cmd, input=script, capture_output=True, text=True, env=env, timeout=1200)
    return p.returncode, p.stdout, p.stderr


def create_db(db, locale, rows, seed):
    loc = f" TEMPLATE template0 ENCODING 'UTF8' LOCALE '{locale}'" if locale else ""
    rc, _, err = psql("postgres", f"SET client_min_messages = warning;\nDROP DATABASE IF EXISTS {db};\n"
                      f"CREATE DATABASE {db}{loc};\n", {"rndn.enabled": "off"}, True)
    if rc != 0:
        sys.exit("could not create the database: " + err)
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        path = f.name
    try:
        clickbench_data.write_tsv(path, rows, seed)
        script = ("SET client_min_messages = warning;\nCREATE EXTENSION IF NOT EXISTS rndn;\n"
                  + clickbench_data.create_sql() + f"\\copy hits FROM '{path}'\nVACUUM (FREEZE, ANALYZE) hits;\n")
        rc, _, err = psql(db, script, {"rndn.enabled": "off"}, True)
        if rc != 0:
            sys.exit("loading hits failed: " + err)
    finally:
        os.unlink(path)


def rows_of(out):
    return [tuple(line.split("\t")) for line in out.splitlines()]


def full_query(sql):
    """The query without its trailing LIMIT/OFFSET (None if it has none)."""
    m = re.search(r"\s+LIMIT\s+\d+(\s+OFFSET\s+\d+)?\s*;?\s*$", sql, re.I)
    return sql[:m.start()] + ";" if m else None


def compare(db, n, sql, off, on, settings):
    """'' when rndn's answer is a valid answer, otherwise why not."""
    if off == on:
        return ""
    r_off, r_on = rows_of(off), rows_of(on)
    has_order = re.search(r"\bORDER BY\b", sql, re.I) is not None
    if not has_order and full_query(sql) is None:
        return "" if sorted(r_off) == sorted(r_on) else "results differ"
    if n not in KEYS:
        return "results differ"
    if len(r_off) != len(r_on):
        return f"{len(r_on)} rows against PostgreSQL's {len(r_off)}"
    keys = KEYS[n]
    if [tuple(r[k] for k in keys) for r in r_off] != [tuple(r[k] for k in keys) for r in r_on]:
        return "ORDER BY keys differ"
    full = full_query(sql)
    if full is None:  # an ORDER BY without LIMIT: the same rows, ties in another order
        return "" if collections.Counter(r_off) == collections.Counter(r_on) else "results differ"
    rc, out, err = psql(db, full, dict(settings, **{"rndn.enabled": "off"}))
    if rc != 0:
        return "the full query failed: " + err.strip()[-200:]
    missing = collections.Counter(r_on) - collections.Counter(rows_of(out))
    return "" if not missing else f"rows not in the full result: {list(missing)[:2]}"


def plan_status(db, sql, settings):
    """True (rndn at the root, ran), 'runtime-fallback', or False (PostgreSQL's plan)."""
    rc, out, _ = psql(db, f"EXPLAIN (COSTS OFF) {sql}", settings)
    first = out.strip().splitlines()[0].strip() if out.strip() else ""
    if not first.startswith("Custom Scan (rndn)"):
        return False
    rc, out, _ = psql(db, f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", settings)
    return "runtime-fallback" if "Fallback: PostgreSQL plan" in out else True


def fallback_reason(db, sql, settings):
    rc, out, _ = psql(db, f"EXPLAIN (COSTS OFF) {sql}", dict(settings, **{"rndn.explain_fallback": "on"}))
    reasons = [l.strip() for l in out.splitlines() if "rndn fallback" in l]
    return reasons[0] if reasons else "(no reason printed)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default="rndn_clickbench")
    ap.add_argument("--locale", default="C.UTF-8")
    ap.add_argument("--device", default=None)
    ap.add_argument("--queries", default=None, help="comma-separated query numbers (1-based)")
    ap.add_argument("--no-load", action="store_true", help="reuse the database of an earlier run")
    args = ap.parse_args()
    queries = load_queries()
    if len(queries) != 43:
        sys.exit(f"queries.sql has {len(queries)} queries, 43 expected")
    fallbacks = load_fallbacks()
    if not args.no_load:
        create_db(args.db, args.locale, args.rows, args.seed)
    settings = {"rndn.force": "on"}
    if args.device:
        settings["rndn.device"] = args.device
        settings["rndn.compile_in_background"] = "off"  # the kernels, not an interpreted first run
    wanted = [int(x) for x in args.queries.split(",")] if args.queries else range(1, 44)
    passed = failed = through = 0
    for n in wanted:
        sql = queries[n - 1]
        rc_off, off, err_off = psql(args.db, sql, dict(settings, **{"rndn.enabled": "off"}))
        rc_on, on, err_on = psql(args.db, sql, dict(settings, **{"rndn.enabled": "on"}))
        problems = []
        if rc_off != 0 or err_off.strip():
            problems.append("PostgreSQL failed: " + err_off.strip()[-200:])
        elif err_on.strip() != err_off.strip():
            problems.append("rndn: " + err_on.strip()[-300:])
        else:
            why = compare(args.db, n, sql, off, on, settings)
            if why:
                problems.append(why)
        ran = plan_status(args.db, sql, settings)
        through += ran is True
        how = "rndn" if ran is True else "rndn (fell back at run time)" if ran else "PostgreSQL plan"
        if n in fallbacks and ran is True:
            problems.append(f"listed in fallbacks.txt ({fallbacks[n]}) but ran through rndn: remove its line")
        elif n not in fallbacks and ran is not True:
            problems.append("expected to run through rndn: " + fallback_reason(args.db, sql, settings))
        nrows = len(rows_of(off))
        if problems:
            failed += 1
            print(f"clickbench q{n}: FAILED via {how} ({'; '.join(problems)})", flush=True)
        else:
            passed += 1
            print(f"clickbench q{n}: ok via {how}, {nrows} rows" + (f" (expected: {fallbacks[n]})" if n in fallbacks else ""),
                  flush=True)
    print(f"clickbench: {through}/{len(wanted)} queries ran with Custom Scan (rndn) at the root; "
          f"{sum(1 for n in wanted if n in fallbacks)} listed as falling back")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
