/*
 * Format `reply` (docs/reply.md): a model's raw reply over two files. Input:
 * <flags><name 1>\xFF<content 1>\xFF<name 2>\xFF<content 2>\xFF<reply text>
 * flags: bit 0 parse_only, bits 1-3 edit.dialect, bit 4 file 1 absent, bit 5 file 2 absent,
 * bit 6 edit.path = name 1, bit 7 profile aider (Aider's own coders; only the common invariants).
 * Beyond the common invariants: a parse_only success lists at least one edit, each with a path;
 * an applied reply changes at least one file, and the same reply under parse_only (no files)
 * succeeds and names every file the apply changed — the host's two-step flow relies on it.
 */
#include "fuzz_common.h"

static bool listed(const ec_result *r, ec_str p) {
  for (size_t i = 0; i < ec_result_path_count(r); i++) {
    ec_str q = ec_result_path(r, i);
    if (q.len == p.len && (!p.len || !memcmp(q.ptr, p.ptr, p.len))) return true;
  }
  return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t flags = data[0];
  data++;
  size--;
  static const char *const dialects[] = {"", "auto", "search_replace", "unified_diff", "codex_patch", "whole_file", "whole_file", ""};
  const char *dialect = dialects[(flags >> 1) & 7];
  ec_file files[2] = {{fuzz_field(data, size, 0), fuzz_field(data, size, 1)}, {fuzz_field(data, size, 2), fuzz_field(data, size, 3)}};
  ec_file given[2];
  size_t n = 0;
  if (!(flags & 0x10) && files[0].path.len) given[n++] = files[0];
  if (!(flags & 0x20) && files[1].path.len && !(n && files[1].path.len == files[0].path.len &&
                                                 !memcmp(files[1].path.ptr, files[0].path.ptr, files[0].path.len)))
    given[n++] = files[1];
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLY);
  fuzz_limits(&req);
  req.files = given;
  req.n_files = n;
  req.edit.text = fuzz_field(data, size, 4);
  req.edit.dialect.ptr = dialect;
  req.edit.dialect.len = strlen(dialect);
  req.edit.parse_only = flags & 1;
  if (flags & 0x40) req.edit.path = files[0].path;
  if (flags & 0x80) req.profile = EC_PROFILE_AIDER;
  ec_result *r = ec_apply(&req, NULL);
  fuzz_check_result(r, &req);
  bool editcore = req.profile == EC_PROFILE_EDITCORE;
  if (ec_result_status(r) == EC_STATUS_SUCCESS && req.edit.parse_only) {
    FUZZ_CHECK(ec_result_edit_count(r) >= 1, "a parse_only success lists an edit");
    for (size_t i = 0; i < ec_result_edit_count(r); i++) {
      const ec_reply_edit *e = ec_result_edit(r, i);
      FUZZ_CHECK(e->path.len && listed(r, e->path), "every edit names a listed file");
    }
  }
  if (editcore && ec_result_status(r) == EC_STATUS_SUCCESS && !req.edit.parse_only) {
    FUZZ_CHECK(ec_result_file_count(r) >= 1, "an applied reply changes a file");
    ec_request ask = req;
    ask.files = NULL;
    ask.n_files = 0;
    ask.edit.parse_only = true;
    ec_result *p = ec_apply(&ask, NULL);
    FUZZ_CHECK(p && ec_result_status(p) == EC_STATUS_SUCCESS, "what applies also parses with no files");
    for (size_t i = 0; i < ec_result_file_count(r); i++) {
      const ec_file_result *f = ec_result_file(r, i);
      /* (a git-style diff's a/ and b/ are git's: a file literally named a/... is not listed) */
      bool git_prefix = f->path.len >= 2 && (f->path.ptr[0] == 'a' || f->path.ptr[0] == 'b') && f->path.ptr[1] == '/';
      FUZZ_CHECK(git_prefix || listed(p, f->path), "parse_only names every file the apply changed");
      if (f->action == EC_ACTION_MOVE) FUZZ_CHECK(listed(p, f->moved_to), "parse_only names a move's destination");
    }
    ec_result_free(p);
  }
  ec_result_free(r);
  return 0;
}
