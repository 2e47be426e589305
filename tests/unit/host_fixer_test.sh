#!/usr/bin/env bash
# editcore --fixer CMD (host/fixer.c, docs/correction.md): fake fixer scripts print prepared
# replies; the native CLI runs them on a failed edit and applies (or refuses) the correction.
# Under WASI --fixer is a usage error (checked when build/wasi/editcore.wasm is there).
#   tests/unit/host_fixer_test.sh BUILD_DIR     Prints "N passed, N failed".
set -u
build="$(cd "${1:-build/native}" && pwd)"
E="$build/editcore"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/ec_fixer.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else no "$1"; fi; }

APP='import os


def total(xs):
    """Sum the values."""
    return sum(xs)
'
reset() { printf '%s' "$APP" > app.py; rm -f prompt.json calls; }
# A fixer that saves the prompt it read, counts its calls and prints the reply file $1.
cat > fixer.sh <<'EOF'
#!/bin/sh
cat > prompt.json
echo x >> calls
cat "$1"
EOF
chmod +x fixer.sh
cat > good.txt <<'EOF'
The parameter is `xs`, and a docstring sits between the lines:
```json
{"search": "def total(xs):\n    \"\"\"Sum the values.\"\"\"\n    return sum(xs)", "replace": "def total(xs):\n    \"\"\"Sum the values.\"\"\"\n    return sum(xs, 0)", "no_changes_required": false, "explanation": "the parameter is xs",}
```
EOF
printf '%s' '{"search": "def total(values):\n    return sum(values)", "replace": "def total(values):\n    return sum(values, 0)", "no_changes_required": false, "explanation": "retyped"}' > lacking.txt
printf 'I am not sure what you mean.\n' > prose.txt
OLD='def total(values):
    return sum(values)'
NEW='def total(values):
    return sum(values, 0)'
FIXED="$(printf '%s' "$APP" | sed 's/return sum(xs)$/return sum(xs, 0)/')"

# 1. replace: success after one correction; the prompt on stdin is {system, user, schema}
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --fixer './fixer.sh good.txt' > out.txt 2> err.txt; st=$?
check "replace corrected: exit 0" '[ $st = 0 ]'
check "replace corrected: the file holds the correction" '[ "$(cat app.py)" = "$FIXED" ]'
check "replace corrected: the diff is printed" 'grep -q "^+    return sum(xs, 0)" out.txt'
check "the prompt is JSON {system, user, schema}" 'node -e "const p = JSON.parse(require(\"fs\").readFileSync(\"prompt.json\", \"utf8\")); if (!p.system || !p.user.includes(\"# Failed search text\") || p.schema.type !== \"object\") process.exit(1)"'
check "one call" '[ "$(wc -l < calls)" = 1 ]'

# 2. --json: strategy llm and the model's explanation in the envelope
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --json --fixer './fixer.sh good.txt' > out.json; st=$?
check "--json: strategy llm, the explanation, applied" 'node -e "const r = JSON.parse(require(\"fs\").readFileSync(\"out.json\", \"utf8\")); if (r.data.files[\"app.py\"].matches[0].strategy !== \"llm\" || r.data.explanation !== \"the parameter is xs\" || !r.data.applied) process.exit(1)"'

# 3. a correction naming code the file lacks: refused, exit 1, the file untouched
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --fixer './fixer.sh lacking.txt' > out.txt 2> err.txt; st=$?
check "lacking: exit 1" '[ $st = 1 ]'
check "lacking: NO_MATCH reported" 'grep -q "NO_MATCH" err.txt'
check "lacking: file untouched" '[ "$(cat app.py)" = "$(printf "%s" "$APP")" ]'

# 4. a reply without JSON: INVALID_REPLY
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --fixer './fixer.sh prose.txt' > out.txt 2> err.txt; st=$?
check "prose: exit 1, INVALID_REPLY" '[ $st = 1 ] && grep -q INVALID_REPLY err.txt'

# 5. a fixer that fails: the edit's own error, with a note
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --fixer 'exit 3' > out.txt 2> err.txt; st=$?
check "failing fixer: exit 1, a note, the original NO_MATCH" '[ $st = 1 ] && grep -q "gave no reply (it exited with status 3)" err.txt && grep -q "NO_MATCH" err.txt'

