/*
 * The SEARCH/REPLACE dialects and the peer-specific appliers. Each lives in its own file(s)
 * under dialects/ and is reached from the format entry points in formats/.
 */
#ifndef EC_DIALECTS_DIALECTS_H
#define EC_DIALECTS_DIALECTS_H
#include "../request/ctx.h"

/* search_replace, by dialect (dialects/cline_*.c, aider_*.c, roo_*.c) */
ec_error_code ec_dialect_cline(ec_ctx *ctx);
ec_error_code ec_dialect_aider(ec_ctx *ctx);
ec_error_code ec_dialect_roo(ec_ctx *ctx);
/* Aider's replace_most_similar_chunk, as format `replace` in the aider profile */
ec_error_code ec_aider_replace(ec_ctx *ctx);
/* Aider's wholefile_coder, as format `whole_file` in the aider profile (dialects/aider_wholefile.c) */
ec_error_code ec_aider_whole_file(ec_ctx *ctx);

#endif
