/* Shared SEARCH/REPLACE pieces and the editcore profile's strict parser and applier (sr_blocks.h). */
#include "../match/line_breaks.h"
#include "sr_blocks.h"
#include "../request/profiles.h"
#include "../match/ladder.h"
#include "../messages/report.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../base/sort.h"
#include <stdlib.h>
#include <string.h>

ec_error_code ec_sr_split(ec_arena *a, ec_str text, ec_sr_lines *out) {
  size_t n = 1;
  for (size_t i = 0; i < text.len; i++) n += text.ptr[i] == '\n';
  ec_str *items = ec_arena_calloc(a, n, sizeof *items);
  if (!items) return EC_OUT_OF_MEMORY;
  size_t k = 0, s = 0;
  for (size_t i = 0; i < text.len; i++) {
    if (text.ptr[i] == '\n') {
      items[k++] = ec_str_make(text.ptr + s, i - s);
      s = i + 1;
    }
  }
  items[k] = ec_str_make(text.len ? text.ptr + s : "", text.len - s);
  out->items = items;
  out->n = n;
  out->base = 0;
  return EC_OK;
}

/* Length of the JS white-space character starting at p (0 when there is none). */
static size_t ws_at(const unsigned char *p, size_t n) {
  if (!n) return 0;
  if ((p[0] >= 0x09 && p[0] <= 0x0d) || p[0] == 0x20) return 1;
  if (n >= 2 && p[0] == 0xc2 && p[1] == 0xa0) return 2;
  if (n < 3) return 0;
  if (p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80) return 3;
  if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] <= 0x8a || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf)) return p[2] >= 0x80 ? 3 : 0;
  if (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f) return 3;
  if (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80) return 3;
  if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) return 3;
  return 0;
}

/* Length of the JS white-space character ending at p + n. */
static size_t ws_before(const unsigned char *p, size_t n) {
  if (!n) return 0;
  unsigned char c = p[n - 1];
  if ((c >= 0x09 && c <= 0x0d) || c == 0x20) return 1;
  if (n >= 2 && ws_at(p + n - 2, 2) == 2) return 2;
  if (n >= 3 && ws_at(p + n - 3, 3) == 3) return 3;
  return 0;
}

ec_str ec_sr_trim_start(ec_str s) {
  size_t k;
  while (s.len && (k = ws_at((const unsigned char *)s.ptr, s.len)) != 0) { s.ptr += k; s.len -= k; }
  return s;
}

ec_str ec_sr_trim_end(ec_str s) {
  size_t k;
  while (s.len && (k = ws_before((const unsigned char *)s.ptr, s.len)) != 0) s.len -= k;
  return s;
}

ec_str ec_sr_trim(ec_str s) { return ec_sr_trim_end(ec_sr_trim_start(s)); }

/* /^[c]{3,} WORD>?$/ */
static bool marker(ec_str line, char c, const char *word) {
  size_t i = 0;
  while (i < line.len && line.ptr[i] == c) i++;
  if (i < 3 || i >= line.len || line.ptr[i] != ' ') return false;
  i++;
  size_t wl = strlen(word);
  if (line.len - i < wl || memcmp(line.ptr + i, word, wl) != 0) return false;
  i += wl;
  return i == line.len || (i + 1 == line.len && line.ptr[i] == '>');
}

bool ec_sr_is_search_start(ec_str line) { return marker(line, '-', "SEARCH") || marker(line, '<', "SEARCH"); }
bool ec_sr_is_replace_end(ec_str line) { return marker(line, '+', "REPLACE") || marker(line, '>', "REPLACE"); }
bool ec_sr_is_separator(ec_str line) {
  if (line.len < 3) return false;
  for (size_t i = 0; i < line.len; i++)
    if (line.ptr[i] != '=') return false;
  return true;
}

/* A line that tries to be a marker but is not one: `-------SEARCH`, `<<-- SEARCH`, `-- SEARCH`. */
static bool near_marker(ec_str t, const char *chars, const char *word) {
  size_t wl = strlen(word);
  if (t.len && t.ptr[t.len - 1] == '>') t.len--;
  if (t.len <= wl || memcmp(t.ptr + t.len - wl, word, wl) != 0) return false;
  size_t marks = 0;
  for (size_t i = 0; i < t.len - wl; i++) {
    if (t.ptr[i] && memchr(chars, t.ptr[i], strlen(chars))) marks++;
    else if (t.ptr[i] != ' ' && t.ptr[i] != '\t') return false;
  }
  return marks > 0;
}

/* `------- =======` and the like: = runs mixed with other marker characters. */
static bool near_separator(ec_str t) {
  size_t eq = 0, other = 0;
  for (size_t i = 0; i < t.len; i++) {
    if (t.ptr[i] == '=') eq++;
    else if (t.ptr[i] == '-' || t.ptr[i] == '+' || t.ptr[i] == '<' || t.ptr[i] == '>' || t.ptr[i] == ' ') other++;
    else return false;
  }
  return eq >= 3 && other > 0;
}

