"""The column cache shared by every backend, on a throwaway cluster of its own (the size is a
server-start setting): each psql call below is a new connection, so a new backend.

  * two connections: the second backend's first query is served from the columns the first
    loaded (EXPLAIN ANALYZE says "Relations From Shared Cache", rndn_column_cache() counts the
    hits) and returns PostgreSQL's rows (rndn.enabled = off in the same run);
  * rndn.shared_cache_size = 8MB: the cache stays within it, evicts the least recently used
    relation, and a relation larger than the cache stays in the loading backend's own cache;
  * DROP, TRUNCATE and VACUUM FULL remove the relation's entry (in the backend that ran them,
    before its commit); a rolled-back DROP costs a reload only;
  * column files (rndn.column_files_size): after a restart a new backend reads the columns the
    column writer saved, while their key holds; an update, a delete with VACUUM, a damaged file,
    DROP and TRUNCATE are respected (PostgreSQL's rows every time); size 0 writes none;
  * rndn.shared_cache_size = 0: no shared cache (nothing listed, every new backend loads);
  * rndn.column_cache = 0 in a session: that backend uses no cache;
  * rndn.background_load: without rndn.force, a query left with PostgreSQL only for its loads
    gets its columns loaded in the background, and the next one runs through rndn.

Prints 'shared_cache <name>: ok|FAILED ...' lines; exit status 1 on any failure.
Usage: run.py [--dir build/pgcluster-shared]   (PGBIN as for tools/pgcluster.sh)
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PGBIN = os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin")
failures = []


def check(name, ok, detail=""):
    print(f"shared_cache {name}: {'ok' if ok else 'FAILED'}{(' ' + detail) if detail else ''}")
    if not ok:
        failures.append(name)


class Cluster:
    def __init__(self, path):
        self.dir = os.path.abspath(path)
        self.env = None

    def start(self, shared_cache_size, column_files_size="0"):
        p = subprocess.run([os.path.join(ROOT, "tools/pgcluster.sh"), "start", self.dir], capture_output=True,
                           text=True, cwd=ROOT)
        if p.returncode != 0:
            raise RuntimeError(p.stderr)
        envfile = p.stdout.strip().splitlines()[-1]
        self.env = dict(os.environ)
        with open(envfile) as f:
            for line in f:
                k, v = line.replace("export ", "").strip().split("=", 1)
                self.env[k] = v
        self.env["PGOPTIONS"] = "-c rndn.force=on"
        data = os.path.join(os.path.realpath(self.dir), "data")
        conf = os.path.join(data, "postgresql.auto.conf")
        with open(conf) as f:
            lines = [l for l in f if not l.startswith(("rndn.shared_cache_size", "rndn.column_files_size"))]
        lines.append(f"rndn.shared_cache_size = '{shared_cache_size}'\n")
        lines.append(f"rndn.column_files_size = '{column_files_size}'\n")
        with open(conf, "w") as f:
            f.writelines(lines)
        owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run(owner + [os.path.join(PGBIN, "pg_ctl"), "-D", data, "-w", "-m", "fast", "restart", "-l",
                                os.path.join(os.path.realpath(self.dir), "server.log")],
                       check=True, capture_output=True)

    def stop(self):
        subprocess.run([os.path.join(ROOT, "tools/pgcluster.sh"), "stop", self.dir], capture_output=True, cwd=ROOT)

    def sql(self, text, db="rndn_shared_cache"):
        """Runs `text` in a new connection; returns the rows of its last statement."""
        p = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", db, "-c", text],
                           capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            raise RuntimeError(f"psql failed on {text!r}: {p.stderr}")
        return [l for l in p.stdout.splitlines() if l != ""]


QUERY = "SELECT count(*), sum(a), sum(n), count(s), max(s), count(b), sum(b) FROM {t}"


def explain_source(c, query, prefix=""):
    """Where the relation came from in a new backend's first query, and the rows rndn returned."""
    plan = c.sql(prefix + "SET rndn.regression_mode = on; EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + query)
    text = "\n".join(plan)
    if "Custom Scan (rndn)" not in text or "Fallback" in text:
        return "not through rndn", text
    if "Relations From Column Files: 1" in text:
        return "files", text
    if "Relations From Shared Cache: 1" in text:
        return "shared", text
    if "Relations From Column Cache: 1" in text:
        return "local", text
    return "loaded", text


def answers_match(c, query, prefix=""):
    on = c.sql(prefix + query)
    off = c.sql("SET rndn.enabled = off; " + query)
    return on == off and len(on) > 0, f"rndn {on} vs PostgreSQL {off}"


def make_table(c, name, rows):
    c.sql(f"""SET synchronous_commit = on;
        DROP TABLE IF EXISTS {name};
        CREATE TABLE {name} (a int, n numeric(12,2), s text, b int) WITH (autovacuum_enabled = off);
        INSERT INTO {name} SELECT g, g * 1.25, 'v' || (g % 977), CASE WHEN g % 11 = 0 THEN NULL ELSE g % 1000 END
          FROM generate_series(1, {rows}) g;""")
    c.sql(f"VACUUM {name}")


def cached(c):
    """{relation: (columns, rows, bytes, hits)} from rndn_column_cache()."""
    out = {}
    for line in c.sql("SELECT relation, count(*), max(rows), sum(bytes), sum(hits) FROM rndn_column_cache() GROUP BY 1"):
        rel, cols, rows, nbytes, hits = line.split("|")
        out[rel] = (int(cols), int(rows), int(nbytes), int(hits))
    return out


def info(c):
    size, used, rels, retired, evictions = c.sql("SELECT * FROM rndn_shared_cache_info()")[0].split("|")
    return dict(size=int(size), used=int(used), relations=int(rels), retired=int(retired), evictions=int(evictions))


def files_of(c, table):
    """The column files of `table` (attnums), from the data directory's rndn_column_files folder."""
    db, rel = c.sql(f"SELECT (SELECT oid FROM pg_database WHERE datname = current_database()), '{table}'::regclass::oid")[0].split("|")
    folder = os.path.join(os.path.realpath(c.dir), "data", "rndn_column_files")
    prefix = f"{db}_{rel}_"
    names = os.listdir(folder) if os.path.isdir(folder) else []
    return sorted(int(n[len(prefix):]) for n in names if n.startswith(prefix) and "." not in n), folder, prefix


def wait_files(c, table, count, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = files_of(c, table)[0]
        if len(got) >= count:
            return got
        time.sleep(0.2)
    return files_of(c, table)[0]


BG_QUERY = "SELECT b % 7 AS k, count(*), sum(a), sum(n) FROM {t} GROUP BY 1 ORDER BY 1"
# the cost model decides (no rndn.force); PostgreSQL's parallel plan made cheap, so that it beats
# rndn's plan that loads from the heap, but not rndn's plan on cached columns
BG_PREFIX = ("SET rndn.force = off; SET rndn.explain_fallback = on; SET parallel_setup_cost = 0; "
             "SET parallel_tuple_cost = 0; SET max_parallel_workers_per_gather = 2; ")


def wait_cached(c, table, columns, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = cached(c).get(table)
        if got is not None and got[0] >= columns:
            return True
        time.sleep(0.2)
    return False


def background_loads(c):
    """rndn.background_load: a query the cost model leaves with PostgreSQL only because its
    columns would come from the heap runs PostgreSQL's plan, and a background worker loads the
    columns into the shared cache; the next query's cost model finds them and takes rndn's plan."""
    c.start("64MB", "0")
    make_table(c, "bg1", 300000)
    plan = "\n".join(c.sql(BG_PREFIX + "EXPLAIN (COSTS OFF) " + BG_QUERY.format(t="bg1")))
    check("background: uncached, PostgreSQL's parallel plan runs", "Gather" in plan and "Custom Scan" not in plan, plan)
    check("background: EXPLAIN says the columns load in the background",
          "with the columns cached" in plan and "columns of bg1 are being loaded into the shared column cache" in plan, plan)
    ok, detail = answers_match(c, BG_QUERY.format(t="bg1"), BG_PREFIX)
    check("background: PostgreSQL's rows meanwhile", ok, detail)
    check("background: the worker publishes the columns", wait_cached(c, "bg1", 3), str(cached(c)))
    src, plan = explain_source(c, BG_QUERY.format(t="bg1"), BG_PREFIX)
    check("background: then the cost model takes rndn's plan, on the shared cache", src == "shared", plan)
    ok, detail = answers_match(c, BG_QUERY.format(t="bg1"), BG_PREFIX)
    check("background: rows from the shared cache", ok, detail)
    # an update clears a page's all-visible bit: the cached key no longer holds, so the cost
    # model loads from the heap again and PostgreSQL's plan runs (the worker it asks for finds
    # the relation not all-visible and reads nothing)
    c.sql("SET synchronous_commit = on; UPDATE bg1 SET n = n + 1 WHERE a = 7")
    plan = "\n".join(c.sql(BG_PREFIX + "EXPLAIN (COSTS OFF) " + BG_QUERY.format(t="bg1")))
    check("background: after an update PostgreSQL's plan again", "Gather" in plan and "Custom Scan" not in plan, plan)
    ok, detail = answers_match(c, BG_QUERY.format(t="bg1"), BG_PREFIX)
    check("background: rows after the update", ok, detail)
    # a role that may not read the table: its EXPLAIN fails on the privilege check, and its
    # planning asked for no load
    make_table(c, "bg3", 300000)
    c.sql("DROP ROLE IF EXISTS bg_nopriv; CREATE ROLE bg_nopriv")
    try:
        c.sql(BG_PREFIX + "SET ROLE bg_nopriv; EXPLAIN (COSTS OFF) " + BG_QUERY.format(t="bg3"))
        denied = False
    except RuntimeError as e:
        denied = "permission denied" in str(e)
    time.sleep(3)
    check("background: no load for a role without SELECT", denied and "bg3" not in cached(c), str(cached(c)))
    # a serializable transaction never uses the shared cache: its planning asks for no load
    make_table(c, "bg4", 300000)
    plan = "\n".join(c.sql(BG_PREFIX + "BEGIN ISOLATION LEVEL SERIALIZABLE; EXPLAIN (COSTS OFF) " +
                           BG_QUERY.format(t="bg4") + "; COMMIT"))
    check("background: serializable, nothing asked", "Custom Scan" not in plan and "being loaded" not in plan, plan)
    time.sleep(3)
    check("background: serializable, nothing loaded", "bg4" not in cached(c), str(cached(c)))
    # switched off: nothing is asked
    make_table(c, "bg2", 300000)
    plan = "\n".join(c.sql(BG_PREFIX + "SET rndn.background_load = off; EXPLAIN (COSTS OFF) " + BG_QUERY.format(t="bg2")))
    check("background: off, nothing asked", "Gather" in plan and "being loaded" not in plan, plan)
    time.sleep(3)
    check("background: off, nothing loaded", "bg2" not in cached(c), str(cached(c)))


def column_files(c):
    c.start("64MB", "1GB")
    for t in ("f1", "f2", "f3", "f4"):
        make_table(c, t, 60000 if t != "f1" else 200000)
        c.sql(QUERY.format(t=t))  # loads and publishes; the column writer saves the four columns
    written = {t: wait_files(c, t, 4) for t in ("f1", "f2", "f3", "f4")}
    check("files: the column writer saves each published column", all(v == [1, 2, 3, 4] for v in written.values()),
          str(written))
    c.sql("SET synchronous_commit = on; UPDATE f2 SET b = -1 WHERE a = 5")      # clears a visibility bit
    c.sql("SET synchronous_commit = on; DELETE FROM f3 WHERE a < 100")
    c.sql("VACUUM f3")  # bits set again, with new LSNs
    _, folder, prefix_f4 = files_of(c, "f4")
    c.sql("DROP TABLE f4")
    left = [n for n in os.listdir(folder) if n.startswith(prefix_f4)]
    check("files: DROP removes the relation's files", left == [], str(left))
    c.start("64MB", "1GB")  # a restart: the shared cache is empty
    src, plan = explain_source(c, QUERY.format(t="f1"))
    check("files: after a restart a new backend reads the column files", src == "files", plan)
    ok, detail = answers_match(c, QUERY.format(t="f1"))
    check("files: PostgreSQL's rows from the column files", ok, detail)
    ok, detail = answers_match(c, "SELECT a, n, s, b FROM f1 WHERE a % 4999 = 0 OR b IS NULL AND a < 50 ORDER BY a")
    check("files: rows of a relation read from its files", ok, detail)
    src, plan = explain_source(c, QUERY.format(t="f1"))
    check("files: the next backend maps them too", src == "files", plan)
    _, plan = explain_source(c, QUERY.format(t="f1") + "; EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " +
                             QUERY.format(t="f1"))
    second = plan.split("Custom Scan (rndn)")[-1]
    check("files: then the backend's own cache serves its next query", plan.count("Custom Scan (rndn)") == 2 and
          "Relations From Column Cache: 1" in second and "Column Files" not in second and "Shared Cache" not in second,
          plan)
    src, plan = explain_source(c, QUERY.format(t="f2"))
    check("files: an update since the files were written: loaded from the heap", src == "loaded", plan)
    ok, detail = answers_match(c, QUERY.format(t="f2"))
    check("files: rows after an update", ok, detail)
    check("files: stale files removed", files_of(c, "f2")[0] == [], str(files_of(c, "f2")[0]))
    src, plan = explain_source(c, QUERY.format(t="f3"))
    check("files: a delete and VACUUM since: loaded from the heap", src == "loaded", plan)
    ok, detail = answers_match(c, QUERY.format(t="f3"))
    check("files: rows after a delete and VACUUM", ok, detail)
    # f3's new columns are saved again and serve the next restart
    wait_files(c, "f3", 4)
    c.start("64MB", "1GB")
    src, plan = explain_source(c, QUERY.format(t="f3"))
    check("files: the reloaded columns' files serve the next restart", src == "files", plan)
    ok, detail = answers_match(c, QUERY.format(t="f3"))
    check("files: rows from the new files", ok and "['59901|" in detail, detail)
    # a type change without a rewrite (numeric(12,2) -> numeric(14,2)): the file's typmod is
    # the old one, so it is not used, and goes
    c.sql("ALTER TABLE f3 ALTER COLUMN n TYPE numeric(14,2)")
    c.start("64MB", "1GB")
    src, plan = explain_source(c, QUERY.format(t="f3"))
    check("files: a type changed without a rewrite: loaded from the heap", src == "loaded", plan)
    ok, detail = answers_match(c, "SELECT n, pg_typeof(n), sum(a) FROM f3 GROUP BY n ORDER BY n DESC LIMIT 3")
    check("files: rows after the type change", ok, detail)
    # a damaged file (cut short) is never read: the relation is loaded from the heap
    attnums, folder, prefix = files_of(c, "f1")
    victim = os.path.join(folder, prefix + "2")
    with open(victim, "r+b") as f:
        f.truncate(os.path.getsize(victim) - 100)
    c.start("64MB", "1GB")
    src, plan = explain_source(c, QUERY.format(t="f1"))
    check("files: a damaged file is not read", src == "loaded", plan)
    ok, detail = answers_match(c, QUERY.format(t="f1"))
    check("files: rows despite a damaged file", ok, detail)
    # DROP and TRUNCATE remove the files (in the backend that ran them)
    wait_files(c, "f1", 4)
    attnums, folder, prefix_f1 = files_of(c, "f1")
    _, _, prefix_f3 = files_of(c, "f3")
    c.sql("DROP TABLE f1")
    c.sql("TRUNCATE f3")
    left = [n for n in os.listdir(folder) if n.startswith((prefix_f1, prefix_f3))]
    check("files: DROP and TRUNCATE remove the relation's files", left == [], str(left))
    ok, detail = answers_match(c, QUERY.format(t="f3"))
    check("files: rows after TRUNCATE", ok and detail.startswith("rndn ['0|"), detail)
    # size 0: nothing written, nothing read
    make_table(c, "f5", 20000)
    c.start("64MB", "0")
    c.sql(QUERY.format(t="f5"))
    time.sleep(2)
    check("files: size 0 writes no file", files_of(c, "f5")[0] == [], str(files_of(c, "f5")[0]))
    c.sql("DROP TABLE f2, f3, f5")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default=os.path.join(ROOT, "build/pgcluster-shared"))
    args = ap.parse_args()
    c = Cluster(args.dir)
    try:
        # ---- 8 MB: reuse across backends, the size limit, eviction --------------------------
        c.start("8MB")
        c.sql("DROP DATABASE IF EXISTS rndn_shared_cache", db="postgres")
        c.sql("CREATE DATABASE rndn_shared_cache", db="postgres")
        c.sql("CREATE EXTENSION rndn")
        for t in ("t1", "t2", "t3", "t4"):
            make_table(c, t, 80000)  # about 2.2 MB of columns each: three fit, four do not
        make_table(c, "big", 300000)  # about 11 MB: larger than the whole cache
        # a database on extension version 0.1 gets the functions with ALTER EXTENSION UPDATE
        c.sql("DROP DATABASE IF EXISTS rndn_shared_cache_up", db="postgres")
        c.sql("CREATE DATABASE rndn_shared_cache_up", db="postgres")
        c.sql("CREATE EXTENSION rndn VERSION '0.1'", db="rndn_shared_cache_up")
        before_up = c.sql("SELECT count(*) FROM pg_proc WHERE proname LIKE 'rndn_%cache%'", db="rndn_shared_cache_up")
        c.sql("ALTER EXTENSION rndn UPDATE", db="rndn_shared_cache_up")
        after_up = c.sql("SELECT extversion, (SELECT count(*) FROM pg_proc WHERE proname LIKE 'rndn_%cache%'), "
                         "(SELECT size FROM rndn_shared_cache_info()) FROM pg_extension WHERE extname = 'rndn'",
                         db="rndn_shared_cache_up")
        check("update 0.1 -> 0.2", before_up == ["0"] and after_up == [f"0.2|3|{8 << 20}"], f"{before_up} {after_up}")
        i = info(c)
        check("size reported", i["size"] == 8 << 20 and i["used"] == 0 and i["relations"] == 0, str(i))

        src, plan = explain_source(c, QUERY.format(t="t1"))
        check("first backend loads", src == "loaded", plan)
        before = cached(c).get("t1")
        check("loaded columns listed", before is not None and before[0] == 4 and before[1] == 80000, str(before))
        src, plan = explain_source(c, QUERY.format(t="t1"))
        check("second backend's first query from the shared cache", src == "shared", plan)
        ok, detail = answers_match(c, QUERY.format(t="t1"))
        check("second backend gets PostgreSQL's rows", ok, detail)
        after = cached(c).get("t1")
        # each column: one hit for the EXPLAIN ANALYZE, one for the plain query
        check("hits counted", after is not None and after[3] == before[3] + 2 * 4, f"{before} -> {after}")
        src, plan = explain_source(c, QUERY.format(t="t1"), prefix="SET rndn.column_cache = 0; ")
        check("rndn.column_cache = 0: the backend uses no cache", src == "loaded", plan)
        ok, detail = answers_match(c, "SELECT a, n, s, b FROM t1 WHERE a % 9973 = 0 ORDER BY a")
        check("rows of a cached relation", ok, detail)

        # t2, t3 fit beside t1; t4 does not: the least recently used (t1) goes
        for t in ("t2", "t3"):
            c.sql(QUERY.format(t=t))
        c.sql(QUERY.format(t="t1"))  # t1 used again: now t2 is the least recently used
        c.sql(QUERY.format(t="t4"))
        now = cached(c)
        i = info(c)
        check("within the size", i["used"] <= i["size"] and sum(v[2] for v in now.values()) <= i["size"], f"{i} {now}")
        check("least recently used evicted", "t2" not in now and {"t1", "t3", "t4"} <= set(now) and i["evictions"] >= 1,
              f"{sorted(now)} {i}")
        src, plan = explain_source(c, QUERY.format(t="t2"))
        check("an evicted relation is loaded again", src == "loaded", plan)
        ok, detail = answers_match(c, QUERY.format(t="t2"))
        check("rows after eviction", ok, detail)

        # larger than the whole cache: stays in the loading backend's own cache
        src, plan = explain_source(c, QUERY.format(t="big") + "; " + "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " +
                                   QUERY.format(t="big"))
        check("too big: the backend's own cache serves it", src == "local" and "Shared Cache" not in plan, plan)
        check("too big: not in the shared cache", "big" not in cached(c), str(cached(c)))
        i = info(c)
        check("still within the size", i["used"] <= i["size"], str(i))

        # a change: the other backend's next query loads again and sees it
        c.sql("SET synchronous_commit = on; UPDATE t3 SET b = -5 WHERE a = 17")
        src, plan = explain_source(c, QUERY.format(t="t3"))
        check("an update invalidates", src == "loaded", plan)
        ok, detail = answers_match(c, QUERY.format(t="t3"))
        check("rows after an update", ok, detail)

        # a reader still holding columns while another backend's query finds them stale: the
        # columns are retired (kept), the reader's rows are its snapshot's, and they are freed
        # afterwards.  The cursor's result columns are the cached input columns themselves (no
        # filter, no order: zero copy), so the open cursor holds their pins.  A cursor over a
        # table's plain rows keeps PostgreSQL's plan (it may serve WHERE CURRENT OF); the empty
        # UNION ALL branch, which the planner drops, leaves the plain scan to rndn.
        c.sql(QUERY.format(t="t4"))
        c.sql(QUERY.format(t="t4"))
        cursor_sql = "SELECT a, b FROM t4 UNION ALL SELECT a, b FROM t4 WHERE false"
        expected = c.sql("SET rndn.enabled = off; " + cursor_sql)
        holder = subprocess.Popen(["psql", "-X", "-q", "-A", "-t", "-F", "|", "-d", "rndn_shared_cache"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  env=c.env)
        try:
            holder.stdin.write("SET rndn.regression_mode = on;\nBEGIN;\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, "
                               "SUMMARY OFF) " + cursor_sql + ";\nDECLARE cur CURSOR FOR " + cursor_sql +
                               ";\nFETCH 3 FROM cur;\n\\echo @@held\n")
            holder.stdin.flush()
            first = []
            for line in holder.stdout:
                if line.strip() == "@@held":
                    break
                first.append(line.strip())
            check("reader found the shared columns", "Relations From Shared Cache: 1" in "\n".join(first),
                  "\n".join(first))
            c.sql("SET synchronous_commit = on; UPDATE t4 SET b = -7 WHERE a = 1994")  # a row the reader still has to fetch
            c.sql(QUERY.format(t="t4"))  # finds the entry stale and unlinks it
            i = info(c)
            check("pinned columns retired, not freed", i["retired"] == 2 and "t4" not in cached(c), str(i))
            holder.stdin.write("FETCH ALL FROM cur;\nCOMMIT;\n\\echo @@done\n")
            holder.stdin.flush()
            rest = []
            for line in holder.stdout:
                if line.strip() == "@@done":
                    break
                rest.append(line.strip())
            rows = [l for l in first + rest if re.match(r"^-?\d+\|", l)]
            check("the reader's rows are its snapshot's", rows == expected and "1994|994" in rows,
                  f"{len(rows)} rows vs {len(expected)}; first differing: "
                  f"{next(((x, y) for x, y in zip(rows, expected) if x != y), None)}")
        finally:
            holder.stdin.close()
            holder.wait(timeout=60)
        c.sql("VACUUM t4")
        c.sql(QUERY.format(t="t4"))  # loads and publishes (a publish sweeps the retired columns)
        i = info(c)
        check("retired columns freed once unread", i["retired"] == 0 and i["used"] <= i["size"], str(i))
        src, plan = explain_source(c, QUERY.format(t="t4"))
        check("the new columns serve the next backend", src == "shared", plan)
        ok, detail = answers_match(c, QUERY.format(t="t4"))
        check("rows after the replacement", ok, detail)

        # ---- dropped and rewritten relations leave the cache ------------------------------
        # Each call is a new backend: the one that drops or rewrites a relation removes its
        # entry before it commits; a rolled-back DROP keeps the relation, loaded again.
        small = ("d1", "d2", "d3", "d4", "d5")
        for t in small:
            make_table(c, t, 3000)
            c.sql(QUERY.format(t=t))
        present = cached(c)
        check("small tables cached", all(t in present for t in small), str(sorted(present)))
        c.sql("DROP TABLE d1")
        c.sql("TRUNCATE d2")
        c.sql("VACUUM FULL d3")
        c.sql("BEGIN; DROP TABLE d4; ROLLBACK")
        now = cached(c)
        check("dropped relation's entry removed", "d1" not in now and not any(
            l for l in c.sql("SELECT count(*) FROM rndn_column_cache_entries() e WHERE NOT EXISTS "
                             "(SELECT 1 FROM pg_class WHERE oid = e.relid) AND e.database = "
                             "(SELECT oid FROM pg_database WHERE datname = current_database())") if l != "0"),
              str(sorted(now)))
        check("truncated and rewritten relations' entries removed", "d2" not in now and "d3" not in now,
              str(sorted(now)))
        check("an untouched relation stays", "d5" in now, str(sorted(now)))
        ok, detail = answers_match(c, QUERY.format(t="d2"))
        check("rows after TRUNCATE", ok and detail.startswith("rndn ['0|"), detail)
        ok, detail = answers_match(c, QUERY.format(t="d4"))
        check("rows after a rolled-back DROP", ok, detail)
        src, plan = explain_source(c, QUERY.format(t="d5"))
        check("the untouched relation still serves a new backend", src == "shared", plan)

        # ---- background loads (the cost model's cold misses) -------------------------------
        background_loads(c)

        # ---- column files: the shared cache's columns across restarts ---------------------
        column_files(c)

        # ---- 0: disabled ------------------------------------------------------------------
        c.start("0")
        i = info(c)
        check("size 0: no shared memory", i["size"] == 0 and i["relations"] == 0, str(i))
        c.sql(QUERY.format(t="t1"))
        src, plan = explain_source(c, QUERY.format(t="t1"))
        check("size 0: a new backend loads", src == "loaded", plan)
        check("size 0: nothing listed", cached(c) == {}, str(cached(c)))
        ok, detail = answers_match(c, QUERY.format(t="t1"))
        check("size 0: rows", ok, detail)
    finally:
        c.stop()
    print(f"shared_cache: {len(failures)} failed" if failures else "shared_cache: all ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
