#!/usr/bin/env bash
# The npm path's benchmark (issue 28 item 3), one command: the seeded workloads (bench/gen.mjs,
# seed 7), the peers (bench/package.json), the npm package packed as a user installs it (npm pack),
# then, in one run, bench/npm/node.mjs in Node and bench/npm/browser.mjs in Chromium (a dedicated
# worker; Debian's chromium and playwright-core), times and peak memory; prints the tables
# (bench/npm/report.mjs) and keeps the JSON lines in $OUT/results/npm-*.jsonl.
#   bench/npm/run.sh                        10 KB, 1 MB, 10 MB; memory at 1 MB and 10 MB (7.5 min at load 9-16)
#   SIZES=10k,1m MEM_SIZES=1m bench/npm/run.sh    fewer;  BUDGET_MS=1500 per workload and size
#   CHROMIUM=0 bench/npm/run.sh             Node only
# Needs js/dist (cmake --preset emscripten && cmake --build --preset emscripten) and, for the
# Chromium half, /usr/bin/chromium (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-bench/out}
SIZES=${SIZES:-10k,1m,10m}
MEM_SIZES=${MEM_SIZES:-1m,10m}
BUDGET_MS=${BUDGET_MS:-1500}
RES="$OUT/results"
status=0
start=$(date +%s)
[ -f js/dist/editcore.wasm ] || { echo "js/dist/editcore.wasm is missing: cmake --preset emscripten && cmake --build --preset emscripten" >&2; exit 1; }
[ -d bench/node_modules/diff ] || (cd bench && npm ci --no-audit --no-fund >/dev/null)
node bench/gen.mjs --out "$OUT" --sizes "$(echo "10k,$SIZES,$MEM_SIZES" | tr ',' '\n' | sort -u | paste -sd,)" >&2
mkdir -p "$RES"
rm -f "$RES"/npm-node.jsonl "$RES"/npm-chromium.jsonl

# The package as npm ships it (the files of js/package.json's "files"), unpacked beside the build.
PACK=build/bench-npm
rm -rf "$PACK/pkg" && mkdir -p "$PACK/pkg"
tarball=$(cd js && npm pack --ignore-scripts --silent --pack-destination "../$PACK")
tar -xzf "$PACK/$tarball" -C "$PACK/pkg"
PKG="$PACK/pkg/package"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
node bench/npm/node.mjs --out "$OUT" --pkg "$PKG" --sizes "$SIZES" --mem-sizes "$MEM_SIZES" --budget-ms "$BUDGET_MS" > "$RES/npm-node.jsonl"
if [ "${CHROMIUM:-1}" != 0 ]; then
  if [ -x /usr/bin/chromium ]; then
    [ -d web-demo/node_modules/playwright-core ] || (cd web-demo && npm ci --no-audit --no-fund >/dev/null)
    # A failure here (the browser, the worker) still leaves the Node half's tables; the exit status says it.
    node bench/npm/browser.mjs --out "$OUT" --pkg "$PKG" --sizes "$SIZES" --mem-sizes "$MEM_SIZES" --budget-ms "$BUDGET_MS" > "$RES/npm-chromium.jsonl" \
      || { status=$?; echo "bench/npm/browser.mjs failed (exit $status): the Chromium column is partial" >&2; }
  else
    echo "no /usr/bin/chromium: the Chromium half is not run (apt-get install chromium)" >&2
  fi
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
printf '{"date":"%s","runtime_s":%d,"node":"%s","load_before":"%s","load_after":"%s"}\n' \
  "$(date -u +%Y-%m-%dT%H:%MZ)" $(( $(date +%s) - start )) "$(node --version)" "$load_before" "$load_after" > "$RES/npm-meta.json"
node bench/npm/report.mjs "$RES" | tee "$RES/npm.md"
exit "$status"
