#include "json_response.h"
#include "../request/result.h"
#include <string.h>

static void key(ec_buf *b, bool *first, const char *k) {
  if (!*first) ec_buf_append_char(b, ',');
  *first = false;
  ec_buf_append_char(b, '"');
  ec_buf_append_cstr(b, k);
  ec_buf_append_cstr(b, "\":");
}

/* `prefix` (a separator and a key, ",\"k\":"), then v. The response's numbers are written by
 * hand, not by printf: a call's response has a dozen of them, and formatting each through printf
 * cost more than the rest of the JSON (issue 28, the 10 KB rows); the digits are the same. */
static void num_member(ec_buf *b, const char *k, unsigned long long v) {
  ec_buf_append_cstr(b, k);
  ec_buf_append_uint(b, v);
}

/* Ratios in thousandths, so every libc prints the same digits: "1.0", "0.95", "0.333". */
static void ratio(ec_buf *b, double v) {
  if (!(v >= 0)) v = 0;
  unsigned long long m = (unsigned long long)(v * 1000.0 + 0.5);
  ec_buf_append_uint(b, m / 1000);
  unsigned f = (unsigned)(m % 1000);
  char frac[4] = {'.', (char)('0' + f / 100), (char)('0' + f / 10 % 10), (char)('0' + f % 10)};
  size_t n = 4;
  while (n > 2 && frac[n - 1] == '0') n--;
  ec_buf_append(b, frac, n);
}

static void write_error(ec_buf *b, const ec_error *e) {
  bool first = true;
  ec_buf_append_char(b, '{');
  key(b, &first, "code");
  ec_json_write_string(b, (ec_str){ec_error_code_name(e->code), strlen(ec_error_code_name(e->code))});
  key(b, &first, "message");
  ec_json_write_string(b, e->message);
  if (e->path.len) { key(b, &first, "path"); ec_json_write_string(b, e->path); }
  if (e->block > 0) { key(b, &first, "block"); ec_buf_append_uint(b, (unsigned long long)e->block); }
  if (e->line > 0) { key(b, &first, "line"); ec_buf_append_uint(b, e->line); }
  if (e->n_candidates) {
    key(b, &first, "candidates");
    ec_buf_append_char(b, '[');
    for (size_t i = 0; i < e->n_candidates; i++) {
      const ec_candidate *c = &e->candidates[i];
      num_member(b, i ? ",{\"start_line\":" : "{\"start_line\":", c->start_line);
      num_member(b, ",\"end_line\":", c->end_line);
      ec_buf_append_cstr(b, ",\"similarity\":");
      ratio(b, c->similarity);
      ec_buf_append_cstr(b, ",\"text\":");
      ec_json_write_bytes(b, c->text);
      ec_buf_append_char(b, '}');
    }
    ec_buf_append_char(b, ']');
  }
  ec_buf_append_char(b, '}');
}

/* `splices`: the splices form (ec_result_to_json_splices) — the file's position among the
 * result's files first ("index"), the content left out, its splices in its place ("splices":
 * [old_start, old_end, new_start, new_end, ...] flat), and whether it has content ("has_content"). */
static void write_file(ec_buf *b, const ec_file_result *f, size_t index, bool splices) {
  bool first = true;
  ec_buf_append_char(b, '{');
  if (splices) { key(b, &first, "index"); ec_buf_append_uint(b, index); }
  key(b, &first, "action");
  ec_buf_append_char(b, '"');
  ec_buf_append_cstr(b, ec_action_name(f->action));
  ec_buf_append_char(b, '"');
  if (f->action == EC_ACTION_MOVE) { key(b, &first, "moved_to"); ec_json_write_string(b, f->moved_to); }
  if (splices) {
    key(b, &first, "has_content");
    ec_buf_append_cstr(b, f->has_content ? "true" : "false");
    key(b, &first, "splices");
    ec_buf_append_char(b, '[');
    for (size_t i = 0; i < f->n_splices; i++) {
      const ec_file_splice *s = &f->splices[i];
      num_member(b, i ? "," : "", s->old_start);
      num_member(b, ",", s->old_end);
      num_member(b, ",", s->new_start);
      num_member(b, ",", s->new_end);
    }
    ec_buf_append_char(b, ']');
  } else if (f->has_content) {
    key(b, &first, "content");
    if (f->content.ptr) ec_json_write_bytes(b, f->content);
    else ec_buf_append_cstr(b, "null"); /* not built (options.content_as_splices): the host builds it */
  }
  key(b, &first, "diff");
  ec_json_write_bytes(b, f->diff);
  key(b, &first, "diff_truncated");
  ec_buf_append_cstr(b, f->diff_truncated ? "true" : "false");
  key(b, &first, "undo");
  ec_json_write_bytes(b, f->undo);
  num_member(b, ",\"lines_added\":", f->lines_added);
  num_member(b, ",\"lines_removed\":", f->lines_removed);
  num_member(b, ",\"replacements\":", f->replacements);
  key(b, &first, "matches");
  ec_buf_append_char(b, '[');
  for (size_t i = 0; i < f->n_matches; i++) {
    const ec_match_info *m = &f->matches[i];
    num_member(b, i ? ",{\"start_line\":" : "{\"start_line\":", m->start_line);
    num_member(b, ",\"end_line\":", m->end_line);
    ec_buf_append_cstr(b, ",\"strategy\":\"");
    ec_buf_append_cstr(b, ec_strategy_name(m->strategy));
    ec_buf_append_cstr(b, "\",\"confidence\":");
    ratio(b, m->confidence);
    ec_buf_append_char(b, '}');
  }
  ec_buf_append_char(b, ']');
  if (f->syntax) {
    key(b, &first, "syntax");
    ec_json_write_syntax(b, f->syntax);
  }
  ec_buf_append_char(b, '}');
}

