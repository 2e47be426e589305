/* The write protocol's names, lock records, staleness rule and journal (commit.h). */
#include "commit.h"
#include "../base/str.h"
#include "../protocol/json_response.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#define BASE_KEEP 200 /* ".<200 bytes>.editcore-<16 hex>.tmp" stays under NAME_MAX (255) */
#define TAG ".editcore-"
#define LOCK_SUFFIX ".editcore.lock"
#define TMP_SUFFIX ".tmp"

/* Section - names */

size_t ec_commit_base_keep(ec_str base) {
  if (base.len <= BASE_KEEP) return base.len;
  size_t n = BASE_KEEP;
  /* never cut a UTF-8 sequence: back off over continuation bytes to the start of the character */
  while (n > 0 && ((unsigned char)base.ptr[n] & 0xC0) == 0x80) n--;
  return n;
}

ec_str ec_commit_lock_name(ec_arena *a, ec_str base) {
  return ec_arena_printf(a, ".%.*s" LOCK_SUFFIX, (int)ec_commit_base_keep(base), base.ptr);
}

size_t ec_commit_lock_name_of(const char *base, size_t base_len, char *out, size_t cap) {
  size_t keep = ec_commit_base_keep((ec_str){base, base_len}), need = 1 + keep + strlen(LOCK_SUFFIX);
  if (cap <= need) return 0;
  out[0] = '.';
  memcpy(out + 1, base, keep);
  memcpy(out + 1 + keep, LOCK_SUFFIX, strlen(LOCK_SUFFIX) + 1);
  return need;
}

ec_str ec_commit_temp_name(ec_arena *a, ec_str base, ec_str txn) {
  return ec_arena_printf(a, ".%.*s" TAG "%.*s" TMP_SUFFIX, (int)ec_commit_base_keep(base), base.ptr, (int)txn.len, txn.ptr);
}

ec_str ec_commit_journal_name(ec_arena *a, ec_str txn) { return ec_arena_printf(a, TAG "%.*s.journal", (int)txn.len, txn.ptr); }

static bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool ec_commit_txn_ok(ec_str txn) {
  if (txn.len != 16) return false;
  for (size_t i = 0; i < txn.len; i++)
    if (!is_hex(txn.ptr[i])) return false;
  return true;
}

bool ec_commit_is_temp_of(ec_str name, ec_str base) {
  size_t keep = ec_commit_base_keep(base), tl = strlen(TAG), sl = strlen(TMP_SUFFIX);
  if (name.len < 1 + keep + tl + 1 + sl || name.ptr[0] != '.') return false;
  if (memcmp(name.ptr + 1, base.ptr, keep) || memcmp(name.ptr + 1 + keep, TAG, tl)) return false;
  if (memcmp(name.ptr + name.len - sl, TMP_SUFFIX, sl)) return false;
  /* the id between: hex (this protocol's 16, the C host's older 8) or <pid>-<hex> (the Node host's older form) */
  size_t from = 1 + keep + tl, to = name.len - sl, dashes = 0;
  for (size_t i = from; i < to; i++) {
    if (name.ptr[i] == '-') { if (i == from || ++dashes > 1) return false; }
    else if (!is_hex(name.ptr[i])) return false;
  }
  return name.ptr[to - 1] != '-';
}

/* Section - lock records */

static void key(ec_buf *b, const char *k) {
  ec_buf_append_char(b, ',');
  ec_json_write_string(b, ec_cstr(k));
  ec_buf_append_char(b, ':');
}

void ec_commit_write_record(ec_buf *b, const ec_owner *o, ec_str txn, ec_str journal) {
  ec_buf_append_cstr(b, "{\"editcore_lock\":1");
  key(b, "txn"), ec_json_write_string(b, txn);
  key(b, "pid"), ec_buf_printf(b, "%lld", o->pid > 0 ? o->pid : 0);
  key(b, "start"), ec_json_write_string(b, o->start);
  key(b, "boot"), ec_json_write_string(b, o->boot);
  key(b, "pidns"), ec_json_write_string(b, o->pidns);
  key(b, "host"), ec_json_write_string(b, o->host);
  key(b, "kind"), ec_json_write_string(b, o->kind);
  key(b, "journal");
  if (journal.len) ec_json_write_string(b, journal);
  else ec_buf_append_cstr(b, "null");
  ec_buf_append_cstr(b, "}\n");
}

static ec_str str_of(ec_json_reader *r, const cJSON *obj, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, k);
  return cJSON_IsString(v) ? ec_json_reader_string(r, v->valuestring) : (ec_str){"", 0};
}

