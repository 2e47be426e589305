/*
 * The peers' entry points: each peer's emulation lives in its own folder under peers/ and is
 * reached from the format entry points in formats/ when the request names that peer's profile.
 * (Claude's and OpenHands' commands: claude_openhands/editor.h; Gemini's: gemini/gemini.h.)
 */
#ifndef EC_PEERS_PEERS_H
#define EC_PEERS_PEERS_H
#include "../request/ctx.h"

/* What a search_replace dialect reads first (dialect_input.c): edit.text (no NUL byte) with its line
 * ends normalised into *text (arena-owned), and the target file; NULL with the error recorded. */
ec_ws_file *ec_dialect_input(ec_ctx *ctx, ec_str *text);
/* search_replace, by dialect (cline/, aider/, roo/) */
ec_error_code ec_dialect_cline(ec_ctx *ctx);
ec_error_code ec_dialect_aider(ec_ctx *ctx);
ec_error_code ec_dialect_roo(ec_ctx *ctx);
/* Cline's constructNewFileContent, the cline dialect in the cline profile (cline/cline_peer.c):
 * the file's text made from `text` (edit.text, line ends normalised) */
ec_error_code ec_cline_peer(ec_ctx *ctx, ec_ws_file *f, ec_str text);
/* Aider's replace_most_similar_chunk, as format `replace` in the aider profile */
ec_error_code ec_aider_replace(ec_ctx *ctx);
/* Aider's wholefile_coder, as format `whole_file` in the aider profile (aider/aider_wholefile.c) */
ec_error_code ec_aider_whole_file(ec_ctx *ctx);

#endif
