#!/usr/bin/env bash
# Accuracy on real edits (issues 12, 30): one command — fetch, corpus, every engine, ACCURACY.md's section.
#
#   bench/accuracy/run.sh
#
# The repositories of bench/accuracy/sources.json are fetched from Debian and npm (fetch.mjs, into
# bench/out/corpus; pinned by sources.lock.json). Environment (optional): BUILD=build/h-acc (native CLI,
# configured if missing and always brought up to date), WASI=path/editcore.wasm (default: the `wasi`
# preset's build/wasi/editcore.wasm, configured if missing and brought up to date; WASI=none skips it:
# a module left from an older tree once made 305 answers "differ" from a current CLI), BEFORE_CLI=path (an older editcore: its answers on the same
# requests, as the report's "before" rows), ENGINES=a,b (run.mjs --engines; default every engine),
# PER_SOURCE=40 SEED=12 NO_REPORT=1.
# Output: bench/out/accuracy/{cases.jsonl,blobs.jsonl,results.jsonl,corpus.json}; the report: ACCURACY.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build/h-acc}
WASI=${WASI:-}
OUT=bench/out/accuracy
mkdir -p "$OUT"
log() { printf '\n== %s\n' "$*" >&2; }

# Both builds from this tree, every time (incremental): the WASI answers are compared with the CLI's
# byte for byte, so neither may be left over from another commit.
log "native build ($BUILD)"
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DEDITCORE_WERROR=ON >/dev/null
cmake --build "$BUILD" -j2 --target editcore >/dev/null
if [ -z "$WASI" ]; then
  log "WASI build (build/wasi)"
  [ -f build/wasi/CMakeCache.txt ] || cmake --preset wasi >/dev/null
  cmake --build --preset wasi -j2 >/dev/null
  WASI=build/wasi/editcore.wasm
fi
[ "$WASI" = none ] && WASI=
log "peers (npm devDependencies of bench/accuracy)"
[ -d bench/accuracy/node_modules/diff ] || (cd bench/accuracy && npm install --no-audit --no-fund >/dev/null)

log "histories (Debian, npm) -> bench/out/corpus"
node bench/accuracy/fetch.mjs
log "corpus (seeded) -> $OUT/cases.jsonl"
node bench/accuracy/gen.mjs --out "$OUT" --per-source "${PER_SOURCE:-40}" --seed "${SEED:-12}"

log "engines"
WASI_ARG=()
[ -f "$WASI" ] && WASI_ARG=(--wasi "$WASI")
[ -n "${ENGINES:-}" ] && WASI_ARG+=(--engines "$ENGINES")
node --no-warnings bench/accuracy/run.mjs --cases "$OUT/cases.jsonl" --cli "$BUILD/editcore" "${WASI_ARG[@]}" > "$OUT/summary.tsv"
BEFORE_ARG=()
if [ -n "${BEFORE_CLI:-}" ]; then
  log "editcore before ($BEFORE_CLI)"
  mkdir -p "$OUT/before"
  cp "$OUT/cases.jsonl" "$OUT/blobs.jsonl" "$OUT/before/"
  node --no-warnings bench/accuracy/run.mjs --cases "$OUT/before/cases.jsonl" --cli "$BEFORE_CLI" --engines editcore > "$OUT/before/summary.tsv"
  BEFORE_ARG=(--before "$OUT/before/results.jsonl")
fi

{ "$BUILD/editcore" version; git rev-parse --short HEAD; node --version; git --version; patch --version | head -1;
  [ -n "${BEFORE_CLI:-}" ] && echo "${BEFORE_REV:-the branch point}"; } > "$OUT/versions.txt" 2>/dev/null || true
if [ -z "${NO_REPORT:-}" ]; then
  log "report -> ACCURACY.md"
  node bench/accuracy/report.mjs --out "$OUT" "${BEFORE_ARG[@]}" --write ACCURACY.md
fi
node bench/accuracy/thresholds.mjs "$OUT/results.jsonl" || true
log "done"
