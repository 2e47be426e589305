#define _GNU_SOURCE 1
/*
 * Each matching strategy alone on a random file and search: <strategy byte><file>\xFF<old>\xFF<new>.
 * Beyond the common invariants: a success must contain new_string's text somewhere in spirit —
 * checked strictly for the exact strategy (the result equals the file with old replaced by new).
 */
#include "fuzz_common.h"

static bool starts_with_bom(ec_str s) { return s.len >= 3 && !memcmp(s.ptr, "\xEF\xBB\xBF", 3); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  ec_strategy s = (ec_strategy)(data[0] % EC_STRATEGY__COUNT);
  data++;
  size--;
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  fuzz_limits(&req);
  req.options.strategies = &s;
  req.options.n_strategies = 1;
  ec_file file = {{"f", 1}, fuzz_field(data, size, 0)};
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string = fuzz_field(data, size, 1);
  req.edit.new_string = fuzz_field(data, size, 2);
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  fuzz_check_result(r, &req);
  if (s == EC_STRATEGY_EXACT && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1 &&
      !memchr(file.content.ptr, '\r', file.content.len) && !memchr(req.edit.old_string.ptr, '\r', req.edit.old_string.len) &&
      !memchr(req.edit.new_string.ptr, '\r', req.edit.new_string.len) &&
      !starts_with_bom(file.content)) {
    /* exact: the one occurrence replaced, byte for byte */
    const ec_file_result *f = ec_result_file(r, 0);
    ec_str old = req.edit.old_string, new = req.edit.new_string;
    const char *hit = memmem(file.content.ptr, file.content.len, old.ptr, old.len);
    bool bom_led = !hit && starts_with_bom(old);
    if (bom_led) { /* a byte-order mark the file does not hold there: old_string is the file's start */
      old.ptr += 3, old.len -= 3;
      if (starts_with_bom(new)) new.ptr += 3, new.len -= 3;
      hit = memmem(file.content.ptr, file.content.len, old.ptr, old.len);
      FUZZ_CHECK(hit == file.content.ptr, "a BOM-led old_string matches only at the file's start");
    }
    FUZZ_CHECK(hit != NULL, "exact success means old_string occurs");
    size_t pre = (size_t)(hit - file.content.ptr);
    size_t want = file.content.len - old.len + new.len;
    FUZZ_CHECK(f->content.len == want, "exact replacement has the right length");
    FUZZ_CHECK(!memcmp(f->content.ptr, file.content.ptr, pre), "the text before the match is kept");
    FUZZ_CHECK(!memcmp(f->content.ptr + pre, new.ptr, new.len), "new_string is written literally");
  }
  ec_result_free(r);
  return 0;
}
