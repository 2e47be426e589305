/*
 * `editcore tool NAME [--root DIR] [--dry-run] [--state FILE]`: one agent tool call (SPEC §8,
 * docs/tools.md). The arguments (JSON) on stdin, the tool's result (JSON) on stdout. The core
 * decides everything (ec_tool_json, phase by phase); this file only does what the phases ask:
 * resolve each path inside the root, read it, write atomically (host/txn.c), report.
 * --state FILE keeps the opaque history (undo_edit) between calls: read before, replaced after
 * (a temporary beside it, fsynced, renamed over it: a killed run leaves the old history or the new).
 * Exit status: 0 success or partial, 1 an error result, 2 usage or I/O.
 */
#include "cli.h"
#include "sys.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Replaces the --state file whole: a temporary beside it, written and fsynced, then renamed. */
static bool save_state(const char *path, const char *text) {
  char hex[9];
  eh_random_hex(hex, 8);
  hex[8] = '\0';
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) return false;
  snprintf(tmp, n, "%s.editcore-%s.tmp", path, hex);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
  bool ok = fd >= 0;
  for (size_t left = strlen(text); ok && left;) {
    ssize_t w = write(fd, text, left);
    if (w < 0 && errno == EINTR) continue;
    ok = w > 0;
    if (ok) { text += w; left -= (size_t)w; }
  }
  if (ok && fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP) ok = false;
  if (fd >= 0 && close(fd) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  int e = errno;
  if (!ok && fd >= 0) unlink(tmp);
  free(tmp);
  errno = e;
  return ok;
}

typedef struct seen {
  char *name;       /* the path as the plan named it */
  eh_path p;
  bool resolved;
  char *data;
  size_t len;
  eh_stamp stamp;
  bool read;
} seen;

typedef struct tool_run {
  const eh_opts *o;
  eh_root root;
  const char *root_abs;
  char *args, *state;
  seen *seen;
  size_t n_seen;
} tool_run;

/* The path relative to the root: absolute paths under it lose the prefix (MCP tools plan those). */
static const char *relative(const tool_run *t, const char *name) {
  size_t n = strlen(t->root_abs);
  if (name[0] == '/' && !strncmp(name, t->root_abs, n) && (name[n] == '/' || !name[n])) return name[n] ? name + n + 1 : ".";
  return name;
}

/* One phase through the core: the request's common part, then `extra` (",\"phase\":...,..."). */
static cJSON *phase(tool_run *t, const char *name, const char *extra) {
  cJSON *base = cJSON_CreateObject();
  cJSON_AddStringToObject(base, "tool", name);
  char *head = cJSON_PrintUnformatted(base);
  cJSON_Delete(base);
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "root", t->root_abs);
  cJSON *roots = cJSON_AddArrayToObject(r, "roots");
  cJSON_AddItemToArray(roots, cJSON_CreateString(t->root_abs));
  cJSON_AddBoolToObject(r, "dry_run", t->o->dry_run);
  char *tail = cJSON_PrintUnformatted(r);
  cJSON_Delete(r);
  if (!head || !tail) { free(head); free(tail); return NULL; }
  /* {"tool":NAME, "args":ARGS, "state":STATE, "root":..., "roots":[...], "dry_run":..., EXTRA} */
  size_t hl = strlen(head), tl = strlen(tail);
  size_t cap = hl + strlen(t->args) + (t->state ? strlen(t->state) : 0) + tl + strlen(extra) + 64;
  char *req = malloc(cap);
  if (!req) { free(head); free(tail); return NULL; }
  int n = snprintf(req, cap, "%.*s,\"args\":%s%s%s,%.*s%s}", (int)hl - 1, head, t->args, t->state ? ",\"state\":" : "",
                   t->state ? t->state : "", (int)tl - 2, tail + 1, extra);
  free(head);
  free(tail);
  size_t out_len = 0;
  char *out = n > 0 ? ec_tool_json(req, (size_t)n, eh_core_host(), &out_len) : NULL;
  free(req);
  if (!out) return NULL;
  cJSON *doc = cJSON_ParseWithLength(out, out_len);
  ec_free(NULL, out);
  return doc;
}

static seen *find_seen(tool_run *t, const char *name) {
  for (size_t i = 0; i < t->n_seen; i++)
    if (!strcmp(t->seen[i].name, name)) return &t->seen[i];
  return NULL;
}

/* The permission bits and the times a tool may show (MCP get_file_info), each with this host's UTC
 * offset and zone then (this platform's stat has no birth time: that one is not reported). */
