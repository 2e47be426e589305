# The command-line cases, shared by every way of running editcore (sourced by cli.sh).
#
# Each case runs in a fresh directory ($W, the root) and calls the program as `ec ARGS...`
# (the native CLI, or the WASI command under node:wasi / jco with $W preopened as "."). A case
# records what it saw with `run` (exit status, stdout, stderr and the files afterwards go into the
# transcript, which must be byte-identical between builds) and asserts with expect_* helpers.
# Cases named native_* use what only the native build has (permissions, signals, env hooks).

seed() { # seed: a small project
  mkdir -p src/pkg
  printf 'def greet(name):\n    print("Hello, " + name)\n\n\ndef main():\n    greet("world")\n' > src/greet.py
  printf 'x = 1\ny = 2\nx = 1\n' > src/dup.py
  printf 'line one\nline two\n' > notes.txt
  printf 'VALUE = 1\n' > src/pkg/conf.py
  snapshot # expect_unchanged compares with this
}

case_help() {
  run ec --help; expect_exit 0; expect_out "usage: editcore"
  for c in apply replace diff json batch; do run ec "$c" --help; expect_exit 0; expect_out "usage: editcore $c"; done
  NO_RECORD=1 run ec; expect_nonjson_usage # the one difference: no arguments is `json` under WASI
  run ec frobnicate; expect_exit 2; expect_err "unknown command"
  run ec replace src/greet.py --bogus; expect_exit 2; expect_err "unknown option"
}

case_version() {
  run ec version; expect_exit 0; expect_out "0."
  run ec capabilities; expect_exit 0; expect_out '"supports":{"editcore":['
}

case_replace() {
  seed
  run ec replace src/greet.py --old '    print("Hello, " + name)' --new '    print(f"Hello, {name}!")'
  expect_exit 0; expect_out '+    print(f"Hello, {name}!")'; expect_err "Changed 1 file"
  expect_file src/greet.py 'def greet(name):\n    print(f"Hello, {name}!")\n\n\ndef main():\n    greet("world")\n'
  run ec replace src/greet.py --old 'greet("world")' --new 'greet("you")' --quiet
  expect_exit 0; expect_out_empty; expect_err_empty
  run ec replace ./src//pkg/../greet.py --old 'you' --new 'them' --json
  expect_exit 0; expect_out '"applied":true'; expect_out '"src/greet.py":{"action":"update"'
  expect_no_temps
}

case_replace_fails() {
  seed
  run ec replace src/greet.py --old 'print("Goodbye, " + name)' --new 'x'
  expect_exit 1; expect_err "NO_MATCH"; expect_err "candidate 1: lines 2-2"; expect_unchanged src/greet.py
  run ec replace src/dup.py --old 'x = 1' --new 'x = 3'
  expect_exit 1; expect_err "AMBIGUOUS"; expect_unchanged src/dup.py
  run ec replace src/dup.py --old 'x = 1' --new 'x = 3' --json
  expect_exit 1; expect_out '"status":"error"'; expect_out '"applied":false'
  run ec replace src/dup.py --old 'x = 1' --new 'x = 3' --all
  expect_exit 0; expect_file src/dup.py 'x = 3\ny = 2\nx = 3\n'
  run ec replace src/greet.py --old 'a'; expect_exit 2; expect_err "usage: editcore replace"
  run ec replace src/missing.py --old 'a' --new 'b'; expect_exit 2; expect_err "NOT_FOUND"
  run ec replace src --old 'a' --new 'b'; expect_exit 2; expect_err "is a directory"
  run ec replace src/greet.py --old 'a' --new 'b' --profile nosuch; expect_exit 2; expect_err "unknown profile"
}

case_replace_files_and_dry_run() {
  seed
  printf 'VALUE = 1\n' > old.txt; printf 'VALUE = 2\n' > new.txt
  run ec replace src/pkg/conf.py --old-file old.txt --new-file new.txt --dry-run
  expect_exit 0; expect_out '+VALUE = 2'; expect_err 'dry run: nothing written'; expect_unchanged src/pkg/conf.py
  run ec replace src/pkg/conf.py --old-file old.txt --new-file new.txt
  expect_exit 0; expect_file src/pkg/conf.py 'VALUE = 2\n'
}

