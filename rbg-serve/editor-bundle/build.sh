#!/bin/sh
# Bundles CodeMirror 6 (entry.js) into one minified ES module for the page of `rbg serve`:
# ../static/vendor/codemirror.js, committed and served by the binary. Run after changing
# entry.js or the packages. The output is byte-stable, so CI (.ci/run) builds it again into a
# temporary file and compares: a stale committed bundle fails CI.
#   cd rbg-serve/editor-bundle && npm ci && ./build.sh [OUT]
set -eu
cd "$(dirname "$0")"
out="${1:-../static/vendor/codemirror.js}"
mkdir -p "$(dirname "$out")"
./node_modules/.bin/esbuild entry.js --bundle --minify --format=esm --legal-comments=none \
    --target=es2020 --outfile="$out" --log-level=warning
