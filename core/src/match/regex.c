/*
 * Strategy `regex`: Gemini's token regex (see ec_token_regex_find), bounded by
 * limits.regex_match_limit. Forgives whitespace between tokens only; in the editcore
 * profile two word tokens separated by whitespace stay separated. The replacement is re-indented
 * to the indentation the match starts on.
 *
 * The regex has one fixed shape, `^([ \t]*)T1\s*T2\s*...Tn` (multi-line, byte mode), with each Ti
 * a literal that neither starts nor ends with whitespace (\s: C's isspace, EC_WS_ASCII): so at
 * every step the only way on is to take all the whitespace there is and then the next token,
 * and a match at a line start, if there is one, is unique. It is matched here directly, without
 * a regex engine: the same matches a backtracking engine finds (PCRE2, or JavaScript's RegExp
 * in Gemini's CLI), in time linear in what each try reads, and no engine in the module (the
 * PCRE2 interpreter was ~60 KB of editcore.wasm).
 */
#define _GNU_SOURCE 1
#include "lineutil.h"
#include "../base/str.h"
#include <stdlib.h>
#include <string.h>

static bool is_delim(char c) {
  return c == '(' || c == ')' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == '>' || c == '<' || c == '=';
}
static bool is_word(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }

/** One token of the regex and what joins it to the one before: \s* (0 or more) or \s+ (1 or more). */
typedef struct rx_token {
  ec_str text;
  bool need_ws;
} rx_token;

/* Gemini's tokens: split on whitespace and on each of ( ) : [ ] { } > < =, which are tokens of
 * their own. strict (editcore): every other non-word character is a token of its own too, so
 * `f(a, b)`, `f(a,b)` and `x + 1` / `x+1` match, and two word tokens the model separated by
 * whitespace are joined by \s+ (never glued together). */
static size_t tokenize(ec_str old_text, bool strict, rx_token *out) {
  size_t n = 0;
  char prev_last = 0;
  bool ws = false;
  for (size_t i = 0; i < old_text.len;) {
    char c = old_text.ptr[i];
    if (ec_is_ws(c, EC_WS_ASCII)) { ws = true; i++; continue; }
    size_t j = i + 1;
    if (!is_delim(c) && !(strict && !is_word((unsigned char)c)))
      while (j < old_text.len && !ec_is_ws(old_text.ptr[j], EC_WS_ASCII) && !is_delim(old_text.ptr[j]) &&
             !(strict && !is_word((unsigned char)old_text.ptr[j])))
        j++;
    if (out) {
      out[n].text = ec_str_make(old_text.ptr + i, j - i);
      out[n].need_ws = n && strict && ws && is_word((unsigned char)prev_last) && is_word((unsigned char)c);
    }
    prev_last = old_text.ptr[j - 1];
    n++;
    ws = false;
    i = j;
  }
  return n;
}

/* Tokens [t0, n_tok) from p on, each after all the whitespace there is (none before token 0):
 * the end of the last, or 0 when one is not there. *steps counts the tokens compared. */
static size_t match_tokens(const char *text, size_t len, size_t p, const rx_token *tok, size_t t0, size_t n_tok,
                           uint64_t *steps) {
  for (size_t t = t0; t < n_tok; t++) {
    (*steps)++;
    if (t) {
      size_t ws = p;
      while (p < len && ec_is_ws(text[p], EC_WS_ASCII)) p++;
      if (tok[t].need_ws && p == ws) return 0;
    }
    if (len - p < tok[t].text.len || memcmp(text + p, tok[t].text.ptr, tok[t].text.len) != 0) return 0;
    p += tok[t].text.len;
  }
  return p;
}

/* The regex anchored at line start q: the end of the match, or 0 when there is none (a match
 * holds at least one token, so it never ends at 0). */