case_expect_hash() {
  seed
  local good='sha256:'"$(sha256sum notes.txt | cut -d' ' -f1)"
  local bad='sha256:0000000000000000000000000000000000000000000000000000000000000000'
  run ec replace notes.txt --old 'line two' --new 'line 2' --expect-hash "$bad"
  expect_exit 1; expect_err "CONFLICT"; expect_unchanged notes.txt
  run ec replace notes.txt --old 'line two' --new 'line 2' --expect-hash "notes.txt=$good"
  expect_exit 0; expect_file notes.txt 'line one\nline 2\n'
}

case_escapes() {
  seed
  mkdir -p inside/deeper
  ln -s /etc etc_link             # a symlinked directory leading out
  ln -s /etc/hostname host_link   # a symlinked file leading out
  ln -s ../../.. inside/deeper/up # relative, climbing out
  ln -s src src_link              # a symlinked directory inside
  ln -s greet.py src/alias.py     # a symlinked file inside
  ln -s /nonexistent/x dangling   # absolute, dangling, outside
  for p in ../outside.txt /etc/hostname src/../../x etc_link/hostname host_link inside/deeper/up/etc/hostname \
           inside/deeper/up dangling "$PWD/../x"; do
    run ec replace "$p" --old 'a' --new 'b'
    expect_exit 1; expect_err "ACCESS_DENIED"
  done
  run ec json --files <<< '{"format":"whole_file","files":["../evil.txt"],"edit":{"path":"../evil.txt","content":"x"}}'
  expect_exit 1; expect_out '"code":"ACCESS_DENIED"'
  run ec diff /etc/hostname notes.txt; expect_exit 1; expect_err "ACCESS_DENIED"
  # Inside links edit their target, and stay links.
  run ec replace src_link/pkg/conf.py --old 'VALUE = 1' --new 'VALUE = 5'
  expect_exit 0; expect_file src/pkg/conf.py 'VALUE = 5\n'; expect_symlink src_link
  run ec replace src/alias.py --old 'greet("world")' --new 'greet("alias")'
  expect_exit 0; expect_symlink src/alias.py; expect_contains src/greet.py 'greet("alias")'
  expect_no_temps
}

case_binary_and_large() {
  seed
  printf 'abc\0def\n' > bin.dat
  run ec replace bin.dat --old abc --new xyz; expect_exit 1; expect_err "BINARY_FILE"; expect_same bin.dat <(printf 'abc\0def\n')
  truncate -s 70M big.txt # sparse: refused by its size before a byte is read
  run ec replace big.txt --old a --new b; expect_exit 1; expect_err "TOO_LARGE"
  rm -f big.txt
}

case_diff() {
  seed
  printf 'a\nb\nc\nd\ne\nf\ng\nh\n' > one.txt
  printf 'a\nB\nc\nd\ne\nf\ng\nh\ni' > two.txt
  run ec diff one.txt two.txt; expect_exit 1; expect_out '--- one.txt'; expect_same_as_diff_u one.txt two.txt
  run ec diff one.txt one.txt; expect_exit 0; expect_out_empty
  run ec diff one.txt nothere.txt; expect_exit 2; expect_err "NOT_FOUND"
  run ec diff one.txt; expect_exit 2
}

case_json() {
  seed
  run ec json <<< '{"format":"replace","files":{"a.py":"x = 1\n"},"edit":{"old_string":"x = 1","new_string":"x = 2"}}'
  expect_exit 0; expect_out '"applied":false'; expect_out '"content":"x = 2\n"'
  run ec json --diff <<< '{"format":"replace","files":{"a.py":"x = 1\n"},"edit":{"old_string":"x = 1","new_string":"x = 2"}}'
  expect_exit 0; expect_out '+x = 2'
  run ec json --files --dry-run <<< '{"format":"replace","files":["notes.txt"],"edit":{"old_string":"line one","new_string":"line 1"}}'
  expect_exit 0; expect_out '"applied":false'; expect_unchanged notes.txt
  run ec json --files <<< '{"format":"replace","files":{"./notes.txt":null},"edit":{"path":"./notes.txt","old_string":"line one","new_string":"line 1"}}'
  expect_exit 0; expect_out '"applied":true'; expect_file notes.txt 'line 1\nline two\n'
  run ec json --files <<< '{"format":"whole_file","edit":{"path":"new/dir/made.py","content":"print(1)\n"}}'
  expect_exit 0; expect_file new/dir/made.py 'print(1)\n'
  run ec json --files <<< '{"format":"codex_patch","files":["src/greet.py","src/pkg/conf.py","gone.txt"],"edit":{"text":"*** Begin Patch\n*** Update File: src/pkg/conf.py\n@@\n-VALUE = 1\n+VALUE = 7\n*** Update File: src/greet.py\n@@\n-    print(\"Nope\")\n+    print(1)\n*** End Patch"}}'
  expect_exit 1; expect_unchanged src/pkg/conf.py; expect_unchanged src/greet.py
  printf 'bye\n' > gone.txt
  run ec json --files <<< '{"format":"codex_patch","files":["src/pkg/conf.py","gone.txt"],"edit":{"text":"*** Begin Patch\n*** Update File: src/pkg/conf.py\n@@\n-VALUE = 1\n+VALUE = 7\n*** Delete File: gone.txt\n*** Add File: added.txt\n+hi\n*** End Patch"}}'
  expect_exit 0; expect_file src/pkg/conf.py 'VALUE = 7\n'; expect_absent gone.txt; expect_file added.txt 'hi\n'
  run ec json --files <<< 'not json'; expect_exit 1; expect_out '"code":"INVALID_PARAM"'
  expect_no_temps
}

