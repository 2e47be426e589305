/*
 * The bad-input catalogue, part two (README, "Reliability"): inputs too big to keep as
 * conformance vectors (part one, tests/conformance/vectors/bad-input.jsonl, runs on every build)
 * and cases of the typed API. Each names the input and the code it must get, and checks that
 * nothing changed (an error result lists no file).
 */
#include "test_util.h"
#include "editcore.h"
#include <stdlib.h>

typedef struct bad_case {
  const char *name;
  ec_format format;
  ec_profile profile;
  const char *file;      /* NULL = no file */
  size_t file_len;       /* 0 = strlen */
  const char *a, *b;     /* old/new, or text / content / snippet in a */
  size_t a_len;
  ec_error_code want;    /* EC_OK = must succeed (and change the file) */
} bad_case;

static int skipped, extra_cases;

/* Text of `reps` copies of `unit` (caller frees). */
static char *repeat(const char *unit, size_t reps, size_t *len) {
  size_t u = strlen(unit);
  char *t = malloc(u * reps + 1);
  if (!t) return NULL;
  for (size_t i = 0; i < reps; i++) memcpy(t + i * u, unit, u);
  t[u * reps] = 0;
  *len = u * reps;
  return t;
}

/* Runs a replace on `file` with the given profile and ladder; the result must be one of the two
 * error codes and change nothing. */
static void expect_refusal(const char *name, ec_profile profile, const ec_strategy *ladder, size_t n_ladder, ec_str file,
                           ec_str old_string, ec_error_code want1, ec_error_code want2) {
  extra_cases++;
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.profile = profile;
  req.options.strategies = ladder;
  req.options.n_strategies = n_ladder;
  ec_file f = {{"f", 1}, file};
  req.files = &f;
  req.n_files = 1;
  req.edit.old_string = old_string;
  req.edit.new_string = (ec_str){"new", 3};
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  const ec_error *e = r ? ec_result_error(r, 0) : NULL;
  bool ok = r && ec_result_status(r) == EC_STATUS_ERROR && e && (e->code == want1 || e->code == want2) &&
            ec_result_file_count(r) == 0;
  if (!ok) fprintf(stderr, "  case '%s': expected %s or %s, got %s\n", name, ec_error_code_name(want1), ec_error_code_name(want2),
                   e ? ec_error_code_name(e->code) : "success");
  CHECK(ok);
  ec_result_free(r);
}

/* Catastrophic-backtracking shapes: the regex strategy joins tokens with \s*, and the fuzzy one
 * compares windows; on these 1 MB files each must stop at its limit or fail cleanly. */
static void test_backtracking_shapes(void) {
  static const ec_strategy regex_only[] = {EC_STRATEGY_REGEX}, fuzzy_only[] = {EC_STRATEGY_FUZZY};
  size_t flen, nlen;
  char *file = repeat("a ", 1u << 19, &flen), *needle = repeat("a ", 2000, &nlen);
  if (file && needle) {
    needle[nlen - 1] = 'b'; /* 2,000 tokens that match everywhere, then one that never does */
    ec_str fs = {file, flen}, ns = {needle, nlen};
    expect_refusal("regex: 2,000 repeated tokens on 1 MB of them", EC_PROFILE_EDITCORE, regex_only, 1, fs, ns, EC_TOO_LARGE, EC_NO_MATCH);
    expect_refusal("gemini ladder: the same", EC_PROFILE_GEMINI, NULL, 0, fs, ns, EC_TOO_LARGE, EC_NO_MATCH);
    expect_refusal("fuzzy: the same", EC_PROFILE_EDITCORE, fuzzy_only, 1, fs, ns, EC_TOO_LARGE, EC_NO_MATCH);
  }
  free(file);
  free(needle);
  file = repeat("((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((( \n", 1u << 14, &flen);
  needle = repeat("( ", 3000, &nlen);
  if (file && needle) {
    needle[nlen - 1] = ')';
    ec_str fs = {file, flen}, ns = {needle, nlen};
    expect_refusal("regex: 3,000 delimiter tokens on 1 MB of '('", EC_PROFILE_EDITCORE, regex_only, 1, fs, ns, EC_TOO_LARGE, EC_NO_MATCH);
    expect_refusal("gemini ladder: the same", EC_PROFILE_GEMINI, NULL, 0, fs, ns, EC_TOO_LARGE, EC_NO_MATCH);
  }
  free(file);
  free(needle);
  file = repeat(" ", 1u << 20, &flen);
  if (file) {
    file[0] = 'x';
    file[flen - 1] = 'y';
    ec_str fs = {file, flen};
    expect_refusal("regex: 1 MB of spaces between two tokens", EC_PROFILE_EDITCORE, regex_only, 1, fs, (ec_str){"x y z", 5},
                   EC_TOO_LARGE, EC_NO_MATCH);
  }
  free(file);
}

