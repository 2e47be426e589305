/*
 * The aider profile's search_replace (ec_dialect_aider) and replace (ec_aider_replace): Aider's
 * Coder.apply_updates played on a model of its disk — parse every block first (a parse error
 * applies nothing), a dry pass that settles each block's file (a block that matches nowhere in
 * its own file goes to the first other chat file it matches), the confirmations, then the real
 * pass that writes block by block. Blocks that fail are reported with Aider's own message while
 * the ones that matched stay applied (status "partial").
 */
#include "../peers.h"
#include "aider_coder.h"
#include "aider_editblock.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include "../../request/ctx.h"

typedef struct edit_item {
  ec_str path, search, replace;
  int32_t block;          /* 1-based, in reply order */
} edit_item;

/* Charges one look at f's text against the request's budget (limits.fuzzy_work, one unit per
 * two bytes scanned: 200 M units is 400 MB, under a second): each SEARCH block is matched
 * against a whole file, twice (a dry pass, then the real one), in other chat files when it
 * fails, and once more for the message, so 10,000 blocks on a 1 MB file would scan 30 GB. */
static ec_error_code charge(ec_aider_coder *c, const ec_aider_file *f) {
  c->scanned += f->text.len / 2 + 32;
  if (c->scanned <= c->ctx->opt.limits.fuzzy_work) return EC_OK;
  return ec_fail(c->ctx, EC_TOO_LARGE, "matching the SEARCH/REPLACE blocks against their files would scan more than %llu bytes (the "
                 "limit is options.limits.fuzzy_work, one unit per two bytes): send fewer blocks per request, or fewer files in the chat",
                 (unsigned long long)c->ctx->opt.limits.fuzzy_work * 2);
}

/* do_replace(): out->ptr NULL when Aider gets None or "". The matching works in a scratch arena
 * freed before returning, so a failed block leaves nothing behind (a 1 MB file once kept ~11 MB
 * per failed block until the request ended); only a dry pass's answer "it matched" is kept when
 * `dry` (out = ""), else the new text, copied. */
static ec_error_code do_replace(ec_aider_coder *c, ec_aider_file *f, ec_str before, ec_str after, bool dry, ec_str *out,
                                bool *crash) {
  *out = ec_str_make(NULL, 0);
  ec_error_code rc = ec_aider_strip_wrapping(c->arena, before, f->path, c->fence, &before, crash);
  if (!rc && !*crash) rc = ec_aider_strip_wrapping(c->arena, after, f->path, c->fence, &after, crash);
  if (rc || *crash || !f->exists) return rc;
  if (ec_py_blank(before)) {
    if (!f->text.len && !after.len) return EC_OK;
    ec_str s = ec_arena_printf(c->arena, "%.*s%.*s", (int)f->text.len, f->text.ptr ? f->text.ptr : "", (int)after.len,
                               after.ptr ? after.ptr : "");
    if (!s.ptr) return EC_OUT_OF_MEMORY;
    *out = s;
    return EC_OK;
  }
  ec_arena *scratch = ec_arena_new(ec_arena_allocator(c->arena));
  if (!scratch) return EC_OUT_OF_MEMORY;
  ec_str got;
  rc = ec_aider_replace_chunk(scratch, f->text, before, after, &got);
  if (!rc && got.ptr) {
    *out = dry ? ec_str_make("", 0) : ec_arena_strdup(c->arena, got.ptr, got.len);
    if (!out->ptr) rc = EC_OUT_OF_MEMORY;
  }
  ec_arena_free(scratch);
  return rc;
}

static ec_error_code crashed(ec_ctx *ctx, int32_t block, ec_str path) {
  ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                             "Exception while updating files:\nlist index out of range\n(SEARCH/REPLACE block %d for %.*s holds only its "
                             "file name or fence lines)",
                             (int)block, (int)path.len, path.ptr ? path.ptr : "");
  ec_last_error(ctx)->block = block;
  ec_last_error(ctx)->path = path;
  return rc;
}

static ec_error_code fail_rc(ec_ctx *ctx, ec_error_code rc) {
  if (rc == EC_TOO_LARGE)
    return ec_fail(ctx, rc, "matching a SEARCH block needed more than %u line comparisons; split the edit into smaller blocks",
                   (unsigned)EC_AIDER_WORK_BUDGET);
  return ec_fail_oom(ctx);
}

