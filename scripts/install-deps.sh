#!/usr/bin/env bash
# Installs everything editcore needs to build and test on a fresh Debian bookworm machine:
# the toolchains (native, WASI, Emscripten), the native libraries, and the PCRE2 / cJSON
# source packages that the wasm builds compile. Idempotent: safe to run again.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"

# Debian's source packages for pcre2 and cjson: apt-get source needs a deb-src entry.
if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  $SUDO tee /etc/apt/sources.list.d/editcore-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

# --native: only what the native build and CLI need (scripts/demo.sh).
native_only=false; [ "${1:-}" = "--native" ] && native_only=true
pkgs=(cmake make gcc pkg-config libpcre2-dev libcjson-dev)
$native_only || pkgs+=(clang lld llvm wasi-libc libclang-rt-14-dev libclang-rt-14-dev-wasm32
      emscripten node-acorn binaryen nodejs git patch diffutils dpkg-dev valgrind gzip time
      chromium parallel)
# npm (tests/host's jco): Debian's, unless a node install already brought its own.
# (the syntax check's grammars come from npm: every build needs it)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ] || { ! $native_only && [ ! -d "$here/third_party/src" ]; }; then
  $SUDO apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The tree-sitter runtime and grammars the syntax check is built from (issue 32): npm tarballs
# pinned with their SHA-256 in cmake/syntax-packages.txt, into third_party/src/npm/.
bash "$here/scripts/fetch-syntax-sources.sh"

$native_only && { echo "install-deps: native done"; exit 0; }

# PCRE2 10.42 and cJSON 1.7.15 sources for the wasm builds (the Debian orig tarballs are
# byte-identical to upstream's; CMake checks their SHA-256).
src="$here/third_party/src"
mkdir -p "$src"
if ! ls "$src"/pcre2_10.42.orig.tar.* >/dev/null 2>&1 || ! ls "$src"/cjson_1.7.15.orig.tar.* >/dev/null 2>&1; then
  (cd "$src" && apt-get source --download-only pcre2/bookworm cjson/bookworm)
fi
# The WASI command as a component (jco run) for tests/unit/host_cli_test.sh: tests/host's npm
# devDependencies, pinned by its package-lock.json.
if [ ! -x "$here/tests/host/node_modules/.bin/jco" ]; then
  (cd "$here/tests/host" && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "install-deps: done"