/* `open` (ending in '['), the strings of s[0, n) as JSON strings, and ']'. */
static void strings(ec_buf *b, const char *open, const ec_str *s, size_t n) {
  ec_buf_append_cstr(b, open);
  for (size_t i = 0; i < n; i++) {
    if (i) ec_buf_append_char(b, ',');
    ec_json_write_string(b, s[i]);
  }
  ec_buf_append_char(b, ']');
}

/* Format reply, parse_only: data.edits (one object per edit found) and data.paths. */
static void write_reply(ec_buf *b, const ec_result *r) {
  ec_buf_append_cstr(b, ",\"edits\":[");
  for (size_t i = 0; i < r->n_edits; i++) {
    const ec_reply_edit *e = &r->edits[i];
    ec_buf_append_cstr(b, i ? ",{\"dialect\":\"" : "{\"dialect\":\"");
    ec_buf_append_cstr(b, ec_format_name(e->dialect));
    ec_buf_append_cstr(b, "\",\"path\":");
    ec_json_write_string(b, e->path);
    num_member(b, ",\"line\":", e->line);
    ec_buf_append_cstr(b, ",\"action\":\"");
    ec_buf_append_cstr(b, ec_action_name(e->action));
    ec_buf_append_char(b, '"');
    if (e->action == EC_ACTION_MOVE) { ec_buf_append_cstr(b, ",\"moved_to\":"); ec_json_write_string(b, e->moved_to); }
    if (e->dialect == EC_FORMAT_SEARCH_REPLACE) {
      ec_buf_append_cstr(b, ",\"search\":");
      ec_json_write_string(b, e->search);
      ec_buf_append_cstr(b, ",\"replace\":");
      ec_json_write_string(b, e->replace);
    } else {
      ec_buf_append_cstr(b, e->dialect == EC_FORMAT_WHOLE_FILE ? ",\"content\":" : ",\"text\":");
      ec_json_write_string(b, e->text);
    }
    ec_buf_append_char(b, '}');
  }
  strings(b, "],\"paths\":[", r->paths, r->n_paths);
}

void ec_json_write_result(ec_buf *b, const ec_result *r) { ec_json_write_result_as(b, r, false); }

void ec_json_write_result_as(ec_buf *b, const ec_result *r, bool splices) {
  static const char *const STATUS[] = {"success", "partial", "error"};
  ec_buf_append_cstr(b, "{\"status\":\"");
  ec_buf_append_cstr(b, STATUS[r->status]);
  ec_buf_append_cstr(b, "\",\"data\":{\"applied\":");
  ec_buf_append_cstr(b, r->applied ? "true" : "false");
  ec_buf_append_cstr(b, ",\"files\":{");
  for (size_t i = 0; i < r->n_files; i++) {
    if (i) ec_buf_append_char(b, ',');
    ec_json_write_string(b, r->files[i].path);
    ec_buf_append_char(b, ':');
    write_file(b, &r->files[i], i, splices);
  }
  ec_buf_append_char(b, '}');
  if (r->has_blocks) {
    ec_buf_append_cstr(b, ",\"blocks\":[");
    for (size_t i = 0; i < r->n_blocks; i++) {
      ec_buf_append_cstr(b, i ? ",{\"path\":" : "{\"path\":");
      ec_json_write_string(b, r->blocks[i].path);
      ec_buf_append_cstr(b, ",\"search\":");
      ec_json_write_string(b, r->blocks[i].search);
      ec_buf_append_cstr(b, ",\"replace\":");
      ec_json_write_string(b, r->blocks[i].replace);
      ec_buf_append_char(b, '}');
    }
    ec_buf_append_char(b, ']');
  }
  if (r->has_reply) write_reply(b, r);
  if (r->n_notes && r->status != EC_STATUS_ERROR) {
    strings(b, ",\"notes\":[", r->notes, r->n_notes);
  }
  if (r->has_prompt) {
    /* the schema is JSON text the core wrote itself: emitted as an object, not a string */
    ec_buf_append_cstr(b, ",\"prompt\":{\"system\":");
    ec_json_write_string(b, r->prompt_system);
    ec_buf_append_cstr(b, ",\"user\":");
    ec_json_write_string(b, r->prompt_user);
    ec_buf_append_cstr(b, ",\"schema\":");
    ec_buf_append_str(b, r->prompt_schema);
    ec_buf_append_char(b, '}');
  }
  if (r->explanation.len) {
    ec_buf_append_cstr(b, ",\"explanation\":");
    ec_json_write_string(b, r->explanation);
  }
  ec_buf_append_cstr(b, "},\"text\":");
  ec_json_write_string(b, r->text);
  /* time_ms stays printf's: its digits are %.3f's, rounding included */
  ec_buf_printf(b, ",\"stats\":{\"time_ms\":%.3f", r->stats.time_ms);
  num_member(b, ",\"bytes_in\":", r->stats.bytes_in);
  num_member(b, ",\"bytes_out\":", r->stats.bytes_out);
  num_member(b, ",\"lines_added\":", r->stats.lines_added);
  num_member(b, ",\"lines_removed\":", r->stats.lines_removed);
  ec_buf_append_char(b, '}');
  if (r->n_errors) {
    ec_buf_append_cstr(b, ",\"error\":");
    write_error(b, &r->errors[0]);
  }
  if (r->n_errors > 1) {
    ec_buf_append_cstr(b, ",\"errors\":[");
    for (size_t i = 0; i < r->n_errors; i++) {
      if (i) ec_buf_append_char(b, ',');
      write_error(b, &r->errors[i]);
    }
    ec_buf_append_char(b, ']');
  }
  ec_buf_append_char(b, '}');
}
