#!/usr/bin/env bash
# npm test: every suite, with one closing line "N passed, N failed" summing them all.
#   1. type check and lint
#   2. production build
#   3. unit + integration on SQLite, beside integration on PostgreSQL (a throwaway server on loopback)
#   4. end-to-end tests in Debian's Chromium headless shell, in two lanes side by side (E2E_SHARDS)
# It installs what it needs when missing (Chromium, a Korean font, PostgreSQL) and says so.
set -uo pipefail
cd "$(dirname "$0")/.."
# One run at a time in this folder: a second would remove the first's end-to-end data folders under its servers
# and reuse, then stop, its PostgreSQL (.cache/pg-test) in the middle of its run.
mkdir -p .cache
if [ -f .cache/test.pid ] && kill -0 "$(cat .cache/test.pid)" 2>/dev/null; then
  echo "another npm test is running in this folder (pid $(cat .cache/test.pid)): wait for it to end, or stop it"
  exit 1
fi
echo $$ >.cache/test.pid
cleanup() { rm -f .cache/test.pid; }
trap cleanup EXIT
bash scripts/node-headers.sh
REPORTS=.cache/reports
rm -rf "$REPORTS"; mkdir -p "$REPORTS"
passed=0; failed=0; status=0
step() { echo; echo "==> $*"; }
count_vitest() { # file
  node -e 'const r=require(process.argv[1]);console.log(r.numPassedTests, r.numFailedTests + (r.numTotalTestSuites && !r.success && r.numFailedTests===0 ? 1 : 0))' "$1" 2>/dev/null || echo "0 1"
}
add() { passed=$((passed + $1)); failed=$((failed + $2)); [ "$2" -eq 0 ] || status=1; }

if [ ! -d node_modules ]; then step "installing npm dependencies"; npm install --no-audit --no-fund || exit 1; fi

step "system packages"
bash scripts/ensure-system.sh || { echo "could not install system packages"; add 0 1; }

step "type check and lint"
if npx tsc --noEmit && npx biome check .; then add 1 0; else add 0 1; fi

step "build"
if npx remix build; then add 1 0; else add 0 1; fi

step "demo media (made once here, copied by every seed below)"
node --import tsx scripts/warm-media.ts || echo "the demo media could not be made here: each seed makes its own"

# The two vitest runs go side by side (each uses one worker on a 2-core machine), then the two halves of the
# end-to-end suite (each its own server, port and data folder, so nothing one half switches store-wide reaches the
# other; files split by their recorded running time, scripts/e2e-lanes.ts, so the halves end together). All four at
# once was tried: vitest, starved by Chromium, took three times as long and the whole ran longer. Each writes its
# log to a file, printed when it ends.
step "unit and integration tests on SQLite, and integration tests on PostgreSQL (side by side)"
npx vitest run --reporter=default --reporter=json --outputFile="$REPORTS/vitest-sqlite.json" >"$REPORTS/vitest-sqlite.log" 2>&1 &
sqlite_pid=$!
export PG_STATE="$PWD/.cache/pg-test"
pg_pid=""
if PG_URL=$(bash scripts/pg.sh start | tail -n 1) && [ -n "$PG_URL" ]; then
  trap 'bash scripts/pg.sh stop; cleanup' EXIT
  TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration --project integration-isolated --reporter=default --reporter=json --outputFile="$REPORTS/vitest-postgres.json" >"$REPORTS/vitest-postgres.log" 2>&1 &
  pg_pid=$!
else
  echo "PostgreSQL could not be started"; add 0 1
fi
wait "$sqlite_pid"
echo; echo "--- vitest on SQLite"; cat "$REPORTS/vitest-sqlite.log"
read -r p f < <(count_vitest "$PWD/$REPORTS/vitest-sqlite.json"); add "$p" "$f"
if [ -n "$pg_pid" ]; then
  wait "$pg_pid"
  echo; echo "--- vitest on PostgreSQL"; cat "$REPORTS/vitest-postgres.log"
  read -r p f < <(count_vitest "$PWD/$REPORTS/vitest-postgres.json"); add "$p" "$f"
  bash scripts/pg.sh stop; trap cleanup EXIT
fi

step "end-to-end tests in Chromium's headless shell (two lanes side by side)"
E2E_SHARDS=${E2E_SHARDS:-2}
e2e_pids=()
for i in $(seq 1 "$E2E_SHARDS"); do
  mapfile -t lane_files < <(node --import tsx scripts/e2e-lanes.ts "$i" "$E2E_SHARDS")
  E2E_PORT=$((3200 + i)) E2E_DATA_DIR=".cache/e2e-$i" E2E_OUTPUT="test-results/shard-$i" PW_JSON_OUTPUT="$REPORTS/playwright-$i.json" \
    npx playwright test "${lane_files[@]}" >"$REPORTS/playwright-$i.log" 2>&1 &
  e2e_pids+=($!)
done
for i in $(seq 1 "$E2E_SHARDS"); do
  wait "${e2e_pids[$((i - 1))]}"
  echo; echo "--- end-to-end lane $i/$E2E_SHARDS"; cat "$REPORTS/playwright-$i.log"
  read -r p f < <(node -e 'const r=require(process.argv[1]);const s=r.stats;console.log(s.expected+s.flaky, s.unexpected + (r.errors?.length||0))' "$PWD/$REPORTS/playwright-$i.json" 2>/dev/null || echo "0 1")
  add "$p" "$f"
done

echo
echo "$passed passed, $failed failed"
exit $status
