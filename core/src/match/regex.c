/*
 * Strategy `regex`: Gemini's token regex through PCRE2 (see ec_token_regex_find), bounded by
 * the PCRE2 match and depth limits. Forgives whitespace between tokens only; in the editcore
 * profile two word tokens separated by whitespace stay separated. The replacement is re-indented
 * to the indentation the match starts on.
 */
#define _GNU_SOURCE 1
#include "lineutil.h"
#include "../base/alloc.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <pcre2.h>
#include <string.h>

static bool is_delim(char c) {
  return c == '(' || c == ')' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == '>' || c == '<' || c == '=';
}
static bool is_word(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }

/* PCRE2 allocates through the host's allocator too (editcore.h: every allocation of a request
 * goes through it): a general context carries it into compile, match context and match data. */
static void *rx_malloc(PCRE2_SIZE n, void *user) { return ec_mem_malloc((const ec_allocator *)user, n); }
static void rx_free(void *p, void *user) { ec_mem_free((const ec_allocator *)user, p); }

ec_error_code ec_token_regex_find(ec_match_env *env, ec_str old_text, bool strict, ec_rx_match **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(env->arena));
  ec_buf_append_cstr(&b, "^([ \\t]*)");
  size_t n_tok = 0;
  ec_str first = {NULL, 0}; /* the first token: a match is a line that starts with it after [ \t]* */
  char prev_last = 0;
  bool ws = false;
  for (size_t i = 0; i < old_text.len;) {
    char c = old_text.ptr[i];
    if (ec_is_ws(c, EC_WS_ASCII)) { ws = true; i++; continue; }
    /* editcore: every punctuation character is a token of its own, so `f(a, b)`, `f(a,b)` and
     * `x + 1` / `x+1` match; two word tokens are never joined (\s+ between them below). */
    size_t j = i + 1;
    if (!is_delim(c) && !(strict && !is_word((unsigned char)c)))
      while (j < old_text.len && !ec_is_ws(old_text.ptr[j], EC_WS_ASCII) && !is_delim(old_text.ptr[j]) &&
             !(strict && !is_word((unsigned char)old_text.ptr[j])))
        j++;
    if (n_tok)
      ec_buf_append_cstr(&b, strict && ws && is_word((unsigned char)prev_last) && is_word((unsigned char)c) ? "\\s+" : "\\s*");
    for (size_t k = i; k < j; k++) {
      unsigned char d = (unsigned char)old_text.ptr[k];
      if (!is_word(d)) ec_buf_append_char(&b, '\\');
      ec_buf_append_char(&b, (char)d);
    }
    prev_last = old_text.ptr[j - 1];
    if (!n_tok) first = ec_str_make(old_text.ptr + i, j - i);
    n_tok++;
    ws = false;
    i = j;
  }
  if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  ec_str pat = ec_buf_finish(&b, env->arena);
  if (!n_tok) return EC_OK;
  if (!pat.ptr) return EC_OUT_OF_MEMORY;
  int err;
  PCRE2_SIZE erroff;
  pcre2_general_context *gc = pcre2_general_context_create(rx_malloc, rx_free, (void *)ec_arena_allocator(env->arena));
  pcre2_compile_context *cc = gc ? pcre2_compile_context_create(gc) : NULL;
  if (!cc) {
    if (gc) pcre2_general_context_free(gc);
    return EC_OUT_OF_MEMORY;
  }
  pcre2_code *code = pcre2_compile((PCRE2_SPTR)pat.ptr, pat.len, PCRE2_MULTILINE, &err, &erroff, cc);
  pcre2_compile_context_free(cc);
  if (!code) {
    pcre2_general_context_free(gc);
    if (err == PCRE2_ERROR_NOMEMORY) return EC_OUT_OF_MEMORY;
    /* The pattern is built from escaped tokens, so the other way it fails to compile is its size
     * (PCRE2 error 120 past ~64 KB of old_string): then this strategy finds nothing, and the
     * ladder goes on to its NO_MATCH with candidates, which is the true answer for the model. */
    return EC_OK;
  }
  pcre2_match_context *mc = pcre2_match_context_create(gc);
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, gc);
  ec_error_code rc = EC_OK;
  if (!mc || !md) rc = EC_OUT_OF_MEMORY;
  else {
    uint32_t ml = env->opt && env->opt->limits.regex_match_limit ? env->opt->limits.regex_match_limit : 10000000u;
    uint32_t dl = env->opt && env->opt->limits.regex_depth_limit ? env->opt->limits.regex_depth_limit : 10000u;
    pcre2_set_match_limit(mc, ml);
    pcre2_set_depth_limit(mc, dl);
  }
  ec_rx_match *res = NULL;
  size_t n = 0, cap = 0, off = 0;
  const char *text = env->text ? env->text : "";
  /* PCRE2 would try the pattern at every line start; only a line whose first token is the
   * pattern's first token can match, so memmem finds those and PCRE2 runs anchored on each, in
   * order (the same matches: an anchored try at a line start is the unanchored search's try
   * there). Whatever the first occurrence on a line shows, the line is done: the search goes on
   * from the next line, so each byte is looked at a bounded number of times. */
  size_t from = 0;
  while (!rc && from < env->len) {
    const char *hit = memmem(text + from, env->len - from, first.ptr, first.len);
    if (!hit) break;
    size_t q = (size_t)(hit - text);
    const char *nl = memchr(hit, '\n', env->len - q);
    from = nl ? (size_t)(nl - text) + 1 : env->len;
    while (q > 0 && (text[q - 1] == ' ' || text[q - 1] == '\t')) q--;
    if (q < off || (q > 0 && text[q - 1] != '\n')) continue;
    int r = pcre2_match(code, (PCRE2_SPTR)text, env->len, q, PCRE2_ANCHORED, md, mc);
    if (r == PCRE2_ERROR_NOMATCH) continue;
    if (r == PCRE2_ERROR_NOMEMORY) { rc = EC_OUT_OF_MEMORY; break; }
    if (r < 0) {
      env->message = ec_arena_printf(env->arena, "the token regex of old_string passed PCRE2's %s limit; send an old_string copied exactly from the file",
                                     r == PCRE2_ERROR_DEPTHLIMIT ? "depth" : "match");
      rc = EC_TOO_LARGE;
      break;
    }
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (!EC_ARENA_RESERVE(env->arena, res, n, cap, 8)) { rc = EC_OUT_OF_MEMORY; break; }
    res[n].start = ov[0];
    res[n].end = ov[1];
    res[n].indent.ptr = env->text + ov[2];
    res[n].indent.len = ov[3] - ov[2];
    n++;
    off = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
    if (from < off) from = off;
  }
  if (md) pcre2_match_data_free(md);
  if (mc) pcre2_match_context_free(mc);
  pcre2_code_free(code);
  pcre2_general_context_free(gc);
  if (rc) return rc;
  *out = res;
  *n_out = n;
  return EC_OK;
}

