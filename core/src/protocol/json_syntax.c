/*
 * data.files[path].syntax (SPEC §9, docs/syntax.md):
 *   {"language", "checked", "skipped"?, "parsed_before", "parsed_after", "errors_before",
 *    "errors_after", "new_error_count", "new_errors": [{line, column, end_line, end_column,
 *    kind: "missing" | "error", text}]}
 * An unknown language is {"language": "unknown", "checked": false}, nothing more; a known one
 * that was not checked says why in "skipped". parsed_before is null for a file the edit created.
 */
#include "json_write.h"

static const char *tri(int8_t v) { return v < 0 ? "null" : v ? "true" : "false"; }

void ec_json_write_syntax(ec_buf *b, const ec_syntax_report *r) {
  ec_buf_append_cstr(b, "{\"language\":");
  ec_json_write_string(b, r->language);
  ec_buf_printf(b, ",\"checked\":%s", r->checked ? "true" : "false");
  if (!r->checked) {
    if (r->skipped.len) {
      ec_buf_append_cstr(b, ",\"skipped\":");
      ec_json_write_string(b, r->skipped);
    }
    ec_buf_append_char(b, '}');
    return;
  }
  ec_buf_printf(b, ",\"parsed_before\":%s,\"parsed_after\":%s,\"errors_before\":%u,\"errors_after\":%u,\"new_error_count\":%u,"
                   "\"new_errors\":[",
                tri(r->parsed_before), tri(r->parsed_after), r->errors_before, r->errors_after, r->new_error_count);
  for (size_t i = 0; i < r->n_new_errors; i++) {
    const ec_syntax_error *e = &r->new_errors[i];
    ec_buf_printf(b, "%s{\"line\":%u,\"column\":%u,\"end_line\":%u,\"end_column\":%u,\"kind\":\"%s\",\"text\":", i ? "," : "",
                  e->line, e->column, e->end_line, e->end_column, e->missing ? "missing" : "error");
    ec_json_write_string(b, e->text);
    ec_buf_append_char(b, '}');
  }
  ec_buf_append_cstr(b, "]}");
}
