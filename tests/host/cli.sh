#!/usr/bin/env bash
# Runs the command-line cases (cases.sh) against one build of editcore and checks them.
#
#   tests/host/cli.sh native BUILD_DIR [TRANSCRIPT]   build/native/editcore
#   tests/host/cli.sh wasi   WASM      [TRANSCRIPT]   the WASI command under node:wasi, root preopened as "."
#   tests/host/cli.sh jco    WASM      [TRANSCRIPT]   the WASI command through jco (component adapter)
#
# Every case gets a fresh root directory; the transcript (exit status, stdout, stderr, the tree
# after each command, time_ms zeroed) must be byte-identical between the builds, which
# tests/unit/host_cli_test.sh checks. Prints "N passed, N failed"; exits 1 on any failure.
set -u
mode="$1"; target="$2"; transcript="${3:-/dev/null}"
here="$(cd "$(dirname "$0")" && pwd)"; repo="$(cd "$here/../.." && pwd)"
T="$(mktemp -d "${TMPDIR:-/tmp}/ec_host.XXXXXX")"
trap 'umount "$T/root/fs" 2>/dev/null; chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
: > "$transcript"

case "$mode" in
  native) BIN="$(cd "$target" && pwd)/editcore"; [ -x "$BIN" ] || { echo "no $BIN"; exit 1; } ;;
  wasi) WASM="$(cd "$(dirname "$target")" && pwd)/$(basename "$target")" ;;
  jco)
    WASM="$(cd "$(dirname "$target")" && pwd)/$(basename "$target")"
    JCO="$here/node_modules/.bin/jco"
    COMPONENT="$T/editcore.component.wasm"
    "$JCO" new "$WASM" --wasi-command -o "$COMPONENT" >/dev/null || { echo "jco new failed"; exit 1; }
    # `jco run` transpiles the component on every call (seconds); it is run once for real here,
    # keeping what it generated (--jco-dir), and each case then starts that same _run.js, which
    # is what jco run spawns. wasm/jco-preopen.mjs (shipped) preopens the current directory as "."
    # only, as Wasmtime's --dir=.
    JCODIR="$T/jco"; mkdir -p "$T/jcoroot"
    (cd "$T/jcoroot" && "$JCO" run --jco-dir "$JCODIR" --jco-import "$repo/wasm/jco-preopen.mjs" "$COMPONENT" version) \
      || { echo "jco run failed"; exit 1; } ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac

# ec ARGS: the program, run in the current directory (the root).
ec() {
  case "$mode" in
    native) "$BIN" "$@" ;;
    wasi) node "$repo/wasm/run-wasi.mjs" --dir . "$WASM" -- "$@" ;;
    jco) node "$JCODIR/_run.js" "$@" ;;
  esac
}

passed=0; failed=0; current=""
OUT="$T/out"; ERR="$T/err"; RC=0
fail() { failed=$((failed + 1)); echo "FAIL [$mode $current] $*"; echo "  last: ${LAST_CMD:-}"; }
ok() { passed=$((passed + 1)); }

tree() { # the files under the root, with contents (symlinks as links), for the transcript
  find . \( -type f -o -type l \) ! -path './.ec_*' | LC_ALL=C sort | while read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"; else echo "$f $(head -c 200 "$f" | od -An -c | tr -s ' \n' ' ')"; fi
  done
}

record() {
  [ -n "${NO_RECORD:-}" ] && return 0
  { echo "== $current: ${LAST_CMD//$T/<tmp>}"; echo "exit $RC"; echo "-- stdout"; sed -E 's/"time_ms":[0-9.]+/"time_ms":0/g' "$OUT"
    echo "-- stderr"; sed "s|$T|<tmp>|g" "$ERR"; echo "-- tree"; tree; } >> "$transcript"
}

run() { # run CMD ARGS... (stdin passes through)
  LAST_CMD="$*"
  "$@" > "$OUT" 2> "$ERR"; RC=$?
  record
}
run_bg() { LAST_CMD="$*"; ( "$@" > "$OUT" 2> "$ERR"; echo $? > "$T/bg.rc" ) & BG=$!; }
wait_bg() { wait "$BG"; RC=$(cat "$T/bg.rc"); record; }
wait_for() { for _ in $(seq 1 500); do [ -e "$1" ] && return 0; sleep 0.02; done; fail "timed out waiting for $1"; }
run_limited() { local kb="$1"; shift; LAST_CMD="(ulimit -f $kb) $*"; ( trap '' XFSZ; ulimit -f "$kb"; "$@" ) > "$OUT" 2> "$ERR"; RC=$?; record; }

