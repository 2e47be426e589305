/* Output: the JSON envelope (--json) or text for people (diffs on stdout, the rest on stderr). */
#include "cli.h"
#include "sys.h"
#include <stdlib.h>
#include <string.h>

#define RED "\033[31m"
#define GREEN "\033[32m"
#define CYAN "\033[36m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/* Under WASI a runtime may call any stdout a terminal (jco's shim does), so auto means no colour
 * there: the same bytes from every build unless --color=always is asked for. */
bool eh_color_on(const eh_opts *o) {
#ifdef __wasi__
  return o->color > 0;
#else
  return o->color > 0 || (o->color < 0 && eh_stdout_is_tty());
#endif
}

void eh_print_diff(const char *text, size_t len, const eh_opts *o) {
  if (!eh_color_on(o)) { fwrite(text, 1, len, stdout); return; }
  size_t i = 0;
  bool in_header = true; /* "---"/"+++" lines are headers only before a hunk starts */
  while (i < len) {
    const char *nl = memchr(text + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - text) : len;
    const char *line = text + i;
    size_t n = e - i;
    const char *c = NULL;
    if (n >= 4 && (!memcmp(line, "--- ", 4) || !memcmp(line, "+++ ", 4)) && in_header) c = BOLD;
    else if (n >= 2 && !memcmp(line, "@@", 2)) { c = CYAN; in_header = false; }
    else if (n && line[0] == '-') c = RED;
    else if (n && line[0] == '+') c = GREEN;
    if (n >= 4 && !memcmp(line, "--- ", 4) && !in_header && i + n < len && !memcmp(text + e + 1, "+++ ", 4)) {
      in_header = true; /* the next file of a multi-file diff */
      c = BOLD;
    }
    if (c) fputs(c, stdout);
    fwrite(line, 1, n, stdout);
    if (c) fputs(RESET, stdout);
    if (nl) fputc('\n', stdout);
    i = nl ? e + 1 : len;
  }
}

static bool write_stdout(void *user, const char *bytes, size_t n) {
  (void)user;
  return fwrite(bytes, 1, n, stdout) == n;
}

/* Streamed: a response can be ~3 x a 60 MB file (content and undo), and held whole it would be
 * the largest thing in memory. */
bool eh_print_json(const ec_result *r) {
  if (!ec_result_write_json(r, NULL, write_stdout, NULL)) {
    fputs("editcore: out of memory or could not write the response\n", stderr);
    return false;
  }
  fputc('\n', stdout);
  return true;
}

/* One error for people: code, message, and the nearest text the engine found. */
static void print_error(const ec_error *e) {
  fprintf(stderr, "editcore: %s", ec_error_code_name(e->code));
  if (e->path.len) fprintf(stderr, " in %.*s", (int)e->path.len, e->path.ptr);
  if (e->block) fprintf(stderr, " (block %d)", (int)e->block);
  fprintf(stderr, ": %.*s\n", (int)e->message.len, e->message.ptr);
  for (size_t i = 0; i < e->n_candidates; i++) {
    const ec_candidate *c = &e->candidates[i];
    fprintf(stderr, "  candidate %zu: lines %u-%u, similarity %.2f\n", i + 1, c->start_line, c->end_line, c->similarity);
    size_t j = 0;
    while (j < c->text.len) {
      const char *nl = memchr(c->text.ptr + j, '\n', c->text.len - j);
      size_t e2 = nl ? (size_t)(nl - c->text.ptr) : c->text.len;
      fprintf(stderr, "    | %.*s\n", (int)(e2 - j), c->text.ptr + j);
      j = e2 + 1;
    }
  }
}

int eh_report(ec_result *r, const eh_opts *o) {
  ec_status st = ec_result_status(r);
  int code = st == EC_STATUS_ERROR ? EH_EXIT_NOT_APPLIED : EH_EXIT_OK;
  if (st == EC_STATUS_ERROR && ec_result_error_count(r)) {
    ec_error_code c = ec_result_error(r, 0)->code;
    if (c == EC_IO_ERROR || c == EC_OUT_OF_MEMORY) code = EH_EXIT_USAGE_IO;
  }
  if (o->json) {
    eh_print_json(r);
  } else {
    if (st != EC_STATUS_ERROR && !o->quiet)
      for (size_t i = 0; i < ec_result_file_count(r); i++) {
        const ec_file_result *f = ec_result_file(r, i);
        eh_print_diff(f->diff.ptr, f->diff.len, o);
      }
    if (st == EC_STATUS_ERROR || !o->quiet) {
      for (size_t i = 0; i < ec_result_error_count(r); i++) print_error(ec_result_error(r, i));
    }
    if (st != EC_STATUS_ERROR && !o->quiet) {
      ec_str t = ec_result_text(r);
      fprintf(stderr, "%.*s%s\n", (int)t.len, t.ptr, o->dry_run ? " (dry run: nothing written)" : "");
    }
  }
  if (fflush(stdout) != 0) return EH_EXIT_USAGE_IO;
  return code;
}

int eh_report_err(const eh_err *err, const eh_opts *o) {
  if (o->json) {
    const char *m = err->message;
    ec_result *r = ec_result_new_error(err->code, (ec_str){err->path, strlen(err->path)}, (ec_str){m, strlen(m)}, NULL);
    if (r) {
      eh_print_json(r);
      ec_result_free(r);
    }
  } else {
    fprintf(stderr, "editcore: %s: %s\n", ec_error_code_name(err->code), err->message);
  }
  fflush(stdout);
  return err->exit ? err->exit : EH_EXIT_USAGE_IO;
}
