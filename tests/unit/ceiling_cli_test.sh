#!/usr/bin/env bash
# `--ceiling NAME=VALUE` (docs/limits.md): a request may lower options.limits, never raise them
# past the host's ceiling; the CLI raises or lowers a ceiling only by this flag.
set -u
cli="$1/editcore"
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
req='{"format":"replace","files":{"a":"x\n"},"edit":{"old_string":"x","new_string":"y"},"options":{"limits":{"max_files":20000}}}'
out=$(printf '%s' "$req" | "$cli" json)
check "a request cannot raise max_files" '[[ $out == *"\"code\":\"INVALID_PARAM\""* && $out == *"above its ceiling 10000"* ]]'
out=$(printf '%s' "$req" | "$cli" json --ceiling max_files=30000)
check "--ceiling raises what a request may ask" '[[ $out == "{\"status\":\"success\""* ]]'
out=$(printf '%s' '{"format":"replace","files":{"a":"x = 1234567\n"},"edit":{"old_string":"x","new_string":"y"}}' | "$cli" json --ceiling max_input_bytes=8)
check "--ceiling lowers a limit for every request" '[[ $out == *"\"code\":\"TOO_LARGE\""* && $out == *"max_input_bytes) is 8"* ]]'
printf '%s' "$req" | "$cli" json --ceiling bogus=3 >/dev/null 2>&1
check "an unknown name is a usage error" '[[ $? == 2 ]]'
printf '%s' "$req" | "$cli" json --ceiling max_files=-1 >/dev/null 2>&1
check "a negative value is a usage error" '[[ $? == 2 ]]'
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