/* Markers repeated 200,000 times in each format's edit text. */
static void test_repeated_markers(void) {
  static const struct { const char *name; ec_format format; const char *head, *unit; ec_error_code want; } shapes[] = {
      {"SEARCH/REPLACE separators", EC_FORMAT_SEARCH_REPLACE, "", "=======\n", EC_MALFORMED_EDIT},
      {"SEARCH markers", EC_FORMAT_SEARCH_REPLACE, "", "------- SEARCH\n", EC_MALFORMED_EDIT},
      {"separators inside one block", EC_FORMAT_SEARCH_REPLACE, "------- SEARCH\na\n", "=======\n", EC_MALFORMED_EDIT},
      {"unified diff hunk headers", EC_FORMAT_UNIFIED_DIFF, "--- a/f\n+++ b/f\n", "@@ -1 +1 @@\n", EC_MALFORMED_EDIT},
      {"codex Update headers", EC_FORMAT_CODEX_PATCH, "*** Begin Patch\n", "*** Update File: f\n", EC_MALFORMED_EDIT},
      {"lazy markers", EC_FORMAT_LAZY, "", "// ... existing code ...\n", EC_INVALID_PARAM},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    extra_cases++;
    size_t ulen, hlen = strlen(shapes[i].head);
    char *body = repeat(shapes[i].unit, 200000, &ulen);
    char *text = body ? malloc(hlen + ulen) : NULL;
    CHECK(text != NULL);
    if (text) {
      memcpy(text, shapes[i].head, hlen);
      memcpy(text + hlen, body, ulen);
      ec_request req;
      ec_request_init(&req, shapes[i].format);
      ec_file f = {{"f", 1}, {"a\nb\n", 4}};
      req.files = &f;
      req.n_files = 1;
      if (shapes[i].format == EC_FORMAT_LAZY) {
        req.edit.snippet = (ec_str){text, hlen + ulen};
        req.edit.has_snippet = true;
      } else {
        req.edit.text = (ec_str){text, hlen + ulen};
      }
      ec_result *r = ec_apply(&req, NULL);
      const ec_error *e = r ? ec_result_error(r, 0) : NULL;
      bool ok = e && e->code == shapes[i].want && ec_result_file_count(r) == 0;
      if (!ok) fprintf(stderr, "  case 'repeated %s': expected %s, got %s\n", shapes[i].name, ec_error_code_name(shapes[i].want),
                       e ? ec_error_code_name(e->code) : "success");
      CHECK(ok);
      ec_result_free(r);
    }
    free(body);
    free(text);
  }
}

static void run_case(const bad_case *c) {
  if (!ec_supports(c->format, c->profile)) { skipped++; return; }
  ec_request req;
  ec_request_init(&req, c->format);
  req.profile = c->profile;
  ec_file f = {{"file.txt", 8}, {c->file, c->file ? (c->file_len ? c->file_len : strlen(c->file)) : 0}};
  req.files = &f;
  req.n_files = c->file ? 1 : 0;
  req.edit.path = f.path;
  ec_str a = {c->a ? c->a : "", c->a ? (c->a_len ? c->a_len : strlen(c->a)) : 0};
  ec_str b = {c->b ? c->b : "", c->b ? strlen(c->b) : 0};
  switch (c->format) {
    case EC_FORMAT_REPLACE:
      req.edit.old_string = a; req.edit.has_old_string = c->a != NULL;
      req.edit.new_string = b; req.edit.has_new_string = c->b != NULL;
      break;
    case EC_FORMAT_WHOLE_FILE: req.edit.content = a; req.edit.has_content = true; break;
    case EC_FORMAT_LAZY: req.edit.snippet = a; req.edit.has_snippet = true; break;
    default: req.edit.text = a; req.edit.path.len = 0; break;
  }
  ec_result *r = ec_apply(&req, NULL);
  CHECK(r != NULL);
  if (!r) return;
  if (c->want == EC_OK) {
    bool ok = ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1;
    if (!ok) fprintf(stderr, "  case '%s': expected success, got %s\n", c->name,
                     ec_result_error_count(r) ? ec_error_code_name(ec_result_error(r, 0)->code) : "no change");
    CHECK(ok);
  } else {
    const ec_error *e = ec_result_error(r, 0);
    bool ok = ec_result_status(r) == EC_STATUS_ERROR && e && e->code == c->want && ec_result_file_count(r) == 0 &&
              e->message.len > 0;
    if (!ok) fprintf(stderr, "  case '%s': expected %s, got %s\n", c->name, ec_error_code_name(c->want),
                     e ? ec_error_code_name(e->code) : "success");
    CHECK(ok);
  }
  ec_result_free(r);
}