/* Lines [a, b) of an LF text as one string, each line followed by '\n'. */
static ec_str join_lines(ec_arena *ar, const ec_sr_lines *l, size_t a, size_t b) {
  if (a >= b) return ec_str_make("", 0);
  const char *s = l->items[a].ptr;
  const char *e = l->items[b - 1].ptr + l->items[b - 1].len;
  if (b < l->n) return ec_str_make(s, (size_t)(e - s) + 1);
  size_t n = (size_t)(e - s);
  char *p = ec_arena_alloc(ar, n + 2);
  if (!p) return ec_str_make(NULL, 0);
  memcpy(p, s, n);
  p[n] = '\n';
  p[n + 1] = 0;
  return ec_str_make(p, n + 1);
}

static ec_error_code mark(ec_ctx *ctx, uint32_t line, int32_t block) {
  ec_error *e = ec_last_error(ctx);
  if (e) {
    e->line = line;
    e->block = block;
  }
  return e ? e->code : EC_OUT_OF_MEMORY;
}
/* Records MALFORMED_EDIT with the edit-text line and block number. */
#define malformed(ctx, line, block, ...) (ec_fail((ctx), EC_MALFORMED_EDIT, __VA_ARGS__), mark((ctx), (line), (block)))

/* Every way to split a block at one of its separator-shaped lines (body lines [body, end)). */
static int all_readings(ec_arena *ar, const ec_sr_lines *l, size_t body, size_t end, const size_t *seps, size_t n_seps,
                        ec_sr_block *b) {
  ec_sr_reading *r = ec_arena_calloc(ar, n_seps, sizeof *r);
  if (!r) return -1;
  for (size_t k = 0; k < n_seps; k++) {
    r[k].search = join_lines(ar, l, body, seps[k]);
    r[k].replace = join_lines(ar, l, seps[k] + 1, end);
    r[k].sep_line = (uint32_t)(l->base + seps[k]) + 1;
    r[k].canonical = ec_str_eq(ec_sr_trim_end(l->items[seps[k]]), ec_str_make("=======", 7));
    if (!r[k].search.ptr || !r[k].replace.ptr) return -1;
  }
  b->readings = r;
  b->n_readings = (uint32_t)n_seps;
  return 0;
}

#define FORMAT_HINT "Each block is: '------- SEARCH', the exact lines to find, '=======', the new lines, '+++++++ REPLACE'."

