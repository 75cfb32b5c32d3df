#!/usr/bin/env python3
"""Warm TPC-H queries: time and the backend's minor page faults, rndn against PostgreSQL.

In one session per setting (rndn on with its column cache; rndn.enabled = off), runs each query
once to warm up (rndn loads and caches the columns, PostgreSQL's pages come into shared
buffers), then `--repeat` times, reading psql's \\timing and the backend process's minor page
faults (field 10 of /proc/<pid>/stat: the same count getrusage's ru_minflt gives the process,
every thread included) before and after each run.  Prints the medians.

Usage: .venv/bin/python bench/warm_bench.py --env build/pgcluster/env --db tpch_sf0_1 [--queries 1,6] [--repeat 5]
(the database from tools/tpch.sh load SF; any cluster whose env file is given)
"""
import argparse
import os
import re
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def session(env, db, settings, query, repeat):
    lines = [f"SET {k} = {v};" for k, v in settings.items()]
    lines += ["SELECT pg_backend_pid() AS pid \\gset", "\\setenv RNDN_BENCH_PID :pid", "\\o /dev/null", query, "\\o", "\\timing on"]
    for _ in range(repeat):
        lines += ["\\! echo FAULTS $(cut -d' ' -f10 /proc/$RNDN_BENCH_PID/stat)", "\\o /dev/null", query, "\\o",
                  "\\! echo FAULTS $(cut -d' ' -f10 /proc/$RNDN_BENCH_PID/stat)"]
    p = subprocess.run(["psql", "-X", "-q", "-d", db, "-v", "ON_ERROR_STOP=1"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, env=env, check=True)
    times = [float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", p.stdout, re.M)]
    faults = [int(x) for x in re.findall(r"^FAULTS (\d+)", p.stdout, re.M)]
    deltas = [faults[i + 1] - faults[i] for i in range(0, len(faults), 2)]
    if len(times) != repeat or len(deltas) != repeat:
        raise SystemExit("unexpected psql output:\n" + p.stdout + p.stderr)
    return statistics.median(times), statistics.median(deltas)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", default="build/pgcluster/env")
    ap.add_argument("--db", required=True)
    ap.add_argument("--queries", default="1,6")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    os.chdir(ROOT)
    env = dict(os.environ)
    with open(args.env) as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    print(f"{'query':>6} {'setting':>10} {'warm ms':>9} {'minor faults':>13}")
    for q in args.queries.split(","):
        path = f"test/tpch/queries/q{q}.sql"
        if not os.path.exists(path):
            path = f"test/tpch/queries/Q{q}.sql"
        with open(path) as f:
            text = f.read().strip()
        for name, settings in (("rndn", {"rndn.force": "on"}),
                               ("postgres", {"rndn.enabled": "off"})):
            ms, faults = session(env, args.db, dict(settings, max_parallel_workers_per_gather="0"), text,
                                 args.repeat)
            print(f"{'Q' + q:>6} {name:>10} {ms:9.1f} {faults:13d}")


if __name__ == "__main__":
    main()
