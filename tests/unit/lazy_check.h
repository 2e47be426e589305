/* For the lazy self-check's tests: run core/src/lazy's check of a result written by hand. */
#ifndef EDITCORE_TEST_LAZY_CHECK_H
#define EDITCORE_TEST_LAZY_CHECK_H
#include "editcore.h"
#include "request/ctx.h"
#include "request/result.h"
#include "formats/formats.h"
#include <stdio.h>
#include <string.h>

/* The self-check of `result` as the merge of `snippet` into `content` at `path`: the error code,
 * the message copied into msg (empty on success). */
static inline ec_error_code lazy_check(const char *path, const char *content, const char *snippet, const char *result, char *msg,
                                       size_t cap) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_LAZY);
  ec_file file = {{path, strlen(path)}, {content, strlen(content)}};
  req.files = &file;
  req.n_files = 1;
  req.edit.snippet = (ec_str){snippet, strlen(snippet)};
  req.edit.has_snippet = true;
  ec_result *res = ec_result_new(NULL);
  ec_ctx ctx;
  ec_error_code rc = ec_ctx_init(&ctx, &req, res, NULL);
  ec_ws_file *f = rc ? NULL : ec_format_target(&ctx);
  if (f) rc = ec_lz_check_merge(&ctx, f, (ec_str){snippet, strlen(snippet)}, (ec_str){result, strlen(result)});
  msg[0] = 0;
  if (rc && res->n_errors) snprintf(msg, cap, "%.*s", (int)res->errors[0].message.len, res->errors[0].message.ptr);
  ec_result_free(res);
  return rc;
}

#endif
