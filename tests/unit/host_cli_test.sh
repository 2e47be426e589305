#!/usr/bin/env bash
# The command-line host, as each build runs it: the cases of tests/host/cases.sh through the
# native CLI, then through the WASI command under node:wasi (and under jco when
# tests/host/node_modules has it), with byte-identical transcripts required between builds
# (the native-only cases aside: permissions, signals and env hooks WASI does not have).
#
#   tests/unit/host_cli_test.sh BUILD_DIR     (ctest passes build/native; the WASI command is
#                                              looked for in build/wasi beside it)
set -u
build="$(cd "${1:-build/native}" && pwd)"
here="$(cd "$(dirname "$0")/../host" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ec_host_cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
failed=0
bash "$here/cli.sh" native "$build" "$tmp/native.txt" || failed=1
# The transcript of the cases every build runs.
common() { awk '/^== /{keep = ($2 !~ /^native_/)} keep' "$1"; }
wasm="$(dirname "$build")/wasi/editcore.wasm"
if [ ! -f "$wasm" ]; then
  echo "SKIPPED: no WASI build at $wasm (cmake --preset wasi && cmake --build --preset wasi)"
  # scripts/test.sh builds WASI before ctest: under CI a missing module is a broken run, not a skip
  [ "${CI:-}" = true ] && { echo "FAIL: the WASI build is missing under CI"; exit 1; }
  [ "$failed" = 0 ] && exit 77 || exit 1
fi
bash "$here/cli.sh" wasi "$wasm" "$tmp/wasi.txt" || failed=1
if ! cmp -s <(common "$tmp/native.txt") <(common "$tmp/wasi.txt"); then
  echo "FAIL: native and WASI (node:wasi) transcripts differ:"; diff <(common "$tmp/native.txt") <(common "$tmp/wasi.txt") | head -40; failed=1
else
  echo "native and WASI (node:wasi) transcripts are byte-identical ($(grep -c '^== ' "$tmp/wasi.txt") commands)"
fi
if [ -x "$here/node_modules/.bin/jco" ]; then
  bash "$here/cli.sh" jco "$wasm" "$tmp/jco.txt" || failed=1
  # The one allowed difference: a component exits ok or error, so status 2 reads 1.
  if ! cmp -s <(common "$tmp/native.txt" | sed 's/^exit 2$/exit 1/') <(common "$tmp/jco.txt"); then
    echo "FAIL: native and jco transcripts differ:"
    diff <(common "$tmp/native.txt" | sed 's/^exit 2$/exit 1/') <(common "$tmp/jco.txt") | head -40; failed=1
  else
    echo "native and WASI (jco run) transcripts are byte-identical"
  fi
else
  echo "NOT RUN: jco (npm install in tests/host; scripts/test.sh does it)"
  # CI installs it (scripts/install-deps.sh): there a missing jco is a broken install, not a skip
  [ "${CI:-}" = true ] && { echo "FAIL: jco is missing under CI"; failed=1; }
fi
# What each runtime preopens (run-wasi.mjs --dir as Wasmtime's, the shipped jco preopen module).
jco="$here/node_modules/.bin/jco"; [ -x "$jco" ] || jco=""
bash "$here/runtimes.sh" "$wasm" $jco || failed=1
[ "$failed" = 0 ] && echo "host_cli: passed" || echo "host_cli: FAILED"
[ "$failed" = 0 ]