ec_error_code ec_sr_parse_strict(ec_ctx *ctx, ec_str text, bool is_final, ec_sr_block **out, size_t *n_out) {
  /* The empty lines a text starts with (a reply's edit keeps its line numbers with them,
   * reply/dispatch.c) are counted, not split: 4 MiB of them had made a 64 MB line table. */
  size_t lead = 0;
  while (lead < text.len && text.ptr[lead] == '\n') lead++;
  ec_sr_lines l;
  if (ec_sr_split(ctx->arena, ec_str_drop(text, lead), &l)) return ec_fail_oom(ctx);
  l.base = lead;
  size_t n = l.n;
  if (!is_final && n) {
    ec_str last = l.items[n - 1];
    if (last.len && strchr("-<=+>", last.ptr[0]) && !ec_sr_is_search_start(last) && !ec_sr_is_separator(last) &&
        !ec_sr_is_replace_end(last))
      n--;
  }
  size_t cap = 8, nb = 0;
  ec_sr_block *blocks = ec_arena_calloc(ctx->arena, cap, sizeof *blocks);
  if (!blocks) return ec_fail_oom(ctx);
  enum { OUT, SEARCH, REPLACE } st = OUT;
  size_t sec_start = 0;
  size_t max_blocks = ctx->opt.limits.max_blocks ? ctx->opt.limits.max_blocks : 10000;
  ec_sr_block cur;
  memset(&cur, 0, sizeof cur);
  size_t body_start = 0, seps[EC_SR_MAX_SEPARATORS], n_seps = 0; /* separator-shaped lines of the open block */
  for (size_t i = 0; i < n; i++) {
    ec_str raw = l.items[i];
    ec_str t = ec_sr_trim_end(raw);
    uint32_t ln = (uint32_t)(l.base + i) + 1;
    int32_t bno = (int32_t)nb + 1;
    bool is_start = ec_sr_is_search_start(t), is_sep = ec_sr_is_separator(t), is_end = ec_sr_is_replace_end(t);
    ec_str tt = ec_sr_trim(raw);
    switch (st) {
      case OUT:
        if (is_start) {
          if (nb >= max_blocks)
            return ec_fail(ctx, EC_TOO_LARGE, "the edit has more than %zu SEARCH/REPLACE blocks (options.limits.max_blocks)", max_blocks);
          memset(&cur, 0, sizeof cur);
          cur.line = ln;
          st = SEARCH;
          sec_start = body_start = i + 1;
          n_seps = 0;
        } else if (is_sep) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' separator outside a block: expected '------- SEARCH' before it. " FORMAT_HINT,
                           ln, (int)t.len, t.ptr);
        } else if (is_end) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' outside a block: expected '------- SEARCH' and '=======' before it. " FORMAT_HINT,
                           ln, (int)t.len, t.ptr);
        } else if (near_marker(tt, "-<", "SEARCH")) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' is not a valid SEARCH marker: expected '------- SEARCH' (7 dashes, a space, SEARCH) "
                           "or '<<<<<<< SEARCH'. " FORMAT_HINT, ln, (int)tt.len, tt.ptr);
        } else if (near_marker(tt, "+>", "REPLACE")) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' is not a valid REPLACE marker and no block is open: expected '------- SEARCH' first. "
                           FORMAT_HINT, ln, (int)tt.len, tt.ptr);
        }
        break;
      case SEARCH:
        if (is_sep) {
          cur.search = join_lines(ctx->arena, &l, sec_start, i);
          if (!cur.search.ptr) return ec_fail_oom(ctx);
          cur.sep_line = ln;
          st = REPLACE;
          sec_start = i + 1;
          seps[n_seps++] = i;
        } else if (is_start) {
          return malformed(ctx, ln, bno, "Line %u: a new SEARCH marker, but block %d (from line %u) has no '=======' separator yet: "
                           "expected '=======' then the new lines and '+++++++ REPLACE'.", ln, bno, cur.line);
        } else if (is_end) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s', but block %d (from line %u) has no '=======' separator: expected '=======' "
                           "between the SEARCH lines and the new lines.", ln, (int)t.len, t.ptr, bno, cur.line);
        } else if (near_separator(tt)) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' is not a valid separator: expected '=======' alone on its line (block %d).",
                           ln, (int)tt.len, tt.ptr, bno);
        } else if (near_marker(tt, "-<", "SEARCH") || near_marker(tt, "+>", "REPLACE")) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' looks like a marker but is not one, inside the SEARCH section of block %d: "
                           "expected '=======' next. " FORMAT_HINT, ln, (int)tt.len, tt.ptr, bno);
        }
        break;
      case REPLACE:
        if (is_end || is_start) {
          if (is_start)
            return malformed(ctx, ln, bno, "Line %u: a new SEARCH marker, but block %d (from line %u) is not closed: expected "
                             "'+++++++ REPLACE' after its new lines.", ln, bno, cur.line);
          cur.replace = join_lines(ctx->arena, &l, sec_start, i);
          if (!cur.replace.ptr) return ec_fail_oom(ctx);
          cur.complete = true;
          if (n_seps > 1 && all_readings(ctx->arena, &l, body_start, i, seps, n_seps, &cur)) return ec_fail_oom(ctx);
          if (nb == cap) {
            ec_sr_block *p = ec_arena_grow(ctx->arena, blocks, cap * sizeof *p, cap * 2 * sizeof *p);
            if (!p) return ec_fail_oom(ctx);
            blocks = p;
            cap *= 2;
          }
          blocks[nb++] = cur;
          st = OUT;
        } else if (is_sep) {
          if (n_seps == EC_SR_MAX_SEPARATORS)
            return malformed(ctx, ln, bno, "Block %d (from line %u) has more than %d lines that look like its '=======' separator, "
                             "so it cannot be read reliably; nothing was changed. Send this change with old_string/new_string or as "
                             "the whole file instead.", bno, cur.line, EC_SR_MAX_SEPARATORS);
          seps[n_seps++] = i;
        } else if (near_marker(tt, "+>", "REPLACE") || near_marker(tt, "-<", "SEARCH")) {
          return malformed(ctx, ln, bno, "Line %u: '%.*s' is not a valid marker: expected '+++++++ REPLACE' to close block %d (from line %u).",
                           ln, (int)tt.len, tt.ptr, bno, cur.line);
        }
        break;
    }
  }
  if (st != OUT) {
    int32_t bno = (int32_t)nb + 1;
    if (is_final) {
      if (st == SEARCH)
        return malformed(ctx, (uint32_t)(l.base + n), bno, "Block %d (from line %u) ends at the end of the text without '=======' and "
                         "'+++++++ REPLACE': expected the separator, the new lines and the REPLACE marker.", bno, cur.line);
      return malformed(ctx, (uint32_t)(l.base + n), bno, "Block %d (from line %u) ends at the end of the text without '+++++++ REPLACE': "
                       "expected the REPLACE marker after its new lines (was the reply cut off?).", bno, cur.line);
    }
    if (st == REPLACE) {
      /* streaming: the block being written shows its new lines so far */
      cur.replace = join_lines(ctx->arena, &l, sec_start, n);
      if (n > sec_start && l.items[n - 1].len == 0 && n == l.n) cur.replace.len--; /* text ends on a fresh line */
      if (!cur.replace.ptr) return ec_fail_oom(ctx);
      if (nb == cap) {
        ec_sr_block *p = ec_arena_grow(ctx->arena, blocks, cap * sizeof *p, (cap + 1) * sizeof *p);
        if (!p) return ec_fail_oom(ctx);
        blocks = p;
      }
      blocks[nb++] = cur;
    }
  }
  *out = blocks;
  *n_out = nb;
  return EC_OK;
}

ec_error_code ec_sr_emit_blocks(ec_ctx *ctx, ec_str path, const ec_sr_block *blocks, size_t n) {
  ctx->res->has_blocks = true;
  for (size_t i = 0; i < n; i++) {
    ec_block *b = ec_result_add_block(ctx->res);
    if (!b) return ec_fail_oom(ctx);
    b->path = path;
    b->search = blocks[i].search;
    b->replace = blocks[i].replace;
  }
  return EC_OK;
}

ec_error_code ec_sr_set_text(ec_ctx *ctx, ec_ws_file *f, ec_str text) {
  if (!f->exists) return ec_ws_set_bytes(ctx, f, text);
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  ec_doc next;
  if (ec_doc_replace_lines(ctx->arena, doc, 0, doc->len, text, &next)) return ec_fail_oom(ctx);
  ec_ws_set(ctx, f, &next);
  return EC_OK;
}

