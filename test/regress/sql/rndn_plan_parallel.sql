-- Loading rndn never changes PostgreSQL's plan of a query rndn does not run, parallel plans
-- (Gather and its workers) included; without rndn.force, rndn takes a subtree only when its
-- plan is expected to be faster (a selective index scan or a LIMIT over an index stays).
SET rndn.force = off;
-- no background loads (rndn.background_load, test/shared_cache): plans here must not change
-- while a worker publishes columns
SET rndn.background_load = off;
SET rndn.regression_mode = on;
CREATE TABLE par_t AS SELECT i, i % 97 AS g, md5(i::text) AS t FROM generate_series(1, 100000) i;
CREATE INDEX par_t_i ON par_t (i);
ANALYZE par_t;
-- make PostgreSQL choose parallel plans
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;

CREATE FUNCTION plan_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text; res text := '';
BEGIN
    FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP res := res || r || E'\n'; END LOOP;
    RETURN res;
END $$;
-- the plan with rndn.enabled off and on (in one transaction; the setting is restored after)
CREATE FUNCTION plans(q text, OUT plan_off text, OUT plan_on text) LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('rndn.enabled', 'off', true);
    plan_off := plan_of(q);
    PERFORM set_config('rndn.enabled', 'on', true);
    plan_on := plan_of(q);
END $$;

-- A query rndn cannot run (md5 is not among its functions): the same parallel plan.
SET rndn.enabled = off;
EXPLAIN (COSTS OFF) SELECT g, count(*) FROM par_t WHERE md5(t) < '8' GROUP BY g;
SET rndn.enabled = on;
EXPLAIN (COSTS OFF) SELECT g, count(*) FROM par_t WHERE md5(t) < '8' GROUP BY g;

CREATE TABLE par_cases (name text, q text);
INSERT INTO par_cases VALUES
    ('md5 filter, grouped', 'SELECT g, count(*) FROM par_t WHERE md5(t) < ''8'' GROUP BY g'),
    ('md5 in the output', 'SELECT md5(t) FROM par_t WHERE i % 1000 = 0'),
    ('md5 under a join', 'SELECT count(*) FROM par_t a JOIN par_t b ON a.i = b.g WHERE md5(a.t) > md5(b.t)'),
    ('selective index scan', 'SELECT * FROM par_t WHERE i = 4242'),
    ('LIMIT 1 over an index', 'SELECT i FROM par_t ORDER BY i LIMIT 1');
-- every plan is the same with rndn on and off; the first three are parallel plans
SELECT name, plan_off = plan_on AS same_plan, plan_on LIKE '%Gather%' AS parallel,
       plan_on LIKE '%Custom Scan%' AS rndn
FROM par_cases, LATERAL plans(q) ORDER BY name;

-- rndn can run the last two, but PostgreSQL's plans are cheaper: rndn.force makes it take them
SET rndn.force = on;
SELECT name, plan_of(q) LIKE '%Custom Scan (rndn)%' AS rndn_when_forced
FROM par_cases WHERE name IN ('selective index scan', 'LIMIT 1 over an index') ORDER BY name;
SET rndn.force = off;

-- rndn takes a query whose plan it expects to be faster: the whole table aggregated, serial
-- plan instead of PostgreSQL's parallel one (rndn runs in the backend).  Same answer.
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
EXPLAIN (COSTS OFF) SELECT g, count(*), sum(i), min(i), max(i), avg(i) FROM par_t GROUP BY g ORDER BY g LIMIT 3;
SELECT g, count(*), sum(i), min(i), max(i), avg(i) FROM par_t GROUP BY g ORDER BY g LIMIT 3;
SET rndn.enabled = off;
SELECT g, count(*), sum(i), min(i), max(i), avg(i) FROM par_t GROUP BY g ORDER BY g LIMIT 3;
RESET rndn.enabled;
-- with low parallel costs PostgreSQL's parallel plan is cheaper: it stays, untouched
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 8;
SELECT plan_off = plan_on AS same_plan, plan_on LIKE '%Gather%' AS parallel
FROM plans('SELECT g, count(*), sum(i) FROM par_t GROUP BY g');
-- forced, rndn takes the serial plan: no Gather below it
SET rndn.force = on;
EXPLAIN (COSTS OFF) SELECT g, count(*), sum(i) FROM par_t GROUP BY g;
RESET rndn.force;
RESET max_parallel_workers_per_gather;
DROP TABLE par_t, par_cases;
DROP FUNCTION plans(text), plan_of(text);