void ec_commit_read_record(ec_json_reader *r, ec_str text, ec_lock_info *out) {
  memset(out, 0, sizeof *out);
  /* A whole record ends with "}\n": anything else is a writer caught between its create and its write. */
  if (text.len < 3 || text.ptr[text.len - 1] != '\n') return;
  cJSON *doc = ec_json_read(r, text.ptr, text.len - 1);
  if (!doc) return;
  const cJSON *tag = cJSON_GetObjectItemCaseSensitive(doc, "editcore_lock");
  const cJSON *pid = cJSON_GetObjectItemCaseSensitive(doc, "pid");
  if (cJSON_IsNumber(tag) && tag->valuedouble == 1 && cJSON_IsNumber(pid)) {
    out->txn = str_of(r, doc, "txn");
    out->owner.pid = pid->valuedouble > 0 && pid->valuedouble < 9e15 ? (long long)pid->valuedouble : 0;
    out->owner.start = str_of(r, doc, "start");
    out->owner.boot = str_of(r, doc, "boot");
    out->owner.pidns = str_of(r, doc, "pidns");
    out->owner.host = str_of(r, doc, "host");
    out->owner.kind = str_of(r, doc, "kind");
    out->journal = str_of(r, doc, "journal");
    out->valid = ec_commit_txn_ok(out->txn);
  }
  cJSON_Delete(doc);
}

bool ec_commit_pid_checkable(const ec_lock_info *lock, const ec_owner *me) {
  return lock->valid && lock->owner.pid > 0 && lock->owner.boot.len && me->boot.len && ec_str_eq(lock->owner.boot, me->boot) &&
         ec_str_eq(lock->owner.pidns, me->pidns) && ec_str_eq(lock->owner.host, me->host);
}

ec_stale ec_commit_lock_stale(ec_arena *a, const ec_lock_info *lock, const ec_owner *me, ec_owner_state state, ec_str owner_start,
                              double age_ms, ec_str *why) {
  if (ec_commit_pid_checkable(lock, me) && state != EC_OWNER_UNKNOWN) {
    long long pid = lock->owner.pid;
    if (state == EC_OWNER_NOT_LOOKED) { *why = ec_arena_printf(a, "held by pid %lld: look whether it runs", pid); return EC_STALE_LOOK; }
    if (state == EC_OWNER_DEAD) { *why = ec_arena_printf(a, "its owner (pid %lld) is no longer running", pid); return EC_STALE_YES; }
    if (lock->owner.start.len && owner_start.len && !ec_str_eq(lock->owner.start, owner_start)) {
      *why = ec_arena_printf(a, "its owner (pid %lld) is gone: that pid now belongs to a process started later", pid);
      return EC_STALE_YES;
    }
    *why = ec_arena_printf(a, "held by a running editcore (pid %lld)", pid);
    return EC_STALE_NO;
  }
  /* The owner cannot be checked from here: its heartbeat (the lock's mtime) decides. */
  const char *who = !lock->valid ? "an unfinished or foreign lock record" : lock->owner.kind.len ? "an editcore" : "an owner";
  if (age_ms > EC_LOCK_STALE_MS) {
    *why = ec_arena_printf(a, "%s%s%.*s%s whose lock went %.0f s without a heartbeat (the limit is %d s)", who,
                           lock->valid && lock->owner.kind.len ? " (" : "", (int)(lock->valid ? lock->owner.kind.len : 0),
                           lock->owner.kind.ptr ? lock->owner.kind.ptr : "", lock->valid && lock->owner.kind.len ? ")" : "",
                           age_ms / 1000.0, EC_LOCK_STALE_MS / 1000);
    return EC_STALE_YES;
  }
  *why = ec_arena_printf(a, "held by %s this process cannot check; its heartbeat is %.1f s old", who, age_ms < 0 ? 0.0 : age_ms / 1000.0);
  return EC_STALE_NO;
}

/* Section - plans and journals */

static ec_str dir_part(ec_str p) {
  size_t i = p.len;
  while (i > 0 && p.ptr[i - 1] != '/') i--;
  return (ec_str){p.ptr, i ? i - 1 : 0};
}

ec_str ec_commit_common_dir(ec_arena *a, const ec_commit_op *ops, size_t n) {
  if (!n) return (ec_str){"", 0};
  ec_str common = dir_part(ops[0].path);
  for (size_t i = 1; i < n && common.len; i++) {
    ec_str d = dir_part(ops[i].path);
    size_t k = 0, last = 0;
    while (k < common.len && k < d.len && common.ptr[k] == d.ptr[k]) {
      k++;
      if (common.ptr[k - 1] == '/') last = k - 1;
    }
    /* the shared part ends at a whole component: "src/ab" and "src/ac" share "src" */
    bool whole = (k == common.len || common.ptr[k] == '/') && (k == d.len || d.ptr[k] == '/');
    common.len = whole ? k : last;
  }
  return ec_arena_strdup(a, common.ptr, common.len);
}

ec_str ec_commit_relative_up(ec_arena *a, ec_str from, ec_str target) {
  /* `target` is an ancestor of (or equal to) `from`: climb one ".." per component below it. */
  size_t below = from.len > target.len ? from.len - target.len : 0;
  size_t ups = 0;
  if (below) {
    ups = 1;
    for (size_t i = target.len + (target.len ? 1 : 0); i < from.len; i++) ups += from.ptr[i] == '/';
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < ups; i++) ec_buf_append_cstr(&b, "../");
  return ec_buf_finish(&b, a);
}

