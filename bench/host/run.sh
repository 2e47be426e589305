#!/usr/bin/env bash
# Host benchmarks (BENCHMARKS.md, "The command line and the WASI command"): whole processes, timed
# from outside with /usr/bin/time (medians of RUNS runs). Needs build/native and build/wasi.
#   bench/host/run.sh            RUNS=11 by default
#   1. editcore apply on a 10 MB file (the reply edits one function) vs editcore json on the same
#      edit (format reply, the file's content in the request); both restore the file first (cp).
#   2. editcore batch over 10 000 requests with 1 KB files: native, and the WASI command under
#      node:wasi; requests per second = 10 000 / wall.
#   3. the same batch split in two by GNU parallel (-j2) vs one process.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${RUNS:-11}"
repo="$PWD"
out="$PWD/bench/out/host"
native="$PWD/build/native/editcore"; wasm="$PWD/build/wasi/editcore.wasm"
node bench/host/make_inputs.mjs "$out" 10000 >/dev/null
cp "$out/big/src/big.py" "$out/big.orig"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall seconds of one run of "$@" (a shell line), median over $runs
timeit() {
  for _ in $(seq 1 "$runs"); do /usr/bin/time -f '%e' -o "$out/t" bash -c "$1" >/dev/null 2>&1; cat "$out/t"; done | median
}
cd "$out"
a=$(timeit "cp big.orig big/src/big.py && cd big && $native apply --quiet reply.md")
j=$(timeit "cp big.orig big/src/big.py && $native json < big/request.json > /dev/null")
c=$(timeit "cp big.orig big/src/big.py")
echo "10 MB: apply ${a}s, json ${j}s, the cp alone ${c}s"
b=$(timeit "$native batch < batch.jsonl > /dev/null")
echo "batch native: ${b}s for 10000 requests = $(awk -v t="$b" 'BEGIN{printf "%.0f", 10000/t}') req/s"
w=$(runs=3 timeit "node $repo/wasm/run-wasi.mjs $wasm batch < batch.jsonl > /dev/null")
echo "batch WASI (node:wasi): ${w}s = $(awk -v t="$w" 'BEGIN{printf "%.0f", 10000/t}') req/s"
p=$(timeit "parallel --pipepart -a batch.jsonl --block -1 -k -j2 $native batch > /dev/null")
echo "batch parallel -j2: ${p}s (one process: ${b}s)"
