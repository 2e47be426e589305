#!/usr/bin/env bash
# Every test: installs what is missing, builds the three targets (native, WASI, Emscripten),
# then runs the C unit tests (ctest), the conformance vectors through all three builds
# (byte-identical responses required), the npm package's tests, the web demo's tests in
# Debian's chromium, and the hardening checks:
# the same C and conformance suites under ASan + UBSan and under valgrind, and a short
# libFuzzer run of every harness (fuzz-smoke). EDITCORE_QUICK=1 skips the hardening part.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc 2>/dev/null || echo 2)
build() {
  echo "== build $1"
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j"$jobs"
}
for preset in native wasi emscripten; do build "$preset"; done

echo "== C unit tests"
ctest --preset native -j"$jobs"
echo "== only core/src/text/doc.c writes a doc (the diff of a located edit trusts its log; < 1 s)"
bash scripts/check_doc_writers.sh
echo "== protocol docs: every example in docs/*.md is run"
node tests/docs/examples.mjs
echo "== conformance (native, WASI, Emscripten)"
node tests/conformance/run.mjs
echo "== editcore-lite.wasm and editcore.wasm against editcore-tools.wasm (every vector: the same bytes, or deferred)"
node tests/conformance/lite.mjs
# Accuracy on real history (issue 30): a sampled slice of bench/accuracy's corpus — 20 repositories
# fetched from Debian (apt-get source) and npm (npm pack), ~2,800 requests through the native CLI —
# with its thresholds: no wrong answer, byte-identical >= 99 % on positives, every must-refuse refused.
# Adds about 100 s from an empty cache (downloads ~25 MB), about 50 s with it.
echo "== accuracy on real history, sampled slice (bench/accuracy/slice.sh)"
bash bench/accuracy/slice.sh build/native/editcore
echo "== npm package (its devDependencies: typescript, esbuild, webpack, vite for the packaging tests)"
(cd js && npm ci --prefer-offline --no-audit --no-fund >/dev/null && node --test test/)
echo "== MCP server (mcp/: editcore-mcp over stdio, against the reference server-filesystem)"
(cd mcp && npm ci --prefer-offline --no-audit --no-fund >/dev/null && node --test test/*.test.js)
echo "== patch and git apply parity (tests/host/patch_parity.sh, native and WASI: ~15 s)"
bash tests/host/patch_parity.sh build/native build/wasi/editcore.wasm
echo "== hosts under races and kills (tests/host/race, short: ~1.5 min; EDITCORE_LONG=1 runs the campaign of tests/host/DURABILITY.md)"
node tests/host/race/protocol.mjs
node tests/host/race/writers.mjs
node tests/host/race/swap.mjs
node tests/host/race/kill.mjs
echo "== in the browser (web-demo: Debian's chromium driven by playwright-core)"
(cd web-demo && npm ci --prefer-offline --no-audit --no-fund >/dev/null && node --test test/)

if [ "${EDITCORE_QUICK:-0}" != 1 ]; then
  build asan
  echo "== C unit tests under ASan + UBSan"
  ctest --preset asan -j"$jobs"
  echo "== conformance under ASan + UBSan"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 node tests/conformance/run.mjs --builds native --native build/asan/editcore
  echo "== conformance under valgrind memcheck"
  node tests/conformance/run.mjs --builds native --native build/native/editcore \
    --native-wrap "valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
  build fuzz
  echo "== fuzz-smoke"
  cmake --build --preset fuzz --target fuzz-smoke
fi
echo "== all tests passed"
