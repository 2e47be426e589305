/* The document model: BOM, line endings (LF, CRLF, mixed, lone CR), final newlines, splices. */
#include "test_util.h"
#include "text/doc.h"
#include "text/lines.h"
#include "base/str.h"

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }

/* Loads `in`, replaces the first occurrence of `old` (in normalised text) by `neu`, renders. */
static ec_str edit(ec_arena *a, const char *in, const char *old, const char *neu) {
  ec_doc d, out;
  if (ec_doc_load(a, S(in), &d)) return S("<load failed>");
  const char *hit = strstr(d.text, old);
  if (!hit) return S("<not found>");
  ec_splice sp = {(size_t)(hit - d.text), (size_t)(hit - d.text) + strlen(old), S(neu)};
  if (ec_doc_splice(a, &d, &sp, 1, &out)) return S("<splice failed>");
  return ec_doc_render(a, &out);
}

int main(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_doc d;

  /* detection */
  CHECK(ec_doc_load(a, S("a\nb\n"), &d) == EC_OK && d.eol == EC_EOL_LF && !d.bom && d.n_lf == 2);
  CHECK(ec_doc_load(a, S("a\r\nb\r\n"), &d) == EC_OK && d.eol == EC_EOL_CRLF && d.crlf_dominant);
  CHECK_STR(d.text, d.len, "a\nb\n");
  CHECK(ec_doc_load(a, S("a\r\nb\nc\r\n"), &d) == EC_OK && d.eol == EC_EOL_MIXED && d.crlf_dominant);
  CHECK(ec_doc_load(a, S("no newline"), &d) == EC_OK && d.eol == EC_EOL_NONE && d.n_lf == 0);
  CHECK(ec_doc_load(a, S(""), &d) == EC_OK && d.len == 0);
  CHECK(ec_doc_load(a, S("\xEF\xBB\xBFx\n"), &d) == EC_OK && d.bom);
  CHECK_STR(d.text, d.len, "x\n");
  ec_str nul = {"a\0b", 3};
  CHECK(ec_doc_load(a, nul, &d) == EC_BINARY_FILE);
  /* a lone CR is content, not a line ending */
  CHECK(ec_doc_load(a, S("a\rb\n"), &d) == EC_OK && d.len == 4 && d.eol == EC_EOL_LF);
  /* the longest line, without its ending, on the copying path and the folding one */
  CHECK(ec_doc_load(a, S("ab\nabcd\nabc"), &d) == EC_OK && (ec_doc_measure_lines(&d), d.longest_line == 4));
  CHECK(ec_doc_load(a, S("ab\nabcdef"), &d) == EC_OK && (ec_doc_measure_lines(&d), d.longest_line == 6));
  CHECK(ec_doc_load(a, S("abcd\r\nabc\r\n"), &d) == EC_OK && (ec_doc_measure_lines(&d), d.longest_line == 4));
  CHECK(ec_doc_load(a, S("ab\r\nabc\rd\n\r"), &d) == EC_OK && (ec_doc_measure_lines(&d), d.longest_line == 5) && d.n_lf == 2 && d.eol == EC_EOL_MIXED);
  CHECK(ec_doc_load(a, S("\n\n"), &d) == EC_OK && (ec_doc_measure_lines(&d), d.longest_line == 0) && d.n_lf == 2);
  /* ec_count_lf, a word at a time: every length and alignment around the 8-byte words and the
   * 255-word flush, against a byte loop */
  {
    static char buf[8 * 255 * 2 + 40];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (i * 7 % 5 == 0 || i % 97 == 3) ? '\n' : (char)('a' + i % 26);
    bool ok = true;
    for (size_t off = 0; off < 9; off++)
      for (size_t n = 0; off + n <= sizeof buf; n += (n < 40 ? 1 : 13)) {
        size_t want = 0;
        for (size_t k = 0; k < n; k++) want += buf[off + k] == '\n';
        ok &= ec_count_lf(buf + off, n) == want;
      }
    CHECK(ok);
  }
  /* with nothing to restore, render hands back the doc's own text */
  CHECK(ec_doc_load(a, S("x\ny\n"), &d) == EC_OK && ec_doc_render(a, &d).ptr == d.text);

  /* render gives the input back exactly */
  const char *round[] = {"", "x", "x\n", "a\r\nb\r\n", "a\r\nb\nc\r\nd", "\xEF\xBB\xBF" "a\r\n", "\r\n\r\n", "a\rb\r\n\r"};
  for (size_t i = 0; i < sizeof round / sizeof *round; i++) {
    CHECK(ec_doc_load(a, S(round[i]), &d) == EC_OK);
    ec_str r = ec_doc_render(a, &d);
    CHECK_STR(r.ptr, r.len, round[i]);
  }

  /* splices keep the file's style */
  ec_str r = edit(a, "one\r\ntwo\r\nthree\r\n", "two\n", "2\n2b\n");
  CHECK_STR(r.ptr, r.len, "one\r\n2\r\n2b\r\nthree\r\n");
  r = edit(a, "a\r\nb\nc\r\nd\n", "c", "C1\nC2");
  CHECK_STR(r.ptr, r.len, "a\r\nb\nC1\nC2\r\nd\n"); /* tie: LF dominant; c's own CRLF kept */
  r = edit(a, "a\r\nb\r\nc\n", "b", "B1\nB2");
  CHECK_STR(r.ptr, r.len, "a\r\nB1\r\nB2\r\nc\n"); /* CRLF dominant */
  r = edit(a, "x = 1\ny = 2", "y = 2", "y = 3");
  CHECK_STR(r.ptr, r.len, "x = 1\ny = 3");
  r = edit(a, "x\r\ny", "y", "y\n");
  CHECK_STR(r.ptr, r.len, "x\r\ny\r\n");
  r = edit(a, "\xEF\xBB\xBF" "a\r\nb\r\n", "a\nb\n", "");
  CHECK_STR(r.ptr, r.len, "\xEF\xBB\xBF");
  r = edit(a, "keep\r\ndrop\r\nkeep\r\n", "drop\n", "");
  CHECK_STR(r.ptr, r.len, "keep\r\nkeep\r\n");
  /* an LF-only file: splices at the start, in the middle and at the end */
  r = edit(a, "a\nb\nc\n", "a\n", "A\nA2\n");
  CHECK_STR(r.ptr, r.len, "A\nA2\nb\nc\n");
  r = edit(a, "a\nb\nc", "c", "C\n");
  CHECK_STR(r.ptr, r.len, "a\nb\nC\n");
  r = edit(a, "a\nb\nc\n", "b\nc\n", "");
  CHECK_STR(r.ptr, r.len, "a\n");

  /* several splices at once */
  CHECK(ec_doc_load(a, S("a\r\nb\r\nc\r\n"), &d) == EC_OK);
  ec_splice sp[2] = {{0, 1, S("A")}, {4, 5, S("C\nC")}};
  ec_doc out;
  CHECK(ec_doc_splice(a, &d, sp, 2, &out) == EC_OK);
  r = ec_doc_render(a, &out);
  CHECK_STR(r.ptr, r.len, "A\r\nb\r\nC\r\nC\r\n");

  /* replacing text splices only the lines that changed (and never reads outside the buffer) */
  {
    const char *cases[][3] = {
        /* file, new text, rendered result */
        {"a\r\nb\nc\nd\n", "a\nB\nc\nd\n", "a\r\nB\nc\nd\n"}, /* only line 2 rewritten: line 1 keeps CRLF */
        {"x\n", "y\nx\n", "y\nx\n"},                           /* prepend: suffix reaches the start */
        {"x\n", "x\nx\n", "x\nx\n"},                           /* prefix and suffix overlap */
        {"ab", "b", "b"},                                       /* suffix inside the first line */
        {"", "new\n", "new\n"},
        {"old\n", "", ""},
        {"same\r\n", "same\n", "same\r\n"},                    /* equal after normalisation */
        {"a\nb\na\n", "a\na\n", "a\na\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      ec_doc src, out;
      CHECK(ec_doc_load(a, S(cases[i][0]), &src) == EC_OK);
      CHECK(ec_doc_replace_lines(a, &src, 0, src.len, S(cases[i][1]), &out) == EC_OK);
      ec_str got = ec_doc_render(a, &out);
      CHECK_STR(got.ptr, got.len, cases[i][2]);
    }
  }

  /* edit strings: CRLF folded */
  ec_str n = ec_text_normalize_eol(a, S("a\r\nb\rc\r\n"));
  CHECK_STR(n.ptr, n.len, "a\nb\rc\n");
  CHECK(ec_text_line_of("a\nb\nc", 4) == 3);

  /* line tables */
  ec_lines l;
  CHECK(ec_lines_build(a, "a\n\nbc", 5, &l) == EC_OK && l.n == 3 && l.len[1] == 0 && l.len[2] == 2);
  CHECK(ec_lines_index_of(&l, 0) == 0 && ec_lines_index_of(&l, 1) == 0 && ec_lines_index_of(&l, 2) == 1 && ec_lines_index_of(&l, 3) == 2);
  CHECK(ec_lines_build(a, "x\n", 2, &l) == EC_OK && l.n == 1);
  CHECK(ec_lines_build(a, "", 0, &l) == EC_OK && l.n == 0);
  CHECK(ec_lines_build(a, "same\nsame\nother\n", 16, &l) == EC_OK && l.n == 3 && l.start[1] == 5 && l.start[2] == 10 &&
        l.len[2] == 5 && l.start[3] == 16);

  ec_arena_free(a);
  TEST_MAIN_END();
}
