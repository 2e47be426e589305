#!/usr/bin/env bash
# editcore benchmarks against the peers (issue 7): one command, everything, then BENCHMARKS.md.
#
#   bench/run.sh                 full run: 10 KB, 1 MB, 10 MB (about 10 minutes)
#   QUICK=1 bench/run.sh         10 KB and 1 MB only, shorter budgets
#
# Environment (all optional):
#   BUILD=build/h-bench          native build directory (configured and built here if missing;
#                                REBUILD=1 rebuilds it)
#   EM_BUILD=build/h-bench-em    Emscripten build dir (for the .wasm size; js/dist is what runs)
#   WASI=build/h-bench-wasi/editcore.wasm   the WASI command (falls back to build/wasi/)
#   SIZES=10k,1m,10m  CALLGRIND=1  BUDGET_MS=1500  NO_REPORT=1
#   STAGES="native memory callgrind node proc cold sizes"   the stages to (re)run; results of the
#                                others are kept from the previous run (the report reads them all)
#   SKIP="10m:W4a"               size:workload pairs left out of the wasm and callgrind runs (the
#                                native run still measures them once); default "": everything
# Results: bench/out/results/*.jsonl; the report: BENCHMARKS.md at the repo root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build/h-bench}
EM_BUILD=${EM_BUILD:-build/h-bench-em}
WASI=${WASI:-build/h-bench-wasi/editcore.wasm}
[ -f "$WASI" ] || WASI=build/wasi/editcore.wasm
if [ -n "${QUICK:-}" ]; then SIZES=${SIZES:-10k,1m}; BUDGET_MS=${BUDGET_MS:-600}; else SIZES=${SIZES:-10k,1m,10m}; BUDGET_MS=${BUDGET_MS:-1500}; fi
CALLGRIND=${CALLGRIND:-1}
SKIP=${SKIP-}
STAGES=${STAGES:-native memory callgrind node proc cold sizes}
stage() { case " $STAGES " in *" $1 "*) return 0;; esac; return 1; }
skipped() { case ",$SKIP," in *",$1:$2,"*) return 0;; esac; return 1; }
OUT=bench/out
RES=$OUT/results
WORKLOADS="W1 W2 W3 W4a W4b W5 W6"
log() { printf '\n== %s\n' "$*" >&2; }
mkdir -p "$RES"

