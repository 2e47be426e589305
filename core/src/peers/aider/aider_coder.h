/*
 * What Aider's Coder holds while it applies one reply: the files as it reads them from disk
 * (universal newlines, a BOM kept as text), the set of files in the chat, the fence pair, and
 * its confirmations and --dry-run. Aider edits the disk block by block; the aider profile plays
 * that on this model and hands every file written to the workspace at the end (flush), so
 * partial results come out exactly as Aider leaves them.
 */
#ifndef EC_PEERS_AIDER_AIDER_CODER_H
#define EC_PEERS_AIDER_AIDER_CODER_H
#include "../../request/ctx.h"
#include "aider_py.h"
#include "../../base/strmap.h"

typedef struct ec_aider_file {
  ec_str path;
  bool exists;
  ec_str text;      /* what io.read_text returns */
  bool written;     /* written (or touched) since the request began */
  uint32_t seq;     /* order of the first write */
  uint32_t replacements;
} ec_aider_file;

typedef struct ec_aider_coder {
  ec_ctx *ctx;
  ec_arena *arena;
  ec_aider_file *files;
  size_t n_files, cap_files;
  ec_strmap index;  /* path -> index in files */
  ec_py_list chat;  /* relative names in the chat, kept sorted (abs_fnames) */
  ec_str fence[2];
  bool dry_run, confirm;
  uint32_t next_seq;
  uint64_t scanned;  /* bytes of file text the blocks were matched against (limits.fuzzy_work) */
} ec_aider_coder;

/** Loads the disk, the chat (edit.options.chat_files or every file) and the fence. */
ec_error_code ec_aider_coder_init(ec_aider_coder *c, ec_ctx *ctx);
/** The file at path (an absent entry is added). NULL on OOM. */
ec_aider_file *ec_aider_file_at(ec_aider_coder *c, ec_str path);
bool ec_aider_in_chat(const ec_aider_coder *c, ec_str path);
ec_error_code ec_aider_chat_add(ec_aider_coder *c, ec_str path);
/** io.write_text (nothing under dry_run). */
ec_error_code ec_aider_write(ec_aider_coder *c, ec_aider_file *f, ec_str text);
/** Coder.allowed_to_edit: in chat; else create (touch) or allow after the confirmation. */
ec_error_code ec_aider_allowed_to_edit(ec_aider_coder *c, ec_str path, bool *allowed);
/** Hands every written file to the workspace; *n_written counts them. */
ec_error_code ec_aider_flush(ec_aider_coder *c, size_t *n_written);
/** Records an error (ec_fail) with its path and block set. */
ec_error_code ec_aider_fail(ec_aider_coder *c, ec_error_code code, ec_str path, int32_t block, ec_str message);

#endif
