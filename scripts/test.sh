#!/usr/bin/env bash
# npm test: every suite, in order, with one closing line "N passed, N failed" summing them all.
#   1. type check and lint        4. integration tests on PostgreSQL (a throwaway server on loopback)
#   2. unit + integration on SQLite   5. end-to-end tests in Debian's Chromium
#   3. production build
# It installs what it needs when missing (Chromium, a Korean font, PostgreSQL) and says so.
set -uo pipefail
cd "$(dirname "$0")/.."
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

step "unit and integration tests on SQLite"
npx vitest run --reporter=default --reporter=json --outputFile="$REPORTS/vitest-sqlite.json"
read -r p f < <(count_vitest "$PWD/$REPORTS/vitest-sqlite.json"); add "$p" "$f"

step "integration tests on PostgreSQL"
export PG_STATE="$PWD/.cache/pg-test"
if PG_URL=$(bash scripts/pg.sh start | tail -n 1) && [ -n "$PG_URL" ]; then
  trap 'bash scripts/pg.sh stop' EXIT
  TEST_DATABASE_URL="$PG_URL" npx vitest run --project integration --reporter=default --reporter=json --outputFile="$REPORTS/vitest-postgres.json"
  read -r p f < <(count_vitest "$PWD/$REPORTS/vitest-postgres.json"); add "$p" "$f"
  bash scripts/pg.sh stop; trap - EXIT
else
  echo "PostgreSQL could not be started"; add 0 1
fi

step "end-to-end tests in Chromium"
PW_JSON_OUTPUT="$REPORTS/playwright.json" npx playwright test
read -r p f < <(node -e 'const r=require(process.argv[1]);const s=r.stats;console.log(s.expected+s.flaky, s.unexpected + (r.errors?.length||0))' "$PWD/$REPORTS/playwright.json" 2>/dev/null || echo "0 1")
add "$p" "$f"

echo
echo "$passed passed, $failed failed"
exit $status
