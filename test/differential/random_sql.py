"""Random differential SQL: queries drawn from the SQL rndn supports, over NULL-heavy tables
holding every supported type's edge values, each run with rndn.enabled off and on.

    random_sql.py [--seed S] [--count N] [--db NAME] [--locale LOCALE] [--min-through PCT]
    random_sql.py --sqlsmith [--seed S] [--count N] ...   sqlsmith's queries instead (make fuzz-sqlsmith)

Needs PGHOST/PGPORT/PGUSER of a running cluster with rndn preloaded (tools/pgcluster.sh).  The
two runs must print the same rows (compared as sorted lines: every query with a LIMIT orders by
all of its output columns) and fail with the same SQLSTATE.  A query counts as run by rndn when
Custom Scan (rndn) is the root of its plan and it did not fall back at run time; the share of
such queries must reach --min-through percent.  Prints one line per failing query (with its
text), then 'random: N queries, M through rndn (P%)' and 'K passed, F failed'; exit 1 on any
failure.  The same seed always draws the same queries.

With --sqlsmith the queries come from sqlsmith (Debian's package; `sqlsmith --dry-run
--exclude-catalog --seed S` over the same tables), read-only ones only (sqlsmith also writes
INSERT/UPDATE/DELETE, which would change the tables between the runs), and none that calls a
function with effects outside the query (pg_terminate_backend, pg_sleep, advisory locks, ...):
those are dropped before the run and counted.  sqlsmith puts a LIMIT without ORDER BY on nearly
every query; where that is the query's only LIMIT, the query is run without it, so that its
whole answer is compared (it has the same rows, all of them).  Queries whose answer depends on
the plan even then (another LIMIT or OFFSET, TABLESAMPLE, random(), time and statistics
functions, window functions over unordered peers, ...) are only checked for crashes and counted
as such.  Every query runs under statement_timeout (a timeout on both sides is the same
SQLSTATE).  No floor applies to rndn's share there (sqlsmith's SQL is mostly outside what rndn
translates); the share is printed, at the plan's root and anywhere in it.

A backend that dies (psql loses its connection) is a failure: the batch goes on after it in a new
session, and the server log is read for backends killed by a signal (--log, default the cluster's
server.log next to $PGHOST).
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import time

STATEMENT_TIMEOUT = "10s"

SETUP = r"""
CREATE TABLE ra (k int, g int, s smallint, b8 bigint, f float8, r real, n numeric(12,2), m numeric(8,4),
                 d date, t text, v varchar(12), c char(4), bo bool);
