"""TPC-H timings: PostgreSQL (rndn.enabled = off), rndn (on) and DuckDB on the same dbgen data,
measured in one run, with ratios.  Not a test; never run in CI.

    .venv/bin/python bench/tpch.py [--sf 1] [--queries 1,6] [--repeat 3] [--no-duckdb]
                                   [--devices interp,cpu] [--baseline OLD_rndn.so] [--pg-timeout MS]

Loads the scale factor into the throwaway cluster (tools/tpch.sh) if needed and stops the
cluster at the end.  Times are elapsed times of the whole statement as psql's \\timing reports
them.  Each engine runs the query 1 + --repeat times in one session (one psql connection, as an
application with a connection pool would): "cold" is the first run in a fresh session (for rndn:
every column loaded from the heap), "warm" the median of the others (for rndn: columns served
from the backend's column cache when the relation's pages are unchanged and all-visible; for
PostgreSQL: its buffer and catalog caches warm).  DuckDB runs the same query text on the same
.tbl files, in memory, on all cores.

--devices adds one warm column per rndn.device (each in its own session, same data), with the
kernels the cpu device launched (EXPLAIN ANALYZE).  --baseline times an older build's rndn.so in
the same run: a private copy of the PostgreSQL tree with that library (tools/pgprivate.sh's
layout), its own throwaway cluster (build/pgcluster-base) loaded with the same .tbl files, and one
warm column per device there ("base" columns); the machine's load average is printed per query.
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


def session_times(env, db, sql, rndn, runs, settings=None):
    """Times (ms) of `runs` executions of sql in one session; None and the error on failure."""
    script = "\\timing on\n" + "".join(f"\\echo @@run {i}\n{sql}\n" for i in range(runs))
    p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True,
                       # rndn.force: time rndn's engine on every query it can run, even where its
                       # cost model would leave a small query to PostgreSQL
                       env={**env, "PGOPTIONS": f"-c rndn.enabled={rndn} -c rndn.force=on" +
                            "".join(f" -c {k}={v}" for k, v in (settings or {}).items())})
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
    ap.add_argument("--devices", default="", help="comma-separated rndn.device values, one warm column each")
    ap.add_argument("--baseline", default="", help="an older rndn.so to time beside this build (same run)")
    ap.add_argument("--pg-timeout", type=int, default=0,
                    help="statement_timeout (ms) of the PostgreSQL runs; a query past it prints 'error' there (0: none)")
    args = ap.parse_args()
    devices = [d for d in args.devices.split(",") if d]
    os.chdir(ROOT)
    db = subprocess.run(["tools/tpch.sh", "load", args.sf], check=True, capture_output=True,
                        text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ)
    with open("build/pgcluster/env") as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
            os.environ[k] = v  # harness.explain_uses_rndn connects with os.environ
    base_env = None
    if args.baseline:
        base_env = start_baseline(args.baseline, args.sf)
    con = None
    if not args.no_duckdb:
        import duckdb
        con = duckdb.connect()
        try:
            con.execute("CALL dbgen(sf=0)")  # creates the schema; emptied below
        except duckdb.Error:
            # no tpch extension (it is downloaded, and nothing but PyPI is reachable here): the
            # same tables from test/tpch/schema.sql, without keys (dbgen's have none)
            ddl = open("test/tpch/schema.sql").read()
            ddl = re.sub(r"--[^\n]*", "", ddl)
            ddl = re.sub(r",\s*PRIMARY KEY \([^)]*\)", "", ddl)
            ddl = re.sub(r",\s*FOREIGN KEY \([^)]*\) REFERENCES \w+ \([^)]*\)", "", ddl)
            ddl = re.sub(r"\s+PRIMARY KEY", "", ddl)
            ddl = re.sub(r"\s+REFERENCES \w+ \(\w+\)", "", ddl)
            for stmt in ddl.split(";"):
                if stmt.strip().upper().startswith("CREATE TABLE"):
                    con.execute(stmt)
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
    extra = "".join(f" {d + ' warm':>11}" for d in devices) + "".join(f" {'base ' + d:>11}" for d in (devices if base_env else []))
    print(f"{'query':>5} {'PG warm':>9} {'rndn cold':>9} {'rndn warm':>9} {'PG/rndn':>8} {'PG/cold':>8} "
          f"{'DuckDB':>9} {'Duck/rndn':>9}{extra}{' kernels' if 'cpu' in devices else ''}{' load' if devices else ''}")
    try:
        for q in [int(x) for x in args.queries.split(",")]:
            sql = harness.query_text(q)
            row = {}
            for name, rndn in (("pg", "off"), ("rndn", "on")):
                times, err = session_times(env, db, sql, rndn, 1 + args.repeat,
                                           {"statement_timeout": args.pg_timeout} if rndn == "off" and args.pg_timeout else None)
                row[name] = (times[0], statistics.median(times[1:])) if times else (None, None)
            if con is not None:
                duck_time(con, sql)
                row["duck"] = statistics.median(duck_time(con, sql) for _ in range(args.repeat))
            ran = harness.explain_uses_rndn(db, sql) if row["rndn"][1] is not None else False
            dev_cols = ""
            for env_d, tag in [(env, "")] + ([(base_env, "base")] if base_env else []):
                for d in devices:
                    times, err = session_times(env_d, db, sql, "on", 1 + args.repeat,
                                               {"rndn.device": d, "rndn.compile_in_background": "off"})
                    v = min(times[1:]) if times else None
                    dev_cols += f" {v:11.1f}" if v is not None else f" {'error':>11}"
            if "cpu" in devices:
                kernels = []
                saved = harness.DEVICE.copy()
                harness.DEVICE["rndn.device"] = "cpu"
                harness.DEVICE["rndn.compile_in_background"] = "off"
                harness.explain_uses_rndn(db, sql, kernels)
                harness.DEVICE.clear()
                harness.DEVICE.update(saved)
                dev_cols += f" {kernels[0] if kernels and kernels[0] is not None else '-':>7}"
            if devices:
                dev_cols += f" {os.getloadavg()[0]:5.1f}"
            fmt = lambda v: f"{v:9.1f}" if v is not None else f"{'error':>9}"
            ratio = lambda a, b: f"{a / b:8.2f}" if a and b else f"{'-':>8}"
            print(f"{'Q' + str(q):>5} {fmt(row['pg'][1])} {fmt(row['rndn'][0])} {fmt(row['rndn'][1])} "
                  f"{ratio(row['pg'][1], row['rndn'][1])} {ratio(row['pg'][1], row['rndn'][0])} "
                  f"{fmt(row.get('duck'))} {ratio(row.get('duck'), row['rndn'][1]):>9}{dev_cols}"
                  f"{'' if ran else '   (rndn fell back to PostgreSQL)'}", flush=True)
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"])
        if base_env:
            subprocess.run(["tools/pgcluster.sh", "stop", "build/pgcluster-base"])


def start_baseline(so, sf):
    """A second cluster whose server loads the older rndn.so, with SF loaded: its psql env."""
    tree = os.path.abspath("build/pgtree-base")
    subprocess.run(["mkdir", "-p", tree + "/lib/postgresql", tree + "/share/postgresql"], check=True)
    for src, dst in (("/usr/lib/postgresql/15", tree + "/lib/postgresql/"), ("/usr/share/postgresql/15", tree + "/share/postgresql/")):
        if not os.path.isdir(dst + "15"):
            subprocess.run(["cp", "-a", src, dst], check=True)
    # a copy and a rename: a server still running from an earlier run has the old file mapped
    # (overwriting it in place crashes that server's backends)
    lib = tree + "/lib/postgresql/15/lib/rndn.so"
    subprocess.run(["cp", so, lib + ".new"], check=True)
    os.replace(lib + ".new", lib)
    subprocess.run("cp rndn.control sql/rndn--*.sql " + tree + "/share/postgresql/15/extension/", shell=True, check=True)
    env = dict(os.environ, PGBIN=tree + "/lib/postgresql/15/bin")
    subprocess.run(["tools/pgcluster.sh", "start", "build/pgcluster-base"], check=True, env=env, capture_output=True)
    with open("build/pgcluster-base/env") as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    # the same .tbl files, loaded as tools/tpch.sh loads them (same database name)
    tbl = os.path.abspath(f"build/tpch/sf{sf}")
    db = "tpch_sf" + sf.replace(".", "_")
    have = subprocess.run(["psql", "-X", "-At", "-d", db, "-c", "select obj_description('lineitem'::regclass, 'pg_class')"],
                          env=env, capture_output=True, text=True).stdout.strip()
    if have != "loaded from " + tbl:
        subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {db}", "-c", f"CREATE DATABASE {db}"],
                       env=env, check=True)
        script = ["SET client_min_messages = warning;", "CREATE EXTENSION IF NOT EXISTS rndn;", "SET synchronous_commit = on;",
                  open("test/tpch/schema.sql").read(), "SET session_replication_role = replica;"]
        for t in TABLES:
            script.append(f"\\copy {t} FROM PROGRAM 'sed ''s/|$//'' {tbl}/{t}.tbl' WITH (FORMAT text, DELIMITER '|')")
        script += ["SET session_replication_role = origin;", "VACUUM (FREEZE, ANALYZE);", f"COMMENT ON TABLE lineitem IS 'loaded from {tbl}';"]
        subprocess.run(["psql", "-X", "-q", "-d", db, "-v", "ON_ERROR_STOP=1"], input="\n".join(script) + "\n", text=True, env=env, check=True)
    return env


if __name__ == "__main__":
    main()