int main(void) {
  static const char utf16[] = "\xFF\xFEh\0i\0\n\0";
  static const char utf16_lone[] = "\xFF\xFEh\0\x00\xD8i\0";
  static const char bad_utf8[] = "caf\xE9 = 1\n\xC3\x28 = 2\n";
  static const char nul_old[] = "a\0b";
  const bad_case cases[] = {
      {"binary content (NUL)", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, "ab\0cd\n", 6, "ab", "x", 0, EC_BINARY_FILE},
      {"UTF-16 with BOM: decoded, edited, encoded back", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, utf16, sizeof utf16 - 1, "h", "x", 0, EC_OK},
      {"UTF-16 BOM over an odd number of bytes", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, utf16, sizeof utf16 - 2, "h", "x", 0, EC_ENCODING},
      {"UTF-16 BOM, unpaired surrogate", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, utf16_lone, sizeof utf16_lone - 1, "h", "x", 0, EC_ENCODING},
      {"invalid UTF-8 passes through untouched", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, bad_utf8, 0, "= 2", "= 3", 0, EC_OK},
      {"mixed line endings edit", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, "a\r\nb\nc\r\n", 0, "b", "B", 0, EC_OK},
      {"NUL in old_string", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, "ab\n", 0, nul_old, "x", 3, EC_INVALID_PARAM},
      {"missing old_string", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, "ab\n", 0, NULL, "x", 0, EC_INVALID_PARAM},
      {"missing new_string", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, "ab\n", 0, "a", NULL, 0, EC_INVALID_PARAM},
      {"edit of an absent file", EC_FORMAT_REPLACE, EC_PROFILE_EDITCORE, NULL, 0, "a", "b", 0, EC_NOT_FOUND},
      {"whole_file with NUL", EC_FORMAT_WHOLE_FILE, EC_PROFILE_EDITCORE, "x\n", 0, "a\0b", NULL, 3, EC_BINARY_FILE},
      {"unterminated SEARCH block", EC_FORMAT_SEARCH_REPLACE, EC_PROFILE_EDITCORE, "a\n", 0, "------- SEARCH\na\n=======\nb\n", NULL, 0, EC_MALFORMED_EDIT},
      {"SEARCH block without divider", EC_FORMAT_SEARCH_REPLACE, EC_PROFILE_EDITCORE, "a\n", 0, "------- SEARCH\na\n+++++++ REPLACE\n", NULL, 0, EC_MALFORMED_EDIT},
      {"deeply repeated markers", EC_FORMAT_SEARCH_REPLACE, EC_PROFILE_EDITCORE, "a\n", 0,
       "=======\n=======\n=======\n=======\n=======\n=======\n=======\n=======\n", NULL, 0, EC_MALFORMED_EDIT},
      {"codex patch without End Patch", EC_FORMAT_CODEX_PATCH, EC_PROFILE_EDITCORE, "a\n", 0, "*** Begin Patch\n*** Update File: file.txt\n@@\n-a\n+b\n", NULL, 0, EC_MALFORMED_EDIT},
      {"codex patch for a file not provided", EC_FORMAT_CODEX_PATCH, EC_PROFILE_EDITCORE, "a\n", 0, "*** Begin Patch\n*** Update File: other.txt\n@@\n-a\n+b\n*** End Patch\n", NULL, 0, EC_NOT_FOUND},
      {"codex hunk with no lines", EC_FORMAT_CODEX_PATCH, EC_PROFILE_EDITCORE, "a\n", 0, "*** Begin Patch\n*** Update File: file.txt\n*** End Patch\n", NULL, 0, EC_MALFORMED_EDIT},
      {"unified diff for a file not provided", EC_FORMAT_UNIFIED_DIFF, EC_PROFILE_EDITCORE, "a\n", 0, "--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-a\n+b\n", NULL, 0, EC_NOT_FOUND},
      {"unified diff hunk that is not a hunk", EC_FORMAT_UNIFIED_DIFF, EC_PROFILE_EDITCORE, "a\n", 0, "--- a/file.txt\n+++ b/file.txt\n@@ -1 +1 @@\n?a\n", NULL, 0, EC_MALFORMED_EDIT},
      {"garbage as a unified diff", EC_FORMAT_UNIFIED_DIFF, EC_PROFILE_EDITCORE, "a\n", 0, "this is not a diff\n", NULL, 0, EC_MALFORMED_EDIT},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_case(&cases[i]);

  /* a 100 MB file hits the input limit with TOO_LARGE, not memory exhaustion */
  {
    ec_request req;
    ec_request_init(&req, EC_FORMAT_REPLACE);
    size_t n = 100u * 1000 * 1000;
    char *big = malloc(n);
    CHECK(big != NULL);
    if (big) {
      memset(big, 'x', n);
      ec_file f = {{"big", 3}, {big, n}};
      req.files = &f;
      req.n_files = 1;
      req.edit.old_string = (ec_str){"x", 1};
      req.edit.new_string = (ec_str){"y", 1};
      req.edit.has_old_string = req.edit.has_new_string = true;
      ec_result *r = ec_apply(&req, NULL);
      CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_TOO_LARGE);
      ec_result_free(r);
      free(big);
    }
  }
  /* 1 M identical lines: an ambiguous match is counted and listed briefly, quickly */
  {
    size_t lines = 1u << 20;
    char *t = malloc(lines * 2);
    CHECK(t != NULL);
    if (t) {
      for (size_t i = 0; i < lines; i++) { t[2 * i] = 'a'; t[2 * i + 1] = '\n'; }
      ec_request req;
      ec_request_init(&req, EC_FORMAT_REPLACE);
      ec_file f = {{"same", 4}, {t, lines * 2}};
      req.files = &f;
      req.n_files = 1;
      req.edit.old_string = (ec_str){"a\n", 2};
      req.edit.new_string = (ec_str){"b\n", 2};
      req.edit.has_old_string = req.edit.has_new_string = true;
      ec_result *r = ec_apply(&req, NULL);
      const ec_error *e = r ? ec_result_error(r, 0) : NULL;
      CHECK(e && e->code == EC_AMBIGUOUS && e->message.len < 2000);
      ec_result_free(r);
      req.edit.replace_all = true;
      r = ec_apply(&req, NULL);
      /* a 2 MB diff is cut at diff_max_bytes, so the result is partial (truncated preview) */
      CHECK(r && ec_result_status(r) == EC_STATUS_PARTIAL && ec_result_file(r, 0)->replacements == lines &&
            ec_result_file(r, 0)->diff_truncated);
      ec_result_free(r);
      free(t);
    }
  }
  /* a 10 MB single line */
  {
    size_t n = 10u << 20;
    char *t = malloc(n);
    CHECK(t != NULL);
    if (t) {
      memset(t, 'q', n);
      memcpy(t + n / 2, "NEEDLE", 6);
      ec_request req;
      ec_request_init(&req, EC_FORMAT_REPLACE);
      ec_file f = {{"line", 4}, {t, n}};
      req.files = &f;
      req.n_files = 1;
      req.edit.old_string = (ec_str){"NEEDLE", 6};
      req.edit.new_string = (ec_str){"PIN", 3};
      req.edit.has_old_string = req.edit.has_new_string = true;
      ec_result *r = ec_apply(&req, NULL);
      CHECK(r && ec_result_status(r) == EC_STATUS_PARTIAL && ec_result_file(r, 0)->diff_truncated &&
            ec_result_file(r, 0)->content.len == n - 3);
      ec_result_free(r);
      free(t);
    }
  }
  test_backtracking_shapes();
  test_repeated_markers();
  printf("bad-input catalogue (typed API and large inputs): %zu cases, %d skipped (format not in this build)\n",
         sizeof cases / sizeof *cases + 3 + extra_cases, skipped);
  TEST_MAIN_END();
}
