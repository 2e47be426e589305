/* Loading a file without copying it (issue 28): the one-pass scan of its bytes (LFs, NUL, CR)
 * gives the same answer by every kernel as byte by byte, and a file given as a buffer of exactly
 * its bytes (nothing after them: no NUL to lean on) is edited right. Under the asan preset a read
 * past a file's last byte is a heap-buffer-overflow report. */
#include "editcore.h"
#include "base/scan.h"
#include "test_util.h"
#include <stdlib.h>

static ec_text_scan naive(const unsigned char *p, size_t n) {
  ec_text_scan s = {0, false};
  for (size_t i = 0; i < n; i++) {
    s.n_lf += p[i] == '\n';
    s.nul_or_cr |= p[i] == 0 || p[i] == '\r';
  }
  return s;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static unsigned next(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (unsigned)(rng >> 32);
}

/* Every kernel on texts of every length to 300 and some large ones, at every alignment mod 32,
 * with no odd byte, or one NUL or CR anywhere (its first, last, a lane's edge); bytes >= 0x80 too
 * (a signed compare would count them). */
static void check_kernels(void) {
  size_t cap = 70000 + 64;
  unsigned char *buf = malloc(cap);
  int kernels = 0;
  for (int round = 0; round < 1200; round++) {
    size_t n = round < 300 ? (size_t)round : 4000 + next() % 66000, off = next() % 32;
    unsigned char *p = buf + off;
    for (size_t i = 0; i < n; i++) {
      unsigned r = next() % 100;
      p[i] = r < 4 ? '\n' : r < 8 ? (unsigned char)(0x80 + next() % 128) : (unsigned char)(' ' + next() % 90);
      if (p[i] == '\r') p[i] = 'r';
    }
    int odd = next() % 3; /* 0 none, 1 a NUL, 2 a CR */
    if (odd && n) {
      size_t at = next() % 4 == 0 ? (next() % 2 ? 0 : n - 1) : next() % n;
      p[at] = odd == 1 ? 0 : '\r';
    }
    ec_text_scan want = naive(p, n), got = ec_scan_text((const char *)p, n);
    CHECK_MSG(got.n_lf == want.n_lf && got.nul_or_cr == want.nul_or_cr, "ec_scan_text n=%zu off=%zu odd=%d", n, off, odd);
    for (int k = 0; k < 3; k++) {
      if (!ec_scan_text_by(k, (const char *)p, n, &got)) continue;
      if (round == 0) kernels++;
      CHECK_MSG(got.n_lf == want.n_lf && got.nul_or_cr == want.nul_or_cr, "kernel %d n=%zu off=%zu odd=%d: %zu %d, want %zu %d", k,
                n, off, odd, got.n_lf, got.nul_or_cr, want.n_lf, want.nul_or_cr);
    }
  }
  CHECK(kernels >= 1); /* the portable one at least */
  free(buf);
}

/* A replace of `old` by `neu` in `text` held in a buffer of exactly its bytes. */
static ec_result *replace_in_exact(const char *text, const char *old, const char *neu, char **keep) {
  size_t n = strlen(text);
  char *content = malloc(n ? n : 1);
  memcpy(content, text, n);
  *keep = content;
  static ec_file file;
  file.path.ptr = "a.py";
  file.path.len = 4;
  file.content.ptr = content;
  file.content.len = n;
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string.ptr = old;
  req.edit.old_string.len = strlen(old);
  req.edit.new_string.ptr = neu;
  req.edit.new_string.len = strlen(neu);
  req.edit.has_old_string = req.edit.has_new_string = true;
  return ec_apply(&req, NULL);
}

static void check_exact(const char *text, const char *old, const char *neu, const char *want, uint32_t line) {
  char *content;
  ec_result *r = replace_in_exact(text, old, neu, &content);
  memset(content, 'X', strlen(text)); /* the result owns what it shows: the request may change at once */
  free(content);
  CHECK_MSG(r && ec_result_status(r) == EC_STATUS_SUCCESS, "%s", text);
  const ec_file_result *f = r ? ec_result_file(r, 0) : NULL;
  if (f) {
    CHECK_STR(f->content.ptr, f->content.len, want);
    CHECK(f->n_matches == 1 && f->matches[0].start_line == line);
    CHECK(f->diff.len > 0 && f->undo.len > 0);
  }
  ec_result_free(r);
}

static void check_files_without_terminator(void) {
  check_exact("a = 1\nb = 2\nc = 3", "c = 3", "c = 4", "a = 1\nb = 2\nc = 4", 3);    /* the match ends the file */
  check_exact("a = 1\nb = 2\nc = 3\n", "a = 1", "a = 0", "a = 0\nb = 2\nc = 3\n", 1); /* and starts it */
  check_exact("\xEF\xBB\xBFx = 1\ny = 2", "y = 2", "y = 3", "\xEF\xBB\xBFx = 1\ny = 3", 2);
  check_exact("x = 1\r\ny = 2\r\n", "y = 2", "y = 3", "x = 1\r\ny = 3\r\n", 2);   /* folded: a copy */
  check_exact("x = 1\ry = 2\n", "y = 2", "y = 3", "x = 1\ry = 3\n", 1);          /* a lone CR is text */
  /* Near the end of a larger file: the line is counted from the end. */
  size_t lines = 5000;
  char *big = malloc(lines * 12 + 32), *want = malloc(lines * 12 + 32);
  size_t w = 0;
  for (size_t i = 0; i < lines; i++) w += (size_t)sprintf(big + w, "line %05zu\n", i);
  strcpy(want, big);
  memcpy(want + 4990 * 11, "LINE", 4);
  check_exact(big, "line 04990\n", "LINE 04990\n", want, 4991);
  free(big);
  free(want);
  /* A NUL anywhere is a binary file, the last byte included. */
  char bin[] = {'a', '\n', 'b', 0};
  char *content = malloc(sizeof bin);
  memcpy(content, bin, sizeof bin);
  ec_file file = {{"b.txt", 5}, {content, sizeof bin}};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string.ptr = "a";
  req.edit.old_string.len = 1;
  req.edit.new_string.ptr = "c";
  req.edit.new_string.len = 1;
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  free(content);
  const ec_error *e = r ? ec_result_error(r, 0) : NULL;
  CHECK(e && e->code == EC_BINARY_FILE);
  ec_result_free(r);
}

int main(void) {
  check_kernels();
  check_files_without_terminator();
  TEST_MAIN_END();
}
