-- Query parameters of generic plans (prepared statements, PL/pgSQL) are parameters of the
-- program's entry function, bound when the plan runs: no text substitution.  Every result is
-- compared with PostgreSQL's own (rndn.enabled = off) by same_on_off(), which runs the query with
-- rndn first (so a cached plan is made with rndn on) and then with rndn off.
CREATE TABLE pp (id int, n numeric(15,2), i8 bigint, f float8, t text, d date);
INSERT INTO pp SELECT i, (i % 100) / 4.0, i * 1000, i / 8.0, 'r' || (i % 7), DATE '2000-01-01' + i
    FROM generate_series(1, 2000) i;
INSERT INTO pp VALUES (NULL, NULL, NULL, NULL, NULL, NULL);
ANALYZE pp;
SET rndn.regression_mode = on;
SET plan_cache_mode = force_generic_plan;
CREATE FUNCTION same_on_off(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE a text; b text;
BEGIN
  PERFORM set_config('rndn.enabled', 'on', true);
  EXECUTE 'SELECT string_agg(x::text, '' '' ORDER BY x::text) FROM (' || q || ') x' INTO b;
  PERFORM set_config('rndn.enabled', 'off', true);
  EXECUTE 'SELECT string_agg(x::text, '' '' ORDER BY x::text) FROM (' || q || ') x' INTO a;
  PERFORM set_config('rndn.enabled', 'on', true);
  RETURN CASE WHEN a IS NOT DISTINCT FROM b THEN 'same: ' || coalesce(a, '<no rows>')
              ELSE 'DIFFERENT: rndn off ' || coalesce(a, '<no rows>') || ' / rndn on ' || coalesce(b, '<no rows>') END;
END $$;

-- a prepared statement: its generic plan is a Custom Scan whose program takes $1 and $2 as
-- parameters of main (EXPLAIN VERBOSE shows the program)
PREPARE p1(int, text) AS SELECT count(*), sum(n) FROM pp WHERE id < $1 AND t <> $2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE p1(10, 'r1');
EXECUTE p1(10, 'r1');
EXECUTE p1(1500, 'r3');
EXECUTE p1(NULL, 'r3');
EXECUTE p1(100, NULL);
SET rndn.enabled = off;
EXECUTE p1(10, 'r1');
EXECUTE p1(1500, 'r3');
EXECUTE p1(NULL, 'r3');
EXECUTE p1(100, NULL);
RESET rndn.enabled;

-- PL/pgSQL: variables are parameters of the generic plan; a numeric variable with a declared
-- scale is a dec128 parameter of that scale (a numeric without one stays with PostgreSQL)
CREATE FUNCTION pp_sum(lim numeric, tag text, day date, fl float8, big bigint)
RETURNS TABLE (c bigint, s numeric, mx numeric, fs float8, bs numeric) LANGUAGE plpgsql AS $$
DECLARE l numeric(15,2) := lim;
BEGIN
  RETURN QUERY SELECT count(*), sum(n), max(n * l), sum(f * fl), sum(i8 + big)
    FROM pp WHERE n < l AND t <> tag AND d >= day;
END $$;
CREATE FUNCTION pp_plan(lim numeric, tag text, day date, fl float8, big bigint) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l numeric(15,2) := lim; r text;
BEGIN
  FOR r IN EXPLAIN (COSTS OFF) SELECT count(*), sum(n), max(n * l), sum(f * fl), sum(i8 + big)
    FROM pp WHERE n < l AND t <> tag AND d >= day LOOP
    RETURN NEXT r;
  END LOOP;
END $$;
-- (EXPLAIN inside PL/pgSQL plans with the variables' values as constants)
SELECT * FROM pp_plan(10, 'r1', '2000-06-01', 0.5, 7);
-- the generic plan of the function's query (made at its first call): rndn's planner hook
-- reports every node it leaves to PostgreSQL at DEBUG1; here there is none
SET client_min_messages = debug1;
SELECT * FROM pp_sum(10, 'r1', '2000-06-01', 0.5, 7);
RESET client_min_messages;
SELECT same_on_off($q$SELECT * FROM pp_sum(10, 'r1', '2000-06-01', 0.5, 7)$q$);
SELECT same_on_off($q$SELECT * FROM pp_sum(3.5, 'r2', '2001-01-01', -2, -1000)$q$);
SELECT same_on_off($q$SELECT * FROM pp_sum(12.125, 'r2', '2001-01-01', 1e-3, 0)$q$);
SELECT same_on_off($q$SELECT * FROM pp_sum(NULL, 'r2', '2001-01-01', 1, 1)$q$);
SELECT same_on_off($q$SELECT * FROM pp_sum(30, NULL, NULL, NULL, NULL)$q$);
SELECT same_on_off($q$SELECT * FROM pp_sum(100, 'r0', '1999-01-01', 3, 9000000000000000)$q$);

-- Numeric parameters without a declared scale (README "Query parameters").  same_exec() runs a
-- statement (EXECUTE of a prepared statement) under EXPLAIN ANALYZE to tell who answered (rndn,
-- or PostgreSQL's plan kept in the node at run time, or PostgreSQL's plan), then with rndn on
-- and off, and compares the rows as text (display scales included).
CREATE FUNCTION same_exec(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := ''; r record; a text := ''; b text := ''; how text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  how := CASE WHEN plan NOT LIKE 'Custom Scan (rndn)%' THEN 'PostgreSQL''s plan'
              WHEN plan LIKE '%Fallback: PostgreSQL plan%' THEN 'rndn planned, PostgreSQL''s plan ran'
              ELSE 'rndn ran' END;
  FOR r IN EXECUTE q LOOP b := b || r::text || ' '; END LOOP;
  PERFORM set_config('rndn.enabled', 'off', true);
  FOR r IN EXECUTE q LOOP a := a || r::text || ' '; END LOOP;
  PERFORM set_config('rndn.enabled', 'on', true);
  RETURN how || CASE WHEN a = b THEN ', same: ' || b ELSE ', DIFFERENT: rndn off ' || a || '/ rndn on ' || b END;
END $$;

-- Only compared (TPC-H Q6's shape): the parameter is dec128<12> and bound by value, so a value
-- of any display scale binds when its digits beyond 12 are zeros and it fits; the sum's scale
-- comes from n alone.
PREPARE pq6(numeric, numeric) AS
  SELECT count(*), sum(n * 2) FROM pp WHERE n BETWEEN $1 - 0.5 AND $1 + 0.5 AND id < $2 AND -$1 < n + 100;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE pq6(10, 1000);
SELECT same_exec('EXECUTE pq6(10, 1000)');
SELECT same_exec('EXECUTE pq6(10.25, 1500.00)');
SELECT same_exec('EXECUTE pq6(10.25001, 1500)');
SELECT same_exec('EXECUTE pq6(10.25000000000000000000, 1500.0000000000000000000000)');
SELECT same_exec('EXECUTE pq6(-20.5, 1e3)');
SELECT same_exec('EXECUTE pq6(1e25, 1500)');
SELECT same_exec('EXECUTE pq6(NULL, 1500)');
-- no exact dec128<12> form: PostgreSQL's plan at run time, same answers
SELECT same_exec('EXECUTE pq6(10.00000000000000000001, 1500)');
SELECT same_exec('EXECUTE pq6(1e30, 1500)');
SELECT same_exec('EXECUTE pq6(''NaN'', 1500)');
SELECT same_exec('EXECUTE pq6(''Infinity'', 1500)');
SELECT same_exec('EXECUTE pq6(10, ''-Infinity'')');
-- the generic plan is the same one throughout, and runs again after the fallbacks
SELECT same_exec('EXECUTE pq6(10, 1000)');

-- Its display scale shows (the target list, an aggregate): the program takes it at the scale of
-- what it is combined with (n: 2) and binds only a value of display scale 2; a value of another
-- scale runs PostgreSQL's plan at run time, which prints PostgreSQL's scale.
PREPARE ptl(numeric) AS SELECT id, $1 * n, n + $1, $1, n < $1 FROM pp WHERE id <= 3 ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE ptl(0.50);
SELECT same_exec('EXECUTE ptl(0.50)');
SELECT same_exec('EXECUTE ptl(-123.45)');
SELECT same_exec('EXECUTE ptl(NULL)');
SELECT same_exec('EXECUTE ptl(0.5)');
SELECT same_exec('EXECUTE ptl(3)');
SELECT same_exec('EXECUTE ptl(0.12345)');
SELECT same_exec('EXECUTE ptl(0.50000000000000000000)');
SELECT same_exec('EXECUTE ptl(''NaN'')');
SELECT same_exec('EXECUTE ptl(7.25)');
PREPARE pagg(numeric) AS SELECT t, sum(n * $1), max(n + $1), count(*) FROM pp WHERE n > $1 GROUP BY t ORDER BY t;
SELECT same_exec('EXECUTE pagg(20.00)');
SELECT same_exec('EXECUTE pagg(20)');
-- a parameter beside no numeric column: scale 0
PREPARE pnone(numeric) AS SELECT count(*), sum(id * $1) FROM pp WHERE id < 100;
SELECT same_exec('EXECUTE pnone(3)');
SELECT same_exec('EXECUTE pnone(2.5)');

-- PL/pgSQL: arguments declared numeric are parameters without a declared scale.  pp_any's
-- shows in max(n * lim): bound at scale 2; pp_cmp's are only compared: bound by value.  The
-- executor says at DEBUG1 when a value makes it run PostgreSQL's plan.
CREATE FUNCTION pp_any(lim numeric) RETURNS TABLE (c bigint, mx numeric) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT count(*), max(n * lim) FROM pp WHERE n < lim;
END $$;
CREATE FUNCTION pp_cmp(lo numeric, hi numeric) RETURNS TABLE (c bigint, s numeric) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT count(*), sum(n) FROM pp WHERE n BETWEEN lo - 0.25 AND hi + 0.25;
END $$;
SET client_min_messages = debug1;
SELECT * FROM pp_any(2.50);
SELECT * FROM pp_any(2.5);
SELECT * FROM pp_cmp(3, 7.5);
SELECT * FROM pp_cmp(3.125, 12.0000000000000000000000);
SELECT * FROM pp_cmp('NaN', 12);
RESET client_min_messages;
SELECT same_on_off($q$SELECT * FROM pp_any(2.50)$q$);
SELECT same_on_off($q$SELECT * FROM pp_any(2.5)$q$);
SELECT same_on_off($q$SELECT * FROM pp_any(7)$q$);
SELECT same_on_off($q$SELECT * FROM pp_any(NULL)$q$);
SELECT same_on_off($q$SELECT * FROM pp_cmp(3, 7.5)$q$);
SELECT same_on_off($q$SELECT * FROM pp_cmp(3.125, 12.0000000000000000000000)$q$);
SELECT same_on_off($q$SELECT * FROM pp_cmp(0.00001, 1e20)$q$);
SELECT same_on_off($q$SELECT * FROM pp_cmp('NaN', 'Infinity')$q$);
SELECT same_on_off($q$SELECT * FROM pp_cmp(NULL, 3)$q$);
