#!/usr/bin/env bash
# `make demo`: start the throwaway cluster, load TPC-H SF 0.01, run Q1 and Q6 through rndn with
# EXPLAIN (ANALYZE) and print their results, then stop the cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
SF=${SF:-0.01}
db=$(tools/tpch.sh load "$SF")
. build/pgcluster/env
# At SF 0.01 PostgreSQL's plans are often expected to be faster, and rndn would leave them be;
# the demo shows rndn's plans, so it takes every plan it can.
export PGOPTIONS="${PGOPTIONS:-} -c rndn.force=on"
trap 'tools/pgcluster.sh stop' EXIT
echo
echo "rndn $(psql -d "$db" -XAtc 'CREATE EXTENSION IF NOT EXISTS rndn' -c 'SELECT rndn_version()' | tail -1) on $(psql -d "$db" -XAtc 'SELECT version()' | cut -d, -f1), database $db"
for q in 1 6; do
  echo
  echo "==================== TPC-H Q$q ===================="
  sql=$(grep -v '^--' "test/tpch/queries/q$q.sql" | sed 's/;[[:space:]]*$//')
  echo "--- EXPLAIN (ANALYZE, COSTS OFF)"
  psql -X -d "$db" -c "EXPLAIN (ANALYZE, COSTS OFF) $sql"
  echo "--- result"
  psql -X -d "$db" -c "$sql"
done
