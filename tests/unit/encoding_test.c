/* Encodings (text/encoding.h) and the protocol's bytes form (base/base64.h, ec_json_bytes):
 * UTF-16 decoded and encoded back byte for byte, lone-CR line endings, the rule for files that
 * are not UTF-8 with its near misses, the views' rendering, base64 strictly canonical. */
#include "test_util.h"
#include "base/base64.h"
#include "text/encoding.h"
#include <stdlib.h>

#define B(lit) ((ec_str){lit, sizeof lit - 1})

static bool same(ec_str a, ec_str b) { return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len)); }

/* decode then encode gives the bytes back; the text is `text` */
static void round_trip(ec_arena *a, ec_str bytes, ec_str text, ec_utf16 utf16, bool cr) {
  ec_str got, back, problem = {0, 0};
  ec_encoding enc;
  const char *why;
  CHECK_MSG(ec_text_decode(a, bytes, &got, &enc, &problem) == EC_OK, "%.*s", (int)problem.len, problem.ptr);
  CHECK(enc.utf16 == utf16 && enc.cr == cr);
  CHECK_STR(got.ptr, got.len, text.ptr);
  CHECK(ec_text_encode(a, got, &enc, &back, &why) == EC_OK && same(back, bytes) && !why);
}

static bool keeps(const char *before, size_t bl, const char *after, size_t al, ec_kept *why) {
  return ec_text_keeps_bytes((ec_str){before, bl}, (ec_str){after, al}, why);
}
#define KEEPS(b, a, why) keeps(b, sizeof b - 1, a, sizeof a - 1, why)

