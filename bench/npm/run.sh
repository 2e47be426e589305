#!/usr/bin/env bash
# The npm path's benchmark (issue 28), one command: the workloads (bench/gen.mjs, seed 7), the
# peers (bench/package.json), then bench/npm/node.mjs in Node; prints JSON lines and a table.
#   bench/npm/run.sh                 10 KB, 1 MB, 10 MB
#   SIZES=10k,1m bench/npm/run.sh    fewer sizes;  BUDGET_MS=1500 per workload and size
# Needs js/dist (cmake --preset emscripten && cmake --build --preset emscripten).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-bench/out}
SIZES=${SIZES:-10k,1m,10m}
[ -d bench/node_modules/diff ] || (cd bench && npm install --no-audit --no-fund >/dev/null)
node bench/gen.mjs --out "$OUT" --sizes "$SIZES" >&2
mkdir -p "$OUT/results"
node bench/npm/node.mjs --out "$OUT" --sizes "$SIZES" --budget-ms "${BUDGET_MS:-1500}" | tee "$OUT/results/npm.jsonl"
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
console.log("| size | workload | contender | median ms (min-max) | ok |\n|---|---|---|---:|---|");
for (const r of rows) console.log(`| ${r.size} | ${r.workload} | ${r.contender} | ${r.median_ms.toPrecision(3)} (${r.min_ms.toPrecision(3)}-${r.max_ms.toPrecision(3)}) | ${r.ok ? "yes" : "NO"} |`);
' "$OUT/results/npm.jsonl"
