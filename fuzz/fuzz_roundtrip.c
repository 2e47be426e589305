/*
 * Apply then undo gives the original: a successful replace's `undo` diff, applied to the new
 * content (by the strict applier), restores the file byte for byte; and its `diff` turns the
 * original into the new content. Input: <file>\xFF<old>\xFF<new>.
 */
#include "fuzz_common.h"
#include "udiff_apply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  fuzz_limits(&req);
  ec_file file = {{"f", 1}, fuzz_field(data, size, 0)};
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string = fuzz_field(data, size, 1);
  req.edit.new_string = fuzz_field(data, size, 2);
  req.edit.has_old_string = req.edit.has_new_string = true;
  req.edit.replace_all = true;
  ec_result *r = ec_apply(&req, NULL);
  fuzz_check_result(r, &req);
  if (ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1) {
    const ec_file_result *f = ec_result_file(r, 0);
    size_t n = 0;
    char *back = fz_apply_udiff(f->content.ptr, f->content.len, f->undo.ptr, f->undo.len, &n);
    FUZZ_CHECK(back != NULL, "the undo diff applies to the new content");
    FUZZ_CHECK(n == file.content.len && !memcmp(back, file.content.ptr, n), "undo restores the original");
    free(back);
    char *fwd = fz_apply_udiff(file.content.ptr, file.content.len, f->diff.ptr, f->diff.len, &n);
    FUZZ_CHECK(fwd != NULL, "the diff applies to the original");
    FUZZ_CHECK(n == f->content.len && !memcmp(fwd, f->content.ptr, n), "the diff gives the new content");
    free(fwd);
  }
  ec_result_free(r);
  return 0;
}
