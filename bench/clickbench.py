"""ClickBench timings: PostgreSQL (rndn.enabled = off), rndn (on) and DuckDB on the same generated
`hits` table (bench/clickbench_data.py), measured in one run, with ratios.  Not a test; never run
in CI.

    .venv/bin/python bench/clickbench.py [--rows 1000000] [--seed 1] [--queries 1,2,3] [--repeat 2]
                                         [--no-duckdb] [--reload]

Generates build/clickbench/hits_<rows>_<seed>.tsv once, loads it into database
clickbench_<rows>_<seed> (C.UTF-8, VACUUM FREEZE ANALYZE: every page all-visible, so rndn's
column cache serves warm runs) of the throwaway cluster (tools/pgcluster.sh), and stops the
cluster at the end.  Each engine runs a query 1 + --repeat times in one session: "cold" is the
first run in a new session (rndn: every column loaded from the heap), "warm" the median of the
others.  DuckDB reads the same TSV into an in-memory table of the same types and runs the same
query text on all cores.  The last column says whether rndn ran the query at the root of its
plan, and whether its rows are PostgreSQL's or another valid answer (test/clickbench/run.py's
comparison: the benchmark's LIMIT queries may cut ties differently).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "test", "clickbench"))
import clickbench_data  # noqa: E402
import run as clickbench_test  # noqa: E402  (test/clickbench/run.py: its tie-aware comparison)

QUERIES = os.path.join(ROOT, "test", "clickbench", "queries.sql")


def psql(env, db, script, settings, check=False):
    e = dict(env, PGOPTIONS=" ".join(f"-c {k}={v}" for k, v in settings.items()))
    p = subprocess.run(["psql", "-X", "-q", "-A", "-F", "\t", "-t", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True, env=e)
    if check and p.returncode != 0:
        sys.exit(p.stderr)
    return p


FORCE = {"rndn.force": "on"}


def session_times(env, db, sql, rndn, runs):
    """Times (ms) of `runs` executions of sql in one session and the last run's rows."""
    script = "\\timing on\n" + "".join(f"\\echo @@run {i}\n{sql}\n" for i in range(runs))
    p = psql(env, db, script, {"rndn.enabled": rndn, **FORCE})
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"
    chunks = p.stdout.split("@@run ")[1:]
    times = [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", c, re.M)) for c in chunks]
    rows = "".join(l + "\n" for l in chunks[-1].splitlines()[1:] if not l.startswith("Time: "))
    return times, rows


def ensure_data(env, rows, seed, reload):
    os.makedirs(os.path.join(ROOT, "build", "clickbench"), exist_ok=True)
    tsv = os.path.join(ROOT, "build", "clickbench", f"hits_{rows}_{seed}.tsv")
    if not os.path.exists(tsv):
        t = time.time()
        clickbench_data.write_tsv(tsv + ".part", rows, seed)
        os.rename(tsv + ".part", tsv)
        print(f"generated {rows} rows in {time.time() - t:.0f} s: {tsv}", flush=True)
    db = f"clickbench_{rows}_{seed}"
    exists = psql(env, "postgres", f"SELECT 1 FROM pg_database WHERE datname = '{db}'", {}).stdout.strip() == "1"
    if reload or not exists:
        psql(env, "postgres", f"DROP DATABASE IF EXISTS {db};\nCREATE DATABASE {db} TEMPLATE template0 "
             f"ENCODING 'UTF8' LOCALE 'C.UTF-8';", {}, check=True)
        psql(env, db, "SET client_min_messages = warning;\nCREATE EXTENSION IF NOT EXISTS rndn;\n"
             + clickbench_data.create_sql() + f"\\copy hits FROM '{tsv}'\nVACUUM (FREEZE, ANALYZE) hits;\n",
             {"rndn.enabled": "off"}, check=True)
    return db, tsv


def duck_load(tsv):
    import duckdb
    con = duckdb.connect()
    types = {"BIGINT": "BIGINT", "SMALLINT": "SMALLINT", "INTEGER": "INTEGER", "TEXT": "VARCHAR",
             "VARCHAR(255)": "VARCHAR", "TIMESTAMP": "TIMESTAMP", "DATE": "DATE", "CHAR": "VARCHAR"}
    spec = ", ".join(f"'{n}': '{types[t]}'" for n, t in clickbench_data.COLUMNS)
    con.execute(f"CREATE TABLE hits AS SELECT * FROM read_csv('{tsv}', delim='\t', header=false, quote='', "
                f"escape='', columns={{{spec}}})")
    return con


def duck_time(con, sql):
    t = time.perf_counter()
    con.execute(sql).fetchall()
    return (time.perf_counter() - t) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", default=",".join(str(i) for i in range(1, 44)))
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--no-duckdb", action="store_true")
    ap.add_argument("--reload", action="store_true", help="load the table again")
    ap.add_argument("--default-costs", action="store_true",
                    help="no rndn.force: the cost model decides (a query is run once and its background loads "
                         "waited for before its timed session); the last column says which plan ran")
    args = ap.parse_args()
    if args.default_costs:
        FORCE.clear()
    os.chdir(ROOT)
    envfile = subprocess.run(["tools/pgcluster.sh", "start"], check=True, capture_output=True,
                             text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ)
    with open(envfile) as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
            os.environ[k] = v  # the test's comparison connects with os.environ
    try:
        db, tsv = ensure_data(env, args.rows, args.seed, args.reload)
        con = None if args.no_duckdb else duck_load(tsv)
        with open(QUERIES) as f:
            queries = [l.strip() for l in f if l.strip()]
        print(f"ClickBench, {args.rows} generated rows (seed {args.seed}): milliseconds; cold = first run in a "
              f"new session, warm = median of the next {args.repeat}")
        print(f"{'query':>5} {'PG warm':>9} {'rndn cold':>9} {'rndn warm':>9} {'PG/rndn':>8} {'PG/cold':>8} "
              f"{'DuckDB':>9} {'Duck/rndn':>9}  rndn")
        for q in [int(x) for x in args.queries.split(",")]:
            sql = queries[q - 1]
            row, rows = {}, {}
            if args.default_costs:  # its columns' background loads done before the timed session
                psql(env, db, sql, {})
                for _ in range(100):
                    busy = psql(env, db, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = "
                                "'rndn column loader'", {}).stdout.strip()
                    if busy == "0":
                        break
                    time.sleep(0.2)
            for name, rndn in (("pg", "off"), ("rndn", "on")):
                times, out = session_times(env, db, sql, rndn, 1 + args.repeat)
                row[name] = (times[0], statistics.median(times[1:])) if times else (None, None)
                rows[name] = out if times else None
            if con is not None:
                duck_time(con, sql)
                row["duck"] = statistics.median(duck_time(con, sql) for _ in range(args.repeat))
            plan = psql(env, db, f"EXPLAIN (COSTS OFF) {sql}", FORCE).stdout.strip().splitlines()
            root = bool(plan) and plan[0].strip().startswith("Custom Scan (rndn)")
            inside = any("Custom Scan (rndn)" in l for l in plan)
            if rows["pg"] is None or rows["rndn"] is None:
                verdict = ", failed"
            elif rows["pg"] == rows["rndn"]:
                verdict = ""
            else:
                why = clickbench_test.compare(db, q, sql, rows["pg"], rows["rndn"], {"rndn.force": "on"})
                verdict = ", another valid answer (ties)" if not why else f", WRONG: {why}"
            fmt = lambda v: f"{v:9.1f}" if v is not None else f"{'error':>9}"
            ratio = lambda a, b: f"{a / b:8.2f}" if a and b else f"{'-':>8}"
            print(f"{'Q' + str(q):>5} {fmt(row['pg'][1])} {fmt(row['rndn'][0])} {fmt(row['rndn'][1])} "
                  f"{ratio(row['pg'][1], row['rndn'][1])} {ratio(row['pg'][1], row['rndn'][0])} "
                  f"{fmt(row.get('duck'))} {ratio(row.get('duck'), row['rndn'][1]):>9}  "
                  f"{'root' if root else 'subtree' if inside else 'PostgreSQL plan'}{verdict}", flush=True)
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"])


if __name__ == "__main__":
    main()
