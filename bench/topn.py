"""Top-N timings (issue 18 item 4): `ORDER BY ... LIMIT k [OFFSET m]` on a generated table of
--rows rows, in one session each: PostgreSQL (rndn.enabled = off), rndn's top-N (@order_top:
a bounded selection, then a sort of the k + m rows kept) and rndn's full sort (the same query
with the ORDER BY's LIMIT raised to every row inside a subquery, which @order_top hands to the
full stable @order, as before top-N existed).  Each query runs 1 + --repeat times; the median of
the repeats is printed (warm: rndn's column cache filled by the first run), with ratios.  The
rows of the three are compared.  Not a test; never run in CI.

    python3 bench/topn.py [--rows 1000000] [--repeat 3] [--db rndn_topn]

Needs PGHOST/PGPORT/PGUSER of a running cluster with rndn (tools/pgcluster.sh).
"""
import argparse
import re
import statistics
import subprocess
import sys

QUERIES = [
    ("int key LIMIT 10", "SELECT k, x FROM topn1m ORDER BY x, k LIMIT 10"),
    ("float DESC LIMIT 100 OFFSET 50", "SELECT k, f FROM topn1m ORDER BY f DESC, k LIMIT 100 OFFSET 50"),
    ("NULLs first, 2 keys LIMIT 25", "SELECT k, y FROM topn1m ORDER BY y NULLS FIRST, x LIMIT 25"),
    ("text key LIMIT 10", "SELECT k, s FROM topn1m ORDER BY s LIMIT 10"),
    ("LIMIT 1000", "SELECT k, x FROM topn1m ORDER BY x DESC, k LIMIT 1000"),
]


def psql(db, sql, rndn, extra=""):
    cmd = ["psql", "-X", "-q", "-A", "-t", "-d", db, "-v", "ON_ERROR_STOP=1"]
    script = f"SET rndn.enabled = {rndn};\nSET rndn.force = on;\n{extra}\\timing on\n{sql}"
    p = subprocess.run(cmd, input=script, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(p.stderr)
    return p.stdout


def timed(db, sql, rndn, repeat):
    out = psql(db, "\n".join([sql + ";"] * (1 + repeat)), rndn)
    times = [float(t) for t in re.findall(r"^Time: ([\d.]+) ms", out, re.M)]
    rows = out.split("Time:")[0].strip()
    return statistics.median(times[1:]) if len(times) > 1 else times[0], rows


def full_sort(sql, rows):
    m = re.match(r"^(SELECT .*? FROM topn1m ORDER BY .*?) LIMIT (\d+)(?: OFFSET (\d+))?$", sql)
    inner = f"{m.group(1)} LIMIT {rows}"
    tail = f" LIMIT {m.group(2)}" + (f" OFFSET {m.group(3)}" if m.group(3) else "")
    return f"SELECT * FROM ({inner}) q{tail}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--db", default="rndn_topn")
    a = ap.parse_args()
    subprocess.run(["psql", "-X", "-q", "-d", "postgres", "-c", f"DROP DATABASE IF EXISTS {a.db}", "-c", f"CREATE DATABASE {a.db}"], check=True)
    psql(a.db, f"""CREATE EXTENSION IF NOT EXISTS rndn;
CREATE TABLE topn1m AS SELECT i AS k, (i::bigint * 48271 % 1000003)::int AS x, (((i::bigint * 69621) % 999983) / 999983.0)::float8 AS f,
  md5(i::text) AS s, CASE WHEN i % 17 = 0 THEN NULL ELSE (i::bigint * 7919) % 100003 END AS y FROM generate_series(1, {a.rows}) i;
VACUUM FREEZE ANALYZE topn1m;""", "off")
    print(f"{'query':34} {'PostgreSQL':>11} {'rndn top-N':>11} {'rndn full':>11} {'PG/top-N':>9} {'full/top-N':>10}  same rows")
    for name, sql in QUERIES:
        t_pg, r_pg = timed(a.db, sql, "off", a.repeat)
        t_top, r_top = timed(a.db, sql, "on", a.repeat)
        t_full, r_full = timed(a.db, full_sort(sql, a.rows), "on", a.repeat)
        plan = psql(a.db, "EXPLAIN (COSTS OFF) " + sql, "on")
        root = "rndn" if "Custom Scan (rndn)" in plan.splitlines()[0] else "NOT rndn"
        same = "yes" if r_pg == r_top == r_full else "NO"
        # rndn's own execution (after loading): the selection or the full sort
        ex = [re.search(r"Execute Time: ([\d.]+) ms", psql(a.db, "EXPLAIN ANALYZE " + q, "on")) for q in (sql, full_sort(sql, a.rows))]
        ex = "/".join(f"{float(m.group(1)):.1f}" if m else "?" for m in ex)
        print(f"{name:34} {t_pg:9.1f}ms {t_top:9.1f}ms {t_full:9.1f}ms {t_pg / t_top:8.2f}x {t_full / t_top:9.2f}x  {same} ({root}; execute top-N/full {ex} ms)")


if __name__ == "__main__":
    main()
