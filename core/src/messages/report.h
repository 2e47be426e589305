/* Wording shared by every format that reports matches to a model. */
#ifndef EC_MESSAGES_REPORT_H
#define EC_MESSAGES_REPORT_H
#include "diagnose.h"
#include "../request/ctx.h"

/** "lines 3-5, 10-12 and 4 more" for the kept matches of a list. */
ec_str ec_report_line_ranges(ec_arena *a, const ec_found_list *l);
/** Records NO_MATCH for `what` ("old_string", "SEARCH block 2") in file f, with candidates. */
ec_error_code ec_report_no_match(ec_ctx *ctx, ec_match_env *env, ec_ws_file *f, const char *what, ec_str old_text);
/** Records AMBIGUOUS listing every place. */
ec_error_code ec_report_ambiguous(ec_ctx *ctx, ec_ws_file *f, const char *what, const ec_found_list *l,
                                  ec_strategy used);

#endif