# A component's exit is ok or error (wasi:cli/exit): under jco every failure status reads 1.
expect_exit() {
  local want="$1"; [ "$mode" = jco ] && [ "$want" = 2 ] && want=1
  [ "$RC" = "$want" ] && ok || fail "exit $RC, wanted $want; stderr: $(head -c 300 "$ERR")"
}
expect_out() { grep -qF -- "$1" "$OUT" && ok || fail "stdout lacks '$1': $(head -c 300 "$OUT")"; }
expect_err() { grep -qF -- "$1" "$ERR" && ok || fail "stderr lacks '$1': $(head -c 300 "$ERR")"; }
expect_out_empty() { [ ! -s "$OUT" ] && ok || fail "stdout not empty: $(head -c 200 "$OUT")"; }
expect_err_empty() { [ ! -s "$ERR" ] && ok || fail "stderr not empty: $(head -c 200 "$ERR")"; }
expect_nonjson_usage() {
  if [ "$mode" = native ]; then [ "$RC" = 2 ] && grep -q usage "$ERR" && ok || fail "no-argument run should print usage"
  else [ "$RC" = 1 ] && grep -q INVALID_PARAM "$OUT" && ok || fail "no-argument WASI run should be json (empty request)"; fi
}
expect_file() { [ "$(cat "$1" 2>/dev/null; echo .)" = "$(printf "$2"; echo .)" ] && ok || fail "$1 is '$(head -c 200 "$1" 2>&1)'"; }
expect_contains() { grep -qF -- "$2" "$1" && ok || fail "$1 lacks '$2'"; }
expect_absent() { [ ! -e "$1" ] && [ ! -L "$1" ] && ok || fail "$1 exists"; }
expect_symlink() { [ -L "$1" ] && ok || fail "$1 is no longer a symlink"; }
expect_same() { cmp -s "$1" "$2" && ok || fail "$1 differs from $2"; }
expect_mode() { [ "$(stat -c %a "$1")" = "$2" ] && ok || fail "$1 has mode $(stat -c %a "$1"), wanted $2"; }
snapshot() { mkdir -p "$T/snap"; (find . -type f ! -name '.ec_*' -print0 | xargs -0 -r cp --parents -t "$T/snap") 2>/dev/null; }
expect_unchanged() { cmp -s "$1" "$T/snap/$1" && ok || fail "$1 changed"; }
expect_no_temps() { # no temporary, lock or journal of editcore's left anywhere
  local t; t="$(find . \( -name '.*.editcore-*.tmp' -o -name '.*.editcore.lock*' -o -name '.editcore-*.journal' \) | head -n 3)"
  [ -z "$t" ] && ok || fail "debris left: $t"; }
expect_lines() { [ "$(wc -l < "$OUT")" = "$1" ] && ok || fail "stdout has $(wc -l < "$OUT") lines, wanted $1"; }
expect_line() { sed -n "${1}p" "$OUT" | grep -qF -- "$2" && ok || fail "line $1 lacks '$2': $(sed -n "${1}p" "$OUT" | head -c 200)"; }
expect_same_as_diff_u() {
  diff -u "$1" "$2" | tail -n +3 > "$T/want"; tail -n +3 "$OUT" > "$T/got"
  cmp -s "$T/want" "$T/got" && ok || fail "hunks differ from diff -u: $(diff "$T/want" "$T/got" | head -5)"
}

source "$here/cases.sh"
for c in $(declare -F | awk '{print $3}' | grep -E '^(native_)?case_'); do
  case "$c" in native_*) [ "$mode" = native ] || continue ;; esac
  current="$c"
  cd "$T" && chmod -R u+w root 2>/dev/null; rm -rf "$T/root" "$T/snap"; mkdir -p "$T/root"
  cd "$T/root" && "$c"
done
cd "$T"
echo "$mode: $passed passed, $failed failed"
[ "$failed" = 0 ]