log "native build ($BUILD)"
if [ ! -f "$BUILD/libeditcore.a" ] || [ -n "${REBUILD:-}" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DEDITCORE_WERROR=ON >/dev/null
  if ! cmake --build "$BUILD" -j2 --target editcore editcore_static >"$RES/build.log" 2>&1; then
    [ -f "$BUILD/libeditcore.a" ] || { tail -20 "$RES/build.log" >&2; exit 1; }
    echo "warning: rebuilding $BUILD failed (see $RES/build.log); measuring the previous build" >&2
  fi
fi
cc -O2 -std=c11 -Wall -Wextra -Wshadow -Icore/include bench/bench_native.c "$BUILD/libeditcore.a" \
  $(pkg-config --libs libpcre2-8 libcjson 2>/dev/null || echo -lpcre2-8 -lcjson) -lm -o "$BUILD/bench_native"
BN=$BUILD/bench_native
"$BUILD/editcore" capabilities > "$RES/capabilities.json"

log "peers (npm devDependencies of bench/)"
[ -d bench/node_modules/diff ] || (cd bench && npm install --no-audit --no-fund >/dev/null)
[ -f js/dist/editcore.wasm ] || { echo "js/dist/editcore.wasm missing: build the Emscripten preset first" >&2; exit 1; }

log "workloads (seeded) -> $OUT"
node bench/gen.mjs --out "$OUT" --sizes "$SIZES" >&2

IFS=, read -ra SZ <<< "$SIZES"

if stage native; then
log "native, in-process (timed, interleaved)"
: > "$RES/native.jsonl"
for s in "${SZ[@]}"; do for w in $WORKLOADS; do
  timeout 300 "$BN" "$OUT" "$s" "$w" --budget-ms "$BUDGET_MS" --max-ms 5000 >> "$RES/native.jsonl" \
    || echo "{\"size\":\"$s\",\"workload\":\"$w\",\"contender\":\"editcore\",\"ok\":false,\"status\":\"timeout or crash (rc $?)\"}" >> "$RES/native.jsonl"
done; done
fi

if stage memory; then
log "peak memory (/usr/bin/time -v, one run per process)"
: > "$RES/memory.jsonl"
rss() { /usr/bin/time -f '%M' -o "$OUT/.time" timeout 300 "$@" >/dev/null 2>&1 || true; cat "$OUT/.time" | tail -1; }
base=$(rss "$BN" "$OUT" 10k W1 --only none)
for s in "${SZ[@]}"; do for w in $WORKLOADS; do
  load=$(rss "$BN" "$OUT" "$s" "$w" --only load)
  ed=$(rss "$BN" "$OUT" "$s" "$w" --only editcore)
  echo "{\"size\":\"$s\",\"workload\":\"$w\",\"process_kb\":$base,\"load_kb\":$load,\"editcore_kb\":$ed}" >> "$RES/memory.jsonl"
done; done
fi

if stage callgrind && [ "$CALLGRIND" = 1 ] && command -v valgrind >/dev/null; then
  log "callgrind instruction counts (1 MB and 10 MB; noise-free)"
  : > "$RES/callgrind.jsonl"
  mkdir -p "$OUT/cg"
  for s in "${SZ[@]}"; do
    [ "$s" = 10k ] && continue
    for w in $WORKLOADS; do
      skipped "$s" "$w" && { echo "{\"size\":\"$s\",\"workload\":\"$w\",\"contender\":\"editcore\",\"ir\":null,\"note\":\"skipped (SKIP)\"}" >> "$RES/callgrind.jsonl"; continue; }
      for c in editcore memmem; do
        [ "$c" = memmem ] && [ "$w" != W1 ] && continue
        f="$OUT/cg/$s.$w.$c.out"
        if timeout 90 valgrind --tool=callgrind --callgrind-out-file="$f" --toggle-collect='bench_once_*' \
             "$BN" "$OUT" "$s" "$w" --only "$c" >/dev/null 2>"$OUT/cg/$s.$w.$c.log" || [ -s "$f" ]; then
          ir=$(grep -E '^(summary|totals):' "$f" | head -1 | awk '{print $2}')
          echo "{\"size\":\"$s\",\"workload\":\"$w\",\"contender\":\"$c\",\"ir\":${ir:-null}}" >> "$RES/callgrind.jsonl"
        else
          echo "{\"size\":\"$s\",\"workload\":\"$w\",\"contender\":\"$c\",\"ir\":null,\"note\":\"timeout (90 s under callgrind)\"}" >> "$RES/callgrind.jsonl"
        fi
      done
    done
  done
fi

if stage node; then
log "Node: Emscripten (npm package), WASI, Gemini, jsdiff (interleaved)"
node --no-warnings --expose-gc bench/bench_node.mjs --out "$OUT" --sizes "$SIZES" --wasi "$WASI" --budget-ms "$BUDGET_MS" --skip "$SKIP" --boundary > "$RES/node.jsonl" || echo "warning: bench_node.mjs failed (rc $?)" >&2
fi

if stage proc; then
log "whole runs: GNU diff -u, git diff --no-index, codex apply_patch, editcore CLI"
node bench/bench_proc.mjs --out "$OUT" --sizes "$SIZES" --cli "$BUILD/editcore" --budget-ms $((BUDGET_MS * 2)) --skip "$SKIP" > "$RES/proc.jsonl" || echo "warning: bench_proc.mjs failed (rc $?)" >&2
fi

if stage cold; then
log "cold init() + first edit (fresh Node processes)"
: > "$RES/cold.jsonl"
for i in 1 2 3 4 5 6 7; do node bench/cold.mjs --out "$OUT" >> "$RES/cold.jsonl"; done
fi

if stage sizes; then
log ".wasm sizes"
: > "$RES/sizes.jsonl"
for f in "$EM_BUILD/editcore.wasm" js/dist/editcore.wasm js/dist/editcore-lite.wasm build/emscripten/editcore.wasm "$WASI" build/wasi/editcore.wasm; do
  [ -f "$f" ] || continue
  echo "{\"file\":\"$f\",\"raw\":$(stat -c %s "$f"),\"gzip9\":$(gzip -9 -c "$f" | wc -c)}" >> "$RES/sizes.jsonl"
done
fi

# The browser section: Debian's chromium through playwright-core (web-demo's devDependencies).
if [ -x /usr/bin/chromium ] && [ -f build/emscripten/editcore-lite.wasm ]; then
  log "browser (chromium)"
  (cd web-demo && npm ci --no-audit --no-fund --loglevel=error) && node bench/browser_bench.mjs > "$RES/browser.md" || rm -f "$RES/browser.md"
fi

{ grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'; nproc; uname -sr; node --version; cc --version | head -1; git rev-parse --short HEAD; uptime; } > "$RES/machine.txt"

if [ -z "${NO_REPORT:-}" ]; then
  log "report -> BENCHMARKS.md"
  node bench/report.mjs --out "$OUT" > BENCHMARKS.md
fi
log "done"
