/*
 * The `cline` dialect. In the `cline` profile it reproduces Cline's constructNewFileContent
 * (src/core/assistant-message/diff.ts), both versions (edit.options.cline_version, default v1):
 *   - markers /^[-]{3,} SEARCH>?$/, /^[<]{3,} SEARCH>?$/, /^[=]{3,}$/, /^[+]{3,} REPLACE>?$/,
 *     /^[>]{3,} REPLACE>?$/ (v2 keeps a last line only when it is one of the standard markers);
 *   - a SEARCH section is matched when its separator arrives, from the end of the last block
 *     applied: exact, then line-trimmed, then block-anchor (first and last lines, 3+ lines);
 *     v1 then tries an exact match anywhere (an out-of-order block), v2 refuses;
 *   - empty SEARCH: inserts into an empty file; on a non-empty file v1 refuses, v2 replaces all;
 *   - v1 forgives a missing last REPLACE marker; v2 rejects any text around the blocks;
 *   - `is_final: false`: the preview so far (ctx->preview), as Cline shows it while streaming.
 * In every other profile the dialect goes through the strict parser and applier (sr_blocks.h;
 * the choice is cline_dialect.c's).
 * Matching runs on hashed line tables (a rolling hash over line windows), so it stays linear.
 */
#define _GNU_SOURCE 1
#include "../peers.h"
#include "../../parse/sr_blocks.h"
#include "../../request/ctx.h"
#include "../../base/buf.h"
#include "../../base/hash.h"
#include "../../base/str.h"
#include <string.h>

#define ROLL_BASE 0x100000001b3ULL

typedef struct orig_text {
  const char *text;
  size_t len;
  ec_sr_lines lines;        /* split("\n") */
  size_t *start;            /* byte offset of each line */
  uint64_t *th;             /* hash of each trimmed line */
  bool built;
} orig_text;

static ec_error_code orig_build(ec_arena *a, orig_text *o) {
  if (o->built) return EC_OK;
  if (ec_sr_split(a, ec_str_make(o->text, o->len), &o->lines)) return EC_OUT_OF_MEMORY;
  o->start = ec_arena_alloc(a, o->lines.n * sizeof *o->start);
  o->th = ec_arena_alloc(a, o->lines.n * sizeof *o->th);
  if (!o->start || !o->th) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < o->lines.n; i++) {
    o->start[i] = (size_t)(o->lines.items[i].ptr - o->text);
    ec_str t = ec_sr_trim(o->lines.items[i]);
    o->th[i] = ec_hash_bytes(t.ptr, t.len);
  }
  if (o->len == 0) o->start[0] = 0;
  o->built = true;
  return EC_OK;
}