case_batch() {
  seed
  run ec batch < <(printf '%s\n' \
    '{"format":"replace","files":{"a":"1\n"},"edit":{"old_string":"1","new_string":"2"}}' \
    '{"format":"replace", oops' \
    '' \
    '{"format":"replace","files":{"a":"1\n"},"edit":{"old_string":"9","new_string":"2"}}' \
    '{"format":"whole_file","files":{"b":"x\n"},"edit":{"path":"b","content":"y\n"}}')
  expect_exit 1; expect_lines 4; expect_line 1 '"status":"success"'; expect_line 2 '"code":"INVALID_PARAM"'
  expect_line 3 '"status":"error"'; expect_line 4 '"status":"success"'
  run ec batch --files < <(printf '%s\n' \
    '{"format":"replace","files":["notes.txt"],"edit":{"old_string":"line one","new_string":"first"}}' \
    '{"format":"replace","files":["../x"],"edit":{"old_string":"a","new_string":"b"}}' \
    '{"format":"replace","files":["src/pkg/conf.py"],"edit":{"old_string":"VALUE = 1","new_string":"VALUE = 3"}}')
  expect_exit 1; expect_lines 3; expect_line 2 '"code":"ACCESS_DENIED"'
  expect_file notes.txt 'first\nline two\n'; expect_file src/pkg/conf.py 'VALUE = 3\n'
}

case_stale_temps() {
  seed
  printf 'half' > src/.greet.py.editcore-0badc0de.tmp
  printf 'keep' > src/.greet.py.editcore-nothex!!.tmp
  run ec replace src/greet.py --old 'greet("world")' --new 'greet("x")'
  expect_exit 0; expect_absent src/.greet.py.editcore-0badc0de.tmp; expect_file src/.greet.py.editcore-nothex!!.tmp 'keep'
}

case_finish_killed_edit() {
  # What a run killed between the renames of a two-file edit leaves (written by hand, so every
  # build sees the same bytes): a.txt still old with its new content staged, b.txt already new,
  # the journal, and both locks, of an owner no one can check (a WASI guest), 2 minutes without
  # a heartbeat. The next run that reads either file finishes the set and says so.
  seed
  local txn=00000000000000ab
  id() { stat -c '%i:%s:%.9Y' "$1"; } # the journal's file identity (docs/cli.md)
  mkdir -p pkg
  printf 'old a\n' > pkg/a.txt; printf 'new a\n' > "pkg/.a.txt.editcore-$txn.tmp"; printf 'new b\n' > b.txt
  printf '{"editcore_journal":1,"txn":"%s","entries":[{"path":"b.txt","action":"write","old":"%s","new":"%s","temp":".b.txt.editcore-%s.tmp"},{"path":"pkg/a.txt","action":"write","old":"%s","new":"%s","temp":".a.txt.editcore-%s.tmp"}]}\n' \
    "$txn" "1:6:1.000000000" "$(id b.txt)" "$txn" "$(id pkg/a.txt)" "$(id "pkg/.a.txt.editcore-$txn.tmp")" "$txn" > ".editcore-$txn.journal"
  local rec='{"editcore_lock":1,"txn":"%s","pid":0,"start":"","boot":"","pidns":"","host":"elsewhere","kind":"wasi","journal":"%s"}\n'
  printf "$rec" "$txn" ".editcore-$txn.journal" > .b.txt.editcore.lock
  printf "$rec" "$txn" "../.editcore-$txn.journal" > pkg/.a.txt.editcore.lock
  touch -d '2 minutes ago' .b.txt.editcore.lock pkg/.a.txt.editcore.lock
  run ec diff pkg/a.txt notes.txt
  expect_exit 1; expect_err "finished an edit of 2 files that a killed editcore left half-done (journal .editcore-$txn.journal): 1 already written, 1 written now"
  expect_out '-new a'; expect_file pkg/a.txt 'new a\n'; expect_file b.txt 'new b\n'; expect_no_temps
  # A journal cut short (its writer killed before the commit point): nothing is renamed, the debris goes.
  printf 'new a 2\n' > "pkg/.a.txt.editcore-$txn.tmp"
  printf '{"editcore_journal":1,"txn":"%s","entr' "$txn" > ".editcore-$txn.journal"
  printf "$rec" "$txn" "../.editcore-$txn.journal" > pkg/.a.txt.editcore.lock
  touch -d '2 minutes ago' pkg/.a.txt.editcore.lock
  run ec replace pkg/a.txt --old 'new a' --new 'newer a' --quiet
  expect_exit 0; expect_file pkg/a.txt 'newer a\n'; expect_no_temps
}