static void add_stat_details(cJSON *o, const struct stat *st) {
  cJSON_AddNumberToObject(o, "mode", (double)st->st_mode);
  cJSON *times = cJSON_AddObjectToObject(o, "times");
  const struct timespec *ts[2] = {&st->st_mtim, &st->st_atim};
  static const char *const NAMES[2] = {"mtime", "atime"};
  for (int k = 0; times && k < 2; k++) {
    struct tm tm;
    time_t sec = ts[k]->tv_sec;
    cJSON *t = cJSON_AddObjectToObject(times, NAMES[k]);
    if (!t || !localtime_r(&sec, &tm)) continue;
    cJSON_AddNumberToObject(t, "ms", floor((double)ts[k]->tv_sec * 1000.0 + (double)ts[k]->tv_nsec / 1e6));
    cJSON_AddNumberToObject(t, "offset_min", (double)(tm.tm_gmtoff / 60));
    cJSON_AddStringToObject(t, "zone", tm.tm_zone ? tm.tm_zone : "");
  }
}

/* What is at one planned path, as the phase protocol's observation. */
static cJSON *observe(tool_run *t, const char *name, bool want_content) {
  seen *s = &t->seen[t->n_seen++];
  memset(s, 0, sizeof *s);
  s->name = strdup(name);
  cJSON *o = cJSON_CreateObject();
  const char *rel = relative(t, name);
  eh_err err = {0};
  if (eh_resolve(&t->root, rel, strlen(rel), &s->p, &err) != EC_OK) {
    cJSON_AddStringToObject(o, "error", err.code == EC_ACCESS_DENIED ? "ACCESS_DENIED" : "IO_ERROR");
    cJSON_AddStringToObject(o, "message", err.message);
    return o;
  }
  s->resolved = true;
  if (!s->p.exists) { cJSON_AddStringToObject(o, "kind", "missing"); return o; }
  char *real = eh_join(t->root_abs, s->p.real);
  if (real) cJSON_AddStringToObject(o, "real_path", real);
  free(real);
  add_stat_details(o, &s->p.st);
  if (S_ISDIR(s->p.st.st_mode)) { cJSON_AddStringToObject(o, "kind", "directory"); return o; }
  cJSON_AddStringToObject(o, "kind", "file");
  cJSON_AddNumberToObject(o, "size", (double)s->p.st.st_size);
  cJSON_AddNumberToObject(o, "mtime_ms", floor((double)s->p.st.st_mtim.tv_sec * 1000.0 + (double)s->p.st.st_mtim.tv_nsec / 1e6));
  eh_stamp_of(&s->p.st, &s->stamp);
  if (!want_content) return o;
  ec_error_code rc = eh_read_file(&s->p, eh_input_limit(), &s->data, &s->len, &s->stamp, &err);
  char *bytes = rc ? NULL : ec_json_bytes(s->data, s->len, NULL, NULL); /* a string, or {"base64": ...} */
  if (rc || !bytes) {
    cJSON_DeleteItemFromObject(o, "kind");
    cJSON_AddStringToObject(o, "error", rc == EC_ACCESS_DENIED ? "PERMISSION_DENIED" : "IO_ERROR");
    cJSON_AddStringToObject(o, "message", rc ? err.message : "out of memory");
  } else {
    s->read = true;
    cJSON_AddRawToObject(o, "content", bytes);
  }
  ec_free(NULL, bytes);
  return o;
}

/* A write's content as bytes: the protocol's string (its own text) or {"base64": ...} (decoded
 * into *owned, which the caller frees after the commit). NULL: neither. */
static const char *write_bytes(const cJSON *content, size_t *n, char **owned) {
  *owned = NULL;
  if (cJSON_IsString(content)) { *n = strlen(content->valuestring); return content->valuestring; }
  const char *b64 = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(content, "base64"));
  size_t len = b64 ? strlen(b64) : 0;
  char *out = b64 ? malloc(len / 4 * 3 + 1) : NULL;
  if (out && (*n = ec_base64_decode(b64, len, out)) == (size_t)-1) { free(out); out = NULL; }
  return *owned = out;
}