/*
 * One pass of EditBlockCoder.apply_edits over `items`; the dry pass only settles paths, the
 * real one writes and sorts the blocks into passed / failed.
 */
static ec_error_code apply_pass(ec_aider_coder *c, edit_item *items, size_t n, bool dry, edit_item *failed,
                                size_t *n_failed, size_t *n_passed) {
  *n_failed = *n_passed = 0;
  for (size_t i = 0; i < n; i++) {
    edit_item *it = &items[i];
    ec_aider_file *f = ec_aider_file_at(c, it->path);
    if (!f) return ec_fail_oom(c->ctx);
    ec_str now = {NULL, 0};
    bool crash = false;
    ec_error_code rc = EC_OK;
    if (f->exists && (rc = charge(c, f))) return rc;
    if (f->exists) rc = do_replace(c, f, it->search, it->replace, dry, &now, &crash);
    if (rc) return fail_rc(c->ctx, rc);
    if (crash) return crashed(c->ctx, it->block, it->path);
    if (!now.ptr && !ec_py_blank(it->search)) {
      /* try patching any of the other files in the chat */
      for (size_t k = 0; k < c->chat.n; k++) {
        ec_aider_file *g = ec_aider_file_at(c, c->chat.items[k]);
        if (!g) return ec_fail_oom(c->ctx);
        /* f itself gives the same None again (do_replace is a function of its inputs): skipped */
        if (!g->exists || g == f) continue;
        if ((rc = charge(c, g))) return rc;
        rc = do_replace(c, g, it->search, it->replace, dry, &now, &crash);
        if (rc) return fail_rc(c->ctx, rc);
        if (crash) return crashed(c->ctx, it->block, g->path);
        if (now.ptr) {
          f = g;
          it->path = g->path;
          break;
        }
      }
    }
    if (dry) continue;
    if (now.ptr) {
      if (ec_aider_write(c, f, now)) return ec_fail_oom(c->ctx);
      (*n_passed)++;
    } else {
      failed[(*n_failed)++] = *it;
    }
  }
  return EC_OK;
}

