/*
 * The optimistic lock of options.expected_hash: the host names, per file, the SHA-256 of the
 * bytes the model read; when the content given now hashes otherwise, the file changed under the
 * edit. The core has no copy of the version the edit was written against, so it cannot rebase
 * the edit onto the new one: it answers CONFLICT for every such file and changes nothing.
 */
#ifndef EC_ENGINE_LOCK_H
#define EC_ENGINE_LOCK_H
#include "../request/ctx.h"

/**
 * EC_OK when every file named in expected_hash is in files with that hash. Otherwise each
 * conflicting file is recorded (CONFLICT, with its path; a file named but not given is a
 * conflict too) and CONFLICT is returned; a hash that is not 64 hex digits (optionally after
 * "sha256:") is INVALID_PARAM.
 */
ec_error_code ec_check_expected_hashes(ec_ctx *ctx);

#endif
