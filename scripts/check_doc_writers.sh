#!/usr/bin/env bash
# The diff of a located edit trusts its doc's change log (core/src/request/ctx.c,
# tracked_stretches): that holds because only core/src/text/doc.c writes a doc's bytes, length,
# line endings, BOM or log; other code copies whole docs (ec_doc d = *doc) or makes new ones
# through doc.c. This check fails when code elsewhere in core/src writes such a field of a
# variable declared as an ec_doc (or copies into its text).
set -euo pipefail
cd "$(dirname "$0")/.."
fields='text|len|cr|n_lf|bom|eol|crlf_dominant|log'
bad=0
while IFS= read -r f; do
  [ "$f" = core/src/text/doc.c ] && continue
  names=$(grep -oP '\bec_doc\s+\**\s*\K[A-Za-z_]\w*' "$f" | sort -u | paste -sd'|' -)
  [ -n "$names" ] || continue
  if grep -nP "\b($names)(\.|->)($fields)\b(\s*\[[^]]*\])?\s*(=(?!=)|\+=|-=|\+\+|--)|\b(memcpy|memmove|memset)\(\s*\(?\s*(char\s*\*\s*\)\s*)?($names)(\.|->)text" "$f"; then
    echo "^ $f writes a doc field outside core/src/text/doc.c" >&2
    bad=1
  fi
done < <(grep -rlP '\bec_doc\b' core/src --include=*.c --include=*.h)
[ "$bad" = 0 ] && echo "doc writers: only core/src/text/doc.c"
exit "$bad"