/* Does the writes; answers the outcomes array (all ok, or each failed with the reason). */
static cJSON *do_writes(tool_run *t, const cJSON *writes) {
  eh_txn *txn = eh_txn_new();
  eh_path extra[64];
  size_t n_extra = 0, n_owned = 0;
  char **owned = calloc((size_t)cJSON_GetArraySize(writes) + 1, sizeof *owned); /* decoded bytes, alive until the commit */
  eh_err err = {0};
  ec_error_code rc = txn && owned ? EC_OK : EC_OUT_OF_MEMORY;
  const cJSON *w;
  cJSON_ArrayForEach(w, writes) {
    if (rc) break;
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "path"));
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(w, "content");
    bool remove = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "delete"));
    seen *s = name ? find_seen(t, name) : NULL;
    eh_path *p = s && s->resolved ? &s->p : NULL;
    if (!p && name && n_extra < 64) {
      const char *rel = relative(t, name);
      if (eh_resolve(&t->root, rel, strlen(rel), &extra[n_extra], &err) == EC_OK) p = &extra[n_extra++];
      else { rc = err.code; break; }
    }
    if (!p) { rc = eh_fail(&err, EC_IO_ERROR, EH_EXIT_USAGE_IO, name, "cannot place the write"); break; }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "mkdir")) || cJSON_GetObjectItemCaseSensitive(w, "move_from")) {
      rc = eh_fail(&err, EC_IO_ERROR, EH_EXIT_USAGE_IO, name, "editcore tool does not create directories or move files yet: run this "
                   "tool through editcore-mcp or runTool (the npm package)");
      break;
    }
    if (s && s->resolved && s->p.exists && !s->read && S_ISREG(s->p.st.st_mode)) {
      /* planned without its content (create, undo_edit): read it now, for the unchanged check and a roll-back */
      if (eh_read_file(&s->p, eh_input_limit(), &s->data, &s->len, &s->stamp, &err) == EC_OK) s->read = true;
      else { rc = err.code; break; }
    }
    bool had = s && s->read;
    /* create_dirs: the commit creates a new file's missing directories, beneath the root */
    size_t n = 0;
    const char *bytes = remove ? NULL : write_bytes(content, &n, &owned[n_owned]);
    if (owned[n_owned]) n_owned++;
    if (!remove && !bytes) { rc = eh_fail(&err, EC_IO_ERROR, EH_EXIT_USAGE_IO, name, "the write's content is not a string or base64"); break; }
    bool ok = remove ? eh_txn_delete(txn, p, had ? &s->stamp : NULL, had ? s->data : NULL, had ? s->len : 0)
                     : eh_txn_write(txn, p, bytes, n, had ? &s->stamp : NULL, had ? s->data : NULL, had ? s->len : 0);
    if (!ok) rc = eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, name, "out of memory");
  }
  if (!rc) rc = eh_txn_commit(txn, &err);
  eh_txn_free(txn);
  for (size_t i = 0; i < n_owned; i++) free(owned[i]);
  free(owned);
  for (size_t i = 0; i < n_extra; i++) eh_path_free(&extra[i]);
  cJSON *outcomes = cJSON_CreateArray();
  cJSON_ArrayForEach(w, writes) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(w, "path")));
    if (!rc) cJSON_AddBoolToObject(o, "ok", true);
    else {
      cJSON_AddStringToObject(o, "error", rc == EC_ACCESS_DENIED ? "PERMISSION_DENIED" : "IO_ERROR");
      cJSON_AddStringToObject(o, "message", err.message);
    }
    cJSON_AddItemToArray(outcomes, o);
  }
  return outcomes;
}

static char *print_member(const cJSON *doc, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, key);
  return v ? cJSON_PrintUnformatted(v) : NULL;
}

