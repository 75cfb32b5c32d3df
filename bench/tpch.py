"""TPC-H timings: PostgreSQL (rndn.enabled = off), rndn (on) and DuckDB on the same dbgen data,
measured in one run, with ratios.  Not a test; never run in CI.

    .venv/bin/python bench/tpch.py [--sf 1] [--queries 1,6] [--repeat 3] [--no-duckdb]

Loads the scale factor into the throwaway cluster (tools/tpch.sh) if needed and stops the
cluster at the end.  Times are server-side elapsed times of the whole statement as psql's
\\timing reports them (the median of --repeat runs after one warm-up run); DuckDB runs the same
query text on the same .tbl files, in memory, on all cores.
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


def pg_time(env, db, sql, rndn):
    script = "\\timing on\n" + sql
    p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True, env={**env, "PGOPTIONS": f"-c rndn.enabled={rndn}"})
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1]
    ms = sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", p.stdout, re.M))
    return ms, None


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
    print(f"TPC-H SF {args.sf}: median of {args.repeat} runs after a warm-up, milliseconds")
    print(f"{'query':>5} {'PostgreSQL':>11} {'rndn':>11} {'PG/rndn':>8} {'DuckDB':>11} {'DuckDB/rndn':>11}")
    try:
        for q in [int(x) for x in args.queries.split(",")]:
            sql = harness.query_text(q)
            row = {}
            for name, rndn in (("pg", "off"), ("rndn", "on")):
                pg_time(env, db, sql, rndn)
                runs = [pg_time(env, db, sql, rndn) for _ in range(args.repeat)]
                errs = [e for _, e in runs if e]
                row[name] = statistics.median(ms for ms, _ in runs) if not errs else None
            if con is not None:
                duck_time(con, sql)
                row["duck"] = statistics.median(duck_time(con, sql) for _ in range(args.repeat))
            ran = harness.explain_uses_rndn(db, sql) if row["rndn"] is not None else False
            fmt = lambda v: f"{v:11.1f}" if v is not None else f"{'error':>11}"
            ratio = lambda a, b: f"{a / b:8.2f}" if a and b else f"{'-':>8}"
            print(f"{'Q' + str(q):>5} {fmt(row['pg'])} {fmt(row['rndn'])} {ratio(row['pg'], row['rndn'])} "
                  f"{fmt(row.get('duck'))} {ratio(row.get('duck'), row['rndn']):>11}"
                  f"{'' if ran else '   (rndn fell back to PostgreSQL)'}", flush=True)
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"])


if __name__ == "__main__":
    main()