/* First line whose offset is >= idx (Cline's "line where startIndex falls" loop). */
static size_t first_line_from(const orig_text *o, size_t idx) {
  size_t lo = 0, hi = o->lines.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (o->start[mid] < idx) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void span_of(const orig_text *o, size_t i, size_t m, int64_t *s, int64_t *e) {
  size_t end = o->start[i];
  for (size_t k = 0; k < m; k++) end += o->lines.items[i + k].len + 1;
  *s = (int64_t)o->start[i];
  *e = (int64_t)end;
}

/* lineTrimmedFallbackMatch */
static ec_error_code line_trimmed(ec_arena *a, orig_text *o, ec_str search, size_t from, int64_t *ms, int64_t *me) {
  *ms = -1;
  if (orig_build(a, o)) return EC_OUT_OF_MEMORY;
  ec_sr_lines sl;
  if (ec_sr_split(a, search, &sl)) return EC_OUT_OF_MEMORY;
  size_t m = sl.n;
  if (sl.items[m - 1].len == 0) m--;
  size_t n = o->lines.n;
  if (m == 0 || m > n) return EC_OK;
  size_t i0 = first_line_from(o, from);
  if (i0 + m > n) return EC_OK;
  uint64_t target = 0, pw = 1, h = 0;
  uint64_t *sh = ec_arena_alloc(a, m * sizeof *sh);
  if (!sh) return EC_OUT_OF_MEMORY;
  for (size_t j = 0; j < m; j++) {
    ec_str t = ec_sr_trim(sl.items[j]);
    sh[j] = ec_hash_bytes(t.ptr, t.len);
    target = target * ROLL_BASE + sh[j];
    if (j) pw *= ROLL_BASE;
    h = h * ROLL_BASE + o->th[i0 + j];
  }
  for (size_t i = i0;; i++) {
    if (h == target) {
      bool ok = true;
      for (size_t j = 0; j < m && ok; j++) ok = ec_str_eq(ec_sr_trim(o->lines.items[i + j]), ec_sr_trim(sl.items[j]));
      if (ok) { span_of(o, i, m, ms, me); return EC_OK; }
    }
    if (i + m >= n) break;
    h = (h - o->th[i] * pw) * ROLL_BASE + o->th[i + m];
  }
  return EC_OK;
}

/* blockAnchorFallbackMatch */
static ec_error_code block_anchor(ec_arena *a, orig_text *o, ec_str search, size_t from, int64_t *ms, int64_t *me) {
  *ms = -1;
  if (orig_build(a, o)) return EC_OUT_OF_MEMORY;
  ec_sr_lines sl;
  if (ec_sr_split(a, search, &sl)) return EC_OUT_OF_MEMORY;
  if (sl.n < 3) return EC_OK;
  size_t m = sl.n;
  if (sl.items[m - 1].len == 0) m--;
  size_t n = o->lines.n;
  if (m > n) return EC_OK;
  ec_str first = ec_sr_trim(sl.items[0]), last = ec_sr_trim(sl.items[m - 1]);
  uint64_t hf = ec_hash_bytes(first.ptr, first.len), hl = ec_hash_bytes(last.ptr, last.len);
  for (size_t i = first_line_from(o, from); i + m <= n; i++) {
    if (o->th[i] != hf || o->th[i + m - 1] != hl) continue;
    if (!ec_str_eq(ec_sr_trim(o->lines.items[i]), first) || !ec_str_eq(ec_sr_trim(o->lines.items[i + m - 1]), last)) continue;
    span_of(o, i, m, ms, me);
    return EC_OK;
  }
  return EC_OK;
}

static int64_t index_of(const orig_text *o, ec_str s, size_t from) {
  if (from > o->len || s.len > o->len - from) return -1;
  const char *hit = memmem(o->text + from, o->len - from, s.ptr, s.len);
  return hit ? (int64_t)(hit - o->text) : -1;
}

/* JS slice(a, b) on the original text. */
static void append_slice(ec_buf *b, const orig_text *o, int64_t s, int64_t e) {
  if (s < 0) s = 0;
  if (e > (int64_t)o->len) e = (int64_t)o->len;
  if (e > s) ec_buf_append(b, o->text + s, (size_t)(e - s));
}

typedef struct cline_run {
  ec_ctx *ctx;
  ec_ws_file *f;
  orig_text o;
  int32_t block;
  uint32_t line;
} cline_run;

static ec_error_code cfail(cline_run *r, ec_error_code code, ec_str msg) {
  ec_fail(r->ctx, code, "%.*s", (int)msg.len, msg.ptr ? msg.ptr : "the SEARCH/REPLACE text could not be applied");
  ec_error *e = ec_last_error(r->ctx);
  if (e) {
    e->block = r->block;
    e->line = r->line;
    e->path = r->f->path;
  }
  return code;
}

static ec_error_code cfail_search(cline_run *r, ec_error_code code, ec_str search, const char *tail) {
  ec_str t = ec_sr_trim_end(search);
  return cfail(r, code, ec_arena_printf(r->ctx->arena, "The SEARCH block:\n%.*s\n...%s", (int)t.len, t.ptr, tail));
}

static ec_error_code cfail_c(cline_run *r, ec_error_code code, const char *msg) { return cfail(r, code, ec_cstr(msg)); }

/* Exact from `from`, then line-trimmed, then block-anchor; *ms = -1 when none matched. */
static ec_error_code find_block(cline_run *r, ec_str search, size_t from, int64_t *ms, int64_t *me) {
  int64_t x = index_of(&r->o, search, from);
  if (x >= 0) { *ms = x; *me = x + (int64_t)search.len; return EC_OK; }
  if (line_trimmed(r->ctx->arena, &r->o, search, from, ms, me)) return EC_OUT_OF_MEMORY;
  if (*ms >= 0) return EC_OK;
  return block_anchor(r->ctx->arena, &r->o, search, from, ms, me);
}

typedef struct repl { int64_t start, end; ec_str content; } repl;

static ec_error_code push_repl(cline_run *r, repl **list, size_t *n, size_t *cap, repl v) {
  if (!EC_ARENA_RESERVE(r->ctx->arena, *list, *n, *cap, 8)) return EC_OUT_OF_MEMORY;
  (*list)[(*n)++] = v;
  return EC_OK;
}

#define OOM(r) cfail_c((r), EC_OUT_OF_MEMORY, "out of memory")
#define EMPTY_SEARCH_MSG "Empty SEARCH block detected with non-empty file. This usually indicates a malformed SEARCH marker.\n" \
  "Please ensure your SEARCH marker follows the correct format:\n- Use '------- SEARCH' (7+ dashes + space + SEARCH)\n"

static ec_error_code run_v1(cline_run *r, const ec_sr_lines *l, size_t n, bool is_final, ec_str *out) {
  ec_arena *a = r->ctx->arena;
  ec_buf result, search, replace;
  ec_buf_init(&result, ec_arena_allocator(a));
  ec_buf_init(&search, ec_arena_allocator(a));
  ec_buf_init(&replace, ec_arena_allocator(a));
  size_t last = 0;
  bool in_search = false, in_replace = false, ooo = false;
  int64_t ms = -1, me = -1;
  repl *reps = NULL;
  size_t nr = 0, cr = 0;
  ec_error_code rc = EC_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    ec_str line = l->items[i];
    r->line = (uint32_t)i + 1;
    if (ec_sr_is_search_start(line)) {
      in_search = true;
      search.len = replace.len = 0;
      r->block++;
      continue;
    }
    if (ec_sr_is_separator(line)) {
      in_search = false;
      in_replace = true;
      if (r->block == 0) r->block = 1;
      ec_str s = ec_str_make(search.ptr, search.len);
      if (!s.len) {
        if (r->o.len == 0) ms = me = 0;
        else { rc = cfail_c(r, EC_MALFORMED_EDIT, EMPTY_SEARCH_MSG); break; }
      } else {
        if (find_block(r, s, last, &ms, &me)) { rc = OOM(r); break; }
        if (ms < 0) {
          ms = index_of(&r->o, s, 0);
          if (ms < 0) { rc = cfail_search(r, EC_NO_MATCH, s, "does not match anything in the file."); break; }
          me = ms + (int64_t)s.len;
          if (ms < (int64_t)last) ooo = true;
        }
      }
      if (ms < (int64_t)last) ooo = true;
      if (!ooo) append_slice(&result, &r->o, (int64_t)last, ms);
      continue;
    }
    if (ec_sr_is_replace_end(line)) {
      if (ms == -1) {
        rc = cfail_search(r, EC_MALFORMED_EDIT, ec_str_make(search.ptr, search.len), "is malformatted.");
        break;
      }
      ec_str c = ec_buf_finish(&replace, a);
      if (!c.ptr && replace.oom) { rc = OOM(r); break; }
      ec_buf_init(&replace, ec_arena_allocator(a));
      if (push_repl(r, &reps, &nr, &cr, (repl){ms, me, c})) { rc = OOM(r); break; }
      if (!ooo) last = (size_t)me;
      in_search = in_replace = ooo = false;
      search.len = 0;
      ms = me = -1;
      continue;
    }
    if (in_search) {
      ec_buf_append_line(&search, line);
    } else if (in_replace) {
      ec_buf_append_line(&replace, line);
      if (ms != -1 && !ooo) {
        ec_buf_append_line(&result, line);
      }
    }
  }
  if (!rc && is_final) {
    if (in_replace && ms != -1) {
      ec_str c = ec_buf_finish(&replace, a);
      ec_buf_init(&replace, ec_arena_allocator(a));
      if (push_repl(r, &reps, &nr, &cr, (repl){ms, me, c})) rc = OOM(r);
    }
    /* stable sort by start (insertion sort keeps equal starts in order) */
    for (size_t i = 1; i < nr && !rc; i++) {
      repl v = reps[i];
      size_t j = i;
      while (j > 0 && reps[j - 1].start > v.start) { reps[j] = reps[j - 1]; j--; }
      reps[j] = v;
    }
    result.len = 0;
    int64_t pos = 0;
    for (size_t i = 0; i < nr; i++) {
      append_slice(&result, &r->o, pos, reps[i].start);
      ec_buf_append_str(&result, reps[i].content);
      pos = reps[i].end;
    }
    append_slice(&result, &r->o, pos, (int64_t)r->o.len);
  }
  ec_buf_free(&search);
  ec_buf_free(&replace);
  if (rc) { ec_buf_free(&result); return rc; }
  if (result.oom) return OOM(r);
  *out = ec_buf_finish(&result, a);
  if (!out->ptr) *out = ec_str_make("", 0);
  return EC_OK;
}

