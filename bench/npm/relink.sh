#!/usr/bin/env bash
# A copy of the packed npm package whose editcore.wasm is the Emscripten build's objects linked
# again with other link flags (the build's own link command, its -Oz replaced), for
# bench/npm/profile.mjs (names: --profiling-funcs) and bench/npm/ab.mjs (a link option's effect).
#   bench/npm/relink.sh DIR "-Oz --profiling-funcs"     then  node bench/npm/profile.mjs --pkg DIR
#   bench/npm/relink.sh DIR -Os                         then  node bench/npm/ab.mjs --pkg build/bench-npm/pkg/package --pkg DIR
# A third argument names the module relinked (default editcore; the benchmark's init({ full: true })
# runs on editcore-tools):  bench/npm/relink.sh DIR "-Oz --profiling-funcs" editcore-tools
# Needs build/emscripten (cmake --build --preset emscripten) and build/bench-npm/pkg (bench/npm/run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(realpath -m "$1"); flags=$2; module=${3:-editcore}
export NODE_PATH=/usr/share/nodejs
link=build/emscripten/wasm/CMakeFiles/${module//-/_}.dir/link.txt
[ -f "$link" ] && [ -d build/bench-npm/pkg/package ] || { echo "needs build/emscripten and bench/npm/run.sh's build/bench-npm/pkg" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir/link" && cp -r build/bench-npm/pkg/package/. "$dir/"
cmd=$(sed "s# -Oz # $flags #; s# -o ../$module.mjs # -o $dir/link/$module.mjs #" "$link")
(cd build/emscripten/wasm && sh -c "$cmd")
node js/scripts/build-dist.mjs "$dir/link/$module.mjs" "$dir/link/$module.wasm" "$dir/dist"
ls -l "$dir/dist/$module.wasm"
