/* ec_commit_json: the write protocol's decisions over JSON (editcore_commit.h), for every host. */
#include "commit.h"
#include "../base/alloc.h"
#include "../base/sort.h"
#include "../base/str.h"
#include "../protocol/json_response.h"
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct req {
  ec_arena *a;
  ec_json_reader *r;
  const cJSON *doc;
  ec_buf *out;
  bool failed;
} req;

static void fail(req *q, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  q->out->len = 0;
  ec_buf_append_cstr(q->out, "{\"error\":{\"code\":\"INVALID_PARAM\",\"message\":");
  ec_json_write_string(q->out, ec_cstr(msg));
  ec_buf_append_cstr(q->out, "}}");
  q->failed = true;
}

static const cJSON *member(const cJSON *o, const char *k) { return cJSON_GetObjectItemCaseSensitive(o, k); }

static ec_str text_of(req *q, const cJSON *o, const char *k) {
  const cJSON *v = member(o, k);
  return cJSON_IsString(v) ? ec_json_reader_string(q->r, v->valuestring) : (ec_str){"", 0};
}

static void jkey(ec_buf *b, bool *first, const char *k) {
  if (!*first) ec_buf_append_char(b, ',');
  *first = false;
  ec_json_write_string(b, ec_cstr(k));
  ec_buf_append_char(b, ':');
}

static void jstr_or_null(ec_buf *b, ec_str s) {
  if (s.len) ec_json_write_string(b, s);
  else ec_buf_append_cstr(b, "null");
}

static void read_owner(req *q, const cJSON *o, ec_owner *w) {
  memset(w, 0, sizeof *w);
  const cJSON *pid = member(o, "pid");
  w->pid = cJSON_IsNumber(pid) && pid->valuedouble > 0 && pid->valuedouble < 9e15 ? (long long)pid->valuedouble : 0;
  w->start = text_of(q, o, "start");
  w->boot = text_of(q, o, "boot");
  w->pidns = text_of(q, o, "pidns");
  w->host = text_of(q, o, "host");
  w->kind = text_of(q, o, "kind");
}

/* A path as the protocol takes it: relative, normalised, naming a file below the root. */
static bool path_ok(ec_arena *a, ec_str p) {
  if (!p.len || p.ptr[0] == '/' || memchr(p.ptr, '\0', p.len)) return false;
  char *buf = ec_arena_alloc(a, p.len + 1);
  size_t n = 0;
  if (!buf || ec_path_normalize(p, buf, &n) != EC_OK) return false;
  return n == p.len && !memcmp(buf, p.ptr, n) && !(n == 1 && buf[0] == '.');
}

static ec_str base_of(ec_str p) {
  size_t i = p.len;
  while (i > 0 && p.ptr[i - 1] != '/') i--;
  return (ec_str){p.ptr + i, p.len - i};
}

static ec_str dir_of(ec_str p) {
  ec_str b = base_of(p);
  size_t d = (size_t)(b.ptr - p.ptr);
  return (ec_str){p.ptr, d ? d - 1 : 0};
}

static ec_str join(ec_arena *a, ec_str dir, ec_str rest) {
  if (!dir.len) return rest;
  return ec_arena_printf(a, "%.*s/%.*s", (int)dir.len, dir.ptr, (int)rest.len, rest.ptr);
}

