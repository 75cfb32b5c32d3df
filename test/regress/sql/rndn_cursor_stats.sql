-- Issue 19, item 10: cursors, materialized views and statistics counters behave as with
-- PostgreSQL's own plans.
SET rndn.regression_mode = on;
CREATE TABLE cs_t (a int, b text);
INSERT INTO cs_t SELECT g, 'x' || g FROM generate_series(1, 1000) g;

-- UPDATE ... WHERE CURRENT OF a declared cursor over one table: the cursor keeps PostgreSQL's
-- scan (it needs row positions); the same query outside a cursor goes through rndn.
EXPLAIN (COSTS OFF) SELECT a, b FROM cs_t WHERE a > 990;
BEGIN;
DECLARE cs_c CURSOR FOR SELECT a, b FROM cs_t WHERE a > 990;
FETCH 2 FROM cs_c;
UPDATE cs_t SET b = 'updated' WHERE CURRENT OF cs_c;
DELETE FROM cs_t WHERE CURRENT OF cs_c;
FETCH 1 FROM cs_c;
UPDATE cs_t SET b = 'again' WHERE CURRENT OF cs_c;
SELECT a, b FROM cs_t WHERE a BETWEEN 991 AND 993 ORDER BY a;
ROLLBACK;
-- a cursor over a grouped query still runs through rndn
BEGIN;
DECLARE cs_g CURSOR FOR SELECT a % 3 AS k, count(*) FROM cs_t GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT a % 3 AS k, count(*) FROM cs_t GROUP BY 1 ORDER BY 1;
FETCH ALL FROM cs_g;
ROLLBACK;

-- FETCH BACKWARD on a SCROLL cursor whose plan went through rndn but ran PostgreSQL's plan
-- (rndn.enabled switched off after planning, a run-time fallback): the fallback runs under a
-- Material node, so backward fetches work as they do without rndn.
BEGIN;
DECLARE cs_s SCROLL CURSOR FOR SELECT a, b FROM cs_t WHERE a % 100 = 7 ORDER BY a DESC;
SET LOCAL rndn.enabled = off;
FETCH 3 FROM cs_s;
FETCH BACKWARD 2 FROM cs_s;
FETCH ABSOLUTE 9 FROM cs_s;
FETCH PRIOR FROM cs_s;
FETCH LAST FROM cs_s;
FETCH BACKWARD ALL FROM cs_s;
ROLLBACK;
-- a grouped query: PostgreSQL's aggregate cannot scan backward, so it runs under the Material
BEGIN;
SET LOCAL enable_sort = off;
DECLARE cs_h SCROLL CURSOR FOR SELECT a % 4 AS k, count(*) FROM cs_t GROUP BY 1;
SET LOCAL rndn.enabled = off;
FETCH 3 FROM cs_h;
FETCH BACKWARD 2 FROM cs_h;
FETCH LAST FROM cs_h;
ROLLBACK;
-- the same cursor without the fallback
BEGIN;
DECLARE cs_s2 SCROLL CURSOR FOR SELECT a, b FROM cs_t WHERE a % 100 = 7 ORDER BY a DESC;
FETCH 3 FROM cs_s2;
FETCH BACKWARD 2 FROM cs_s2;
ROLLBACK;

