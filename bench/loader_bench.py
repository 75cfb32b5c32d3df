#!/usr/bin/env python3
"""Loader throughput and the column cache's validity check, on TPC-H lineitem.

Loads TPC-H (tools/tpch.sh load SF) into the throwaway cluster, then, in one session per
setting, runs a query that reads seven columns of lineitem (four numeric, a date, a char(1)
and the varchar comment) with the column cache off and reads EXPLAIN ANALYZE's Load Time,
Rows Loaded and Bytes Loaded:

  * loader throughput with rndn.loader_threads = 1 and 2 (and 0 = one per core), measured
    alternately in the same run: rows and bytes deformed per second, per deforming thread
    (the backend thread, which reads pages and decides visibility meanwhile, not counted),
    and the speed-up of 2 threads over 1;
  * the cost of proving that cached columns are still valid: the same query with the cache on,
    first run (load + cache) against the next runs (served from the cache: Load Time is then
    the validity check plus handing the columns over).

Usage: make install && .venv/bin/python bench/loader_bench.py [--sf 0.1] [--tbldir DIR] [--repeat 5]
"""
import argparse
import json
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUERY = ("SELECT sum(l_quantity), sum(l_extendedprice), sum(l_discount), sum(l_tax), "
         "max(l_shipdate), count(l_returnflag), count(l_comment) FROM lineitem")


def explain_runs(env, db, settings, runs):
    """EXPLAIN ANALYZE of QUERY `runs` times in one session; the Custom Scan's figures."""
    script = "".join(f"SET {k} = {v};\n" for k, v in settings.items())
    script += f"EXPLAIN (ANALYZE, FORMAT JSON) {QUERY};\n" * runs
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True, env=env, check=True)
    out, docs, depth, start = p.stdout, [], 0, None
    for i, ch in enumerate(out):  # the JSON documents, one per EXPLAIN
        if ch == "[":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                docs.append(json.loads(out[start:i + 1]))
    figures = []
    for d in docs:
        def find(node):
            if node.get("Custom Plan Provider") == "rndn":
                return node
            for c in node.get("Plans", []):
                r = find(c)
                if r:
                    return r
            return None
        scan = find(d[0]["Plan"])
        if scan is None or "Fallback" in json.dumps(scan):
            raise SystemExit("the query did not run through Custom Scan (rndn)")
        figures.append({k: scan.get(k, 0) for k in ("Load Time", "Rows Loaded", "Bytes Loaded",
                                                     "Relations From Column Cache", "Deform CPU Time",
                                                     "Loader Threads")})
    return figures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sf", default="0.1")
    ap.add_argument("--tbldir", default="")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    os.chdir(ROOT)
    cmd = ["tools/tpch.sh", "load", args.sf] + ([args.tbldir] if args.tbldir else [])
    db = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    env = dict(os.environ)
    with open("build/pgcluster/env") as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    base = {"rndn.force": "on", "rndn.column_cache": "0", "max_parallel_workers_per_gather": "0"}
    try:
        loads = {1: [], 2: [], 0: []}
        cpu = {1: [], 2: [], 0: []}
        rows = nbytes = None
        for _ in range(args.repeat):  # alternate the settings: both see the same machine load
            for threads in (1, 2, 0):
                f = explain_runs(env, db, dict(base, **{"rndn.loader_threads": str(threads)}), 1)[0]
                loads[threads].append(f["Load Time"])
                cpu[threads].append(f["Deform CPU Time"])
                if threads:
                    assert f["Loader Threads"] == threads
                rows, nbytes = f["Rows Loaded"], f["Bytes Loaded"]
        cores = os.cpu_count()
        print(f"lineitem at SF {args.sf}: {rows} rows, {nbytes / 1e6:.1f} MB of columns loaded per query "
              f"({args.repeat} runs per setting, median; {cores} cores)")
        print("wall: whole load (backend reads pages and decides visibility while the workers deform);"
              " per core: rows and bytes over the workers' deform CPU time")
        print(f"{'loader_threads':>14} {'load ms':>9} {'Mrows/s':>9} {'MB/s':>8} {'deform CPU ms':>14} "
              f"{'Mrows/s/core':>13} {'MB/s/core':>10}")
        for threads in (1, 2, 0):
            ms = statistics.median(loads[threads])
            cms = statistics.median(cpu[threads])
            print(f"{str(threads) + (' (' + str(cores) + ')' if threads == 0 else ''):>14} {ms:9.1f} "
                  f"{rows / ms / 1e3:9.2f} {nbytes / ms / 1e3:8.1f} {cms:14.1f} {rows / cms / 1e3:13.2f} "
                  f"{nbytes / cms / 1e3:10.1f}")
        print(f"speed-up of 2 threads over 1 (wall time of the load): "
              f"{statistics.median(loads[1]) / statistics.median(loads[2]):.2f}x; machine load average "
              f"{os.getloadavg()[0]:.1f} on {cores} cores")

        # the validity check: cache on, one session, first run loads, the others hit the cache
        f = explain_runs(env, db, {"rndn.force": "on", "rndn.column_cache": "4096"}, 1 + args.repeat)
        if any(x["Relations From Column Cache"] != 1 for x in f[1:]):
            raise SystemExit("the cache was not used: " + json.dumps(f))
        load_ms = f[0]["Load Time"]
        hit_ms = statistics.median(x["Load Time"] for x in f[1:])
        print(f"column cache: load {load_ms:.1f} ms, served from the cache (validity check + hand-over) "
              f"{hit_ms:.3f} ms = {100 * hit_ms / load_ms:.3f}% of the load")
    finally:
        subprocess.run(["tools/pgcluster.sh", "stop"], capture_output=True)


if __name__ == "__main__":
    main()