enum { IDLE = 0, ST_SEARCH = 1, ST_REPLACE = 2 };

#define BAD_TRANSITION "Invalid state transition.\nValid transitions are:\n- Idle \xe2\x86\x92 StateSearch\n- StateSearch \xe2\x86\x92 StateReplace"

static ec_error_code run_v2(cline_run *r, const ec_sr_lines *l, size_t n, bool is_final, ec_str *out) {
  ec_arena *a = r->ctx->arena;
  ec_buf result, search;
  ec_buf_init(&result, ec_arena_allocator(a));
  ec_buf_init(&search, ec_arena_allocator(a));
  size_t last = 0, pending = 0, pending_nonblank = 0; /* lines held while idle (text around blocks) */
  int state = IDLE;
  int64_t ms = -1, me = -1;
  ec_error_code rc = EC_OK;
  for (size_t i = 0; i < n && !rc; i++) {
    ec_str line = l->items[i];
    r->line = (uint32_t)i + 1;
    if (ec_sr_is_search_start(line)) {
      r->block++;
      if (pending_nonblank) {
        rc = cfail_c(r, EC_MALFORMED_EDIT, "Malformed SEARCH/REPLACE block structure: Missing valid closing REPLACE marker");
        break;
      }
      pending = 0;
      if (state != IDLE) { rc = cfail_c(r, EC_MALFORMED_EDIT, BAD_TRANSITION); break; }
      state = ST_SEARCH;
      search.len = 0;
    } else if (ec_sr_is_separator(line)) {
      if (r->block == 0) r->block = 1;
      if (!(state & ST_SEARCH)) {
        rc = cfail_c(r, EC_MALFORMED_EDIT, pending ? "Invalid REPLACE marker detected - could not find matching SEARCH block starting from line 0"
                                                   : "Invalid SEARCH/REPLACE block structure - no lines available to process");
        break;
      }
      if (state != ST_SEARCH) { rc = cfail_c(r, EC_MALFORMED_EDIT, BAD_TRANSITION); break; }
      state |= ST_REPLACE;
      ec_str s = ec_str_make(search.ptr, search.len);
      if (!s.len) {
        ms = 0;
        me = (int64_t)r->o.len;
      } else {
        if (find_block(r, s, last, &ms, &me)) { rc = OOM(r); break; }
        if (ms < 0) { rc = cfail_search(r, EC_NO_MATCH, s, "does not match anything in the file."); break; }
      }
      if (ms < (int64_t)last) { rc = cfail_search(r, EC_NO_MATCH, s, "matched an incorrect content in the file."); break; }
      append_slice(&result, &r->o, (int64_t)last, ms);
    } else if (ec_sr_is_replace_end(line)) {
      if (!(state & ST_REPLACE)) {
        if (r->block == 0) r->block = 1;
        rc = cfail(r, EC_MALFORMED_EDIT, pending ? ec_cstr("Malformed REPLACE block - missing valid separator after line 0")
                   : ec_arena_printf(a, "Error: the REPLACE marker at line %u closes a block that has no '=======' separator "
                                     "(expected '=======' between the SEARCH lines and the new lines).", r->line));
        break;
      }
      last = (size_t)me;
      state = IDLE;
      search.len = 0;
      ms = me = -1;
    } else if (state & ST_REPLACE) {
      if (ms != -1) {
        ec_buf_append_line(&result, line);
      }
    } else if (state & ST_SEARCH) {
      ec_buf_append_line(&search, line);
    } else {
      pending++;
      /* trailing blank lines are dropped when the next SEARCH marker comes: track the rest */
      if (ec_sr_trim(line).len) pending_nonblank = pending;
    }
  }
  ec_buf_free(&search);
  if (!rc && is_final) {
    if (last < r->o.len) append_slice(&result, &r->o, (int64_t)last, (int64_t)r->o.len);
    if (state != IDLE)
      rc = cfail_c(r, EC_MALFORMED_EDIT, "File processing incomplete - SEARCH/REPLACE operations still active during finalization");
  }
  if (rc) { ec_buf_free(&result); return rc; }
  if (result.oom) return OOM(r);
  *out = ec_buf_finish(&result, a);
  if (!out->ptr) *out = ec_str_make("", 0);
  return EC_OK;
}