ec_error_code ec_strategy_regex(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  ec_rx_match *m;
  size_t n;
  ec_error_code rc = ec_token_regex_find(env, old_text, env->profile == EC_PROFILE_EDITCORE, &m, &n);
  if (rc || !n) return rc;
  ec_split nd;
  const ec_lines *fl = ec_match_lines(env);
  if (!fl || ec_split_lines(env->arena, old_text, true, &nd)) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < n; i++) {
    ec_found f;
    memset(&f, 0, sizeof f);
    f.start = m[i].start;
    f.end = m[i].end;
    bool strip_lf = false;
    if (nd.final_lf) {
      if (f.end < env->len && env->text[f.end] == '\n') f.end++;
      else strip_lf = true;
    }
    ec_found_set_lines(env, &f);
    size_t covered = f.end_line - f.start_line + 1;
    /* the block's own lines give the file's frame even when their count differs from old's
     * (a blank line left out or added); ec_reindent pairs non-blank lines only */
    f.replacement = ec_reindent(ec_place_arena(env, out), new_text, &nd, fl, f.start_line - 1, covered, m[i].indent);
    if (!f.replacement.ptr) return EC_OUT_OF_MEMORY;
    if (strip_lf && f.replacement.len && f.replacement.ptr[f.replacement.len - 1] == '\n') f.replacement.len--;
    f.strategy = EC_STRATEGY_REGEX;
    f.confidence = 0.85;
    rc = ec_found_push(env, out, &f);
    if (rc) return rc;
  }
  return EC_OK;
}