/* Section - the strict applier */

typedef struct planned {
  size_t start, end;
  ec_str text;
  size_t block;
  uint32_t start_line, end_line;
  ec_strategy strategy;
  double confidence;
} planned;

static int cmp_planned(const void *a, const void *b) {
  const planned *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

static ec_error_code with_block(ec_ctx *ctx, ec_error_code rc, ec_ws_file *f, size_t bi, uint32_t line) {
  ec_error *e = ec_last_error(ctx);
  if (e) {
    e->block = (int32_t)bi + 1;
    if (!e->path.len) e->path = f->path;
    if (line && !e->line) e->line = line;
  }
  return rc;
}

/* Keeps the matches that cover whole lines. */
static void keep_whole_lines(const char *text, size_t len, ec_found_list *l) {
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    ec_found *m = &l->items[i];
    bool ok = (m->start == 0 || text[m->start - 1] == '\n') && (m->end == len || (m->end > 0 && text[m->end - 1] == '\n'));
    if (ok) l->items[k++] = *m;
  }
  l->total -= l->n - k;
  l->n = k;
}

typedef struct ladder {
  ec_match_env *env;
  const ec_strategy *order;
  size_t n_order;
  const char *text;
  size_t len;
} ladder;

/* Tries the strategies in order until one finds the SEARCH text on whole lines. */
static ec_error_code find_search(const ladder *ld, ec_str search, ec_str replace, ec_found_list *found, ec_strategy *used) {
  memset(found, 0, sizeof *found);
  found->limit = 1000;
  *used = EC_STRATEGY_EXACT;
  for (size_t s = 0; s < ld->n_order; s++) {
    ec_strategy one = ld->order[s];
    ec_error_code rc = ec_ladder_find(ld->env, &one, 1, search, replace, found, used);
    if (rc) return rc;
    keep_whole_lines(ld->text, ld->len, found);
    if (found->total) break;
  }
  return EC_OK;
}

/* For a block with several separator-shaped lines: the one reading whose SEARCH is found, or
 * among several found the one split at the only exact '=======' (an underline of exactly seven
 * is rare; the marker is what models write). When none is found the first reading stands (and
 * fails with the usual diagnostics); otherwise the block is ambiguous and refused. */
static ec_error_code choose_reading(ec_ctx *ctx, const ladder *ld, ec_ws_file *f, const ec_sr_block *bk, size_t bi,
                                    ec_sr_block *chosen) {
  *chosen = *bk;
  uint32_t hits = 0, first_hit = 0, second_hit = 0, canonical_hits = 0;
  const ec_sr_reading *pick = NULL, *canonical = NULL;
  for (uint32_t k = 0; k < bk->n_readings; k++) {
    const ec_sr_reading *r = &bk->readings[k];
    if (!r->search.len || ec_str_eq(r->search, r->replace)) continue;
    ec_found_list found;
    ec_strategy used;
    ec_error_code rc = find_search(ld, r->search, r->replace, &found, &used);
    if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
    if (rc) {
      ec_fail(ctx, rc, "%.*s", (int)ld->env->message.len, ld->env->message.ptr ? ld->env->message.ptr : "matching stopped");
      return with_block(ctx, rc, f, bi, bk->line);
    }
    if (!found.total) continue;
    if (hits++ == 0) pick = r, first_hit = r->sep_line;
    else if (hits == 2) second_hit = r->sep_line;
    if (r->canonical) canonical_hits++, canonical = r;
  }
  if (hits > 1 && canonical_hits == 1) pick = canonical, hits = 1;
  if (hits == 1) {
    chosen->search = pick->search;
    chosen->replace = pick->replace;
    chosen->sep_line = pick->sep_line;
  }
  if (hits < 2) return EC_OK;
  malformed(ctx, bk->line, (int32_t)bi + 1, "Block %zu (line %u) has %u lines that could be its '=======' separator, and "
            "splitting it at line %u or at line %u both give a SEARCH section found in '%.*s', so it is ambiguous; nothing "
            "was changed. Send this change with old_string/new_string (the replace format) or as the whole file instead.",
            bi + 1, bk->line, bk->n_readings, first_hit, second_hit, (int)f->path.len, f->path.ptr);
  return with_block(ctx, EC_MALFORMED_EDIT, f, bi, bk->line);
}

static bool is_noop(const ec_ctx *ctx, const ec_sr_block *bk) {
  return bk->search.len && ec_str_eq(bk->search, bk->replace) && (ctx->req->edit.is_final || bk->complete);
}

/* Where block i (not an empty SEARCH, not a no-op) lands in ld's text: its one place, framed and
 * with its replacement; the error recorded otherwise. in_order: the text is the one the earlier
 * blocks left, so the block must be found exactly once there (the rule for blocks with identical
 * SEARCH texts, which take their places in turn, belongs to the file as sent). */