CREATE TABLE rb (k int, g int, f float8, n numeric(12,2), d date, t text, bo bool);
INSERT INTO ra VALUES
  (1, 1, 1, 1, 1.5, 1.5, 1.25, 0.5, '1995-01-01', 'alpha', 'AIR', 'A', true),
  (2, 1, -2, -9223372036854775807, 'NaN', 'NaN', -7.5, 1.0001, '1994-06-30', 'Beta', 'RAIL', 'BB', false),
  (3, 2, 32767, 9223372036854775807, '-0', '-0', 0, 0, 'infinity', '', '', '', NULL),
  (4, 2, -32768, 0, 'Infinity', 'Infinity', 99999.99, -9.9999, '-infinity', 'über', 'ÄIR', 'Ü', true),
  (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (6, 3, 6, 600, '-Infinity', '-Infinity', -0.01, 3.1416, '0044-03-15 BC', 'naïve', 'MAIL', 'x', false),
  (7, 3, 0, -1, 1e300, 3.4e38, 10, 2, '2000-02-29', 'alpha', 'AIR', 'A', true),
  (8, NULL, 8, 8, -1e-300, 1e-30, 0.5, NULL, '1992-02-29', 'gamma', NULL, NULL, true),
  (NULL, 4, 9, 9, 2.25, 2.25, 3.33, 0.3333, '1998-12-01', 'delta', 'SHIP', 'D', NULL),
  (10, 4, NULL, 10, 0, 0, NULL, 1, '1970-01-01', 'Alpha', 'TRUCK', 'A ', false),
  (11, 5, 11, 11, 2.25, 2.25, 3.33, 0.3333, '1998-12-01', 'delta', 'SHIP', 'D', true),
  (12, 5, 12, 12, 7, 7, 100, 10, NULL, 'zeta', 'AIR', NULL, false);
INSERT INTO ra SELECT 100 + i, i % 6, (i % 50) - 25, i * 1000, i / 8.0, i / 4.0, (i % 97) / 4.0, (i % 13) / 7.0,
  DATE '1993-01-01' + i * 3, 'w' || (i % 17), 'v' || (i % 5), 'c' || (i % 3), i % 3 = 0
  FROM generate_series(1, 300) i;
UPDATE ra SET f = NULL, t = NULL WHERE k % 11 = 0 AND k > 100;
UPDATE ra SET n = NULL, d = NULL WHERE k % 7 = 0 AND k > 100;
INSERT INTO rb VALUES (1, 1, 1.5, 1.25, '1995-01-01', 'alpha', true), (2, 2, 'NaN', -7.5, NULL, 'Beta', false),
  (2, 2, 0, 0, '2000-02-29', '', NULL), (3, NULL, NULL, NULL, NULL, NULL, NULL), (NULL, 1, 7, 10, '1998-12-01', 'x', true),
  (13, 5, '-0', 100, '1970-01-01', 'über', true);
INSERT INTO rb SELECT 100 + i * 2, i % 4, i / 2.0, (i % 31) / 2.0, DATE '1994-01-01' + i * 7, 'w' || (i % 9), i % 2 = 0
  FROM generate_series(1, 120) i;
ALTER TABLE ra ADD COLUMN ts timestamp;
UPDATE ra SET ts = TIMESTAMP '2013-07-01 00:00:00' + k * INTERVAL '1 hour 37 minutes 13.25 seconds';
UPDATE ra SET ts = 'infinity' WHERE k = 3;
UPDATE ra SET ts = '-infinity' WHERE k = 4;
UPDATE ra SET ts = '0044-03-15 10:00:00 BC' WHERE k = 6;
UPDATE ra SET ts = '1969-12-31 23:59:59.999999' WHERE k = 8;
UPDATE ra SET ts = NULL WHERE k = 12 OR (k % 7 = 3 AND k > 100);
ANALYZE;
"""

INT_COLS = ["k", "g", "s", "b8"]
FLOAT_COLS = ["f", "r"]
NUM_COLS = ["n", "m"]
TEXT_COLS = ["t", "v"]
RB_COLS = {"k": "int", "g": "int", "f": "float", "n": "num", "d": "date", "t": "text", "bo": "bool"}


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def pick(self, xs):
        return self.rng.choice(xs)

    def col(self, alias, kind):
        cols = {"int": INT_COLS, "float": FLOAT_COLS, "num": NUM_COLS, "text": TEXT_COLS,
                "date": ["d"], "bool": ["bo"], "char": ["c"]}[kind]
        if alias == "b":
            cols = [c for c, k in RB_COLS.items() if k == kind] or ["k"]
        return f"{alias}.{self.pick(cols)}"

    def int_expr(self, a, depth=0):
        r = self.rng.random()
        if depth > 1 or r < 0.45:
            return self.col(a, "int") if self.rng.random() < 0.8 else str(self.pick([0, 1, -1, 7, 100, 2147483647]))
        op = self.pick(["+", "-", "*", "/", "%"])
        left = self.int_expr(a, depth + 1)
        if op in ("/", "%"):  # a guarded divisor (rndn computes every row; errors would depend on that)
            return f"({left} {op} {self.pick(['3', '-1', '7', 'NULLIF(' + self.col(a, 'int') + ', 0)'])})"
        if r < 0.6:
            return f"abs({left})"
        if r < 0.7:
            return f"COALESCE({left}, {self.int_expr(a, depth + 1)})"
        return f"({left} {op} {self.int_expr(a, depth + 1)})"

    def num_expr(self, a, depth=0):
        r = self.rng.random()
        if depth > 1 or r < 0.4:
            return self.col(a, "num") if self.rng.random() < 0.8 else self.pick(["0.5", "1.25", "-3", "100.001"])
        if r < 0.5:
            return f"({self.num_expr(a, depth + 1)} / {self.pick(['3', '7.0', '0.25'])})"
        if r < 0.6:
            return f"round({self.num_expr(a, depth + 1)}, {self.pick([0, 1, 2])})"
        if r < 0.7:
            return f"CASE WHEN {self.pred(a, depth + 1)} THEN {self.num_expr(a, depth + 1)} ELSE {self.pick(['0', '1.5', 'NULL'])} END"
        return f"({self.num_expr(a, depth + 1)} {self.pick(['+', '-', '*'])} {self.num_expr(a, depth + 1)})"

    def float_expr(self, a, depth=0):
        r = self.rng.random()
        if depth > 1 or r < 0.5:
            return self.col(a, "float")
        if r < 0.6:
            return f"abs({self.float_expr(a, depth + 1)})"
        return f"({self.float_expr(a, depth + 1)} {self.pick(['+', '-', '*'])} {self.pick(['1.5', '2', self.col(a, 'float')])})"

    def text_expr(self, a):
        r = self.rng.random()
        c = self.col(a, "text")
        if r < 0.6:
            return c
        if r < 0.75:
            return f"COALESCE({c}, 'none')"
        if r < 0.85:
            return f"NULLIF({c}, 'alpha')"
        return f"CASE WHEN {c} < 'm' THEN 'low' ELSE 'high' END"

    def date_expr(self, a):
        c = self.col(a, "date")
        return self.pick([c, f"({c} + {self.pick([1, 30, -365])})"])

    def misc_expr(self, a):
        d, c = self.col(a, "date"), self.col("a", "char")
        return self.pick([f"extract({self.pick(['year', 'month', 'day'])} FROM {d})", f"({d} - DATE '1995-01-01')",
                          c, f"COALESCE({c}, 'q')", f"COALESCE(a.n, a.m)", f"COALESCE(a.m, 0)", f"a.n::int",
                          f"a.s::int * 2", f"a.b8 / 1000", f"CASE WHEN a.bo THEN a.n END",
                          f"length({self.col(a, 'text')})", f"substring({self.col(a, 'text')} from 2 for 3)",
                          f"upper({self.col(a, 'text')})", f"({self.col(a, 'text')} || 'x')",
                          f"extract({self.pick(['hour', 'minute', 'day', 'month'])} FROM a.ts)",
                          f"date_trunc('{self.pick(['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'])}', a.ts)",
                          "a.ts", f"char_length({self.col(a, 'text')})"])

    def scalar(self, a):
        kind = self.pick(["int", "int", "num", "float", "text", "date", "bool", "misc"])
        if kind == "misc":
            return self.misc_expr(a), kind
        if kind == "int":
            return self.int_expr(a), kind
        if kind == "num":
            return self.num_expr(a), kind
        if kind == "float":
            return self.float_expr(a), kind
        if kind == "text":
            return self.text_expr(a), kind
        if kind == "date":
            return self.date_expr(a), kind
        return self.pred(a), kind

    def pred(self, a, depth=0):
        r = self.rng.random()
        if depth < 1 and r < 0.2:
            return f"({self.pred(a, depth + 1)} {self.pick(['AND', 'OR'])} {self.pred(a, depth + 1)})"
        if r < 0.25:
            return f"NOT ({self.pred(a, depth + 1)})"
        if r < 0.3:
            return f"{self.col(a, self.pick(['int', 'text', 'float', 'num', 'date']))} IS {self.pick(['', 'NOT '])}NULL"
        if r < 0.4:
            return f"{self.col(a, 'int')} IN ({', '.join(str(self.rng.randint(-2, 12)) for _ in range(3))}{self.pick(['', ', NULL'])})"
        if r < 0.45:
            return f"{self.col(a, 'text')} LIKE '{self.pick(['a%', '%a', '%ph%', '_eta', ''])}'"
        if r < 0.5:
            return f"{self.col(a, 'bool')}"
        op = self.pick(["=", "<>", "<", "<=", ">", ">="])
        kind = self.pick(["int", "float", "num", "text", "date", "ts"])
        if kind == "ts":
            return f"a.ts {op} TIMESTAMP '{self.pick(['2013-07-02 12:00:00', '2013-07-01', '2000-01-01 00:00:00.5'])}'"
        if kind == "int":
            return f"{self.int_expr(a, 1)} {op} {self.rng.randint(-5, 120)}"
        if kind == "float":
            return f"{self.col(a, 'float')} {op} {self.pick(['0', '1.5', '-0.0', '1e10', self.col(a, 'float')])}"
        if kind == "num":
            return f"{self.col(a, 'num')} {op} {self.pick(['0', '1.25', '-7.5', '10.00'])}"
        if kind == "text":
            return f"{self.col(a, 'text')} {op} '{self.pick(['alpha', 'm', '', 'über', 'w1'])}'"
        return f"{self.col(a, 'date')} {op} DATE '{self.pick(['1995-01-01', '2000-02-29', '1970-01-01'])}'"

    def agg(self, a):
        kind = self.pick(["count", "count", "sumi", "sumn", "avgn", "minmax", "minmaxf", "minmaxt", "countd", "misc"])
        if kind == "misc":
            return self.pick([f"max(a.c)", f"min({self.col(a, 'date')} - 1)", f"sum(a.s)", f"avg(a.s)", f"sum(a.b8)",
                              f"max(extract(year FROM {self.col(a, 'date')}))", f"count(DISTINCT a.d)",
                              f"sum(CASE WHEN a.bo THEN a.n ELSE 0 END)", f"min(COALESCE(a.m, 1))",
                              f"{self.pick(['min', 'max'])}(a.ts)", "count(DISTINCT date_trunc('day', a.ts))"])
        if kind == "count":
            return self.pick(["count(*)", f"count({self.col(a, self.pick(['int', 'text', 'float']))})"])
        if kind == "sumi":
            return f"sum({self.int_expr(a, 1)})"
        if kind == "sumn":
            return f"sum({self.num_expr(a, 1)})"
        if kind == "avgn":
            return f"avg({self.pick([self.col(a, 'num'), self.col(a, 'int')])})"
        if kind == "minmax":
            return f"{self.pick(['min', 'max'])}({self.pick([self.int_expr(a, 1), self.num_expr(a, 1), self.date_expr(a)])})"
        if kind == "minmaxf":
            return f"{self.pick(['min', 'max'])}({self.col(a, 'float')})"
        if kind == "minmaxt":
            return f"{self.pick(['min', 'max'])}({self.col(a, 'text')})"
        return f"count(DISTINCT {self.col(a, self.pick(['int', 'text']))})"

    def from_clause(self):
        r = self.rng.random()
        if r < 0.6:
            return "ra a", False
        jt = self.pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "JOIN"])
        on = self.pick(["a.k = b.k", "a.g = b.g", "a.k = b.k AND a.t = b.t", "a.d = b.d"])
        return f"ra a {jt} rb b ON {on}", True

    def query(self):
        frm, joined = self.from_clause()
        aliases = ["a", "b"] if joined else ["a"]
        where = f" WHERE {self.pred(self.pick(aliases))}" if self.rng.random() < 0.6 else ""
        shape = self.rng.random()
        if shape < 0.35:  # grouped aggregation
            keys = [self.pick([f"a.g", f"a.bo", self.col("a", "text"), self.col("a", "date"), f"b.g" if joined else "a.s",
                               "date_trunc('day', a.ts)"])
                    for _ in range(self.rng.randint(1, 2))]
            keys = list(dict.fromkeys(keys))
            aggs = [self.agg(self.pick(aliases)) for _ in range(self.rng.randint(1, 3))]
            sel = keys + aggs
            having = f" HAVING count(*) > {self.rng.randint(0, 3)}" if self.rng.random() < 0.2 else ""
            q = f"SELECT {', '.join(sel)} FROM {frm}{where} GROUP BY {', '.join(keys)}{having}"
        elif shape < 0.5:  # aggregation without GROUP BY
            q = f"SELECT {', '.join(self.agg(self.pick(aliases)) for _ in range(self.rng.randint(1, 3)))} FROM {frm}{where}"
        elif shape < 0.6:  # DISTINCT
            cols = list(dict.fromkeys(self.col("a", self.pick(["int", "text", "date", "bool"])) for _ in range(self.rng.randint(1, 2))))
            q = f"SELECT DISTINCT {', '.join(cols)} FROM {frm}{where}"
            sel = cols
        elif shape < 0.7:  # subqueries
            sub = self.pick([f"a.k IN (SELECT k FROM rb WHERE {self.pred('rb')})".replace("rb.", ""),
                             f"a.k NOT IN (SELECT k FROM rb WHERE k IS NOT NULL)",
                             f"EXISTS (SELECT 1 FROM rb WHERE rb.g = a.g)",
                             f"NOT EXISTS (SELECT 1 FROM rb WHERE rb.k = a.k)"])
            sel = [self.scalar("a")[0] for _ in range(self.rng.randint(1, 3))]
            q = f"SELECT {', '.join(sel)} FROM ra a WHERE {sub}"
        else:  # projection
            sel = [self.scalar(self.pick(aliases))[0] for _ in range(self.rng.randint(1, 4))]
            q = f"SELECT {', '.join(sel)} FROM {frm}{where}"
        # ORDER BY ... LIMIT over every output column, never over floats: PostgreSQL's sort may
        # put -0 and 0, which compare equal, in either order
        floats = any(re.search(r"\b[ab]\.[fr]\b", e) for e in sel) if shape >= 0.5 else True
        if self.rng.random() < 0.25 and not floats and not q.startswith("SELECT DISTINCT") and "GROUP BY" not in q and shape >= 0.5:
            n = len(sel)
            q += f" ORDER BY {', '.join(str(i + 1) for i in range(n))} LIMIT {self.rng.randint(0, 20)}"
        return q


def psql(db, script, rndn):
    # rndn.force: on these small tables the cost model would leave most queries with PostgreSQL.
    env = dict(os.environ, PGOPTIONS=f"{os.environ.get('PGOPTIONS', '')} -c rndn.enabled={rndn} -c rndn.force=on")
    cmd = ["psql", "-X", "-q", "-A", "-F", "|", "-P", "footer=off", "-d", db]
    p = subprocess.run(cmd, input=script, capture_output=True, text=True, env=env, timeout=7200)
    return p.stdout


def run_batch(db, queries, rndn, explain=None):
    """Each query's output and SQLSTATE (or its plan's first line and run-time fallback).  A query
    during which the session lost its connection (a backend crash) gets the state CRASH, and the
    batch goes on in a new session after it."""
    results = {}
    start = 0
    while start < len(queries):
        lines = ["\\set VERBOSITY terse", f"SET statement_timeout = '{STATEMENT_TIMEOUT}';"]
        for i in range(start, len(queries)):
            q = queries[i]
            lines.append(f"\\echo @@Q {i}")
            if explain == "plan":
                lines.append(f"EXPLAIN (COSTS OFF) {q};")
            elif explain == "analyze":
                lines.append(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) {q};")
            else:
                lines.append(q + ";")
            lines.append("\\echo @@S :SQLSTATE")
        out = psql(db, "\n".join(lines) + "\n", rndn)
        last = start - 1
        for block in out.split("@@Q ")[1:]:
            head, _, rest = block.partition("\n")
            if not head.strip().isdigit():
                continue
            last = int(head)
            if "@@S " not in rest:
                continue
            body, _, state = rest.rpartition("@@S ")
            results[last] = (body, state.strip())
        if len(queries) - 1 in results:
            break
        # psql stopped early: the connection was lost during the first query without a state
        crashed = next(i for i in range(start, len(queries)) if i not in results)
        results[crashed] = ("", "CRASH")
        time.sleep(3)   # the postmaster restarts after a backend died
        start = crashed + 1
    return results


# sqlsmith: queries with effects outside the query (they would change what the other run sees, or
# stop a backend) are dropped; queries whose answer depends on the plan are only crash-checked.
SIDE_EFFECTS = re.compile(r"\b(?:pg_terminate_backend|pg_cancel_backend|pg_sleep\w*|pg_reload_conf|pg_rotate_logfile|"
                          r"pg_promote|pg_switch_wal|pg_create_\w+|pg_drop_\w+|pg_replication_\w+|pg_logical_\w+|"
                          r"pg_\w*advisory\w*|pg_notify|set_config|setval|nextval|lo_\w+|pg_read_\w*file|"
                          r"pg_ls_\w+|pg_stat_reset\w*|pg_file_\w+|pg_log_backend_memory_contexts|pg_import_system_collations|"
                          r"pg_backup_\w+|pg_start_backup|pg_stop_backup|pg_wal_replay_\w+|txid_current|pg_current_xact_id|"
                          r"pg_export_snapshot|dblink\w*|pg_copy_\w+_replication_slot|pg_truncate_visibility_map)\b", re.I)
NONDETERMINISTIC = re.compile(r"\b(?:limit|offset|fetch|random|setseed|gen_random_uuid|now|clock_\w+|"
                              r"timeofday|current_\w+|localtime\w*|statement_timestamp|transaction_timestamp|"
                              r"pg_stat\w*|pg_\w*xact\w*|txid_\w+|pg_backend_pid|pg_postmaster\w*|pg_current_\w+|"
                              r"pg_last_\w+|pg_is_\w+|pg_my_temp\w*|pg_conf_load_time|pg_trigger_depth|inet_client_\w+|"
                              r"inet_server_\w+|pg_\w*size\w*|pg_relation_\w+|age|mxid_age|pg_notification_\w+|"
                              r"pg_listening_\w+|pg_snapshot_\w+|pg_visible_in_snapshot|pg_blocking_pids|"
                              r"pg_safe_snapshot_blocking_pids|pg_control_\w+|pg_walfile_\w+|pg_wal_\w+|pg_get_wal_\w+|"
                              r"version|pg_jit_available|pg_client_encoding|pg_get_keywords|rndn_\w+|"
                              r"row_number|rank|dense_rank|percent_rank|cume_dist|ntile|lag|lead|first_value|"
                              r"last_value|nth_value|string_agg|array_agg|json_agg|jsonb_agg|json_object_agg|"
                              r"jsonb_object_agg|xmlagg|percentile_\w+|mode|pg_column_size|"
                              r"pg_column_compression|ctid|xmin|xmax|cmin|cmax|pg_sequence_last_value|"
                              r"pg_tablespace_location|pg_get_replica_identity_index|pg_has_role|has_\w+_privilege)\b", re.I)


# Aggregates whose last digits depend on the order rows arrive in, when they add floats (the
# tables' float columns are f and r).
FLOAT_AGGREGATE = re.compile(r"\b(?:sum|avg|stddev\w*|variance|var_\w+|regr_\w+|corr|covar_\w+)\s*\(", re.I)
FLOATISH = re.compile(r"\.(?:f|r)\b|\bfloat\d?\b|\breal\b|\bdouble\b", re.I)


def plan_independent(q):
    return not NONDETERMINISTIC.search(q) and not (FLOAT_AGGREGATE.search(q) and FLOATISH.search(q))


def sqlsmith_queries(db, count, seed):
    """Read-only sqlsmith queries over db's tables: [(text to run, compared)] and a Counter of
    what was dropped.  A query whose only LIMIT is sqlsmith's trailing one runs without it."""
    target = (f"host={os.environ.get('PGHOST', '')} port={os.environ.get('PGPORT', '5432')} "
              f"user={os.environ.get('PGUSER', 'postgres')} dbname={db}")
    kept, dropped = [], collections.Counter()
    batch = 0
    while len(kept) < count and batch < 20:
        try:
            p = subprocess.run(["sqlsmith", f"--target={target}", "--exclude-catalog", "--dry-run",
                                f"--max-queries={2 * (count - len(kept)) + 50}", f"--seed={seed + 7919 * batch}"],
                               capture_output=True, text=True, timeout=3600)
        except FileNotFoundError:
            raise SystemExit("random sqlsmith: FAILED sqlsmith is not installed (tools/deps.sh installs Debian's package)")
        batch += 1
        for q in re.split(r";\s*\n", p.stdout):
            q = " ".join(q.split())
            if not q:
                continue
            if not re.match(r"(?i)^(select|with)\b", q) or re.search(r"(?i)\b(insert|update|delete|merge)\b", q):
                dropped["writes"] += 1
                continue
            if SIDE_EFFECTS.search(q):
                dropped["side effects"] += 1
                continue
            m = re.search(r"(?i)\s+limit\s+\d+$", q)
            body = q[:m.start()] if m else q
            # sqlsmith's TABLESAMPLE draws another sample in every run unless REPEATABLE fixes it
            body = re.sub(r"(?i)\b(tablesample\s+(?:system|bernoulli)\s*\([^()]*\))", r"\1 repeatable (19)", body)
            kept.append((body, plan_independent(body)))
            if len(kept) == count:
                break
        if not p.stdout.strip():
            raise SystemExit(f"random sqlsmith: FAILED sqlsmith wrote no queries: {p.stderr[-1000:]}")
    return kept, dropped


