/* Format `insert`: not built yet; profiles.c does not advertise it, so requests never reach here. */
#include "formats.h"

ec_error_code ec_format_insert(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "format 'insert' is not supported by this build yet");
}
