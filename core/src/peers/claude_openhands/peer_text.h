/*
 * Text as the Python peers (Claude's reference editor, OpenHands' str_replace_editor) see and
 * write it: universal newlines on read (CRLF and lone CR become LF), LF on write, Python's
 * str.expandtabs(). Used by the claude/openhands profiles of formats/replace.c and insert.c.
 */
#ifndef EC_PEERS_CLAUDE_OPENHANDS_PEER_TEXT_H
#define EC_PEERS_CLAUDE_OPENHANDS_PEER_TEXT_H
#include "../../request/ctx.h"

/** The file's text as Python's read_text() returns it; ptr NULL on OOM. */
ec_str ec_peer_read_text(ec_arena *a, const ec_doc *doc);
/** str.expandtabs(): tab stops every 8 columns, the column reset by LF and CR; ptr NULL on OOM. */
ec_str ec_peer_expandtabs(ec_arena *a, ec_str s);
/** Writes text (LF) as the new content of f, keeping a BOM the file had; errors recorded. */
ec_error_code ec_peer_write(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc, ec_str text);

#endif
