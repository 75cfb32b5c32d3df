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

-- A stored result whose source values are held plainly (neither compressed nor out of line)
-- runs through rndn and stores exactly PostgreSQL's bytes: the toaster compresses rndn's wide
-- rows as it compresses PostgreSQL's.  A source value held compressed or out of line makes the
-- scan run PostgreSQL's plan (its stored form is kept).  cs_stored_plan says whether rndn ran.
CREATE FUNCTION cs_stored_plan(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; rndn bool := false; fallback bool := false;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || stmt LOOP
    rndn := rndn OR line LIKE '%Custom Scan (rndn)%';
    fallback := fallback OR line LIKE '%Fallback: PostgreSQL plan%';
  END LOOP;
  RETURN CASE WHEN NOT rndn THEN 'PostgreSQL plan' WHEN fallback THEN 'rndn, fell back' ELSE 'rndn' END;
END $$;
-- every stored tuple of a relation's main fork, in page order (toast pointers name their own
-- relation, so only relations without out-of-line values are compared this way)
CREATE EXTENSION IF NOT EXISTS pageinspect;
CREATE FUNCTION cs_tuples(rel regclass) RETURNS bytea[] LANGUAGE sql AS $$
  SELECT array_agg(t_data ORDER BY b, lp) FROM generate_series(0, pg_relation_size(rel) / 8192 - 1) b,
    heap_page_items(get_raw_page(rel::text, b::int)) $$;
CREATE TABLE cs_src (id int, t text, w text, n numeric(10,2), c char(6), v varchar(20));
INSERT INTO cs_src SELECT g, CASE WHEN g % 5 = 0 THEN NULL ELSE 'v' || g END, repeat('xy', 100 + g), g / 3.0,
  'c' || (g % 4), CASE WHEN g % 7 = 0 THEN NULL ELSE 'über' || g END FROM generate_series(1, 300) g;
SET rndn.force = on;
SELECT cs_stored_plan('CREATE MATERIALIZED VIEW cs_sv_on AS SELECT id, t, w, n, c, v, w AS w2, w AS w3, w AS w4, n * 2 AS n2 FROM cs_src WHERE id > 3') AS mv;
SELECT cs_stored_plan('CREATE TABLE cs_sg_on AS SELECT c, max(v) AS mv, min(t) AS mt, sum(n) AS s, string_agg(t, '','' ORDER BY id) AS sa FROM cs_src GROUP BY c') AS ctas_group;
SELECT cs_stored_plan('CREATE TABLE cs_wide_on AS SELECT id, t FROM cs_wide') AS compressed_source;
SELECT cs_stored_plan('CREATE TABLE cs_wide2_on AS SELECT id % 5 AS k, max(t) AS m FROM cs_wide GROUP BY 1') AS compressed_source_grouped;
CREATE TABLE cs_ext (id int, t text);
ALTER TABLE cs_ext ALTER COLUMN t SET STORAGE EXTERNAL;
INSERT INTO cs_ext SELECT g, repeat('e', 3000) || g FROM generate_series(1, 20) g;
SELECT cs_stored_plan('CREATE TABLE cs_ext_on AS SELECT id, t FROM cs_ext') AS out_of_line_source;
CREATE TABLE cs_sx_on AS SELECT id, substr(w, 2) AS sw, c FROM cs_src WHERE id % 3 = 0;
REFRESH MATERIALIZED VIEW cs_sv_on;
SET rndn.enabled = off;
CREATE MATERIALIZED VIEW cs_sv_off AS SELECT id, t, w, n, c, v, w AS w2, w AS w3, w AS w4, n * 2 AS n2 FROM cs_src WHERE id > 3;
CREATE TABLE cs_sg_off AS SELECT c, max(v) AS mv, min(t) AS mt, sum(n) AS s, string_agg(t, ',' ORDER BY id) AS sa FROM cs_src GROUP BY c;
CREATE TABLE cs_wide_off AS SELECT id, t FROM cs_wide;
CREATE TABLE cs_wide2_off AS SELECT id % 5 AS k, max(t) AS m FROM cs_wide GROUP BY 1;
CREATE TABLE cs_ext_off AS SELECT id, t FROM cs_ext;
CREATE TABLE cs_sx_off AS SELECT id, substr(w, 2) AS sw, c FROM cs_src WHERE id % 3 = 0;
RESET rndn.force;
-- the comparisons read the stored values on PostgreSQL's plan (rndn would hand over values of
-- its own, whose size and compression are not the stored ones); rndn.enabled stays off
SELECT cs_tuples('cs_sv_on') = cs_tuples('cs_sv_off') AS mv_same_bytes,
       (SELECT count(*) FROM cs_sv_on WHERE pg_column_compression(w) IS NOT NULL) AS mv_compressed,
       cs_tuples('cs_sx_on') = cs_tuples('cs_sx_off') AS ctas_same_bytes,
       (SELECT array_agg(c ORDER BY c) FROM cs_sg_on) = (SELECT array_agg(c ORDER BY c) FROM cs_sg_off) AS groups_same;