static ec_error_code place_block(ec_ctx *ctx, const ladder *ld, ec_ws_file *f, const ec_sr_block *blocks, size_t n, size_t i,
                                 const ec_sr_block *bk, bool in_order, size_t doc_len, planned *out) {
  ec_match_env *env = ld->env;
  ec_found_list found;
  ec_strategy used;
  ec_error_code rc = find_search(ld, bk->search, bk->replace, &found, &used);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    ec_fail(ctx, rc, "%.*s", (int)env->message.len, env->message.ptr ? env->message.ptr : "matching stopped");
    return with_block(ctx, rc, f, i, bk->line);
  }
  if (!found.total) {
    ec_found_list again = {0};
    if (bk->replace.len && !ec_strategy_exact(env, bk->replace, bk->search, &again)) {
      keep_whole_lines(ld->text, ld->len, &again);
      if (again.total) {
        ec_found_set_lines(env, &again.items[0]);
        ec_fail(ctx, EC_NOOP, "SEARCH block %zu was not found in '%.*s', but its REPLACE text already is (line %u): the block "
                "looks already applied; nothing was changed.", i + 1, (int)f->path.len, f->path.ptr, again.items[0].start_line);
        return with_block(ctx, EC_NOOP, f, i, bk->line);
      }
    }
    ec_str what = ec_arena_printf(ctx->arena, "SEARCH block %zu", i + 1);
    if (!what.ptr) return ec_fail_oom(ctx);
    ec_report_no_match(ctx, env, f, what.ptr, bk->search);
    return with_block(ctx, EC_NO_MATCH, f, i, bk->line);
  }
  size_t pick = 0;
  if (found.total > 1) {
    /* As sent, blocks with one SEARCH text take its places in file order; in order, each takes the
     * first of the places the blocks still to come need. */
    size_t same = 0, ord = 0;
    for (size_t j = in_order ? i : 0; j < n; j++) {
      if (!ec_str_eq(blocks[j].search, bk->search) || (in_order && is_noop(ctx, &blocks[j]))) continue;
      if (j < i) ord++;
      same++;
    }
    if (same != found.total || found.n != found.total) {
      ec_str lines = ec_report_line_ranges(ctx->arena, &found);
      ec_fail(ctx, EC_AMBIGUOUS, "SEARCH block %zu (line %u) matches %zu places in '%.*s' (%s%s: lines %.*s)%s; nothing was "
              "changed. Add surrounding lines to the SEARCH section so it matches exactly one place.", i + 1, bk->line,
              found.total, (int)f->path.len, f->path.ptr, used == EC_STRATEGY_EXACT ? "exactly" : "by ",
              used == EC_STRATEGY_EXACT ? "" : ec_strategy_name(used), (int)lines.len, lines.ptr ? lines.ptr : "",
              in_order ? " of the text as the blocks before it leave it" : "");
      return with_block(ctx, EC_AMBIGUOUS, f, i, bk->line);
    }
    pick = ord;
  }
  ec_found m = found.items[pick];
  if (ctx->req->profile == EC_PROFILE_EDITCORE && ec_frame_applies(m.strategy)) {
    /* The blank lines a SEARCH section starts or ends with (match/line_breaks.h) */
    ec_str why = {NULL, 0};
    rc = ec_frame_line_breaks(ctx->arena, ld->text, ld->len, bk->search, bk->replace, 0, ld->len, &m.start, &m.end, &m.replacement, &why);
    if (!rc)
      rc = ec_check_inner_blank_lines(ctx->arena, ec_str_make(ld->text + m.start, m.end - m.start), bk->search, bk->replace,
                                      m.replacement, &why);
    if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
    if (rc) {
      ec_fail(ctx, rc, "SEARCH block %zu (line %u) matches line %u of '%.*s' by %s, but %.*s Nothing was changed.", i + 1, bk->line, m.start_line,
              (int)f->path.len, f->path.ptr, ec_strategy_name(m.strategy), (int)why.len, why.ptr);
      return with_block(ctx, rc, f, i, bk->line);
    }
  }
  ec_str text = m.replacement;
  if (m.end > doc_len) { /* the virtual final LF of a file without one */
    m.end = doc_len;
    if (text.len && text.ptr[text.len - 1] == '\n') text.len--;
  }
  *out = (planned){m.start, m.end, text, i, m.start_line, m.end_line, m.strategy, m.confidence};
  return EC_OK;
}

/* The block as read (its one reading when it has several), or the error recorded. */
static ec_error_code read_block(ec_ctx *ctx, const ladder *ld, ec_ws_file *f, const ec_sr_block *blocks, size_t i,
                                ec_sr_block *reading, const ec_sr_block **bk) {
  *bk = &blocks[i];
  if (!blocks[i].n_readings) return EC_OK;
  ec_error_code rc = choose_reading(ctx, ld, f, &blocks[i], i, reading);
  if (!rc) *bk = reading;
  return rc;
}

