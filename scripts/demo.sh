#!/usr/bin/env bash
# The main job on a shipped example: build the native CLI, copy examples/ to a scratch directory
# and apply examples/reply.md (a model's reply: prose and a SEARCH/REPLACE block for
# examples/greet.py) to it with `editcore apply`, printing the unified diff. The repository's
# examples/ is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --native >/dev/null
cmake --preset native >/dev/null
cmake --build --preset native -j"$(nproc 2>/dev/null || echo 2)" --target editcore >/dev/null
work="$(mktemp -d "${TMPDIR:-/tmp}/editcore-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r examples "$work/"
./build/native/editcore apply --root "$work" examples/reply.md
