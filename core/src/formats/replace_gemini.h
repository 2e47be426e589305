/*
 * Format `replace` under the gemini profile (formats/replace_gemini.c).
 */
#ifndef EC_FORMATS_REPLACE_GEMINI_H
#define EC_FORMATS_REPLACE_GEMINI_H
#include "../request/ctx.h"

/** The Gemini CLI edit tool's replace of the request's edit on file f (which may not exist). */
ec_error_code ec_gemini_replace(ec_ctx *ctx, ec_ws_file *f);

#endif
