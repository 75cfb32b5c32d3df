-- rndn executor: results with rndn on equal PostgreSQL's own (rndn.enabled = off), row by row
-- and in order; rndn_diff(q) runs q both ways and says 'same' or 'DIFFERENT' (or compares
-- the errors), and names the plan's root node so the offload is visible too.
SET client_min_messages = warning;
CREATE OR REPLACE FUNCTION rndn_diff(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    on_rows text[] := '{}';
    off_rows text[] := '{}';
    on_err text;
    off_err text;
    r record;
    root text;
BEGIN
    PERFORM set_config('rndn.enabled', 'on', true);
    FOR r IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        root := r."QUERY PLAN";
        EXIT;
    END LOOP;
    BEGIN
        FOR r IN EXECUTE q LOOP on_rows := on_rows || r::text; END LOOP;
    EXCEPTION WHEN others THEN on_err := SQLSTATE || ': ' || SQLERRM;
    END;
    PERFORM set_config('rndn.enabled', 'off', true);
    BEGIN
        FOR r IN EXECUTE q LOOP off_rows := off_rows || r::text; END LOOP;
    EXCEPTION WHEN others THEN off_err := SQLSTATE || ': ' || SQLERRM;
    END;
    PERFORM set_config('rndn.enabled', 'on', true);
    IF on_err IS NOT NULL OR off_err IS NOT NULL THEN
        RETURN CASE WHEN on_err IS NOT DISTINCT FROM off_err THEN 'same error' ELSE 'DIFFERENT error' END
            || ' [' || coalesce(on_err, 'none') || ' | ' || coalesce(off_err, 'none') || '] root: ' || root;
    END IF;
    RETURN CASE WHEN on_rows = off_rows THEN 'same' ELSE 'DIFFERENT' END
        || ' (' || cardinality(on_rows) || ' rows) root: ' || root;
END $$;
RESET client_min_messages;

CREATE TABLE rx_t (id int, i2 smallint, i8 bigint, f float8, n numeric(12,3), d date, s text, c char(4), v varchar(10), b bool);
INSERT INTO rx_t VALUES
 (1, 1, 10, 1.5, 1.250, '2020-01-01', 'apple', 'ab', 'x', true),
 (2, NULL, 20, -2.25, NULL, '2021-06-30', 'Äpfel', 'ä', NULL, false),
 (3, 3, NULL, NULL, -3.125, NULL, NULL, NULL, 'zz', NULL),
 (4, 4, 40, 0, 0.000, '1999-12-31', 'banana', 'b  ', 'y', true),
 (5, 5, 50, 1e10, 123456789.999, '2000-02-29', 'ñandú', 'ñx', 'ñ', false),
 (NULL, 6, 60, 3, 2.5, '2024-02-29', '', '', '', true);
CREATE TABLE rx_e (a int, n numeric(10,2));
CREATE TABLE rx_u (id int, w text);
INSERT INTO rx_u VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (7, 'seven'), (NULL, 'null');
SELECT rndn_diff($$SELECT * FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT id, i2 + 1, i8 * 2, f / 2, n * 2, n + 1, d + 1, d - 1, d - '2000-01-01'::date FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT sum(id), sum(i2), sum(i8), sum(f), sum(n), avg(id), avg(i8), avg(n), avg(f), min(n), max(n), min(i8), max(f), count(*), count(n), count(distinct b) FROM rx_t$$);
SELECT rndn_diff($$SELECT sum(a), sum(n), avg(n), min(n), max(a), count(*), count(a) FROM rx_e$$);
SELECT rndn_diff($$SELECT a, sum(n) FROM rx_e GROUP BY a$$);
SELECT rndn_diff($$SELECT b, count(*), sum(n), avg(i2) FROM rx_t GROUP BY b ORDER BY b$$);
SELECT rndn_diff($$SELECT b, count(*), sum(n), avg(i2) FROM rx_t GROUP BY b ORDER BY b DESC NULLS LAST$$);
SELECT rndn_diff($$SELECT s FROM rx_t ORDER BY s$$);
SELECT rndn_diff($$SELECT s FROM rx_t ORDER BY s DESC$$);
SELECT rndn_diff($$SELECT c, c = 'b', c < 'b' FROM rx_t ORDER BY c, id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE s LIKE '%a%' ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE s LIKE '_pfel' ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE s NOT LIKE 'ñ%' ORDER BY id$$);
SELECT rndn_diff($$SELECT id, substring(s from 2 for 3) FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT id, extract(year from d) FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT id, CASE WHEN n > 1 THEN n WHEN n < 0 THEN -n ELSE 0 END, coalesce(i2, i8::int, -1) FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE id IN (1, 3, 5) OR i2 NOT IN (4, 6) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE n BETWEEN 0 AND 10 ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE b AND NOT (f > 1) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE b IS NULL OR n IS NOT NULL ORDER BY id$$);
SELECT rndn_diff($$SELECT id / 0 FROM rx_t$$);
SELECT rndn_diff($$SELECT n / 0 FROM rx_t$$);
SELECT rndn_diff($$SELECT 2147483647 + id FROM rx_t$$);
SELECT rndn_diff($$SELECT sum(i8 * 922337203685477580) FROM rx_t$$);
SELECT rndn_diff($$SELECT id FROM rx_t ORDER BY id LIMIT 2 OFFSET 1$$);
SELECT rndn_diff($$SELECT DISTINCT b FROM rx_t ORDER BY b$$);
SELECT rndn_diff($$SELECT t.id, u.w FROM rx_t t JOIN rx_u u ON t.id = u.id ORDER BY 1, 2$$);
SELECT rndn_diff($$SELECT t.id, u.w FROM rx_t t LEFT JOIN rx_u u ON t.id = u.id ORDER BY 1, 2$$);
SELECT rndn_diff($$SELECT t.id, u.w FROM rx_t t RIGHT JOIN rx_u u ON t.id = u.id ORDER BY 1, 2$$);
SELECT rndn_diff($$SELECT t.id, u.w FROM rx_t t FULL JOIN rx_u u ON t.id = u.id ORDER BY 1, 2$$);
SELECT rndn_diff($$SELECT id FROM rx_t t WHERE EXISTS (SELECT 1 FROM rx_u u WHERE u.id = t.id) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t t WHERE NOT EXISTS (SELECT 1 FROM rx_u u WHERE u.id = t.id) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE id NOT IN (SELECT id FROM rx_u u) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE id IN (SELECT id FROM rx_u u WHERE id IS NOT NULL) ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE id NOT IN (SELECT id FROM rx_u u WHERE id IS NOT NULL) ORDER BY id$$);
SELECT rndn_diff($$SELECT id, (SELECT max(length(w)) FROM rx_u u WHERE u.id = t.id) FROM rx_t t ORDER BY id$$);
SELECT rndn_diff($$SELECT id FROM rx_t WHERE n > (SELECT avg(n) FROM rx_t) ORDER BY id$$);
SELECT rndn_diff($$SELECT c, v, s FROM rx_t ORDER BY id$$);
SELECT rndn_diff($$SELECT nullif(i2, 3) FROM rx_t$$);
SELECT rndn_diff($$SELECT f::numeric FROM rx_t$$);

-- the values themselves (checked above to equal PostgreSQL's)
SELECT b, count(*), sum(n), avg(n), avg(i2), min(d), max(f) FROM rx_t GROUP BY b ORDER BY b;
SELECT id, c, v, s, n * 2 AS n2, d + 1 AS d1 FROM rx_t ORDER BY id;
SELECT sum(n), avg(n), count(*) FROM rx_e;

-- many small chunks in the loader
SET rndn.chunk_rows = 2;
SELECT rndn_diff($$SELECT b, sum(n), count(*) FROM rx_t GROUP BY b ORDER BY b$$);
RESET rndn.chunk_rows;

-- a bigger table, grouped, joined and sorted
CREATE TABLE rx_big AS
    SELECT g AS k, (g % 97)::int AS grp, ((g % 13)::numeric / 4)::numeric(10,2) AS amount,
           CASE WHEN g % 11 = 0 THEN NULL ELSE 'name' || (g % 50) END AS name,
           DATE '2000-01-01' + (g % 3000) AS day
    FROM generate_series(1, 20000) g;
SELECT rndn_diff($$SELECT grp, count(*), sum(amount), avg(amount), count(day), count(name) FROM rx_big GROUP BY grp ORDER BY grp$$);
SELECT rndn_diff($$SELECT name, count(*), sum(amount) FROM rx_big WHERE day >= DATE '2003-01-01' GROUP BY name ORDER BY 3 DESC, 1 LIMIT 10$$);
SELECT rndn_diff($$SELECT a.grp, count(*) FROM rx_big a JOIN rx_big b ON a.k = b.k + 1 AND a.grp <> b.grp WHERE a.amount > 1 GROUP BY a.grp ORDER BY a.grp$$);
SELECT rndn_diff($$SELECT k, amount FROM rx_big WHERE amount > (SELECT avg(amount) FROM rx_big) AND name LIKE '%7%' ORDER BY amount DESC, k LIMIT 5$$);
SELECT rndn_diff($$SELECT extract(year from day) AS y, sum(amount) FROM rx_big GROUP BY 1 ORDER BY 1$$);

-- an empty relation and a filter that keeps nothing
SELECT rndn_diff($$SELECT count(*), sum(amount), max(k) FROM rx_big WHERE k < 0$$);
SELECT rndn_diff($$SELECT grp, sum(amount) FROM rx_big WHERE k < 0 GROUP BY grp$$);

-- prepared statements: custom plans embed the parameter values; generic plans keep Params
PREPARE rx_p(int) AS SELECT grp, count(*) FROM rx_big WHERE grp < $1 GROUP BY grp ORDER BY grp;
EXECUTE rx_p(3);
SET plan_cache_mode = force_generic_plan;
EXECUTE rx_p(3);
RESET plan_cache_mode;
DEALLOCATE rx_p;

-- a scrollable cursor over a rndn scan
BEGIN;
DECLARE rx_c SCROLL CURSOR FOR SELECT grp, count(*) FROM rx_big GROUP BY grp ORDER BY grp;
FETCH 2 FROM rx_c;
FETCH BACKWARD 1 FROM rx_c;
FETCH LAST FROM rx_c;
FETCH PRIOR FROM rx_c;
COMMIT;

-- text with non-ASCII characters: substring counts characters, the interpreter bytes, so
-- rndn runs PostgreSQL's own plan (shown under ANALYZE) and the answer stays right
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT id, substring(s from 1 for 2) FROM rx_t ORDER BY id;
SELECT id, substring(s from 1 for 2) FROM rx_t ORDER BY id;

-- a compiling device (cpu) names in EXPLAIN the builtins it leaves on the interpreter (those
-- without a kernel form yet); the interpreter device names none
SET rndn.device = cpu;
EXPLAIN (COSTS OFF) SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id;
SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id;
RESET rndn.device;
EXPLAIN (COSTS OFF) SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id;
-- rndn.device = auto: the cpu device for programs that read at least rndn.auto_cpu_rows rows
-- (the rows loaded; EXPLAIN without ANALYZE: the relations' row estimates, 0 for rx_t, never
-- analyzed), the interpreter below; EXPLAIN ANALYZE names the device that ran the program
CREATE FUNCTION rx_device(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    FOR r IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF r."QUERY PLAN" LIKE '%Device:%' THEN RETURN trim(r."QUERY PLAN"); END IF;
    END LOOP;
    RETURN 'no Device line';
END $$;
SET rndn.auto_cpu_rows = 6;  -- rx_t's rows
SELECT rx_device($$SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id$$);
SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id;
SET rndn.auto_cpu_rows = 7;
SELECT rx_device($$SELECT id, upper(s) FROM rx_t WHERE id < 5 ORDER BY id$$);
SET rndn.auto_cpu_rows = 1;
EXPLAIN (COSTS OFF) SELECT id FROM rx_t WHERE id < 5 ORDER BY id;
SET rndn.auto_cpu_rows = 0;
EXPLAIN (COSTS OFF) SELECT id FROM rx_t WHERE id < 5 ORDER BY id;
RESET rndn.auto_cpu_rows;
-- auto also picks the cpu device for a GROUP BY that PostgreSQL's plan estimates at 10,000
-- groups or more (the interpreter builds a vector per group), whatever the rows read; a few
-- groups stay on the interpreter.  The answers are PostgreSQL's either way.
CREATE TABLE rx_groups (k int, v int) WITH (autovacuum_enabled = off);
INSERT INTO rx_groups SELECT g, g % 7 FROM generate_series(1, 30000) g;
VACUUM (FREEZE, ANALYZE) rx_groups;
SELECT rx_device($$SELECT k, count(*), sum(v) FROM rx_groups GROUP BY k$$);
SELECT rx_device($$SELECT v, count(*), sum(k) FROM rx_groups GROUP BY v$$);
SELECT count(*), sum(c), sum(s), min(k), max(k) FROM (SELECT k, count(*) AS c, sum(v) AS s FROM rx_groups GROUP BY k) g;
SET rndn.enabled = off;
SELECT count(*), sum(c), sum(s), min(k), max(k) FROM (SELECT k, count(*) AS c, sum(v) AS s FROM rx_groups GROUP BY k) g;
RESET rndn.enabled;
DROP TABLE rx_groups;
DROP FUNCTION rx_device(text);
