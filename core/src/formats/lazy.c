/* Format `lazy`: not built yet; profiles.c does not advertise it, so requests never reach here. */
#include "formats.h"

ec_error_code ec_format_lazy(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "format 'lazy' is not supported by this build yet");
}
