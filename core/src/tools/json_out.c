/*
 * The tools' JSON writing helpers (a string, a key, a number), shared by every tool and by the
 * registry of definitions: one small room below both, so neither reaches into the other.
 */
#include "tool.h"
#include "../base/str.h"
#include "../protocol/json_response.h"
#include <math.h>

void ec_jstr(ec_buf *b, ec_str s) { ec_json_write_string(b, s); }

void ec_jkey(ec_buf *b, bool *first, const char *key) {
  if (!*first) ec_buf_append_char(b, ',');
  *first = false;
  ec_jstr(b, ec_cstr(key));
  ec_buf_append_char(b, ':');
}

void ec_jnum(ec_buf *b, double v) {
  if (!isfinite(v)) { ec_buf_append_cstr(b, "null"); return; }
  if (v == floor(v) && fabs(v) < 9.0e15) ec_buf_printf(b, "%lld", (long long)v);
  else ec_buf_printf(b, "%.17g", v);
}
