"""Differential SQL suite: every case of cases.sql with rndn.enabled off and on.

    run.py [--cases FILE] [--db NAME] [--locale LOCALE]

Needs PGHOST/PGPORT/PGUSER of a running cluster with rndn preloaded (tools/pgcluster.sh).  The
set-up part is run once, with rndn off, in a fresh database.  Each case must produce the same
output (sorted first when the case has no ORDER BY) and the same errors with the same SQLSTATE.
Prints one line per case, whether rndn ran it (EXPLAIN shows Custom Scan (rndn)), and a closing
'N passed, M failed' line; exit 1 on any failure.  A case must run through rndn unless its first
line is '-- fallback: REASON' (then it must not): a fallback nobody expected fails the case.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import horseir_roundtrip  # noqa: E402


def parse_cases(path):
    """(set-up, [(name, sql, fallback reason or None)]).  A case whose first line is
    '-- fallback: REASON' is expected to stay on PostgreSQL's plan (or to fall back at run time);
    every other case must run through rndn."""
    with open(path) as f:
        text = f.read()
    parts = re.split(r"^-- query: *(\S+) *$", text, flags=re.M)
    setup = parts[0]
    cases = []
    for i in range(1, len(parts), 2):
        body = parts[i + 1].strip()
        m = re.match(r"^-- fallback: *(.+)$", body, flags=re.M)
        reason = m.group(1).strip() if m else None
        if m:
            body = body[m.end():].strip()
        cases.append((parts[i], body, reason))
    return setup, cases


DEVICE = None  # --device: rndn.device of every session (interp, cpu, cuda)


def psql(db, script, rndn, stop_on_error=False):
    # rndn.force: the cases are small, so PostgreSQL's plan would usually be expected faster;
    # the suite tests what rndn computes, so rndn takes every plan it can.
    device = f" -c rndn.device={DEVICE} -c rndn.compile_in_background=off" if DEVICE else ""
    if DEVICE == "cuda":  # the emulated driver (the driver API over rndn's SASS emulator) unless RNDN_LIBCUDA names one
        device += " -c rndn.cuda_library=" + (os.environ.get("RNDN_LIBCUDA") or os.path.abspath("build/lib/libcuda_emu.so"))
    env = dict(os.environ, PGOPTIONS=f"-c rndn.enabled={rndn} -c rndn.force=on{device}")
    cmd = ["psql", "-X", "-q", "-A", "-F", "|", "-P", "footer=off", "-d", db]
    if stop_on_error:
        cmd += ["-v", "ON_ERROR_STOP=1"]
    p = subprocess.run(cmd, input=script, capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def run_case(db, sql):
    script = "\\set VERBOSITY default\n" + sql + "\n\\echo SQLSTATE :LAST_ERROR_SQLSTATE\n"
    results = {}
    for rndn in ("off", "on"):
        _, out, err = psql(db, script, rndn)
        if "ORDER BY" not in sql.upper():
            out = "\n".join(sorted(out.splitlines()))
        results[rndn] = (out, err)
    return results


def uses_rndn(db, sql):
    lines = []
    for stmt in [s.strip() for s in sql.split(";") if s.strip()]:
        if re.match(r"(?is)^(select|with)\b", stmt):
            lines.append(f"EXPLAIN (COSTS OFF) {stmt};")
        elif re.match(r"(?is)^execute\b", stmt):
            lines.append(f"EXPLAIN (COSTS OFF) {stmt};")
        else:
            lines.append(stmt + ";")
    _, out, _ = psql(db, "\n".join(lines), "on")
    # every plan must have rndn at its root: rndn under PostgreSQL's nodes did not run the query
    plan_lines = out.splitlines()
    roots = [plan_lines[i + 1].strip() for i, l in enumerate(plan_lines[:-1]) if l.strip() == "QUERY PLAN"]
    if not roots or not all(r.startswith("Custom Scan (rndn)") for r in roots):
        return False
    # Planned through rndn: did the program also run, or did it fall back at run time (a guard
    # such as non-ASCII text where bytes are counted)?  Errors leave no plan to read.
    _, out, _ = psql(db, "\n".join(l.replace("EXPLAIN (COSTS OFF)", "EXPLAIN (ANALYZE, COSTS OFF)") for l in lines), "on")
    return "runtime-fallback" if "Fallback: PostgreSQL plan" in out else True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default=os.path.join(HERE, "cases.sql"))
    ap.add_argument("--db", default="rndn_differential")
    ap.add_argument("--locale", default=None,
                    help="create the database with this locale (e.g. C.UTF-8) instead of the cluster's")
    ap.add_argument("--device", default=None, help="rndn.device for the sessions (interp, cpu, cuda)")
    args = ap.parse_args()
    global DEVICE
    DEVICE = args.device
    setup, cases = parse_cases(args.cases)
    locale = f" TEMPLATE template0 ENCODING 'UTF8' LOCALE '{args.locale}'" if args.locale else ""
    rc, _, err = psql("postgres", f"SET client_min_messages = warning;\nDROP DATABASE IF EXISTS {args.db};\n"
                      f"CREATE DATABASE {args.db}{locale};\n", "off", True)
    if rc != 0:
        sys.exit("could not create the database: " + err)
    rc, _, err = psql(args.db, "CREATE EXTENSION IF NOT EXISTS rndn;\n" + setup, "off", True)
    if rc != 0:
        sys.exit("set-up failed: " + err)
    passed = failed = through = programs = 0
    for name, sql, reason in cases:
        res = run_case(args.db, sql)
        ran = uses_rndn(args.db, sql)
        how = "rndn (fell back at run time)" if ran == "runtime-fallback" else "rndn" if ran else "PostgreSQL plan"
        through += ran is True
        problems = []
        if res["off"] != res["on"]:
            (o_off, e_off), (o_on, e_on) = res["off"], res["on"]
            problems.append("errors differ: " + repr(e_on.strip()[:300]) + " vs " + repr(e_off.strip()[:300])
                            if e_off != e_on else "results differ")
        # A comparison passes trivially when rndn stood aside: each case says which way it goes.
        if reason is None and ran is not True:
            problems.append("expected to run through rndn (list it with '-- fallback: REASON' if it must not)")
        elif reason is not None and ran is True:
            problems.append(f"listed as falling back ({reason}) but ran through rndn: remove the '-- fallback' line")
        # The text the plan node carries is canonical HorseIR (print(parse(text)) == text).
        if ran:
            stmts = [x.strip() for x in sql.split(";") if x.strip()]
            env = dict(os.environ, PGOPTIONS="-c rndn.enabled=on -c rndn.force=on")
            n, bad = horseir_roundtrip.check_statements(args.db, stmts, env)
            programs += n
            if n == 0 and any(re.match(r"(?is)^(select|with)\b", x) for x in stmts):
                problems.append("rndn ran the case but rndn_horseir() returned no program")
            problems += ["HorseIR text " + b for b in bad]
        if not problems:
            print(f"differential {name}: ok via {how}" + (f" (expected: {reason})" if reason else ""))
            passed += 1
        else:
            print(f"differential {name}: FAILED via {how} ({'; '.join(problems)})")
            if res["off"][0] != res["on"][0]:
                import difflib
                for line in list(difflib.unified_diff(res["off"][0].splitlines(), res["on"][0].splitlines(), "rndn off",
                                                      "rndn on", lineterm=""))[:30]:
                    print("    " + line)
            failed += 1
    listed = sum(1 for c in cases if c[2] is not None)
    print(f"differential: {through}/{len(cases)} cases ran through Custom Scan (rndn); "
          f"{listed} listed as falling back; {programs} translated programs print back to the same text")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
