-- rndn executor: errors are PostgreSQL's own (SQLSTATE and message), exceeding the memory limit
-- runs PostgreSQL's plan instead (no row was returned yet), and statement_timeout stops a query
-- inside rndn.
CREATE TABLE rx_err (a int, b bigint, n numeric(8,2), z int);
INSERT INTO rx_err SELECT g, g * 1000000000::bigint, g / 3.0, 0 FROM generate_series(1, 1000) g;
EXPLAIN (COSTS OFF) SELECT a / z FROM rx_err;
\set VERBOSITY sqlstate
SELECT a / z FROM rx_err;
SELECT n / z FROM rx_err;
SELECT a % z FROM rx_err;
SELECT max(a * 2147484) FROM rx_err;
SELECT b * 10000000000 FROM rx_err;
SELECT sum(a * 2147483) FROM rx_err;
\set VERBOSITY default
SELECT a / z FROM rx_err;
SELECT max(a * 2147484) FROM rx_err;
-- the same statements with rndn off give the same errors
SET rndn.enabled = off;
SELECT a / z FROM rx_err;
SELECT max(a * 2147484) FROM rx_err;
RESET rndn.enabled;
-- float sums as float4pl / float8pl: in the values' order, real in real, and a finite sum
-- that overflows is an error
CREATE TABLE rx_float (g int, r real, f float8);
INSERT INTO rx_float SELECT g, CASE WHEN g <= 2 THEN 3e38 ELSE g / 8.0 END,
                            CASE WHEN g <= 2 THEN 1e308 ELSE g / 3.0 END FROM generate_series(1, 1000) g;
EXPLAIN (COSTS OFF) SELECT sum(r) FROM rx_float;
SELECT sum(r) FROM rx_float;
SELECT sum(f) FROM rx_float;
SELECT sum(r), sum(f) FROM rx_float WHERE g > 2;
SELECT g % 3 AS k, sum(r), sum(f) FROM rx_float WHERE g > 2 GROUP BY g % 3 ORDER BY k;
SET rndn.enabled = off;
SELECT sum(r) FROM rx_float;
SELECT sum(f) FROM rx_float;
SELECT sum(r), sum(f) FROM rx_float WHERE g > 2;
SELECT g % 3 AS k, sum(r), sum(f) FROM rx_float WHERE g > 2 GROUP BY g % 3 ORDER BY k;
RESET rndn.enabled;
DROP TABLE rx_float;
-- a division guarded by CASE is never evaluated speculatively: such a CASE stays with PostgreSQL
SELECT sum(CASE WHEN z = 0 THEN 0 ELSE a / z END) FROM rx_err;

-- the memory limit: PostgreSQL's plan answers (issue 19 item 13)
CREATE TABLE rx_wide AS SELECT g AS a, repeat('x', 200) AS s FROM generate_series(1, 20000) g;
SET rndn.memory_limit = '1MB';
\set VERBOSITY sqlstate
SELECT count(*) FROM rx_wide WHERE s LIKE '%y%';
\set VERBOSITY default
RESET rndn.memory_limit;
SELECT count(*) FROM rx_wide WHERE s LIKE '%y%';

-- statement_timeout and cancel reach a query while rndn loads or runs it
CREATE TABLE rx_slow AS SELECT g AS a, g % 1000 AS b FROM generate_series(1, 2000000) g;
SET rndn.chunk_rows = 1000;
SET statement_timeout = '20ms';
SELECT b, count(*) FROM rx_slow GROUP BY b ORDER BY b LIMIT 1;
RESET statement_timeout;
RESET rndn.chunk_rows;
-- and the session carries on
SELECT count(*) FROM rx_err;

-- a device that is not available (a driver library that is not there): the plan stays with
-- PostgreSQL and says why
SET rndn.device = cuda;
SET rndn.cuda_library = '/nonexistent/libcuda.so.1';
SET rndn.explain_fallback = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rx_err;
SELECT count(*) FROM rx_err;
RESET rndn.device;
RESET rndn.cuda_library;
RESET rndn.explain_fallback;