static size_t match_at(const char *text, size_t len, size_t q, const rx_token *tok, size_t n_tok, uint64_t *steps,
                       size_t *indent_end) {
  size_t p = q;
  while (p < len && (text[p] == ' ' || text[p] == '\t')) p++;
  *indent_end = p;
  return match_tokens(text, len, p, tok, 0, n_tok, steps);
}

/* The match that holds token k at p, read outwards: the tokens before it backwards (all the
 * whitespace before a token is taken, so the token before it ends where that whitespace starts),
 * then [ \t]* back to a line start, then the tokens after it. A match read forwards from a line
 * start takes the same steps, so this is the match at *q, or 0 when that line start has none. */
static size_t match_through(const char *text, size_t len, size_t p, const rx_token *tok, size_t n_tok, size_t k,
                            uint64_t *steps, size_t *q, size_t *indent_end) {
  size_t s = p;
  (*steps)++;
  for (size_t t = k; t-- > 0;) {
    (*steps)++;
    size_t e = s;
    while (e > 0 && ec_is_ws(text[e - 1], EC_WS_ASCII)) e--;
    if (tok[t + 1].need_ws && e == s) return 0;
    size_t l = tok[t].text.len;
    if (e < l || memcmp(text + e - l, tok[t].text.ptr, l) != 0) return 0;
    s = e - l;
  }
  size_t b = s;
  while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) b--;
  if (b > 0 && text[b - 1] != '\n') return 0;
  size_t e = match_tokens(text, len, p + tok[k].text.len, tok, k + 1, n_tok, steps);
  if (!e) return 0;
  *q = b;
  *indent_end = s;
  return e;
}

static int by_start(const void *x, const void *y) {
  const ec_rx_match *a = x, *b = y;
  return a->start < b->start ? -1 : a->start > b->start;
}

/* Every match, from the occurrences of the longest token (usually rare: a name) instead of from
 * every line that starts with the first token (`function`, `return`...: thousands of tries in a
 * large file). Each occurrence gives at most one match and each match comes from one occurrence,
 * so after sorting by start and taking matches left to right, each after the one before ends, the
 * matches are the forward search's. false when the occurrences' reads pass `budget` steps. */
static bool find_by_key(ec_match_env *env, const rx_token *tok, size_t n_tok, uint64_t budget, ec_rx_match **out,
                        size_t *n_out, ec_error_code *rc) {
  const char *text = env->text;
  size_t len = env->len, k = 0;
  for (size_t t = 1; t < n_tok; t++)
    if (tok[t].text.len > tok[k].text.len) k = t;
  ec_str key = tok[k].text;
  uint64_t steps = 0;
  ec_rx_match *res = NULL;
  size_t n = 0, cap = 0;
  bool sorted = true;
  for (size_t from = 0; from < len;) {
    const char *hit = ec_find(text + from, len - from, key.ptr, key.len);
    if (!hit) break;
    size_t p = (size_t)(hit - text), q, indent_end;
    from = p + 1;
    size_t end = match_through(text, len, p, tok, n_tok, k, &steps, &q, &indent_end);
    if (steps > budget) return false;
    if (!end) continue;
    if (!EC_ARENA_RESERVE(env->arena, res, n, cap, 8)) { *rc = EC_OUT_OF_MEMORY; return true; }
    if (n && q < res[n - 1].start) sorted = false;
    res[n].start = q;
    res[n].end = end;
    res[n++].indent = ec_str_make(text + q, indent_end - q);
  }
  if (!sorted) qsort(res, n, sizeof *res, by_start);
  size_t kept = 0, off = 0;
  for (size_t i = 0; i < n; i++) {
    if (res[i].start < off) continue;
    off = res[i].end;
    res[kept++] = res[i];
  }
  *out = res;
  *n_out = kept;
  return true;
}

