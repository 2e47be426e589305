#!/usr/bin/env bash
# Fetches the tree-sitter runtime and grammar tarballs listed in cmake/syntax-packages.txt from
# the npm registry (`npm pack NAME@VERSION`: the registry's own tarball, checked by npm against
# the registry's integrity hash) into third_party/src/npm/, and checks each one's SHA-256
# against the list. A tarball already there with the right hash is kept. Idempotent.
# Called by scripts/install-deps.sh and, when a tarball is missing, by cmake/syntax.cmake.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$here/third_party/src/npm}"
mkdir -p "$dest"
# npm pack's file name: the package name without '@', '/' turned to '-', then -VERSION.tgz.
tgz_name() { local spec="$1" name="${1%@*}" version="${1##*@}"; name="${name#@}"; echo "${name//\//-}-$version.tgz"; }
status=0
while read -r spec sha _; do
  case "$spec" in ''|'#'*) continue ;; esac
  file="$dest/$(tgz_name "$spec")"
  if [ -f "$file" ] && [ "$(sha256sum "$file" | cut -d' ' -f1)" = "$sha" ]; then continue; fi
  rm -f "$file"
  (cd "$dest" && npm pack --silent --no-audit --no-fund "$spec" >/dev/null)
  got="$(sha256sum "$file" | cut -d' ' -f1)"
  if [ "$got" != "$sha" ]; then
    echo "fetch-syntax-sources: $spec: SHA-256 $got, expected $sha" >&2
    rm -f "$file"
    status=1
  fi
done < "$here/cmake/syntax-packages.txt"
exit $status
