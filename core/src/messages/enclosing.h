/* The definition around a place, for messages (enclosing.c). */
#ifndef EC_MESSAGES_ENCLOSING_H
#define EC_MESSAGES_ENCLOSING_H
#include "../request/ctx.h"
#include "../syntax/syntax.h"

typedef struct ec_enclosing {
  bool ok;          /* the file parsed and has definitions */
  ec_str text;      /* the file's current LF text, as the places' line numbers count it */
  ec_syn_side side;
} ec_enclosing;

/** Parses file f's current text for its definitions; false (and nothing to add) when its language
 *  has no grammar or no definitions, options.syntax is off, or the parse could not finish. */
bool ec_enclosing_load(ec_ctx *ctx, ec_ws_file *f, ec_enclosing *out);
/** "'def mean(xs):' (lines 38-52)", the innermost definition holding lines [first, last]; "" when none. */
ec_str ec_enclosing_of(ec_ctx *ctx, const ec_enclosing *e, uint32_t first, uint32_t last);

#endif
