/*
 * Self-correction (editcore.h, Section - Self-correction; docs/correction.md): the two pure steps
 * around the host's model call. Both start the same way — run the failed request, take its first
 * error, find the unit that failed (unit.c) and the region of the file to show — so the region a
 * reply is checked against is the one its prompt showed, with nothing kept between the calls.
 * A correction is never trusted: it is sent through ec_apply like any edit.
 */
#include "answer.h"
#include "merge_check.h"
#include "prompts.h"
#include "unit.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../request/result.h"
#include "../text/encoding.h"
#include <string.h>

#define DEFAULT_REGION_LINES 80
#define DEFAULT_REGION_BYTES (12u << 10)

/* What both steps know once the failed request has run. */
typedef struct failure {
  ec_result *run;         /* the failed request's own result (its error, its candidates) */
  const ec_error *err;
  ec_cx_unit unit;
  ec_cx_mode mode;
  ec_str content;         /* the target file's content, LF as given */
  size_t first, last;     /* the region shown: 0-based lines [first, last) */
  size_t n_lines;
  ec_str region;          /* those lines' text */
} failure;

static ec_result *error_result(const ec_host *host, ec_error_code code, ec_str message) {
  ec_result *r = ec_result_new(host ? host->allocator : NULL);
  if (!r) return NULL;
  ec_result_add_error(r, code, "%.*s", (int)message.len, message.ptr ? message.ptr : "");
  r->status = EC_STATUS_ERROR;
  r->text = ec_arena_printf(r->arena, "%s: %.*s", ec_error_code_name(code), (int)message.len, message.ptr ? message.ptr : "");
  return r;
}

static const ec_file *file_named(const ec_request *req, ec_str path) {
  for (size_t i = 0; i < req->n_files; i++)
    if (ec_str_eq(req->files[i].path, path)) return &req->files[i];
  return NULL;
}

/* Byte offset of 0-based line `line` (content.len past the end). */
static size_t line_start(ec_str content, size_t line) {
  size_t at = 0;
  for (size_t l = 0; l < line && at < content.len; l++) {
    const char *nl = memchr(content.ptr + at, '\n', content.len - at);
    at = nl ? (size_t)(nl - content.ptr) + 1 : content.len;
  }
  return at;
}

/* The region: the whole file when it fits, else a window around the best candidate (or the
 * start of the file), grown evenly on both sides up to the line and byte limits. */
static void choose_region(failure *f, const ec_correction *c) {
  size_t max_lines = c && c->max_region_lines ? c->max_region_lines : DEFAULT_REGION_LINES;
  size_t max_bytes = c && c->max_region_bytes ? c->max_region_bytes : DEFAULT_REGION_BYTES;
  f->n_lines = ec_count_lf(f->content.ptr, f->content.len) + (f->content.len && f->content.ptr[f->content.len - 1] != '\n');
  size_t lo = 0, hi = f->n_lines;
  if (f->err->n_candidates) {
    lo = f->err->candidates[0].start_line ? f->err->candidates[0].start_line - 1 : 0;
    hi = f->err->candidates[0].end_line > lo ? f->err->candidates[0].end_line : lo + 1;
    if (hi > f->n_lines) hi = f->n_lines;
  } else if (f->n_lines > max_lines) {
    hi = 1;
  }
  /* Grown a line at a time from byte offsets kept in step (one scan to place them, then each
   * step reads only the line it adds: a large max_region_lines costs the region, not the file). */
  ec_str t = f->content;
  size_t from = line_start(t, lo), to = line_start(t, hi);
  while (hi - lo < max_lines && (lo > 0 || hi < f->n_lines)) {
    size_t before = from;
    bool grew = false;
    if (lo > 0) {
      size_t p = from - 1; /* t.ptr[from - 1] is the LF ending line lo - 1 */
      while (p > 0 && t.ptr[p - 1] != '\n') p--;
      if (to - p <= max_bytes) { from = p; lo--; grew = true; }
    }
    if (hi - lo < max_lines && hi < f->n_lines) {
      const char *nl = memchr(t.ptr + to, '\n', t.len - to);
      size_t q = nl ? (size_t)(nl - t.ptr) + 1 : t.len;
      if (q - before <= max_bytes) { to = q; hi++; grew = true; }
    }
    if (!grew) break;
  }
  f->first = lo;
  f->last = hi;
  f->region = ec_str_make(f->content.ptr + from, to - from);
}

/* An early answer of understand(): when even it could not be had (out of memory), the failed
 * run goes too, so the caller sees NULL and no run, not a half-understood failure. */
