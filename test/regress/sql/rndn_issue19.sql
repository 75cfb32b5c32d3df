-- Regressions of issue 19 that need the plan text: the translator once crashed (signal 11) while
-- planning a DISTINCT whose every key is fixed by an equality (the Unique node keeps no key
-- columns), even for a plain EXPLAIN.  The plans below must be rndn's and answer like PostgreSQL.
CREATE TABLE ri_u (x int, s text, d date);
INSERT INTO ri_u VALUES (5, 'a', '1995-01-01'), (5, 'a', '1995-01-01'), (6, 'b', '1996-01-01'), (NULL, NULL, NULL);
ANALYZE ri_u;
SET rndn.regression_mode = on;
EXPLAIN (COSTS OFF) SELECT DISTINCT x FROM ri_u WHERE x = 5;
EXPLAIN (COSTS OFF) SELECT DISTINCT ON (x) x, s FROM ri_u WHERE x = 5 ORDER BY x, s;
EXPLAIN (COSTS OFF) SELECT DISTINCT s, d FROM ri_u WHERE s = 'a' AND d = DATE '1995-01-01';
EXPLAIN SELECT DISTINCT x FROM ri_u WHERE x IN (5);
SELECT DISTINCT x FROM ri_u WHERE x = 5;
SELECT DISTINCT s, d FROM ri_u WHERE s = 'a' AND d = DATE '1995-01-01';
SELECT DISTINCT x FROM ri_u WHERE x = 7;
-- SET rndn.enabled = off reaches a plan cached while it was on: PostgreSQL's own plan runs
PREPARE ri_q AS SELECT count(*), max(s) FROM ri_u WHERE x = 5;
EXECUTE ri_q;
SET rndn.enabled = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE ri_q;
EXECUTE ri_q;
RESET rndn.enabled;
DEALLOCATE ri_q;
RESET rndn.regression_mode;
