"""TPC-H cold and warm, per rndn build and device, against PostgreSQL in the same run (issue 17's
cold target and issue 16's warm one).  Not a test; never run in CI.

    PGBIN=$(tools/pgprivate.sh build/pgtree) tools/pgcluster.sh start
    .venv/bin/python bench/tpch_cold_warm.py --sf 1 [--builds rndn.so,/path/old/rndn.so]
        [--devices interp,cpu] [--queries 1,3,6] [--cold-device auto]

Loads the scale factor into the throwaway cluster (tools/tpch.sh) if needed.  The server must
run from a private copy of the PostgreSQL tree (tools/pgprivate.sh): each build is copied over
that tree's rndn.so before its runs, and the server is restarted.
  warm: per build and device, each query in its own session: a first run, then EXPLAIN ANALYZE
        repeated (1 s apart) until no kernel runs on the interpreter while it compiles in the
        background (a multi-statement script, Q15: a 5 s pause instead), then 3 runs, the median
        (columns from the column cache, kernels compiled);
  cold: per query and build, a server restart, then rndn's first run in a new backend (data in
        the OS page cache, the shared column cache empty; the cpu device's code cache on disk
        keeps what earlier runs compiled), with rndn.device = --cold-device; each build twice,
        in mirrored order (A B B A), the mean reported.  The column files that earlier runs left
        (rndn.column_files_size, src/executor/README.md) are read when their key holds
        (--cold-files keep); --cold-files none sets the folder aside for the cold run, so the
        columns come from the heap (the first load ever); both: a column for each; skip: no cold
        runs (warm and PostgreSQL only);
  PostgreSQL (rndn.enabled = off): 1 + 3 runs in one session, the median of the last 3.
Prints per query the times (ms) and PostgreSQL's time over each, then geometric means and the
queries slower than PostgreSQL.
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
    ap.add_argument("--builds", default="rndn.so", help="comma-separated rndn.so files (first: the one reported first)")
    ap.add_argument("--devices", default="interp,cpu")
    ap.add_argument("--queries", default="1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,21,22",
                    help="Q17 and Q20 take PostgreSQL many minutes at SF 1")
    ap.add_argument("--cold-device", default="auto")
    ap.add_argument("--no-warm", action="store_true", help="cold runs only")
    ap.add_argument("--cold-files", default="both", choices=["keep", "none", "both", "skip"],
                    help="skip: no cold runs (warm and PostgreSQL only)")
    args = ap.parse_args()
    os.chdir(ROOT)
    pgbin = os.environ.get("PGBIN")
    if not pgbin or not os.path.exists(os.path.join(pgbin, "..", "lib", "rndn.so")):
        raise SystemExit("PGBIN must name the bin directory of a tools/pgprivate.sh tree (its lib/rndn.so is replaced)")
    lib = os.path.realpath(os.path.join(pgbin, "..", "lib", "rndn.so"))
    db = subprocess.run(["tools/tpch.sh", "load", args.sf], check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    env = cluster_env()
    builds = [os.path.realpath(b) for b in args.builds.split(",")]
    devices = args.devices.split(",")
    queries = [int(q) for q in args.queries.split(",")]
    sql = {q: open(f"test/tpch/queries/q{q}.sql").read() for q in queries}

    def install(so):
        shutil.copy2(so, lib + ".new")  # its mtime kept: the code cache knows the build by it
        os.rename(lib + ".new", lib)

    owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    data = os.path.realpath("build/pgcluster/data")
    files = os.path.join(data, "rndn_column_files")

    def pg_ctl(action):
        subprocess.run(owner + [os.path.join(pgbin, "pg_ctl"), "-D", data, "-w", "-m", "fast", action, "-l",
                                os.path.join(os.path.dirname(data), "server.log")], check=True, capture_output=True)

    def restart():
        pg_ctl("restart")

    def cold_without_files(q, settings):
        """A restart with the column files set aside (the first load ever), then put back."""
        pg_ctl("stop")
        aside = files + ".aside"
        if os.path.exists(files):
            os.rename(files, aside)
        pg_ctl("start")
        try:
            return times(q, settings, 1)[0]
        finally:
            pg_ctl("stop")
            shutil.rmtree(files, ignore_errors=True)
            if os.path.exists(aside):
                os.rename(aside, files)
            pg_ctl("start")

    def times(q, settings, runs):
        script = "\\timing on\n" + "".join(f"\\echo @@run\n{sql[q]}\n" for _ in range(runs))
        p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script, capture_output=True,
                           text=True, env={**env, "PGOPTIONS": " ".join(f"-c {k}={v}" for k, v in settings.items())})
        if p.returncode != 0:
            raise SystemExit(f"Q{q}: {p.stderr.strip().splitlines()[-1]}")
        return [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", c, re.M)) for c in p.stdout.split("@@run")[1:]]

    def warm_times(q, settings, runs):
        """`runs` timed runs in one session after its first run and after the kernels the cpu
        device compiles in the background are done (rndn.compile_in_background: until then a
        new shape's small kernels run on the interpreter, which is not the warm state): EXPLAIN
        ANALYZE in the same session is repeated until it reports no kernel interpreted while
        compiling (at most about a minute; then the runs are measured anyway and flagged)."""
        p = subprocess.Popen(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env={**env, "PGOPTIONS": " ".join(f"-c {k}={v}" for k, v in settings.items())})

        def run(text):
            p.stdin.write(text + "\n\\echo @@done\n")
            p.stdin.flush()
            out = []
            for line in p.stdout:
                if line.strip() == "@@done":
                    return "".join(out)
                out.append(line)
            raise SystemExit(f"Q{q}: psql ended: {''.join(out[-3:])}")

        run("\\timing on")
        run(sql[q])
        settled = False
        for _ in range(60):
            if sql[q].count(";") > 1:  # a script (Q15's view): no EXPLAIN of it; give the compiles time
                run("select pg_sleep(5);")
                settled = True
                break
            if "Interpreted While Compiling" not in run("explain (analyze, timing off) " + sql[q]):
                settled = True
                break
            run("select pg_sleep(1);")
        # (a script's statements add up, as in `times`)
        got = [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", run(sql[q]), re.M)) for _ in range(runs)]
        p.stdin.close()
        p.wait()
        if not settled:
            print(f"Q{q} {settings.get('rndn.device')}: kernels still compiling after a minute", flush=True)
        return got

    name = lambda b: os.path.relpath(b, ROOT) if b.startswith(ROOT) else b  # noqa: E731
    warm = {}
    for b in builds if not args.no_warm else []:
        install(b)
        restart()
        for d in devices:
            for q in queries:
                warm[(b, d, q)] = statistics.median(warm_times(q, {"rndn.force": "on", "rndn.device": d}, 3))
    cold = {}
    pg = {}
    modes = {"both": ["keep", "none"], "skip": []}.get(args.cold_files, [args.cold_files])
    if "keep" in modes:
        # Every query once with the first build, so that the column writer has saved the
        # columns the cold runs read (the folder unchanged for 5 s: the writer is done).
        install(builds[0])
        restart()
        for q in queries:
            times(q, {"rndn.force": "on", "rndn.device": args.cold_device}, 1)
        last, stable = None, 0
        while stable < 5:
            time.sleep(1)
            now = sorted((e.name, e.stat().st_size) for e in os.scandir(files)) if os.path.isdir(files) else []
            stable = stable + 1 if now == last else 0
            last = now
    for q in queries:
        pg[q] = statistics.median(times(q, {"rndn.enabled": "off"}, 4)[1:])
        # Each build twice, in mirrored order (A B B A): a cold run finds memory the previous
        # run just freed cheaper to touch again (much cheaper on a virtual machine whose host
        # takes back what the guest left unused for a few seconds), which favours whichever
        # build runs second.  The mean of the two is reported.
        cold_settings = {"rndn.force": "on", "rndn.device": args.cold_device}
        for mode in modes:
            got = {b: [] for b in builds}
            for b in builds + builds[::-1]:
                install(b)
                if mode == "keep":
                    restart()
                    got[b].append(times(q, cold_settings, 1)[0])
                else:
                    got[b].append(cold_without_files(q, cold_settings))
            for b in builds:
                cold[(b, mode, q)] = statistics.mean(got[b])
    install(builds[0])
    restart()
    cols = [(f"warm {d} {name(b)}", lambda q, b=b, d=d: warm[(b, d, q)]) for b in builds for d in devices if not args.no_warm]
    cols += [(f"cold {'column files' if m == 'keep' else 'from the heap'} {name(b)}",
              lambda q, b=b, m=m: cold[(b, m, q)]) for m in modes for b in builds]
    print(f"TPC-H SF {args.sf}, milliseconds; cold with rndn.device = {args.cold_device}; PG = PostgreSQL warm")
    for i, (c, _) in enumerate(cols):
        print(f"  column {i + 1}: {c}")
    print("query      PG " + " ".join(f"{i + 1:>8}" for i in range(len(cols))) + "   PG/each")
    for q in queries:
        vals = [f(q) for _, f in cols]
        print(f"{'Q' + str(q):>5} {pg[q]:7.0f} " + " ".join(f"{v:8.0f}" for v in vals) + "   " +
              " ".join(f"{pg[q] / v:.2f}" for v in vals), flush=True)
    for c, f in cols:
        r = [pg[q] / f(q) for q in queries]
        slower = [f"Q{q}" for q in queries if pg[q] / f(q) < 1]
        print(f"{c}: geometric mean of PG / rndn {math.exp(sum(map(math.log, r)) / len(r)):.2f}; "
              f"slower than PG: {len(slower)} of {len(r)} {' '.join(slower)}")


if __name__ == "__main__":
    main()
