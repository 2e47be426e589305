/* Format `unified_diff`: not built yet; profiles.c does not advertise it, so requests never reach here. */
#include "formats.h"

ec_error_code ec_format_unified_diff(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "format 'unified_diff' is not supported by this build yet");
}
