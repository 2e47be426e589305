/* What a syntax check costs, and the report of a file it did not check (syntax.h). Its own file:
 * the lite module (wasm/lite_deferred.c) replaces report.c but keeps these. */
#include "syntax.h"
#include "../base/str.h"

size_t ec_syn_cost(const ec_str *before, ec_str after) {
  if (!before) return after.len;
  size_t most = before->len < after.len ? before->len : after.len, pre = 0, suf = 0;
  while (pre < most && before->ptr[pre] == after.ptr[pre]) pre++;
  while (suf < most - pre && before->ptr[before->len - 1 - suf] == after.ptr[after.len - 1 - suf]) suf++;
  return before->len + (after.len - pre - suf);
}

ec_syntax_report *ec_syn_skipped(ec_arena *a, ec_str name, const char *why) {
  ec_syntax_report *r = ec_arena_calloc(a, 1, sizeof *r);
  if (!r) return NULL;
  r->language = name;
  r->skipped = ec_cstr(why);
  r->parsed_before = r->parsed_after = -1;
  return r;
}
