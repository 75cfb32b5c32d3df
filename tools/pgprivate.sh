#!/usr/bin/env bash
# A private copy of the installed PostgreSQL 15 with this checkout's rndn in it, for long test
# runs that must not see a later `make install` replace rndn.so under their server:
#
#   tools/pgprivate.sh DIR        copies /usr/lib/postgresql/15 and /usr/share/postgresql/15 to
#                                 DIR/lib/postgresql/15 and DIR/share/postgresql/15 (the same
#                                 relative layout, so the server finds $libdir and its share
#                                 directory next to its own binary), puts ./rndn.so, rndn.control
#                                 and sql/rndn--*.sql there and prints the binaries' directory
#
#   PGBIN=$(tools/pgprivate.sh build/pgtree) tools/pgcluster.sh start build/pgc-long
#
# dynamic_library_path alone would not do: the extension's functions name '$libdir/rndn', which
# would load the installed rndn.so a second time beside the preloaded copy.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(realpath -m "${1:?usage: $0 DIR}")
[ -f rndn.so ] || { echo "pgprivate: build rndn.so first (make)" >&2; exit 1; }
mkdir -p "$DIR/lib/postgresql" "$DIR/share/postgresql"
rm -rf "$DIR/lib/postgresql/15" "$DIR/share/postgresql/15"
cp -a /usr/lib/postgresql/15 "$DIR/lib/postgresql/"
cp -a /usr/share/postgresql/15 "$DIR/share/postgresql/"
cp rndn.so "$DIR/lib/postgresql/15/lib/rndn.so"
cp rndn.control sql/rndn--*.sql "$DIR/share/postgresql/15/extension/"
[ "$("$DIR/lib/postgresql/15/bin/pg_config" --pkglibdir)" = "$DIR/lib/postgresql/15/lib" ] ||
  { echo "pgprivate: the copied server does not find its own library directory" >&2; exit 1; }
echo "$DIR/lib/postgresql/15/bin"
