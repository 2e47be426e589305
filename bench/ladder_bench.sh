#!/usr/bin/env bash
# Builds and runs the matching-ladder benchmark (bench/ladder_bench.c) against the static library
# of a native build directory.
#   bench/ladder_bench.sh                       BUILD=build/h-ladder2 by default
#   BUILD=build/native bench/ladder_bench.sh --mb 10 --reps 7
#   CALLGRIND=1 bench/ladder_bench.sh           also counts instructions per case (valgrind)
# Extra arguments go to ladder_bench (--mb N, --reps N, --only NAME, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/h-ladder2}
OUT=${OUT:-$BUILD/ladder_bench}
if [ ! -f "$BUILD/libeditcore.a" ]; then
  cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DEDITCORE_WERROR=ON >/dev/null
  cmake --build "$BUILD" -j2 --target editcore_static >/dev/null
fi
LIBS=$(pkg-config --libs libpcre2-8 libcjson 2>/dev/null || echo "-lpcre2-8 -lcjson")
${CC:-cc} -O2 -std=c11 -Wall -Wextra -Icore/include -Icore/src bench/ladder_bench.c "$BUILD/libeditcore.a" $LIBS -lm -o "$OUT"
"$OUT" "$@"
if [ -n "${CALLGRIND:-}" ] && command -v valgrind >/dev/null; then
  # Instructions of one run of each case (strategy alone + whole request), less the cost of
  # generating the file (a run with no case selected).
  ir() {
    local f; f=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$f" "$OUT" --only "$1" --reps 1 "${@:2}" >/dev/null 2>&1 || true
    grep -m1 '^summary:' "$f" | awk '{print $2}'
    rm -f "$f"
  }
  base=$(ir none "$@")
  echo
  echo "instructions (callgrind; one run of the strategy and one request, file generation excluded):"
  for c in exact unescape trim_end indent unicode elision anchor regex fuzzy nomatch; do
    n=$(ir "$c" "$@")
    printf '%-10s %16s Ir\n' "$c" "$(( ${n:-0} - ${base:-0} ))"
  done
fi
