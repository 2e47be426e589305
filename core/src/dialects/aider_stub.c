/* Placeholder until the aider dialect lands; profiles.c does not advertise it. */
#include "dialects.h"

ec_error_code ec_dialect_aider(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "the aider dialect is not supported by this build yet");
}

ec_error_code ec_aider_replace(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "format 'replace' in profile 'aider' is not supported by this build yet");
}
