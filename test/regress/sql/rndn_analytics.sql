-- issue 18, the SQL analysts write: aggregate FILTER, bool_and/bool_or/every, INTERSECT/EXCEPT
-- run as Custom Scan (rndn); each result is shown with rndn on and then with rndn off.
CREATE TABLE ra (id int, g int, n numeric(10,2), t text, b bool);
INSERT INTO ra VALUES (1, 1, 1.50, 'a', true), (2, 1, 2.25, 'b', false), (3, 1, NULL, NULL, NULL),
  (4, 2, -3.00, 'a', true), (5, 2, -3.00, 'a', true), (6, 3, 0.00, '', NULL), (7, NULL, 9.99, 'z', false);
ANALYZE ra;
SET rndn.regression_mode = on;
SET rndn.force = on;

-- aggregate FILTER (WHERE ...): the argument is computed only on the rows that pass
EXPLAIN (COSTS OFF)
SELECT g, count(*) FILTER (WHERE b), sum(n) FILTER (WHERE n > 0), min(t) FILTER (WHERE t <> 'a'),
       count(DISTINCT t) FILTER (WHERE id > 1) FROM ra GROUP BY g ORDER BY g;
SELECT g, count(*) FILTER (WHERE b), sum(n) FILTER (WHERE n > 0), min(t) FILTER (WHERE t <> 'a'),
       count(DISTINCT t) FILTER (WHERE id > 1) FROM ra GROUP BY g ORDER BY g;
SELECT sum(10 / g) FILTER (WHERE g <> 0), avg(n) FILTER (WHERE false) FROM ra;
SET rndn.enabled = off;
SELECT g, count(*) FILTER (WHERE b), sum(n) FILTER (WHERE n > 0), min(t) FILTER (WHERE t <> 'a'),
       count(DISTINCT t) FILTER (WHERE id > 1) FROM ra GROUP BY g ORDER BY g;
SELECT sum(10 / g) FILTER (WHERE g <> 0), avg(n) FILTER (WHERE false) FROM ra;
RESET rndn.enabled;

-- bool_and / bool_or / every: NULLs skipped, a group without a value gives NULL
EXPLAIN (COSTS OFF) SELECT g, bool_and(b), bool_or(b), every(n > 0) FROM ra GROUP BY g ORDER BY g;
SELECT g, bool_and(b), bool_or(b), every(n > 0) FROM ra GROUP BY g ORDER BY g;
SELECT bool_and(b), bool_or(b) FROM ra WHERE id IN (3, 6);
SET rndn.enabled = off;
SELECT g, bool_and(b), bool_or(b), every(n > 0) FROM ra GROUP BY g ORDER BY g;
SELECT bool_and(b), bool_or(b) FROM ra WHERE id IN (3, 6);
RESET rndn.enabled;

-- INTERSECT / EXCEPT [ALL]: NULLs are equal, ALL keeps min(l, r) / max(l - r, 0) copies
CREATE TABLE rb (id int, g int, n numeric(10,2), t text, b bool);
INSERT INTO rb SELECT * FROM ra WHERE id IN (1, 3, 4, 4, 6);
INSERT INTO rb VALUES (8, 5, 5.00, 'e', true);
ANALYZE rb;
EXPLAIN (COSTS OFF) SELECT g, n, t FROM ra INTERSECT ALL SELECT g, n, t FROM rb ORDER BY 1, 2, 3;
SELECT g, n, t FROM ra INTERSECT ALL SELECT g, n, t FROM rb ORDER BY 1, 2, 3;
SELECT g, n, t FROM rb EXCEPT ALL SELECT g, n, t FROM ra WHERE id <> 5 ORDER BY 1, 2, 3;
SELECT t, b FROM ra INTERSECT SELECT t, b FROM rb ORDER BY 1, 2;
SELECT t FROM ra EXCEPT SELECT t FROM rb ORDER BY 1;
SET rndn.enabled = off;
SELECT g, n, t FROM ra INTERSECT ALL SELECT g, n, t FROM rb ORDER BY 1, 2, 3;
SELECT g, n, t FROM rb EXCEPT ALL SELECT g, n, t FROM ra WHERE id <> 5 ORDER BY 1, 2, 3;
SELECT t, b FROM ra INTERSECT SELECT t, b FROM rb ORDER BY 1, 2;
SELECT t FROM ra EXCEPT SELECT t FROM rb ORDER BY 1;
RESET rndn.enabled;
-- a float column: -0 and 0 are one group, so are all NaNs, and the group prints its first row
-- seen; through rndn under the hashed strategy over heap-order inputs, the sorted strategy (its
-- sort leaves -0 and 0 in its own order) stays with PostgreSQL
SET rndn.explain_fallback = on;
EXPLAIN (COSTS OFF) SELECT n::float8 FROM ra INTERSECT SELECT n::float8 FROM rb;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT n::float8 FROM ra INTERSECT SELECT n::float8 FROM rb;
RESET enable_hashagg;
RESET rndn.explain_fallback;
-- correlated subqueries with a non-equality correlation: distinct outer keys joined with the
-- subquery's rows under the condition, aggregated per key (the same answers with rndn off)
EXPLAIN (COSTS OFF) SELECT id, (SELECT count(*) FROM rb WHERE rb.id < ra.id) FROM ra;
SELECT id, (SELECT count(*) FROM rb WHERE rb.id < ra.id), (SELECT max(n) FROM rb WHERE rb.g = ra.g AND rb.id <> ra.id),
       EXISTS (SELECT 1 FROM rb WHERE rb.n > ra.n) FROM ra ORDER BY id;
