-- rndn 0.1 -> 0.2: the column cache shared by every backend (rndn.shared_cache_size).
\echo Use "ALTER EXTENSION rndn UPDATE TO '0.2'" to load this file. \quit

-- One row per column in the shared cache, in every database (empty when the cache is off or
-- rndn is not in shared_preload_libraries).
CREATE FUNCTION rndn_column_cache_entries(
        OUT database oid, OUT relid oid, OUT attnum int2, OUT rows bigint, OUT bytes bigint,
        OUT hits bigint, OUT last_use timestamptz)
    RETURNS SETOF record
    AS 'MODULE_PATHNAME', 'rndn_column_cache_entries' LANGUAGE C STRICT VOLATILE;

-- The shared cache as a whole: its size (bytes of shared memory), the bytes its columns take
-- (columns unlinked while a query still reads them included), relations held, unlinked columns
-- waiting for their readers, and evictions since the server started.
CREATE FUNCTION rndn_shared_cache_info(
        OUT size bigint, OUT used bigint, OUT relations int, OUT retired int, OUT evictions bigint)
    RETURNS record
    AS 'MODULE_PATHNAME', 'rndn_shared_cache_info' LANGUAGE C STRICT VOLATILE;

-- The current database's columns in the shared cache: hits counts the queries (of any backend)
-- that found the column there, last_use the last load or hit.  (A function, not a view: the
-- extension lives in pg_catalog, where views cannot be created.)
CREATE FUNCTION rndn_column_cache(
        OUT relation regclass, OUT column_name name, OUT attnum int2, OUT rows bigint,
        OUT bytes bigint, OUT hits bigint, OUT last_use timestamptz)
    RETURNS SETOF record LANGUAGE sql STABLE AS $$
    SELECT e.relid::regclass, a.attname, e.attnum, e.rows, e.bytes, e.hits, e.last_use
      FROM rndn_column_cache_entries() e
      LEFT JOIN pg_attribute a ON a.attrelid = e.relid AND a.attnum = e.attnum
     WHERE e.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY e.relid, e.attnum
$$;
COMMENT ON FUNCTION rndn_column_cache() IS 'columns in rndn''s shared column cache (this database)';
