#!/usr/bin/env bash
# What each WASI runtime preopens, as docs/cli.md says (issue 31 item 2):
#   node wasm/run-wasi.mjs --dir DIR      DIR seen by the guest under the same path (Wasmtime's --dir)
#   node wasm/run-wasi.mjs --dir H::G     H seen under G
#   jco run --jco-import wasm/jco-preopen.mjs   "." (the current directory), or EDITCORE_JCO_DIRS
#   no preopen                            the root cannot be opened: exit 2 (1 under jco) with a hint
#
#   tests/host/runtimes.sh WASM [JCO_BIN]    (JCO_BIN: tests/host/node_modules/.bin/jco, optional)
set -u
wasm="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; jco="${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
T="$(mktemp -d "${TMPDIR:-/tmp}/ec_runtimes.XXXXXX")"; trap 'rm -rf "$T"' EXIT
passed=0; failed=0
check() { # check NAME WANT_EXIT FILE WANT_CONTENT -- CMD...
  local name="$1" want="$2" file="$3" content="$4"; shift 5
  "$@" > "$T/out" 2> "$T/err"; local rc=$?
  if [ "$rc" = "$want" ] && [ "$(cat "$file" 2>/dev/null)" = "$content" ]; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL [$name] exit $rc (wanted $want), $file: '$(cat "$file" 2>/dev/null)'; stderr: $(head -c 300 "$T/err")"; fi
}
fresh() { # a project in $T/w: proj/f.txt and a reply that changes it
  rm -rf "$T/w"; mkdir -p "$T/w/proj"; cd "$T/w"
  printf 'a\nb\n' > proj/f.txt
  printf '```diff\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n```\n' > proj/reply.md
}
wasi() { node "$repo/wasm/run-wasi.mjs" "$@"; }

fresh; check "run-wasi --dir DIR (same guest path, relative)" 0 proj/f.txt $'a\nc' -- \
  wasi --dir proj "$wasm" -- apply --root proj proj/reply.md
fresh; check "run-wasi --dir ABS (same guest path, absolute)" 0 proj/f.txt $'a\nc' -- \
  wasi --dir "$T/w/proj" "$wasm" -- apply --root "$T/w/proj" "$T/w/proj/reply.md"
fresh; check "run-wasi --dir=HOST::GUEST" 0 proj/f.txt $'a\nc' -- \
  wasi --dir="proj::/work" "$wasm" -- apply --root /work /work/reply.md
fresh; check "run-wasi --dir HOST::." 0 proj/f.txt $'a\nc' -- \
  wasi --dir "proj::." "$wasm" -- apply reply.md
fresh; check "run-wasi without the root preopened" 2 proj/f.txt $'a\nb' -- \
  wasi --dir proj "$wasm" -- apply proj/reply.md
grep -q "it is not preopened (run with --dir ." "$T/err" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: no preopen hint: $(cat "$T/err")"; }
fresh; check "run-wasi: a path outside every preopen" 2 proj/f.txt $'a\nb' -- \
  wasi --dir "proj::/work" "$wasm" -- apply --root /work proj/reply.md

if [ -n "$jco" ]; then
  "$jco" new "$wasm" --wasi-command -o "$T/c.wasm" > /dev/null || { echo "jco new failed"; exit 1; }
  # One real `jco run` (transpiles, keeps _run.js in --jco-dir); the other runs start that script.
  fresh; check "jco run --jco-import wasm/jco-preopen.mjs (\".\" preopened)" 0 proj/f.txt $'a\nc' -- \
    bash -c "cd proj && '$jco' run --jco-dir '$T/jco' --jco-import '$repo/wasm/jco-preopen.mjs' '$T/c.wasm' apply reply.md"
  fresh; check "jco, EDITCORE_JCO_DIRS=DIR" 0 proj/f.txt $'a\nc' -- \
    env EDITCORE_JCO_DIRS=proj node "$T/jco/_run.js" apply --root proj proj/reply.md
  fresh; check "jco, EDITCORE_JCO_DIRS=HOST::GUEST" 0 proj/f.txt $'a\nc' -- \
    env EDITCORE_JCO_DIRS="$T/w/proj::/work" node "$T/jco/_run.js" apply --root /work /work/reply.md
  fresh; check "jco, the root not preopened" 1 proj/f.txt $'a\nb' -- \
    env EDITCORE_JCO_DIRS=proj node "$T/jco/_run.js" apply proj/reply.md
  grep -q "it is not preopened" "$T/err" && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAIL: jco: no preopen hint: $(cat "$T/err")"; }
fi
echo "runtimes: $passed passed, $failed failed"
[ "$failed" = 0 ]
