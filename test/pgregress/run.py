"""PostgreSQL's own regression suite, run twice: on PostgreSQL alone and with rndn forced.

    run.py [--src DIR] [--out DIR] [--schedule FILE | TEST ...] [--compare-only] [--device cpu]
           [--locale C.UTF-8]

The suite (src/test/regress of Debian's postgresql-15 source package, fetched and its C modules
built by tools/pgregress-src.sh unless --src names it) runs with the installed server's
pg_regress in two fresh clusters (tools/pgcluster.sh, PGBIN picks the server's binaries):

  off   PostgreSQL as shipped: rndn not preloaded, no extension anywhere (the oracle)
  on    shared_preload_libraries = 'rndn', rndn.force = on in postgresql.conf (rndn takes every
        plan subtree it can, whatever the costs), CREATE EXTENSION rndn in template1 and, through
        pg_regress --load-extension, in the suite's database

Then each test's two result files are compared.  Where they differ, every hunk is placed in the
query output it belongs to (psql's aligned table: header, dashes, rows, '(N rows)') and judged:

  plan      the output of EXPLAIN, or of a function the test defines whose body runs EXPLAIN
            (plan text and what is computed from it: allowed)
  order     the same rows in another order, and the query has no top-level ORDER BY, or one
            whose keys are output columns that every moved row ties on (allowed)
  anything else fails: other rows, another row count, an error on one side, a different notice,
  and rows in another order under an ORDER BY whose keys are not all output columns (ties may
  legally differ there, but the harness cannot tell ties from a wrong sort, so it shows them).

Differences explained in test/pgregress/expected.txt ('TEST  QUERY-PREFIX  reason', the first 60
characters of the query with whitespace folded) are reported as known, not failed; an entry that
no longer matches a difference fails, so the list stays true.

Prints one line per test ('pgregress TEST: ok (...)' or 'pgregress TEST: FAILED ...' followed by
each unexplained difference with its query), then a summary; the server log of either run must
show no backend killed by a signal.  Exit status 0 when all holds.
"""
import argparse
import collections
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PGBIN = os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin")
PG_REGRESS = os.environ.get("PG_REGRESS", "/usr/lib/postgresql/15/lib/pgxs/src/test/regress/pg_regress")

# The two servers: extra postgresql.conf lines (tools/pgcluster.sh appends them, later lines win).
MODES = {
    "off": "shared_preload_libraries = ''\nshared_buffers = 128MB\n",
    "on": "shared_buffers = 128MB\nrndn.force = on\n",
}

SEPARATOR = re.compile(r"^-+(\+-+)*$")
FOOTER = re.compile(r"^\((\d+) rows?\)$")
CRASH = re.compile(r"^.*(?:terminated by signal|was terminated by exception|"
                   r"terminating any other active server processes).*$", re.M)


def sh(cmd, env=None, timeout=3600):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def as_owner(cmd):
    """The server runs as postgres when we are root: pg_regress too, so that the files the server
    writes (COPY TO) land in directories it owns."""
    return ["runuser", "-u", "postgres", "--"] + cmd if os.geteuid() == 0 else cmd


def reachable(path):
    """Whether the server's user can read (and enter) path: as root, pg_regress and the server run
    as postgres, which cannot enter a checkout in a mode-700 home directory."""
    return os.geteuid() != 0 or sh(["runuser", "-u", "postgres", "--", "test", "-r", path, "-a", "-x", path]).returncode == 0


def elsewhere(path, what):
    """A directory under /var/tmp for what postgres cannot reach at path."""
    alt = os.path.join("/var/tmp", f"rndn-pgregress-{what}-" + hashlib.md5(path.encode()).hexdigest()[:12])
    print(f"pgregress: the user postgres cannot reach {path}; using {alt}", flush=True)
    return alt