/* Every block matched in the file as sent; the splices in file order, checked not to overlap. */
static ec_error_code plan_as_sent(ec_ctx *ctx, const ladder *ld, ec_ws_file *f, const ec_doc *doc, const ec_sr_block *blocks,
                                  size_t n, bool skip_noops, planned *plan, size_t *np_out, ec_splice **sp_out) {
  size_t np = 0;
  for (size_t i = 0; i < n; i++) {
    ec_sr_block reading;
    const ec_sr_block *bk;
    ec_error_code rc = read_block(ctx, ld, f, blocks, i, &reading, &bk);
    if (rc) return rc;
    if (!bk->search.len) {
      if (!doc->len) {
        plan[np++] = (planned){0, 0, bk->replace, i, 1, 1, EC_STRATEGY_EXACT, 1.0};
        continue;
      }
      malformed(ctx, bk->line, (int32_t)i + 1, "Block %zu (line %u) has an empty SEARCH section, but '%.*s' is not empty: an empty "
                "SEARCH would discard the whole file. Put the exact lines to replace between the SEARCH marker and '=======' "
                "(or send the whole new file as whole_file).", i + 1, bk->line, (int)f->path.len, f->path.ptr);
      return with_block(ctx, EC_MALFORMED_EDIT, f, i, bk->line);
    }
    /* While a block streams in (a preview, its REPLACE marker not seen yet), a REPLACE so far equal
     * to its SEARCH is the usual state: the model is copying the lines it will change. The preview
     * shows the block in place, unchanged so far; only a finished block that changes nothing is NOOP. */
    if (is_noop(ctx, bk)) {
      if (skip_noops) continue;
      ec_fail(ctx, EC_NOOP, "Block %zu (line %u): its SEARCH and REPLACE sections are identical, so it changes nothing; nothing "
              "was applied. Remove it or write the change in the REPLACE section.", i + 1, bk->line);
      return with_block(ctx, EC_NOOP, f, i, bk->line);
    }
    if ((rc = place_block(ctx, ld, f, blocks, n, i, bk, false, doc->len, &plan[np]))) return rc;
    np++;
  }
  planned *sorted = ec_arena_alloc(ctx->arena, (np ? np : 1) * sizeof *sorted);
  ec_splice *sp = ec_arena_alloc(ctx->arena, (np ? np : 1) * sizeof *sp);
  if (!sorted || !sp) return ec_fail_oom(ctx);
  memcpy(sorted, plan, np * sizeof *sorted);
  ec_sort(sorted, np, sizeof *sorted, cmp_planned);
  for (size_t k = 0; k < np; k++) {
    if (k && sorted[k].start < sorted[k - 1].end) {
      const planned *a = &sorted[k - 1], *b = &sorted[k];
      size_t first = a->block < b->block ? a->block : b->block, second = a->block < b->block ? b->block : a->block;
      malformed(ctx, blocks[second].line, (int32_t)second + 1, "SEARCH blocks %zu and %zu overlap in '%.*s' (lines %u-%u and %u-%u); "
                "nothing was changed. Merge them into one block, or make each cover different lines.", first + 1, second + 1,
                (int)f->path.len, f->path.ptr, a->start_line, a->end_line, b->start_line, b->end_line);
      return with_block(ctx, EC_MALFORMED_EDIT, f, second, blocks[second].line);
    }
    sp[k].start = sorted[k].start;
    sp[k].end = sorted[k].end;
    sp[k].text = sorted[k].text;
  }
  *np_out = np;
  *sp_out = sp;
  return EC_OK;
}

/* The text as matched: with a final LF when it has none (a block may end on such a last line). */
static ec_str with_final_lf(ec_arena *a, ec_str t) {
  if (!t.len || t.ptr[t.len - 1] == '\n') return t.ptr ? t : ec_str_make("", 0);
  char *p = ec_arena_alloc(a, t.len + 2);
  if (!p) return ec_str_make(NULL, 0);
  memcpy(p, t.ptr, t.len);
  p[t.len] = '\n';
  p[t.len + 1] = 0;
  return ec_str_make(p, t.len + 1);
}

/* Every block, in reply order, matched in the text the blocks before it left (a reply's blocks,
 * as Aider and Cline apply them): *out is the final LF text. Each text is matched as the file is
 * (a virtual final LF when it has none), so a block reads the same either way. */
/* Memory: each step's text is a block of its own, released when the next step's is written, and
 * each block's search (line tables, lists of places) lives in a scratch arena emptied before the
 * next one; only what a step hands over (its planned text) is copied out. 9,990 blocks over ten
 * 400 KB files had kept every intermediate text: 3.9 GB. */
static ec_error_code plan_steps(ec_ctx *ctx, ec_arena *scratch, ec_ws_file *f, ec_str cur, const ec_strategy *order,
                                size_t n_order, const ec_sr_block *blocks, size_t n, planned *plan, size_t *np_out, ec_str *out,
                                char **owned);

/* *out is the doc's own text when no step wrote, else a block of its own that the caller releases
 * once it has used it. */

static ec_error_code plan_in_order(ec_ctx *ctx, ec_ws_file *f, ec_str cur, const ec_strategy *order, size_t n_order,
                                   const ec_sr_block *blocks, size_t n, planned *plan, size_t *np_out, ec_str *out) {
  ec_arena *scratch = ec_arena_new(ec_arena_allocator(ctx->arena));
  if (!scratch) return ec_fail_oom(ctx);
  char *owned = NULL;
  ec_error_code rc = plan_steps(ctx, scratch, f, cur, order, n_order, blocks, n, plan, np_out, out, &owned);
  ec_arena_free(scratch);
  if (rc && owned) ec_arena_release(ctx->arena, owned);
  return rc;
}

