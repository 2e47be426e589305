/* A request's defaults (editcore.h: ec_request_init, ec_options_default): here, below every
 * format and the reply reader that build requests of their own, not in engine/ above them. */
#include "editcore.h"
#include <string.h>

void ec_options_default(ec_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->diff_context = 3;
  opt->diff_max_bytes = 65536;
  opt->fuzzy_threshold = 0.9;
}

void ec_request_init(ec_request *req, ec_format format) {
  memset(req, 0, sizeof *req);
  req->format = format;
  req->profile = EC_PROFILE_EDITCORE;
  req->edit.expected_replacements = -1;
  req->edit.insert_line = -1;
  req->edit.is_final = true;
  req->edit.peer.confirm = true;
  ec_options_default(&req->options);
}