static bool partial_marker(ec_str last, bool v2) {
  if (!last.len || !strchr("-<=+>", last.ptr[0])) return false;
  if (v2)
    return !ec_str_eq_cstr(last, "------- SEARCH") && !ec_str_eq_cstr(last, "=======") && !ec_str_eq_cstr(last, "+++++++ REPLACE");
  return !ec_sr_is_search_start(last) && !ec_sr_is_separator(last) && !ec_sr_is_replace_end(last);
}

ec_error_code ec_cline_peer(ec_ctx *ctx, ec_ws_file *f, ec_str text) {
  const ec_edit *e = &ctx->req->edit;
  bool v2 = false;
  ec_str ver = e->peer.cline_version;
  if (ver.len && !ec_str_eq_cstr(ver, "v1")) {
    if (!ec_str_eq_cstr(ver, "v2"))
      return ec_fail(ctx, EC_INVALID_PARAM, "Invalid version '%.*s' for file content constructor (edit.options.cline_version is v1 or v2)",
                     (int)ver.len, ver.ptr);
    v2 = true;
  }
  cline_run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.f = f;
  if (f->exists) {
    ec_doc *doc;
    ec_error_code rc = ec_ws_doc(ctx, f, &doc);
    if (rc) return rc;
    r.o.text = doc->text;
    r.o.len = doc->len;
  } else {
    r.o.text = "";
  }
  ec_sr_lines l;
  if (ec_sr_split(ctx->arena, text, &l)) return ec_fail_oom(ctx);
  size_t n = l.n;
  if (n && partial_marker(l.items[n - 1], v2)) n--;
  ec_str out;
  ec_error_code rc = v2 ? run_v2(&r, &l, n, e->is_final, &out) : run_v1(&r, &l, n, e->is_final, &out);
  if (rc) return rc;
  if (!e->is_final) ctx->preview = true;
  if (f->exists || out.len || !e->is_final) {
    rc = ec_sr_set_text(ctx, f, out);
    if (rc) return rc;
  } else {
    rc = ec_ws_set_bytes(ctx, f, out);
    if (rc) return rc;
  }
  if (f->touched && r.block > 0) f->replacements = (uint32_t)r.block;
  return EC_OK;
}