-- rows in another order are other bytes: the grouped result is compared row by row
SELECT count(*) AS group_rows, count(*) FILTER (WHERE o.* IS NOT DISTINCT FROM f.* AND
         pg_column_size(o.mv) = pg_column_size(f.mv) AND pg_column_size(o.sa) = pg_column_size(f.sa) AND
         pg_column_compression(o.sa) IS NOT DISTINCT FROM pg_column_compression(f.sa) AND
         pg_column_size(o.s) = pg_column_size(f.s)) AS same_rows
  FROM cs_sg_on o JOIN cs_sg_off f USING (c);
SELECT (SELECT sum(pg_column_size(t)) FROM cs_wide_on) = (SELECT sum(pg_column_size(t)) FROM cs_wide_off) AS wide_same_size,
       (SELECT count(*) FROM cs_wide_on WHERE pg_column_compression(t) IS NOT NULL) AS wide_compressed,
       (SELECT count(*) FROM ((TABLE cs_wide_on EXCEPT TABLE cs_wide_off) UNION ALL (TABLE cs_wide_off EXCEPT TABLE cs_wide_on)) d) AS wide_diff,
       (SELECT sum(pg_column_size(m)) FROM cs_wide2_on) = (SELECT sum(pg_column_size(m)) FROM cs_wide2_off) AS wide_grouped_same_size,
       (SELECT count(*) FROM cs_wide2_on o JOIN cs_wide2_off f USING (k) WHERE o.m = f.m) AS wide_grouped_same_rows;
SELECT count(*) AS ext_rows, count(*) FILTER (WHERE o.t = f.t AND pg_column_size(o.t) = pg_column_size(f.t) AND
         pg_column_compression(o.t) IS NOT DISTINCT FROM pg_column_compression(f.t)) AS ext_same
  FROM cs_ext_on o JOIN cs_ext_off f USING (id);
RESET rndn.enabled;
-- A writing statement stores what the functions it calls return: a SQL function's result and
-- RETURN QUERY's rows keep PostgreSQL's form of the source values there (compressed in cs_wide).
CREATE FUNCTION cs_fn(i int) RETURNS text LANGUAGE sql STABLE AS 'SELECT t FROM cs_wide WHERE id = i';
CREATE FUNCTION cs_rq() RETURNS TABLE (id int, t text) LANGUAGE plpgsql AS $$
BEGIN RETURN QUERY SELECT w.id, w.t FROM cs_wide w WHERE w.id <= 3; END $$;
CREATE TABLE cs_ins_on (src text, id int, t text);
CREATE TABLE cs_ins_off (src text, id int, t text);
SET rndn.force = on;
INSERT INTO cs_ins_on SELECT 'fn', g, cs_fn(g) FROM generate_series(1, 3) g;
INSERT INTO cs_ins_on SELECT 'rq', * FROM cs_rq();
SET rndn.enabled = off;
INSERT INTO cs_ins_off SELECT 'fn', g, cs_fn(g) FROM generate_series(1, 3) g;
INSERT INTO cs_ins_off SELECT 'rq', * FROM cs_rq();
RESET rndn.force;
SELECT o.src, count(*) AS n, count(*) FILTER (WHERE o.t = f.t AND pg_column_size(o.t) = pg_column_size(f.t) AND
         pg_column_compression(o.t) IS NOT DISTINCT FROM pg_column_compression(f.t)) AS same,
       count(*) FILTER (WHERE pg_column_compression(o.t) IS NOT NULL) AS compressed
  FROM cs_ins_on o JOIN cs_ins_off f USING (src, id) GROUP BY o.src ORDER BY 1;
RESET rndn.enabled;

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
