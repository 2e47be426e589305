/* A new content left unbuilt (options.content_as_splices, issue 28: the npm package builds it
 * from the string it gave, so the engine's memory need not hold the file twice).
 * 1. A deferring builder's pending doc is the built doc: the same length, LF count and change
 *    log; every range read through it (ec_doc_read), its settled text and its rendering are the
 *    built doc's bytes. Random docs and splices, with and without a BOM.
 * 2. A request answered with contents as splices is the same answer: ec_result_to_json_splices
 *    byte for byte, and the given bytes with each splice's new bytes (ec_result_splice_text) are
 *    the content built the usual way. Where the engine can (a replace in a file without CRLF,
 *    plain encoding, no syntax report) the content is in fact not built (content.ptr NULL); where
 *    it cannot (CRLF, a non-ASCII change in a file that is not UTF-8, a syntax report) it is built as before;
 *    whole_file's new doc reads the request's edit.content where no CRLF needs carrying. */
#include "editcore.h"
#include "text/doc.h"
#include "base/arena.h"
#include "base/str.h"
#include "test_util.h"
#include <stdlib.h>

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static unsigned next(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (unsigned)(rng >> 32);
}

static char *random_text(size_t n) {
  char *t = malloc(n + 1);
  for (size_t i = 0; i < n; i++) t[i] = next() % 8 == 0 ? '\n' : (char)('a' + next() % 26);
  t[n] = 0;
  return t;
}

static void check_pending_docs(void) {
  for (int round = 0; round < 400; round++) {
    ec_arena *a = ec_arena_new(NULL);
    size_t n = round < 40 ? (size_t)round : 100 + next() % 5000;
    bool bom = next() % 4 == 0;
    char *body = random_text(n), *content = malloc(n + 4);
    size_t cl = 0;
    if (bom) { memcpy(content, "\xEF\xBB\xBF", 3); cl = 3; }
    memcpy(content + cl, body, n);
    cl += n;
    ec_doc loaded;
    CHECK(ec_doc_view(a, ec_str_make(content, cl), &loaded) == EC_OK);
    CHECK(ec_doc_log_start(a, &loaded));
    /* sorted splices that may touch, delete, insert, or write LFs */
    ec_splice sp[12];
    size_t ns = 0, at = 0;
    char *texts[12];
    while (ns < 12 && at <= loaded.len && next() % 5) {
      size_t start = at + (loaded.len - at ? next() % (loaded.len - at + 1) : 0);
      if (next() % 4 == 0) start = at; /* touching the previous one */
      size_t end = start + (loaded.len - start ? next() % ((loaded.len - start) / 4 + 1) : 0);
      size_t tl = next() % 4 == 0 ? 0 : next() % 40;
      texts[ns] = random_text(tl);
      sp[ns].start = start;
      sp[ns].end = end;
      sp[ns].text = ec_str_make(texts[ns], tl);
      ns++;
      at = end;
    }
    ec_doc built, pending;
    CHECK(ec_doc_splice(a, &loaded, sp, ns, &built) == EC_OK);
    ec_doc_builder b;
    ec_doc_builder_init(&b, a, &loaded, loaded.len);
    CHECK(ec_doc_builder_defer(&b));
    for (size_t i = 0; i < ns; i++) ec_doc_builder_put(&b, &sp[i]);
    for (size_t i = 0; i < ns; i++) memset(texts[i], '#', sp[i].text.len); /* the pending doc holds copies */
    CHECK(ec_doc_builder_finish(&b, a, &pending) == EC_OK);
    CHECK(pending.pending && !pending.text);
    CHECK_MSG(pending.len == built.len && pending.n_lf == built.n_lf, "round %d: len %zu/%zu lf %zu/%zu", round, pending.len,
              built.len, pending.n_lf, built.n_lf);
    CHECK(pending.log && built.log && pending.log->n == built.log->n);
    if (pending.log && built.log && pending.log->n == built.log->n)
      CHECK(!pending.log->n || !memcmp(pending.log->regions, built.log->regions, pending.log->n * sizeof *built.log->regions));
    char *got = malloc(built.len + 1);
    for (int k = 0; k < 30; k++) {
      size_t s = built.len ? next() % (built.len + 1) : 0, e = s + (built.len - s ? next() % (built.len - s + 1) : 0);
      if (k == 0) s = 0, e = built.len;
      memset(got, '?', built.len + 1);
      ec_doc_read(&pending, s, e, got);
      CHECK_MSG(!memcmp(got, built.text + s, e - s) && got[e - s] == '?', "round %d: read [%zu, %zu)", round, s, e);
    }
    ec_str r1 = ec_doc_render(a, &pending), r2 = ec_doc_render(a, &built);
    CHECK(r1.ptr && r1.len == r2.len && !memcmp(r1.ptr, r2.ptr, r2.len));
    CHECK(ec_doc_settle(a, &pending) == EC_OK);
    CHECK(!pending.pending && pending.text && pending.len == built.len && !memcmp(pending.text, built.text, built.len));
    free(got);
    for (size_t i = 0; i < ns; i++) free(texts[i]);
    free(body);
    free(content);
    ec_arena_free(a);
  }
  /* A doc with CRLF endings to carry is built as usual. */
  ec_arena *a = ec_arena_new(NULL);
  ec_doc crlf;
  CHECK(ec_doc_load(a, ec_str_make("a\r\nb\r\n", 6), &crlf) == EC_OK);
  ec_doc_builder b;
  ec_doc_builder_init(&b, a, &crlf, crlf.len);
  CHECK(!ec_doc_builder_defer(&b));
  ec_doc_builder_drop(&b);
  ec_arena_free(a);
}

