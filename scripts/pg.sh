#!/usr/bin/env bash
# A throwaway PostgreSQL on a free loopback port, for the tests.
#   scripts/pg.sh start   -> prints the postgres:// URL on its last line; state in $PG_STATE (default .cache/pg)
#   scripts/pg.sh stop    -> stops it and removes its files
# Installs Debian's postgresql when no server binaries are found. initdb refuses to run as root, so the
# server runs as the postgres user (created by the Debian package).
# On a slow or busy machine: pg_ctl waits up to PG_CTL_TIMEOUT seconds (default 300; its own default of 60 gave up
# on a server still starting, which then ran on unowned), a start and a stop with the same PG_STATE never run at
# the same time (a lock beside the state), and a stop that pg_ctl could not finish kills the server before its files
# are removed (never a server left running on a deleted data folder).
set -euo pipefail
STATE=${PG_STATE:-"$(pwd)/.cache/pg"}
WAIT=${PG_CTL_TIMEOUT:-300}
say() { echo "[pg] $*" >&2; }
mkdir -p "$(dirname "$STATE")"
# The lock is this script's alone: the server it starts does not inherit it (9>&- below).
exec 9>"$STATE.lock"
flock -w "$WAIT" 9 || { say "another pg.sh holds $STATE.lock"; exit 1; }

find_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return; }; done
  command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)" && return
  return 1
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    BIN=$(find_bin || true)
    if [ -z "$BIN" ]; then
      say "PostgreSQL not found: installing Debian's postgresql"
      if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
      else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; fi
      BIN=$(find_bin)
    fi
    if [ -f "$STATE/url" ] && as_pg "$BIN/pg_ctl" -D "$STATE/data" status >/dev/null 2>&1; then cat "$STATE/url"; exit 0; fi
    rm -rf "$STATE"; mkdir -p "$STATE"
    DIR=$(mktemp -d /tmp/market-pg.XXXXXX)
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
    echo "$DIR" > "$STATE/dir"
    PORT=$(python3 -c "import socket;s=socket.socket();s.bind(('127.0.0.1',0));print(s.getsockname()[1])")
    as_pg "$BIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" -t "$WAIT" start >/dev/null 9>&-
    ln -sfn "$DIR/data" "$STATE/data"
    echo "$BIN" > "$STATE/bin"
    URL="postgres://postgres@127.0.0.1:$PORT/postgres"
    echo "$URL" > "$STATE/url"
    say "started PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
    echo "$URL"
    ;;
  stop)
    [ -f "$STATE/dir" ] || exit 0
    DIR=$(cat "$STATE/dir"); BIN=$(cat "$STATE/bin" 2>/dev/null || find_bin)
    if ! as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast -w -t "$WAIT" stop >/dev/null 2>&1 && [ -f "$DIR/data/postmaster.pid" ]; then
      PID=$(head -n 1 "$DIR/data/postmaster.pid")
      [ -n "$PID" ] && kill -KILL "$PID" 2>/dev/null && say "killed postmaster $PID (pg_ctl stop did not finish)"
      for _ in $(seq 1 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$DIR" "$STATE"
    say "stopped"
    ;;
  *) echo "usage: scripts/pg.sh start|stop" >&2; exit 2 ;;
esac
