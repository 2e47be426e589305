#include "codex_patch_parse.h"
#include "codex_seek.h"
#include "../base/str.h"
#include <string.h>

#define BEGIN_MARKER "*** Begin Patch"
#define END_MARKER "*** End Patch"
#define ADD_MARKER "*** Add File: "
#define DELETE_MARKER "*** Delete File: "
#define UPDATE_MARKER "*** Update File: "
#define MOVE_MARKER "*** Move to: "
#define EOF_MARKER "*** End of File"

typedef struct pline {
  ec_str s;
  uint32_t real;        /* 1-based line of edit.text */
} pline;

typedef struct parser {
  ec_arena *a;
  bool ec;              /* editcore mode */
  pline *L;
  size_t n;
  ec_cp_parse_error *err;
} parser;


static ec_error_code fail_msg(parser *p, uint32_t real, ec_str msg) {
  if (!msg.ptr) return EC_OUT_OF_MEMORY;
  p->err->message = msg;
  p->err->line = real;
  return EC_MALFORMED_EDIT;
}

/* Section - boundaries */

static ec_error_code boundary_error(parser *p, const pline *L, size_t n) {
  bool first_ok = n && ec_str_eq_cstr(ec_u8_trim(L[0].s), BEGIN_MARKER);
  if (!p->ec) {
    return fail_msg(p, n ? (first_ok ? L[n - 1].real : L[0].real) : 0,
                    ec_arena_printf(p->a, first_ok || !n ? "Invalid patch: The last line of the patch must be '*** End Patch'"
                                                         : "Invalid patch: The first line of the patch must be '*** Begin Patch'"));
  }
  if (!n)
    return fail_msg(p, 0, ec_arena_printf(p->a, "Invalid patch: the patch is empty. Send the changes as '*** Begin Patch', "
                                                "then '*** Update File: <path>' (or Add/Delete File) hunks, then '*** End Patch'."));
  if (!first_ok)
    return fail_msg(p, L[0].real,
                    ec_arena_printf(p->a, "Invalid patch, line %u: expected '*** Begin Patch' as the first line, found '%.*s%s'. "
                                          "Send the patch from '*** Begin Patch' to '*** End Patch' with nothing around it.",
                                    L[0].real, ec_echo_len(L[0].s), L[0].s.ptr, ec_echo_more(L[0].s)));
  return fail_msg(p, L[n - 1].real,
                  ec_arena_printf(p->a, "Invalid patch, line %u: expected '*** End Patch' as the last line, found '%.*s%s'. "
                                        "The patch looks cut off: end it with a line '*** End Patch'.",
                                  L[n - 1].real, ec_echo_len(L[n - 1].s), L[n - 1].s.ptr, ec_echo_more(L[n - 1].s)));
}

static bool boundaries_ok(const pline *L, size_t n) {
  return n >= 2 && ec_str_eq_cstr(ec_u8_trim(L[0].s), BEGIN_MARKER) && ec_str_eq_cstr(ec_u8_trim(L[n - 1].s), END_MARKER);
}

