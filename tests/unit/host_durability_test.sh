#!/usr/bin/env bash
# Durability of `editcore apply`: the native CLI is SIGKILLed at random moments while it applies
# one reply that edits several large files. After every kill each file must be wholly old or
# wholly new (never truncated); after the next run the set must be whole (all old or all new: a
# kill between renames is finished from the journal) and nothing of editcore's left (temporaries,
# locks, journal). tests/host/race/kill.mjs does the same for the Node host and the MCP server.
#
#   tests/unit/host_durability_test.sh BUILD_DIR          20 runs (the normal suite)
#   EDITCORE_LONG=1 tests/unit/host_durability_test.sh BUILD_DIR    200 runs (tests/host/DURABILITY.md)
#   RUNS=N overrides either. FILES (4) files of MB (4) MiB each.
set -u
build="$(cd "${1:-build/native}" && pwd)"; bin="$build/editcore"
[ -x "$bin" ] || { echo "no $bin"; exit 1; }
runs="${RUNS:-$([ "${EDITCORE_LONG:-0}" = 1 ] && echo 200 || echo 20)}"
nfiles="${FILES:-4}"; mb="${MB:-4}"
T="$(mktemp -d "${TMPDIR:-/tmp}/ec_durable.XXXXXX")"
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/pristine/src" "$T/root"

# The files, and a Codex patch that changes the first and the last line of each.
{ echo '*** Begin Patch'
  for i in $(seq 1 "$nfiles"); do
    lines=$((mb * 1024 * 1024 / 32))
    awk -v n="$lines" -v f="$i" 'BEGIN { for (k = 1; k <= n; k++) printf "file %d line %08d padding....\n", f, k }' > "$T/pristine/src/f$i.txt"
    last=$(tail -n 1 "$T/pristine/src/f$i.txt")
    printf '*** Update File: src/f%d.txt\n@@\n-file %d line 00000001 padding....\n+FILE %d LINE ONE (new)\n' "$i" "$i" "$i"
    printf '@@\n-%s\n+%s (new)\n' "$last" "$last"
  done
  echo '*** End Patch'; } > "$T/patch.txt"
for i in $(seq 1 "$nfiles"); do sha256sum < "$T/pristine/src/f$i.txt" | cut -d' ' -f1 > "$T/old$i"; done

# The new versions, and how long a whole run takes.
cp -r "$T/pristine/." "$T/root/"
t0=$(date +%s%N)
(cd "$T/root" && "$bin" apply --quiet "$T/patch.txt") || { echo "FAIL: the edit does not apply"; exit 1; }
t1=$(date +%s%N)
full_us=$(( (t1 - t0) / 1000 ))
for i in $(seq 1 "$nfiles"); do sha256sum < "$T/root/src/f$i.txt" | cut -d' ' -f1 > "$T/new$i"; done
cmp -s "$T/old1" "$T/new1" && { echo "FAIL: the edit changed nothing"; exit 1; }

passed=0; failed=0; all_old=0; all_new=0; mixed=0; temps_seen=0; unfinished=0
# Whether every lock named (one per line) holds no whole record (empty, or cut before its end).
unfinished_only() {
  while IFS= read -r f; do
    [ -s "$f" ] && [ "$(tail -c1 "$f")" = "}" ] && return 1
  done <<< "$1"
  return 0
}
RANDOM=$$
for run in $(seq 1 "$runs"); do
  rm -rf "$T/root"; mkdir -p "$T/root"; cp -r "$T/pristine/." "$T/root/"
  # A random moment between 0.3 and 1.1 whole runs: the writes happen in the second half (the
  # reads and the matching come first), and a few kills land after the end.
  delay_us=$(( full_us * 3 / 10 + (RANDOM * 32768 + RANDOM) % (full_us * 8 / 10 + 1) ))
  # Every other run spaces its renames 40 ms apart (a test hook), so kills land between them too.
  gap=0; [ $((run % 2)) = 0 ] && { gap=40; delay_us=$((delay_us + (RANDOM % 4) * 40000)); }
  (cd "$T/root" && EDITCORE_TEST_RENAME_GAP_MS=$gap exec "$bin" apply --quiet "$T/patch.txt") >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%06d' "$delay_us")" 2>/dev/null || sleep "$(awk -v u="$delay_us" 'BEGIN{printf "%.6f", u/1e6}')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  n_old=0; n_new=0; bad=""
  for i in $(seq 1 "$nfiles"); do
    h=$(sha256sum < "$T/root/src/f$i.txt" | cut -d' ' -f1)
    if [ "$h" = "$(cat "$T/old$i")" ]; then n_old=$((n_old + 1))
    elif [ "$h" = "$(cat "$T/new$i")" ]; then n_new=$((n_new + 1))
    else bad="$bad f$i.txt"; fi
  done
  if [ -n "$bad" ]; then failed=$((failed + 1)); echo "FAIL run $run (kill after ${delay_us} us): neither old nor new:$bad"; continue; fi
  if [ "$n_old" = "$nfiles" ]; then all_old=$((all_old + 1)); elif [ "$n_new" = "$nfiles" ]; then all_new=$((all_new + 1)); else mixed=$((mixed + 1)); fi
  [ -n "$(find "$T/root" -name '.*editcore*')" ] && temps_seen=$((temps_seen + 1))
  # The next run (whatever it does: apply, or refuse a half-applied patch) finishes the set and removes the debris.
  (cd "$T/root" && "$bin" apply --quiet --dry-run "$T/patch.txt") >/dev/null 2>&1
  left="$(find "$T/root" -name '.*editcore*')"
  # A kill between a lock's creation and its record leaves a lock no one can judge by its owner:
  # it is live until its heartbeat (mtime) is EC_LOCK_STALE_MS (10 s) old, since a writer stopped
  # right there may still go on. Such a lock may survive the next run; made 11 s old (the time
  # passing), it must not survive the one after.
  if [ -n "$left" ] && ! printf '%s\n' "$left" | grep -qv '\.editcore\.lock$' && unfinished_only "$left"; then
    unfinished=$((unfinished + 1))
    printf '%s\n' "$left" | while IFS= read -r f; do touch -d '-11 seconds' "$f"; done
    (cd "$T/root" && "$bin" apply --quiet --dry-run "$T/patch.txt") >/dev/null 2>&1
    left="$(find "$T/root" -name '.*editcore*')"
  fi
  if [ -n "$left" ]; then failed=$((failed + 1)); echo "FAIL run $run: debris survives the next run: $left"; continue; fi
  n_old=0; n_new=0
  for i in $(seq 1 "$nfiles"); do
    h=$(sha256sum < "$T/root/src/f$i.txt" | cut -d' ' -f1)
    if [ "$h" = "$(cat "$T/old$i")" ]; then n_old=$((n_old + 1)); elif [ "$h" = "$(cat "$T/new$i")" ]; then n_new=$((n_new + 1)); fi
  done
  if [ "$n_old" != "$nfiles" ] && [ "$n_new" != "$nfiles" ]; then
    failed=$((failed + 1)); echo "FAIL run $run: a mixed set after the next run ($n_old old, $n_new new)"; continue
  fi
  passed=$((passed + 1))
done
echo "durability: $runs SIGKILLed runs (half with renames 40 ms apart) of apply over $nfiles files of $mb MiB (a whole run: $((full_us / 1000)) ms):" \
     "$all_old all old, $all_new all new, $mixed killed between renames (each file whole; every set finished by the next run)," \
     "$temps_seen left temporaries, locks or a journal (all gone after the next run;" \
     "$unfinished of them a lock killed before its record, gone once 10 s old)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