native_case_lock_hold() {
  # A writer holding its lock: a second one waits for it, then finds the file changed (CONFLICT).
  seed
  EDITCORE_TEST_HOLD="$T/hold" run_bg ec replace notes.txt --old 'line one' --new 'line 1'
  wait_for "$T/hold.ready"
  expect_contains notes.txt 'line one'; expect_contains .notes.txt.editcore.lock '"kind":"native"'
  ( sleep 0.5; touch "$T/hold.go" ) &
  local first="$BG"
  run ec replace notes.txt --old 'line two' --new 'line 2'
  expect_exit 1; expect_err "CONFLICT"; expect_err "changed on disk after editcore read it"
  BG="$first"; wait_bg; expect_exit 0; expect_file notes.txt 'line 1\nline two\n'; expect_no_temps
  # A lock whose owner is gone (a pid that is no process) is broken at once.
  printf '{"editcore_lock":1,"txn":"00000000000000cd","pid":999999999,"start":"1","boot":"%s","pidns":"%s","host":"%s","kind":"native","journal":null}\n' \
    "$(cat /proc/sys/kernel/random/boot_id)" "$(readlink /proc/self/ns/pid)" "$(hostname)" > .notes.txt.editcore.lock
  run ec replace notes.txt --old 'line two' --new 'line 2' --quiet
  expect_exit 0; expect_file notes.txt 'line 1\nline 2\n'; expect_no_temps
  rm -f "$T/hold.ready" "$T/hold.go"
}

native_case_modes_and_readonly() {
  seed
  chmod 0640 src/greet.py
  run ec replace src/greet.py --old 'greet("world")' --new 'greet("m")'
  expect_exit 0; expect_mode src/greet.py 640
  chmod 0444 notes.txt
  run ec replace notes.txt --old 'line one' --new 'x'; expect_exit 1; expect_err "read-only"; expect_unchanged notes.txt
  chmod 0555 src/pkg
  run ec replace src/pkg/conf.py --old 'VALUE = 1' --new 'VALUE = 2'; expect_exit 1; expect_err "read-only"; expect_unchanged src/pkg/conf.py
  # Two files, the second in the read-only directory: neither is written.
  run ec json --files <<< '{"format":"codex_patch","files":["notes2.txt","src/pkg/conf.py"],"edit":{"text":"*** Begin Patch\n*** Add File: notes2.txt\n+x\n*** Update File: src/pkg/conf.py\n@@\n-VALUE = 1\n+VALUE = 2\n*** End Patch"}}'
  expect_exit 1; expect_absent notes2.txt; expect_unchanged src/pkg/conf.py
  chmod 0755 src/pkg; chmod 0644 notes.txt
}

native_case_lock_race() {
  seed
  EDITCORE_TEST_PAUSE="$T/pause" run_bg ec replace notes.txt --old 'line one' --new 'line 1'
  wait_for "$T/pause.ready"
  printf 'changed by someone else\n' > notes.txt
  touch "$T/pause.go"
  wait_bg; expect_exit 1; expect_err "CONFLICT"; expect_file notes.txt 'changed by someone else\n'; expect_no_temps
  rm -f "$T/pause.ready" "$T/pause.go"
}

