"""TPC-H as a user with default settings sees it: no rndn.force, the cost model decides per query
(issues 16 and 17).  Not a test; never run in CI.

    PGBIN=$(tools/pgprivate.sh build/pgtree) tools/pgcluster.sh start
    .venv/bin/python bench/tpch_default.py --sf 1 [--queries 1,3,6] [--files keep|none]

First every query once with rndn.force (its kernels compiled into the code cache on disk, as on
a user's second day; --no-prime skips it).  Then after a server restart (the shared column cache
empty; with --files none the column files of earlier runs are set aside, so every column first
comes from the heap), with default settings:
  first:  each query once, in order, each in a new session: what the first run of a query on a
          server that has not cached its columns costs (the cost model leaves a query whose loads
          would make it slower with PostgreSQL, and rndn.background_load loads its columns in the
          background);
  settle: rounds of every query (new sessions) until two rounds in a row run the same plans and
          no "rndn column loader" is running (at most --rounds);
  warm:   each query in a new session, 1 + 3 runs, the median of the last 3;
  PostgreSQL (rndn.enabled = off): 1 + 3 runs, the median of the last 3.
Prints per query the times (ms), which plan ran (rndn: Custom Scan (rndn) in EXPLAIN; PG:
PostgreSQL's), PostgreSQL's warm time over each, and the geometric means.
"""
import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import time

from pgenv import cluster_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", default="1")
    ap.add_argument("--queries", default="1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,21,22",
                    help="Q17 and Q20 take PostgreSQL many minutes at SF 1")
    ap.add_argument("--files", default="none", choices=["keep", "none"],
                    help="none: column files of earlier runs set aside for this run (put back after)")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--build", help="an rndn.so copied over the private tree's (tools/pgprivate.sh) before the run")
    ap.add_argument("--shared-cache", default="2GB",
                    help="rndn.shared_cache_size for the run (ALTER SYSTEM, reset after): TPC-H SF 1's columns take about 1 GB")
    ap.add_argument("--no-prime", action="store_true",
                    help="no first pass with rndn.force (which fills the code cache with every query's kernels)")
    args = ap.parse_args()
    os.chdir(ROOT)
    pgbin = os.environ.get("PGBIN")
    if not pgbin:
        raise SystemExit("PGBIN must name the cluster's bin directory (tools/pgprivate.sh)")
    db = subprocess.run(["tools/tpch.sh", "load", args.sf], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    env = cluster_env()
    queries = [int(q) for q in args.queries.split(",")]
    sql = {q: open(f"test/tpch/queries/q{q}.sql").read() for q in queries}
    owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    data = os.path.realpath("build/pgcluster/data")
    files = os.path.join(data, "rndn_column_files")
    aside = files + ".aside"

    def pg_ctl(action):
        subprocess.run(owner + [os.path.join(pgbin, "pg_ctl"), "-D", data, "-w", "-m", "fast", action, "-l",
                                os.path.join(os.path.dirname(data), "server.log")], check=True, capture_output=True)

    def psql(script, settings=None):
        p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script, capture_output=True,
                           text=True, env={**env, "PGOPTIONS": " ".join(f"-c {k}={v}" for k, v in (settings or {}).items())})
        if p.returncode != 0:
            raise SystemExit(p.stderr.strip().splitlines()[-1])
        return p.stdout

    def times(q, settings, runs):
        script = "\\timing on\n" + "".join(f"\\echo @@run\n{sql[q]}\n" for _ in range(runs))
        out = psql(script, settings)
        return [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", c, re.M)) for c in out.split("@@run")[1:]]

    def statements(q):
        return "\n".join(l for l in sql[q].splitlines() if not l.lstrip().startswith("--")).count(";")

    def plan(q):
        """'rndn' or 'PG' for the plan a query gets now (EXPLAIN, no run); '?' for a script."""
        if statements(q) > 1:
            return "?"
        return "rndn" if "Custom Scan (rndn)" in psql("explain " + sql[q]) else "PG"

    def loaders_running():
        out = psql("select count(*) from pg_stat_activity where backend_type = 'rndn column loader'")
        return int([l for l in out.splitlines() if l.strip().isdigit()][0]) > 0

    if args.build:
        lib = os.path.realpath(os.path.join(pgbin, "..", "lib", "rndn.so"))
        shutil.copy2(args.build, lib + ".new")  # its mtime kept: the code cache knows the build by it
        os.rename(lib + ".new", lib)
    psql(f"ALTER SYSTEM SET rndn.shared_cache_size = '{args.shared_cache}'")
    pg_ctl("restart")
    if not args.no_prime:
        # the kernels of every query compiled once (the code cache on disk keeps them across
        # restarts, as it would for a user's second day)
        for q in queries:
            times(q, {"rndn.force": "on"}, 1)
        time.sleep(5)
    pg_ctl("stop")
    if args.files == "none" and os.path.exists(files):
        os.rename(files, aside)
    pg_ctl("start")
    try:
        first, first_plan = {}, {}
        for q in queries:
            first_plan[q] = plan(q)
            first[q] = times(q, {}, 1)[0]
            print(f"first Q{q}: {first[q]:.0f} ms ({first_plan[q]})", flush=True)
        last = None
        for r in range(args.rounds):
            for q in queries:
                times(q, {}, 1)
            while loaders_running():
                time.sleep(1)
            now = {q: plan(q) for q in queries}
            print(f"round {r + 1}: rndn plans for " + ",".join(f"Q{q}" for q in queries if now[q] == "rndn"), flush=True)
            if now == last:
                break
            last = now
        warm, warm_plan, pg = {}, {}, {}
        for q in queries:
            warm_plan[q] = plan(q)
            warm[q] = statistics.median(times(q, {}, 4)[1:])
            pg[q] = statistics.median(times(q, {"rndn.enabled": "off"}, 4)[1:])
    finally:
        psql("ALTER SYSTEM RESET rndn.shared_cache_size")
        pg_ctl("stop")
        if args.files == "none" and os.path.exists(aside):
            shutil.rmtree(files, ignore_errors=True)
            os.rename(aside, files)
        pg_ctl("start")
    print(f"TPC-H SF {args.sf}, default settings (cost model decides), milliseconds; PG = PostgreSQL warm")
    print("query      PG    first plan     warm plan   PG/first PG/warm")
    for q in queries:
        print(f"{'Q' + str(q):>5} {pg[q]:7.0f} {first[q]:8.0f} {first_plan[q]:>4} {warm[q]:8.0f} {warm_plan[q]:>4}"
              f"   {pg[q] / first[q]:7.2f} {pg[q] / warm[q]:7.2f}", flush=True)
    gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))  # noqa: E731
    print(f"geometric mean of PG/rndn: first {gm([pg[q] / first[q] for q in queries]):.2f}, "
          f"warm {gm([pg[q] / warm[q] for q in queries]):.2f}; rndn plans: first "
          f"{sum(first_plan[q] == 'rndn' for q in queries)}, warm {sum(warm_plan[q] == 'rndn' for q in queries)} "
          f"of {len(queries)}")
    print("slower than PostgreSQL: first " + (",".join(f"Q{q}" for q in queries if first[q] > pg[q]) or "none") +
          "; warm " + (",".join(f"Q{q}" for q in queries if warm[q] > pg[q]) or "none"))


if __name__ == "__main__":
    main()
