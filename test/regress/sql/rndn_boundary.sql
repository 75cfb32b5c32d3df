-- The PostgreSQL boundary: an ERROR that PostgreSQL raises inside rndn's C++ code (table_open
-- and a cancel during a heap page read while loading; rndn.test_error_site makes the guarded
-- call at that site raise it; a real failed catalog lookup while planning is
-- test/isolation/specs/rndn_dropped.spec) reaches the client as
-- PostgreSQL's own error, leaks no memory (malloc'd and PostgreSQL memory before and after),
-- and the session carries on.  Then: rndn.enabled = off reaches cached plans, and exceeding
-- rndn.memory_limit runs PostgreSQL's plan.
SET rndn.column_cache = 0;
SET rndn.regression_mode = on;
CREATE TABLE rb_t WITH (autovacuum_enabled = off) AS SELECT g AS a, g % 100 AS b, (g * 3)::bigint AS c FROM generate_series(1, 300000) g;
ANALYZE rb_t;
EXPLAIN (COSTS OFF) SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;

\set VERBOSITY default
SET rndn.test_error_site = load_open;
SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;
SET rndn.test_error_site = load_cancel;
SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;
-- a cancel while the backend waits for the loader's worker threads: they stop, the backend
-- releases its pins and reports the cancel
SET rndn.test_error_site = load_cancel_wait;
SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;
RESET rndn.test_error_site;
-- the session carries on
SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;

-- Each site 20 times (each error caught by PL/pgSQL, in a subtransaction; EXECUTE plans the
-- query every time): memory stays flat.  The loader has sized its column buffers (about 5 MB)
-- when the cancel arrives.
CREATE FUNCTION rb_fail(site text, n int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE msg text := 'no error';
BEGIN
    PERFORM set_config('rndn.test_error_site', site, true);
    FOR i IN 1..n LOOP
        BEGIN
            EXECUTE 'SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2';
        EXCEPTION WHEN others OR query_canceled THEN
            msg := SQLSTATE || ': ' || SQLERRM;
        END;
    END LOOP;
    PERFORM set_config('rndn.test_error_site', 'none', true);
    RETURN msg;
END $$;
SELECT rb_fail('none', 3);
SELECT rndn_heap_bytes() AS heap0, (SELECT sum(total_bytes) FROM pg_backend_memory_contexts) AS ctx0 \gset
SELECT rb_fail('load_open', 20);
SELECT rb_fail('load_cancel', 20);
SELECT rb_fail('load_cancel_wait', 20);
SELECT rb_fail('none', 1);
SELECT rndn_heap_bytes() - :heap0 < 2 * 1024 * 1024 AS malloc_flat,
       (SELECT sum(total_bytes) FROM pg_backend_memory_contexts) - :ctx0 < 1024 * 1024 AS contexts_flat;

-- rndn.enabled = off reaches a plan cached before it was set: PostgreSQL's plan kept beside the
-- program runs ("Fallback"), with the same answer.
SET plan_cache_mode = force_generic_plan;
PREPARE rb_q(int) AS SELECT b, count(*), sum(c) FROM rb_t WHERE a > $1 GROUP BY b ORDER BY b LIMIT 2;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE rb_q(10);
EXECUTE rb_q(10);
SET rndn.enabled = off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE rb_q(10);
EXECUTE rb_q(10);
RESET rndn.enabled;
DEALLOCATE rb_q;
-- the same for a PL/pgSQL function's cached plan (the executor says so at DEBUG1)
CREATE FUNCTION rb_sum(lim int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE r bigint;
BEGIN
    SELECT sum(c) INTO r FROM rb_t WHERE a > lim;
    RETURN r;
END $$;
SELECT rb_sum(10);
SET rndn.enabled = off;
SET client_min_messages = debug1;
SELECT rb_sum(10);
RESET client_min_messages;
RESET rndn.enabled;
RESET plan_cache_mode;

-- Exceeding rndn.memory_limit before any row was returned: PostgreSQL's plan answers.
SET rndn.memory_limit = '1MB';
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;
SELECT b, count(*), sum(c) FROM rb_t GROUP BY b ORDER BY b LIMIT 2;
RESET rndn.memory_limit;

DROP FUNCTION rb_fail(text, int), rb_sum(int);
DROP TABLE rb_t;
