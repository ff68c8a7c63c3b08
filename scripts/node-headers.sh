#!/usr/bin/env bash
# Offline native builds (better-sqlite3): node-gyp looks for Node's headers in its cache and downloads them when
# missing. This machine's Node has its headers in /usr/include/node, so they are linked into that cache instead.
# (They used to be pointed at with `nodedir` in .npmrc, a node-gyp option npm does not know: npm warned
# "Unknown project config" on every install.)
set -euo pipefail
headers=${NODE_HEADERS:-/usr/include/node}
[ -f "$headers/node_version.h" ] || exit 0
version=$(node -p 'process.versions.node')
gyp=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/package.json
install_version=$(node -p "require('$gyp').installVersion" 2>/dev/null || echo 11)
dir="${XDG_CACHE_HOME:-$HOME/.cache}/node-gyp/$version"
mkdir -p "$dir/include"
[ -e "$dir/include/node" ] || ln -s "$headers" "$dir/include/node"
[ -f "$dir/installVersion" ] || echo "$install_version" > "$dir/installVersion"
