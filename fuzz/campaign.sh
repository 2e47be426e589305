#!/usr/bin/env bash
# The long fuzzing campaign (issue 8): each harness fuzzes until it has used CPU_SECONDS of CPU
# time (measured from /proc, so a loaded machine stretches the wall time, never shortens the
# fuzzing), JOBS harnesses at a time. The corpus in OUT/corpus/<fuzzer> persists between runs, so a
# campaign can be resumed; the CPU already spent is read back from OUT/<fuzzer>.cpu.
# A finding does not end the harness's budget: the input is kept in OUT/findings/<fuzzer>/ and
# fuzzing restarts (at most 5 times) with what is left of the budget.
# Writes OUT/summary.tsv: fuzzer, CPU s, executions, coverage edges, features, corpus files, findings.
#
# usage: campaign.sh BUILD_DIR SEED_DIR OUT_DIR CPU_SECONDS JOBS fuzzer...
#   e.g. fuzz/campaign.sh build/fuzz/fuzz build/fuzz/fuzz-seeds /var/tmp/ec-fuzz 1800 2 fuzz_json ...
set -uo pipefail
build=$1 seeds=$2 out=$3 budget=$4 jobs=$5
shift 5
mkdir -p "$out"
tick=$(getconf CLK_TCK)

cpu_of() { # utime + stime of a live process, in seconds
  { awk -v t="$tick" '{ sub(/^.*\) /, ""); print int(($12 + $13) / t) }' "/proc/$1/stat" || echo 0; } 2>/dev/null
}

one() {
  local f=$1 corpus="$out/corpus/$1" found="$out/findings/$1" log="$out/$1.log"
  mkdir -p "$corpus" "$found"
  local seed="$seeds/$f"; [ -d "$seed" ] || seed="$seeds/common"
  local spent=0 restarts=0 execs=0
  [ -f "$out/$f.cpu" ] && spent=$(cat "$out/$f.cpu")
  [ -f "$out/$f.execs" ] && execs=$(cat "$out/$f.execs")
  while [ "$spent" -lt "$budget" ] && [ "$restarts" -le 5 ]; do
    local seg="$out/$f.seg$restarts.log"
    "$build/$f" -artifact_prefix="$found/" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 "$corpus" "$seed" >"$seg" 2>&1 &
    local pid=$! used=0
    while kill -0 "$pid" 2>/dev/null; do
      sleep 5
      local now; now=$(cpu_of "$pid")
      [ "$now" -gt "$used" ] && used=$now # keep the last reading once the process is gone
      if [ $((spent + used)) -ge "$budget" ]; then kill -INT "$pid" 2>/dev/null; fi
    done
    wait "$pid"; local rc=$?
    spent=$((spent + used))
    execs=$((execs + $(awk '/^stat::number_of_executed_units/ {print $2}' "$seg" | tail -1)))
    echo "$spent" >"$out/$f.cpu"; echo "$execs" >"$out/$f.execs"
    cat "$seg" >>"$log"
    # SIGINT at the budget exits with libFuzzer's interrupt code (72 by default) or 0; anything
    # else is a finding (crash, leak, timeout, OOM), already written to $found.
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 72 ] && [ "$rc" -ne 130 ]; then
      echo "campaign $f: finding (exit $rc) after ${spent}s CPU" >&2
      restarts=$((restarts + 1))
    elif [ "$spent" -lt "$budget" ]; then
      restarts=$((restarts + 1)) # exited early without a finding: do not spin
    fi
  done
  local cov ft
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$f" "$spent" "$execs" "${cov:-0}" "${ft:-0}" \
    "$(ls "$corpus" | wc -l)" "$(ls "$found" | wc -l)" >"$out/$f.summary"
  echo "campaign $f: done, ${spent}s CPU, $execs executions" >&2
}

running=0
for f in "$@"; do
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  one "$f" &
  running=$((running + 1))
done
wait
printf 'fuzzer\tcpu_s\texecutions\tcov\tft\tcorpus\tfindings\n' >"$out/summary.tsv"
for f in "$@"; do cat "$out/$f.summary" >>"$out/summary.tsv"; done
column -t -s $'\t' "$out/summary.tsv"
