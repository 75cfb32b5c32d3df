-- The parallel loader: worker threads (rndn.loader_threads) deform the visible tuples of the
-- pages the backend read (copies taken under each page's lock); values they cannot read without
-- PostgreSQL (toasted or compressed text, attributes added after a row was written) are
-- deformed by the backend.  Every answer
-- must be PostgreSQL's: lo_check(q) runs q with rndn on and off and reports whether the rows
-- agree and whether Custom Scan (rndn) really ran it (no fallback).  The cache is off, so every
-- query loads.
SET rndn.regression_mode = on;
SET rndn.column_cache = 0;
CREATE TABLE lo (i2 smallint, i4 int, i8 bigint, f4 real, f8 float8, b bool, d date,
                 n numeric(12,2), t text, v varchar(20), c char(6)) WITH (autovacuum_enabled = off);
INSERT INTO lo
SELECT (g % 300)::smallint, CASE WHEN g % 17 = 0 THEN NULL ELSE g END, g::bigint * 100003,
       (g % 1000) / 8.0, g / 7.0, g % 3 = 0, DATE '2000-01-01' + g % 5000,
       CASE WHEN g % 13 = 0 THEN NULL ELSE (g % 100000) * 1.25 END,
       CASE WHEN g % 11 = 0 THEN NULL ELSE 'row' || g END, 'v' || (g % 97), 'c' || (g % 9)
FROM generate_series(1, 40000) g;
CREATE FUNCTION lo_check(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    ran text := 'no rndn scan';
    on_rows text[] := '{}';
    off_rows text[] := '{}';
BEGIN
    PERFORM set_config('rndn.enabled', 'on', true);
    FOR r IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF r."QUERY PLAN" LIKE '%Custom Scan (rndn)%' AND ran = 'no rndn scan' THEN ran := 'rndn'; END IF;
        IF r."QUERY PLAN" LIKE '%Fallback%' THEN ran := 'FELL BACK'; END IF;
        IF r."QUERY PLAN" LIKE '%Rows Loaded%' AND ran = 'rndn' THEN ran := 'rndn, ' || trim(r."QUERY PLAN"); END IF;
    END LOOP;
    FOR r IN EXECUTE q LOOP on_rows := on_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'off', true);
    FOR r IN EXECUTE q LOOP off_rows := off_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'on', true);
    RETURN CASE WHEN on_rows = off_rows THEN 'same' ELSE 'DIFFERENT' END || '; ' || ran;
END $$;

-- every column type, NULLs in fixed-width and string columns, many batches, 1 to 16 workers
SET rndn.loader_threads = 1;
SELECT lo_check($$SELECT sum(i2), sum(i4), count(i4), sum(i8), sum(f8), min(d), max(d), sum(n), count(n),
                         count(t), max(t), min(v) FROM lo$$);
SELECT lo_check($$SELECT b, count(*), min(f4), max(f4), min(i2) FROM lo GROUP BY b ORDER BY b$$);
SELECT lo_check($$SELECT i4, n, t, c FROM lo WHERE i8 % 9973 = 1 ORDER BY i8$$);
SET rndn.loader_threads = 2;
SELECT lo_check($$SELECT sum(i2), sum(i4), count(i4), sum(i8), sum(f8), min(d), max(d), sum(n), count(n),
                         count(t), max(t), min(v) FROM lo$$);
