/*
 * Words do not stand for lines (the lazy merge's invariant e; docs/lazy.md). A snippet says what
 * changes by its lines: a line shown is written, a line left out between two shown lines is
 * deleted, a marker keeps lines as they are. A comment the snippet writes as a note of its own
 * can say more than its lines do: `// <CHANGE> Removida função handleEnviarValidacao obsoleta`
 * between two markers, with the function kept where the leading marker stands for it. Merged by
 * lines, the note is written and the change it names is not made, reported as success.
 *
 * The check, on every result R: a note is a paragraph of the snippet (blank lines, markers or the
 * snippet's ends around it) whose lines are all comments, none of them in the file. When a note
 * names a definition of the file (a name that reads as code: camelCase or snake_case, not a
 * word of prose) and R keeps that definition's line where a marker (or the file's part the
 * snippet does not reach) keeps it — no snippet line shows it — the note speaks about code the
 * lines do not touch: removed, renamed, changed alike, or kept, the lines do not say. Declined,
 * naming the definition. A comment right above code (no blank line) is that code's comment, not
 * a note; a note naming what the snippet shows, deletes or does not define is left alone.
 */
#include "lazy.h"
#include <string.h>

/* (Invariant (f) does not read JSX's or HTML's comments as comments left out: measured, it would
 * decline a right merge of the wild set for one it regains.) */
bool ec_lz_note_line(ec_str line) {
  ec_str t = ec_lz_trim(line);
  return ec_lz_comment_line(line) || ec_str_starts_with(t, "{/*") || ec_str_starts_with(t, "<!--");
}

/* Whether a definition's name reads as code rather than as a word of prose: an inner capital or an
 * underscore (`handleEnviarValidacao`, `legacy_export`; not `data`, `state`). */
static bool code_name(ec_str n) {
  for (size_t q = 1; q < n.len; q++)
    if (n.ptr[q] == '_' || (n.ptr[q] >= 'A' && n.ptr[q] <= 'Z')) return true;
  return false;
}

ec_error_code ec_lz_check_notes(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *S = &job->S;
  uint32_t note[64], nn = 0; /* the notes' lines; a snippet of more notes is read for its first 64 lines of them */
  for (uint32_t j = 0; j < S->n; j++) {
    /* A paragraph [j0, j): lines neither blank nor markers, all of them comments the file does not have. */
    uint32_t j0 = j, cnt = 0;
    bool note_par = true;
    for (; j < S->n && !(S->flags[j] & (LZ_BLANK | LZ_MARKER)); j++) {
      ec_lz_side_first(&job->F, S->key[j], &cnt);
      note_par = note_par && ec_lz_note_line(S->line[j]) && !cnt && !(S->op && S->op[j] == '-');
    }
    for (uint32_t q = j0; note_par && q < j && nn < 64; q++) note[nn++] = q;
  }
  job->work += S->n;
  if (!nn) return EC_OK;
  /* The definitions R keeps where no snippet line shows them (a gap's lines). */
  for (size_t r = 0; r < v->nr; r++) {
    if (v->rblk[r] != EC_LZ_NONE || v->rfile[r] == EC_LZ_NONE || v->r[r].blank) continue;
    ec_str l = v->r[r].line, name;
    uint64_t key;
    job->work += nn;
    if (ec_str_starts_with(ec_lz_trim(l), "import")) continue; /* another module's name */
    if (!ec_lz_definition(job, l, v->rup[r] != LZ_NIL && ec_lz_class_opener(v->r[v->rup[r]].line), &name, &key) || !code_name(name)) continue;
    for (uint32_t k = 0; k < nn; k++) {
      if (!ec_lz_has_word(S->line[note[k]], name, NULL)) continue;
      size_t seg = 0;
      for (size_t s = 0; s < job->nseg_parsed; s++)
        if (job->seg[s].j0 <= note[k]) seg = s;
      return ec_lz_fail_check(job, EC_NO_MATCH, seg, v->rfile[r] + 1, v->rfile[r] + 1,
                              "its comment names a definition that the merge keeps unshown (the line in question): a change said only in "
                              "words is not made (invariant e: words do not stand for lines). Show the definition as it should read, "
                              "or leave it out between two shown lines to delete it",
                              S->line[note[k]]);
    }
  }
  return EC_OK;
}
