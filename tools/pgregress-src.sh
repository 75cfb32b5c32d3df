#!/usr/bin/env bash
# PostgreSQL 15's own regression suite, from Debian's source package of postgresql-15, in a cache
# directory git ignores (build/pgsrc; RNDN_PGSRC_CACHE to change).  Prints the suite's directory
# (src/test/regress: parallel_schedule, sql/, expected/, data/) once it is there, with the C test
# modules the suite loads (regress.so from regress.c, refint.so and autoinc.so from contrib/spi)
# built beside it with PGXS, so pg_regress's --dlpath is that same directory.
#
# The source is downloaded with `apt-get source --download-only` (tools/deps.sh adds Debian's
# deb-src lines): the installed server's version when the mirror has it, else the newest
# postgresql-15 source the mirror has.  Only the suite and contrib/spi are unpacked from the
# upstream tarball (Debian's patches do not touch them).  The two runs of test/pgregress/run.py
# compare rndn with PostgreSQL on the same server, so a neighbouring minor version's suite
# serves as well.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=$(realpath -m "${RNDN_PGSRC_CACHE:-build/pgsrc}")
PG_CONFIG=${PG_CONFIG:-pg_config}

ready() {
  local d
  for d in "$CACHE"/postgresql-15.*/src/test/regress; do
    [ -f "$d/parallel_schedule" ] && [ -f "$d/regress.so" ] && [ -f "$d/refint.so" ] && [ -f "$d/autoinc.so" ] &&
      { echo "$d"; return 0; }
  done
  return 1
}

if ready; then exit 0; fi

mkdir -p "$CACHE/download"
cd "$CACHE/download"
versions=$(dpkg-query -W -f='${Version}\n' postgresql-15 2>/dev/null || true)
versions="$versions $(apt-cache showsrc postgresql-15 2>/dev/null | awk '/^Version:/{print $2}' | sort -r -V)"
got=""
for v in $versions; do
  if ls postgresql-15_"${v%%-*}".orig.tar.* >/dev/null 2>&1 || apt-get source -qq --download-only "postgresql-15=$v" >/dev/null 2>&1; then
    got=$v; break
  fi
done
if [ -z "$got" ]; then
  echo "pgregress-src: no postgresql-15 source package could be downloaded (run tools/deps.sh, which adds Debian's deb-src lines)" >&2
  exit 1
fi
upstream=${got%%-*}
tarball=$(ls postgresql-15_"$upstream".orig.tar.* | head -1)
tar -xf "$tarball" -C "$CACHE" "postgresql-$upstream/src/test/regress" "postgresql-$upstream/contrib/spi"
dir="$CACHE/postgresql-$upstream/src/test/regress"
cp "$CACHE/postgresql-$upstream/contrib/spi/refint.c" "$CACHE/postgresql-$upstream/contrib/spi/autoinc.c" "$dir/"
cat > "$dir/Makefile.rndn" <<'EOM'
# the suite's C modules, built against the installed server's headers (tools/pgregress-src.sh)
MODULES = regress refint autoinc
PG_CPPFLAGS = -DREFINT_VERBOSE
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)
EOM
make -s -C "$dir" -f Makefile.rndn PG_CONFIG="$PG_CONFIG" >&2
cd - >/dev/null
ready || { echo "pgregress-src: the suite's modules were not built in $dir" >&2; exit 1; }