def server_crashes(log, since):
    if not log or not os.path.exists(log):
        return []
    with open(log, errors="replace") as f:
        f.seek(since)
        return re.findall(r"^.*(?:terminated by signal|was terminated by exception|"
                          r"terminating any other active server processes).*$", f.read(), re.M)


def zero_sign_free(line):
    return "|".join("0" if f == "-0" else f for f in line.split("|"))


def scale_free(line):
    """Numerics printed without their display scale (1.50 and 1.5 are equal values)."""
    return "|".join(re.sub(r"\.?0+$", "", f) if re.fullmatch(r"-?\d+\.\d+", f) else f for f in line.split("|"))


# Of equal numerics with different display scales (1.50 from a numeric(12,2) column, 1.5 from a
# CASE's ELSE 1.5), PostgreSQL's min/max keep whichever comes later, and a sort with LIMIT keeps
# whichever the sort leaves first: its answer depends on row order, which is the plan's (a sort's
# order among ties, a join's order), as for -0 and 0.
SCALE_TIES = re.compile(r"\b(?:min|max)\(|ORDER BY .* LIMIT ", re.I)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--db", default=None)
    ap.add_argument("--locale", default=None)
    ap.add_argument("--min-through", type=float, default=None)
    ap.add_argument("--sqlsmith", action="store_true", help="sqlsmith's queries instead of the generator's")
    ap.add_argument("--log", default=None, help="server log to read for backends killed by a signal")
    args = ap.parse_args()
    db = args.db or ("rndn_sqlsmith" if args.sqlsmith else "rndn_random")
    min_through = args.min_through if args.min_through is not None else (0.0 if args.sqlsmith else 80.0)
    log = args.log or os.path.join(os.environ.get("PGHOST", ""), "server.log")
    log_start = os.path.getsize(log) if os.path.exists(log) else 0
    tag = "sqlsmith" if args.sqlsmith else "random"
    locale = f" TEMPLATE template0 ENCODING 'UTF8' LOCALE '{args.locale}'" if args.locale else ""
    psql("postgres", f"SET client_min_messages = warning;\nDROP DATABASE IF EXISTS {db};\n"
                     f"CREATE DATABASE {db}{locale};\n", "off")
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db], input="CREATE EXTENSION IF NOT EXISTS rndn;\n" + SETUP,
                   text=True, check=True, capture_output=True)
    dropped = collections.Counter()
    if args.sqlsmith:
        items, dropped = sqlsmith_queries(db, args.count, args.seed)
        queries = [q for q, _ in items]
        compared = [c for _, c in items]
    else:
        rng = random.Random(args.seed)
        gen = Gen(rng)
        queries = [gen.query() for _ in range(args.count)]
        compared = [True] * len(queries)
    t0 = time.time()
    off = run_batch(db, queries, "off")
    on = run_batch(db, queries, "on")
    plans = run_batch(db, queries, "on", explain="plan")
    analyzed = run_batch(db, queries, "on", explain="analyze")
    seconds = time.time() - t0
    passed = failed = through = below = crashes = checked_only = scale_ties = 0
    states = collections.Counter()
    for i, q in enumerate(queries):
        (o_out, o_state), (n_out, n_state) = off.get(i, ("?", "?")), on.get(i, ("?", "?"))
        plan_text = plans.get(i, ("", ""))[0]
        plan = plan_text.splitlines()
        root = plan[1].strip() if len(plan) > 1 else ""
        fell_back = "Fallback: PostgreSQL plan" in analyzed.get(i, ("", ""))[0]
        ran = root.startswith("Custom Scan (rndn)") and not fell_back
        through += ran
        below += (not ran) and "Custom Scan (rndn)" in plan_text and not fell_back
        states[o_state if o_state in ("00000", "57014", "CRASH") else "error"] += 1
        if "CRASH" in (o_state, n_state, plans.get(i, ("", ""))[1], analyzed.get(i, ("", ""))[1]):
            crashes += 1
            failed += 1
            print(f"{tag} q{i} (seed {args.seed}): FAILED the backend died (off {o_state}, on {n_state}, "
                  f"EXPLAIN {plans.get(i, ('', ''))[1]}, EXPLAIN ANALYZE {analyzed.get(i, ('', ''))[1]})\n    {q}")
            continue
        if not compared[i]:
            checked_only += 1
            passed += 1
            continue
        same = o_state == n_state and sorted(o_out.splitlines()) == sorted(n_out.splitlines())
        if not same and o_state == n_state and "FROM ra a " in q and " JOIN " in q:
            # Of two equal floats (-0 and 0), PostgreSQL's min/max keep the later row: over a
            # join, whose row order is the plan's, its own answer depends on the plan.
            same = sorted(map(zero_sign_free, o_out.splitlines())) == sorted(map(zero_sign_free, n_out.splitlines()))
        if not same and o_state == n_state and SCALE_TIES.search(q) and \
                sorted(map(scale_free, o_out.splitlines())) == sorted(map(scale_free, n_out.splitlines())):
            same = True
            scale_ties += 1
        if same:
            passed += 1
        else:
            failed += 1
            print(f"{tag} q{i} (seed {args.seed}): FAILED via {'rndn' if ran else 'PostgreSQL plan'} "
                  f"(SQLSTATE {n_state} vs {o_state})\n    {q}")
            for line in [l for l in o_out.splitlines() if l not in n_out.splitlines()][:3]:
                print(f"    off only: {line}")
            for line in [l for l in n_out.splitlines() if l not in o_out.splitlines()][:3]:
                print(f"    on only:  {line}")
    died = server_crashes(log, log_start)
    if died and not crashes:
        failed += 1
        print(f"{tag} server log: FAILED {'; '.join(died[:3])}")
    share = 100.0 * through / max(1, len(queries))
    if args.sqlsmith:
        print(f"sqlsmith: {sum(dropped.values())} generated queries dropped ({dropped['writes']} writes, "
              f"{dropped['side effects']} with side effects); {len(queries) - checked_only} compared, {checked_only} "
              f"only checked for crashes (plan-dependent); PostgreSQL answered {states['00000']}, raised an error in "
              f"{states['error']}, timed out in {states['57014']}")
    print(f"{tag}: {len(queries)} queries (seed {args.seed}), {through} through rndn ({share:.1f}%)"
          + (f", {below} more with rndn below the root ({100.0 * below / max(1, len(queries)):.1f}%)" if args.sqlsmith else "")
          + f", {crashes} crashes, {seconds:.0f} s"
          + (f"; {scale_ties} equal only up to the display scale of tied numerics (plan-dependent)" if scale_ties else ""))
    if share < min_through:
        print(f"{tag} through-rndn share: FAILED ({share:.1f}% < {min_through}%)")
        failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
