-- Found by PostgreSQL's own regression suite run with rndn forced (test/pgregress): each case
-- here answers as PostgreSQL does.
SET rndn.regression_mode = on;
CREATE TABLE rp_cur (k int, v text);
INSERT INTO rp_cur SELECT i, 'v' || i FROM generate_series(1, 5) i;
ANALYZE rp_cur;
-- A cursor over rows of a table can be the target of WHERE CURRENT OF, which needs the plan's
-- scan of that table: such a cursor keeps PostgreSQL's plan (rndn took it and the DELETE failed
-- with "cursor is not a simply updatable scan").
BEGIN;
DECLARE rp_c1 CURSOR FOR SELECT * FROM rp_cur WHERE k > 1;
FETCH 2 FROM rp_c1;
DELETE FROM rp_cur WHERE CURRENT OF rp_c1;
FETCH 1 FROM rp_c1;
UPDATE rp_cur SET v = 'updated' WHERE CURRENT OF rp_c1;
COMMIT;
SELECT * FROM rp_cur ORDER BY k;
-- the same through a PL/pgSQL cursor loop
DO $$
DECLARE
  c CURSOR FOR SELECT k FROM rp_cur;
BEGIN
  FOR r IN c LOOP
    UPDATE rp_cur SET k = r.k * 10 WHERE CURRENT OF c;
  END LOOP;
END $$;
SELECT * FROM rp_cur ORDER BY k;
-- the query itself, outside a cursor, still runs through rndn
EXPLAIN (COSTS OFF) SELECT * FROM rp_cur WHERE k > 1;
-- pg_stat_user_tables: each relation rndn loads counts as a sequential scan that read its rows,
-- as PostgreSQL's SeqScan would (seq_tup_read stayed 0), also when the columns come from the
-- column cache (after VACUUM every page is all-visible, so the second query reuses the first's)
-- (VACUUM marks pages all-visible only once the inserting transaction's commit is flushed)
SET synchronous_commit = on;
CREATE TABLE rp_stat (k int) WITH (autovacuum_enabled = off);
INSERT INTO rp_stat SELECT generate_series(1, 1000);
VACUUM (FREEZE, ANALYZE) rp_stat;
SELECT pg_stat_force_next_flush();
CREATE TEMP TABLE rp_prev AS SELECT seq_scan, seq_tup_read FROM pg_stat_user_tables WHERE relname = 'rp_stat';
EXPLAIN (COSTS OFF) SELECT count(*) FROM rp_stat WHERE k % 2 = 0;
SELECT count(*) FROM rp_stat WHERE k % 2 = 0;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT sum(k) FROM rp_stat WHERE k > 10;
SELECT pg_stat_force_next_flush();
SELECT s.seq_scan - p.seq_scan AS scans, s.seq_tup_read - p.seq_tup_read AS rows_read
  FROM pg_stat_user_tables s, rp_prev p WHERE s.relname = 'rp_stat';
DROP TABLE rp_cur, rp_stat;
RESET synchronous_commit;
RESET rndn.regression_mode;
