#!/usr/bin/env bash
# Installs what the tests need from Debian when it is missing: Chromium (Playwright drives Debian's build,
# never a downloaded one), a Korean font (so screenshots show Hangul, not boxes) and ffmpeg (the demo
# catalog's video clips).
set -euo pipefail
need=()
[ -x "${CHROME_PATH:-/usr/bin/chromium}" ] || need+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
fc-list 2>/dev/null | grep -qi nanum || need+=(fonts-nanum)
[ ${#need[@]} -eq 0 ] && exit 0
echo "==> installing Debian packages: ${need[*]}"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
echo "==> installed ${need[*]}"
