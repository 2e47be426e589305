#!/usr/bin/env bash
# editcore apply against GNU patch and git apply on the same inputs (issue 31 item 1).
#
#   tests/host/patch_parity.sh BUILD_DIR [WASM]
#     BUILD_DIR: build/native (its editcore); WASM: the WASI command (build/wasi/editcore.wasm),
#     run under node:wasi with the tree preopened as "." and the patch on stdin.
#
# Each case makes a tree, a patch (git diff, git diff --no-prefix, diff -ruN, git format-patch)
# and the flags each tool takes for the same intent (patch -p1 / git apply / editcore apply);
# every tool runs on its own copy of the tree. Required: the same files with the same bytes
# afterwards, and the same verdict (exit 0, or not 0). Where a tool is deliberately different
# (docs/cli.md, Patches: GNU patch is not all-or-nothing) the case says so and that tool's
# tree is not compared. Prints "N passed, N failed"; exits 1 on any failure.
set -u
bin="$(cd "$1" && pwd)/editcore"; wasm="${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
command -v patch > /dev/null && command -v git > /dev/null || { echo "patch_parity: needs GNU patch and git (apt: patch git)"; exit 1; }
T="$(mktemp -d "${TMPDIR:-/tmp}/ec_parity.XXXXXX")"; trap 'rm -rf "$T"' EXIT
export GIT_CEILING_DIRECTORIES="$T" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t \
  GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
passed=0; failed=0
fail() { failed=$((failed + 1)); echo "FAIL [$case] $*"; }
ok() { passed=$((passed + 1)); }

# Trees: v1 and v2 of a small project (a change, a rename, an addition, a deletion, a file
# whose removed line is "- ", which looks like format-patch's signature).
v1() { mkdir -p "$1/src" && cd "$1" && printf 'one\ntwo\nthree\nfour\nfive\n' > a.txt && printf 'readme\n' > README &&
  printf 'int x = 1;\nint y = 2;\n' > src/x.c && printf 'gone\n' > del.txt && printf '# list\n- \n- item\n' > list.md && cd - > /dev/null; }
to_v2() { cd "$1" && printf 'one\n2\nthree\nfour\nfive\n' > a.txt && mv README README.md && printf 'int x = 10;\nint y = 2;\n' > src/x.c &&
  rm del.txt && mkdir -p lib && printf 'fresh\n' > lib/new.txt && printf '# list\n- item\n' > list.md && cd - > /dev/null; }
tree_sum() { (cd "$1" && find . -type f ! -path './.git/*' -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum); }

# A git history v1 -> v2 in two commits (the second touches a.txt again), for git diff / format-patch.
mkdir "$T/hist" && (cd "$T/hist" && git init -q . && v1 . && git add -A && git commit -qm v1 &&
  to_v2 . && printf 'one\n2\nthree\nfour\n5\n' > a.txt && git add -A && git commit -qm 'v2 first' &&
  printf 'one\n2\nthree\nfour\nfive\n' > a.txt && git add -A && git commit -qm 'v2 second') || { echo "git history failed"; exit 1; }
mkdir "$T/v1" "$T/v2"; v1 "$T/v1"; v1 "$T/v2"; to_v2 "$T/v2"
(cd "$T/hist" && git diff -M HEAD~2 HEAD) > "$T/git.diff"
(cd "$T/hist" && git diff -M --no-prefix HEAD~2 HEAD) > "$T/noprefix.diff"
(cd "$T/hist" && git format-patch -q --stdout HEAD~2) > "$T/series.mbox"
(cd "$T" && diff -ruN v1 v2) > "$T/tree.diff"
mkdir -p "$T/deep/old" "$T/deep/new"; cp -r "$T/v1" "$T/deep/old/proj"; cp -r "$T/v2" "$T/deep/new/proj"
(cd "$T/deep" && diff -ruN old/proj new/proj) > "$T/deep.diff"
# A series whose second patch does not apply to what the first leaves (all or nothing).
awk '/^Subject: \[PATCH 2\/2\]/{two=1} two && /^ four$/{print " FOUR"; next} {print}' "$T/series.mbox" > "$T/broken.mbox"
cmp -s "$T/series.mbox" "$T/broken.mbox" && { echo "broken.mbox is not broken"; exit 1; }

# run_tool NAME BASE PATCH ARGS...: the tool on a copy of BASE; sets rc_NAME and sum_NAME, keeps its output.
run_tool() {
  local name="$1" base="$2" p="$3"; shift 3
  local d="$T/run/$case/$name"; mkdir -p "$d"; cp -r "$base/." "$d/"
  case "$name" in
    patch) (cd "$d" && patch -s -f --no-backup-if-mismatch -r - "$@" < "$p") ;;
    git) (cd "$d" && git apply "$@" "$p") ;;
    native) (cd "$d" && "$bin" apply "$@" - < "$p") ;;
    wasi) (cd "$d" && node "$repo/wasm/run-wasi.mjs" --dir . "$wasm" -- apply "$@" - < "$p") ;;
  esac > "$T/out.$name" 2> "$T/err.$name"
  eval "rc_$name=\$?"; eval "sum_$name=\"\$(tree_sum \"\$d\")\""
}