SET rndn.enabled = off;
SELECT id, (SELECT count(*) FROM rb WHERE rb.id < ra.id), (SELECT max(n) FROM rb WHERE rb.g = ra.g AND rb.id <> ra.id),
       EXISTS (SELECT 1 FROM rb WHERE rb.n > ra.n) FROM ra ORDER BY id;
RESET rndn.enabled;

-- GROUPING SETS / ROLLUP / CUBE with GROUPING(): a sorted rollup's own order (no Sort above)
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT g, t, count(*), sum(n), GROUPING(g, t) FROM ra GROUP BY ROLLUP (g, t) ORDER BY g, t;
SELECT g, t, count(*), sum(n), GROUPING(g, t) FROM ra GROUP BY ROLLUP (g, t) ORDER BY g, t;
SET rndn.enabled = off;
SELECT g, t, count(*), sum(n), GROUPING(g, t) FROM ra GROUP BY ROLLUP (g, t) ORDER BY g, t;
RESET rndn.enabled;
RESET enable_hashagg;
EXPLAIN (COSTS OFF) SELECT g, b, count(*), GROUPING(g, b) FROM ra GROUP BY CUBE (g, b);
SELECT g, b, count(*), bool_and(b), GROUPING(g, b) FROM ra GROUP BY CUBE (g, b) ORDER BY 5, 1, 2;
SELECT count(*), sum(n), GROUPING(g) FROM ra WHERE id < 0 GROUP BY GROUPING SETS ((g), ());
SET rndn.enabled = off;
SELECT g, b, count(*), bool_and(b), GROUPING(g, b) FROM ra GROUP BY CUBE (g, b) ORDER BY 5, 1, 2;
SELECT count(*), sum(n), GROUPING(g) FROM ra WHERE id < 0 GROUP BY GROUPING SETS ((g), ());
RESET rndn.enabled;

-- window functions: row_number, rank, dense_rank, aggregates over whole partitions
EXPLAIN (COSTS OFF) SELECT id, rank() OVER (PARTITION BY g ORDER BY t), sum(n) OVER (PARTITION BY g) FROM ra ORDER BY id;
SELECT id, row_number() OVER (PARTITION BY g ORDER BY t, id), rank() OVER (PARTITION BY g ORDER BY t),
       dense_rank() OVER (ORDER BY n DESC), sum(n) OVER (PARTITION BY g), count(*) OVER () FROM ra ORDER BY id;
SET rndn.enabled = off;
SELECT id, row_number() OVER (PARTITION BY g ORDER BY t, id), rank() OVER (PARTITION BY g ORDER BY t),
       dense_rank() OVER (ORDER BY n DESC), sum(n) OVER (PARTITION BY g), count(*) OVER () FROM ra ORDER BY id;
RESET rndn.enabled;
-- a running frame (ORDER BY with an aggregate) runs through rndn (@frame)
SET rndn.explain_fallback = on;
EXPLAIN (COSTS OFF) SELECT id, sum(n) OVER (ORDER BY id) FROM ra;
RESET rndn.explain_fallback;

-- stddev / variance of floats: float8 from PostgreSQL's Youngs-Cramer sums; of integers and
-- numerics: PostgreSQL's numeric digits from exact sums (@num_var)
EXPLAIN (COSTS OFF) SELECT g, stddev(n::float8), var_pop(n::float8) FROM ra GROUP BY g;
SELECT g, stddev(n::float8), var_pop(n::float8), stddev_pop(n::float4) FROM ra GROUP BY g ORDER BY g;
SET rndn.enabled = off;
SELECT g, stddev(n::float8), var_pop(n::float8), stddev_pop(n::float4) FROM ra GROUP BY g ORDER BY g;
RESET rndn.enabled;
SET rndn.explain_fallback = on;
EXPLAIN (COSTS OFF) SELECT stddev(n) FROM ra;
RESET rndn.explain_fallback;
SELECT g, stddev(n), var_pop(n), variance(g), stddev_pop(g::bigint * 3000000000000000000) FROM ra GROUP BY g ORDER BY g;
SET rndn.enabled = off;
SELECT g, stddev(n), var_pop(n), variance(g), stddev_pop(g::bigint * 3000000000000000000) FROM ra GROUP BY g ORDER BY g;
RESET rndn.enabled;
