"""Which builtins a compiling device leaves on the interpreter, over the TPC-H queries, ClickBench's
43 queries and the differential cases (issue 16: every builtin needs a kernel form).

    interpreted_builtins.py dump DIR      # needs PGHOST/PGPORT/PGUSER of a cluster with rndn
    interpreted_builtins.py count DIR [--hir bin/rndn-hir]

`dump` runs EXPLAIN (VERBOSE, FORMAT JSON) of every query with rndn.device = cpu and
rndn.force = on (empty tables: EXPLAIN needs only the catalog) and writes each rndn program as
DIR/<set>/<name>.hir plus DIR/explain.tsv (set, query, the plan's 'Interpreted Builtins').
`count` outlines every saved program with the current build (`rndn-hir compile --emit=outlined`,
full mode, as EXPLAIN does) and prints, per builtin, in how many programs it is an interpreter
step, per query set and in all; with --explain it counts DIR/explain.tsv instead (the server's
own list, as the build that made the dump saw it).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test"))
sys.path.insert(0, os.path.join(ROOT, "bench"))


def psql(db, script, rndn=True):
    env = dict(os.environ, PGOPTIONS=f"-c rndn.enabled={'on' if rndn else 'off'} -c rndn.force=on -c rndn.device=cpu")
    p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-d", db], input=script, capture_output=True, text=True,
                       env=env, timeout=600)
    return p.stdout, p.stderr


def statements(sql):
    sql = "\n".join(l for l in sql.splitlines() if not l.strip().startswith("--"))
    return [s.strip() for s in sql.split(";") if s.strip()]


def explain_set(db, name, cases, outdir, tsv):
    os.makedirs(os.path.join(outdir, name), exist_ok=True)
    for qname, sql in cases:
        lines = []
        for st in statements(sql):
            if re.match(r"(?is)^(select|with|execute)\b", st):
                lines.append("\\echo @@PLAN")
                lines.append(f"EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) {st};")
            else:
                lines.append(st + ";")
        out, _ = psql(db, "\n".join(lines))
        for k, chunk in enumerate(out.split("@@PLAN\n")[1:]):
            try:
                plan = json.loads(chunk.strip().split("\n@@")[0])[0]["Plan"]
            except (ValueError, KeyError, IndexError):
                continue
            if plan.get("Custom Plan Provider") != "rndn" or "HorseIR" not in plan:
                continue
            tag = qname if k == 0 else f"{qname}.{k}"
            with open(os.path.join(outdir, name, tag + ".hir"), "w") as f:
                f.write(plan["HorseIR"])
            tsv.write(f"{name}\t{tag}\t{plan.get('Interpreted Builtins', '')}\n")


def dump(outdir):
    os.makedirs(outdir, exist_ok=True)
    import differential.run as drun  # noqa: E402
    import clickbench_data  # noqa: E402
    setup, cases = drun.parse_cases(os.path.join(ROOT, "test", "differential", "cases.sql"))
    with open(os.path.join(ROOT, "test", "tpch", "schema.sql")) as f:
        tpch_schema = f.read()
    qdir = os.path.join(ROOT, "test", "tpch", "queries")
    tpch = []
    for fn in sorted(os.listdir(qdir), key=lambda s: int(re.sub(r"\D", "", s) or 0)):
        with open(os.path.join(qdir, fn)) as f:
            tpch.append((fn.split(".")[0].lower(), f.read()))
    with open(os.path.join(ROOT, "test", "clickbench", "queries.sql")) as f:
        cb = [(f"cb{i + 1}", l.strip()) for i, l in enumerate(l for l in f if l.strip())]
    sets = (("tpch", tpch_schema, tpch), ("clickbench", clickbench_data.create_sql(), cb),
            ("differential", setup, [(n, s) for n, s, _ in cases]))
    with open(os.path.join(outdir, "explain.tsv"), "w") as tsv:
        for name, schema, qs in sets:
            db = "rndn_ib_" + name
            psql("postgres", f"SET client_min_messages = warning;\nDROP DATABASE IF EXISTS {db};\nCREATE DATABASE {db};\n", False)
            _, err = psql(db, "SET client_min_messages = warning;\nCREATE EXTENSION IF NOT EXISTS rndn;\n" + schema, False)
            explain_set(db, name, qs, outdir, tsv)
            psql("postgres", f"DROP DATABASE IF EXISTS {db};\n", False)


def outlined_builtins(hir_bin, path):
    p = subprocess.run([hir_bin, "compile", path, "--emit=outlined", "--outline=full"], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        return None
    names = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^step \d+: interp \S.*? = (?:check_cast\()?@(\w+)\(", line)
        if m:
            names.add("@" + m.group(1))
    return names


def count(outdir, hir_bin, from_explain):
    per_set = collections.defaultdict(collections.Counter)
    programs = collections.Counter()
    failed = []
    if from_explain:
        with open(os.path.join(outdir, "explain.tsv")) as f:
            for line in f:
                s, q, lst = (line.rstrip("\n").split("\t") + [""])[:3]
                programs[s] += 1
                for b in [x.strip() for x in lst.split(",") if x.strip()]:
                    per_set[s][b] += 1
    else:
        for s in sorted(os.listdir(outdir)):
            d = os.path.join(outdir, s)
            if not os.path.isdir(d):
                continue
            for fn in sorted(os.listdir(d)):
                names = outlined_builtins(hir_bin, os.path.join(d, fn))
                if names is None:
                    failed.append(f"{s}/{fn}")
                    continue
                programs[s] += 1
                for b in names:
                    per_set[s][b] += 1
    total = collections.Counter()
    for c in per_set.values():
        total.update(c)
    sets = sorted(per_set.keys() | programs.keys())
    print("programs: " + ", ".join(f"{s} {programs[s]}" for s in sets) + (f"; not outlined: {len(failed)}" if failed else ""))
    print(f"{'builtin':<22}" + "".join(f"{s:>14}" for s in sets) + f"{'all':>8}")
    for b, n in sorted(total.items(), key=lambda x: (-x[1], x[0])):
        print(f"{b:<22}" + "".join(f"{per_set[s][b]:>14}" for s in sets) + f"{n:>8}")
    print(f"{'(listings in all)':<22}" + "".join(f"{sum(per_set[s].values()):>14}" for s in sets) + f"{sum(total.values()):>8}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("dump", "count"))
    ap.add_argument("dir")
    ap.add_argument("--hir", default=os.path.join(ROOT, "bin", "rndn-hir"))
    ap.add_argument("--explain", action="store_true", help="count the server's own lists (explain.tsv)")
    a = ap.parse_args()
    if a.cmd == "dump":
        dump(a.dir)
    else:
        count(a.dir, a.hir, a.explain)


if __name__ == "__main__":
    main()
