-- Numeric columns: numeric(p,s) with p <= 18 loads as dec64<s> (8 bytes), p > 18 as
-- dec128<s>; the loader decodes PostgreSQL's on-disk digits itself (in the worker threads).
-- Every answer must be PostgreSQL's: dc_check(q) runs q with rndn on and off and reports
-- whether the rows agree, whether Custom Scan (rndn) really ran it (no fallback) and which
-- decimal types the program loaded.  Edge values for every precision/scale below: zero, the
-- largest and smallest values of the typmod, one unit of the last digit, every power of ten
-- (each weight of base-10000 digit and each position inside one), mixed digits, values with
-- fewer significant digits than the scale, NULL.
SET rndn.regression_mode = on;
SET rndn.column_cache = 0;
SET rndn.force = on;
CREATE TABLE dc (id int, c1_0 numeric(1,0), c1_1 numeric(1,1), c4_4 numeric(4,4), c5_0 numeric(5,0),
                 c9_4 numeric(9,4), c15_2 numeric(15,2), c17_3 numeric(17,3), c18_0 numeric(18,0),
                 c18_9 numeric(18,9), c18_18 numeric(18,18), c19_2 numeric(19,2), c38_0 numeric(38,0),
                 c38_10 numeric(38,10), c38_38 numeric(38,38)) WITH (autovacuum_enabled = off);
-- the k-th edge value of numeric(p,s), as text
CREATE FUNCTION dc_edge(k int, p int, s int) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN k = 0 THEN '0'
        WHEN k = 1 THEN repeat('9', p - s) || '.' || repeat('9', s) || '0'
        WHEN k = 2 THEN '-' || repeat('9', p - s) || '.' || repeat('9', s) || '0'
        WHEN k = 3 THEN CASE WHEN s = 0 THEN '1' ELSE '0.' || repeat('0', s - 1) || '1' END
        WHEN k = 4 THEN CASE WHEN s = 0 THEN '-1' ELSE '-0.' || repeat('0', s - 1) || '1' END
        WHEN k = 5 THEN left(repeat('1234567890', 4), p - s) || '.' || left(repeat('9876543210', 4), s) || '0'
        WHEN k = 6 THEN '-' || left(repeat('5050607080', 4), p - s) || '.' || left(repeat('0102030405', 4), s) || '0'
        WHEN k = 7 THEN CASE WHEN s = 0 THEN '7' ELSE '0.5' END
        WHEN k = 8 THEN CASE WHEN s = 0 THEN '-3' WHEN s = 1 THEN '-0.3' ELSE '-0.' || repeat('0', s - 2) || '12' END
        WHEN k = 9 THEN NULL
        -- powers of ten: 10^(k-100-s), every digit position the typmod allows
        WHEN k >= 100 AND k - 100 < p THEN (power(10::numeric, k - 100) / power(10::numeric, s))::text
        ELSE '0'
    END::numeric
$$;
INSERT INTO dc
SELECT k, dc_edge(k, 1, 0), dc_edge(k, 1, 1), dc_edge(k, 4, 4), dc_edge(k, 5, 0), dc_edge(k, 9, 4),
       dc_edge(k, 15, 2), dc_edge(k, 17, 3), dc_edge(k, 18, 0), dc_edge(k, 18, 9), dc_edge(k, 18, 18),
       dc_edge(k, 19, 2), dc_edge(k, 38, 0), dc_edge(k, 38, 10), dc_edge(k, 38, 38)
FROM (SELECT generate_series(0, 9) k UNION ALL SELECT generate_series(100, 137)) ks;
SELECT count(*), count(c18_18), max(c38_38), min(c38_10), max(c18_0) FROM dc;
CREATE FUNCTION dc_check(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    ran text := 'no rndn scan';
    types text[] := '{}';
    m text;
    on_rows text[] := '{}';
    off_rows text[] := '{}';
BEGIN
    PERFORM set_config('rndn.enabled', 'on', true);
    FOR r IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        IF r."QUERY PLAN" LIKE '%Custom Scan (rndn)%' AND ran = 'no rndn scan' THEN ran := 'rndn'; END IF;
        IF r."QUERY PLAN" LIKE '%Fallback%' THEN ran := 'FELL BACK'; END IF;
        m := substring(r."QUERY PLAN" FROM 'check_cast\(@column_value\([^)]*\), (dec(?:64|128)<[0-9]+>)\)');
        IF m IS NOT NULL AND NOT m = ANY(types) THEN types := types || m; END IF;
    END LOOP;
    FOR r IN EXECUTE q LOOP on_rows := on_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'off', true);
    FOR r IN EXECUTE q LOOP off_rows := off_rows || r::text; END LOOP;
    PERFORM set_config('rndn.enabled', 'on', true);
    RETURN CASE WHEN on_rows = off_rows THEN 'same' ELSE 'DIFFERENT' END || '; ' || ran || '; ' || array_to_string(ARRAY(SELECT unnest(types) ORDER BY 1), ' ');