static ec_error_code plan_steps(ec_ctx *ctx, ec_arena *scratch, ec_ws_file *f, ec_str cur, const ec_strategy *order,
                                size_t n_order, const ec_sr_block *blocks, size_t n, planned *plan, size_t *np_out, ec_str *out,
                                char **owned) {
  size_t np = 0;
  uint64_t scanned = 0;
  /* *owned: cur's text when a step wrote it (the first is the doc's) */
  for (size_t i = 0; i < n; i++) {
    ec_arena_reset(scratch);
    ec_str mt = with_final_lf(scratch, cur);
    if (!mt.ptr) return ec_fail_oom(ctx);
    ec_match_env env;
    ec_match_env_init(&env, scratch, mt.ptr, mt.len, &ctx->opt, ctx->req->profile);
    const ladder ld = {&env, order, n_order, mt.ptr, mt.len};
    ec_sr_block reading;
    const ec_sr_block *bk;
    ec_error_code rc = read_block(ctx, &ld, f, blocks, i, &reading, &bk);
    if (rc) return rc;
    if (is_noop(ctx, bk)) continue;
    if (!bk->search.len) { /* fills an empty text, as in plan_as_sent; refused on text */
      if (cur.len) return malformed(ctx, bk->line, (int32_t)i + 1, "Block %zu (line %u) has an empty SEARCH section, but the text "
                                    "is not empty.", i + 1, bk->line);
      plan[np] = (planned){0, 0, bk->replace, i, 1, 1, EC_STRATEGY_EXACT, 1.0};
    } else {
      if ((scanned += mt.len) > EC_SR_SCAN_BUDGET)
        return ec_fail(ctx, EC_TOO_LARGE, "the blocks would search more than %llu bytes", (unsigned long long)EC_SR_SCAN_BUDGET);
      if ((rc = place_block(ctx, &ld, f, blocks, n, i, bk, true, cur.len, &plan[np]))) return rc;
    }
    planned *p = &plan[np++];
    p->text = ec_arena_strdup(ctx->arena, p->text.ptr ? p->text.ptr : "", p->text.len); /* may be in scratch */
    if (!p->text.ptr) return ec_fail_oom(ctx);
    size_t len = cur.len - (p->end - p->start) + p->text.len;
    char *next = ec_arena_alloc_own(ctx->arena, len + 1);
    if (!next) return ec_fail_oom(ctx);
    memcpy(next, cur.ptr, p->start);
    memcpy(next + p->start, p->text.ptr, p->text.len);
    memcpy(next + p->start + p->text.len, cur.ptr + p->end, cur.len - p->end);
    next[len] = 0;
    if (*owned) ec_arena_release(ctx->arena, *owned);
    *owned = next;
    cur = ec_str_make(next, len);
  }
  *np_out = np;
  *out = cur;
  return EC_OK;
}