int main(void) {
  ec_arena *a = ec_arena_new(NULL);

  /* Section - base64: RFC 4648's vectors, and only the canonical form is taken */
  static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (int i = 0; i < 7; i++) {
    char out[16];
    ec_base64_encode((const unsigned char *)plain[i], strlen(plain[i]), out);
    CHECK(ec_base64_len(strlen(plain[i])) == strlen(coded[i]) && !memcmp(out, coded[i], strlen(coded[i])));
    size_t n = ec_base64_decode(coded[i], strlen(coded[i]), out);
    CHECK(n == strlen(plain[i]) && !memcmp(out, plain[i], n));
  }
  static const char *const bad[] = {"Zg=", "Zg", "Z===", "Zh==", "Zm9=", "Zg==Zg==", "Zm 9v", "Zm9v\n", "Zm-v", "=Zm9"};
  for (int i = 0; i < 10; i++) {
    char out[16];
    CHECK_MSG(ec_base64_decode(bad[i], strlen(bad[i]), out) == (size_t)-1, "'%s' was taken", bad[i]);
  }
  unsigned char all[256];
  for (int i = 0; i < 256; i++) all[i] = (unsigned char)i;
  char enc64[400], dec[300];
  ec_base64_encode(all, 256, enc64);
  CHECK(ec_base64_decode(enc64, ec_base64_len(256), dec) == 256 && !memcmp(dec, all, 256));

  /* Section - the JSON value of a file's bytes */
  size_t jl;
  char *j = ec_json_bytes("caf\xC3\xA9\n", 6, NULL, &jl);
  CHECK_STR(j, jl, "\"caf\xC3\xA9\\n\"");
  ec_free(NULL, j);
  j = ec_json_bytes("caf\xE9\n", 5, NULL, &jl);
  CHECK_STR(j, jl, "{\"base64\":\"Y2Fm6Qo=\"}");
  ec_free(NULL, j);
  j = ec_json_bytes("a\0b", 3, NULL, &jl); /* NUL: C hosts' strings end there */
  CHECK_STR(j, jl, "{\"base64\":\"YQBi\"}");
  ec_free(NULL, j);

  /* Section - UTF-16 with a BOM, both byte orders, a pair and CRLF inside */
  round_trip(a, B("\xFF\xFEh\0\xE9\0\r\0\n\0=\xD8\0\xDE"), B("h\xC3\xA9\r\n\xF0\x9F\x98\x80"), EC_UTF16_LE, false);
  round_trip(a, B("\xFE\xFF\0h\0\xE9\0\n\xD8=\xDE\0"), B("h\xC3\xA9\n\xF0\x9F\x98\x80"), EC_UTF16_BE, false);
  round_trip(a, B("\xFF\xFE"), B(""), EC_UTF16_LE, false);
  ec_str t, problem = {0, 0};
  ec_encoding e;
  CHECK(ec_text_decode(a, B("\xFF\xFEh\0i"), &t, &e, &problem) == EC_ENCODING && strstr(problem.ptr, "odd number"));
  CHECK(ec_text_decode(a, B("\xFF\xFEh\0\x00\xDCi\0"), &t, &e, &problem) == EC_ENCODING && strstr(problem.ptr, "unpaired") &&
        strstr(problem.ptr, "byte 4"));
  CHECK(ec_text_decode(a, B("\xFF\xFEh\0\x00\xD8"), &t, &e, &problem) == EC_ENCODING); /* a high surrogate at the end */
  CHECK(ec_text_decode(a, B("\xFF\xFE\0\0h\0\0\0"), &t, &e, &problem) == EC_ENCODING && strstr(problem.ptr, "UTF-32"));
  /* text that is not UTF-8 cannot be written as UTF-16 */
  ec_encoding le = {EC_UTF16_LE, false};
  ec_str out;
  const char *why_not;
  CHECK(ec_text_encode(a, B("caf\xE9"), &le, &out, &why_not) == EC_ENCODING && strstr(why_not, "not UTF-8"));

  /* Section - lone CR line endings: only in a file that has no LF at all */
  round_trip(a, B("a\rb\r"), B("a\nb\n"), EC_UTF16_NONE, true);
  round_trip(a, B("\xEF\xBB\xBF" "a\rb"), B("\xEF\xBB\xBF" "a\nb"), EC_UTF16_NONE, true);
  round_trip(a, B("\xFF\xFE" "a\0\r\0b\0\r\0"), B("a\nb\n"), EC_UTF16_LE, true);
  CHECK(ec_text_decode(a, B("a\rb\n"), &t, &e, &problem) == EC_OK && ec_encoding_plain(&e) && t.len == 4 && t.ptr[1] == '\r');
  CHECK(ec_text_decode(a, B("a\r\nb\r\n"), &t, &e, &problem) == EC_OK && ec_encoding_plain(&e));
  CHECK(ec_text_decode(a, B("plain"), &t, &e, &problem) == EC_OK && ec_encoding_plain(&e));
  ec_encoding cr = {EC_UTF16_NONE, true};
  CHECK(ec_text_encode(a, B("a\nb\nnew\n"), &cr, &out, &why_not) == EC_OK);
  CHECK_STR(out.ptr, out.len, "a\rb\rnew\r");
  /* A CR in the edited text of such a file would end a line once written: refused, not written.
   * Near misses: the same text in a plain file is written as it is; without the CR, encoded. */
  CHECK(ec_text_encode(a, B("a\n\rb\n"), &cr, &out, &why_not) == EC_ENCODING && strstr(why_not, "lone CR"));
  CHECK(ec_text_encode(a, B("a\rb"), &cr, &out, &why_not) == EC_ENCODING);
  ec_encoding lf = {EC_UTF16_NONE, false};
  CHECK(ec_text_encode(a, B("a\n\rb\n"), &lf, &out, &why_not) == EC_OK && out.len == 5 && out.ptr[2] == '\r');

  /* Section - the rule for files that are not UTF-8 */
  ec_kept why;
  CHECK(KEEPS("caf\xC3\xA9 x = 1\n", "caf\xC3\xA9 x = 2 \xE2\x82\xAC\n", &why)); /* a UTF-8 file: anything goes */
  CHECK(KEEPS("caf\xE9 = 1\nx = 1\n", "caf\xE9 = 1\nx = 2\ny\n", &why));        /* ASCII edits keep every byte */
  CHECK(KEEPS("caf\xE9 = 1\n", "caf\xE9 = 22\n", &why));                       /* the byte after a run is free when < 0x30 */
  CHECK(!KEEPS("caf\xE9 = 1\n", "caf\xE9 = '\xC3\xA9'\n", &why) && why.fault == EC_KEPT_NEW_TEXT && why.at == 8);
  CHECK(!KEEPS("caf\xE9 = 1\n", "cafe = 1\n", &why) && why.fault == EC_KEPT_CHANGED && why.at_before == 3);
  CHECK(!KEEPS("caf\xE9 = 1\n", "caf\xE9\xE9 = 1\n", &why));                   /* a byte added to a run */
  /* Shift-JIS 95 5C: the '\' is the character's second byte */
  CHECK(!KEEPS("s = \"\x95\\\x8E\xA6\"\n", "s = \"\x95/\x8E\xA6\"\n", &why) && why.fault == EC_KEPT_NEXT_TO && why.at_before == 5);
  /* GBK 81 40: the '@' is the character's second byte */
  CHECK(!KEEPS("s = \"\x81@\"\n", "s = \"\x81#\"\n", &why) && why.fault == EC_KEPT_NEXT_TO);
  /* text put right after a byte >= 0x80 joins its run: refused (in GBK it would become a second byte) */
  CHECK(!KEEPS("s = \xD6\xD0 x\n", "s = \xD6\xD0y x\n", &why) && why.fault == EC_KEPT_NEXT_TO);
  /* GB18030's four-byte characters hold digits: 81 30 81 30 is one run */
  CHECK(!KEEPS("\x81\x30\x81\x30\n", "\x81\x31\x81\x30\n", &why));
  CHECK(KEEPS("\x81\x30\x81\x30 = 1\n", "\x81\x30\x81\x30 = 2\n", &why));
  /* the near miss it refuses on purpose: Latin-1 'ï' then 'v' is one run, so "ve" is not edited alone */
  CHECK(!KEEPS("na\xEFve\n", "na\xEFVe\n", &why));
  CHECK(KEEPS("na\xEFve\n", "na\xEFvE\n", &why)); /* the byte after the run's ASCII byte is free */
  /* whole lines around a run move freely; the runs stay in order */
  CHECK(KEEPS("a\n\xE9\nb\n", "x\na\n\xE9\nb\nc\n", &why));
  CHECK(!KEEPS("\xE9\n\xE8\n", "\xE8\n\xE9\n", &why));
  /* the message names the file, the first byte that is not UTF-8 and what the edit would do */
  ec_str before = B("caf\xE9 = 1\nx = 1\n"), after = B("caf\xE9 = 1\nx = '\xC3\xA9'\n");
  CHECK(!ec_text_keeps_bytes(before, after, &why));
  ec_str m = ec_text_kept_message(a, B("f.py"), before, after, &why);
  CHECK(m.ptr && strstr(m.ptr, "'f.py' is not UTF-8 (byte 0xE9 at line 1") && strstr(m.ptr, "write '\xC3\xA9'") && strstr(m.ptr, "at line 2"));

  /* Section - views of a file that is not UTF-8 */
  size_t replaced;
  ec_str shown = ec_text_shown(a, B("caf\xE9 \xC3\xA9\n"), &replaced);
  CHECK_STR(shown.ptr, shown.len, "caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD\n"); /* the valid-looking pair too: no guess */
  CHECK(replaced == 3);
  shown = ec_text_shown(a, B("caf\xC3\xA9\n"), &replaced);
  CHECK_STR(shown.ptr, shown.len, "caf\xC3\xA9\n");
  CHECK(replaced == 0);
  CHECK(ec_utf8_first_invalid(B("abcdefghij\xE9")) == 10 && ec_utf8_first_invalid(B("abc")) == 3);

  /* Section - through the engine: the common case (ASCII away from every run) is decided from the
   * edit's own regions; one that joins two runs (a fuzz_encoding finding) is still refused */
  static const char joined[] = "\xE3\xE3z\n\xDD";
  ec_file jf = {{"f", 1}, {joined, sizeof joined - 1}};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &jf;
  req.n_files = 1;
  req.edit.old_string = B("\n");
  req.edit.new_string = B("");
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_ENCODING);
  ec_result_free(r);
  static const char split[] = "\xE3z\xE3\n";
  jf.content = (ec_str){split, sizeof split - 1};
  req.edit.old_string = B("z");
  req.edit.new_string = B("zz");
  r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_ENCODING); /* inside a run */
  ec_result_free(r);
  static const char apart[] = "\xE3z = 1\n\xE3\n";
  jf.content = (ec_str){apart, sizeof apart - 1};
  req.edit.old_string = B("1");
  req.edit.new_string = B("22");
  r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1);
  if (r && ec_result_file_count(r) == 1) CHECK_STR(ec_result_file(r, 0)->content.ptr, ec_result_file(r, 0)->content.len, "\xE3z = 22\n\xE3\n");
  ec_result_free(r);

  /* Section - a tool call carrying raw bytes that are not UTF-8 is the host's mistake, said so */
  static const char raw[] = "{\"tool\":\"Read\",\"phase\":\"run\",\"args\":{\"path\":\"a\"},\"root\":\"/r\","
                            "\"observed\":{\"a\":{\"kind\":\"file\",\"content\":\"caf\xE9\"}}}";
  size_t rl = 0;
  char *resp = ec_tool_json(raw, sizeof raw - 1, NULL, &rl);
  CHECK(resp && !strncmp(resp, "{\"phase\":\"error\"", 16) && strstr(resp, "UTF-8") && !strstr(resp, "\xEF\xBF\xBD"));
  ec_free(NULL, resp);
  static const char b64req[] = "{\"tool\":\"Read\",\"phase\":\"run\",\"args\":{\"path\":\"a\"},\"root\":\"/r\","
                               "\"observed\":{\"a\":{\"kind\":\"file\",\"content\":{\"base64\":\"Y2Fm6Q==\"}}}}";
  resp = ec_tool_json(b64req, sizeof b64req - 1, NULL, &rl);
  CHECK(resp && strstr(resp, "\"content\":\"caf\xEF\xBF\xBD\"") && strstr(resp, "\"encoding\":\"unknown (not UTF-8)\""));
  ec_free(NULL, resp);

  ec_arena_free(a);
  TEST_MAIN_END();
}
