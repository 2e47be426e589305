/*
 * The token regex of the `regex` strategy (core/src/match/regex.c) is matched directly, without a
 * regex engine. This test holds it to a real one: PCRE2 (the system's libpcre2-8, the engine the
 * strategy used before) runs the regex Gemini's CLI writes — `^([ \t]*)`, then the escaped tokens
 * joined by \s* (by \s+ between two word tokens the model separated, in the editcore profile),
 * multi-line, byte mode — over random documents and old_strings built from a small alphabet of
 * words, punctuation, delimiters and every whitespace byte (so near misses are common: a missing
 * space, a glued word, \v and \f, a token split over lines). Every non-overlapping match, left to
 * right, its start, end and captured indentation must be the same, in both profiles.
 */
#define _GNU_SOURCE 1
#include "match/ladder.h"
#include "match/lineutil.h"
#include "base/arena.h"
#include "base/buf.h"
#include "test_util.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>

static bool is_delim(char c) { return c && strchr("():[]{}><=", c) != NULL; }
static bool is_word(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }
static bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* The regex as text, the way the strategy wrote it for PCRE2 before (and Gemini's CLI for RegExp). */
static size_t build_pattern(const char *old, size_t len, bool strict, char *pat) {
  size_t n = 0, n_tok = 0;
  char prev_last = 0;
  bool ws = false;
  n += (size_t)sprintf(pat, "^([ \\t]*)");
  for (size_t i = 0; i < len;) {
    char c = old[i];
    if (is_space(c)) { ws = true; i++; continue; }
    size_t j = i + 1;
    if (!is_delim(c) && !(strict && !is_word((unsigned char)c)))
      while (j < len && !is_space(old[j]) && !is_delim(old[j]) && !(strict && !is_word((unsigned char)old[j]))) j++;
    if (n_tok) n += (size_t)sprintf(pat + n, "%s", strict && ws && is_word((unsigned char)prev_last) && is_word((unsigned char)c) ? "\\s+" : "\\s*");
    for (size_t k = i; k < j; k++) {
      if (!is_word((unsigned char)old[k])) pat[n++] = '\\';
      pat[n++] = old[k];
    }
    prev_last = old[j - 1];
    n_tok++;
    ws = false;
    i = j;
  }
  return n_tok ? n : 0;
}

static uint32_t rng = 2463534242u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static const char *pieces[] = {"a", "b", "ab", "x1", "_", "(", ")", "=", ":", "[", "]", "{", "}", "<", ">",
                               ",", ".", "+", "-", "\\", "*", "?", "$", "^", "|", "\xc3\xa9", " ", "  ", "\t",
                               "\n", "\n  ", "\r\n", "\v", "\f", " \n\t"};

static size_t random_text(char *out, size_t max_pieces) {
  size_t n = 0, k = next() % max_pieces + 1;
  for (size_t i = 0; i < k; i++) {
    const char *p = pieces[next() % (sizeof pieces / sizeof *pieces)];
    size_t l = strlen(p);
    memcpy(out + n, p, l);
    n += l;
  }
  return n;
}

int main(void) {
  ec_options opt;
  ec_options_default(&opt);
  char doc[4096], old[512], pat[2048];
  int compared = 0, with_matches = 0, forwards = 0;
  for (int round = 0; round < 20000; round++) {
    size_t doc_len = random_text(doc, 400);
    size_t old_len = random_text(old, 8);
    /* Half the time old_string is a piece of the document re-spaced, so matches are common. */
    if (next() % 2 && doc_len > 4) {
      size_t at = next() % (doc_len - 2), l = 1 + next() % (doc_len - at - 1 < 40 ? doc_len - at - 1 : 40);
      old_len = 0;
      for (size_t i = at; i < at + l; i++) {
        char c = doc[i];
        if (is_space(c)) { if (next() % 3) old[old_len++] = ' '; }
        else { old[old_len++] = c; if (next() % 6 == 0) old[old_len++] = ' '; }
      }
    }
    for (int strict = 0; strict < 2; strict++) {
      ec_arena *a = ec_arena_new(NULL);
      ec_match_env env;
      ec_match_env_init(&env, a, doc, doc_len, &opt, strict ? EC_PROFILE_EDITCORE : EC_PROFILE_GEMINI);
      ec_rx_match *m = NULL;
      size_t n = 0;
      ec_error_code rc = ec_token_regex_find(&env, (ec_str){old, old_len}, strict, &m, &n);
      CHECK_MSG(rc == EC_OK, "rc %d", rc);

      /* The search starts from the longest token when no forward search could pass the limit
       * (lines x tokens within it); a limit just under the line count makes it search forwards.
       * Both ways must give the same matches (unless forwards passes that small limit). */
      {
        size_t lines = 1;
        for (size_t i = 0; i < doc_len; i++) lines += doc[i] == '\n';
        ec_options low = opt;
        low.limits.regex_match_limit = lines > 1 ? lines - 1 : 1;
        ec_match_env env2;
        ec_match_env_init(&env2, a, doc, doc_len, &low, strict ? EC_PROFILE_EDITCORE : EC_PROFILE_GEMINI);
        ec_rx_match *m2 = NULL;
        size_t n2 = 0;
        ec_error_code rc2 = ec_token_regex_find(&env2, (ec_str){old, old_len}, strict, &m2, &n2);
        if (rc2 == EC_OK) {
          bool same2 = n2 == n;
          for (size_t i = 0; i < n && same2; i++)
            same2 = m2[i].start == m[i].start && m2[i].end == m[i].end && m2[i].indent.ptr == m[i].indent.ptr &&
                    m2[i].indent.len == m[i].indent.len;
          CHECK_MSG(same2, "round %d strict %d: forwards %zu matches, from the longest token %zu", round, strict, n2, n);
          forwards++;
        } else {
          CHECK_MSG(rc2 == EC_TOO_LARGE, "rc %d", rc2);
        }
      }

      size_t pat_len = build_pattern(old, old_len, strict, pat);
      size_t want = 0;
      bool same = true;
      if (pat_len) {
        int err;
        PCRE2_SIZE erroff;
        pcre2_code *code = pcre2_compile((PCRE2_SPTR)pat, pat_len, PCRE2_MULTILINE, &err, &erroff, NULL);
        CHECK_MSG(code != NULL, "pattern %.*s does not compile", (int)pat_len, pat);
        if (!code) { ec_arena_free(a); continue; }
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
        size_t off = 0;
        while (off <= doc_len && pcre2_match(code, (PCRE2_SPTR)doc, doc_len, off, 0, md, NULL) > 0) {
          PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
          if (want >= n || m[want].start != ov[0] || m[want].end != ov[1] || m[want].indent.ptr != doc + ov[2] ||
              m[want].indent.len != ov[3] - ov[2])
            same = false;
          want++;
          off = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
        }
        pcre2_match_data_free(md);
        pcre2_code_free(code);
      }
      CHECK_MSG(same && want == n, "round %d strict %d: %zu matches, PCRE2 %zu; old \"%.*s\"", round, strict, n, want,
                (int)old_len, old);
      compared++;
      if (want) with_matches++;
      ec_arena_free(a);
    }
  }
  /* The generator must give both outcomes often, or the comparison proves little. */
  CHECK_MSG(with_matches > compared / 10 && with_matches < compared - compared / 10, "%d of %d with matches", with_matches, compared);
  CHECK_MSG(forwards > compared / 4, "%d of %d searched forwards within the limit", forwards, compared);

  /* regex_match_limit counts token comparisons over the whole search: one is not enough for two tokens. */
  {
    ec_arena *a = ec_arena_new(NULL);
    ec_options lim;
    ec_options_default(&lim);
    lim.limits.regex_match_limit = 1;
    ec_match_env env;
    const char *d = "function  foo ( a , b ) {\n}\n";
    ec_match_env_init(&env, a, d, strlen(d), &lim, EC_PROFILE_EDITCORE);
    ec_rx_match *m;
    size_t n;
    ec_error_code rc = ec_token_regex_find(&env, (ec_str){"function foo(a, b) {", 20}, true, &m, &n);
    CHECK_MSG(rc == EC_TOO_LARGE && env.message.len, "rc %d", rc);
    lim.limits.regex_match_limit = 8; /* exactly the 8 tokens of the one try */
    ec_match_env_init(&env, a, d, strlen(d), &lim, EC_PROFILE_EDITCORE);
    rc = ec_token_regex_find(&env, (ec_str){"function foo(a, b) {", 20}, true, &m, &n);
    CHECK_MSG(rc == EC_OK && n == 1 && m[0].start == 0 && m[0].end == 25, "rc %d n %zu", rc, n);
    ec_arena_free(a);
  }
  TEST_MAIN_END();
}