/* Runs the phases to the end; prints the result. */
static int drive(tool_run *t, const char *name) {
  cJSON *doc = phase(t, name, ",\"phase\":\"plan\"");
  char *obs_text = NULL;
  for (int step = 0; doc; step++) {
    const char *ph = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "phase"));
    if (!ph || !strcmp(ph, "error") || step > 2) {
      const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, "error");
      fprintf(stderr, "editcore tool: %s\n", e ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message")) : "bad phase");
      cJSON_Delete(doc);
      free(obs_text);
      return 2;
    }
    if (!strcmp(ph, "done")) {
      char *result = print_member(doc, "result"), *state = print_member(doc, "state");
      const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "status"));
      if (result) printf("%s\n", result);
      int rc = status && !strcmp(status, "error") ? 1 : 0;
      if (state && t->o->state_file && !save_state(t->o->state_file, state)) { /* --state FILE */
        fprintf(stderr, "editcore tool: could not save the history to '%s' (%s); the next undo_edit will not know this call\n",
                t->o->state_file, strerror(errno));
        rc = 2;
      }
      free(result);
      free(state);
      cJSON_Delete(doc);
      free(obs_text);
      return fflush(stdout) == 0 ? rc : 2;
    }
    cJSON *next = NULL;
    if (!strcmp(ph, "read")) {
      const cJSON *reads = cJSON_GetObjectItemCaseSensitive(doc, "reads");
      /* room for this phase's paths after any an earlier read phase saw (kept: writes use them) */
      seen *grown = realloc(t->seen, (t->n_seen + (size_t)cJSON_GetArraySize(reads) + 1) * sizeof *grown);
      if (!grown) { cJSON_Delete(doc); break; }
      t->seen = grown;
      cJSON *obs = cJSON_CreateObject();
      const cJSON *r;
      cJSON_ArrayForEach(r, reads) {
        const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "path"));
        if (!p || !t->seen) continue;
        /* Listing a directory (the MCP directory tools) is not done by this host yet: said plainly,
         * never answered as an empty listing. A read of `bytes` is any read here: observe() sends
         * every file's bytes as they are. */
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "list"))) {
          cJSON *o = cJSON_CreateObject();
          cJSON_AddStringToObject(o, "error", "IO_ERROR");
          cJSON_AddStringToObject(o, "message", "editcore tool does not list directories yet: run this tool through "
                                                "editcore-mcp or runTool (the npm package)");
          cJSON_AddItemToObject(obs, p, o);
          continue;
        }
        cJSON_AddItemToObject(obs, p, observe(t, p, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "content"))));
      }
      char *o = cJSON_PrintUnformatted(obs);
      cJSON_Delete(obs);
      size_t olen = o ? strlen(o) : 0;
      free(obs_text); /* a second read phase replaces the first one's text */
      obs_text = malloc(olen + 64);
      if (o && obs_text) {
        snprintf(obs_text, olen + 64, ",\"phase\":\"run\",\"observed\":%s", o);
        next = phase(t, name, obs_text);
      }
      free(o);
    } else if (!strcmp(ph, "write")) {
      cJSON *outcomes = do_writes(t, cJSON_GetObjectItemCaseSensitive(doc, "writes"));
      char *pend = print_member(doc, "pending"), *outs = cJSON_PrintUnformatted(outcomes);
      cJSON_Delete(outcomes);
      size_t cap = (pend ? strlen(pend) : 0) + (outs ? strlen(outs) : 0) + 64;
      char *extra = malloc(cap);
      if (extra && pend && outs) {
        snprintf(extra, cap, ",\"phase\":\"finish\",\"pending\":%s,\"outcomes\":%s", pend, outs);
        next = phase(t, name, extra);
      }
      free(extra);
      free(pend);
      free(outs);
    }
    cJSON_Delete(doc);
    doc = next;
  }
  free(obs_text);
  fputs("editcore tool: out of memory\n", stderr);
  return 2;
}

int eh_cmd_tool(const eh_opts *o) {
  if (o->n_pos != 1) {
    fputs("usage: editcore tool NAME [--root DIR] [--dry-run] [--state FILE] < args.json\n", stderr);
    return 2;
  }
  tool_run t;
  memset(&t, 0, sizeof t);
  t.o = o;
  size_t len = 0;
  t.args = eh_read_stream(stdin, &len);
  if (!t.args) { fputs("editcore tool: could not read the arguments from stdin\n", stderr); return 2; }
  cJSON *check = cJSON_ParseWithLength(t.args, len);
  bool object = cJSON_IsObject(check);
  cJSON_Delete(check);
  if (!object) { fputs("editcore tool: the arguments must be one JSON object\n", stderr); free(t.args); return 2; }
  if (o->state_file) { /* --state FILE: the history the last call left, if any */
    FILE *f = fopen(o->state_file, "rb");
    if (f) { size_t n; t.state = eh_read_stream(f, &n); fclose(f); }
  }
  eh_err err = {0};
  if (eh_root_open(&t.root, o->root, &err) != EC_OK) {
    free(t.args);
    free(t.state);
    eh_opts jo = *o;
    jo.json = false;
    return eh_report_err(&err, &jo);
  }
  t.root_abs = t.root.abs ? t.root.abs : t.root.dir;
  int rc = drive(&t, o->pos[0]);
  for (size_t i = 0; i < t.n_seen; i++) {
    free(t.seen[i].name);
    free(t.seen[i].data);
    if (t.seen[i].resolved) eh_path_free(&t.seen[i].p);
  }
  free(t.seen);
  free(t.args);
  free(t.state);
  eh_root_close(&t.root);
  return rc;
}