END $$;

-- every value comes back as PostgreSQL shows it, with both loaders (one thread, workers)
SET rndn.loader_threads = 1;
SELECT dc_check($$SELECT id, c1_0, c1_1, c4_4, c5_0, c9_4, c15_2, c17_3 FROM dc ORDER BY id$$);
SELECT dc_check($$SELECT id, c18_0, c18_9, c18_18, c19_2 FROM dc ORDER BY id$$);
SELECT dc_check($$SELECT id, c38_0, c38_10, c38_38 FROM dc ORDER BY id$$);
SET rndn.loader_threads = 2;
SELECT dc_check($$SELECT id, c1_0, c1_1, c4_4, c5_0, c9_4, c15_2, c17_3 FROM dc ORDER BY id$$);
SELECT dc_check($$SELECT id, c18_0, c18_9, c18_18, c19_2, c38_0, c38_10, c38_38 FROM dc ORDER BY id$$);
-- sums widen to 128 bits exactly (the largest numeric(18,0) values sum past int64's range)
SELECT dc_check($$SELECT sum(c18_0), sum(c18_9), sum(c18_18), sum(c15_2), sum(c4_4), avg(c17_3), avg(c18_0) FROM dc$$);
SELECT dc_check($$SELECT sum(c18_0), count(*) FROM dc, generate_series(1, 20) g WHERE c18_0 > 0$$);
SELECT dc_check($$SELECT min(c1_0), max(c1_1), min(c9_4), max(c18_9), min(c18_18), max(c19_2), min(c38_38) FROM dc$$);
-- arithmetic, comparisons, grouping and joins between dec64 and dec128 columns and literals
SELECT dc_check($$SELECT id, c15_2 * c4_4, c9_4 + c19_2, c18_9 - c18_18, c5_0 * 2, -c17_3 FROM dc
                  WHERE c15_2 > 0.5 OR c18_9 < -1 ORDER BY id$$);
SELECT dc_check($$SELECT c1_0, count(*), sum(c9_4) FROM dc GROUP BY c1_0 ORDER BY c1_0$$);
SELECT dc_check($$SELECT a.id, b.id FROM dc a JOIN dc b ON a.c18_0 = b.c38_0 ORDER BY 1, 2$$);
SELECT dc_check($$SELECT id FROM dc WHERE c15_2 IN (0.01, 12345.67, -1) OR c18_18 = 0.5 ORDER BY id$$);
SELECT dc_check($$SELECT id, coalesce(c15_2, c19_2), CASE WHEN id > 100 THEN c9_4 ELSE c38_10 END FROM dc ORDER BY id$$);
SELECT dc_check($$SELECT c18_0 FROM dc UNION SELECT c38_0 FROM dc ORDER BY 1$$);
-- PostgreSQL's overflow errors where PostgreSQL raises them (rndn on, then off)
SELECT sum(c18_0)::numeric(18,0) FROM dc WHERE c18_0 > 0;
SET rndn.enabled = off;
SELECT sum(c18_0)::numeric(18,0) FROM dc WHERE c18_0 > 0;
RESET rndn.enabled;
SELECT (sum(c15_2) * 1000)::numeric(15,2) FROM dc WHERE c15_2 > 0;
SET rndn.enabled = off;
SELECT (sum(c15_2) * 1000)::numeric(15,2) FROM dc WHERE c15_2 > 0;
RESET rndn.enabled;
-- NaN stays PostgreSQL's business (the same answer)
CREATE TABLE dc_nan (n numeric(10,2));
INSERT INTO dc_nan VALUES (1.5), ('NaN');
SELECT sum(n) FROM dc_nan;
SELECT dc_check($$SELECT sum(n) FROM dc_nan$$);
DROP TABLE dc, dc_nan;
DROP FUNCTION dc_check(text);
DROP FUNCTION dc_edge(int, int, int);
