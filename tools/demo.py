#!/usr/bin/env python3
"""The demo's queries: SQL, rndn's plan (device, kernels), result, times against PostgreSQL.

For each TPC-H query, in one session with rndn (rndn.device as given, cpu by default):
  1. EXPLAIN (ANALYZE, COSTS OFF) of the query: the first run in that session (for a query
     shape no earlier session compiled: PTX generation and JIT), its plan printed with the
     device, kernels launched and compile times;
  2. the query itself twice: the result (printed) and the warm time;
then in another session with rndn.enabled = off the query twice (PostgreSQL's own plan), and a
line saying whether both results are identical, row for row and character for character.

Usage: tools/demo.py DB [--queries 1,6] [--device cpu|cuda|interp]   (PGHOST/PGPORT/PGUSER from the env;
--device cuda opens $RNDN_LIBCUDA, else build/lib/libcuda_emu.so, the emulated driver)
Exit status 1 when a result differs, the plan's root is not rndn's Custom Scan, or a
compiling device launched no kernel.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = "@@rndn-demo@@"
TIME = re.compile(r"^Time: ([0-9.]+) ms")


def query_sql(q):
    with open(os.path.join(ROOT, "test", "tpch", "queries", f"q{q}.sql")) as f:
        text = "".join(line for line in f if not line.lstrip().startswith("--"))
    return text.strip().rstrip(";").strip()


def session(db, settings, statements):
    """Runs statements in one psql session; per statement its output lines and time (ms)."""
    script = "".join(f"SET {k} = {v};\n" for k, v in settings.items()) + "\\timing on\n"
    for s in statements:
        script += f"\\echo {MARK}\n{s};\n"
    p = subprocess.run(["psql", "-X", "-q", "-d", db, "-v", "ON_ERROR_STOP=1"], input=script,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip() or p.stdout.strip())
    parts = p.stdout.split(MARK + "\n")[1:]
    out = []
    for part in parts:
        lines, ms = [], None
        for line in part.splitlines():
            m = TIME.match(line)
            if m:
                ms = float(m.group(1))
            else:
                lines.append(line)
        while lines and not lines[-1].strip():
            lines.pop()
        out.append((lines, ms))
    return out


def plan_field(plan, name):
    for line in plan:
        m = re.match(rf"^\s*{re.escape(name)}: (.*)$", line)
        if m:
            return m.group(1).strip()
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--queries", default="1,6")
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()
    bad = 0
    for q in [int(x) for x in args.queries.split(",")]:
        sql = query_sql(q)
        print(f"\n==================== TPC-H Q{q} ====================")
        print(sql)
        # compile_in_background off: the first run waits for its kernels (the default runs a new
        # shape's small kernels on the interpreter while they compile), so the plan shows them
        settings = {"rndn.device": f"'{args.device}'", "rndn.compile_in_background": "off"}
        if args.device == "cuda":  # $RNDN_LIBCUDA, else the emulated driver (the driver API over rndn's SASS emulator)
            lib = os.environ.get("RNDN_LIBCUDA") or os.path.abspath("build/lib/libcuda_emu.so")
            settings["rndn.cuda_library"] = f"'{lib}'"
        on = session(args.db, settings, [f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", sql, sql])
        off = session(args.db, {"rndn.enabled": "off"}, [sql, sql])
        (plan, t_first), (res1, t_warm1), (res2, t_warm2) = on
        (pg1, t_pg1), (pg2, t_pg2) = off
        print("\n--- rndn's plan (first run in this session: EXPLAIN ANALYZE)")
        print("\n".join(plan))
        print("\n--- result")
        print("\n".join(res2))
        rows = plan_field(plan, "Kernels Launched")
        device = plan_field(plan, "Device")
        root_ok = any("Custom Scan (rndn)" in line for line in plan[:3])
        same = res1 == pg1 and res2 == pg1 and pg2 == pg1
        nrows = re.search(r"\((\d+) rows?\)", "\n".join(res2))
        print("\n--- times (ms)")
        print(f"  rndn, device {device}: first run {t_first:.1f} (with EXPLAIN ANALYZE), "
              f"then {t_warm1:.1f} and {t_warm2:.1f} (warm)")
        print(f"  PostgreSQL (rndn.enabled = off): {t_pg1:.1f}, then {t_pg2:.1f}")
        print(f"  warm speed-up over PostgreSQL: {t_pg2 / t_warm2:.2f}x")
        kernels = int(rows) if rows and rows.isdigit() else 0
        print(f"  kernels launched: {kernels}; modules: {plan_field(plan, 'Modules') or '-'}")
        if same:
            print(f"demo q{q}: results identical to PostgreSQL's ({nrows.group(1) if nrows else '?'} rows)")
        else:
            print(f"demo q{q}: RESULTS DIFFER from PostgreSQL's")
        if not root_ok:
            print(f"demo q{q}: the plan's root is not Custom Scan (rndn)")
        compiling = args.device not in ("interp",)
        if compiling and kernels == 0:
            print(f"demo q{q}: no kernel was launched on device {args.device}")
        bad += (not same) + (not root_ok) + (compiling and kernels == 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
