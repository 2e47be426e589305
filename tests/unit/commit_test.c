/*
 * The write protocol's decisions (editcore_commit.h) through ec_run_json, as every host asks
 * them: the plan (lock order, names, lock records, the journal), when a lock is stale, how a
 * killed edit's journal is finished, which names are temporaries.
 */
#include "test_util.h"
#include "editcore.h"
#include "editcore_commit.h"
#include <stdlib.h>

static char *ask(const char *req) {
  size_t n = 0;
  char *out = ec_run_json(req, strlen(req), NULL, &n);
  return out;
}

static int has(const char *hay, const char *needle) { return hay && strstr(hay, needle) != NULL; }

#define H_OLD "131:6:1700000000.000000001"
#define H_NEW "177:9:1700000005.250000000"
#define H_ELSE "131:7:1700000009.000000000"
#define OWNER "{\"pid\":42,\"start\":\"777\",\"boot\":\"b-1\",\"pidns\":\"pid:[9]\",\"host\":\"h\",\"kind\":\"native\"}"

int main(void) {
  /* A plan of three ops: lock order is bytewise over the paths; the journal sits in their
   * deepest common directory, and each lock record names it from the lock's own directory. */
  char *r = ask("{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"owner\":" OWNER ",\"ops\":["
                "{\"path\":\"src/pkg/z.py\",\"action\":\"write\",\"old\":\"" H_OLD "\",\"new\":\"" H_NEW "\"},"
                "{\"path\":\"src/a.py\",\"action\":\"delete\",\"old\":\"" H_OLD "\"},"
                "{\"path\":\"src/new.txt\",\"action\":\"write\",\"old\":null,\"new\":\"" H_NEW "\"}]}");
  CHECK_MSG(has(r, "\"files\":[{\"op\":1,\"path\":\"src/a.py\"") && has(r, "{\"op\":2,\"path\":\"src/new.txt\"") &&
                strstr(r, "\"op\":2") < strstr(r, "\"op\":0"), "%s", r);
  CHECK_MSG(has(r, "\"lock\":\".z.py.editcore.lock\",\"temp\":\".z.py.editcore-0123456789abcdef.tmp\""), "%s", r);
  CHECK_MSG(has(r, "\"base\":\"a.py\",\"lock\":\".a.py.editcore.lock\",\"temp\":\".a.py.editcore-0123456789abcdef.tmp\""), "%s", r);
  CHECK_MSG(has(r, "\"journal\":{\"dir\":\"src\",\"name\":\".editcore-0123456789abcdef.journal\",\"path\":\"src/.editcore-0123456789abcdef.journal\"}"), "%s", r);
  CHECK_MSG(has(r, "\\\"journal\\\":\\\"../.editcore-0123456789abcdef.journal\\\"") &&
                has(r, "\\\"journal\\\":\\\".editcore-0123456789abcdef.journal\\\""), "records name the journal from their directory: %s", r);
  ec_free(NULL, r);
  /* The journal itself, once the identities are known: in lock order, paths from its directory. */
  r = ask("{\"commit\":\"journal\",\"txn\":\"0123456789abcdef\",\"ops\":["
          "{\"path\":\"src/pkg/z.py\",\"action\":\"write\",\"old\":\"" H_OLD "\",\"new\":\"" H_NEW "\"},"
          "{\"path\":\"src/a.py\",\"action\":\"delete\",\"old\":\"" H_OLD "\"},"
          "{\"path\":\"src/new.txt\",\"action\":\"write\",\"old\":null,\"new\":\"" H_NEW "\"}]}");
  CHECK_MSG(has(r, "{\"text\":\"{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":[{\\\"path\\\":\\\"a.py\\\",\\\"action\\\":\\\"delete\\\"") &&
                strstr(r, "new.txt") < strstr(r, "pkg/z.py") && has(r, "\\\"temp\\\":\\\".z.py.editcore-0123456789abcdef.tmp\\\"}]}\\n\"}"),
            "%s", r);
  ec_free(NULL, r);
  r = ask("{\"commit\":\"journal\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"a\",\"action\":\"write\",\"old\":null},{\"path\":\"b\",\"action\":\"delete\"}]}");
  CHECK_MSG(has(r, "needs its file identities"), "a journal needs identities: %s", r);
  ec_free(NULL, r);

  /* One op needs no journal; its record says so. */
  r = ask("{\"commit\":\"plan\",\"txn\":\"00000000000000aa\",\"owner\":" OWNER ",\"ops\":[{\"path\":\"a\",\"action\":\"write\",\"old\":null,\"new\":\"" H_NEW "\"}]}");
  CHECK_MSG(has(r, "\"journal\":null}") && has(r, "\\\"journal\\\":null}\\n"), "%s", r);
  ec_free(NULL, r);

  /* Refused plans: a path that climbs, an absolute path, a path named twice, a bad txn. */
  const char *bad[] = {
      "{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"../x\",\"action\":\"write\",\"new\":\"" H_NEW "\"}]}",
      "{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"/etc/x\",\"action\":\"write\",\"new\":\"" H_NEW "\"}]}",
      "{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"a\",\"action\":\"write\"},{\"path\":\"a\",\"action\":\"delete\"}]}",
      "{\"commit\":\"plan\",\"txn\":\"0123\",\"ops\":[{\"path\":\"a\",\"action\":\"write\"}]}",
      "{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"a/./b\",\"action\":\"write\"}]}",
      "{\"commit\":\"frobnicate\"}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    r = ask(bad[i]);
    CHECK_MSG(has(r, "\"code\":\"INVALID_PARAM\""), "refused %zu: %s", i, r);
    ec_free(NULL, r);
  }

  /* Locks. Same machine, boot and pid namespace: the pid decides (asked for first). */
  const char *rec = "{\\\"editcore_lock\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"pid\\\":42,\\\"start\\\":\\\"777\\\",\\\"boot\\\":\\\"b-1\\\","
                    "\\\"pidns\\\":\\\"pid:[9]\\\",\\\"host\\\":\\\"h\\\",\\\"kind\\\":\\\"native\\\",\\\"journal\\\":\\\"../.editcore-0123456789abcdef.journal\\\"}\\n";
  char req[2048];
  const char *me = "{\"boot\":\"b-1\",\"pidns\":\"pid:[9]\",\"host\":\"h\"}";
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":%s,\"age_ms\":999999}", rec, me);
  r = ask(req);
  CHECK_MSG(has(r, "\"check\":\"pid\",\"stale\":null") && has(r, "\"journal\":\"../.editcore-0123456789abcdef.journal\""), "%s", r);
  ec_free(NULL, r);
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":%s,\"age_ms\":999999,\"owner\":\"alive\",\"owner_start\":\"777\"}", rec, me);
  r = ask(req);
  CHECK_MSG(has(r, "\"stale\":false"), "a live owner keeps its lock however old: %s", r);
  ec_free(NULL, r);
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":%s,\"age_ms\":5,\"owner\":\"dead\"}", rec, me);
  r = ask(req);
  CHECK_MSG(has(r, "\"stale\":true"), "a dead owner's lock is stale at once: %s", r);
  ec_free(NULL, r);
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":%s,\"age_ms\":5,\"owner\":\"alive\",\"owner_start\":\"778\"}", rec, me);
  r = ask(req);
  CHECK_MSG(has(r, "\"stale\":true") && has(r, "started later"), "a reused pid: %s", r);
  ec_free(NULL, r);
  /* Another boot (or a WASI guest, who knows no pid): the heartbeat decides. */
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":{\"boot\":\"b-2\",\"pidns\":\"pid:[9]\",\"host\":\"h\"},\"age_ms\":9000}", rec);
  r = ask(req);
  CHECK_MSG(has(r, "\"check\":\"age\",\"stale\":false"), "%s", r);
  ec_free(NULL, r);
  snprintf(req, sizeof req, "{\"commit\":\"lock\",\"record\":\"%s\",\"me\":{},\"age_ms\":10001}", rec);
  r = ask(req);
  CHECK_MSG(has(r, "\"check\":\"age\",\"stale\":true"), "%s", r);
  ec_free(NULL, r);
  /* A half-written record (the writer is between its create and its write): the heartbeat rule. */
  r = ask("{\"commit\":\"lock\",\"record\":\"{\\\"editcore_lock\\\":1,\\\"tx\",\"me\":{\"boot\":\"b-1\"},\"age_ms\":3}");
  CHECK_MSG(has(r, "\"valid\":false") && has(r, "\"stale\":false"), "%s", r);
  ec_free(NULL, r);

  /* Recovery: without observations, the files to look at and the locks to take; with them, the actions. */
  const char *journal = "{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":["
                        "{\\\"path\\\":\\\"a.py\\\",\\\"action\\\":\\\"delete\\\",\\\"old\\\":\\\"" H_OLD "\\\"},"
                        "{\\\"path\\\":\\\"new.txt\\\",\\\"action\\\":\\\"write\\\",\\\"old\\\":null,\\\"new\\\":\\\"" H_NEW "\\\",\\\"temp\\\":\\\".new.txt.editcore-0123456789abcdef.tmp\\\"},"
                        "{\\\"path\\\":\\\"pkg/y.py\\\",\\\"action\\\":\\\"write\\\",\\\"old\\\":\\\"" H_OLD "\\\",\\\"new\\\":\\\"" H_NEW "\\\",\\\"temp\\\":\\\".y.py.editcore-0123456789abcdef.tmp\\\"},"
                        "{\\\"path\\\":\\\"pkg/z.py\\\",\\\"action\\\":\\\"write\\\",\\\"old\\\":\\\"" H_OLD "\\\",\\\"new\\\":\\\"" H_NEW "\\\",\\\"temp\\\":\\\".z.py.editcore-0123456789abcdef.tmp\\\"}]}\\n";
  snprintf(req, sizeof req, "{\"commit\":\"recover\",\"journal\":\"%s\",\"journal_dir\":\"src\",\"owner\":" OWNER "}", journal);
  r = ask(req);
  CHECK_MSG(has(r, "\"valid\":true") && has(r, "\"path\":\"src/pkg/y.py\",\"dir\":\"src/pkg\",\"base\":\"y.py\"") && !has(r, "\"actions\""), "%s", r);
  ec_free(NULL, r);
  snprintf(req, sizeof req,
           "{\"commit\":\"recover\",\"journal\":\"%s\",\"journal_dir\":\"src\",\"owner\":" OWNER ",\"observed\":["
           "{\"target\":\"" H_OLD "\",\"temp\":null},{\"target\":null,\"temp\":\"" H_NEW "\"},{\"target\":\"" H_NEW "\",\"temp\":null},{\"target\":\"" H_ELSE "\",\"temp\":\"" H_NEW "\"}]}",
           journal);
  r = ask(req);
  CHECK_MSG(has(r, "{\"path\":\"src/a.py\",\"do\":\"delete\"") && has(r, "{\"path\":\"src/new.txt\",\"do\":\"rename\"") &&
                has(r, "{\"path\":\"src/pkg/y.py\",\"do\":\"none\"") && has(r, "{\"path\":\"src/pkg/z.py\",\"do\":\"leave\""), "%s", r);
  CHECK_MSG(has(r, "1 already written, 2 written now; 'src/pkg/z.py'"), "%s", r);
  ec_free(NULL, r);
  /* A journal cut short (its writer killed before its commit point) is no journal. */
  r = ask("{\"commit\":\"recover\",\"journal\":\"{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":[{\\\"pa\",\"journal_dir\":\"\"}");
  CHECK_MSG(has(r, "{\"valid\":false}"), "%s", r);
  ec_free(NULL, r);
  /* A journal whose entry climbs out is no journal either. */
  r = ask("{\"commit\":\"recover\",\"journal\":\"{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":[{\\\"path\\\":\\\"../x\\\",\\\"action\\\":\\\"delete\\\",\\\"old\\\":\\\"" H_OLD "\\\"}]}\\n\",\"journal_dir\":\"\"}");
  CHECK_MSG(has(r, "{\"valid\":false}"), "%s", r);
  ec_free(NULL, r);

  /* Identities are "ino:size:sec.nnnnnnnnn"; the unreleased "dev:ino:size:mtime" form and near misses are refused. */
  static const char *const bad_ids[] = {"2049:131:6:1700000000.000000001", "131:6:1700000000.00000001", "131:6:1700000000", "131::1.000000000",
                                        ":6:1.000000000", "131:6:1.000000000:", "131:6:+1.000000000"};
  for (size_t k = 0; k < sizeof bad_ids / sizeof *bad_ids; k++) {
    snprintf(req, sizeof req, "{\"commit\":\"recover\",\"journal\":\"{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":[{\\\"path\\\":\\\"x\\\",\\\"action\\\":\\\"delete\\\",\\\"old\\\":\\\"%s\\\"}]}\\n\",\"journal_dir\":\"\"}", bad_ids[k]);
    r = ask(req);
    CHECK_MSG(has(r, "{\"valid\":false}"), "%s: %s", bad_ids[k], r);
    ec_free(NULL, r);
  }
  snprintf(req, sizeof req, "{\"commit\":\"recover\",\"journal\":\"{\\\"editcore_journal\\\":1,\\\"txn\\\":\\\"0123456789abcdef\\\",\\\"entries\\\":[{\\\"path\\\":\\\"x\\\",\\\"action\\\":\\\"delete\\\",\\\"old\\\":\\\"%s\\\"}]}\\n\",\"journal_dir\":\"\"}", "131:6:-1.500000000");
  r = ask(req);
  CHECK_MSG(has(r, "{\"valid\":true"), "%s", r); /* an mtime before 1970 */
  ec_free(NULL, r);

  /* Temporaries: this protocol's, the C host's older 8-hex ones, the Node host's older pid-hex ones; nothing else. */
  r = ask("{\"commit\":\"temps\",\"base\":\"a.py\",\"names\":[\".a.py.editcore-0123456789abcdef.tmp\",\".a.py.editcore-0badc0de.tmp\","
          "\".a.py.editcore-17138-5692a35ad83a.tmp\",\".a.py.editcore-nothex!!.tmp\",\".a.pyc.editcore-0badc0de.tmp\",\".a.py.editcore.lock\","
          "\"a.py\",\".a.py.editcore--0b.tmp\",\".a.py.editcore-.tmp\"]}");
  CHECK_MSG(r && !strcmp(r, "{\"temps\":[\".a.py.editcore-0123456789abcdef.tmp\",\".a.py.editcore-0badc0de.tmp\",\".a.py.editcore-17138-5692a35ad83a.tmp\"]}"), "%s", r);
  ec_free(NULL, r);
  /* A long name keeps 200 bytes, never half a character. */
  char base[260];
  memset(base, 'x', 199);
  memcpy(base + 199, "\xc3\xa9", 2); /* é straddling byte 200 */
  strcpy(base + 201, ".py");
  snprintf(req, sizeof req, "{\"commit\":\"plan\",\"txn\":\"0123456789abcdef\",\"ops\":[{\"path\":\"%s\",\"action\":\"delete\",\"old\":\"" H_OLD "\"}]}", base);
  r = ask(req);
  char want[260];
  snprintf(want, sizeof want, "\"lock\":\".%.199s.editcore.lock\"", base);
  CHECK_MSG(has(r, want), "%s", r);
  ec_free(NULL, r);
  TEST_MAIN_END();
}
