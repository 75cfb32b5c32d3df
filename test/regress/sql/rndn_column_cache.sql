-- The column cache: a backend keeps the columns it loaded from a relation whose pages were all
-- all-visible, and reuses them only while every page is still all-visible with the same LSN.
-- Every answer below must be PostgreSQL's; cc_check(q) runs q with rndn on and off and
-- reports whether the rows agree and whether rndn served the relation from the cache.
SET rndn.regression_mode = on;
-- (the cluster commits asynchronously; VACUUM marks pages all-visible only once the inserting
-- transaction's commit is flushed)
SET synchronous_commit = on;
CREATE TABLE cc (a int, s text, n numeric(10,2)) WITH (autovacuum_enabled = off);
INSERT INTO cc SELECT g, 'row' || g, g * 1.5 FROM generate_series(1, 5000) g;
VACUUM cc;
CREATE FUNCTION cc_check(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    cache text := 'no rndn scan';
    on_rows text[] := '{}';
    off_rows text[] := '{}';
BEGIN
    PERFORM set_config('rndn.enabled', 'on', true);
    FOR r IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF r."QUERY PLAN" LIKE '%Column Cache%' THEN cache := trim(r."QUERY PLAN"); END IF;
    END LOOP;
    FOR r IN EXECUTE q LOOP on_rows := on_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'off', true);
    FOR r IN EXECUTE q LOOP off_rows := off_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'on', true);
    RETURN CASE WHEN on_rows = off_rows THEN 'same' ELSE 'DIFFERENT' END || '; ' || cache;
END $$;

-- first load caches; the second query is served from the cache (the EXPLAIN ANALYZE inside
-- cc_check runs the query too, so each call shows the state after the previous one)
SELECT cc_check($$SELECT sum(a), count(*), count(s), sum(n) FROM cc$$);
SELECT cc_check($$SELECT sum(a), count(*), count(s), sum(n) FROM cc$$);
SELECT sum(a), count(*), count(s), sum(n) FROM cc;
-- another set of columns of the same relation, all already in the cache
SELECT cc_check($$SELECT a, s FROM cc WHERE a % 1000 = 0 ORDER BY a$$);

-- an update changes a page: never a stale answer
UPDATE cc SET a = a + 1000000 WHERE a = 7;
SELECT cc_check($$SELECT sum(a), count(*), max(a) FROM cc$$);
SELECT sum(a), count(*), max(a) FROM cc;
-- after VACUUM the pages are all-visible again: loaded once more, then cached
VACUUM cc;
SELECT cc_check($$SELECT sum(a), count(*), max(a) FROM cc$$);
SELECT cc_check($$SELECT sum(a), count(*), max(a) FROM cc$$);

-- the transaction's own uncommitted delete is visible to it; after ROLLBACK the rows are back
BEGIN;
DELETE FROM cc WHERE a <= 100;
SELECT cc_check($$SELECT sum(a), count(*), min(a) FROM cc$$);
SELECT sum(a), count(*), min(a) FROM cc;
ROLLBACK;
SELECT cc_check($$SELECT sum(a), count(*), min(a) FROM cc$$);
SELECT sum(a), count(*), min(a) FROM cc;

-- inserted rows, a truncated table, a refilled one
INSERT INTO cc VALUES (-1, 'new', 0.5);
SELECT cc_check($$SELECT count(*), min(a), sum(n) FROM cc$$);
SELECT a, s, n FROM cc WHERE a < 3 ORDER BY a;
TRUNCATE cc;
SELECT cc_check($$SELECT count(*), sum(a) FROM cc$$);
INSERT INTO cc SELECT g, 'again' || g, g FROM generate_series(1, 300) g;
VACUUM cc;
SELECT cc_check($$SELECT count(*), sum(a), count(s) FROM cc$$);
SELECT cc_check($$SELECT count(*), sum(a), count(s) FROM cc$$);
SELECT count(*), sum(a), count(s) FROM cc;

-- rndn.column_cache = 0 turns the cache off (and empties it)
SET rndn.column_cache = 0;
SELECT cc_check($$SELECT count(*), sum(a), count(s) FROM cc$$);
SELECT cc_check($$SELECT count(*), sum(a), count(s) FROM cc$$);
RESET rndn.column_cache;

-- under SERIALIZABLE the cache is not used
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT cc_check($$SELECT count(*), sum(a), count(s) FROM cc$$);
COMMIT;
DROP TABLE cc;
DROP FUNCTION cc_check(text);