def run_suite(mode, src, out, tests, schedule):
    """Runs the suite in a fresh cluster; returns (results dir, seconds, crash lines, pg_regress
    output)."""
    work = os.path.join(out, mode)
    cluster = os.path.join(work, "cluster")
    sh([os.path.join(ROOT, "tools/pgcluster.sh"), "destroy", cluster])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if os.geteuid() == 0:
        shutil.chown(work, "postgres")
    env = dict(os.environ, PGCLUSTER_CONF=MODES[mode], PGBIN=PGBIN)
    env.pop("PGOPTIONS", None)   # the servers' own settings decide, not the caller's session
    p = sh([os.path.join(ROOT, "tools/pgcluster.sh"), "start", cluster], env=env)
    if p.returncode != 0:
        raise RuntimeError(f"could not start the {mode} cluster:\n{p.stderr}")
    envfile = p.stdout.strip().splitlines()[-1]
    with open(envfile) as f:
        for line in f:
            k, v = line.replace("export ", "").strip().split("=", 1)
            env[k] = v
    log = os.path.join(os.path.dirname(envfile), "server.log")
    try:
        args = [PG_REGRESS, f"--inputdir={src}", f"--outputdir={work}", f"--dlpath={src}",
                f"--bindir={PGBIN}", "--max-concurrent-tests=20"]
        if mode == "on":
            p = sh(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", "template1", "-c", "CREATE EXTENSION rndn"],
                   env=env)
            if p.returncode != 0:
                raise RuntimeError(f"CREATE EXTENSION rndn failed: {p.stderr}")
            args.append("--load-extension=rndn")
        args += tests if tests else [f"--schedule={schedule}"]
        t0 = time.time()
        p = sh(as_owner(["env", f"PGHOST={env['PGHOST']}", f"PGPORT={env['PGPORT']}", "PGUSER=postgres"] + args),
               env=env, timeout=3600)
        seconds = time.time() - t0
        with open(os.path.join(work, "pg_regress.log"), "w") as f:
            f.write(p.stdout + p.stderr)
    finally:
        sh([os.path.join(ROOT, "tools/pgcluster.sh"), "stop", cluster], env=env)
    with open(log, errors="replace") as f:
        text = f.read()
    crashes = CRASH.findall(text)
    with open(os.path.join(work, "server.log"), "w") as f:   # the cluster (340 MB) goes, its log stays
        f.write(text)
    sh([os.path.join(ROOT, "tools/pgcluster.sh"), "destroy", cluster], env=env)
    return os.path.join(work, "results"), seconds, crashes, p.stdout + p.stderr


def tables(lines):
    """psql's aligned result tables: [(header index, separator index, footer index)]."""
    found = []
    i = 1
    while i < len(lines):
        # psql pads the header to the separator's width and starts it with a space ('--'
        # comments in the echo do not match)
        if SEPARATOR.match(lines[i]) and lines[i - 1].startswith(" ") and lines[i - 1].strip() and \
                len(lines[i - 1]) == len(lines[i]):
            # rows up to '(N rows)'; a table without that footer (psql's \d) ends at an empty line
            j = i + 1
            while j < len(lines) and not FOOTER.match(lines[j]) and lines[j] != "":
                j += 1
            if j < len(lines) and FOOTER.match(lines[j]):
                found.append((i - 1, i, j))
            i = j
        i += 1
    return found


def enclosing(tabs, lo, hi):
    """The table whose lines (header to footer) contain the hunk [lo, hi), if one does."""
    for t in tabs:
        if t[0] <= lo and hi <= t[2] + 1 and (hi > lo or lo <= t[2]):
            return t
    return None


def query_of(lines, header):
    """The statement whose output starts at `header`: the lines above it back to the end of the
    previous output or statement (a $$-quoted body may hold blank lines and semicolons)."""
    q = []
    i = header - 1
    while i >= 0 and len(q) < 80:
        line = lines[i]
        quoted = " ".join(q).count("$$") % 2 == 1
        if not quoted and (not line.strip() or FOOTER.match(line) or (q and line.rstrip().endswith(";")) or
                           re.match(r"^(ERROR|NOTICE|WARNING|DETAIL|HINT|CONTEXT|LINE \d+):", line)):
            break
        q.append(line)
        i -= 1
    return " ".join(" ".join(reversed(q)).split())