static ec_result *refuse(failure *f, ec_result *r) {
  if (!r) {
    ec_result_free(f->run);
    f->run = NULL;
  }
  return r;
}

/* Runs the failed request and gathers what a prompt and a reply check need. NULL result = OK. */
static ec_result *understand(const ec_request *failed, const ec_correction *c, const ec_host *host, ec_arena *a,
                             failure *f) {
  memset(f, 0, sizeof *f);
  ec_str message = {0, 0};
  f->run = ec_apply(failed, host);
  if (!f->run) return NULL;
  if (ec_result_status(f->run) != EC_STATUS_ERROR || !ec_result_error_count(f->run))
    return refuse(f, error_result(host, EC_INVALID_PARAM, ec_cstr("the edit applies as it is; there is nothing to correct")));
  f->err = ec_result_error(f->run, 0);
  switch (f->err->code) {
    case EC_NO_MATCH: case EC_AMBIGUOUS: case EC_COUNT_MISMATCH: case EC_NOOP: case EC_MALFORMED_EDIT: break;
    default: {
      /* a bad parameter, a missing file or a stale hash is not the model's to repair */
      ec_result *r = f->run;
      f->run = NULL;
      return r;
    }
  }
  ec_error_code rc = ec_cx_find_unit(a, failed, host, f->err, &f->unit, &message);
  if (rc) return refuse(f, error_result(host, rc, message));
  f->mode = f->unit.lazy ? EC_CX_FAST_APPLY : EC_CX_SEARCH;
  if (c && c->mode.len && !ec_cx_mode_from_name(c->mode, &f->mode))
    return refuse(f, error_result(host, EC_INVALID_PARAM, ec_cstr("mode must be one of search, old_string, new_string, fast_apply")));
  if ((f->mode == EC_CX_FAST_APPLY) != f->unit.lazy)
    return refuse(f, error_result(host, EC_INVALID_PARAM, ec_cstr("mode fast_apply is for lazy edits, and lazy edits take only fast_apply")));
  if (f->mode == EC_CX_NEW_STRING && !(c && c->corrected_old_string.len))
    return refuse(f, error_result(host, EC_INVALID_PARAM, ec_cstr("mode new_string needs corrected_old_string")));
  const ec_file *file = file_named(failed, f->unit.path);
  if (!file) return refuse(f, error_result(host, EC_INVALID_PARAM, ec_arena_printf(a, "the file '%.*s' is not in files", (int)f->unit.path.len, f->unit.path.ptr)));
  /* The text the edit saw (a UTF-16 or lone-CR file decoded, as the engine reads it). */
  ec_encoding enc;
  ec_str problem = {0, 0};
  if (ec_text_decode(a, file->content, &f->content, &enc, &problem) == EC_OUT_OF_MEMORY) return refuse(f, NULL);
  choose_region(f, c);
  return NULL;
}

