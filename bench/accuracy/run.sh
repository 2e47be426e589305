#!/usr/bin/env bash
# Accuracy on real edits (issue 12): one command — corpus, every engine, ACCURACY.md.
#
#   bench/accuracy/run.sh
#
# Needs the four pinned repositories as bare mirrors under $ACCURACY_MIRROR (default
# /work/.mirror/<owner>+<name>/repo, brought here with the search tool's fetch; see ACCURACY.md).
# Environment (optional): BUILD=build/h-acc (native CLI, configured and built if missing),
#   WASI=build/h-acc-wasi/editcore.wasm (falls back to build/wasi/editcore.wasm; skipped if none),
#   PER_REPO=30 SEED=12 NO_REPORT=1
# Output: bench/out/accuracy/{cases.jsonl,results.jsonl,corpus.json}; the report: ACCURACY.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build/h-acc}
WASI=${WASI:-build/h-acc-wasi/editcore.wasm}
[ -f "$WASI" ] || WASI=build/wasi/editcore.wasm
OUT=bench/out/accuracy
mkdir -p "$OUT"
log() { printf '\n== %s\n' "$*" >&2; }

if [ ! -x "$BUILD/editcore" ]; then
  log "native build ($BUILD)"
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DEDITCORE_WERROR=ON >/dev/null
  cmake --build "$BUILD" -j2 --target editcore >/dev/null
fi
log "peers (npm devDependencies of bench/accuracy)"
[ -d bench/accuracy/node_modules/diff ] || (cd bench/accuracy && npm install --no-audit --no-fund >/dev/null)

log "corpus (seeded) -> $OUT/cases.jsonl"
node bench/accuracy/gen.mjs --out "$OUT" --per-repo "${PER_REPO:-30}" --seed "${SEED:-12}"

log "engines"
WASI_ARG=()
[ -f "$WASI" ] && WASI_ARG=(--wasi "$WASI")
node --no-warnings bench/accuracy/run.mjs --cases "$OUT/cases.jsonl" --cli "$BUILD/editcore" "${WASI_ARG[@]}" > "$OUT/summary.tsv"

{ "$BUILD/editcore" version; git rev-parse --short HEAD; node --version; git --version; patch --version | head -1; } > "$OUT/versions.txt" 2>/dev/null || true
if [ -z "${NO_REPORT:-}" ]; then
  log "report -> ACCURACY.md"
  node bench/accuracy/report.mjs --out "$OUT" > ACCURACY.md
fi
log "done"