static ec_error_code report(ec_aider_coder *c, const edit_item *failed, size_t n_failed, size_t n_passed) {
  ec_ctx *ctx = c->ctx;
  ec_arena *a = c->arena;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_error_code rc = EC_OK; /* an early failure goes to `fail`, which hands the message buffer back */
  const char *blocks = n_failed == 1 ? "block" : "blocks";
  ec_buf_printf(&b, "# %zu SEARCH/REPLACE %s failed to match!\n", n_failed, blocks);
  ec_candidate *cand = NULL;
  for (size_t i = 0; i < n_failed; i++) {
    const edit_item *it = &failed[i];
    ec_buf_printf(&b, "\n## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in %.*s\n",
                  (int)it->path.len, it->path.ptr);
    ec_buf_append_cstr(&b, "<<<<<<< SEARCH\n");
    ec_buf_append_str(&b, it->search);
    ec_buf_append_cstr(&b, "=======\n");
    ec_buf_append_str(&b, it->replace);
    ec_buf_append_cstr(&b, ">>>>>>> REPLACE\n\n");
    ec_aider_file *f = ec_aider_file_at(c, it->path);
    if (!f) { rc = ec_fail_oom(ctx); goto fail; }
    if (!f->exists) continue;
    if ((rc = charge(c, f))) goto fail;
    /* find_similar_lines in a scratch arena too; what the message quotes is copied out */
    ec_arena *scratch = ec_arena_new(ec_arena_allocator(a));
    if (!scratch) { rc = ec_fail_oom(ctx); goto fail; }
    ec_aider_similar sim;
    if (ec_aider_similar_lines(scratch, it->search, f->text, &sim)) {
      ec_arena_free(scratch);
      rc = ec_fail_oom(ctx);
      goto fail;
    }
    if (sim.text.len) {
      sim.text = ec_arena_strdup(a, sim.text.ptr, sim.text.len);
      ec_arena_free(scratch);
      if (!sim.text.ptr) { rc = ec_fail_oom(ctx); goto fail; }
    } else {
      ec_arena_free(scratch);
    }
    if (sim.text.len) {
      ec_buf_printf(&b, "Did you mean to match some of these actual lines from %.*s?\n\n", (int)it->path.len, it->path.ptr);
      ec_buf_append_line(&b, c->fence[0]);
      ec_buf_append_line(&b, sim.text);
      ec_buf_append_str(&b, c->fence[1]);
      ec_buf_append_cstr(&b, "\n\n");
      if (i == 0) {
        cand = ec_arena_calloc(a, 1, sizeof *cand);
        if (!cand) { rc = ec_fail_oom(ctx); goto fail; }
        cand->start_line = sim.start_line;
        cand->end_line = sim.end_line;
        cand->similarity = (double)sim.num / (double)sim.den;
        cand->text = sim.text;
      }
    }
    bool oom = false;
    if (it->replace.len && ec_py_find(a, f->text, it->replace, 0, &oom) != SIZE_MAX)
      ec_buf_printf(&b, "Are you sure you need this SEARCH/REPLACE block?\nThe REPLACE lines are already in %.*s!\n\n",
                    (int)it->path.len, it->path.ptr);
    if (oom) { rc = ec_fail_oom(ctx); goto fail; }
  }
  ec_buf_append_cstr(&b, "The SEARCH section must exactly match an existing block of lines including all white space, "
                         "comments, indentation, docstrings, etc\n");
  if (n_passed)
    ec_buf_printf(&b, "\n# The other %zu SEARCH/REPLACE %s were applied successfully.\nDon't re-send them.\n"
                      "Just reply with fixed versions of the %s above that failed to match.\n",
                  n_passed, n_passed == 1 ? "block" : "blocks", blocks);
  ec_str msg = ec_buf_finish(&b, a);
  if (!msg.ptr) return ec_fail_oom(ctx);
  ec_aider_fail(c, EC_NO_MATCH, failed[0].path, failed[0].block, msg);
  ec_error *e = ec_last_error(ctx);
  if (e && cand) {
    e->candidates = cand;
    e->n_candidates = 1;
  }
  return EC_NO_MATCH;
fail:
  ec_buf_free(&b);
  return rc;
}

static ec_error_code parse_only(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  ec_str fence[2] = {ec_cstr("```"), ec_cstr("```")};
  if (e->peer.fence_open.len || e->peer.fence_close.len) { fence[0] = e->peer.fence_open; fence[1] = e->peer.fence_close; }
  ec_aider_blocks bl;
  ec_error_code rc = ec_aider_parse_blocks(ctx->arena, e->text, fence, e->valid_fnames, e->n_valid_fnames, &bl);
  if (rc == EC_MALFORMED_EDIT) {
    rc = ec_fail(ctx, rc, "%.*s", (int)bl.error.len, bl.error.ptr);
    ec_last_error(ctx)->line = bl.error_line;
    return rc;
  }
  if (rc) return ec_fail(ctx, rc, "out of memory");
  ctx->res->has_blocks = true;
  for (size_t i = 0; i < bl.n; i++) {
    if (bl.items[i].shell) continue;
    ec_block *out = ec_result_add_block(ctx->res);
    if (!out) return ec_fail_oom(ctx);
    out->path = bl.items[i].path;
    out->search = bl.items[i].search;
    out->replace = bl.items[i].replace;
  }
  return EC_OK;
}