/* A fence longer than any run of backticks in the text. */
static void fence(ec_buf *b, ec_str text) {
  size_t run = 0, longest = 0;
  for (size_t i = 0; i < text.len; i++) {
    run = text.ptr[i] == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  for (size_t i = 0; i < (longest < 3 ? 3 : longest + 1); i++) ec_buf_append_char(b, '`');
}

static void block(ec_buf *b, const char *title, ec_str text) {
  ec_buf_printf(b, "\n# %s\n", title);
  fence(b, text);
  ec_buf_append_char(b, '\n');
  ec_buf_append_str(b, text);
  if (!text.len || text.ptr[text.len - 1] != '\n') ec_buf_append_char(b, '\n');
  fence(b, text);
  ec_buf_append_char(b, '\n');
}

static void numbered_region(ec_buf *b, const failure *f) {
  ec_buf_printf(b, "\n# The file, lines %zu-%zu of %zu (line number | text)\n", f->first + 1, f->last, f->n_lines);
  fence(b, f->region);
  ec_buf_append_char(b, '\n');
  size_t width = 1;
  for (size_t n = f->last; n >= 10; n /= 10) width++;
  size_t at = 0;
  for (size_t l = f->first; l < f->last; l++) {
    const char *nl = memchr(f->region.ptr + at, '\n', f->region.len - at);
    size_t end = nl ? (size_t)(nl - f->region.ptr) : f->region.len;
    size_t len = end - at;
    if (len && f->region.ptr[at + len - 1] == '\r') len--;
    ec_buf_printf(b, "%*zu | %.*s\n", (int)width, l + 1, (int)len, f->region.ptr + at);
    at = end + 1;
  }
  fence(b, f->region);
  ec_buf_append_char(b, '\n');
}

static ec_str user_prompt(ec_arena *a, const ec_request *failed, const ec_correction *c, const failure *f) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_str instruction = failed->edit.instruction.len ? failed->edit.instruction : c ? c->instruction : ec_cstr("");
  if (!instruction.len) instruction = ec_cstr("(no instruction was given: infer it from the failed edit)");
  ec_buf_printf(&b, "# Intended change\n%.*s\n", (int)instruction.len, instruction.ptr);
  ec_buf_printf(&b, "\n# File\n%.*s\n", (int)f->unit.path.len, f->unit.path.ptr);
  switch (f->mode) {
    case EC_CX_SEARCH:
      block(&b, "Failed search text", f->unit.search);
      block(&b, "Intended replacement text", f->unit.replace);
      break;
    case EC_CX_OLD_STRING: block(&b, "Failed search text", f->unit.search); break;
    case EC_CX_NEW_STRING:
      block(&b, "Original search text", f->unit.search);
      block(&b, "Corrected search text", c->corrected_old_string);
      block(&b, "Original replacement text", f->unit.replace);
      break;
    case EC_CX_FAST_APPLY: block(&b, "Snippet", f->unit.replace); break;
    default: break;
  }
  ec_buf_printf(&b, "\n# Error\n%s: %.*s\n", ec_error_code_name(f->err->code), (int)f->err->message.len, f->err->message.ptr);
  if (f->err->n_candidates && f->mode != EC_CX_NEW_STRING) {
    ec_buf_append_cstr(&b, "\n# Nearest places in the file\n");
    for (size_t i = 0; i < f->err->n_candidates; i++) {
      const ec_candidate *k = &f->err->candidates[i];
      unsigned pct = (unsigned)(k->similarity * 100 + 0.5);
      ec_buf_printf(&b, "- lines %u-%u (%u%% similar)\n", k->start_line, k->end_line, pct);
    }
  }
  if (f->mode != EC_CX_NEW_STRING) numbered_region(&b, f);
  if (f->mode == EC_CX_FAST_APPLY)
    ec_buf_printf(&b, "\nAnswer with `merged`: lines %zu-%zu as they must read after the change.\n", f->first + 1, f->last);
  return ec_buf_finish(&b, a);
}

ec_result *ec_correction_prompt(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  ec_arena *a = ec_arena_new(host ? host->allocator : NULL);
  if (!a) return NULL;
  failure f;
  ec_result *r = understand(failed, c, host, a, &f);
  if (!r && f.run) {
    r = ec_result_new(host ? host->allocator : NULL);
    if (r) {
      const ec_cx_texts *t = ec_cx_texts_for(f.mode);
      ec_str user = user_prompt(a, failed, c, &f);
      r->prompt_system = ec_arena_strdup(r->arena, t->system, strlen(t->system));
      r->prompt_schema = ec_arena_strdup(r->arena, t->schema, strlen(t->schema));
      r->prompt_user = user.ptr ? ec_arena_strdup(r->arena, user.ptr, user.len) : user;
      r->has_prompt = true;
      if (!r->prompt_system.ptr || !r->prompt_schema.ptr || !r->prompt_user.ptr) {
        ec_result_free(r);
        r = error_result(host, EC_OUT_OF_MEMORY, ec_cstr("out of memory building the correction prompt"));
      } else {
        r->status = EC_STATUS_SUCCESS;
        r->text = ec_arena_printf(r->arena, "Correction prompt for '%.*s' (%s, lines %zu-%zu shown).", (int)f.unit.path.len,
                                  f.unit.path.ptr, ec_error_code_name(f.err->code), f.first + 1, f.last);
      }
    }
  }
  ec_result_free(f.run);
  ec_arena_free(a);
  return r;
}

/* Section - checking a reply */

static void fence_for(ec_buf *b, ec_str a, ec_str b2) {
  ec_buf t;
  ec_buf_init(&t, NULL);
  ec_buf_append_str(&t, a);
  ec_buf_append_str(&t, b2);
  fence(b, ec_str_make(t.ptr ? t.ptr : "", t.len));
  ec_buf_free(&t);
}

