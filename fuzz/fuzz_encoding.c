/*
 * Encodings (text/encoding.h) and the bytes form (base/base64.h), by their invariants. Input:
 * <selector><file bytes>\xFF<old_string>\xFF<new_string>. The selector's low two bits put a
 * BOM before the file (none, UTF-16 LE, UTF-16 BE, UTF-8), so the UTF-16 paths are reached
 * although fields split at 0xFF.
 *   - decode then encode gives the bytes back, exactly (or decode refuses with ENCODING);
 *   - a replace on the file: a success on a file that is not UTF-8 keeps its runs (the rule),
 *     a UTF-16 result decodes, and the response is JSON whose base64 gives the content back;
 *   - base64: what decodes re-encodes to the same text (one encoding per byte string).
 */
#include "fuzz_common.h"
#include "base/base64.h"
#include "text/encoding.h"

static void check_base64(const uint8_t *data, size_t size) {
  unsigned char *out = malloc(size / 4 * 3 + 1), *again = NULL;
  size_t n = 0;
  if (out && ec_base64_decode_into((const char *)data, size, out, &n)) {
    again = malloc(ec_base64_len(n) + 1);
    FUZZ_CHECK(again != NULL, "malloc");
    ec_base64_encode(out, n, (char *)again);
    FUZZ_CHECK(ec_base64_len(n) == size && !memcmp(again, data, size), "base64 accepted only in its one canonical form");
  }
  free(out);
  free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  check_base64(data, size);
  static const char *const boms[] = {"", "\xFF\xFE", "\xFE\xFF", "\xEF\xBB\xBF"};
  const char *bom = boms[data[0] & 3];
  ec_str body = fuzz_field(data + 1, size - 1, 0);
  size_t bl = strlen(bom);
  char *file = malloc(bl + body.len + 1);
  if (!file) return 0;
  memcpy(file, bom, bl);
  if (body.len) memcpy(file + bl, body.ptr, body.len);
  ec_str bytes = {file, bl + body.len};

  /* round trip */
  ec_arena *a = ec_arena_new(NULL);
  FUZZ_CHECK(a != NULL, "arena");
  ec_str text, back, problem = {0, 0};
  ec_encoding enc;
  ec_error_code rc = ec_text_decode(a, bytes, &text, &enc, &problem);
  FUZZ_CHECK(rc == EC_OK || (rc == EC_ENCODING && problem.len), "decode: text, or ENCODING with the reason");
  if (rc == EC_OK) {
    const char *why_not;
    FUZZ_CHECK(ec_text_encode(a, text, &enc, &back, &why_not) == EC_OK, "what was decoded encodes");
    FUZZ_CHECK(back.len == bytes.len && !memcmp(back.ptr, bytes.ptr, bytes.len), "decode then encode gives the bytes back");
  }

  /* a replace through the engine, held to the invariants */
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  fuzz_limits(&req);
  ec_file f = {{"f", 1}, bytes};
  req.files = &f;
  req.n_files = 1;
  req.edit.old_string = fuzz_field(data + 1, size - 1, 1);
  req.edit.new_string = fuzz_field(data + 1, size - 1, 2);
  req.edit.has_old_string = req.edit.has_new_string = true;
  req.edit.replace_all = (data[0] & 4) != 0;
  ec_result *r = ec_apply(&req, NULL);
  FUZZ_CHECK(r != NULL, "ec_apply returned NULL");
  bool edit_utf8 = ec_utf8_first_invalid(req.edit.old_string) == req.edit.old_string.len &&
                   ec_utf8_first_invalid(req.edit.new_string) == req.edit.new_string.len;
  if (ec_result_status(r) != EC_STATUS_ERROR && ec_result_file_count(r) == 1) {
    const ec_file_result *out = ec_result_file(r, 0);
    ec_kept why;
    if (rc == EC_OK && ec_encoding_plain(&enc) && edit_utf8)
      FUZZ_CHECK(ec_text_keeps_bytes(bytes, out->content, &why), "a file that is not UTF-8 keeps its runs");
    if (rc == EC_OK && enc.utf16 != EC_UTF16_NONE) {
      ec_str t2, p2 = {0, 0};
      ec_encoding e2;
      FUZZ_CHECK(ec_text_decode(a, out->content, &t2, &e2, &p2) == EC_OK && e2.utf16 == enc.utf16, "a UTF-16 result is UTF-16");
    }
    size_t n = 0;
    char *json = ec_result_to_json(r, NULL, &n);
    cJSON *doc = json ? cJSON_ParseWithLength(json, n) : NULL;
    FUZZ_CHECK(doc != NULL, "the response is JSON");
    const cJSON *c = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "data"), "files"), "f"), "content");
    const cJSON *b64 = cJSON_GetObjectItem(c, "base64");
    if (cJSON_IsString(b64)) {
      char *dec = malloc(strlen(b64->valuestring) / 4 * 3 + 1);
      size_t m = dec ? ec_base64_decode(b64->valuestring, strlen(b64->valuestring), dec) : (size_t)-1;
      FUZZ_CHECK(m == out->content.len && !memcmp(dec, out->content.ptr, m), "base64 in the response is the content");
      free(dec);
    } else {
      FUZZ_CHECK(cJSON_IsString(c) && strlen(c->valuestring) == out->content.len && !memcmp(c->valuestring, out->content.ptr, out->content.len),
                 "a string in the response is the content, byte for byte");
    }
    cJSON_Delete(doc);
    ec_free(NULL, json);
  } else if (ec_result_status(r) == EC_STATUS_ERROR) {
    FUZZ_CHECK(ec_result_file_count(r) == 0, "a failed request changes no file");
  }
  ec_result_free(r);
  ec_arena_free(a);
  free(file);
  return 0;
}
