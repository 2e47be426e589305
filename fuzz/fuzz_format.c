/*
 * One edit format under every profile. Built once per format (FUZZ_FORMAT). Input:
 * <profile byte><file content>\xFF<edit text or old_string>\xFF<new_string>. For the
 * search_replace format the second byte picks the dialect.
 */
#include "fuzz_common.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  ec_request req;
  ec_request_init(&req, FUZZ_FORMAT);
  req.profile = (ec_profile)(data[0] % EC_PROFILE__COUNT);
  bool file_absent = (data[0] & 0x80) != 0;
  static const char *const dialects[] = {"cline", "aider", "roo", ""};
  const char *dialect = dialects[data[1] % 4];
  data += 2;
  size -= 2;
  if (!ec_supports(req.format, req.profile)) req.profile = EC_PROFILE_EDITCORE;
  if (!ec_supports(req.format, req.profile)) return 0;
  fuzz_limits(&req);
  ec_file file = {{"file", 4}, fuzz_field(data, size, 0)};
  ec_str a = fuzz_field(data, size, 1), b = fuzz_field(data, size, 2);
  req.files = &file;
  req.n_files = file_absent ? 0 : 1;
  ec_edit *e = &req.edit;
  switch (req.format) {
    case EC_FORMAT_REPLACE:
      e->old_string = a; e->has_old_string = true;
      e->new_string = b; e->has_new_string = true;
      e->replace_all = size && (data[size - 1] & 1);
      break;
    case EC_FORMAT_WHOLE_FILE: e->content = a; e->has_content = true; break;
    case EC_FORMAT_INSERT: e->new_str = a; e->has_new_str = true; e->insert_line = (int64_t)(b.len % 7); break;
    case EC_FORMAT_LAZY: e->snippet = a; e->has_snippet = true; break;
    default:
      e->text = a;
      e->dialect.ptr = dialect;
      e->dialect.len = strlen(dialect);
      e->is_final = !(b.len & 1);
      break;
  }
  ec_result *r = ec_apply(&req, NULL);
  fuzz_check_result(r, &req);
  fuzz_check_splices_mode(&req, r);
  ec_result_free(r);
  return 0;
}
