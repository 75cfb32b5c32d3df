-- rndn extension objects.  Loaded by CREATE EXTENSION rndn.
\echo Use "CREATE EXTENSION rndn" to load this file. \quit

CREATE FUNCTION rndn_version() RETURNS text
    AS 'MODULE_PATHNAME', 'rndn_version' LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION rndn_version() IS 'version of the rndn extension library';

-- Raises an error from inside rndn's C++ code, through the same boundary every entry point
-- uses.  kind: 'user' (a C++ Status turned into ERROR with its SQLSTATE), 'exception'
-- (a std::exception), 'bad_alloc' (std::bad_alloc -> out of memory), 'unknown' (a non-standard
-- throw).  Used by the regression tests to show that errors never crash the backend.
CREATE FUNCTION rndn_raise_internal(kind text) RETURNS void
    AS 'MODULE_PATHNAME', 'rndn_raise_internal' LANGUAGE C STRICT VOLATILE;

-- The HorseIR program a query translates to (the whole plan), or NULL with a NOTICE saying
-- why the query does not go to rndn.  The query is planned, not executed.
CREATE FUNCTION rndn_horseir(query text) RETURNS text
    AS 'MODULE_PATHNAME', 'rndn_horseir' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION rndn_horseir(text) IS 'HorseIR program rndn runs for a query';

-- Bytes this backend has allocated with malloc (rndn's C++ objects included): the tests use it
-- to show that an ERROR raised inside rndn leaks no memory.
CREATE FUNCTION rndn_heap_bytes() RETURNS bigint
    AS 'MODULE_PATHNAME', 'rndn_heap_bytes' LANGUAGE C STRICT VOLATILE;
