/*
 * The Emscripten build's exports, called by js/. Bytes in, bytes out: the JS side copies the
 * request's UTF-8 into wasm memory, gets the response pointer and length, and frees it.
 * The host lends the core a clock (performance.now() through emscripten_get_now), so
 * stats.time_ms is measured by the core itself, as on the native and WASI builds.
 */
#include "editcore.h"
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>

static double clock_ms(void *user) {
  (void)user;
  return emscripten_get_now();
}

static const ec_host HOST = {NULL, clock_ms, NULL, NULL};

/* A pointer and a length the package wrote as two u32. */
static ec_str ec_str_make_u32(const uint32_t *pl) {
  ec_str s = {(const char *)(uintptr_t)pl[0], pl[1]};
  return s;
}

/* The ceilings this module's host (the npm package: setCeilings) set; zero members = the build's. */
static ec_limits ceilings;

EMSCRIPTEN_KEEPALIVE char *editcore_run(const char *request, size_t len, size_t *response_len) {
  ec_host host = HOST;
  host.ceilings = &ceilings;
  return ec_run_json(request, len, &host, response_len);
}

EMSCRIPTEN_KEEPALIVE void editcore_free(char *response) { ec_free(&HOST, response); }

EMSCRIPTEN_KEEPALIVE const char *editcore_version(void) { return ec_version(); }

/* The npm package's setCeilings: clear, then set each one given. */
EMSCRIPTEN_KEEPALIVE void editcore_clear_ceilings(void) {
  ec_limits none = {0};
  ceilings = none;
}

/* Sets one ceiling; 1 when the name and value (a positive integer) were taken. */
EMSCRIPTEN_KEEPALIVE int editcore_set_ceiling(const char *name, double value) {
  if (!(value >= 1 && value <= 9007199254740992.0) || value != (double)(uint64_t)value) return 0;
  return ec_limits_set(&ceilings, name, (uint64_t)value) ? 1 : 0;
}

/*
 * The npm package's object path (js/src/fast.js): the request's JSON without file contents and
 * the files beside it, as `n` rows of four u32 in wasm memory (path pointer, path length,
 * content pointer, content length) that the package wrote, so a file's bytes enter wasm memory
 * once and never pass through JSON; long edit strings likewise, `n_edit` rows of three u32
 * (the member, as its place in EDIT_MEMBERS, value pointer, value length) for members the JSON
 * carries as "".
 * The answer is the result itself (NULL: out of memory); the package reads its JSON in the
 * splices form (editcore_result_json) and each splice's new bytes (editcore_result_splice_text;
 * an added file's whole content: editcore_result_content), then frees it (editcore_result_free).
 * Everything is ec_apply_json's, but contents may be left unbuilt (EC_FILES_CONTENT_AS_SPLICES:
 * the package builds them) and `how` adds ways of ec_apply_json_files_as: EC_FILES_SYNTAX_ON_DEMAND
 * when the request names no options.syntax (the typed API's default, on demand; docs/syntax.md),
 * EC_FILES_UNDO_ON_READ (the package builds a file's undo when it is read: editcore_diff_undo),
 * EC_FILES_BESIDE_IN_PLACE (the edit strings are NUL-terminated and the package frees them after the result).
 */
EMSCRIPTEN_KEEPALIVE ec_result *editcore_run_files(const char *request, size_t len, const uint32_t *rows, size_t n,
                                                   const uint32_t *edit_rows, size_t n_edit, unsigned how) {
  ec_host host = HOST;
  host.ceilings = &ceilings;
  ec_file *files = n ? malloc(n * sizeof *files) : NULL;
  ec_json_member *edit = n_edit ? malloc(n_edit * sizeof *edit) : NULL;
  if ((n && !files) || (n_edit && !edit)) {
    free(files);
    free(edit);
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    files[i].path = ec_str_make_u32(rows + 4 * i);
    files[i].content = ec_str_make_u32(rows + 4 * i + 2);
  }
  for (size_t i = 0; i < n_edit; i++) {
    /* The package's BESIDE_MEMBERS (js/src/fast.js), in its order; another number names none (refused). */
    static const char *const EDIT_MEMBERS[] = {"old_string", "new_string", "content", "text", "snippet", "new_str"};
    uint32_t which = edit_rows[3 * i];
    const char *name = which < sizeof EDIT_MEMBERS / sizeof *EDIT_MEMBERS ? EDIT_MEMBERS[which] : "";
    edit[i].name.ptr = name;
    edit[i].name.len = strlen(name);
    edit[i].value = ec_str_make_u32(edit_rows + 3 * i + 1);
  }
  /* The package builds each content from the string it gave and the splices' new bytes
   * (editcore_result_splice_text): the engine leaves them unbuilt where it can. */
  ec_json_beside beside = {files, n, edit, n_edit, EC_FILES_CONTENT_AS_SPLICES | how};
  ec_result *r = ec_apply_json_beside(request, len, &beside, &host);
  free(files);
  free(edit);
  return r;
}

/* The result's JSON in the splices form (ec_result_to_json_splices); its length in *len. Free it
 * with editcore_free. NULL: out of memory. */
EMSCRIPTEN_KEEPALIVE char *editcore_result_json(const ec_result *r, size_t *len) {
  return ec_result_to_json_splices(r, &HOST, len);
}

/* Where the i-th file result's content lies in wasm memory: its pointer (returned; NULL when
 * it was left unbuilt) and length. */
EMSCRIPTEN_KEEPALIVE const char *editcore_result_content(const ec_result *r, size_t i, size_t *len) {
  const ec_file_result *f = ec_result_file(r, i);
  *len = f ? f->content.len : 0;
  return f ? f->content.ptr : NULL;
}

/* The new bytes of the i-th file result's k-th splice: pointer (returned) and length. */
EMSCRIPTEN_KEEPALIVE const char *editcore_result_splice_text(const ec_result *r, size_t i, size_t k, size_t *len) {
  ec_str t = ec_result_splice_text(r, i, k);
  *len = t.len;
  return t.ptr;
}

EMSCRIPTEN_KEEPALIVE void editcore_result_free(ec_result *r) { ec_result_free(r); }

/* Section - values built when the package's caller reads them (js/src/fast.js: onDemand) */

/* The undo of a file result's whole diff (`len` bytes at `diff`), built when the caller reads
 * `undo` (ec_diff_undo: the bytes the engine would have built); its length in *undo_len. Free
 * with editcore_free. NULL: not such a diff, or out of memory. */
EMSCRIPTEN_KEEPALIVE char *editcore_diff_undo(const char *diff, size_t len, size_t *undo_len) {
  return ec_diff_undo(diff, len, &HOST, undo_len);
}
