#!/usr/bin/env bash
# The end-to-end suite's server (playwright.config.ts's webServer, which sets DATA_DIR and the rest): a fresh data
# folder, then server.ts with the node flag of `npm run serve`. Robust on a slow or busy machine:
#   - a server started over the same folder before and still running (a harness killed without its process group,
#     an earlier run still going) is stopped first: its whole process group (primary, workers, the first start's
#     seed child), TERM then KILL, so nothing writes into the folder while it is removed (which failed with
#     "rm: cannot remove ...: Directory not empty") and no old worker opens the new, half-made database;
#   - the folder is removed with a few retries;
#   - this process group is written to DATA_DIR.pid for the next start to find.
set -uo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA_DIR:?DATA_DIR is required}
PIDFILE="${DATA%/}.pid"
group_alive() { pgrep -g "$1" -f 'server\.ts|scripts/seed\.ts' >/dev/null 2>&1; }
if [ -f "$PIDFILE" ]; then
  old=$(tr -dc '0-9' <"$PIDFILE")
  mine=$(ps -o pgid= -p $$ | tr -dc '0-9')
  if [ -n "$old" ] && [ "$old" != "$mine" ] && group_alive "$old"; then
    echo "[e2e-server] stopping the previous server over $DATA (process group $old)" >&2
    kill -TERM -- "-$old" 2>/dev/null
    for _ in $(seq 1 150); do group_alive "$old" || break; sleep 0.1; done
    kill -KILL -- "-$old" 2>/dev/null
    for _ in $(seq 1 50); do group_alive "$old" || break; sleep 0.1; done
  fi
fi
ps -o pgid= -p $$ | tr -dc '0-9' >"$PIDFILE"
for _ in $(seq 1 20); do
  rm -rf "$DATA" 2>/dev/null && break
  sleep 0.5
done
if [ -e "$DATA" ]; then echo "[e2e-server] could not remove $DATA" >&2; rm -rf "$DATA"; exit 1; fi
exec node --max-semi-space-size=4 --import tsx server.ts