void ec_commit_write_journal(ec_buf *b, ec_str txn, const ec_commit_op *ops, size_t n, const ec_str *temps) {
  ec_buf_append_cstr(b, "{\"editcore_journal\":1");
  key(b, "txn"), ec_json_write_string(b, txn);
  key(b, "entries");
  ec_buf_append_char(b, '[');
  for (size_t i = 0; i < n; i++) {
    if (i) ec_buf_append_char(b, ',');
    ec_buf_append_cstr(b, "{\"path\":");
    ec_json_write_string(b, ops[i].path);
    key(b, "action"), ec_buf_append_cstr(b, ops[i].remove ? "\"delete\"" : "\"write\"");
    key(b, "old");
    if (ops[i].old_id.len) ec_json_write_string(b, ops[i].old_id);
    else ec_buf_append_cstr(b, "null");
    if (!ops[i].remove) {
      key(b, "new"), ec_json_write_string(b, ops[i].new_id);
      key(b, "temp"), ec_json_write_string(b, temps[i]);
    }
    ec_buf_append_char(b, '}');
  }
  ec_buf_append_cstr(b, "]}\n");
}

bool ec_commit_id_ok(ec_str id) {
  /* Exactly "ino:size:sec.nnnnnnnnn" (sec may be negative). The earlier "dev:ino:size:mtime" form
   * is refused, not translated: only builds of the unreleased h/durable branch wrote it. */
  size_t i = 0, fields = 0;
  for (; fields < 2; fields++) {
    size_t start = i;
    while (i < id.len && id.ptr[i] >= '0' && id.ptr[i] <= '9') i++;
    if (i == start || i - start > 20 || i >= id.len || id.ptr[i++] != ':') return false;
  }
  if (i < id.len && id.ptr[i] == '-') i++;
  size_t start = i;
  while (i < id.len && id.ptr[i] >= '0' && id.ptr[i] <= '9') i++;
  if (i == start || i - start > 20 || i >= id.len || id.ptr[i++] != '.') return false;
  start = i;
  while (i < id.len && id.ptr[i] >= '0' && id.ptr[i] <= '9') i++;
  return i - start == 9 && i == id.len;
}

bool ec_commit_read_journal(ec_json_reader *r, ec_str text, ec_str *txn, ec_commit_op **ops_out, ec_str **temps_out, size_t *n_out) {
  *n_out = 0;
  if (text.len < 3 || text.ptr[text.len - 1] != '\n') return false; /* written whole, newline last */
  cJSON *doc = ec_json_read(r, text.ptr, text.len - 1);
  if (!doc) return false;
  const cJSON *tag = cJSON_GetObjectItemCaseSensitive(doc, "editcore_journal");
  const cJSON *entries = cJSON_GetObjectItemCaseSensitive(doc, "entries");
  *txn = str_of(r, doc, "txn");
  bool ok = cJSON_IsNumber(tag) && tag->valuedouble == 1 && cJSON_IsArray(entries) && ec_commit_txn_ok(*txn);
  size_t n = ok ? (size_t)cJSON_GetArraySize(entries) : 0;
  ec_commit_op *ops = n ? ec_arena_calloc(r->a, n, sizeof *ops) : NULL;
  ec_str *temps = n ? ec_arena_calloc(r->a, n, sizeof *temps) : NULL;
  if (n && (!ops || !temps)) ok = false;
  size_t i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, entries) {
    if (!ok) break;
    ec_commit_op *o = &ops[i];
    o->path = str_of(r, e, "path");
    ec_str action = str_of(r, e, "action");
    o->remove = ec_str_eq_cstr(action, "delete");
    o->old_id = str_of(r, e, "old");
    o->new_id = str_of(r, e, "new");
    temps[i] = str_of(r, e, "temp");
    ok = o->path.len && (o->remove || ec_str_eq_cstr(action, "write")) && (!o->old_id.len || ec_commit_id_ok(o->old_id)) &&
         (o->remove ? o->old_id.len > 0 : ec_commit_id_ok(o->new_id) && temps[i].len > 0 && !memchr(temps[i].ptr, '/', temps[i].len));
    i++;
  }
  cJSON_Delete(doc);
  if (!ok) return false;
  *ops_out = ops;
  *temps_out = temps;
  *n_out = n;
  return true;
}

ec_redo ec_commit_redo(const ec_commit_op *op, ec_str target_id, bool target_exists, ec_str temp_id, bool temp_exists,
                       const char **why) {
  bool is_old = op->old_id.len ? target_exists && ec_str_eq(target_id, op->old_id) : !target_exists;
  if (op->remove) {
    if (!target_exists) { *why = "already deleted"; return EC_REDO_NONE; }
    if (is_old) { *why = "deleted now"; return EC_REDO_DELETE; }
    *why = "not deleted: it changed after the edit was made";
    return EC_REDO_LEAVE;
  }
  if (target_exists && ec_str_eq(target_id, op->new_id)) { *why = "already written"; return EC_REDO_NONE; }
  if (is_old && temp_exists && ec_str_eq(temp_id, op->new_id)) { *why = "written now"; return EC_REDO_RENAME; }
  *why = is_old ? "left old: its staged new content is gone" : "left as it is: it changed after the edit was made";
  return EC_REDO_LEAVE;
}