/* Every pair again, the repaired one replaced, as SEARCH/REPLACE blocks with their file names. */
static ec_str blocks_text(ec_arena *a, const ec_cx_unit *u, ec_str search, ec_str replace) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < u->n_pairs; i++) {
    ec_str s = i == u->failing ? search : u->pairs[i].search, r = i == u->failing ? replace : u->pairs[i].replace;
    ec_buf_append_line(&b, u->pairs[i].path);
    fence_for(&b, s, r);
    ec_buf_append_cstr(&b, "\n<<<<<<< SEARCH\n");
    ec_buf_append_str(&b, s);
    if (s.len && s.ptr[s.len - 1] != '\n') ec_buf_append_char(&b, '\n');
    ec_buf_append_cstr(&b, "=======\n");
    ec_buf_append_str(&b, r);
    if (r.len && r.ptr[r.len - 1] != '\n') ec_buf_append_char(&b, '\n');
    ec_buf_append_cstr(&b, ">>>>>>> REPLACE\n");
    fence_for(&b, s, r);
    ec_buf_append_char(&b, '\n');
  }
  return ec_buf_finish(&b, a);
}

/* The corrected edit, sent through ec_apply like any edit. */
static ec_result *rerun(const ec_request *failed, const failure *f, ec_str search, ec_str replace, const ec_host *host,
                        ec_arena *a) {
  ec_request req = *failed;
  if (f->unit.n_pairs) {
    /* blocks and hunks go back as SEARCH/REPLACE blocks, all or nothing, under editcore's parser
     * (it reads the file name on the line before each block); the other blocks are sent as they were */
    ec_request_init(&req, EC_FORMAT_SEARCH_REPLACE);
    req.files = failed->files;
    req.n_files = failed->n_files;
    req.options = failed->options;
    req.edit.text = blocks_text(a, &f->unit, search, replace);
    if (!req.edit.text.ptr) return NULL;
    return ec_apply(&req, host);
  }
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = failed->files;
  req.n_files = failed->n_files;
  req.options = failed->options;
  req.profile = ec_supports(EC_FORMAT_REPLACE, failed->profile) ? failed->profile : EC_PROFILE_EDITCORE;
  req.edit.path = f->unit.path;
  req.edit.old_string = search;
  req.edit.new_string = replace;
  req.edit.has_old_string = req.edit.has_new_string = true;
  if (failed->format == EC_FORMAT_REPLACE) {
    req.edit.expected_replacements = failed->edit.expected_replacements;
    req.edit.replace_all = failed->edit.replace_all;
  }
  return ec_apply(&req, host);
}

/* The corrected unit's matches are the model's work: strategy llm, confidence kept. */
static void mark_llm(ec_result *r, const failure *f, ec_str explanation) {
  size_t k = 0; /* which match of the file the repaired pair is */
  for (size_t i = 0; i < f->unit.failing && f->unit.n_pairs; i++) k += ec_str_eq(f->unit.pairs[i].path, f->unit.path);
  for (size_t i = 0; i < r->n_files; i++) {
    ec_file_result *file = &r->files[i];
    if (!ec_str_eq(file->path, f->unit.path)) continue;
    ec_match_info *m = (ec_match_info *)file->matches; /* the result's own array */
    if (f->unit.n_pairs) { if (k < file->n_matches) m[k].strategy = EC_STRATEGY_LLM; }
    else for (size_t j = 0; j < file->n_matches; j++) m[j].strategy = EC_STRATEGY_LLM;
  }
  if (explanation.len) r->explanation = ec_arena_strdup(r->arena, explanation.ptr, explanation.len);
  ec_result_summarise(r, false); /* the summary names the strategy: llm now */
}

static bool holds(ec_str content, ec_str text) {
  if (!text.len) return false;
  /* the file may be CRLF where the model wrote LF: compare line by line, CR dropped */
  for (size_t at = 0; at < content.len;) {
    size_t i = at, j = 0;
    while (i < content.len && j < text.len) {
      if (content.ptr[i] == '\r' && i + 1 < content.len && content.ptr[i + 1] == '\n' && text.ptr[j] == '\n') i++;
      if (content.ptr[i] != text.ptr[j]) break;
      i++;
      j++;
    }
    if (j == text.len) return true;
    const char *nl = memchr(content.ptr + at, '\n', content.len - at);
    if (!nl) break;
    at = (size_t)(nl - content.ptr) + 1;
  }
  return false;
}

