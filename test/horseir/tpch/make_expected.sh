#!/usr/bin/env bash
# Regenerates test/horseir/tpch/expected/qN.out from PostgreSQL itself (rndn disabled), for
# every qN.hir here, against the SF 0.01 database of the throwaway cluster.  Trailing blanks of
# fields (char(n) padding) are removed: rndn-hir prints strings without trailing pad.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source build/pgcluster/env
db=${1:-tpch_sf0_01}
mkdir -p test/horseir/tpch/expected
for f in test/horseir/tpch/q*.hir; do
  q=$(basename "$f" .hir)
  psql -X -q -d "$db" -A -F'|' -P footer=off -v ON_ERROR_STOP=1 -c "set rndn.enabled = off" -f "test/tpch/queries/$q.sql" |
    grep -v '^SET$' | sed -e 's/ *|/|/g' -e 's/ *$//' > "test/horseir/tpch/expected/$q.out"
done