ec_error_code ec_sr_apply_strict(ec_ctx *ctx, ec_ws_file *f, const ec_sr_block *blocks, size_t n) {
  if (!n) {
    if (ctx->preview) return EC_OK;
    return malformed(ctx, 0, 0, "No SEARCH/REPLACE block found in the edit text. " FORMAT_HINT);
  }
  if (!f->exists) {
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(ctx->arena));
    for (size_t i = 0; i < n; i++) {
      if (blocks[i].search.len) {
        ec_buf_free(&b);
        ec_fail(ctx, EC_NOT_FOUND, "'%.*s' does not exist, so SEARCH block %zu cannot match in it. To create the file, send one "
                "block with an empty SEARCH section and the whole content after '======='.", (int)f->path.len, f->path.ptr, i + 1);
        return with_block(ctx, EC_NOT_FOUND, f, i, blocks[i].line);
      }
      ec_buf_append_str(&b, blocks[i].replace);
    }
    ec_str text = ec_buf_finish(&b, ctx->arena);
    if (!text.ptr) return ec_fail_oom(ctx);
    f->replacements = (uint32_t)n;
    return ec_ws_set_bytes(ctx, f, text);
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;

  /* Match against the text with a final LF, so a block may end on a last line that has none. */
  ec_str with_lf = with_final_lf(ctx->arena, ec_str_make(doc->text, doc->len));
  if (!with_lf.ptr) return ec_fail_oom(ctx);
  const char *mt = with_lf.ptr;
  size_t mlen = with_lf.len;
  ec_strategy order_buf[EC_STRATEGY__COUNT];
  const ec_strategy *order = ctx->opt.strategies;
  size_t n_order = ctx->opt.n_strategies;
  if (!order) { n_order = ec_profile_strategies(ctx->req->profile, order_buf); order = order_buf; }

  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, mt, mlen, &ctx->opt, ctx->req->profile);
  planned *plan = ec_arena_calloc(ctx->arena, n, sizeof *plan);
  if (!plan) return ec_fail_oom(ctx);
  const ladder ld = {&env, order, n_order, mt, mlen};
  /* Each block is looked for in the whole file (its uniqueness too): 10,000 blocks on a 1 MB
   * file search 10 GB. The blocks of one request may search EC_SR_SCAN_BUDGET bytes in all,
   * which is known before the first search. */
  if ((uint64_t)n * mlen > EC_SR_SCAN_BUDGET)
    return ec_fail(ctx, EC_TOO_LARGE, "the %zu SEARCH/REPLACE blocks would each search all of '%.*s' (%zu bytes): more than %llu bytes "
                   "of search in one request; nothing was applied. Send at most %llu blocks per request on this file, or use "
                   "whole_file for a rewrite.", n, (int)f->path.len, f->path.ptr, mlen, (unsigned long long)EC_SR_SCAN_BUDGET,
                   (unsigned long long)(EC_SR_SCAN_BUDGET / (mlen ? mlen : 1)));

  /* A reply's blocks (docs/reply.md): a no-op block is skipped with a note, and blocks may build on
   * each other, applied in order; only when that reading and the file-as-sent one agree, or one of
   * them alone is possible. Previews and the search_replace format keep the file-as-sent rules. */
  bool reply = ctx->reply_blocks && !ctx->preview;
  size_t n_noop = 0;
  for (size_t i = 0; reply && i < n; i++) n_noop += is_noop(ctx, &blocks[i]);
  if (n_noop == n) reply = false; /* nothing would change: NOOP, as ever */

  size_t np = 0, errors_before = ctx->res->n_errors;
  ec_splice *sp = NULL;
  char *seq_own = NULL;
  ec_error_code rc_sent = plan_as_sent(ctx, &ld, f, doc, blocks, n, reply, plan, &np, &sp);
  if (rc_sent == EC_OUT_OF_MEMORY || (rc_sent && !reply)) return rc_sent;
  ec_doc next;
  if (!rc_sent && ec_doc_splice(ctx->arena, doc, sp, np, &next)) return ec_fail_oom(ctx);
  if (reply) {
    size_t errors_sent = ctx->res->n_errors, np2 = 0;
    planned *plan2 = ec_arena_calloc(ctx->arena, n, sizeof *plan2);
    if (!plan2) return ec_fail_oom(ctx);
    ec_str seq;
    ec_error_code rc_seq = plan_in_order(ctx, f, ec_str_make(doc->text, doc->len), order, n_order, blocks, n, plan2, &np2, &seq);
    if (rc_seq == EC_OUT_OF_MEMORY) return rc_seq;
    /* seq is a block of its own once a step wrote it: released once compared or copied (a reply of
     * 9,990 one-block regions had kept 9,990 texts of its files) */
    seq_own = rc_seq ? NULL : (seq.ptr != doc->text ? (char *)seq.ptr : NULL);
    if (rc_sent && rc_seq) { /* neither reading places every block: the file-as-sent error is the one reported */
      ctx->res->n_errors = errors_sent;
      return rc_sent;
    }
    if (rc_seq) { /* as sent, every block lands; in order, one is ambiguous or lost: less certain, refused */
      memmove(ctx->res->errors + errors_before, ctx->res->errors + errors_sent, (ctx->res->n_errors - errors_sent) * sizeof *ctx->res->errors);
      ctx->res->n_errors -= errors_sent - errors_before;
      return rc_seq;
    }
    if (!rc_sent && !rc_seq && !ec_str_eq(seq, ec_str_make(next.text, next.len))) {
      if (seq_own) ec_arena_release(ctx->arena, seq_own);
      ctx->res->n_errors = errors_before;
      size_t differ = 0; /* the first block placed differently by the two readings */
      for (size_t k = 0; k < np2 && k < np; k++)
        if (plan[k].start != plan2[k].start || !ec_str_eq(plan[k].text, plan2[k].text)) { differ = k; break; }
      size_t bi = plan2[differ].block;
      ec_fail(ctx, EC_AMBIGUOUS, "SEARCH block %zu (line %u) lands at line %u of '%.*s' as sent but at line %u of the text the blocks "
              "before it leave, and the two readings give different files; nothing was changed. Make each block's SEARCH match one "
              "place whether or not the blocks before it are applied.", bi + 1, blocks[bi].line, plan[differ].start_line,
              (int)f->path.len, f->path.ptr, plan2[differ].start_line);
      return with_block(ctx, EC_AMBIGUOUS, f, bi, blocks[bi].line);
    }
    ctx->res->n_errors = errors_before;
    for (size_t i = 0; i < n; i++)
      if (is_noop(ctx, &blocks[i]) &&
          !ec_result_add_note(ctx->res, "Block %zu (line %u) of '%.*s' was skipped: its SEARCH and REPLACE sections are identical, "
                              "so it changes nothing; the other blocks were applied.", i + 1, blocks[i].line, (int)f->path.len, f->path.ptr))
        return ec_fail_oom(ctx);
    if (rc_sent) { /* only the in-order reading places every block */
      for (size_t k = 0; k < np2 && k < 1000; k++)
        if (ec_ws_add_match(ctx, f, plan2[k].start_line, plan2[k].end_line, plan2[k].strategy, plan2[k].confidence))
          return EC_OUT_OF_MEMORY;
      rc = ec_sr_set_text(ctx, f, seq); /* copies it */
      if (seq_own) ec_arena_release(ctx->arena, seq_own);
      if (rc) return rc;
      f->replacements = (uint32_t)np2;
      return EC_OK;
    }
  }
  if (seq_own) ec_arena_release(ctx->arena, seq_own); /* only compared with the text as sent */
  for (size_t k = 0; k < np && k < 1000; k++)
    if (ec_ws_add_match(ctx, f, plan[k].start_line, plan[k].end_line, plan[k].strategy, plan[k].confidence))
      return EC_OUT_OF_MEMORY;
  ec_ws_replace_doc(ctx, f, &next);
  f->replacements = (uint32_t)np;
  return EC_OK;
}