static ec_result *apply_answer(const ec_request *failed, const ec_correction *c, const ec_host *host, ec_arena *a,
                               failure *f, const ec_cx_answer *ans) {
  if (f->mode == EC_CX_FAST_APPLY) {
    if (!ans->has_merged) return error_result(host, EC_INVALID_REPLY, ec_cstr("the answer has no 'merged' text"));
    if (!ans->merged.len)
      return error_result(host, EC_NO_MATCH, ec_arena_printf(a, "the model could not place the snippet: %.*s",
                                                             (int)ans->explanation.len, ans->explanation.ptr));
    ec_str merged = ans->merged;
    bool region_lf = f->region.len && f->region.ptr[f->region.len - 1] == '\n';
    if (region_lf && merged.ptr[merged.len - 1] != '\n') {
      merged = ec_arena_printf(a, "%.*s\n", (int)merged.len, merged.ptr);
      if (!merged.ptr) return NULL;
    }
    switch (ec_cx_check_merge(a, f->region, f->unit.replace, merged)) {
      case EC_CX_MERGE_OK: break;
      case EC_CX_MERGE_OOM: return error_result(host, EC_OUT_OF_MEMORY, ec_cstr("out of memory checking the merge"));
      case EC_CX_MERGE_HAS_MARKER:
        return error_result(host, EC_INVALID_REPLY, ec_cstr("the merged region still holds a marker line; nothing was changed"));
      case EC_CX_MERGE_TOO_HARD:
        return error_result(host, EC_INVALID_REPLY, ec_cstr("the merged region could not be checked against the snippet in bounded time; nothing was changed"));
      default:
        return error_result(host, EC_INVALID_REPLY,
                            ec_cstr("the merged region is not a merge of the snippet: every snippet line must appear in order and each "
                                    "marker must stand for an unchanged, contiguous run of the region's lines (a line the snippet keeps "
                                    "behind a marker was dropped, or text was added that the snippet does not hold); nothing was changed"));
    }
    ec_request req;
    ec_request_init(&req, EC_FORMAT_REPLACE);
    req.files = failed->files;
    req.n_files = failed->n_files;
    req.options = failed->options;
    req.edit.path = f->unit.path;
    req.edit.old_string = f->region;
    req.edit.new_string = merged;
    req.edit.has_old_string = req.edit.has_new_string = true;
    static const ec_strategy EXACT[] = {EC_STRATEGY_EXACT};
    req.options.strategies = EXACT;
    req.options.n_strategies = 1;
    ec_result *r = ec_apply(&req, host);
    if (r && ec_result_status(r) != EC_STATUS_ERROR) mark_llm(r, f, ans->explanation);
    return r;
  }
  ec_str search = f->mode == EC_CX_NEW_STRING ? c->corrected_old_string : ans->search;
  ec_str replace = f->mode == EC_CX_SEARCH || f->mode == EC_CX_NEW_STRING ? ans->replace : f->unit.replace;
  if (f->mode != EC_CX_NEW_STRING && !ans->has_search)
    return error_result(host, EC_INVALID_REPLY, ec_cstr("the answer has no 'search' text"));
  if ((f->mode == EC_CX_SEARCH || f->mode == EC_CX_NEW_STRING) && !ans->has_replace)
    return error_result(host, EC_INVALID_REPLY, ec_cstr("the answer has no 'replace' text"));
  if (ans->no_changes_required) {
    ec_str intended = replace.len ? replace : f->unit.replace;
    if (holds(f->content, intended)) {
      ec_result *r = error_result(host, EC_NOOP, ec_arena_printf(a, "the change is already in '%.*s' (the model: %.*s)",
                                                                  (int)f->unit.path.len, f->unit.path.ptr,
                                                                  (int)ans->explanation.len, ans->explanation.ptr));
      if (r && ans->explanation.len) r->explanation = ec_arena_strdup(r->arena, ans->explanation.ptr, ans->explanation.len);
      return r;
    }
    return error_result(host, EC_INVALID_REPLY, ec_arena_printf(a, "the model says no change is needed, but '%.*s' does not hold "
                                                                   "the intended text; nothing was changed",
                                                                (int)f->unit.path.len, f->unit.path.ptr));
  }
  if (!search.len)
    return error_result(host, EC_NO_MATCH, ec_arena_printf(a, "the model found no place for the change in '%.*s': %.*s",
                                                           (int)f->unit.path.len, f->unit.path.ptr,
                                                           (int)ans->explanation.len, ans->explanation.ptr));
  ec_result *r = rerun(failed, f, search, replace, host, a);
  if (r && ec_result_status(r) != EC_STATUS_ERROR) mark_llm(r, f, ans->explanation);
  return r;
}

ec_result *ec_correction_apply(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  ec_arena *a = ec_arena_new(host ? host->allocator : NULL);
  if (!a) return NULL;
  failure f;
  ec_result *r = understand(failed, c, host, a, &f);
  if (!r && f.run) {
    ec_cx_answer ans;
    ec_str message = {0, 0};
    ec_error_code rc = ec_cx_parse_answer(a, c ? c->reply : ec_cstr(""), &ans, &message);
    r = rc ? error_result(host, rc, message) : apply_answer(failed, c, host, a, &f, &ans);
  }
  ec_result_free(f.run);
  ec_arena_free(a);
  return r;
}
