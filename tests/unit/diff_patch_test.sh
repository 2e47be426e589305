#!/usr/bin/env bash
# Checks that the unified diffs editcore writes are accepted by the real tools: for edge cases
# and seeded random pairs, both `patch -p1` and `git apply` must turn the old file into the new
# one byte for byte (files created and deleted through /dev/null included).
#
#   tests/unit/diff_patch_test.sh [BUILD_DIR | path/to/diff_driver]
#
# Given a build directory (as ctest does), the diff_driver built there is used; without one, or
# when it holds none, the driver is compiled from source with ${CC:-cc} into the temp dir.
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ec_diff_patch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

driver="${1:-}"
if [ -d "$driver" ]; then
  driver="$(find "$driver" -maxdepth 3 -type f -name diff_driver -perm -u+x 2>/dev/null | head -n 1)"
fi
if [ -z "$driver" ]; then
  driver="$tmp/diff_driver"
  ${CC:-cc} -std=c11 -O2 -I "$root/core/include" -I "$root/core/src" "$root"/core/src/base/*.c \
    "$root"/core/src/diff/*.c "$root/tests/unit/diff_driver.c" -o "$driver" || { echo "build failed"; exit 1; }
fi

passed=0
failed=0
fail() { failed=$((failed + 1)); echo "FAIL [$1]: $2"; }

# run_case NAME OLD_FILE_OR_ABSENT NEW_FILE_OR_ABSENT [LABEL] [CONTEXT]
# A missing file stands for an absent side (creation / deletion).
run_case() {
  local name="$1" old="$2" new="$3" label="${4:-f.txt}" ctx="${5:-3}"
  local d="$tmp/case"
  rm -rf "$d"
  mkdir -p "$d/p" "$d/g"
  "$driver" -U "$ctx" "$old" "$new" "$label" "$label" >"$d/diff"
  local rc=$?
  if [ $rc -eq 0 ]; then
    if [ -s "$d/diff" ] || ! cmp -s "$old" "$new"; then fail "$name" "driver said equal"; return; fi
    passed=$((passed + 1))
    return
  fi
  [ $rc -eq 1 ] || { fail "$name" "driver exit $rc"; return; }
  for tool in p g; do
    if [ -e "$old" ]; then mkdir -p "$(dirname "$d/$tool/$label")"; cp "$old" "$d/$tool/$label"; fi
  done
  # GNU patch: strict (no fuzz), no backup files.
  if ! (cd "$d/p" && patch -p1 -s -F0 --no-backup-if-mismatch <"$d/diff" >"$d/patch.log" 2>&1); then
    fail "$name" "patch rejected it: $(head -c 300 "$d/patch.log")"
  elif ! same_result "$d/p/$label" "$new"; then
    fail "$name" "patch produced different content"
  else
    passed=$((passed + 1))
  fi
  # git apply, outside any repository (behaves like patch, with git's parser). Hunks without
  # context need --unidiff-zero: git refuses them by default as unsafe.
  local zero=""
  [ "$ctx" -eq 0 ] && zero="--unidiff-zero"
  if ! (cd "$d/g" && GIT_CEILING_DIRECTORIES="$tmp" git apply -p1 --whitespace=nowarn $zero "$d/diff" >"$d/git.log" 2>&1); then
    fail "$name" "git apply rejected it: $(head -c 300 "$d/git.log")"
  elif ! same_result "$d/g/$label" "$new"; then
    fail "$name" "git apply produced different content"
  else
    passed=$((passed + 1))
  fi
}

# The patched file must equal the new one; when the new side is absent, it must be gone.
same_result() {
  if [ -e "$2" ]; then cmp -s "$1" "$2"; else [ ! -e "$1" ]; fi
}

# Writes $2 (printf format, so \n and \r work) to $1.
put() { printf "$2" >"$1"; }

c="$tmp/in"
mkdir -p "$c"

# ---- edge cases --------------------------------------------------------------------------
put "$c/o1" 'a\nb\nc\n';          put "$c/n1" 'a\nB\nc\n';          run_case "replace middle" "$c/o1" "$c/n1"
put "$c/o2" '';                   put "$c/n2" 'x\ny\n';             run_case "add to empty" "$c/o2" "$c/n2"
                                  put "$c/n3" 'new\nfile\n';        run_case "create" "$c/absent" "$c/n3"
put "$c/o4" 'gone\nfile\n';                                         run_case "delete" "$c/o4" "$c/absent"
put "$c/o5" 'a\nb';               put "$c/n5" 'a\nb\n';             run_case "add final newline" "$c/o5" "$c/n5"
put "$c/o6" 'a\nb\n';             put "$c/n6" 'a\nb';               run_case "remove final newline" "$c/o6" "$c/n6"
put "$c/o7" 'a\nb';               put "$c/n7" 'a\nc';               run_case "no final newline both" "$c/o7" "$c/n7"
put "$c/o8" 'x\nb\nc\nd\ne\nf';   put "$c/n8" 'y\nb\nc\nd\ne\nf';   run_case "no newline in context" "$c/o8" "$c/n8"
put "$c/o9" 'a\r\nb\r\nc\r\n';    put "$c/n9" 'a\r\nB\r\nc\r\n';    run_case "crlf" "$c/o9" "$c/n9"
put "$c/o10" 'a\r\nb\r\n';        put "$c/n10" 'a\nb\n';            run_case "crlf to lf" "$c/o10" "$c/n10"
put "$c/o11" 'a\r\nb';            put "$c/n11" 'a\r\nb\r\n';        run_case "crlf final newline" "$c/o11" "$c/n11"
put "$c/o12" 'only';              put "$c/n12" 'other';             run_case "single line no newline" "$c/o12" "$c/n12"
put "$c/o13" '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n'
put "$c/n13" '1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n11\n12\n13\n14\nZ\n'
run_case "merged and separate hunks" "$c/o13" "$c/n13"
run_case "context 0" "$c/o13" "$c/n13" f.txt 0
run_case "context 1" "$c/o13" "$c/n13" f.txt 1
run_case "context 20" "$c/o13" "$c/n13" f.txt 20
put "$c/o14" 'f() {\n}\n';        put "$c/n14" 'f() {\n}\n\ng() {\n}\n'; run_case "append function" "$c/o14" "$c/n14"
put "$c/o15" 'a\n\n\nb\n';        put "$c/n15" 'a\n\nb\n';          run_case "blank line removed" "$c/o15" "$c/n15"
run_case "path with space" "$c/o1" "$c/n1" "my dir/my file.txt"
run_case "nested path" "$c/o1" "$c/n1" "src/lib/x.c"
put "$c/o16" 'same\n';            put "$c/n16" 'same\n';            run_case "equal" "$c/o16" "$c/n16"
put "$c/o17" '\n\n\n';            put "$c/n17" '\n\n\n\n';          run_case "blank lines only" "$c/o17" "$c/n17"
put "$c/o18" 'a\nb\nc\n';         put "$c/n18" '';                  run_case "empty the file" "$c/o18" "$c/n18"

# ---- random pairs --------------------------------------------------------------------------
# Lines are kept as printf-escaped strings in arrays. No command substitution here: bash reseeds
# RANDOM in subshells, which would make the pairs differ from run to run.
RANDOM=20240607
alphabet=('a' 'b' 'c' '' '}' 'a\r' '  x' '\t{' 'd')
old_lines=()
new_lines=()
for ((k = 0; k < 40; k++)); do
  na=$((3 + RANDOM % 7))
  old_lines=()
  for ((i = RANDOM % 16; i > 0; i--)); do old_lines+=("${alphabet[RANDOM % na]}"); done
  new_lines=()
  if [ $((RANDOM % 4)) -eq 0 ]; then
    for ((i = RANDOM % 16; i > 0; i--)); do new_lines+=("${alphabet[RANDOM % na]}"); done
  else
    for line in "${old_lines[@]}" END; do
      r=$((RANDOM % 10))
      if [ $r -eq 0 ]; then # insert 1-3 lines
        for ((i = 1 + RANDOM % 3; i > 0; i--)); do new_lines+=("${alphabet[RANDOM % na]}"); done
      fi
      [ "$line" = END ] && break
      if [ $r -eq 1 ]; then continue; fi                                            # delete
      if [ $r -eq 2 ]; then new_lines+=("${alphabet[RANDOM % na]}"); continue; fi  # replace
      new_lines+=("$line")
    done
  fi
  fmt=""
  for line in "${old_lines[@]}"; do fmt+="$line\n"; done
  put "$c/ro" "$fmt"
  fmt=""
  for line in "${new_lines[@]}"; do fmt+="$line\n"; done
  put "$c/rn" "$fmt"
  # Sometimes drop the final newline on either side.
  if [ $((RANDOM % 3)) -eq 0 ] && [ -s "$c/ro" ]; then truncate -s -1 "$c/ro"; fi
  if [ $((RANDOM % 3)) -eq 0 ] && [ -s "$c/rn" ]; then truncate -s -1 "$c/rn"; fi
  run_case "random $k" "$c/ro" "$c/rn" f.txt $((RANDOM % 4))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
