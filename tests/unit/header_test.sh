#!/usr/bin/env bash
# The public header reads like the manual: every EC_API declaration has a doc comment right above
# it (the comment's last line ends with "*/"). Prints "N passed, N failed".
set -u
h="$(dirname "$0")/../../core/include/editcore.h"
awk '
  /^EC_API/ { if (prev ~ /\*\/[ \t]*$/) pass++; else { fail++; print "no doc comment above: " $0 } }
  { if ($0 !~ /^[ \t]+[A-Za-z_].*[,)];?[ \t]*$/ || $0 ~ /\*\//) prev = $0 }
  END { printf "%d passed, %d failed\n", pass, fail; exit fail > 0 }
' "$h"
