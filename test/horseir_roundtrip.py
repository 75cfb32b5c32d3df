"""The programs the translator makes are canonical HorseIR text: for every SELECT of a SQL script
that rndn plans, rndn_horseir(query) (the text the Custom Scan node carries) printed again by
`bin/rndn-hir print` (PrintProgram(ParseProgram(text))) is the same text, byte for byte.

Used by test/differential/run.py and test/tpch/harness.py for each query that ran through rndn.
"""
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIR = os.path.join(ROOT, "bin", "rndn-hir")
BEGIN, END = "@@rndn-program-begin", "@@rndn-program-end"


def programs(db: str, stmts, env: dict):
    """The HorseIR program of each SELECT/WITH statement among stmts (other statements run in
    the same session first, in order); None where rndn_horseir returns NULL."""
    lines = []
    n = 0
    for s in stmts:
        if re.match(r"(?is)^\s*(select|with)\b", s):
            tag = "$rndn_roundtrip$"
            lines += [f"\\echo {BEGIN}", f"SELECT rndn_horseir({tag}{s}{tag});", f"\\echo {END}"]
            n += 1
        else:
            lines.append(s + ";")
    cmd = ["psql", "-X", "-q", "-A", "-t", "-d", db]
    env = dict(env, PGOPTIONS=env.get("PGOPTIONS", "") + " -c client_min_messages=warning")
    p = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True, env=env, timeout=600)
    out = []
    for m in re.finditer(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), p.stdout, flags=re.S):
        text = m.group(1)
        out.append(text[:-1] if text.endswith("\n") else text)
    if len(out) != n:
        raise RuntimeError(f"rndn_horseir: {len(out)} of {n} programs read back: {p.stderr.strip()[:300]}")
    return [t if t != "" else None for t in out]


def check(text: str):
    """None when PrintProgram(ParseProgram(text)) == text, else a short description."""
    with tempfile.NamedTemporaryFile("w", suffix=".hir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([HIR, "print", path], capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(path)
    if p.returncode != 0:
        return "rndn-hir print failed: " + p.stderr.strip()[:300]
    printed = p.stdout
    # psql drops nothing but the final newline of the field: compare modulo that one newline.
    if printed.rstrip("\n") != text.rstrip("\n"):
        a, b = printed.splitlines(), text.splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return f"not canonical at line {k + 1}: printed {a[k] if k < len(a) else '<end>'!r}, " \
               f"planned {b[k] if k < len(b) else '<end>'!r}"
    return None


def check_statements(db: str, stmts, env: dict):
    """(number of programs checked, [problems]) over the statements' programs."""
    checked, problems = 0, []
    for text in programs(db, stmts, env):
        if text is None:
            continue
        checked += 1
        why = check(text)
        if why:
            problems.append(why)
    return checked, problems