/* One request, answered as usual and with contents as splices: the same JSON, the same content.
 * `unbuilt`: whether the content must be left unbuilt (1), built (0), either (-1). */
static void check_request(const char *what, const char *request, const char *path, const char *bytes, size_t n, int unbuilt) {
  ec_file file = {{path, strlen(path)}, {bytes, n}};
  size_t rl = strlen(request);
  unsigned how = strstr(request, "\"syntax\"") ? 0 : EC_FILES_SYNTAX_ON_DEMAND; /* as the package sends it */
  ec_result *usual = ec_apply_json_files_as(request, rl, &file, 1, how, NULL);
  ec_result *split = ec_apply_json_files_as(request, rl, &file, 1, how | EC_FILES_CONTENT_AS_SPLICES, NULL);
  size_t l1 = 0, l2 = 0;
  char *j1 = ec_result_to_json_splices(usual, NULL, &l1), *j2 = ec_result_to_json_splices(split, NULL, &l2);
  CHECK_MSG(j1 && j2 && l1 == l2 && !memcmp(j1, j2, l1), "%s: the answers differ:\n%s\n%s", what, j1, j2);
  CHECK_MSG(ec_result_status(usual) == EC_STATUS_SUCCESS && ec_result_file_count(split) == 1, "%s: %s", what, j1);
  const ec_file_result *f = ec_result_file(usual, 0), *g = ec_result_file(split, 0);
  if (f && g) {
    CHECK_MSG(g->content.len == f->content.len && f->content.ptr, "%s", what);
    if (unbuilt >= 0) CHECK_MSG((g->content.ptr == NULL) == (unbuilt == 1), "%s: content %s", what, g->content.ptr ? "built" : "not built");
    /* the given bytes with the splices' new bytes */
    char *made = malloc(f->content.len + 1);
    size_t w = 0, r = 0;
    for (size_t k = 0; k < g->n_splices; k++) {
      const ec_file_splice *s = &g->splices[k];
      memcpy(made + w, bytes + r, s->old_start - r);
      w += s->old_start - r;
      ec_str t = ec_result_splice_text(split, 0, k);
      CHECK(t.len == s->new_end - s->new_start && w == s->new_start);
      memcpy(made + w, t.ptr, t.len);
      w += t.len;
      r = s->old_end;
    }
    memcpy(made + w, bytes + r, n - r);
    w += n - r;
    CHECK_MSG(w == f->content.len && !memcmp(made, f->content.ptr, w), "%s: built from the splices: %.*s", what, (int)w, made);
    free(made);
    CHECK(ec_result_splice_text(split, 0, g->n_splices).ptr == NULL);
  }
  /* the full JSON writer names an unbuilt content null */
  char *full = ec_result_to_json(split, NULL, NULL);
  CHECK(full && (unbuilt != 1 || strstr(full, "\"content\":null")));
  ec_free(NULL, full);
  ec_free(NULL, j1);
  ec_free(NULL, j2);
  ec_result_free(usual);
  ec_result_free(split);
}

