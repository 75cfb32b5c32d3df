"""The first run of a new query shape, in a new session (issue 16: compile time of a new shape).

    bench/first_run.py DB [--queries 1,3,6] [--repeat 3]

Needs PGHOST/PGPORT/PGUSER of a running cluster with rndn preloaded and a TPC-H database
(tools/tpch.sh load SF).  For each query, each column is the median over --repeat fresh sessions
of the first run's time (ms, psql's \\timing), with rndn.code_cache_size = 0 so that no kernel
comes from the code cache on disk (every run is a new shape to its backend), and the column
cache warm (a run before the timed ones loads the columns; each session finds them in the
shared cache when the server has one, else loads them again: same for every rndn column):

  pg           PostgreSQL (rndn.enabled = off)
  interp       rndn on the interpreter
  cpu wait     rndn on the cpu device, rndn.compile_in_background = off (the run compiles its
               kernels, then launches them)
  cpu bg       the default: small kernels run on the interpreter while they compile in the
               background, large ones are compiled first
  cpu 2nd      the second run in the cpu bg session, 2 s after the first (its compiles done or not)

and the ratios cpu bg / cpu wait and cpu bg / interp.  The machine is noisy: the ratios compare
columns measured in the same pass.  A benchmark, never a timed test.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "tpch"))
import harness  # noqa: E402


def first_run(db, sql, settings, second_after=None):
    """ms of the first run of sql in a new session (and of a second run `second_after` s later)."""
    script = "\\timing on\n\\echo @@run 0\n" + sql + "\n"
    if second_after is not None:
        script += f"\\timing off\nSELECT pg_sleep({second_after});\n\\timing on\n\\echo @@run 1\n{sql}\n"
    env = dict(os.environ, PGOPTIONS="-c rndn.force=on" + "".join(f" -c {k}={v}" for k, v in settings.items()))
    p = subprocess.run(["psql", "-X", "-q", "-A", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("psql failed: " + p.stderr.strip()[-300:])
    chunks = p.stdout.split("@@run ")[1:]
    return [sum(float(x) for x in re.findall(r"^Time: ([0-9.]+) ms", c, re.M)) for c in chunks]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--queries", default="1,3,6,12,14")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cols = {
        "pg": {"rndn.enabled": "off"},
        "interp": {"rndn.device": "interp"},
        "cpu wait": {"rndn.device": "cpu", "rndn.code_cache_size": 0, "rndn.compile_in_background": "off"},
        "cpu bg": {"rndn.device": "cpu", "rndn.code_cache_size": 0},
    }
    print(f"{'query':6}" + "".join(f"{c:>10}" for c in cols) + f"{'cpu 2nd':>10}{'bg/wait':>9}{'bg/interp':>10}")
    ratios_wait, ratios_interp = [], []
    for q in [int(x) for x in args.queries.split(",")]:
        sql = harness.query_text(q)
        first_run(args.db, sql, cols["interp"])  # the columns loaded once before the timed runs
        t = {c: [] for c in cols}
        second = []
        for _ in range(args.repeat):
            for c, s in cols.items():
                times = first_run(args.db, sql, s, 2.0 if c == "cpu bg" else None)
                t[c].append(times[0])
                if c == "cpu bg":
                    second.append(times[1])
        med = {c: statistics.median(v) for c, v in t.items()}
        rw, ri = med["cpu bg"] / med["cpu wait"], med["cpu bg"] / med["interp"]
        ratios_wait.append(rw)
        ratios_interp.append(ri)
        print(f"q{q:<5}" + "".join(f"{med[c]:10.1f}" for c in cols) + f"{statistics.median(second):10.1f}{rw:9.2f}{ri:10.2f}",
              flush=True)
    gm = lambda xs: statistics.geometric_mean(xs)  # noqa: E731
    print(f"geometric mean: cpu bg / cpu wait {gm(ratios_wait):.2f}, cpu bg / interp {gm(ratios_interp):.2f}")


if __name__ == "__main__":
    main()
