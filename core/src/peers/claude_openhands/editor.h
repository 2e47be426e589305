/*
 * Claude's and OpenHands' editing commands (the claude and openhands profiles), reached from
 * formats/replace.c and formats/insert.c once the request is checked and its file found.
 *
 * replace: exact-only, unique; claude expands tabs in the file and both strings first; openhands
 * refuses old == new and, when nothing matched, retries with both stripped (Python's strip()).
 * The snippet of numbered lines the peers show after an edit is not part of the core response:
 * the host can build it from data.files[path].content and matches.
 * insert: claude writes Python's '\n'.join(lines[:k] + new.split('\n') + lines[k:]) over
 * file.split('\n'), tabs expanded everywhere (the whole file is written back expanded), range
 * [0, len(split)]; openhands takes the file's lines as Python iterates them (range [0, n]) and
 * writes every piece of new_str.split('\n') followed by '\n', so a last line without newline
 * is glued to the insert. Both peers write LF.
 */
#ifndef EC_PEERS_CLAUDE_OPENHANDS_EDITOR_H
#define EC_PEERS_CLAUDE_OPENHANDS_EDITOR_H
#include "../../request/ctx.h"

/** str_replace on file f (which may not exist: the peer's NOT_FOUND). */
ec_error_code ec_peer_editor_replace(ec_ctx *ctx, ec_ws_file *f);
/** insert after line k of f (f exists, doc its content). */
ec_error_code ec_peer_editor_insert(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, int64_t k);

#endif
