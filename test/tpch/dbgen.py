"""Generate TPC-H data in dbgen's .tbl format with DuckDB's tpch extension (a port of the
official dbgen: same rows, same default validation answers).

    dbgen.py SF OUTDIR      writes OUTDIR/<table>.tbl ('|'-separated, trailing '|')
    dbgen.py --answers SF N prints the official answer of query N at scale factor SF
"""
import os
import sys

import duckdb

TABLES = ["region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]


def generate(sf: str, outdir: str) -> None:
    os.makedirs(outdir, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"CALL dbgen(sf={float(sf)})")
    for table in TABLES:
        path = os.path.join(outdir, f"{table}.tbl")
        tmp = path + ".tmp"
        # A NULL last column makes DuckDB end every line with the delimiter, as dbgen does.
        con.execute(f"COPY (SELECT *, NULL AS dbgen_trailer FROM {table}) TO '{tmp}' "
                    "(DELIMITER '|', HEADER false, QUOTE '')")
        os.replace(tmp, path)
    with open(os.path.join(outdir, "SF"), "w") as f:
        f.write(f"{sf}\n")


def answer(sf: str, query: int) -> str:
    con = duckdb.connect()
    con.execute("CALL dbgen(sf=0)")
    rows = con.execute("SELECT answer FROM tpch_answers() WHERE scale_factor = ? AND query_nr = ?",
                       [float(sf), query]).fetchall()
    if not rows:
        raise SystemExit(f"no official answer for SF {sf} query {query}")
    return rows[0][0]


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--answers":
        sys.stdout.write(answer(sys.argv[2], int(sys.argv[3])))
    elif len(sys.argv) == 3:
        generate(sys.argv[1], sys.argv[2])
    else:
        raise SystemExit(__doc__)
