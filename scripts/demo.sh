#!/usr/bin/env bash
# The main job on a shipped example: build the native CLI, apply examples/request.json (an
# old/new-string edit of examples/greet.py's content) and print the unified diff.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --native >/dev/null
cmake --preset native >/dev/null
cmake --build --preset native -j"$(nproc 2>/dev/null || echo 2)" --target editcore >/dev/null
./build/native/editcore json --diff < examples/request.json
