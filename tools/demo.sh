#!/usr/bin/env bash
# `make demo`: start the throwaway cluster, load TPC-H SF 0.01, run Q1, Q6 and Q3 through rndn on
# the cpu device (tools/demo.py: SQL, plan, result, times against PostgreSQL, identical or not),
# then stop the cluster.
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
# each query: its SQL, rndn's plan on the cpu device (kernels, compile times), the result, and
# its times against PostgreSQL's own plan (rndn.enabled = off) with a line saying whether the
# results are identical (tools/demo.py)
.venv/bin/python tools/demo.py "$db" --queries "${DEMO_QUERIES:-1,6,3}" --device "${DEMO_DEVICE:-cpu}"
