#!/usr/bin/env bash
# TPC-H data for rndn: generation with a real dbgen implementation and loading into the
# throwaway cluster (tools/pgcluster.sh).
#
#   tools/tpch.sh gen SF                  write build/tpch/sf<SF>/*.tbl (DuckDB's dbgen port)
#   tools/tpch.sh load SF [TBLDIR]        start the cluster, load SF (generating it if needed),
#                                         or the dbgen .tbl files in TBLDIR; prints the database
#   tools/tpch.sh dbname SF [TBLDIR]      the database name used for SF / TBLDIR
#   tools/tpch.sh check SF                load SF, check PostgreSQL's answers against the
#                                         official ones, run the rndn on/off differential
#
# Each scale factor gets its own database (tpch_sf0_01, tpch_sf1, ...; tpch_user for TBLDIR)
# with the standard schema (test/tpch/schema.sql: primary and foreign keys), then VACUUM (FREEZE, ANALYZE).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=$ROOT/.venv/bin/python
cmd=${1:-}; SF=${2:-0.01}; TBLDIR=${3:-}
TABLES="region nation part supplier partsupp customer orders lineitem"

# RNDN_TPCH_LOCALE=C.UTF-8 (for example) loads into a database of that locale instead of the
# cluster's (C); its name gets the locale as a suffix (tpch_sf0_01_c_utf_8).
LOCALE=${RNDN_TPCH_LOCALE:-}
dbname() {
  local suffix=""
  if [ -n "$LOCALE" ]; then suffix=_$(echo "$LOCALE" | tr 'A-Z.-' 'a-z__'); fi
  if [ -n "$TBLDIR" ]; then echo "tpch_user$suffix"; else echo "tpch_sf${SF//./_}$suffix"; fi
}

gen() {
  local out=build/tpch/sf$SF
  if [ -f "$out/SF" ] && [ -f "$out/lineitem.tbl" ]; then echo "$out"; return; fi
  echo "tpch: generating SF $SF into $out" >&2
  "$PY" test/tpch/dbgen.py "$SF" "$out" >&2
  echo "$out"
}

load() {
  local dir db
  if [ -n "$TBLDIR" ]; then dir=$(realpath "$TBLDIR"); else dir=$(gen); fi
  for t in $TABLES; do [ -f "$dir/$t.tbl" ] || { echo "tpch: $dir/$t.tbl is missing" >&2; exit 1; }; done
  db=$(dbname)
  . "$(tools/pgcluster.sh start)"
  if [ "$(psql -d postgres -Atc "select count(*) from pg_database where datname = '$db'")" = 1 ] &&
     [ "$(psql -d "$db" -Atc "select obj_description('lineitem'::regclass, 'pg_class')" 2>/dev/null)" = "loaded from $dir" ]; then
    # rndn plans queries only in a database where the extension exists
    psql -q -d "$db" -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS rndn" >&2
    echo "$db"; return
  fi
  echo "tpch: loading $dir into database $db" >&2
  psql -q -d postgres -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db${LOCALE:+ TEMPLATE template0 ENCODING 'UTF8' LOCALE '$LOCALE'}" >&2
  {
    echo "SET client_min_messages = warning;"
    # rndn plans queries only in a database where the extension exists
    echo "CREATE EXTENSION IF NOT EXISTS rndn;"
    # commit synchronously, so that the VACUUM below can mark every page all-visible
    echo "SET synchronous_commit = on;"
    cat test/tpch/schema.sql
    # dbgen data is consistent; skip per-row foreign-key triggers during the load
    echo "SET session_replication_role = replica;"
    for t in $TABLES; do
      echo "\\copy $t FROM PROGRAM 'sed ''s/|\$//'' $dir/$t.tbl' WITH (FORMAT text, DELIMITER '|')"
    done
    echo "SET session_replication_role = origin;"
    # the usual step after a bulk load: hint bits set, pages all-visible (which also lets
    # rndn's column cache keep the columns), statistics gathered
    echo "VACUUM (FREEZE, ANALYZE);"
    echo "COMMENT ON TABLE lineitem IS 'loaded from $dir';"
  } | psql -q -d "$db" -v ON_ERROR_STOP=1 >&2
  echo "$db"
}

check() {
  local db rc=0
  db=$(load)
  . build/pgcluster/env
  "$PY" test/tpch/harness.py answers "$db" "$SF" || rc=1
  "$PY" test/tpch/harness.py differential "$db" || rc=1
  tools/pgcluster.sh stop
  return $rc
}

case "$cmd" in
  gen) gen ;;
  check) check ;;
  load) load ;;
  dbname) dbname ;;
  *) echo "usage: $0 gen|load|check|dbname SF [TBLDIR]" >&2; exit 2 ;;
esac
