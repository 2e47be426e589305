/*
 * How the lazy merge says no: a decline records the error (naming the snippet's segment) and the
 * file's candidate places. One room of its own, below the anchoring and the merge that both
 * decline (so neither has to reach into the other for it).
 */
#include "lazy.h"
#include "../base/str.h"
#include <stdarg.h>
#include <stdio.h>

ec_error_code ec_lz_decline(ec_lz_job *job, ec_error_code code, size_t seg, uint32_t cand_from, uint32_t cand_to,
                            const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_str msg = {0};
  {
    va_list aq;
    va_copy(aq, ap);
    char tmp[1];
    int n = vsnprintf(tmp, 1, fmt, aq);
    va_end(aq);
    if (n >= 0) {
      char *buf = ec_arena_alloc(job->a, (size_t)n + 1);
      if (buf) {
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
        msg = ec_str_make(buf, (size_t)n);
      }
    }
  }
  va_end(ap);
  if (!msg.ptr) return ec_fail_oom(job->ctx);
  ec_fail(job->ctx, code, "%.*s", (int)msg.len, msg.ptr);
  ec_error *e = ec_last_error(job->ctx);
  if (e) {
    e->path = job->f->path;
    e->block = seg == EC_LZ_WHOLE ? 0 : (int32_t)seg + 1;
  }
  if (cand_from) ec_lz_add_candidate(job, cand_from, cand_to);
  return code;
}

const char *ec_lz_seg_name(const ec_lz_job *job, size_t seg) {
  if (seg == EC_LZ_WHOLE) return "the lazy snippet";
  char *buf = ec_arena_alloc(job->a, 96);
  if (!buf) return "a segment of the lazy snippet";
  if (job->diff_style || !job->src || seg >= job->nseg) snprintf(buf, 96, "segment %zu of the lazy snippet", seg + 1);
  else snprintf(buf, 96, "segment %zu of the lazy snippet (snippet lines %u-%u)", seg + 1, job->src[job->seg[seg].j0], job->src[job->seg[seg].j1 - 1]);
  return buf;
}

void ec_lz_add_candidate(ec_lz_job *job, uint32_t from, uint32_t to) {
  ec_error *e = ec_last_error(job->ctx);
  if (!e || !from || from > job->F.n) return;
  if (to < from) to = from;
  if (to > job->F.n) to = (uint32_t)job->F.n;
  if (to - from > 40) to = from + 40;
  ec_candidate *c = ec_arena_alloc(job->a, (e->n_candidates + 1) * sizeof *c);
  if (!c) return;
  if (e->n_candidates) memcpy(c, e->candidates, e->n_candidates * sizeof *c);
  const char *b = job->F.line[from - 1].ptr;
  const char *en = job->F.line[to - 1].ptr + job->F.line[to - 1].len;
  c[e->n_candidates] = (ec_candidate){from, to, 1.0, ec_str_make(b, (size_t)(en - b))};
  e->candidates = c;
  e->n_candidates++;
}

ec_str ec_lz_echo(ec_str line) {
  ec_str t = ec_lz_trim(line);
  if (t.len > 80) t.len = 80;
  return t;
}

/* A merge that failed its own check (verify.c, invariants.c): NO_MATCH or AMBIGUOUS, naming the
 * segment, the check and the file's place. */
ec_error_code ec_lz_fail_check(ec_lz_job *job, ec_error_code code, size_t seg, uint32_t from, uint32_t to, const char *why, ec_str line) {
  ec_str t = ec_lz_echo(line);
  int tl = (int)t.len;
  char place[400];
  if (from && to > from) snprintf(place, sizeof place, "The place in question is lines %u-%u of '%.*s'", from, to, (int)job->f->path.len, job->f->path.ptr);
  else if (from) snprintf(place, sizeof place, "The place in question is line %u of '%.*s'", from, (int)job->f->path.len, job->f->path.ptr);
  else snprintf(place, sizeof place, "No place in '%.*s' fits it as written", (int)job->f->path.len, job->f->path.ptr);
  return ec_lz_decline(job, code, seg, from, to,
                       "%s: the merge failed its own check (%s%s%.*s%s); nothing was changed. %s. "
                       "Include the unchanged lines around the change (up to one that occurs once in the file), or send "
                       "search_replace blocks.",
                       ec_lz_seg_name(job, seg), why, t.len ? ": '" : "", tl, t.ptr ? t.ptr : "", t.len ? "'" : "", place);
}