static void check_requests(void) {
  const char *py = "def f(a):\n    return a\n\n\ndef g(b):\n    x = 1\n    return b + x\n";
  size_t pyn = strlen(py);
  check_request("exact", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.py\",\"old_string\":\"    x = 1\\n\",\"new_string\":\"    x = 2\\n    y = 3\\n\"}}",
                "a.py", py, pyn, 1);
  check_request("indentation off", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.py\",\"old_string\":\"x = 1\\nreturn b + x\",\"new_string\":\"x = 5\\nreturn b * x\"}}",
                "a.py", py, pyn, 1);
  check_request("replace_all", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.py\",\"old_string\":\"return\",\"new_string\":\"yield\",\"replace_all\":true}}",
                "a.py", py, pyn, 1);
  check_request("a deletion at the end", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.py\",\"old_string\":\"    return b + x\\n\",\"new_string\":\"\"}}",
                "a.py", py, pyn, 1);
  check_request("the issue-30 blank line", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.c\",\"old_string\":\"\\n    for(i = 0; i < 10; i++)\\n    {\",\"new_string\":\"\\n    for (i = 0; i < 20; i++)\\n    {\"}}",
                "a.c", "int f(void)\n{\n    int i = 0;\n\n    for(i=0;i<10; i++)\n    {\n        g(i);\n    }\n    return i;\n}\n", 91, 1);
  const char *bom = "\xEF\xBB\xBFx = 1\ny = 2\n";
  check_request("a BOM", "{\"format\":\"replace\",\"edit\":{\"path\":\"b.py\",\"old_string\":\"y = 2\",\"new_string\":\"y = 0\"}}", "b.py", bom,
                strlen(bom), 1);
  /* right after the BOM's bytes (>= 0x80), but the file is UTF-8: the encoding rule holds from the original alone */
  check_request("the first line after a BOM", "{\"format\":\"replace\",\"edit\":{\"path\":\"b.py\",\"old_string\":\"x = 1\\ny\",\"new_string\":\"z\"}}",
                "b.py", bom, strlen(bom), 1);
  const char *crlf = "x = 1\r\ny = 2\r\n";
  check_request("CRLF: built", "{\"format\":\"replace\",\"edit\":{\"path\":\"c.py\",\"old_string\":\"y = 2\",\"new_string\":\"y = 3\\nz = 4\"}}",
                "c.py", crlf, strlen(crlf), 0);
  const char *latin1 = "s = 'caf\xE9'\nt = 1\n";
  check_request("ASCII in Latin-1", "{\"format\":\"replace\",\"edit\":{\"path\":\"d.py\",\"old_string\":\"t = 1\",\"new_string\":\"t = 2\"}}", "d.py",
                latin1, strlen(latin1), 1);
  check_request("a non-ASCII change in UTF-8", "{\"format\":\"replace\",\"edit\":{\"path\":\"a.py\",\"old_string\":\"x = 1\",\"new_string\":\"x = '\xC3\xA9'\"}}",
                "a.py", py, pyn, 1);
  /* a change right after a byte >= 0x80 of a file that is not UTF-8: the rule reads the whole text */
  check_request("next to a Latin-1 byte: built", "{\"format\":\"replace\",\"edit\":{\"path\":\"e.py\",\"old_string\":\"'\\nt = 1\",\"new_string\":\"'\\nt = 2\"}}",
                "e.py", latin1, strlen(latin1), 0);
  check_request("a syntax report: built", "{\"format\":\"replace\",\"options\":{\"syntax\":\"report\"},\"edit\":{\"path\":\"a.py\",\"old_string\":\"x = 1\",\"new_string\":\"x = 2\"}}",
                "a.py", py, pyn, 0);
  /* whole_file: the new doc reads edit.content itself (no CRLF to carry) or a copy (CRLF) */
  check_request("whole_file", "{\"format\":\"whole_file\",\"edit\":{\"path\":\"a.py\",\"content\":\"def f(a):\\n    return a\\n\"}}", "a.py", py, pyn, 0);
  check_request("whole_file after a BOM", "{\"format\":\"whole_file\",\"edit\":{\"path\":\"b.py\",\"content\":\"x = 1\\ny = 5\\n\"}}", "b.py", bom,
                strlen(bom), 0);
  check_request("whole_file in CRLF", "{\"format\":\"whole_file\",\"edit\":{\"path\":\"c.py\",\"content\":\"x = 1\\r\\ny = 7\\n\"}}", "c.py", crlf,
                strlen(crlf), 0);
  check_request("search_replace: built", "{\"format\":\"search_replace\",\"edit\":{\"path\":\"a.py\",\"text\":\"<<<<<<< SEARCH\\n    x = 1\\n=======\\n    x = 9\\n>>>>>>> REPLACE\\n\"}}",
                "a.py", py, pyn, 0);
}

