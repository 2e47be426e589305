/*
 * Apply then undo gives the original: a successful replace's `undo` diff, applied to the new
 * content (by the strict applier), restores the file byte for byte; and its `diff` turns the
 * original into the new content. Input: <file>\xFF<old>\xFF<new>.
 * A file whose lines end in a lone CR (a CR, no LF) is edited as lines (docs/protocol.md "Encodings"), and its
 * diffs show those lines LF-terminated: no byte-level patch tool reads that file's lines, so there
 * editcore's own diff reader is the applier, and must give the bytes back exactly. An edit that
 * moves a file into or out of that line model is a known limit of diff and undo (below).
 */
#include "fuzz_common.h"
#include "udiff_apply.h"

/* Lines that end in a lone CR: a CR and no LF anywhere (a CR inside an LF file's line is text). */
static bool cr_lines(ec_str s) { return s.len && memchr(s.ptr, '\r', s.len) && !memchr(s.ptr, '\n', s.len); }

/* `diff` applied to `content` by editcore's unified_diff format gives exactly `want`. */
static bool engine_applies(ec_str content, ec_str diff, ec_str want) {
  ec_request q;
  ec_request_init(&q, EC_FORMAT_UNIFIED_DIFF);
  fuzz_limits(&q);
  ec_file f = {{"f", 1}, content};
  q.files = &f;
  q.n_files = 1;
  q.edit.text = diff;
  ec_result *r = ec_apply(&q, NULL);
  bool ok = ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1 &&
            ec_result_file(r, 0)->content.len == want.len && !memcmp(ec_result_file(r, 0)->content.ptr, want.ptr, want.len);
  ec_result_free(r);
  return ok;
}

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
    if (cr_lines(file.content) && cr_lines(f->content)) {
      FUZZ_CHECK(engine_applies(f->content, f->undo, file.content), "undo, read by editcore, restores the original");
      FUZZ_CHECK(engine_applies(file.content, f->diff, f->content), "the diff, read by editcore, gives the new content");
      ec_result_free(r);
      return 0;
    }
    /* Known limit: an edit that takes a CR-lines file to one with an LF, or the last LF out of a
     * file that has lone CRs, changes how its lines are read; its diff and undo are read in one
     * model and cannot restore the other byte for byte (content itself is checked above). */
    if (cr_lines(file.content) || cr_lines(f->content)) {
      ec_result_free(r);
      return 0;
    }
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