ec_error_code ec_dialect_aider(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (ec_str_has_nul(e->text)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text may not hold NUL bytes");
  if (e->parse_only) return parse_only(ctx);
  ec_aider_coder c;
  if (ec_aider_coder_init(&c, ctx)) return ec_fail_oom(ctx);
  if (c.dry_run) ctx->preview = true;

  ec_aider_blocks bl;
  ec_error_code rc = ec_aider_parse_blocks(ctx->arena, e->text, c.fence, c.chat.items, c.chat.n, &bl);
  if (rc == EC_MALFORMED_EDIT) {
    rc = ec_fail(ctx, rc, "%.*s", (int)bl.error.len, bl.error.ptr);
    ec_last_error(ctx)->line = bl.error_line;
    return rc;
  }
  if (rc) return ec_fail(ctx, rc, "out of memory");
  if (bl.n > ctx->opt.limits.max_blocks)
    return ec_fail(ctx, EC_TOO_LARGE, "the reply holds %zu blocks; the limit (options.limits.max_blocks) is %zu", bl.n,
                   ctx->opt.limits.max_blocks);

  edit_item *items = ec_arena_alloc(ctx->arena, (bl.n + 1) * 2 * sizeof *items), *failed = items + bl.n + 1;
  if (!items) return ec_fail_oom(ctx);
  size_t n = 0;
  for (size_t i = 0; i < bl.n; i++) {
    if (bl.items[i].shell) continue; /* shell commands are offered to the user, not applied */
    edit_item it = {bl.items[i].path, bl.items[i].search, bl.items[i].replace, (int32_t)(n + 1)};
    items[n++] = it;
  }

  size_t n_failed, n_passed;
  rc = apply_pass(&c, items, n, true, failed, &n_failed, &n_passed);
  if (rc) return rc;

  /* prepare_to_edit: each distinct path asked once */
  size_t kept = 0;
  ec_strmap asked;
  ec_strmap_init(&asked, ctx->arena);
  for (size_t i = 0; i < n; i++) {
    bool allowed = false;
    int added = ec_strmap_add(&asked, items[i].path, i, NULL);
    if (added < 0) return ec_fail_oom(ctx);
    bool seen = !added;
    if (seen) allowed = ec_aider_in_chat(&c, items[i].path);
    else if (ec_aider_allowed_to_edit(&c, items[i].path, &allowed)) return ec_fail_oom(ctx);
    if (allowed) failed[kept++] = items[i];
  }
  memcpy(items, failed, kept * sizeof *items);

  rc = apply_pass(&c, items, kept, false, failed, &n_failed, &n_passed);
  size_t n_written = 0;
  ec_error_code frc = ec_aider_flush(&c, &n_written);
  if (frc) return frc;
  if (rc) {
    ctx->partial = n_written > 0;
    return rc;
  }
  if (!n_failed) return EC_OK;
  ctx->partial = n_written > 0;
  return report(&c, failed, n_failed, n_passed);
}

ec_error_code ec_aider_replace(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (!e->has_old_string) return ec_fail(ctx, EC_INVALID_PARAM, "edit.old_string is required for format 'replace'");
  if (!e->has_new_string) return ec_fail(ctx, EC_INVALID_PARAM, "edit.new_string is required for format 'replace'");
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return ec_last_error(ctx)->code;
  ec_str whole = {"", 0};
  if (f->exists) {
    whole = ec_py_universal_newlines(ctx->arena, f->original);
    if (!whole.ptr) return ec_fail_oom(ctx);
  }
  ec_str out;
  ec_error_code rc = ec_aider_replace_chunk(ctx->arena, whole, e->old_string, e->new_string, &out);
  if (rc) return fail_rc(ctx, rc);
  if (!out.ptr) {
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(ctx->arena));
    ec_buf_printf(&b, "SearchReplaceNoExactMatch: old_string failed to exactly match lines in %.*s\n", (int)f->path.len,
                  f->path.ptr);
    ec_aider_similar sim;
    if (ec_aider_similar_lines(ctx->arena, e->old_string, whole, &sim)) return ec_fail_oom(ctx);
    if (sim.text.len)
      ec_buf_printf(&b, "\nDid you mean to match some of these actual lines from %.*s?\n\n```\n%.*s\n```\n", (int)f->path.len,
                    f->path.ptr, (int)sim.text.len, sim.text.ptr);
    ec_buf_append_cstr(&b, "\nThe SEARCH section must exactly match an existing block of lines including all white space, "
                           "comments, indentation, docstrings, etc\n");
    ec_str msg = ec_buf_finish(&b, ctx->arena);
    if (!msg.ptr) return ec_fail_oom(ctx);
    rc = ec_fail(ctx, EC_NO_MATCH, "%.*s", (int)msg.len, msg.ptr);
    ec_last_error(ctx)->path = f->path;
    return rc;
  }
  f->replacements = 1;
  return ec_ws_set_bytes(ctx, f, out);
}
