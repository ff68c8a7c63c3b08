#!/usr/bin/env bash
# Installs what the tests need from Debian when it is missing: Chromium's headless shell (Playwright drives Debian's
# build, never a downloaded one), a Korean font (so screenshots show Hangul, not boxes) and ffmpeg (the demo
# catalog's video clips).
#   scripts/ensure-system.sh              -> all three (npm test)
#   scripts/ensure-system.sh ffmpeg       -> only ffmpeg (npm start: the demo's preview clips)
#   scripts/ensure-system.sh chromium     -> the full browser (scripts/screenshot.ts, bench/lighthouse.ts)
# The end-to-end suite runs in Debian's chromium-headless-shell: the same Chromium build without the browser's
# window layer, what Playwright itself uses for headless runs; it costs less than half the CPU of the full browser
# in headless mode (docs/decisions.md).
set -euo pipefail
want=("$@")
[ ${#want[@]} -eq 0 ] && want=(chromium-headless-shell ffmpeg fonts-nanum)
wants() { [[ " ${want[*]} " == *" $1 "* ]]; }
need=()
wants chromium && { [ -x /usr/bin/chromium ] || need+=(chromium); }
wants chromium-headless-shell && { [ -x "${CHROME_PATH:-/usr/lib/chromium/chromium-headless-shell}" ] || need+=(chromium-headless-shell); }
wants ffmpeg && { command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg); }
wants fonts-nanum && { fc-list 2>/dev/null | grep -qi nanum || need+=(fonts-nanum); }
[ ${#need[@]} -eq 0 ] && exit 0
echo "==> installing Debian packages: ${need[*]}"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
echo "==> installed ${need[*]}"
