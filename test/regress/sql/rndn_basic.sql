-- Extension basics: version, the rndn.enabled setting, and the C++/PostgreSQL error boundary.
SELECT rndn_version() ~ '^[0-9]+\.[0-9]+\.[0-9]+$' AS version_ok;
SELECT extversion FROM pg_extension WHERE extname = 'rndn';

-- rndn.enabled is visible in SHOW and pg_settings, with a description
SHOW rndn.enabled;
SELECT name, setting, vartype, context, short_desc FROM pg_settings WHERE name = 'rndn.enabled';
SET rndn.enabled = off;
SHOW rndn.enabled;
RESET rndn.enabled;
SHOW rndn.enabled;
-- the rndn. prefix is reserved: misspelt settings are rejected
SET rndn.enabeld = on;

-- LOAD works even though the library is preloaded
LOAD 'rndn';

-- C++ failures become ordinary ERRORs; the session and the server carry on
SELECT pg_backend_pid() AS pid_before, pg_postmaster_start_time() AS start_before \gset
SELECT rndn_raise_internal('user');
SELECT rndn_raise_internal('exception');
SELECT rndn_raise_internal('bad_alloc');
SELECT rndn_raise_internal('unknown');
SELECT rndn_raise_internal('nonsense');
-- with PostgreSQL's SQLSTATEs: division_by_zero, out_of_memory, internal_error
\set VERBOSITY sqlstate
SELECT rndn_raise_internal('user');
SELECT rndn_raise_internal('bad_alloc');
SELECT rndn_raise_internal('exception');
\set VERBOSITY default
-- inside a transaction the error aborts it, and a savepoint recovers
BEGIN;
SAVEPOINT s;
SELECT rndn_raise_internal('exception');
ROLLBACK TO SAVEPOINT s;
SELECT 'recovered' AS status;
COMMIT;
SELECT pg_backend_pid() = :pid_before AS same_backend,
       pg_postmaster_start_time() = :'start_before' AS server_not_restarted;