def top_level(q):
    """The query without its comments and parenthesised parts (subqueries, OVER (...) windows)."""
    q = re.sub(r"--[^\n]*?(?=\s(?:select|with|explain|table|values)\b|$)", " ", q, flags=re.I)
    out, depth = [], 0
    for ch in q:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def order_keys(q, header):
    """The output columns the query's top-level ORDER BY sorts by, as indexes into the header's
    columns, or None when they are not all plain output columns (then ties cannot be told)."""
    m = re.search(r"\border\s+by\s+(.*?)(?:\blimit\b|\boffset\b|\bfetch\b|\bfor\s+update\b|;|$)", top_level(q),
                  re.I | re.S)
    if not m:
        return None
    names = [c.strip() for c in header.split("|")]
    keys = []
    for item in m.group(1).split(","):
        item = re.sub(r"\s+(asc|desc|nulls\s+(first|last))\b", "", item.strip(), flags=re.I).strip()
        item = item.split(".")[-1].strip('"')
        if item.isdigit() and 1 <= int(item) <= len(names):
            keys.append(int(item) - 1)
        elif item in names:
            keys.append(names.index(item))
        else:
            return None
    return keys


def statement_before(lines, idx):
    """Best guess at the statement whose output holds line idx (for hunks outside a table)."""
    i = idx - 1
    while i >= 0 and not lines[i].rstrip().endswith(";"):
        i -= 1
    if i < 0:
        return ""
    end = i
    i -= 1
    while i >= 0 and lines[i].strip() and not lines[i].rstrip().endswith(";") and not FOOTER.match(lines[i]) \
            and not re.match(r"^(ERROR|NOTICE|WARNING|DETAIL|HINT|CONTEXT|LINE \d+):", lines[i]) and end - i < 60:
        i -= 1
    return " ".join(" ".join(lines[i + 1:end + 1]).split())


def plan_functions(lines):
    """Functions the test defines whose body runs EXPLAIN (explain_filter, hash_join_batches, ...):
    what they return is plan output."""
    text = "\n".join(lines)
    bodies = [(m.group(1).split(".")[-1].lower(), m.group(4)) for m in re.finditer(
        r"(?is)create\s+(?:or\s+replace\s+)?function\s+([\w.]+)\s*\((.*?)\$(\w*)\$(.*?)\$\3\$", text)]
    names = {n for n, body in bodies if re.search(r"\bexplain\b", body, re.I)}
    grew = True
    while grew:   # and functions that return what such a function returns
        more = {n for n, body in bodies if n not in names and any(re.search(r"\b" + re.escape(f) + r"\s*\(", body, re.I)
                                                                  for f in names)}
        names |= more
        grew = bool(more)
    return names


def is_plan_output(q, funcs):
    return bool(re.search(r"\bexplain\b", q, re.I)) or any(
        re.search(r"\b" + re.escape(f) + r"\s*\(", q, re.I) for f in funcs)


