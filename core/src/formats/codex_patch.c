/* Format `codex_patch`: not built yet; profiles.c does not advertise it, so requests never reach here. */
#include "formats.h"

ec_error_code ec_format_codex_patch(ec_ctx *ctx) {
  return ec_fail(ctx, EC_INVALID_PARAM, "format 'codex_patch' is not supported by this build yet");
}