native_case_full_disk() {
  seed
  head -c 300000 /dev/zero | tr '\0' 'a' > big.txt; printf '\nEND\n' >> big.txt
  cp big.txt "$T/big.orig"
  # A file-size limit below the new content: the temporary cannot be written, nothing changes.
  run_limited 200 ec replace big.txt --old 'END' --new 'THE END'
  expect_exit 2; expect_err "IO_ERROR"; expect_same big.txt "$T/big.orig"; expect_no_temps
}

native_case_full_tmpfs() {
  # A real full disk: a small tmpfs (root only; a note in the transcript otherwise).
  mkdir fs
  if ! mount -t tmpfs -o size=400k tmpfs fs 2>/dev/null; then echo "note: no tmpfs here (not root?); ulimit -f case only"; ok; return; fi
  ( cd fs && head -c 150000 /dev/zero | tr '\0' 'a' > f.txt && printf '\nEND\n' >> f.txt && cp f.txt ../f.orig &&
    head -c 200000 /dev/zero > filler.bin 2>/dev/null; true )
  run ec replace f.txt --root fs --old 'END' --new 'THE END'
  expect_exit 2; expect_err "IO_ERROR"; expect_same fs/f.txt f.orig
  local left; left="$(find fs -name '.*.editcore-*.tmp')"; [ -z "$left" ] && ok || fail "temporaries left on the full disk: $left"
  umount fs
}

case_apply() {
  seed
  cat > reply.md <<'R'
I'll type the function and add a README.

src/greet.py
```python
<<<<<<< SEARCH
def greet(name):
    print("Hello, " + name)
=======
def greet(name: str) -> None:
    print(f"Hello, {name}!")
>>>>>>> REPLACE
```

```diff
--- /dev/null
+++ b/docs/README.md
@@ -0,0 +1 @@
+hello
```
R
  run ec apply --dry-run reply.md
  expect_exit 0; expect_out '+def greet(name: str) -> None:'; expect_out '+++ b/docs/README.md'; expect_err 'dry run'
  expect_unchanged src/greet.py; expect_absent docs
  run ec apply reply.md
  expect_exit 0; expect_contains src/greet.py 'def greet(name: str) -> None:'; expect_file docs/README.md 'hello\n'
  run ec apply reply.md; expect_exit 1; expect_err 'NOOP'
  run ec apply --json - < reply.md; expect_exit 1; expect_out '"status":"error"'
  printf 'Sure! Nothing to change.\n' > none.md
  run ec apply none.md; expect_exit 1; expect_err 'no edit was found'
  run ec apply missing.md; expect_exit 2; expect_err 'NOT_FOUND'
  expect_no_temps
}

case_apply_codex_and_escape() {
  seed
  printf 'old\n' > gone.txt
  cat > patch.txt <<'R'
*** Begin Patch
*** Update File: src/pkg/conf.py
@@
-VALUE = 1
+VALUE = 2
*** Delete File: gone.txt
*** Add File: made/new.txt
+new
*** End Patch
R
  run ec apply --format codex_patch patch.txt
  expect_exit 0; expect_file src/pkg/conf.py 'VALUE = 2\n'; expect_absent gone.txt; expect_file made/new.txt 'new\n'
  # One file of the reply outside the root: nothing at all is written.
  cat > evil.md <<'R'
notes.txt
<<<<<<< SEARCH
line one
=======
line 1
>>>>>>> REPLACE

../outside.txt
<<<<<<< SEARCH
a
=======
b
>>>>>>> REPLACE
R
  run ec apply evil.md; expect_exit 1; expect_err 'ACCESS_DENIED'; expect_unchanged notes.txt
  # Blocks that name no file (Cline's) go to --path.
  printf '<<<<<<< SEARCH\nline two\n=======\nline 2\n>>>>>>> REPLACE\n' > cline.md
  run ec apply --path notes.txt cline.md; expect_exit 0; expect_file notes.txt 'line one\nline 2\n'
  run ec apply --format unified_diff cline.md; expect_exit 1; expect_err 'MALFORMED_EDIT'
}

case_two_names_one_file() {
  seed
  ln -s greet.py src/alias.py
  cat > both.md <<'R'
src/greet.py
<<<<<<< SEARCH
def greet(name):
=======
def greet(who):
>>>>>>> REPLACE

src/alias.py
<<<<<<< SEARCH
def main():
=======
def main() -> None:
>>>>>>> REPLACE
R
  run ec apply both.md; expect_exit 1; expect_err "are the same file"; expect_unchanged src/greet.py
}