/* A whole_file content given beside the request (ec_apply_json_beside) is the result's new bytes
 * where it lies under EC_FILES_BESIDE_IN_PLACE with contents as splices (not parsed into a copy,
 * not copied into the result: the npm package then hands the caller its own string back), and a
 * copy otherwise; the JSON answer is the same bytes either way. */
static void check_beside_in_place(void) {
  const char *req = "{\"format\":\"whole_file\",\"edit\":{\"path\":\"a.py\",\"content\":\"\"}}";
  const char *old = "x = 1\ny = 2\n", *neu = "x = 1\ny = 3\nz = 4\n";
  ec_file f = {{"a.py", 4}, {old, strlen(old)}};
  ec_json_member m = {{"content", 7}, {neu, strlen(neu)}};
  char *json[3];
  const unsigned ways[3] = {EC_FILES_CONTENT_AS_SPLICES | EC_FILES_BESIDE_IN_PLACE, EC_FILES_CONTENT_AS_SPLICES, EC_FILES_BESIDE_IN_PLACE};
  for (int k = 0; k < 3; k++) {
    ec_json_beside b = {&f, 1, &m, 1, ways[k]};
    ec_result *r = ec_apply_json_beside(req, strlen(req), &b, NULL);
    CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS);
    ec_str t = ec_result_splice_text(r, 0, 0);
    CHECK_MSG(t.len == strlen(neu) && !memcmp(t.ptr, neu, t.len), "ways %u: the new bytes", ways[k]);
    CHECK_MSG((t.ptr == neu) == (k == 0), "ways %u: in place %d", ways[k], t.ptr == neu);
    size_t n;
    json[k] = ec_result_to_json_splices(r, NULL, &n);
    ec_result_free(r);
  }
  CHECK(json[0] && json[1] && !strcmp(json[0], json[1]));
  for (int k = 0; k < 3; k++) ec_free(NULL, json[k]);
}

int main(void) {
  check_pending_docs();
  check_requests();
  check_beside_in_place();
  TEST_MAIN_END();
}
