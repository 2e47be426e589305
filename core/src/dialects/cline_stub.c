/* Placeholder until the cline dialect lands; profiles.c does not advertise it. */
#include "dialects.h"

ec_error_code ec_dialect_cline(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "the cline dialect is not supported by this build yet");
}