# same CASE BASE WANT PATCH 'patch args' 'git args' 'editcore args' [skip-patch-tree]
#   WANT: the tree every tool must leave (a directory), or "base" for unchanged.
same() {
  case="$1"; local base="$2" want="$3" p="$4" pa="$5" ga="$6" ea="$7" skip="${8:-}"
  [ "$want" = base ] && want="$base"
  local want_sum; want_sum="$(tree_sum "$want")"
  # shellcheck disable=SC2086
  run_tool patch "$base" "$p" $pa; run_tool git "$base" "$p" $ga; run_tool native "$base" "$p" $ea
  [ -n "$wasm" ] && run_tool wasi "$base" "$p" $ea
  local tools="patch git native"; [ -n "$wasm" ] && tools="$tools wasi"
  local verdict=""
  for t in $tools; do
    local rc sum; eval "rc=\$rc_$t; sum=\$sum_$t"
    local v=$([ "$rc" = 0 ] && echo 0 || echo non-zero)
    [ -z "$verdict" ] && verdict="$v"
    [ "$v" = "$verdict" ] && ok || fail "$t exits $rc, patch's verdict is $verdict; stderr: $(head -c 300 "$T/err.$t")"
    [ "$t" = patch ] && [ -n "$skip" ] && continue
    [ "$sum" = "$want_sum" ] && ok || fail "$t leaves another tree: $(diff <(echo "$want_sum") <(echo "$sum") | head -6 | tr '\n' ' ')"
  done
}

same git_diff "$T/v1" "$T/v2" "$T/git.diff" "-p1" "" ""
same git_diff_p1 "$T/v1" "$T/v2" "$T/git.diff" "-p1" "-p1" "-p1"
same reverse "$T/v2" "$T/v1" "$T/git.diff" "-p1 -R" "-R" "-R"
same reverse_long "$T/v2" "$T/v1" "$T/git.diff" "-p1 --reverse" "--reverse" "--reverse"
same no_prefix_p0 "$T/v1" "$T/v2" "$T/noprefix.diff" "-p0" "-p0" "-p0"
same diff_ruN_tree "$T/v1" "$T/v2" "$T/tree.diff" "-p1" "" ""
same diff_ruN_p1 "$T/v1" "$T/v2" "$T/tree.diff" "-p1" "-p1" "-p1"
same diff_ruN_reverse "$T/v2" "$T/v1" "$T/tree.diff" "-p1 -R" "-R" "-R"
same deep_p2 "$T/v1" "$T/v2" "$T/deep.diff" "-p2" "-p2" "--strip=2"
same deep_p_2 "$T/v1" "$T/v2" "$T/deep.diff" "-p2" "-p2" "-p 2"
same mbox "$T/v1" "$T/v2" "$T/series.mbox" "-p1" "" ""
same check_ok "$T/v1" base "$T/git.diff" "-p1 --dry-run" "--check" "--check"
for t in native ${wasm:+wasi}; do [ ! -s "$T/out.$t" ] && [ ! -s "$T/err.$t" ] && ok || fail "$t --check printed something"; done
same check_fails "$T/v2" base "$T/git.diff" "-p1 --dry-run" "--check" "--check"
same already_applied "$T/v2" base "$T/git.diff" "-p1" "" "" skip-patch-tree # patch: applies what it can, .rej aside
# All or nothing: git apply and editcore change nothing; GNU patch applies the first patch.
same mbox_all_or_nothing "$T/v1" base "$T/broken.mbox" "-p1" "" "" skip-patch-tree

# Summaries name both sides of a move.
case=move_summary
(cd "$T/run" && rm -rf m && cp -r "$T/v1" m && cd m && "$bin" apply --dry-run - < "$T/git.diff" > /dev/null 2> "$T/err.m")
grep -qF "move 'README' -> 'README.md'" "$T/err.m" && ok || fail "summary: $(cat "$T/err.m")"
# A strip level too large is refused, nothing written (patch: "can't find file", git: skipped).
case=strip_too_far
(cd "$T/run" && rm -rf s && cp -r "$T/v1" s && cd s && "$bin" apply -p3 - < "$T/git.diff" > /dev/null 2> "$T/err.s"); rc=$?
[ "$rc" = 1 ] && grep -q "no 3 leading components" "$T/err.s" && [ "$(tree_sum "$T/run/s")" = "$(tree_sum "$T/v1")" ] && ok || fail "exit $rc: $(cat "$T/err.s")"
# Undo: the diffs `editcore apply` prints on stdout are a patch of what it did; `apply -R` of
# them (or patch -R -p1, git apply -R) puts every file back (docs/cli.md, Patches: undo).
case=undo_roundtrip
printf 'src/x.c\n```\n<<<<<<< SEARCH\nint y = 2;\n=======\nint y = 20;\n>>>>>>> REPLACE\n```\n\n```diff\n--- /dev/null\n+++ b/lib/made.txt\n@@ -0,0 +1 @@\n+made\n```\n' > "$T/reply.md"
for t in native patch git; do
  d="$T/run/undo-$t"; rm -rf "$d"; cp -r "$T/v1" "$d"
  (cd "$d" && "$bin" apply - < "$T/reply.md" > "$T/last.diff" 2> /dev/null) || fail "the reply did not apply"
  [ "$(tree_sum "$d")" != "$(tree_sum "$T/v1")" ] || fail "the reply changed nothing"
  case "$t" in
    native) (cd "$d" && "$bin" apply -R -q "$T/last.diff") ;;
    patch) (cd "$d" && patch -s -f -R -p1 < "$T/last.diff") ;;
    git) (cd "$d" && git apply -R "$T/last.diff") ;;
  esac; rc=$?
  find "$d" -type d -empty -delete # empty directories left behind are not compared
  [ "$rc" = 0 ] && [ "$(tree_sum "$d")" = "$(tree_sum "$T/v1")" ] && ok || fail "$t -R of the printed diff: exit $rc, tree not restored"
done
echo "patch_parity: $passed passed, $failed failed"
[ "$failed" = 0 ]
