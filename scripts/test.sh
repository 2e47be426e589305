#!/usr/bin/env bash
# Every test: installs what is missing, builds the three targets (native, WASI, Emscripten),
# then runs the C unit tests (ctest), the conformance vectors through all three builds
# (byte-identical responses required) and the npm package's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc 2>/dev/null || echo 2)
for preset in native wasi emscripten; do
  echo "== build $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j"$jobs"
done
echo "== C unit tests"
ctest --preset native -j"$jobs"
echo "== conformance (native, WASI, Emscripten)"
node tests/conformance/run.mjs
echo "== npm package"
(cd js && node --test test/)