SELECT lo_check($$SELECT b, count(*), min(f4), max(f4), min(i2) FROM lo GROUP BY b ORDER BY b$$);
SELECT lo_check($$SELECT i4, n, t, c FROM lo WHERE i8 % 9973 = 1 ORDER BY i8$$);
SET rndn.loader_threads = 3;
SELECT lo_check($$SELECT d, count(*), sum(n), count(t), min(t) FROM lo GROUP BY d ORDER BY d LIMIT 5$$);
SET rndn.loader_threads = 16;
SELECT lo_check($$SELECT v, count(*), sum(i4), sum(n), max(t) FROM lo GROUP BY v ORDER BY v$$);
-- the smallest batches (rndn.chunk_rows bounds a batch's rows)
SET rndn.chunk_rows = 1;
SELECT lo_check($$SELECT c, count(*), sum(i8), count(n) FROM lo GROUP BY c ORDER BY c$$);
RESET rndn.chunk_rows;
-- an index-order scan of the columns (row order of the heap kept)
SELECT lo_check($$SELECT i4, t FROM lo ORDER BY i8 DESC LIMIT 7$$);

-- compressed (inline) and external (TOAST table) strings: the backend deforms those ranges
INSERT INTO lo (i4, t, v)
SELECT 100000 + g, CASE WHEN g % 2 = 0 THEN repeat('compressible ', 400) || g
                        ELSE (SELECT string_agg(md5((g * 1000 + k)::text), '') FROM generate_series(1, 120) k) END,
       'toast'
FROM generate_series(1, 40) g;
SELECT count(*) FROM lo WHERE pg_column_compression(t) IS NOT NULL OR length(t) > 2000;
SET rndn.loader_threads = 2;
SELECT lo_check($$SELECT count(*), max(t), min(t) FROM lo WHERE v = 'toast'$$);
SELECT lo_check($$SELECT i4, t FROM lo WHERE i4 > 100000 ORDER BY i4$$);
SELECT lo_check($$SELECT v, count(*), max(t), min(t), count(t) FROM lo GROUP BY v ORDER BY v$$);

-- a column added with a default after rows were written: old tuples lack the attribute
ALTER TABLE lo ADD COLUMN extra int DEFAULT 42;
ALTER TABLE lo ADD COLUMN extra_null int;
INSERT INTO lo (i4, extra, extra_null) VALUES (-1, 7, 8), (-2, NULL, 9);
SELECT lo_check($$SELECT extra, count(*), count(extra_null), sum(extra_null), sum(i4) FROM lo GROUP BY extra ORDER BY extra$$);
SET rndn.loader_threads = 1;
SELECT lo_check($$SELECT extra, count(*), count(extra_null), sum(extra_null), sum(i4) FROM lo GROUP BY extra ORDER BY extra$$);

-- deleted and updated rows (not all-visible pages: visibility decided per tuple by the backend)
DELETE FROM lo WHERE i4 % 5 = 0;
UPDATE lo SET n = n + 1 WHERE i4 % 7 = 0;
SET rndn.loader_threads = 2;
SELECT lo_check($$SELECT count(*), sum(i4), sum(n), count(t) FROM lo$$);
RESET rndn.loader_threads;
SELECT lo_check($$SELECT count(*), sum(i4), sum(n), count(t) FROM lo$$);

-- A load holds one buffer pin at a time (a batch keeps copies of its pages), so it reads through
-- its ring of 32 buffers as PostgreSQL's large sequential scans do and claims no more of
-- shared_buffers than that ring; holding whole batches pinned made every page read past the
-- ring claim a fresh buffer, evicting other relations.  CREATE TABLE AS writes through a 16 MB
-- ring of its own, so most of lo_wide's pages are not in shared_buffers when the load starts.
CREATE EXTENSION pg_buffercache;
CREATE TABLE lo_wide WITH (autovacuum_enabled = off) AS
SELECT g AS k, repeat('w', 1000) AS pad FROM generate_series(1, 42000) g;
CREATE FUNCTION lo_resident() RETURNS bigint LANGUAGE sql AS $$
    SELECT count(*) FROM pg_buffercache
    WHERE relfilenode = pg_relation_filenode('lo_wide') AND relforknumber = 0 $$;
CREATE FUNCTION lo_ran(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    ran text := 'no rndn scan';
BEGIN
    FOR r IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF r."QUERY PLAN" LIKE '%Custom Scan (rndn)%' AND ran = 'no rndn scan' THEN ran := 'rndn'; END IF;
        IF r."QUERY PLAN" LIKE '%Fallback%' THEN ran := 'FELL BACK'; END IF;
    END LOOP;
    RETURN ran;
END $$;
SELECT pg_relation_size('lo_wide') / 8192 AS wide_pages, lo_resident() AS wide_resident \gset
SELECT :wide_pages > 5000 AS wide, :wide_resident < :wide_pages - 2000 AS most_pages_not_resident;
SELECT lo_ran($$SELECT count(*), sum(k) FROM lo_wide$$);
SELECT lo_resident() - :wide_resident AS claimed \gset
SELECT :claimed <= 64 AS load_stayed_in_its_ring, CASE WHEN :claimed > 64 THEN :claimed END AS buffers_claimed;
SELECT lo_check($$SELECT count(*), sum(k), max(length(pad)), min(pad) = max(pad) FROM lo_wide$$);
DROP FUNCTION lo_ran(text);
DROP FUNCTION lo_resident();
DROP TABLE lo_wide;
DROP EXTENSION pg_buffercache;

-- The tuple walk: a worker reads a tuple without NULLs through a plan made once per scan (the
-- needed attributes among the leading fixed-width ones at constant offsets, then offset by
-- offset from the first variable-width one, fetching only the needed attributes); tuples with
-- NULLs go the general way.  Padding before 2-, 4- and 8-byte values after strings of every
-- length (1-byte varlena headers up to 126 bytes, 4-byte aligned ones above), a dropped
-- attribute in the middle, wide numerics, rows with and without NULLs in the same ranges.
CREATE TABLE lw (a int2, b int8, s1 text, c int4, d float8, s2 varchar(400), e timestamp,
                 f interval, g numeric(30,4), h bool, dropme text, i numeric(10,3), j date,
                 k float4, l char(3), m int2, o int8) WITH (autovacuum_enabled = off);
INSERT INTO lw
SELECT g % 7, g::bigint * 1000003, 'x' || g, g % 1000, g / 3.0, repeat(chr(97 + g % 26), g % 300),
       TIMESTAMP '2001-02-03 04:05:06' + g * INTERVAL '17 minutes', (g % 50) * INTERVAL '1 day 3 hours',
       (g * 12345.6789)::numeric(30,4), g % 2 = 0, repeat('d', g % 200), (g % 9999) / 7.0,
       DATE '1999-12-31' + g % 777, g / 8.0, 'l' || (g % 10), (g % 300)::int2, -g
FROM generate_series(1, 20000) g;
ALTER TABLE lw DROP COLUMN dropme;
-- every tenth row has one NULL somewhere
UPDATE lw SET m = NULL WHERE b % 10 = 3;
UPDATE lw SET s2 = NULL WHERE b % 10 = 7;
VACUUM (FREEZE) lw;
SET rndn.loader_threads = 2;
SELECT lo_check($$SELECT sum(a), sum(b), max(s1), sum(c), sum(d), max(s2), min(length(s2)), max(length(s2)),
                         max(e), sum(g), count(h), sum(i), max(j), sum(k), count(l), sum(m), count(m), sum(o) FROM lw$$);
-- only attributes after the variable-width ones, and only leading fixed-width ones
SELECT lo_check($$SELECT sum(o), sum(m), max(j) FROM lw$$);
SELECT lo_check($$SELECT sum(a), sum(b) FROM lw$$);
SELECT lo_check($$SELECT h, count(*), sum(g), max(f), min(e), sum(i) FROM lw GROUP BY h ORDER BY h$$);
SELECT lo_check($$SELECT b, s1, s2, e, f, g, i, j, k, l FROM lw WHERE b % 997 = 0 ORDER BY b$$);
SET rndn.loader_threads = 1;
SELECT lo_check($$SELECT l, count(*), sum(o), max(s2), sum(g) FROM lw GROUP BY l ORDER BY l$$);
RESET rndn.loader_threads;
DROP TABLE lw;

DROP TABLE lo;
DROP FUNCTION lo_check(text);