/* Bytewise order of paths: the one global order in which every host takes its locks. */
typedef struct keyed {
  ec_str path;
  size_t index;
} keyed;
static int by_path(const void *x, const void *y) {
  ec_str a = ((const keyed *)x)->path, b = ((const keyed *)y)->path;
  size_t n = a.len < b.len ? a.len : b.len;
  int c = memcmp(a.ptr, b.ptr, n);
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

/*
 * The files of an edit in lock order, each with its names and lock record; with `root_paths`
 * the ops' paths are from the root, else from `jdir` (a journal's entries).
 */
static void write_files(req *q, const ec_commit_op *ops, const ec_str *temps, size_t n, const size_t *order, ec_str txn,
                        const ec_owner *owner, ec_str jdir, ec_str jname, bool root_paths) {
  ec_buf *b = q->out;
  ec_buf_append_cstr(b, "\"files\":[");
  for (size_t k = 0; k < n; k++) {
    size_t i = order[k];
    ec_str path = root_paths ? ops[i].path : join(q->a, jdir, ops[i].path);
    ec_str dir = dir_of(path), base = base_of(path);
    ec_str journal = {"", 0};
    if (jname.len) {
      ec_str up = ec_commit_relative_up(q->a, dir, jdir);
      journal = ec_arena_printf(q->a, "%.*s%.*s", (int)up.len, up.ptr, (int)jname.len, jname.ptr);
    }
    ec_buf rec;
    ec_buf_init(&rec, ec_arena_allocator(q->a));
    ec_commit_write_record(&rec, owner, txn, journal);
    ec_str record = ec_buf_finish(&rec, q->a);
    bool first = true;
    if (k) ec_buf_append_char(b, ',');
    ec_buf_append_char(b, '{');
    jkey(b, &first, "op"), ec_buf_printf(b, "%zu", i);
    jkey(b, &first, "path"), ec_json_write_string(b, path);
    jkey(b, &first, "dir"), ec_json_write_string(b, dir);
    jkey(b, &first, "base"), ec_json_write_string(b, base);
    jkey(b, &first, "lock"), ec_json_write_string(b, ec_commit_lock_name(q->a, base));
    /* a deletion has one too: where its old content is staged should a failed edit put it back */
    jkey(b, &first, "temp"), ec_json_write_string(b, temps[i].len ? temps[i] : ec_commit_temp_name(q->a, base, txn));
    jkey(b, &first, "record"), ec_json_write_string(b, record);
    ec_buf_append_char(b, '}');
  }
  ec_buf_append_char(b, ']');
}

static size_t *lock_order(req *q, const ec_commit_op *ops, size_t n, bool sorted) {
  size_t *order = ec_arena_calloc(q->a, n ? n : 1, sizeof *order);
  keyed *k = sorted ? ec_arena_calloc(q->a, n ? n : 1, sizeof *k) : NULL;
  if (!order || (sorted && !k)) return NULL;
  for (size_t i = 0; i < n; i++) order[i] = i;
  if (!sorted) return order;
  for (size_t i = 0; i < n; i++) k[i] = (keyed){ops[i].path, i};
  ec_sort(k, n, sizeof *k, by_path);
  for (size_t i = 0; i < n; i++) order[i] = k[i].index;
  return order;
}

/* An edit's ops, checked, in lock order, with their names: what "plan" and "journal" share. */
typedef struct plan_in {
  ec_str txn;
  ec_commit_op *ops;
  size_t n, *order;
  ec_str *temps;      /* per op (deletions too: where a failed edit stages the old content back) */
  ec_str jdir, jname; /* the journal's directory and name; empty with one op */
} plan_in;

static bool read_plan(req *q, const char *what, bool ids, plan_in *p) {
  memset(p, 0, sizeof *p);
  p->txn = text_of(q, q->doc, "txn");
  const cJSON *ops_j = member(q->doc, "ops");
  if (!ec_commit_txn_ok(p->txn)) return fail(q, "%s: `txn` must be 16 lowercase hex digits", what), false;
  if (!cJSON_IsArray(ops_j) || !cJSON_GetArraySize(ops_j)) return fail(q, "%s: `ops` must be a non-empty array", what), false;
  size_t n = p->n = (size_t)cJSON_GetArraySize(ops_j);
  p->ops = ec_arena_calloc(q->a, n, sizeof *p->ops);
  p->temps = ec_arena_calloc(q->a, n, sizeof *p->temps);
  if (!p->ops || !p->temps) return false;
  size_t i = 0;
  const cJSON *o;
  cJSON_ArrayForEach(o, ops_j) {
    ec_commit_op *op = &p->ops[i++];
    op->path = text_of(q, o, "path");
    ec_str action = text_of(q, o, "action");
    op->remove = ec_str_eq_cstr(action, "delete");
    if (!path_ok(q->a, op->path)) return fail(q, "%s: '%.*s' is not a normalised path below the root", what, (int)op->path.len, op->path.ptr), false;
    if (!op->remove && !ec_str_eq_cstr(action, "write")) return fail(q, "%s: an op's action is \"write\" or \"delete\"", what), false;
    if (!ids) continue;
    op->old_id = text_of(q, o, "old");
    op->new_id = text_of(q, o, "new");
    if ((op->old_id.len && !ec_commit_id_ok(op->old_id)) || (op->remove ? !op->old_id.len : !ec_commit_id_ok(op->new_id)))
      return fail(q, "%s: '%.*s' needs its file identities (old for a deletion, new for a write)", what, (int)op->path.len, op->path.ptr), false;
  }
  p->order = lock_order(q, p->ops, n, true);
  if (!p->order) return false;
  for (size_t k = 1; k < n; k++)
    if (ec_str_eq(p->ops[p->order[k]].path, p->ops[p->order[k - 1]].path))
      return fail(q, "%s: '%.*s' is named twice", what, (int)p->ops[p->order[k]].path.len, p->ops[p->order[k]].path.ptr), false;
  for (size_t k = 0; k < n; k++) p->temps[k] = ec_commit_temp_name(q->a, base_of(p->ops[k].path), p->txn);
  /* One operation is atomic by itself (a rename or an unlink); two or more need the journal. */
  if (n > 1) {
    p->jdir = ec_commit_common_dir(q->a, p->ops, n);
    p->jname = ec_commit_journal_name(q->a, p->txn);
  }
  return true;
}

/* {"commit":"plan", "txn", "owner", "ops"} */
static void plan(req *q) {
  plan_in p;
  if (!read_plan(q, "plan", false, &p)) return;
  ec_owner owner;
  read_owner(q, member(q->doc, "owner"), &owner);
  ec_buf *b = q->out;
  ec_buf_append_cstr(b, "{\"txn\":");
  ec_json_write_string(b, p.txn);
  ec_buf_append_char(b, ',');
  write_files(q, p.ops, p.temps, p.n, p.order, p.txn, &owner, p.jdir, p.jname, true);
  ec_buf_append_cstr(b, ",\"journal\":");
  if (p.n < 2) {
    ec_buf_append_cstr(b, "null}");
    return;
  }
  bool first = true;
  ec_buf_append_char(b, '{');
  jkey(b, &first, "dir"), ec_json_write_string(b, p.jdir);
  jkey(b, &first, "name"), ec_json_write_string(b, p.jname);
  jkey(b, &first, "path"), ec_json_write_string(b, join(q->a, p.jdir, p.jname));
  ec_buf_append_cstr(b, "}}");
}

/* {"commit":"journal", "txn", "ops" (with "old" and "new" identities)}: the journal's text. */
static void journal(req *q) {
  plan_in p;
  if (!read_plan(q, "journal", true, &p)) return;
  if (p.n < 2) return fail(q, "journal: one operation needs no journal");
  /* The entries in lock order, their paths from the journal's directory. */
  ec_commit_op *rel = ec_arena_calloc(q->a, p.n, sizeof *rel);
  ec_str *rel_temps = ec_arena_calloc(q->a, p.n, sizeof *rel_temps);
  if (!rel || !rel_temps) return;
  for (size_t k = 0; k < p.n; k++) {
    rel[k] = p.ops[p.order[k]];
    rel_temps[k] = p.temps[p.order[k]];
    if (p.jdir.len) rel[k].path = (ec_str){rel[k].path.ptr + p.jdir.len + 1, rel[k].path.len - p.jdir.len - 1};
  }
  ec_buf jt;
  ec_buf_init(&jt, ec_arena_allocator(q->a));
  ec_commit_write_journal(&jt, p.txn, rel, p.n, rel_temps);
  ec_str text = ec_buf_finish(&jt, q->a);
  ec_buf_append_cstr(q->out, "{\"text\":");
  ec_json_write_string(q->out, text);
  ec_buf_append_char(q->out, '}');
}

/* {"commit":"lock", "record", "me", "age_ms", "owner"?, "owner_start"?} */
static void lock(req *q) {
  const cJSON *rec = member(q->doc, "record"), *age = member(q->doc, "age_ms");
  if (!cJSON_IsString(rec)) return fail(q, "lock: `record` is the lock file's text");
  if (!cJSON_IsNumber(age)) return fail(q, "lock: `age_ms` is the lock's age (now minus its mtime) in milliseconds");
  ec_lock_info info;
  ec_commit_read_record(q->r, ec_json_reader_string(q->r, rec->valuestring), &info);
  ec_owner me;
  read_owner(q, member(q->doc, "me"), &me);
  ec_str state_s = text_of(q, q->doc, "owner");
  ec_owner_state state = !state_s.len ? EC_OWNER_NOT_LOOKED
                         : ec_str_eq_cstr(state_s, "alive") ? EC_OWNER_ALIVE
                         : ec_str_eq_cstr(state_s, "dead")  ? EC_OWNER_DEAD
                                                             : EC_OWNER_UNKNOWN;
  ec_str why = {"", 0};
  ec_stale s = ec_commit_lock_stale(q->a, &info, &me, state, text_of(q, q->doc, "owner_start"), age->valuedouble, &why);
  ec_buf *b = q->out;
  bool first = true;
  ec_buf_append_char(b, '{');
  jkey(b, &first, "valid"), ec_buf_append_cstr(b, info.valid ? "true" : "false");
  jkey(b, &first, "txn"), jstr_or_null(b, info.txn);
  jkey(b, &first, "pid"), ec_buf_printf(b, "%lld", info.owner.pid);
  jkey(b, &first, "kind"), jstr_or_null(b, info.owner.kind);
  jkey(b, &first, "journal"), jstr_or_null(b, info.journal);
  jkey(b, &first, "check"), ec_buf_append_cstr(b, ec_commit_pid_checkable(&info, &me) && state != EC_OWNER_UNKNOWN ? "\"pid\"" : "\"age\"");
  jkey(b, &first, "stale"), ec_buf_append_cstr(b, s == EC_STALE_YES ? "true" : s == EC_STALE_NO ? "false" : "null");
  jkey(b, &first, "why"), ec_json_write_string(b, why);
  ec_buf_append_char(b, '}');
}

/* {"commit":"recover", "journal", "journal_dir", "owner", "observed"?} */
static void recover(req *q) {
  ec_str text = text_of(q, q->doc, "journal"), jdir = text_of(q, q->doc, "journal_dir");
  if (jdir.len && !path_ok(q->a, jdir)) return fail(q, "recover: `journal_dir` is a normalised directory below the root, or \"\"");
  ec_owner owner;
  read_owner(q, member(q->doc, "owner"), &owner);
  ec_str txn = {"", 0};
  ec_commit_op *ops = NULL;
  ec_str *temps = NULL;
  size_t n = 0;
  ec_buf *b = q->out;
  bool valid = ec_commit_read_journal(q->r, text, &txn, &ops, &temps, &n);
  for (size_t i = 0; valid && i < n; i++) valid = path_ok(q->a, ops[i].path);
  if (!valid) {
    /* Not a whole journal: its writer died before its commit point, so nothing was renamed. */
    ec_buf_append_cstr(b, "{\"valid\":false}");
    return;
  }
  ec_str jname = ec_commit_journal_name(q->a, txn);
  size_t *order = lock_order(q, ops, n, false); /* a journal's entries are in lock order already */
  if (!order) return;
  ec_buf_append_cstr(b, "{\"valid\":true,\"txn\":");
  ec_json_write_string(b, txn);
  ec_buf_append_char(b, ',');
  write_files(q, ops, temps, n, order, txn, &owner, jdir, jname, false);
  const cJSON *obs = member(q->doc, "observed");
  if (!obs) { ec_buf_append_char(b, '}'); return; }
  if (!cJSON_IsArray(obs) || (size_t)cJSON_GetArraySize(obs) != n) return fail(q, "recover: `observed` has one entry per file of the journal");
  size_t done = 0, now = 0, left = 0, i = 0;
  ec_buf leaves;
  ec_buf_init(&leaves, ec_arena_allocator(q->a));
  ec_buf_append_cstr(b, ",\"actions\":[");
  const cJSON *o;
  cJSON_ArrayForEach(o, obs) {
    const cJSON *t = member(o, "target"), *tmp = member(o, "temp");
    const char *why = "";
    ec_str th = cJSON_IsString(t) ? ec_json_reader_string(q->r, t->valuestring) : (ec_str){"", 0};
    ec_str mh = cJSON_IsString(tmp) ? ec_json_reader_string(q->r, tmp->valuestring) : (ec_str){"", 0};
    ec_redo r = ec_commit_redo(&ops[i], th, cJSON_IsString(t), mh, cJSON_IsString(tmp), &why);
    ec_str path = join(q->a, jdir, ops[i].path);
    if (i) ec_buf_append_char(b, ',');
    ec_buf_append_cstr(b, "{\"path\":");
    ec_json_write_string(b, path);
    ec_buf_append_cstr(b, r == EC_REDO_RENAME ? ",\"do\":\"rename\"" : r == EC_REDO_DELETE ? ",\"do\":\"delete\"" : r == EC_REDO_NONE ? ",\"do\":\"none\"" : ",\"do\":\"leave\"");
    ec_buf_append_cstr(b, ",\"why\":");
    ec_json_write_string(b, ec_cstr(why));
    ec_buf_append_char(b, '}');
    if (r == EC_REDO_NONE) done++;
    else if (r == EC_REDO_LEAVE) {
      left++;
      ec_buf_printf(&leaves, "%s'%.*s' (%s)", left > 1 ? ", " : "", (int)path.len, path.ptr, why);
    } else now++;
    i++;
  }
  ec_buf_append_cstr(b, "],\"text\":");
  ec_str l = ec_buf_finish(&leaves, q->a);
  ec_str summary = ec_arena_printf(q->a, "finished an edit of %zu files that a killed editcore left half-done (journal %.*s): %zu already written, %zu written now%s%.*s",
                                   n, (int)join(q->a, jdir, jname).len, join(q->a, jdir, jname).ptr, done, now, left ? "; " : "", (int)l.len, l.ptr);
  ec_json_write_string(b, summary);
  ec_buf_append_char(b, '}');
}

/* {"commit":"temps", "base", "names"} */
static void temps(req *q) {
  ec_str base = text_of(q, q->doc, "base");
  const cJSON *names = member(q->doc, "names");
  if (!base.len || !cJSON_IsArray(names)) return fail(q, "temps: `base` is a file name and `names` an array of names");
  ec_buf *b = q->out;
  ec_buf_append_cstr(b, "{\"temps\":[");
  bool first = true;
  const cJSON *it;
  cJSON_ArrayForEach(it, names) {
    if (!cJSON_IsString(it)) continue;
    ec_str name = ec_json_reader_string(q->r, it->valuestring);
    if (!ec_commit_is_temp_of(name, base)) continue;
    if (!first) ec_buf_append_char(b, ',');
    first = false;
    ec_json_write_string(b, name);
  }
  ec_buf_append_cstr(b, "]}");
}

/* {"commit":"names", "base", "txn"?} */
static void names(req *q) {
  ec_str base = text_of(q, q->doc, "base"), txn = text_of(q, q->doc, "txn");
  if (!base.len || memchr(base.ptr, '/', base.len)) return fail(q, "names: `base` is a file name");
  if (txn.len && !ec_commit_txn_ok(txn)) return fail(q, "names: `txn` must be 16 lowercase hex digits");
  ec_buf *b = q->out;
  ec_buf_append_cstr(b, "{\"lock\":");
  ec_json_write_string(b, ec_commit_lock_name(q->a, base));
  ec_buf_append_cstr(b, ",\"temp\":");
  jstr_or_null(b, txn.len ? ec_commit_temp_name(q->a, base, txn) : (ec_str){"", 0});
  ec_buf_append_char(b, '}');
}

char *ec_commit_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  const ec_allocator *alc = host ? host->allocator : NULL;
  ec_arena *a = ec_arena_new(alc);
  if (!a) return NULL;
  ec_json_reader reader = {a, {0}, {0, 0}};
  ec_buf out;
  ec_buf_init(&out, alc);
  req q = {a, &reader, NULL, &out, false};
  cJSON *doc = ec_json_read(&reader, request ? request : "", request ? request_len : 0);
  q.doc = doc;
  ec_str what = doc ? text_of(&q, doc, "commit") : (ec_str){"", 0};
  if (!doc) fail(&q, "%.*s", (int)reader.message.len, reader.message.len ? reader.message.ptr : "out of memory");
  else if (ec_str_eq_cstr(what, "plan")) plan(&q);
  else if (ec_str_eq_cstr(what, "lock")) lock(&q);
  else if (ec_str_eq_cstr(what, "recover")) recover(&q);
  else if (ec_str_eq_cstr(what, "temps")) temps(&q);
  else if (ec_str_eq_cstr(what, "names")) names(&q);
  else if (ec_str_eq_cstr(what, "journal")) journal(&q);
  else fail(&q, "`commit` is \"plan\", \"journal\", \"lock\", \"recover\", \"temps\" or \"names\"");
  if (doc) cJSON_Delete(doc);
  bool oom = ec_arena_failed(a) || out.oom;
  ec_arena_free(a);
  if (oom) {
    out.len = 0;
    out.oom = false;
    ec_buf_append_cstr(&out, "{\"error\":{\"code\":\"OUT_OF_MEMORY\",\"message\":\"out of memory\"}}");
  }
  return ec_buf_take(&out, response_len);
}