# 6. an edit that applies, and an error no model repairs, never run the fixer
reset
"$E" replace app.py --old 'import os' --new 'import sys' --fixer './fixer.sh good.txt' > /dev/null 2>&1; st=$?
check "applies as it is: no call" '[ $st = 0 ] && [ ! -e calls ]'
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --expect-hash sha256:0000000000000000000000000000000000000000000000000000000000000000 --fixer './fixer.sh good.txt' > /dev/null 2> err.txt; st=$?
check "CONFLICT: no call" '[ $st = 1 ] && grep -q CONFLICT err.txt && [ ! -e calls ]'

# 7. --dry-run: the correction shown, nothing written
reset
"$E" replace app.py --old "$OLD" --new "$NEW" --dry-run --fixer './fixer.sh good.txt' > out.txt 2>&1; st=$?
check "dry run: exit 0, diff shown, file untouched" '[ $st = 0 ] && grep -q "^+    return sum(xs, 0)" out.txt && [ "$(cat app.py)" = "$(printf "%s" "$APP")" ]'

# 8. json --files
reset
printf '%s' '{"format":"replace","files":["app.py"],"edit":{"path":"app.py","old_string":"def total(values):\n    return sum(values)","new_string":"def total(values):\n    return sum(values, 0)"}}' > req.json
"$E" json --files --fixer './fixer.sh good.txt' < req.json > out.json; st=$?
check "json --files: corrected and written" '[ $st = 0 ] && [ "$(cat app.py)" = "$FIXED" ] && grep -q "\"strategy\":\"llm\"" out.json'
check "json without --files refuses --fixer (usage)" '"$E" json --fixer ./fixer.sh < req.json > /dev/null 2> err.txt; [ $? = 2 ] && grep -q "apply, replace, json --files" err.txt'

# 9. apply: a reply's SEARCH/REPLACE block corrected
reset
cat > reply.md <<'EOF'
I will make the sum start at 0.

app.py
```python
<<<<<<< SEARCH
def total(values):
    return sum(values)
=======
def total(values):
    return sum(values, 0)
>>>>>>> REPLACE
```
EOF
"$E" apply reply.md --fixer './fixer.sh good.txt' > out.txt 2> err.txt; st=$?
check "apply: corrected and written" '[ $st = 0 ] && [ "$(cat app.py)" = "$FIXED" ]'
check "apply: the prompt shows the failed block" 'grep -q "def total(values)" prompt.json'

# 9b. apply: a reply's diff hunk corrected
printf 'a = 1\nb = 2\nc = 3\n' > cfg.py
printf 'Here:\n```diff\n--- a/cfg.py\n+++ b/cfg.py\n@@ -1,2 +1,2 @@\n a = 1\n-b = 5\n+b = 20\n```\n' > diff.md
printf '%s' '{"search": "a = 1\nb = 2", "replace": "a = 1\nb = 20", "no_changes_required": false, "explanation": "b is 2"}' > hunk.txt
"$E" apply diff.md --fixer './fixer.sh hunk.txt' > /dev/null 2>&1; st=$?
check "apply: a diff hunk corrected" '[ $st = 0 ] && [ "$(cat cfg.py)" = "$(printf "a = 1\nb = 20\nc = 3")" ]'

# 10. the file changed on disk while the model thought: CONFLICT, the other writer's text kept
reset
cat > racing.sh <<'EOF'
#!/bin/sh
cat > prompt.json
sleep 0.05
printf 'import os, re\n\n\ndef total(xs):\n    """Sum the values."""\n    return sum(xs)\n' > app.py
cat good.txt
EOF
chmod +x racing.sh
"$E" replace app.py --old "$OLD" --new "$NEW" --fixer ./racing.sh > /dev/null 2> err.txt; st=$?
check "changed meanwhile: CONFLICT, nothing written over" '[ $st = 1 ] && grep -q CONFLICT err.txt && grep -q "import os, re" app.py'

# 11. WASI: --fixer is a usage error (no processes there)
wasm="$(dirname "$build")/wasi/editcore.wasm"
if [ -f "$wasm" ]; then
  reset
  node "$repo/wasm/run-wasi.mjs" --dir . "$wasm" -- replace app.py --old "$OLD" --new "$NEW" --fixer ./fixer.sh > /dev/null 2> err.txt; st=$?
  check "WASI: --fixer is a usage error" '[ $st = 2 ] && grep -q "WASI program cannot" err.txt && [ ! -e calls ]'
else
  echo "NOT RUN: the WASI usage check (no $wasm)"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
