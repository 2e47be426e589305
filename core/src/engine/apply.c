/* ec_apply: one request, start to finish — check, dispatch to the format, commit, summarise. */
#include "apply.h"
#include "../request/ctx.h"
#include "lock.h"
#include "../request/profiles.h"
#include "../formats/formats.h"
#include "../reply/reply.h"
#include "../base/buf.h"
#include <string.h>

typedef ec_error_code (*format_fn)(ec_ctx *ctx);

static const format_fn FORMATS[EC_FORMAT__COUNT] = {
    [EC_FORMAT_REPLACE] = ec_format_replace,
    [EC_FORMAT_SEARCH_REPLACE] = ec_format_search_replace,
    [EC_FORMAT_UNIFIED_DIFF] = ec_format_unified_diff,
    [EC_FORMAT_CODEX_PATCH] = ec_format_codex_patch,
    [EC_FORMAT_WHOLE_FILE] = ec_format_whole_file,
    [EC_FORMAT_INSERT] = ec_format_insert,
    [EC_FORMAT_LAZY] = ec_format_lazy,
    [EC_FORMAT_REPLY] = ec_format_reply,
};

/* Section - ownership: a result owns every byte it hands out (editcore.h promises it), so the
 * strings that still point into the caller's request (paths, a block's text, a candidate's lines,
 * a content the edit gave whole) are copied into the result's arena. Only those are copied: a
 * pointer is checked against the request's buffers, so a 10 MB new content built by the edit is
 * never copied twice. The JSON layer keeps the parsed request with the result (ec_apply_kept):
 * there only what points into the files is copied. */

static bool inside(ec_str s, ec_str buf) {
  return s.ptr && buf.ptr && s.ptr >= buf.ptr && s.ptr + s.len <= buf.ptr + buf.len;
}

static bool borrowed(const ec_request *req, ec_str s, bool edit_kept) {
  if (!s.ptr || !s.len) return false;
  for (size_t i = 0; i < req->n_files; i++)
    if (inside(s, req->files[i].path) || inside(s, req->files[i].content)) return true;
  if (edit_kept) return false; /* ec_apply_kept: the caller keeps the edit's strings with the result */
  const ec_edit *e = &req->edit;
  const ec_str own[] = {e->path, e->old_string, e->new_string, e->instruction, e->text, e->dialect,
                        e->content, e->new_str, e->snippet, e->peer.raw_llm_text, e->peer.fence_open, e->peer.fence_close};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) if (inside(s, own[i])) return true;
  for (size_t i = 0; i < e->n_valid_fnames; i++) if (inside(s, e->valid_fnames[i])) return true;
  for (size_t i = 0; i < e->peer.n_chat_files; i++) if (inside(s, e->peer.chat_files[i])) return true;
  for (size_t i = 0; i < req->options.n_expected_hash; i++)
    if (inside(s, req->options.expected_hash[i].path)) return true;
  return false;
}

static void own(ec_result *r, const ec_request *req, bool edit_kept, ec_str *s) {
  if (!borrowed(req, *s, edit_kept)) return;
  ec_str copy = ec_arena_strdup(r->arena, s->ptr, s->len);
  if (copy.ptr) *s = copy;
  else r->oom = true;
}

static void own_request_strings(ec_result *r, const ec_request *req, bool edit_kept) {
  for (size_t i = 0; i < r->n_files; i++) {
    ec_file_result *f = &r->files[i];
    own(r, req, edit_kept, &f->path);
    own(r, req, edit_kept, &f->moved_to);
    own(r, req, edit_kept, &f->content);
  }
  for (size_t i = 0; i < r->n_errors; i++) {
    ec_error *e = &r->errors[i];
    own(r, req, edit_kept, &e->path);
    for (size_t k = 0; k < e->n_candidates; k++) own(r, req, edit_kept, (ec_str *)&e->candidates[k].text);
  }
  for (size_t i = 0; i < r->n_edits; i++) {
    ec_reply_edit *e = &r->edits[i];
    own(r, req, edit_kept, &e->path);
    own(r, req, edit_kept, &e->moved_to);
    own(r, req, edit_kept, &e->search);
    own(r, req, edit_kept, &e->replace);
    own(r, req, edit_kept, &e->text);
  }
  for (size_t i = 0; i < r->n_paths; i++) own(r, req, edit_kept, &r->paths[i]);
  for (size_t i = 0; i < r->n_blocks; i++) {
    own(r, req, edit_kept, &r->blocks[i].path);
    own(r, req, edit_kept, &r->blocks[i].search);
    own(r, req, edit_kept, &r->blocks[i].replace);
  }
}

static ec_result *apply(const ec_request *req, const ec_host *host, bool edit_kept) {
  ec_result *r = ec_result_new(host ? host->allocator : NULL);
  if (!r) return NULL;
  double t0 = host && host->clock_ms ? host->clock_ms(host->clock_user) : 0;
  ec_ctx ctx;
  ec_error_code rc = ec_ctx_init(&ctx, req, r, host ? host->ceilings : NULL);
  if (!rc) {
    for (size_t i = 0; i < req->n_files; i++) r->stats.bytes_in += req->files[i].content.len;
    if ((unsigned)req->format >= EC_FORMAT__COUNT || (unsigned)req->profile >= EC_PROFILE__COUNT)
      rc = ec_fail(&ctx, EC_INVALID_PARAM, "unknown format or profile");
    else if (!ec_profile_supports(req->profile, req->format))
      rc = ec_fail(&ctx, EC_INVALID_PARAM, "format '%s' is not supported in profile '%s' by this build",
                   ec_format_name(req->format), ec_profile_name(req->profile));
    else if (!(rc = ec_check_expected_hashes(&ctx)))
      rc = FORMATS[req->format](&ctx);
  }
  if (!rc || ctx.partial) {
    ec_error_code crc = ec_ws_commit(&ctx);
    if (crc) rc = crc;
  }
  own_request_strings(r, req, edit_kept); /* sets r->oom when a copy fails: the request then fails whole */
  bool truncated = false;
  for (size_t i = 0; i < r->n_files; i++) truncated |= r->files[i].diff_truncated;
  if (r->oom) rc = EC_OUT_OF_MEMORY;
  if (rc && !ctx.partial) {
    ec_result_clear_files(r);
    r->n_edits = r->n_paths = 0;
    r->has_reply = false;
    r->stats.lines_added = r->stats.lines_removed = 0;
    r->stats.bytes_out = 0;
    r->status = EC_STATUS_ERROR;
    if (!r->n_errors) ec_result_add_error(r, rc, "the edit failed");
  } else {
    r->status = rc || r->n_errors || truncated || ctx.preview ? EC_STATUS_PARTIAL : EC_STATUS_SUCCESS;
  }
  ec_result_summarise(r, ctx.preview);
  /* Out of memory anywhere (a failed allocation recorded as an error, or one the result noticed)
   * is one answer: OUT_OF_MEMORY with what to send instead, and nothing partial. */
  bool oom = r->oom || rc == EC_OUT_OF_MEMORY || !r->text.ptr || ec_arena_failed(r->arena);
  for (size_t i = 0; i < r->n_errors && !oom; i++) oom = r->errors[i].code == EC_OUT_OF_MEMORY;
  if (oom) ec_result_set_out_of_memory(r);
  if (host && host->clock_ms) r->stats.time_ms = host->clock_ms(host->clock_user) - t0;
  return r;
}

ec_result *ec_apply(const ec_request *req, const ec_host *host) { return apply(req, host, false); }

ec_result *ec_apply_kept(const ec_request *req, const ec_host *host) { return apply(req, host, true); }
