#!/usr/bin/env bash
# Installs what the tests need from Debian when it is missing: Chromium (Playwright drives Debian's build,
# never a downloaded one), a Korean font (so screenshots show Hangul, not boxes) and ffmpeg (the demo
# catalog's video clips).
#   scripts/ensure-system.sh              -> all three (npm test)
#   scripts/ensure-system.sh ffmpeg       -> only ffmpeg (npm start: the demo's preview clips)
set -euo pipefail
want=("$@")
[ ${#want[@]} -eq 0 ] && want=(chromium ffmpeg fonts-nanum)
wants() { [[ " ${want[*]} " == *" $1 "* ]]; }
need=()
wants chromium && { [ -x "${CHROME_PATH:-/usr/bin/chromium}" ] || need+=(chromium); }
wants ffmpeg && { command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg); }
wants fonts-nanum && { fc-list 2>/dev/null | grep -qi nanum || need+=(fonts-nanum); }
[ ${#need[@]} -eq 0 ] && exit 0
echo "==> installing Debian packages: ${need[*]}"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
echo "==> installed ${need[*]}"
