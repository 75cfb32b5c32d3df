#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for rndn's demo and tests: its own data directory and
# Unix socket (no TCP), on a free port, preloading rndn.  It never touches another server.
#
#   tools/pgcluster.sh start [DIR]   create (if needed) and start; prints the env file's path
#   tools/pgcluster.sh stop  [DIR]   stop it (fast shutdown)
#   tools/pgcluster.sh env   [DIR]   print `export PGHOST=... PGPORT=... PGUSER=...` lines
#   tools/pgcluster.sh destroy [DIR] stop and delete it
#
# DIR defaults to build/pgcluster.  PGCLUSTER_CONF (lines of postgresql.conf) is appended when the
# cluster is created, after the defaults, so it overrides them (e.g. shared_preload_libraries = ''
# for a server without rndn); PGCLUSTER_LOCALE is initdb's locale (default C); PGBIN picks another
# PostgreSQL 15 installation tree's binaries.
# initdb refuses to run as root, so as root the server runs as the unprivileged user postgres
# (created by Debian's postgresql-common).
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
cmd=${1:-}
DIR=$(realpath -m "${2:-build/pgcluster}")
DATA=$DIR/data
LOG=$DIR/server.log
ENVFILE=$DIR/env

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  local p
  for p in $(seq 54320 54420); do
    if ! ls -a /tmp /var/run/postgresql "$DIR" 2>/dev/null | grep -q "^\.s\.PGSQL\.$p$" &&
       ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then
      echo "$p"; return
    fi
  done
  echo "pgcluster: no free port in 54320-54420" >&2; exit 1
}

write_env() {
  local port=$1
  cat > "$ENVFILE" <<EOV
export PGHOST=$DIR
export PGPORT=$port
export PGUSER=postgres
export PGDATABASE=postgres
EOV
}

# As root the server runs as postgres, which must be able to enter DIR.  A checkout in a
# directory postgres cannot enter (root's home, any mode-700 directory) gets its cluster under
# /var/tmp instead, with DIR a symbolic link to it, so every script still finds DIR/env.
relocate_if_unreachable() {
  [ "$(id -u)" = 0 ] || return 0
  id postgres >/dev/null 2>&1 || { echo "pgcluster: running as root needs the user postgres (Debian's postgresql-common creates it)" >&2; exit 1; }
  if [ -d "$DIR" ] && runuser -u postgres -- test -x "$DIR" 2>/dev/null; then return 0; fi
  if [ ! -e "$DIR" ] && runuser -u postgres -- test -x "$(dirname "$DIR")" 2>/dev/null; then return 0; fi
  local alt=/var/tmp/rndn-pgcluster-$(printf '%s' "$DIR" | md5sum | cut -c1-12)
  if [ -d "$DIR" ] && [ ! -L "$DIR" ]; then
    if [ -f "$DIR/data/PG_VERSION" ]; then
      echo "pgcluster: the user postgres cannot enter $DIR; move the checkout somewhere postgres can read, or run as a non-root user" >&2
      exit 1
    fi
    rm -rf "$DIR"
  fi
  mkdir -p "$alt" "$(dirname "$DIR")"
  chown postgres "$alt"; chmod 700 "$alt"
  if [ ! -L "$DIR" ]; then
    ln -s "$alt" "$DIR"
    echo "pgcluster: postgres cannot enter $(dirname "$DIR"); the cluster lives in $alt ($DIR links to it)" >&2
  fi
  DIR=$alt; DATA=$DIR/data; LOG=$DIR/server.log; ENVFILE=$DIR/env
  runuser -u postgres -- test -x "$DIR" || { echo "pgcluster: postgres cannot enter $DIR either" >&2; exit 1; }
}

start() {
  relocate_if_unreachable
  mkdir -p "$DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres "$DIR"; fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    as_owner "$PGBIN/initdb" -D "$DATA" --auth=trust --username=postgres --locale="${PGCLUSTER_LOCALE:-C}" --encoding=UTF8 >"$DIR/initdb.log" 2>&1 ||
      { cat "$DIR/initdb.log" >&2; exit 1; }
    local port; port=$(free_port)
    cat >> "$DATA/postgresql.conf" <<EOC
# rndn throwaway cluster
port = $port
listen_addresses = ''
unix_socket_directories = '$DIR'
shared_preload_libraries = 'rndn'
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 512MB
max_wal_size = 4GB
log_min_messages = warning
lc_messages = 'C'
EOC
    if [ -n "${PGCLUSTER_CONF:-}" ]; then printf '%s\n' "$PGCLUSTER_CONF" >> "$DATA/postgresql.conf"; fi
    write_env "$port"
  fi
  if as_owner "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    echo "$ENVFILE"; return
  fi
  # a data directory copied from another checkout still names that checkout's socket directory
  if [ "$(grep -E '^unix_socket_directories' "$DATA/postgresql.conf" | tail -1)" != "unix_socket_directories = '$DIR'" ]; then
    echo "unix_socket_directories = '$DIR'" >> "$DATA/postgresql.conf"
  fi
  # the port may have been taken since the cluster was created
  local port; port=$(grep -E '^port = ' "$DATA/postgresql.conf" | tail -1 | awk '{print $3}')
  if ls -a "$DIR" /tmp 2>/dev/null | grep -q "^\.s\.PGSQL\.$port$" || (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
    port=$(free_port); echo "port = $port" >> "$DATA/postgresql.conf"
  fi
  write_env "$port"
  touch "$LOG"; if [ "$(id -u)" = 0 ]; then chown postgres "$LOG"; fi
  as_owner "$PGBIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 start >/dev/null || { tail -20 "$LOG" >&2; exit 1; }
  echo "$ENVFILE"
}

stop() {
  if [ -f "$DATA/PG_VERSION" ] && as_owner "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    as_owner "$PGBIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
  fi
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  env) cat "$ENVFILE" ;;
  destroy) stop; rm -rf "$DIR" ;;
  *) echo "usage: $0 start|stop|env|destroy [DIR]" >&2; exit 2 ;;
esac
