#!/usr/bin/env bash
# Runs each fuzzer on its seeds for a fixed number of inputs from a fixed seed (so a CI run
# replays exactly what passed here), capped at SECONDS; fails on any finding. A long campaign:
# run the harnesses directly, e.g. ./fuzz_json -max_total_time=1800 corpus/ seeds/.
# usage: smoke.sh BUILD_DIR SEED_DIR SECONDS fuzzer...
# Inputs that once found a bug live in fuzz/regressions/<fuzzer>/ and are replayed first.
set -euo pipefail
build=$1 seeds=$2 secs=$3
shift 3
passed=0 failed=0
for f in "$@"; do
  corpus="$build/fuzz-corpus/$f"
  mkdir -p "$corpus"
  seed="$seeds/$f"; [ -d "$seed" ] || seed="$seeds/common"
  regressions="$(dirname "$0")/regressions/$f"; [ -d "$regressions" ] || regressions=""
  if "$build/$f" -artifact_prefix="$build/" -seed=1 -runs="${EDITCORE_FUZZ_RUNS:-10000}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
       "$corpus" "$seed" $regressions >"$build/$f.log" 2>&1; then
    echo "fuzz $f: $(grep -E '^stat::number_of_executed_units' "$build/$f.log" | awk '{print $2}') runs, ok"
    passed=$((passed + 1))
  else
    echo "fuzz $f: FINDING"
    grep -m5 -E 'invariant broken|ERROR: |runtime error|Test unit written' "$build/$f.log" || true
    tail -40 "$build/$f.log"
    failed=$((failed + 1))
  fi
done
echo "fuzz-smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
