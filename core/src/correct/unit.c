/* Which part of a failed edit a correction repairs (see unit.h). */
#include "unit.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../parse/udiff_parse.h"
#include <string.h>

static ec_str only_or(const ec_request *req, ec_str path) {
  if (path.len || req->n_files != 1) return path;
  return req->files[0].path;
}

/* The SEARCH/REPLACE blocks as the editcore parser reads them (parse_only through ec_apply). */
static ec_error_code blocks_of(ec_arena *a, const ec_request *failed, const ec_host *host, ec_cx_unit *u, ec_str *message) {
  ec_request parse = *failed;
  parse.edit.parse_only = true;
  parse.edit.is_final = true;
  ec_result *r = ec_apply(&parse, host);
  if (!r) return EC_OUT_OF_MEMORY;
  ec_error_code rc = EC_OK;
  size_t n = ec_result_block_count(r);
  if (ec_result_status(r) == EC_STATUS_ERROR || !n) {
    *message = ec_arena_printf(a, "the SEARCH/REPLACE text does not parse into blocks; correct it by hand");
    rc = EC_INVALID_PARAM;
  } else if (!(u->pairs = ec_arena_calloc(a, n, sizeof *u->pairs))) {
    rc = EC_OUT_OF_MEMORY;
  } else {
    for (size_t i = 0; i < n && !rc; i++) {
      const ec_block *b = ec_result_block(r, i);
      ec_cx_pair *p = &u->pairs[i];
      p->path = ec_arena_strdup(a, b->path.ptr ? b->path.ptr : "", b->path.len);
      p->search = ec_arena_strdup(a, b->search.ptr ? b->search.ptr : "", b->search.len);
      p->replace = ec_arena_strdup(a, b->replace.ptr ? b->replace.ptr : "", b->replace.len);
      if (!p->path.ptr || !p->search.ptr || !p->replace.ptr) rc = EC_OUT_OF_MEMORY;
      if (!p->path.len) p->path = only_or(failed, failed->edit.path);
    }
    u->n_pairs = n;
  }
  ec_result_free(r);
  return rc;
}

/* "a/x.py" and "b/x.py" as the diff wrote them name "x.py" when the request holds that file. */
static ec_str diff_path(const ec_request *req, const ec_ud_file *f) {
  ec_str p = f->new_null ? f->old_path : f->new_path;
  for (size_t i = 0; i < req->n_files; i++)
    if (ec_str_eq(req->files[i].path, p)) return p;
  if (p.len > 2 && (p.ptr[0] == 'a' || p.ptr[0] == 'b') && p.ptr[1] == '/') return ec_str_drop(p, 2);
  return p;
}

static ec_str side_of(ec_arena *a, const ec_ud_hunk *h, char drop) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < h->n_lines; i++) {
    if (h->lines[i].kind == drop) continue;
    ec_buf_append_line(&b, h->lines[i].text);
  }
  ec_str s = ec_buf_finish(&b, a);
  if (!s.ptr) s.len = (size_t)-1;
  return s;
}

/* Every hunk of the diff as a pair: its unchanged and removed lines, its unchanged and added ones. */
static ec_error_code hunks_of(ec_arena *a, const ec_request *failed, ec_cx_unit *u, ec_str *message) {
  ec_ud_patch patch;
  ec_ud_error perr = {0, {0, 0}};
  ec_error_code rc = ec_udiff_parse(a, failed->edit.text, 10000, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return rc;
  if (rc || !patch.n_hunks) {
    *message = ec_arena_printf(a, "the diff does not parse into hunks; correct it by hand");
    return EC_INVALID_PARAM;
  }
  if (!(u->pairs = ec_arena_calloc(a, patch.n_hunks, sizeof *u->pairs))) return EC_OUT_OF_MEMORY;
  for (size_t f = 0; f < patch.n_files; f++) {
    const ec_ud_file *uf = &patch.files[f];
    if (uf->old_null || uf->new_null) continue; /* creations and deletions need no search */
    for (size_t h = 0; h < uf->n_hunks; h++) {
      ec_cx_pair *p = &u->pairs[u->n_pairs++];
      p->path = diff_path(failed, uf);
      p->search = side_of(a, &uf->hunks[h], '+');
      p->replace = side_of(a, &uf->hunks[h], '-');
      if (p->search.len == (size_t)-1 || p->replace.len == (size_t)-1) return EC_OUT_OF_MEMORY;
    }
  }
  if (u->n_pairs != patch.n_hunks) {
    *message = ec_arena_printf(a, "the diff creates or deletes files; correct the hunks that failed by hand");
    return EC_INVALID_PARAM;
  }
  return EC_OK;
}

ec_error_code ec_cx_find_unit(ec_arena *a, const ec_request *failed, const ec_host *host, const ec_error *err,
                              ec_cx_unit *out, ec_str *message) {
  memset(out, 0, sizeof *out);
  const ec_edit *e = &failed->edit;
  ec_error_code rc = EC_OK;
  switch (failed->format) {
    case EC_FORMAT_REPLACE:
      out->path = only_or(failed, e->path);
      out->search = e->old_string;
      out->replace = e->new_string;
      return EC_OK;
    case EC_FORMAT_LAZY:
      out->path = only_or(failed, e->path);
      out->replace = e->snippet;
      out->lazy = true;
      return EC_OK;
    case EC_FORMAT_SEARCH_REPLACE: rc = blocks_of(a, failed, host, out, message); break;
    case EC_FORMAT_UNIFIED_DIFF: rc = hunks_of(a, failed, out, message); break;
    default:
      *message = ec_arena_printf(a, "a correction repairs replace, search_replace, unified_diff and lazy edits, not '%s'",
                                 ec_format_name(failed->format));
      return EC_INVALID_PARAM;
  }
  if (rc) return rc;
  /* The error names the failing block or hunk (1-based); without one, the first pair of its file. */
  size_t k = err->block > 0 && (size_t)err->block <= out->n_pairs ? (size_t)err->block - 1 : 0;
  if (err->block <= 0 && err->path.len)
    for (size_t i = 0; i < out->n_pairs; i++)
      if (ec_str_eq(out->pairs[i].path, err->path)) { k = i; break; }
  out->failing = k;
  out->path = out->pairs[k].path;
  out->search = out->pairs[k].search;
  out->replace = out->pairs[k].replace;
  return EC_OK;
}
