#!/usr/bin/env bash
# The sampled slice of the real-history corpus (issue 30), run by scripts/test.sh: every repository of
# bench/accuracy/sources.json fetched from Debian and npm (npm packages: their first 3 versions only),
# 8 base edits a repository (seeded), every form, through the native CLI; then the thresholds (no wrong
# answer, byte-identical >= 99 % on positives, every must-refuse case refused). About 1,700 requests;
# under 2 minutes with downloads from an empty cache on 2 cores (ACCURACY.md).
#   bench/accuracy/slice.sh [path/to/editcore]       (default build/native/editcore)
set -euo pipefail
cd "$(dirname "$0")/../.."
CLI=${1:-build/native/editcore}
OUT=bench/out/accuracy-slice
mkdir -p "$OUT"
node bench/accuracy/fetch.mjs --npm-versions 3
node bench/accuracy/gen.mjs --out "$OUT" --per-source 8 --seed "${SEED:-30}"
node --no-warnings bench/accuracy/run.mjs --cases "$OUT/cases.jsonl" --cli "$CLI" --engines editcore > "$OUT/summary.tsv"
node bench/accuracy/thresholds.mjs "$OUT/results.jsonl"
