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

-- a numeric variable without a declared scale: PostgreSQL's plan for the generic plan (the
-- scale of the value is known only when it runs; the hook says why at DEBUG1), same answer
CREATE FUNCTION pp_any(lim numeric) RETURNS TABLE (c bigint, mx numeric) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT count(*), max(n * lim) FROM pp WHERE n < lim;
END $$;
SET client_min_messages = debug1;
SELECT * FROM pp_any(2.5);
RESET client_min_messages;
SELECT same_on_off($q$SELECT * FROM pp_any(2.5)$q$);
SELECT same_on_off($q$SELECT * FROM pp_any(7)$q$);