def compare(a, b):
    """Classifies the differences between two result files of one test.  Returns (number of
    result tables, Counter of allowed classes, [(kind, query, detail lines)] unexplained)."""
    ta, tb = tables(a), tables(b)
    funcs = plan_functions(a)
    allowed = collections.Counter()
    problems = []
    if a == b:
        return len(ta), allowed, problems
    groups = collections.OrderedDict()   # (table in a, table in b) -> hunks
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        x, y = enclosing(ta, i1, i2), enclosing(tb, j1, j2)
        key = (x, y) if x and y else ("loose", i1, j1)
        groups.setdefault(key, []).append((i1, i2, j1, j2))
    for key, hunks in groups.items():
        if key[0] == "loose":
            i1, i2, j1, j2 = hunks[0]
            q = statement_before(a, i1)
            if is_plan_output(q, funcs) and not any(l.startswith(("ERROR", "WARNING")) for l in a[i1:i2] + b[j1:j2]):
                allowed["plan"] += 1
                continue
            detail = [f"- {l}" for l in a[i1:i2][:8]] + [f"+ {l}" for l in b[j1:j2][:8]]
            problems.append(("output differs", q, detail))
            continue
        x, y = key
        q = query_of(a, x[0])
        if is_plan_output(q, funcs) or "QUERY PLAN" in a[x[0]]:
            allowed["plan"] += 1   # EXPLAIN, or a function of the suite that runs and filters one
            continue
        rows_a, rows_b = a[x[1] + 1:x[2]], b[y[1] + 1:y[2]]
        same_rows = a[x[0]] == b[y[0]] and sorted(rows_a) == sorted(rows_b)
        if same_rows and not re.search(r"\border\s+by\b", top_level(q), re.I):
            allowed["order"] += 1
            continue
        keys = order_keys(q, a[x[0]]) if same_rows else None
        if keys is not None:
            def key_seq(rows):
                return [tuple(r.split("|")[k].strip() if k < len(r.split("|")) else None for k in keys) for r in rows]
            if key_seq(rows_a) == key_seq(rows_b):
                allowed["order"] += 1   # rows that tie on every ORDER BY key, in another order
                continue
        kind = "order under ORDER BY" if same_rows else "rows differ"
        only_a = list((collections.Counter(rows_a) - collections.Counter(rows_b)).elements())
        only_b = list((collections.Counter(rows_b) - collections.Counter(rows_a)).elements())
        detail = ([f"- {l}" for l in only_a[:6]] + [f"+ {l}" for l in only_b[:6]]) if not same_rows else \
            [f"- {l}" for l in rows_a[:6]] + [f"+ {l}" for l in rows_b[:6]]
        if a[x[0]] != b[y[0]]:
            detail = [f"- {a[x[0]]}", f"+ {b[y[0]]}"] + detail
        if a[x[2]] != b[y[2]]:
            detail.append(f"  row count {a[x[2]]} against {b[y[2]]}")
        problems.append((kind, q, detail))
    return len(ta), allowed, problems


def load_expected(path):
    exp = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line.strip() and not line.startswith("#"):
                    parts = re.split(r"\s{2,}", line.strip(), maxsplit=2)
                    if len(parts) == 3:
                        exp.append({"test": parts[0], "prefix": parts[1], "why": parts[2], "used": 0})
    return exp


