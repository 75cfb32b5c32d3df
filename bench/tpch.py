"""TPC-H timings: PostgreSQL (rndn.enabled = off), rndn (on) and DuckDB on the same dbgen data,
measured in one run, with ratios.  Not a test; never run in CI.

    .venv/bin/python bench/tpch.py [--sf 1] [--queries 1,6] [--repeat 3] [--no-duckdb]

Loads the scale factor into the throwaway cluster (tools/tpch.sh) if needed and stops the
cluster at the end.  Times are elapsed times of the whole statement as psql's \\timing reports
them.  Each engine runs the query 1 + --repeat times in one session (one psql connection, as an
application with a connection pool would): "cold" is the first run in a fresh session (for rndn:
every column loaded from the heap), "warm" the median of the others (for rndn: columns served
from the backend's column cache when the relation's pages are unchanged and all-visible; for
PostgreSQL: its buffer and catalog caches warm).  DuckDB runs the same query text on the same
.tbl files, in memory, on all cores.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "tpch"))
import harness  # noqa: E402

TABLES = ["region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]


def session_times(env, db, sql, rndn, runs):
    """Times (ms) of `runs` executions of sql in one session; None and the error on failure."""
    script = "\\timing on\n" + "".join(f"\\echo @@run {i}\n{sql}\n" for i in range(runs))
    p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True,
                       # rndn.force: time rndn's engine on every query it can run, even where its
                       # cost model would leave a small query to PostgreSQL
                       env={**env, "PGOPTIONS": f"-c rndn.enabled={rndn} -c rndn.force=on"})
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1]
    chunks = p.stdout.split("@@run ")[1:]
    return [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", c, re.M)) for c in chunks], None


def duck_time(con, sql):
    t = time.perf_counter()
    for stmt in harness.statements(sql):
        con.execute(stmt).fetchall()
    return (time.perf_counter() - t) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", default="1")
    ap.add_argument("--queries", default=",".join(str(i) for i in range(1, 23)))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-duckdb", action="store_true")
    args = ap.parse_args()
    os.chdir(ROOT)
    db = subprocess.run(["tools/tpch.sh", "load", args.sf], check=True, capture_output=True,
                        text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ)
    with open("build/pgcluster/env") as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
            os.environ[k] = v  # harness.explain_uses_rndn connects with os.environ
    con = None
    if not args.no_duckdb:
        import duckdb
        con = duckdb.connect()
        con.execute("CALL dbgen(sf=0)")  # creates the schema; emptied below
        tbl = f"build/tpch/sf{args.sf}"
        for t in TABLES:
            cols = con.execute("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? "
                               "ORDER BY column_index", [t]).fetchall()
            spec = ", ".join(f"'{c}': '{ty}'" for c, ty in cols) + ", 'dbgen_trailer': 'VARCHAR'"
            con.execute(f"DELETE FROM {t}")
            con.execute(f"INSERT INTO {t} SELECT * EXCLUDE (dbgen_trailer) FROM read_csv('{tbl}/{t}.tbl', "
                        f"delim='|', header=false, quote='', columns={{{spec}}})")
    print(f"TPC-H SF {args.sf}: milliseconds; cold = first run in a new session, warm = median of "
          f"the next {args.repeat} in that session")
    print(f"{'query':>5} {'PG warm':>9} {'rndn cold':>9} {'rndn warm':>9} {'PG/rndn':>8} {'PG/cold':>8} "
          f"{'DuckDB':>9} {'Duck/rndn':>9}")
    try:
        for q in [int(x) for x in args.queries.split(",")]:
            sql = harness.query_text(q)
            row = {}
            for name, rndn in (("pg", "off"), ("rndn", "on")):
                times, err = session_times(env, db, sql, rndn, 1 + args.repeat)
                row[name] = (times[0], statistics.median(times[1:])) if times else (None, None)
            if con is not None:
                duck_time(con, sql)
                row["duck"] = statistics.median(duck_time(con, sql) for _ in range(args.repeat))
            ran = harness.explain_uses_rndn(db, sql) if row["rndn"][1] is not None else False
            fmt = lambda v: f"{v:9.1f}" if v is not None else f"{'error':>9}"
            ratio = lambda a, b: f"{a / b:8.2f}" if a and b else f"{'-':>8}"
            print(f"{'Q' + str(q):>5} {fmt(row['pg'][1])} {fmt(row['rndn'][0])} {fmt(row['rndn'][1])} "
                  f"{ratio(row['pg'][1], row['rndn'][1])} {ratio(row['pg'][1], row['rndn'][0])} "
                  f"{fmt(row.get('duck'))} {ratio(row.get('duck'), row['rndn'][1]):>9}"
                  f"{'' if ran else '   (rndn fell back to PostgreSQL)'}", flush=True)
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"])


if __name__ == "__main__":
    main()
