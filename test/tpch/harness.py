"""TPC-H harness: runs the 22 queries of test/tpch/queries through psql against the throwaway
cluster (PGHOST/PGPORT/PGUSER from tools/pgcluster.sh).

Three checks, each one test per query:
  answers      PostgreSQL's own result (rndn.enabled = off) against the official answer
               published with the generator (DuckDB's tpch_answers(), SF 0.01/0.1/1).
               This proves the harness and the data before anything judges rndn.
  differential rndn.enabled off and on give exactly the same text (rows, order, numeric
               scale, dates) or the same error; EXPLAIN shows whether rndn ran the query.
  session      all 22 twice in one rndn session (the second pass from the column cache),
               each output equal to PostgreSQL's, and lineitem served from the cache.

    harness.py answers DB SF        harness.py differential DB        harness.py session DB
Prints one line per query and a closing 'N passed, M failed' line; exit 1 on any failure.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = os.path.join(HERE, "queries")
sys.path.insert(0, os.path.dirname(HERE))
import horseir_roundtrip  # noqa: E402


def query_text(n: int) -> str:
    with open(os.path.join(QUERIES, f"q{n}.sql")) as f:
        return f.read()


def statements(sql: str):
    body = "\n".join(l for l in sql.splitlines() if not l.strip().startswith("--"))
    return [s.strip() for s in body.split(";") if s.strip()]


# `differential DB --device cpu|cuda`: rndn.device for every session (the kernels launched are
# then asserted from EXPLAIN ANALYZE).  The cuda device runs on the emulated driver
# (build/lib/libcuda_emu.so, the driver API over rndn's SASS emulator) unless RNDN_LIBCUDA names
# another library; its kernels are compiled by rndn's own PTX -> SASS compiler.
DEVICE = {}
KERNEL_DEVICES = ("cpu", "cuda")
# Kernels a query must launch on the cpu device (Q6 is one fused kernel); every other query
# that runs through rndn must launch at least one.
EXACT_KERNELS = {"q6": 1}
# Queries whose kernels fail on the cpu device today (code generator gaps: the device then runs
# the whole program on the interpreter, and EXPLAIN ANALYZE says "Rerun On Interpreter").  A
# query listed must show the rerun, one not listed must not: fixing a gap means removing it here.
CPU_RERUNS = {}


def psql(db: str, sql: str, settings: dict, timeout: int = 600):
    """Run sql in one session; returns (ok, stdout, stderr)."""
    env = dict(os.environ)
    # rndn.force: at SF 0.01 PostgreSQL's plans are often expected faster; the harness tests what
    # rndn computes, so rndn takes every plan it can (a setting passed in wins).
    settings = {"rndn.force": "on", **DEVICE, **settings}
    env["PGOPTIONS"] = " ".join(f"-c {k}={v}" for k, v in settings.items())
    cmd = ["psql", "-X", "-q", "-A", "-F", "|", "-P", "footer=off", "-v", "ON_ERROR_STOP=1", "-d", db]
    p = subprocess.run(cmd, input=sql, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode == 0, p.stdout, p.stderr.strip()


def as_number(s: str):
    try:
        return float(s)
    except ValueError:
        return None


def same_field(ours: str, official: str) -> bool:
    a, b = as_number(ours), as_number(official)
    if a is not None and b is not None:
        # TPC-H 2.1.3.5: results must match to the precision shown; allow rounding noise of
        # the answer set's binary floats (averages) and cents for money.
        return abs(a - b) <= max(0.01, 1e-9 * abs(b))
    return ours.rstrip() == official.rstrip()


def compare_answer(output: str, answer: str):
    ours = [l for l in output.splitlines()][1:]
    official = answer.split("\n")
    if official and official[-1] == "":
        official.pop()  # the answer ends with a newline; an empty line before it is a NULL row
    official = official[1:]
    if len(ours) != len(official):
        return f"{len(ours)} rows, official answer has {len(official)}"
    for i, (o, a) in enumerate(zip(ours, official)):
        of, af = o.split("|"), a.split("|")
        if len(of) != len(af):
            return f"row {i + 1}: {len(of)} columns, official answer has {len(af)}"
        for j, (x, y) in enumerate(zip(of, af)):
            if not same_field(x, y):
                return f"row {i + 1} column {j + 1}: {x!r}, official answer {y!r}"
    return None


def official_answer(sf: str, n: int) -> str:
    import duckdb
    con = duckdb.connect()
    con.execute("CALL dbgen(sf=0)")
    rows = con.execute("SELECT answer FROM tpch_answers() WHERE scale_factor = ? AND query_nr = ?",
                       [float(sf), n]).fetchall()
    return rows[0][0] if rows else None


def run_answers(db: str, sf: str) -> int:
    passed = failed = 0
    for n in range(1, 23):
        answer = official_answer(sf, n)
        if answer is None:
            print(f"tpch answers sf{sf} q{n}: FAILED (no official answer for this scale factor)")
            failed += 1
            continue
        ok, out, err = psql(db, query_text(n), {"rndn.enabled": "off"})
        problem = err if not ok else compare_answer(out, answer)
        if problem:
            print(f"tpch answers sf{sf} q{n}: FAILED ({problem})")
            failed += 1
        else:
            print(f"tpch answers sf{sf} q{n}: ok")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def explain_uses_rndn(db: str, sql: str, kernels: list = None) -> bool:
    """Whether rndn ran the query: its plan is a Custom Scan (rndn) and, run under EXPLAIN
    ANALYZE, the program did not fall back to PostgreSQL's plan at run time.  `kernels` gets
    the kernels launched (summed over the plan's rndn nodes; None where no node reports it)."""
    stmts = statements(sql)
    script = []
    for s in stmts:
        if re.match(r"(?is)^\s*(select|with)\b", s):
            script.append("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + s + ";")
        else:
            script.append(s + ";")
    ok, out, _ = psql(db, "\n".join(script), {"rndn.enabled": "on"})
    if kernels is not None:
        counts = [int(x) for x in re.findall(r"Kernels Launched: (\d+)", out)]
        kernels.append(sum(counts) if counts else None)
        kernels.append("Rerun On Interpreter:" in out)
    return ok and rndn_at_root(out) and "Fallback: PostgreSQL plan" not in out


def rndn_at_root(explain_output: str) -> bool:
    """Whether every plan in the output has Custom Scan (rndn) at its root (a plan where rndn
    runs only a subtree under PostgreSQL's nodes does not count as running the query)."""
    lines = explain_output.splitlines()
    roots = [lines[i + 1].strip() for i, l in enumerate(lines[:-1]) if l.strip() == "QUERY PLAN"]
    return bool(roots) and all(r.startswith("Custom Scan (rndn)") for r in roots)


# Queries expected to stay with PostgreSQL, with the reason, per database collation ("C" is
# the test cluster's default).  Every other query (and every qgen form) must run through rndn:
# the differential passes trivially when rndn stood aside, so a fallback not listed here fails.
EXPECTED_FALLBACKS = {
    "C": {},
    # C.UTF-8 orders text by code point, which is UTF-8's byte order: rndn runs it as in C
    "C.UTF-8": {},
    # en_US.UTF-8 (libc): text is sorted, compared and min/max'ed through @collate_rank, in
    # strcoll_l's order with the bytes breaking ties (issue 19 item 15)
    "en_US.UTF-8": {},
}


# The same queries as qgen writes them: the end of each date range as date +/- interval, which
# PostgreSQL folds to a timestamp constant compared with a date column.
QGEN_FORMS = {
    1: ("CAST('1998-09-02' AS date)", "date '1998-12-01' - interval '90' day"),
    4: ("CAST('1993-10-01' AS date)", "date '1993-07-01' + interval '3' month"),
    5: ("CAST('1995-01-01' AS date)", "date '1994-01-01' + interval '1' year"),
    6: ("CAST('1995-01-01' AS date)", "date '1994-01-01' + interval '1' year"),
    10: ("CAST('1994-01-01' AS date)", "date '1993-10-01' + interval '3' month"),
    12: ("CAST('1995-01-01' AS date)", "date '1994-01-01' + interval '1' year"),
    14: ("CAST('1995-10-01' AS date)", "date '1995-09-01' + interval '1' month"),
    15: ("CAST('1996-04-01' AS date)", "date '1996-01-01' + interval '3' month"),
    20: ("CAST('1995-01-01' AS date)", "date '1994-01-01' + interval '1' year"),
}


def qgen_text(n: int) -> str:
    folded, interval = QGEN_FORMS[n]
    sql = query_text(n)
    assert folded in sql, f"q{n}: {folded} not found"
    return sql.replace(folded, interval)


def database_collation(db: str) -> str:
    ok, out, err = psql(db, "SELECT datcollate FROM pg_database WHERE datname = current_database();", {})
    name = out.strip().splitlines()[-1].strip() if ok and out.strip() else "?"
    return {"POSIX": "C", "C.utf8": "C.UTF-8", "en_US.utf8": "en_US.UTF-8"}.get(name, name)


# Q6 with other constants: the same query shape (constants are kernel arguments).
Q6_OTHER = [("'1994-01-01'", "'1996-01-01'"), ("'1995-01-01'", "'1997-01-01'"), ("0.05", "0.02"), ("0.07", "0.04"),
            ("< 24", "< 30")]


def run_cpu_checks(db: str):
    """On the cpu device: (1) Q6 repeated with other constants in one session compiles nothing
    (EXPLAIN ANALYZE: the modules come from the cache through the same shape, no module
    compiled, no PTX generated) and answers as PostgreSQL; (2) rndn.cpu_threads = 1 and 2 change
    no result (Q1, Q6).  Returns (passed, failed)."""
    q6 = statements(query_text(6))[0]
    other = q6
    for a, b in Q6_OTHER:
        assert a in other, f"q6: {a} not found"
        other = other.replace(a, b)
    passed = failed = 0
    ok_off, out_off, err_off = psql(db, other + ";", {"rndn.enabled": "off"})
    ok_q6, out_q6, _ = psql(db, q6 + ";", {"rndn.enabled": "off"})
    explain = "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "
    script = f"{explain}{q6};\n\\echo @@other\n{explain}{other};\n\\echo @@result\n{other};\n"
    ok_on, out_on, err_on = psql(db, script, {"rndn.enabled": "on"})
    first, _, rest = out_on.partition("@@other\n")
    second, _, result = rest.partition("@@result\n")
    problem = None
    if not (ok_off and ok_on and ok_q6):
        problem = err_off or err_on or "psql failed"
    elif out_off == out_q6:
        problem = "the other constants give the same answer as Q6's: the check would not see stale constants"
    elif not rndn_at_root(second) or "Kernels Launched: 1" not in second:
        problem = "Q6 with other constants did not run as one kernel through rndn"
    elif "Modules: compiled" not in first:
        problem = "the first Q6 of the session did not compile its module"
    elif not ("Modules: from cache (same shape)" in second and "Modules Compiled: 0" in second and "PTX Generated: 0" in second):
        got = [l.strip() for l in second.splitlines() if "Modules" in l or "PTX" in l]
        problem = f"Q6 with other constants compiled again ({'; '.join(got)})"
    elif result != out_off:
        problem = "results differ from PostgreSQL's"
    if problem:
        print(f"tpch cpu shape-cache q6: FAILED ({problem})")
        failed += 1
    else:
        print("tpch cpu shape-cache q6: ok (other constants: modules from cache, 0 compiled, 0 PTX generated)")
        passed += 1
    for label, sql in (("q1", query_text(1)), ("q6", other + ";")):  # q6: with the other constants
        ok_off, out_off, err_off = psql(db, sql, {"rndn.enabled": "off"})
        bad = []
        for threads in ("1", "2"):
            settings = {"rndn.enabled": "on", "rndn.cpu_threads": threads}
            ok_on, out_on, err_on = psql(db, sql, settings)
            if ok_on != ok_off or out_on != out_off:
                bad.append(f"cpu_threads={threads}: {err_on or 'results differ'}")
        if bad:
            print(f"tpch cpu threads {label}: FAILED ({'; '.join(bad)})")
            failed += 1
        else:
            print(f"tpch cpu threads {label}: ok (rndn.cpu_threads 1 and 2 equal PostgreSQL)")
            passed += 1
    return passed, failed


def run_differential(db: str) -> int:
    collation = database_collation(db)
    expected = EXPECTED_FALLBACKS.get(collation)
    if expected is None:
        print(f"tpch differential: FAILED (no list of expected fallbacks for collation {collation})")
        return 1
    passed = failed = through = programs = 0
    cases = [(f"q{n}", query_text(n)) for n in range(1, 23)]
    cases += [(f"qgen q{n}", qgen_text(n)) for n in sorted(QGEN_FORMS)]
    for label, sql in cases:
        ok_off, out_off, err_off = psql(db, sql, {"rndn.enabled": "off"})
        ok_on, out_on, err_on = psql(db, sql, {"rndn.enabled": "on"})
        kernels = []
        ran = explain_uses_rndn(db, sql, kernels)
        through += ran
        launched = kernels[0] if kernels else None
        kernel_problem = None
        device = DEVICE.get("rndn.device")
        if ran and device in KERNEL_DEVICES:
            want = EXACT_KERNELS.get(label)
            if launched is None:
                kernel_problem = f"EXPLAIN ANALYZE reports no kernels on the {device} device"
            elif want is not None and launched != want:
                kernel_problem = f"{launched} kernels launched, expected {want}"
            elif launched == 0:
                kernel_problem = f"no kernel launched on the {device} device"
            elif kernels[1] and label not in CPU_RERUNS:
                kernel_problem = "the kernels failed: the program was rerun on the interpreter"
            elif not kernels[1] and label in CPU_RERUNS:
                kernel_problem = f"ran as kernels, but listed as rerun on the interpreter ({CPU_RERUNS[label]}): remove it from CPU_RERUNS"
        how = "rndn" if ran else "PostgreSQL plan"
        # The text the plan node carries is canonical HorseIR (print(parse(text)) == text).
        bad = []
        if ran:
            n_prog, bad = horseir_roundtrip.check_statements(db, statements(sql), dict(os.environ, PGOPTIONS="-c rndn.force=on"))
            programs += n_prog
            if n_prog == 0:
                bad = ["rndn ran the query but rndn_horseir() returned no program"]
        if bad:
            print(f"tpch differential {label}: FAILED (HorseIR text {bad[0]})")
            failed += 1
        elif ok_off != ok_on or (ok_off and out_off != out_on) or (not ok_off and err_off != err_on):
            detail = err_on if not ok_on else "results differ"
            print(f"tpch differential {label}: FAILED via {how} ({detail})")
            failed += 1
        elif not ran and label not in expected:
            print(f"tpch differential {label}: FAILED (fell back to PostgreSQL; expected to run through rndn)")
            failed += 1
        elif ran and label in expected:
            print(f"tpch differential {label}: FAILED (ran through rndn, but listed as falling back: {expected[label]})")
            failed += 1
        elif kernel_problem:
            print(f"tpch differential {label}: FAILED ({kernel_problem})")
            failed += 1
        else:
            ks = f", {launched} kernels" if launched is not None else ""
            print(f"tpch differential {label}: ok via {how}{ks}" + (f" (expected: {expected[label]})" if label in expected else ""))
            passed += 1
    if DEVICE.get("rndn.device") == "cpu":
        p, f = run_cpu_checks(db)
        passed += p
        failed += f
    print(f"tpch: {through}/{len(cases)} queries ran through Custom Scan (rndn) (database collation {collation}, "
          f"{len(expected)} listed as falling back; {programs} translated programs print back to the same text)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def run_session(db: str) -> int:
    """All 22 queries twice in one session with rndn on (the second pass finds the columns in
    the backend's column cache), every output equal to PostgreSQL's; the cache must be used."""
    def script(passes):
        return "".join(f"\\echo @@q {p} {n}\n{query_text(n)}\n" for p in range(passes) for n in range(1, 23))

    def split(out):
        parts = {}
        for chunk in out.split("@@q ")[1:]:
            head, _, body = chunk.partition("\n")
            parts[tuple(int(x) for x in head.split())] = body
        return parts

    ok_off, out_off, err_off = psql(db, script(1), {"rndn.enabled": "off"})
    q6 = statements(query_text(6))[0]
    probe = f"\\echo @@q 9 0\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) {q6};\n"
    ok_on, out_on, err_on = psql(db, script(2) + probe, {"rndn.enabled": "on"})
    if not ok_off or not ok_on:
        print(f"tpch session q1: FAILED ({err_off or err_on})")
        return 1
    off, on = split(out_off), split(out_on)
    failed = 0
    for n in range(1, 23):
        for p in range(2):
            if on.get((p, n)) != off.get((0, n)):
                failed += 1
                print(f"tpch session q{n}: FAILED (pass {p + 1} differs from PostgreSQL)")
                break
        else:
            print(f"tpch session q{n}: ok")
    used = "Relations From Column Cache: 1" in on.get((9, 0), "")
    print(f"tpch session cache q6: {'ok' if used else 'FAILED (lineitem was not served from the column cache)'}")
    failed += 0 if used else 1
    print(f"{22 + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


def selftest() -> int:
    """The comparison must tell a wrong answer from a right one."""
    official = "a|b\nAIR|1.50\nRAIL|2.25\n"
    checks = [
        (compare_answer("a|b\nAIR|1.50\nRAIL|2.25", official) is None, "identical"),
        (compare_answer("a|b\nAIR      |1.500000\nRAIL|2.25", official) is None, "padding and scale"),
        (compare_answer("a|b\nAIR|1.50\nRAIL|2.27", official) is not None, "wrong number"),
        (compare_answer("a|b\nAIR|1.50", official) is not None, "missing row"),
        (compare_answer("a|b\nSHIP|1.50\nRAIL|2.25", official) is not None, "wrong string"),
        (compare_answer("x\n", "x\n\n") is not None, "missing NULL row"),
        (compare_answer("x\n", "x\n\n") is not None and compare_answer("x\n", "x\n") is None, "empty result"),
    ]
    bad = [name for ok, name in checks if not ok]
    print("selftest: " + ("ok" if not bad else "FAILED " + ", ".join(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["selftest"]:
        sys.exit(selftest())
    if len(sys.argv) == 4 and sys.argv[1] == "answers":
        sys.exit(run_answers(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 5 and sys.argv[1] == "differential" and sys.argv[3] == "--device":
        DEVICE["rndn.device"] = sys.argv[4]
        DEVICE["rndn.compile_in_background"] = "off"  # every run launches the kernels
        if sys.argv[4] == "cuda":
            DEVICE["rndn.cuda_library"] = os.environ.get("RNDN_LIBCUDA") or os.path.abspath("build/lib/libcuda_emu.so")
        sys.exit(run_differential(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "differential":
        sys.exit(run_differential(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "session":
        sys.exit(run_session(sys.argv[2]))
    raise SystemExit(__doc__)