-- A materialized view stores text values in PostgreSQL's physical form: values compressed in
-- a wide source row stay compressed (pg_column_size equal to PostgreSQL's).
CREATE TABLE cs_wide (id int, t text, w text);
INSERT INTO cs_wide SELECT g, repeat('ab', 600) || g, repeat('cd', 600) || g FROM generate_series(1, 50) g;
CREATE MATERIALIZED VIEW cs_mv_on AS SELECT id, t FROM cs_wide WHERE id > 0;
CREATE MATERIALIZED VIEW cs_mv_grp_on AS SELECT id % 5 AS k, count(*) AS n, max(t) AS m FROM cs_wide GROUP BY 1;
CREATE TABLE cs_ctas_on AS SELECT id, w FROM cs_wide WHERE id > 10;
SET rndn.enabled = off;
CREATE MATERIALIZED VIEW cs_mv_off AS SELECT id, t FROM cs_wide WHERE id > 0;
CREATE MATERIALIZED VIEW cs_mv_grp_off AS SELECT id % 5 AS k, count(*) AS n, max(t) AS m FROM cs_wide GROUP BY 1;
CREATE TABLE cs_ctas_off AS SELECT id, w FROM cs_wide WHERE id > 10;
RESET rndn.enabled;
SELECT (SELECT sum(pg_column_size(t)) FROM cs_mv_on) = (SELECT sum(pg_column_size(t)) FROM cs_mv_off) AS mv_same_size,
       (SELECT sum(pg_column_size(m)) FROM cs_mv_grp_on) = (SELECT sum(pg_column_size(m)) FROM cs_mv_grp_off) AS grp_same_size,
       (SELECT sum(pg_column_size(w)) FROM cs_ctas_on) = (SELECT sum(pg_column_size(w)) FROM cs_ctas_off) AS ctas_same_size,
       (SELECT sum(pg_column_size(t)) FROM cs_mv_on) < 50 * 200 AS compressed;
SELECT count(*) FROM ((TABLE cs_mv_on EXCEPT TABLE cs_mv_off) UNION ALL (TABLE cs_mv_off EXCEPT TABLE cs_mv_on)) d;
REFRESH MATERIALIZED VIEW cs_mv_on;
SELECT (SELECT sum(pg_column_size(t)) FROM cs_mv_on) = (SELECT sum(pg_column_size(t)) FROM cs_mv_off) AS refreshed_same_size;
-- fixed-width results are stored through rndn
CREATE MATERIALIZED VIEW cs_mv_num AS SELECT id % 7 AS k, count(*) AS n, sum(id) AS s FROM cs_wide GROUP BY 1;
SELECT * FROM cs_mv_num ORDER BY k;
-- an unpopulated materialized view: PostgreSQL's error
CREATE MATERIALIZED VIEW cs_mv_empty AS SELECT id, t FROM cs_wide WITH NO DATA;
SELECT count(*) FROM cs_mv_empty;

-- rndn's scans count in pg_stat_user_tables like PostgreSQL's sequential scans: one scan and
-- every visible row read, whether the rows were loaded or served from the column cache.
CREATE TABLE cs_stat (a int, b int);
INSERT INTO cs_stat SELECT g, g % 10 FROM generate_series(1, 3000) g;
DELETE FROM cs_stat WHERE a <= 500;
VACUUM cs_stat;
SELECT pg_stat_force_next_flush();
SELECT seq_scan AS s0, seq_tup_read AS r0 FROM pg_stat_user_tables WHERE relname = 'cs_stat' \gset
EXPLAIN (COSTS OFF) SELECT b, count(*) FROM cs_stat WHERE a > 100 GROUP BY b ORDER BY b;
SELECT b, count(*) FROM cs_stat WHERE a > 100 GROUP BY b ORDER BY b LIMIT 2;
SELECT sum(a) FROM cs_stat WHERE b = 3;
SELECT pg_stat_force_next_flush();
SELECT seq_scan - :s0 AS rndn_scans, seq_tup_read - :r0 AS rndn_rows FROM pg_stat_user_tables WHERE relname = 'cs_stat';
SELECT seq_scan AS s0, seq_tup_read AS r0 FROM pg_stat_user_tables WHERE relname = 'cs_stat' \gset
SET rndn.enabled = off;
SELECT b, count(*) FROM cs_stat WHERE a > 100 GROUP BY b ORDER BY b LIMIT 2;
SELECT sum(a) FROM cs_stat WHERE b = 3;
RESET rndn.enabled;
SELECT pg_stat_force_next_flush();
SELECT seq_scan - :s0 AS pg_scans, seq_tup_read - :r0 AS pg_rows FROM pg_stat_user_tables WHERE relname = 'cs_stat';

DROP TABLE cs_t, cs_wide CASCADE;
DROP TABLE cs_ctas_on, cs_ctas_off, cs_stat;
