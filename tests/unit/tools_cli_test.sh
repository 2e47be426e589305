#!/usr/bin/env bash
# `editcore tool NAME` (SPEC §8.1) through the native CLI and the WASI command (node:wasi, the root
# preopened as "."): every rule of the standard Edit on real files — unique success, not found,
# several matches, CRLF kept, dry run, CONFLICT on a stale mtime and size, ACCESS_DENIED for `..`,
# absolute and symlink escapes, IS_DIRECTORY, NOT_FOUND, BINARY_FILE, unknown parameters — with the
# exit status (0 success/partial, 1 error result, 2 usage) and the files afterwards checked, and
# the two builds' results required byte-identical (time_ms and the root aside).
#
#   tests/unit/tools_cli_test.sh BUILD_DIR     (the WASI command is looked for in build/wasi)
set -u
build="$(cd "${1:-build/native}" && pwd)"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
wasm="$(dirname "$build")/wasi/editcore.wasm"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ec_tools_cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

run() { # run BUILD DIR TOOL ARGS_JSON [flags...] -> stdout in $out, exit in $rc
  local b="$1" dir="$2" tool="$3" args="$4"; shift 4
  if [ "$b" = native ]; then out="$(cd "$dir" && printf '%s' "$args" | "$build/editcore" tool "$tool" "$@")"; rc=$?
  else out="$(cd "$dir" && printf '%s' "$args" | node "$repo/wasm/run-wasi.mjs" --dir . "$wasm" -- tool "$tool" "$@")"; rc=$?; fi
}
check() { # check NAME COND
  if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL [$b] $1: rc=$rc out=${out:0:400}"; fi
}
fresh() {
  rm -rf "$tmp/$b" && mkdir -p "$tmp/$b/root/d" "$tmp/$b/outside" && cd "$tmp/$b/root" || exit 2
  printf 'def f():\n    x = 1\n    return x\n' > a.py
  printf 'x = 1\r\ny = 2\r\n' > crlf.py
  printf 'x = 1\ny\nx = 1\n' > twice.py
  printf 'x = 1\0\n' > bin.py
  printf 'x = 1\n' > ../outside/secret.py
  ln -s ../outside/secret.py escape.py
  ln -s a.py inner.py
  cd - >/dev/null
}
builds="native"
if [ -f "$wasm" ]; then builds="native wasi"; else echo "note: no WASI build at $wasm; native only"; fi
for b in $builds; do
  fresh; R="$tmp/$b/root"
  run $b "$R" Edit '{"path":"a.py","old_string":"x = 1","new_string":"x = 2"}'
  check "unique success" '[ $rc = 0 ] && [[ $out == *"\"status\":\"success\""* ]] && grep -q "x = 2" "$R/a.py"'
  echo "$out" | sed 's/"time_ms":[0-9.]*//; s#"cwd":"[^"]*"##; s#"path_resolved":"[^"]*"##' > "$tmp/$b.success"
  run $b "$R" Edit '{"path":"a.py","old_string":"x = 9","new_string":"x = 3"}'
  check "not found" '[ $rc = 1 ] && [[ $out == *"INVALID_PARAM"*"Read the file again"* ]]'
  run $b "$R" Edit '{"path":"twice.py","old_string":"x = 1","new_string":"x = 3"}'
  check "several matches" '[ $rc = 1 ] && [[ $out == *"occurs 2 times"*"lines 1, 3"* ]] && [ "$(cat "$R/twice.py")" = "$(printf "x = 1\ny\nx = 1")" ]'
  run $b "$R" Edit '{"path":"crlf.py","old_string":"x = 1\ny = 2","new_string":"x = 5\ny = 6"}'
  check "CRLF kept" '[ $rc = 0 ] && [ "$(od -An -c "$R/crlf.py" | tr -d " \n")" = "x=5\r\ny=6\r\n" ]'
  run $b "$R" Edit '{"path":"a.py","old_string":"x = 2","new_string":"x = 7","dry_run":true}'
  check "dry run partial" '[ $rc = 0 ] && [[ $out == *"\"status\":\"partial\""* ]] && grep -q "x = 2" "$R/a.py"'
  run $b "$R" Edit '{"path":"a.py","old_string":"x = 2","new_string":"x = 7"}' --dry-run
  check "--dry-run" '[ $rc = 0 ] && [[ $out == *"\"applied\":false"* ]] && grep -q "x = 2" "$R/a.py"'
  run $b "$R" Read '{"path":"a.py"}'
  size=$(echo "$out" | sed -n 's/.*"file_size_bytes":\([0-9]*\).*/\1/p'); mtime=$(echo "$out" | sed -n 's/.*"file_mtime_ms":\([0-9]*\).*/\1/p')
  check "Read stats" '[ $rc = 0 ] && [ "$size" = 32 ] && [ -n "$mtime" ]'
  run $b "$R" Edit "{\"path\":\"a.py\",\"old_string\":\"x = 2\",\"new_string\":\"x = 7\",\"expected_mtime_ms\":$((mtime - 1000))}"
  check "stale mtime" '[ $rc = 1 ] && [[ $out == *"CONFLICT"* ]] && grep -q "x = 2" "$R/a.py"'
  run $b "$R" Edit "{\"path\":\"a.py\",\"old_string\":\"x = 2\",\"new_string\":\"x = 7\",\"expected_size_bytes\":$((size + 1))}"
  check "stale size" '[ $rc = 1 ] && [[ $out == *"CONFLICT"* ]]'
  run $b "$R" Edit "{\"path\":\"a.py\",\"old_string\":\"x = 2\",\"new_string\":\"x = 7\",\"expected_size_bytes\":$size,\"expected_mtime_ms\":$mtime}"
  check "lock holds" '[ $rc = 0 ] && grep -q "x = 7" "$R/a.py"'
  run $b "$R" Edit '{"path":"../outside/secret.py","old_string":"x = 1","new_string":"x = 2"}'
  check "dotdot escape" '[ $rc = 1 ] && [[ $out == *"ACCESS_DENIED"* ]]'
  run $b "$R" Edit '{"path":"/etc/hostname","old_string":"x","new_string":"y"}'
  check "absolute escape" '[ $rc = 1 ] && [[ $out == *"ACCESS_DENIED"* ]]'
  run $b "$R" Edit '{"path":"escape.py","old_string":"x = 1","new_string":"x = 2"}'
  check "symlink escape" '[ $rc = 1 ] && [[ $out == *"ACCESS_DENIED"* ]] && grep -q "x = 1" "$tmp/$b/outside/secret.py"'
  run $b "$R" Edit '{"path":"inner.py","old_string":"x = 7","new_string":"x = 8"}'
  check "symlink inside" '[ $rc = 0 ] && [ -L "$R/inner.py" ] && grep -q "x = 8" "$R/a.py"'
  run $b "$R" Edit '{"path":"d","old_string":"x","new_string":"y"}'
  check "is directory" '[ $rc = 1 ] && [[ $out == *"IS_DIRECTORY"* ]]'
  run $b "$R" Edit '{"path":"nope.py","old_string":"x","new_string":"y"}'
  check "not found file" '[ $rc = 1 ] && [[ $out == *"NOT_FOUND"* ]]'
  run $b "$R" Edit '{"path":"bin.py","old_string":"x = 1","new_string":"y"}'
  check "binary" '[ $rc = 1 ] && [[ $out == *"BINARY_FILE"* ]]'
  run $b "$R" Edit '{"path":"a.py","old_string":"x","new_string":"y","replace_all":true}'
  check "unknown parameter" '[ $rc = 1 ] && [[ $out == *"INVALID_PARAM"*"replace_all"* ]]'
  run $b "$R" Write '{"path":"new/dir/n.txt","content":"hi\n"}'
  check "Write creates dirs" '[ $rc = 0 ] && [ "$(cat "$R/new/dir/n.txt")" = hi ]'
  run $b "$R" Edit 'not json'
  check "usage: bad args" '[ $rc = 2 ]'
  run $b "$R" nope '{}'
  check "usage: unknown tool" '[ $rc = 2 ]'
  # --state FILE: the history undo_edit needs survives between calls, replaced whole (a new inode,
  # so a killed run leaves the old history or the new), and a history that cannot be saved is an error.
  # (The state lives inside the root: the WASI command sees only its preopened directory.)
  printf 'v = 1\n' > "$R/u.py"
  run $b "$R" str_replace_editor '{"command":"str_replace","path":"u.py","old_str":"v = 1","new_str":"v = 2"}' --state .state.json
  ino1=$(stat -c %i "$R/.state.json" 2>/dev/null)
  check "state saved" '[ $rc = 0 ] && [ -s "$R/.state.json" ]'
  run $b "$R" str_replace_editor '{"command":"str_replace","path":"u.py","old_str":"v = 2","new_str":"v = 3"}' --state .state.json
  check "state replaced, not rewritten in place" '[ $rc = 0 ] && [ "$(stat -c %i "$R/.state.json")" != "$ino1" ]'
  run $b "$R" str_replace_editor '{"command":"undo_edit","path":"u.py"}' --state .state.json
  check "undo_edit from the saved history" '[ $rc = 0 ] && [ "$(cat "$R/u.py")" = "v = 2" ]'
  if [ $b = native ]; then # (the WASI command sees only its preopened root)
    run $b "$R" str_replace_editor '{"command":"str_replace","path":"u.py","old_str":"v = 2","new_str":"v = 4"}' --state no-such-dir/state.json
    check "a history that cannot be saved is exit 2" '[ $rc = 2 ]'
  fi
  check "no temporaries left" '[ -z "$(find "$R" -name "*.tmp")" ]'
done
# The MCP filesystem tools through the CLI (native): the file information a host reports; what
# this host does not do yet (list, bytes, mkdir, move: editcore-mcp and runTool do) said plainly.
b=native; fresh; R="$tmp/$b/root"
run $b "$R" mcp/get_file_info '{"path":"a.py"}'
check "mcp get_file_info" '[ $rc = 0 ] && [[ $out == *"permissions: $(stat -c %a "$R/a.py")"* ]] && [[ $out == *"modified: "[A-Z][a-z][a-z]" "* ]]'
run $b "$R" mcp/list_directory '{"path":"."}'
check "mcp list_directory refused plainly" '[ $rc = 1 ] && [[ $out == *"does not list directories"* ]]'
run $b "$R" mcp/create_directory '{"path":"n"}'
check "mcp create_directory refused plainly" '[ $rc = 1 ] && [[ $out == *"does not create directories"* ]] && [ ! -e "$R/n" ]'
if [ -f "$tmp/wasi.success" ]; then
  b=both; rc=0; out=""
  check "native and WASI agree" 'cmp -s "$tmp/native.success" "$tmp/wasi.success"'
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
