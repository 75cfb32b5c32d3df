-- rndn planner hook: which plans become Custom Scan (rndn), what EXPLAIN shows, and why
-- the rest stays with PostgreSQL (rndn.explain_fallback).
CREATE TABLE rp_orders (o_id int PRIMARY KEY, o_cust int, o_total numeric(12,2), o_date date, o_note text);
CREATE TABLE rp_cust (c_id int PRIMARY KEY, c_name varchar(20), c_seg char(8));
INSERT INTO rp_cust SELECT g, 'cust' || g, CASE WHEN g % 3 = 0 THEN 'BUILDING' ELSE 'MACHINE' END
    FROM generate_series(1, 50) g;
INSERT INTO rp_orders SELECT g, g % 50 + 1, (g * 7 % 1000) / 10.0, DATE '2020-01-01' + g % 400, 'note ' || g
    FROM generate_series(1, 2000) g;
ANALYZE rp_orders, rp_cust;
SET rndn.regression_mode = on;

-- scan, filter, projection: the whole query is one Custom Scan listing what it reads
EXPLAIN (COSTS OFF) SELECT o_id, o_total * 2 FROM rp_orders WHERE o_date < DATE '2020-02-01';
-- grouped aggregation with ORDER BY and LIMIT
EXPLAIN (COSTS OFF)
SELECT o_cust, sum(o_total), count(*) FROM rp_orders GROUP BY o_cust ORDER BY 2 DESC LIMIT 3;
SELECT o_cust, sum(o_total), count(*) FROM rp_orders GROUP BY o_cust ORDER BY 2 DESC, 1 LIMIT 3;
-- a join with a filter on the other side
EXPLAIN (COSTS OFF)
SELECT c_seg, count(*), avg(o_total) FROM rp_orders JOIN rp_cust ON o_cust = c_id
WHERE c_name LIKE 'cust1%' GROUP BY c_seg ORDER BY c_seg;
SELECT c_seg, count(*), avg(o_total) FROM rp_orders JOIN rp_cust ON o_cust = c_id
WHERE c_name LIKE 'cust1%' GROUP BY c_seg ORDER BY c_seg;
SET rndn.enabled = off;
SELECT c_seg, count(*), avg(o_total) FROM rp_orders JOIN rp_cust ON o_cust = c_id
WHERE c_name LIKE 'cust1%' GROUP BY c_seg ORDER BY c_seg;
RESET rndn.enabled;

-- VERBOSE shows the HorseIR program; rndn_horseir() returns it without running the query
EXPLAIN (COSTS OFF, VERBOSE) SELECT count(*) FROM rp_orders WHERE o_total > 50;
SELECT rndn_horseir('SELECT o_cust, max(o_total) FROM rp_orders GROUP BY o_cust');
SELECT rndn_horseir('SELECT md5(o_note) FROM rp_orders');
-- ANALYZE adds the rows loaded (timings and byte counts are hidden in regression mode)
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM rp_orders WHERE o_total > 50;

-- what cannot be translated stays exactly as PostgreSQL planned it, and says why
SET rndn.explain_fallback = on;
EXPLAIN (COSTS OFF) SELECT md5(o_note) FROM rp_orders WHERE o_id < 3;
EXPLAIN (COSTS OFF) SELECT string_agg(o_note, ',') FROM rp_orders GROUP BY o_cust;
-- a subtree that can run goes to rndn under a node that cannot
EXPLAIN (COSTS OFF)
SELECT o_cust, string_agg(c_name, ',') FROM rp_orders JOIN rp_cust ON o_cust = c_id
WHERE o_total > 99 GROUP BY o_cust;
RESET rndn.explain_fallback;
-- rndn.enabled = off: PostgreSQL's plan
SET rndn.enabled = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rp_orders;
RESET rndn.enabled;

-- the plan survives the plan cache (custom_private is plain strings)
PREPARE rp_q AS SELECT o_cust, count(*) FROM rp_orders WHERE o_total < 10 GROUP BY o_cust ORDER BY o_cust LIMIT 2;
EXECUTE rp_q;
EXECUTE rp_q;
EXPLAIN (COSTS OFF) EXECUTE rp_q;
DEALLOCATE rp_q;

-- an index scan's order is reproduced (stable sort on the index keys)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT o_id, o_cust FROM rp_orders WHERE o_id BETWEEN 10 AND 14;
SELECT o_id, o_cust FROM rp_orders WHERE o_id BETWEEN 10 AND 14;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- the translator runs the HorseIR checker at plan time: a program it rejects (here one with an
-- ill-typed statement added by the hidden rndn.test_ill_typed_program) never becomes a Custom
-- Scan; the query keeps PostgreSQL's plan, EXPLAIN names the checker's message, and the result
-- is PostgreSQL's
SET rndn.explain_fallback = on;
SET rndn.force = on;
SET rndn.test_ill_typed_program = on;
EXPLAIN (COSTS OFF) SELECT o_cust, sum(o_total) FROM rp_orders WHERE o_id < 5 GROUP BY o_cust ORDER BY o_cust;
SELECT o_cust, sum(o_total) FROM rp_orders WHERE o_id < 5 GROUP BY o_cust ORDER BY o_cust;
RESET rndn.test_ill_typed_program;
RESET rndn.force;
EXPLAIN (COSTS OFF) SELECT o_cust, sum(o_total) FROM rp_orders WHERE o_id < 5 GROUP BY o_cust ORDER BY o_cust;
SELECT o_cust, sum(o_total) FROM rp_orders WHERE o_id < 5 GROUP BY o_cust ORDER BY o_cust;
RESET rndn.explain_fallback;

-- the settings
SELECT name, setting, unit FROM pg_settings WHERE name LIKE 'rndn.%' ORDER BY name;
RESET rndn.regression_mode;