ec_error_code ec_token_regex_find(ec_match_env *env, ec_str old_text, bool strict, ec_rx_match **out, size_t *n_out) {
  *out = NULL;
  *n_out = 0;
  size_t n_tok = tokenize(old_text, strict, NULL);
  if (!n_tok) return EC_OK;
  rx_token *tok = ec_arena_alloc(env->arena, n_tok * sizeof *tok);
  if (!tok) return EC_OUT_OF_MEMORY;
  tokenize(old_text, strict, tok);
  /* The budget counts token comparisons over the whole search, so the tries of one request are
   * bounded together (a file of 500,000 lines each starting like old_string's first token
   * cannot multiply a long old_string's cost past it). */
  uint64_t limit = env->opt && env->opt->limits.regex_match_limit ? env->opt->limits.regex_match_limit : 10000000u;
  /* The forward search below tries each line once, n_tok comparisons at most: when every line
   * trying all of them stays within the limit, it cannot pass it, and the search from the longest
   * token gives its answer (bounded by the same limit, past which the forward search runs). */
  size_t lines = ec_match_line_at(env, env->len) + 1;
  if (env->len && lines <= limit / n_tok) {
    ec_error_code rc = EC_OK;
    if (find_by_key(env, tok, n_tok, limit, out, n_out, &rc)) return rc;
  }
  uint64_t steps = 0;
  ec_rx_match *res = NULL;
  size_t n = 0, cap = 0, off = 0;
  const char *text = env->text ? env->text : "";
  ec_str first = tok[0].text;
  /* A match starts at a line start whose first token, after [ \t]*, is the regex's first token:
   * memmem finds those, in order. Whatever the first occurrence on a line shows, the line is
   * done: the search goes on from the next line, so each byte is looked at a bounded number of
   * times outside the tries themselves. */
  size_t from = 0;
  while (from < env->len) {
    const char *hit = ec_find(text + from, env->len - from, first.ptr, first.len);
    if (!hit) break;
    size_t q = (size_t)(hit - text);
    const char *nl = memchr(hit, '\n', env->len - q);
    from = nl ? (size_t)(nl - text) + 1 : env->len;
    while (q > 0 && (text[q - 1] == ' ' || text[q - 1] == '\t')) q--;
    if (q < off || (q > 0 && text[q - 1] != '\n')) continue;
    size_t indent_end;
    size_t end = match_at(text, env->len, q, tok, n_tok, &steps, &indent_end);
    if (steps > limit) {
      env->message = ec_arena_printf(env->arena, "the token regex of old_string passed its match limit (%llu token comparisons); send an old_string copied exactly from the file",
                                     (unsigned long long)limit);
      return EC_TOO_LARGE;
    }
    if (!end) continue;
    if (!EC_ARENA_RESERVE(env->arena, res, n, cap, 8)) return EC_OUT_OF_MEMORY;
    res[n].start = q;
    res[n].end = end;
    res[n].indent = ec_str_make(text + q, indent_end - q);
    n++;
    off = end;
    if (from < off) from = off;
  }
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
  if (ec_split_lines(env->arena, old_text, true, &nd)) return EC_OUT_OF_MEMORY;
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
    ec_found_set_lines(env, &f); /* counted, no line table: the match starts a line */
    size_t covered = f.end_line - f.start_line + 1;
    ec_window w = {f.start_line - 1, f.start};
    ec_lines wl;
    if ((rc = ec_window_table(env, &w, covered, &wl))) return rc;
    /* the block's own lines give the file's frame even when their count differs from old's
     * (a blank line left out or added); ec_reindent pairs non-blank lines only */
    f.replacement = ec_reindent(ec_place_arena(env, out), new_text, &nd, &wl, 0, covered, m[i].indent);
    if (!f.replacement.ptr) return EC_OUT_OF_MEMORY;
    if (strip_lf && f.replacement.len && f.replacement.ptr[f.replacement.len - 1] == '\n') f.replacement.len--;
    f.strategy = EC_STRATEGY_REGEX;
    f.confidence = 0.85;
    rc = ec_found_push(env, out, &f);
    if (rc) return rc;
  }
  return EC_OK;
}
