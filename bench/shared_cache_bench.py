"""The first query of a new connection: with the shared column cache warmed by another
connection, against cold (a new backend right after a server restart, data in the OS page
cache), against PostgreSQL (rndn.enabled = off) in the same run.  Not a test; never run in CI.

    .venv/bin/python bench/shared_cache_bench.py [--sf 0.1] [--queries 1,6] [--repeat 3]
                                                 [--device interp|cpu]

Per query and repetition: restart the server; a new connection runs the query through rndn
(cold: every column read from the heap, then published to the shared cache); another new
connection runs it (first run: columns from the shared cache), then again in the same session
(warm); a new connection runs it on PostgreSQL (first run, then the median of the next runs).
Medians over the repetitions, milliseconds as psql's \\timing reports them.  The server needs
rndn.shared_cache_size large enough for the query's columns (default 512MB).  --device sets
rndn.device for rndn's runs.  The last lines: geometric means over the queries of PostgreSQL's
warm time over rndn's cold time (issue 17's cold target: at least 2, and no query below 1) and
of rndn's warm time over its time in a new connection with the shared cache warm (the target:
the same time, 1.0).  PGBIN selects the server binaries the restarts use.
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "tpch"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import harness  # noqa: E402
from tpch import session_times  # noqa: E402

PGBIN = os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin")


def restart(env):
    data = os.path.join(os.path.realpath(os.path.join(ROOT, "build/pgcluster")), "data")
    owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run(owner + [os.path.join(PGBIN, "pg_ctl"), "-D", data, "-w", "-m", "fast", "restart", "-l",
                            os.path.join(os.path.dirname(data), "server.log")], check=True, capture_output=True)


def shared_columns(env, db):
    p = subprocess.run(["psql", "-X", "-A", "-t", "-d", db, "-c",
                        "SELECT count(*), coalesce(sum(bytes), 0) FROM rndn_column_cache()"],
                       capture_output=True, text=True, env=env, check=True)
    return p.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", default="0.1")
    ap.add_argument("--queries", default="1,6")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--device", default=None, help="rndn.device for rndn's runs (default: the server's)")
    args = ap.parse_args()
    settings = {"rndn.device": args.device} if args.device else None
    os.chdir(ROOT)
    db = subprocess.run(["tools/tpch.sh", "load", args.sf], check=True, capture_output=True,
                        text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ)
    with open("build/pgcluster/env") as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    subprocess.run(["psql", "-X", "-q", "-d", db, "-c", "ALTER EXTENSION rndn UPDATE"], env=env, check=True)
    print(f"TPC-H SF {args.sf}, milliseconds, medians of {args.repeat}: first query of a new connection"
          f"{', rndn.device = ' + args.device if args.device else ''}")
    pg_over_cold, warm_over_shared, slower = [], [], []
    print(f"{'query':>5} {'cold':>9} {'shared':>9} {'warm':>9} {'PG first':>9} {'PG warm':>9} "
          f"{'cold/shr':>8} {'PGf/shr':>8} {'PGw/shr':>8}  shared cache after")
    try:
        for q in [int(x) for x in args.queries.split(",")]:
            sql = harness.query_text(q)
            cold, shared, warm, pg_first, pg_warm = [], [], [], [], []
            info = ""
            for _ in range(args.repeat):
                restart(env)
                t, err = session_times(env, db, sql, "on", 1, settings)
                if t is None:
                    sys.exit(f"Q{q}: {err}")
                cold.append(t[0])
                time.sleep(1)  # let the cold backend exit (it frees its memory) before timing the next
                t, err = session_times(env, db, sql, "on", 2, settings)
                shared.append(t[0])
                warm.append(t[1])
                info = shared_columns(env, db)
                t, err = session_times(env, db, sql, "off", 1 + 3)
                pg_first.append(t[0])
                pg_warm.append(statistics.median(t[1:]))
            m = [statistics.median(x) for x in (cold, shared, warm, pg_first, pg_warm)]
            ran = harness_uses_rndn(env, db, sql)
            print(f"{'Q' + str(q):>5} " + " ".join(f"{v:9.1f}" for v in m) +
                  f" {m[0] / m[1]:8.2f} {m[3] / m[1]:8.2f} {m[4] / m[1]:8.2f}  {info} (columns|bytes)"
                  f"{'' if ran else '   (rndn fell back to PostgreSQL)'}", flush=True)
            pg_over_cold.append(m[4] / m[0])
            warm_over_shared.append(m[2] / m[1])
            if m[0] > m[4]:
                slower.append(f"Q{q}")
        gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")  # noqa: E731
        print(f"geometric mean of PG warm / rndn cold: {gm(pg_over_cold):.2f} (target >= 2); "
              f"cold slower than PG warm: {len(slower)} of {len(pg_over_cold)} {' '.join(slower)}")
        print(f"geometric mean of rndn warm / rndn first run in a new connection (shared cache): "
              f"{gm(warm_over_shared):.2f} (target 1.0)")
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"])


def harness_uses_rndn(env, db, sql):
    old = dict(os.environ)
    os.environ.update({k: env[k] for k in ("PGHOST", "PGPORT", "PGUSER")})
    try:
        return harness.explain_uses_rndn(db, sql)
    finally:
        os.environ.clear()
        os.environ.update(old)


if __name__ == "__main__":
    main()