def schedule_tests(schedule):
    names = []
    with open(schedule) as f:
        for line in f:
            m = re.match(r"^(?:test|ignore):\s*(.*)$", line.strip())
            if m and line.startswith("test"):
                names += m.group(1).split()
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tests", nargs="*", help="run these tests instead of the schedule")
    ap.add_argument("--src", help="the suite's directory (default: tools/pgregress-src.sh fetches it)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "pgregress"))
    ap.add_argument("--schedule", help="default: the suite's parallel_schedule")
    ap.add_argument("--compare-only", action="store_true", help="compare the results of an earlier run")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.txt"))
    ap.add_argument("--device", help="rndn.device for the run with rndn (default: the server's, auto)")
    ap.add_argument("--locale", help="both clusters' locale (default C)")
    args = ap.parse_args()
    if args.locale:
        os.environ["PGCLUSTER_LOCALE"] = args.locale   # initdb's: the suite's database inherits it
    if args.device:
        MODES["on"] += f"rndn.device = {args.device}\nrndn.compile_in_background = off\n"
    src = args.src
    if not src:
        p = sh([os.path.join(ROOT, "tools/pgregress-src.sh")])
        if p.returncode != 0:
            print(f"pgregress source: FAILED {p.stderr.strip()[-1500:]}")
            return 1
        src = p.stdout.strip().splitlines()[-1]
    src = os.path.abspath(src)
    if not reachable(src):
        alt = elsewhere(src, "src")
        shutil.rmtree(alt, ignore_errors=True)
        shutil.copytree(src, alt)
        sh(["chmod", "-R", "a+rX", alt])
        src = alt
    schedule = args.schedule or os.path.join(src, "parallel_schedule")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(out, "postgres")
    if not reachable(out):
        out = elsewhere(out, "out")
        os.makedirs(out, exist_ok=True)
        shutil.chown(out, "postgres")
    failed = 0
    res = {}
    for mode in ("off", "on"):
        if args.compare_only:
            res[mode] = (os.path.join(out, mode, "results"), 0.0, [], "")
            continue
        try:
            res[mode] = run_suite(mode, src, out, args.tests, schedule)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"pgregress run {mode}: FAILED {str(e)[-1500:]}")
            return 1
        if not os.path.isdir(res[mode][0]):
            print(f"pgregress run {mode}: FAILED pg_regress wrote no results: {res[mode][3].strip()[-1500:]}")
            return 1
        print(f"pgregress: {'rndn forced' if mode == 'on' else 'PostgreSQL alone'}: suite ran in {res[mode][1]:.0f} s",
              flush=True)
    names = args.tests or schedule_tests(schedule)
    expected = load_expected(args.expected)
    totals = collections.Counter()
    plans = rndn_plans = 0   # how much rndn took: the plans the suite's EXPLAINs show
    for t in names:
        fa, fb = (os.path.join(res[m][0], t + ".out") for m in ("off", "on"))
        if not os.path.exists(fa) or not os.path.exists(fb):
            missing = [m for m, f in (("off", fa), ("on", fb)) if not os.path.exists(f)]
            print(f"pgregress {t}: FAILED no result file from the {' and '.join(missing)} run")
            failed += 1
            continue
        with open(fa, errors="replace") as f:
            a = f.read().splitlines()
        with open(fb, errors="replace") as f:
            b = f.read().splitlines()
        ntab, allowed, problems = compare(a, b)
        for h, sep, foot in tables(b):
            if "QUERY PLAN" in b[h]:
                plans += 1
                rndn_plans += any("Custom Scan (rndn)" in line for line in b[sep:foot])
        known, unexplained = [], []
        for kind, q, detail in problems:
            folded = " ".join(q.split())
            hit = next((e for e in expected if e["test"] == t and folded.startswith(e["prefix"])), None)
            if hit:
                hit["used"] += 1
                known.append((kind, q, hit["why"]))
            else:
                unexplained.append((kind, q, detail))
        totals["tests"] += 1
        totals["outputs"] += ntab
        totals.update({f"allowed {k}": v for k, v in allowed.items()})
        totals["known"] += len(known)
        totals["unexplained"] += len(unexplained)
        summary = f"{ntab} outputs, {allowed['plan']} plan and {allowed['order']} row-order differences allowed" + \
                  (f", {len(known)} known" if known else "")
        if unexplained:
            failed += 1
            print(f"pgregress {t}: FAILED {len(unexplained)} unexplained difference(s); {summary}")
            for kind, q, detail in unexplained:
                print(f"    {kind}: {q[:400]}")
                for line in detail:
                    print(f"        {line}")
        else:
            print(f"pgregress {t}: ok ({summary})")
        for kind, q, why in known:
            print(f"    known ({kind}): {q[:160]} -- {why}")
    for e in expected:
        if not e["used"] and e["test"] in names:
            failed += 1
            print(f"pgregress expected.txt: FAILED '{e['test']}  {e['prefix']}' no longer differs (remove it)")
    for mode in ("off", "on"):
        crashes = res[mode][2]
        status = "FAILED " + "; ".join(crashes[:3]) if crashes else "ok"
        print(f"pgregress server log ({mode}): {status}")
        failed += bool(crashes)
    print(f"pgregress: {totals['tests']} tests, {totals['outputs']} query outputs; allowed differences: "
          f"{totals['allowed plan']} plan text, {totals['allowed order']} row order; {totals['known']} known, "
          f"{totals['unexplained']} unexplained; with rndn, {rndn_plans} of the {plans} plans EXPLAIN shows hold "
          f"Custom Scan (rndn)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