/* editcore: `[apply_patch] <<[-]['"]WORD['"]` opening a heredoc; *word gets WORD. */
static bool heredoc_open(ec_str s, ec_str *word) {
  s = ec_u8_trim(s);
  if (ec_str_starts_with(s, "apply_patch")) s = ec_u8_trim_start(ec_str_drop(s, 11));
  else if (ec_str_starts_with(s, "applypatch")) s = ec_u8_trim_start(ec_str_drop(s, 10));
  if (!ec_str_starts_with(s, "<<")) return false;
  s = ec_str_drop(s, 2);
  if (ec_str_starts_with(s, "-")) s = ec_str_drop(s, 1);
  s = ec_u8_trim_start(s);
  char q = s.len && (s.ptr[0] == '\'' || s.ptr[0] == '"') ? s.ptr[0] : 0;
  if (q) {
    if (s.len < 3 || s.ptr[s.len - 1] != q) return false;
    s.ptr++;
    s.len -= 2;
  }
  if (!s.len) return false;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.ptr[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  *word = s;
  return true;
}

static bool blank(ec_str s) { return ec_u8_trim(s).len == 0; }

/* editcore: drops a markdown fence or heredoc around the patch, and blank lines at the ends. */
static void unwrap_editcore(pline **L, size_t *n) {
  for (int round = 0; round < 2; round++) {
    while (*n && blank((*L)[0].s)) { (*L)++; (*n)--; }
    while (*n && blank((*L)[*n - 1].s)) (*n)--;
    if (*n < 3 || boundaries_ok(*L, *n)) return;
    ec_str first = ec_u8_trim((*L)[0].s), last = ec_u8_trim((*L)[*n - 1].s), word;
    if ((ec_str_starts_with(first, "```") || ec_str_starts_with(first, "~~~")) && (ec_str_eq_cstr(last, "```") || ec_str_eq_cstr(last, "~~~"))) {
      (*L)++;
      *n -= 2;
    } else if (heredoc_open(first, &word) && ec_str_eq(last, word)) {
      (*L)++;
      *n -= 2;
    } else {
      return;
    }
  }
}

/* Section - hunks */

static bool push(ec_arena *a, void **arr, size_t *n, size_t *cap, size_t size) {
  if (*n == *cap) {
    size_t nc = *cap ? *cap * 2 : 8;
    void *p = ec_arena_grow(a, *arr, *cap * size, nc * size);
    if (!p) return false;
    *arr = p;
    *cap = nc;
  }
  (*n)++;
  return true;
}

/* A unified-diff hunk header's tail: "-a[,b] +c[,d] @@[ text]" → true, *ctx = text (trimmed). */
static bool unified_header(ec_str s, ec_str *ctx) {
  size_t i = 0;
  for (int side = 0; side < 2; side++) {
    if (i >= s.len || s.ptr[i] != (side ? '+' : '-')) return false;
    i++;
    size_t d = i;
    while (i < s.len && ((s.ptr[i] >= '0' && s.ptr[i] <= '9') || s.ptr[i] == ',')) i++;
    if (i == d) return false;
    if (i >= s.len || s.ptr[i] != ' ') return false;
    i++;
  }
  if (s.len - i < 2 || s.ptr[i] != '@' || s.ptr[i + 1] != '@') return false;
  *ctx = ec_u8_trim(ec_str_drop(s, i + 2));
  return true;
}

/* editcore: whether s is an `@@` line; *ctx gets its context (ptr NULL when none). */
static bool context_line(parser *p, ec_str s, ec_str *ctx) {
  ec_str none = {NULL, 0};
  if (ec_str_eq_cstr(s, "@@")) { *ctx = none; return true; }
  if (ec_str_starts_with(s, "@@ ")) {
    ec_str c = ec_str_drop(s, 3);
    c = ec_u8_trim_end(c); /* as Codex 0.169: trailing blanks go; "@@ " + blanks = no context */
    if (!c.len) { *ctx = none; return true; }
    if (p->ec) {
      ec_str u;
      if (unified_header(ec_u8_trim(c), &u)) { *ctx = u.len ? u : none; return true; }
    }
    *ctx = c;
    return true;
  }
  if (p->ec && ec_str_eq_cstr(ec_u8_trim(s), "@@")) { *ctx = none; return true; }
  return false;
}

static ec_error_code no_lines(parser *p, uint32_t real, size_t codex_ln) {
  if (!p->ec)
    return fail_msg(p, real, ec_arena_printf(p->a, "Invalid patch hunk on line %zu: Update hunk does not contain any lines", codex_ln));
  return fail_msg(p, real, ec_arena_printf(p->a, "Invalid patch, line %u: an @@ chunk needs lines under it (' ' context, '-' removed, "
                                                 "'+' added) before '*** End of File' or the next header.", real));
}

/* Parses one chunk from L[i..end); *used gets the lines consumed. */
static ec_error_code parse_chunk(parser *p, size_t i, size_t end, size_t codex_ln, bool first, ec_cp_chunk *c, size_t *used) {
  memset(c, 0, sizeof *c);
  const pline *L = p->L;
  c->line = L[i].real;
  size_t k = i, cap_ctx = 0, cap_lines = 0;
  ec_str ctx;
  while (k < end && context_line(p, L[k].s, &ctx)) {
    if (ctx.ptr) {
      if (!push(p->a, (void **)&c->contexts, &c->n_contexts, &cap_ctx, sizeof *c->contexts)) return EC_OUT_OF_MEMORY;
      c->contexts[c->n_contexts - 1] = ctx;
    }
    k++;
    if (!p->ec) break;
  }
  if (k == i && !first) {
    if (!p->ec)
      return fail_msg(p, L[i].real, ec_arena_printf(p->a, "Invalid patch hunk on line %zu: Expected update hunk to start with a @@ context marker, got: '%.*s'",
                                                    codex_ln, (int)L[i].s.len, L[i].s.ptr));
    return fail_msg(p, L[i].real, ec_arena_printf(p->a, "Invalid patch, line %u: expected an '@@' line starting the next chunk (or a '*** ' header), "
                                                        "found '%.*s%s'. Every chunk line starts with ' ', '-' or '+'.",
                                                  L[i].real, ec_echo_len(L[i].s), L[i].s.ptr, ec_echo_more(L[i].s)));
  }
  size_t start = k - i;
  if (k >= end) return no_lines(p, L[end > 0 ? end - 1 : 0].real, codex_ln + 1);
  size_t parsed = 0;
  for (; k < end; k++) {
    ec_str s = L[k].s;
    if (ec_str_eq_cstr(ec_u8_trim_end(s), EOF_MARKER) || (p->ec && ec_str_eq_cstr(ec_u8_trim(s), EOF_MARKER))) {
      if (!parsed) return no_lines(p, L[k].real, codex_ln + 1);
      c->eof = true;
      parsed++;
      k++;
      break;
    }
    char kind;
    if (!s.len) kind = 0;
    else kind = s.ptr[0];
    if (kind && kind != ' ' && kind != '+' && kind != '-') {
      if (p->ec && kind == '\\' && ec_str_starts_with(s, "\\ ")) { parsed++; continue; }
      if (!parsed) {
        if (!p->ec)
          return fail_msg(p, L[k].real, ec_arena_printf(p->a, "Invalid patch hunk on line %zu: Unexpected line found in update hunk: '%.*s'. "
                                                              "Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
                                                        codex_ln + 1, (int)s.len, s.ptr));
        return fail_msg(p, L[k].real, ec_arena_printf(p->a, "Invalid patch, line %u: unexpected line '%.*s%s' in a chunk. Every chunk line "
                                                            "starts with ' ' (context), '-' (removed) or '+' (added); an empty line is an empty context line.",
                                                      L[k].real, ec_echo_len(s), s.ptr, ec_echo_more(s)));
      }
      break;
    }
    if (!push(p->a, (void **)&c->lines, &c->n_lines, &cap_lines, sizeof *c->lines)) return EC_OUT_OF_MEMORY;
    ec_cp_line *l = &c->lines[c->n_lines - 1];
    l->kind = kind ? kind : ' ';
    l->blank = !kind;
    l->text = kind ? ec_str_drop(s, 1) : s;
    parsed++;
  }
  if (p->ec && !c->n_lines && !c->eof) return no_lines(p, L[i].real, codex_ln + 1);
  *used = parsed + start;
  return EC_OK;
}

static ec_error_code bad_header(parser *p, const pline *l, ec_str first, size_t codex_ln) {
  if (!p->ec)
    return fail_msg(p, l->real, ec_arena_printf(p->a, "Invalid patch hunk on line %zu: '%.*s' is not a valid hunk header. Valid hunk headers: "
                                                      "'*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
                                                codex_ln, (int)first.len, first.ptr));
  return fail_msg(p, l->real, ec_arena_printf(p->a, "Invalid patch, line %u: '%.*s%s' is not a hunk header. Expected '*** Add File: <path>', "
                                                    "'*** Delete File: <path>', '*** Update File: <path>' or '*** End Patch'%s.",
                                              l->real, ec_echo_len(first), first.ptr, ec_echo_more(first),
                                              first.len && (first.ptr[0] == '+' || first.ptr[0] == '-' || first.ptr[0] == ' ')
                                                  ? " (a changed line outside an Update File hunk, or a line of an Add File without its '+')"
                                                  : ""));
}

static ec_error_code missing_path(parser *p, const pline *l) {
  return fail_msg(p, l->real, ec_arena_printf(p->a, "Invalid patch, line %u: the header '%.*s' names no file. Put the path after the colon.",
                                              l->real, ec_echo_len(l->s), l->s.ptr));
}

/* The path after a header's marker (`marker` bytes) into *out; editcore's reading trims it and
 * refuses a header that names none. */
static ec_error_code header_path(parser *p, const pline *l, ec_str s, size_t marker, ec_str *out) {
  *out = ec_str_drop(s, s.len > marker ? marker : s.len);
  if (p->ec && !ec_u8_trim(*out).len) return missing_path(p, l);
  if (p->ec) *out = ec_u8_trim(*out);
  return EC_OK;
}

/* Parses one hunk at L[i]; *used gets the lines consumed. */
static ec_error_code parse_hunk(parser *p, size_t i, size_t end, size_t codex_ln, ec_cp_hunk *h, size_t *used) {
  memset(h, 0, sizeof *h);
  const pline *L = p->L;
  ec_str first = ec_u8_trim(L[i].s);
  h->line = L[i].real;
  if (ec_str_starts_with(first, ADD_MARKER) || (p->ec && ec_str_eq_cstr(first, "*** Add File:"))) {
    h->op = EC_CP_ADD;
    /* editcore: "*** Add File:   b" names "b" (Codex takes "  b", a file no one meant) */
    ec_error_code hr = header_path(p, &L[i], first, strlen(ADD_MARKER), &h->path);
    if (hr) return hr;
    size_t k = i + 1, bytes = 0;
    for (size_t j = k; j < end; j++) {
      if (ec_str_starts_with(L[j].s, "+")) { bytes += L[j].s.len; k = j + 1; continue; }
      if (p->ec && !L[j].s.len) {
        /* editcore: an empty line is an empty content line when more '+' lines follow. */
        size_t q = j;
        while (q < end && !L[q].s.len) q++;
        if (q < end && ec_str_starts_with(L[q].s, "+")) { bytes += q - j; j = q - 1; continue; }
      }
      break;
    }
    char *buf = ec_arena_alloc(p->a, bytes + 1);
    if (!buf) return EC_OUT_OF_MEMORY;
    size_t w = 0;
    for (size_t j = i + 1; j < k; j++) {
      if (L[j].s.len) { memcpy(buf + w, L[j].s.ptr + 1, L[j].s.len - 1); w += L[j].s.len - 1; }
      buf[w++] = '\n';
    }
    buf[w] = 0;
    h->content.ptr = buf;
    h->content.len = w;
    *used = k - i;
    return EC_OK;
  }
  if (ec_str_starts_with(first, DELETE_MARKER) || (p->ec && ec_str_eq_cstr(first, "*** Delete File:"))) {
    h->op = EC_CP_DELETE;
    ec_error_code hr = header_path(p, &L[i], first, strlen(DELETE_MARKER), &h->path);
    if (hr) return hr;
    *used = 1;
    return EC_OK;
  }
  if (!(ec_str_starts_with(first, UPDATE_MARKER) || (p->ec && ec_str_eq_cstr(first, "*** Update File:")))) return bad_header(p, &L[i], first, codex_ln);
  h->op = EC_CP_UPDATE;
  ec_error_code hr = header_path(p, &L[i], first, strlen(UPDATE_MARKER), &h->path);
  if (hr) return hr;
  size_t k = i + 1, cap = 0;
  if (k < end) {
    ec_str mv = p->ec ? ec_u8_trim(L[k].s) : L[k].s;
    if (ec_str_starts_with(mv, MOVE_MARKER)) {
      if ((hr = header_path(p, &L[k], mv, strlen(MOVE_MARKER), &h->move_to))) return hr;
      k++;
    }
  }
  while (k < end) {
    /* Codex 0.169 skips blank lines between chunks, but not before the first (there an empty
     * line starts the chunk as an empty context line). */
    if (blank(L[k].s) && (h->n_chunks || p->ec)) { k++; continue; }
    if (ec_str_starts_with(L[k].s, "*") || (p->ec && ec_str_starts_with(ec_u8_trim(L[k].s), "*** ") && !ec_str_eq_cstr(ec_u8_trim(L[k].s), EOF_MARKER))) break;
    ec_cp_chunk c;
    size_t n;
    ec_error_code rc = parse_chunk(p, k, end, codex_ln + (k - i), h->n_chunks == 0, &c, &n);
    if (rc) return rc;
    if (!push(p->a, (void **)&h->chunks, &h->n_chunks, &cap, sizeof *h->chunks)) return EC_OUT_OF_MEMORY;
    h->chunks[h->n_chunks - 1] = c;
    k += n;
  }
  if (!h->n_chunks) {
    if (!p->ec)
      return fail_msg(p, L[i].real, ec_arena_printf(p->a, "Invalid patch hunk on line %zu: Update file hunk for path '%.*s' is empty",
                                                    codex_ln, (int)h->path.len, h->path.ptr));
    return fail_msg(p, L[i].real, ec_arena_printf(p->a, "Invalid patch, line %u: '*** Update File: %.*s' has no changes under it. "
                                                        "Add '@@' chunks with ' ' context, '-' removed and '+' added lines%s.",
                                                  L[i].real, ec_echo_len(h->path), h->path.ptr,
                                                  h->move_to.len ? " (a rename needs at least one chunk)" : ", or drop the hunk"));
  }
  *used = k - i;
  return EC_OK;
}

/* Section - entry point */

ec_error_code ec_cp_parse(ec_arena *a, ec_str text, bool editcore, ec_cp_patch *out, ec_cp_parse_error *err) {
  memset(out, 0, sizeof *out);
  memset(err, 0, sizeof *err);
  parser p = {a, editcore, NULL, 0, err};
  ec_str t = ec_u8_trim(text);
  uint32_t lead = 0;
  for (const char *q = text.ptr; q < t.ptr; q++) lead += *q == '\n';
  size_t n = 0;
  for (size_t i = 0; i < t.len; i++) n += t.ptr[i] == '\n';
  if (t.len) n++;
  pline *L = ec_arena_alloc(a, (n + 1) * sizeof *L);
  if (!L) return EC_OUT_OF_MEMORY;
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const char *nl = memchr(t.ptr + at, '\n', t.len - at);
    size_t len = nl ? (size_t)(nl - (t.ptr + at)) : t.len - at;
    L[i].s.ptr = t.ptr + at;
    L[i].s.len = len && t.ptr[at + len - 1] == '\r' ? len - 1 : len;
    L[i].real = lead + (uint32_t)i + 1;
    at += len + 1;
  }
  pline *B = L;
  size_t nb = n;
  if (editcore) unwrap_editcore(&B, &nb);
  if (!boundaries_ok(B, nb)) {
    bool heredoc = nb >= 4 &&
                   (ec_str_eq_cstr(B[0].s, "<<EOF") || ec_str_eq_cstr(B[0].s, "<<'EOF'") || ec_str_eq_cstr(B[0].s, "<<\"EOF\"")) &&
                   ec_str_ends_with(B[nb - 1].s, "EOF");
    if (!heredoc) return boundary_error(&p, B, nb);
    B++;
    nb -= 2;
    if (!boundaries_ok(B, nb)) return boundary_error(&p, B, nb);
  }
  p.L = B;
  p.n = nb;
  size_t i = 1, end = nb - 1, cap = 0;
  while (i < end) {
    if (editcore && blank(B[i].s)) { i++; continue; }
    ec_cp_hunk h;
    size_t used;
    ec_error_code rc = parse_hunk(&p, i, end, i + 1, &h, &used);
    if (rc) return rc;
    if (!push(a, (void **)&out->hunks, &out->n_hunks, &cap, sizeof *out->hunks)) return EC_OUT_OF_MEMORY;
    out->hunks[out->n_hunks - 1] = h;
    i += used;
  }
  return EC_OK;
}
