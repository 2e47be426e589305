/*
 * Finding the edits in a model's reply and telling their dialect (reply.h, docs/reply.md).
 *
 * One walk over the lines, in order; what a line starts decides:
 *   - `*** Begin Patch` (trimmed): a Codex patch, up to `*** End Patch` (or the end of the fence
 *     holding it); nothing inside is read as anything else;
 *   - a SEARCH marker (`<<<<<<< SEARCH`, `------- SEARCH`, the shapes of parse/sr_blocks.h,
 *     at the start of its line): one SEARCH/REPLACE block, up to its REPLACE marker; Roo's when
 *     the next line is `:start_line:` or a `-------` separator. Its file is named on the lines
 *     before it (Aider's find_filename: up to 3 lines back, looking through fence lines), else
 *     the previous block's file, else edit.path;
 *   - a fence: a ```diff / ```patch fence with no SEARCH marker or patch envelope inside is one
 *     unified diff (headers optional: the fence names the file then); any other fence is read
 *     line by line like the prose around it. A fence whose body held no edit and that names a
 *     file is a whole file, but only with edit.dialect "whole_file": code shown in prose is far
 *     more common than a whole file, and taking an example for the file would destroy it;
 *   - `diff --git`, or a `--- ` line followed by a `+++ ` line: a unified diff, up to the next
 *     fence, SEARCH marker or patch envelope (prose after it is the diff parser's to skip);
 *   - mail from `git format-patch` (an mbox: the reply's first line is `From <40 hex> `): each
 *     message's diff ends at its signature (`-- ` then git's version) or at the next message's
 *     `From <40 hex> ` line; headers, commit messages and diffstats are prose. The messages'
 *     diffs apply in order, all or nothing, like any reply's edits;
 *   - `<content>` right after `<path>p</path>` (Cline's <write_to_file> tool call): the whole
 *     file p, up to `</content>`.
 * A fenced block whose edits are of two dialects is refused: there is no telling which one the
 * model meant, and guessing could apply the wrong one.
 */
#include "reply.h"
#include "../base/str.h"
#include "../parse/sr_blocks.h"

typedef struct walker {
  ec_ctx *ctx;
  ec_rp_scan *s;
  ec_rp_mode mode;
  bool in_fence;
  ec_rp_fence fence;
  size_t fence_line;     /* 0-based line of the open fence */
  uint32_t fence_no;
  ec_str fence_name;
  size_t regions_at_open;
  ec_str last_sr_name;   /* Aider: a block with no name of its own edits the previous block's file */
  bool mbox;             /* the reply is git format-patch's mail (its first line a mail separator) */
} walker;

/* `From <40 hex> ...`: the line that starts each message of git format-patch's mbox. */
static bool is_mail_separator(ec_str l) {
  if (l.len < 46 || !ec_str_starts_with(l, "From ") || l.ptr[45] != ' ') return false;
  for (size_t i = 5; i < 45; i++)
    if (!((l.ptr[i] >= '0' && l.ptr[i] <= '9') || (l.ptr[i] >= 'a' && l.ptr[i] <= 'f'))) return false;
  return true;
}

/* In an mbox, `-- ` followed by the end, a blank line, a mail separator or a version line
 * (`2.43.0`) is format-patch's signature, not a hunk's removal of the line "- ": a removed "- "
 * line is followed by more of its hunk or by the next file's header, never by those. */
static bool is_signature(const walker *w, size_t i) {
  if (!w->mbox || !ec_str_eq_cstr(w->s->lines[i], "-- ")) return false;
  if (i + 1 >= w->s->n_lines) return true;
  ec_str next = w->s->lines[i + 1];
  if (!next.len || is_mail_separator(next)) return true;
  for (size_t k = 0; k < next.len; k++)
    if (!((next.ptr[k] >= '0' && next.ptr[k] <= '9') || next.ptr[k] == '.' || (k && next.ptr[k] >= 'a' && next.ptr[k] <= 'z') ||
          next.ptr[k] == '-' || next.ptr[k] == '_'))
      return false;
  return next.ptr[0] >= '0' && next.ptr[0] <= '9';
}


static ec_error_code add_region(walker *w, ec_format d, size_t first, size_t end, ec_str name, bool roo) {
  ec_rp_scan *s = w->s;
  if (s->n_regions >= w->ctx->opt.limits.max_blocks)
    return ec_fail(w->ctx, EC_TOO_LARGE, "the reply holds more than %zu edits (options.limits.max_blocks)",
                   w->ctx->opt.limits.max_blocks);
  if (!EC_ARENA_RESERVE(w->ctx->arena, s->regions, s->n_regions, s->cap_regions, 8)) return ec_fail_oom(w->ctx);
  ec_rp_region *r = &s->regions[s->n_regions++];
  r->dialect = d;
  r->first = first;
  r->end = end;
  r->name = name;
  r->roo = roo;
  r->fence = w->in_fence ? w->fence_no : 0;
  return EC_OK;
}

static ec_str line_at(const walker *w, size_t i) { return w->s->lines[i]; }
static bool is_search(ec_str line) { return ec_sr_is_search_start(ec_sr_trim_end(line)); }
static bool is_replace_end(ec_str line) { return ec_sr_is_replace_end(ec_sr_trim_end(line)); }
static bool is_begin_patch(ec_str line) { return ec_str_eq_cstr(ec_rp_trim(line), "*** Begin Patch"); }
static bool is_blank(ec_str line) { return ec_rp_trim(line).len == 0; }

/* The file a fence names: its info string, else the line before it (one blank line between allowed). */
static ec_str fence_name(const walker *w, size_t open, const ec_rp_fence *f) {
  ec_str n = ec_rp_fence_name(f);
  if (n.len || !open) return n;
  ec_str before = line_at(w, open - 1);
  if (is_blank(before) && open >= 2) before = line_at(w, open - 2);
  return ec_rp_line_name(before);
}

/* Aider's find_filename: up to three lines before the marker, nearest first, looking through
 * fence lines (```python / the name inside the fence / the name before it, or in its info). */
static ec_str sr_name(const walker *w, size_t i) {
  ec_str none = {NULL, 0};
  for (size_t back = 1; back <= 3 && back <= i; back++) {
    ec_str l = line_at(w, i - back);
    ec_rp_fence f;
    if (ec_rp_fence_open(l, &f)) {
      ec_str n = fence_name(w, i - back, &f);
      if (n.len) return n;
      continue;
    }
    if (ec_str_eq_cstr(ec_rp_trim(l), "<diff>")) continue; /* Cline's <replace_in_file>, Roo's <apply_diff> */
    return ec_rp_line_name(l);
  }
  return none;
}

static const char *dialect_words(ec_format d) {
  switch (d) {
    case EC_FORMAT_SEARCH_REPLACE: return "SEARCH/REPLACE block";
    case EC_FORMAT_UNIFIED_DIFF: return "unified diff";
    case EC_FORMAT_CODEX_PATCH: return "Codex patch";
    default: return "whole file";
  }
}

static ec_error_code close_fence(walker *w, size_t at) {
  ec_rp_scan *s = w->s;
  w->in_fence = false;
  size_t a = w->regions_at_open;
  for (size_t k = a + 1; k < s->n_regions; k++) {
    if (s->regions[k].dialect == s->regions[a].dialect) continue;
    ec_error_code rc = ec_fail(w->ctx, EC_MALFORMED_EDIT,
                               "the fenced block at line %zu holds both a %s (line %zu) and a %s (line %zu), so it is not clear "
                               "how to read it; nothing was changed. Send one kind of edit per fenced block.",
                               w->fence_line + 1, dialect_words(s->regions[a].dialect), s->regions[a].first + 1,
                               dialect_words(s->regions[k].dialect), s->regions[k].first + 1);
    ec_last_error(w->ctx)->line = (uint32_t)w->fence_line + 1;
    return rc;
  }
  if (s->n_regions > a) return EC_OK;
  /* A fence that held no edit: code in prose, or (edit.dialect "whole_file") a whole file. */
  ec_str name = w->fence_name;
  if (w->mode == EC_RP_ONLY_WHOLE_FILE) {
    if (!name.len) name = ec_rp_clean_path(w->ctx->req->edit.path);
    if (!name.len) return EC_OK;
    /* A file with fences of its own (a README) in a fence as long as them: its first bare ```
     * closed the block, and the file would be written cut short. */
    for (size_t k = w->fence_line + 1; k < at; k++) {
      ec_rp_fence inner;
      if (!ec_rp_fence_open(s->lines[k], &inner) || inner.ch != w->fence.ch || inner.count < w->fence.count || !inner.info.len) continue;
      ec_error_code rc = ec_fail(w->ctx, EC_MALFORMED_EDIT,
                                 "the whole file for '%.*s' (the fence at line %zu) holds a fence of its own at line %zu, so the "
                                 "block's end at line %zu may be that fence's end and the file cut short; nothing was changed. Wrap "
                                 "the file in a longer fence (%.*s%c) than any inside it.",
                                 ec_echo_len(name), name.ptr, w->fence_line + 1, k + 1, at + 1, (int)w->fence.count,
                                 w->fence.ch == '`' ? "``````````" : "~~~~~~~~~~", w->fence.ch);
      ec_last_error(w->ctx)->line = (uint32_t)k + 1;
      return rc;
    }
    w->in_fence = true; /* the region belongs to this fence */
    ec_error_code rc = add_region(w, EC_FORMAT_WHOLE_FILE, w->fence_line + 1, at, name, false);
    w->in_fence = false;
    return rc;
  }
  if (!name.len) return EC_OK;
  if (!EC_ARENA_RESERVE(w->ctx->arena, s->named_fences, s->n_named_fences, s->cap_named_fences, 4)) return ec_fail_oom(w->ctx);
  s->named_fences[s->n_named_fences++] = name;
  return EC_OK;
}

/* A ```diff fence: its body is one diff unless it holds SEARCH blocks or a patch envelope. */
static bool diff_fence_body(const walker *w, size_t open, size_t *close) {
  size_t n = w->s->n_lines, k = open + 1;
  bool other = false;
  for (; k < n && !ec_rp_fence_closes(line_at(w, k), &w->fence); k++)
    other |= is_search(line_at(w, k)) || is_begin_patch(line_at(w, k));
  *close = k;
  return !other;
}

static ec_error_code walk(walker *w) {
  ec_rp_scan *s = w->s;
  size_t n = s->n_lines;
  ec_error_code rc;
  for (size_t i = 0; i < n; i++) {
    ec_str line = line_at(w, i);
    if (w->in_fence && ec_rp_fence_closes(line, &w->fence)) {
      if ((rc = close_fence(w, i))) return rc;
      continue;
    }
    if (is_begin_patch(line)) {
      size_t k = i + 1;
      bool ended = false;
      for (; k < n; k++) {
        if (ec_str_eq_cstr(ec_rp_trim(line_at(w, k)), "*** End Patch")) { ended = true; break; }
        if (w->in_fence && ec_rp_fence_closes(line_at(w, k), &w->fence)) break;
      }
      size_t end = ended ? k + 1 : k;
      if ((rc = add_region(w, EC_FORMAT_CODEX_PATCH, i, end, (ec_str){NULL, 0}, false))) return rc;
      i = end - 1;
      continue;
    }
    if (is_search(line)) {
      size_t k = i + 1;
      for (; k < n; k++) {
        if (is_replace_end(line_at(w, k))) { k++; break; }
        if (is_search(line_at(w, k))) break; /* unclosed: the block parser says so */
      }
      /* Roo's grammar: `<<<<<<< SEARCH` then `:start_line:N`, `:end_line:N` or the `-------`
       * separator (exactly seven: a YAML `---` opening the SEARCH text is text). */
      bool roo = false;
      if (i + 1 < n && ec_str_starts_with(line, "<<<<<<< SEARCH")) {
        ec_str next = ec_rp_trim(line_at(w, i + 1));
        roo = ec_str_eq_cstr(next, "-------") || ec_str_starts_with(next, ":start_line:") || ec_str_starts_with(next, ":end_line:");
      }
      ec_str name = sr_name(w, i);
      if (!name.len) name = w->last_sr_name;
      else w->last_sr_name = name;
      if ((rc = add_region(w, EC_FORMAT_SEARCH_REPLACE, i, k, name, roo))) return rc;
      i = k - 1;
      continue;
    }
    if (ec_str_eq_cstr(ec_rp_trim(line), "<content>") && i > 0 && ec_rp_xml_path(line_at(w, i - 1)).len) {
      /* Cline's <write_to_file>: <path>p</path> then <content> ... </content>, a whole file the
       * tool call states outright (unlike code in a fence). */
      size_t k = i + 1;
      while (k < n && !ec_str_eq_cstr(ec_rp_trim(line_at(w, k)), "</content>")) k++;
      if (k >= n) {
        ec_error_code e = ec_fail(w->ctx, EC_MALFORMED_EDIT, "the <content> at line %zu of the reply has no </content> line after it "
                                  "(was the reply cut off?); nothing was changed.", i + 1);
        ec_last_error(w->ctx)->line = (uint32_t)i + 1;
        return e;
      }
      if ((rc = add_region(w, EC_FORMAT_WHOLE_FILE, i + 1, k, ec_rp_xml_path(line_at(w, i - 1)), false))) return rc;
      i = k;
      continue;
    }
    ec_rp_fence f;
    if (!w->in_fence && ec_rp_fence_open(line, &f)) {
      w->in_fence = true;
      w->fence = f;
      w->fence_line = i;
      w->fence_no++;
      w->fence_name = fence_name(w, i, &f);
      w->regions_at_open = s->n_regions;
      size_t close;
      if (ec_rp_fence_is_diff(&f) && diff_fence_body(w, i, &close)) {
        if (close > i + 1 && (rc = add_region(w, EC_FORMAT_UNIFIED_DIFF, i + 1, close, w->fence_name, false))) return rc;
        if ((rc = close_fence(w, close))) return rc;
        i = close;
      }
      continue;
    }
    bool git = ec_str_starts_with(line, "diff --git ");
    if (git || (ec_str_starts_with(line, "--- ") && i + 1 < n && ec_str_starts_with(line_at(w, i + 1), "+++ "))) {
      ec_rp_fence probe;
      size_t k = i + 1;
      for (; k < n; k++) {
        ec_str l = line_at(w, k);
        if (w->in_fence ? ec_rp_fence_closes(l, &w->fence) : ec_rp_fence_open(l, &probe)) break;
        if (is_search(l) || is_begin_patch(l)) break;
        if (is_mail_separator(l) || is_signature(w, k)) break;
      }
      while (k > i + 1 && is_blank(line_at(w, k - 1))) k--;
      if ((rc = add_region(w, EC_FORMAT_UNIFIED_DIFF, i, k, w->in_fence ? w->fence_name : (ec_str){NULL, 0}, false))) return rc;
      i = k - 1;
      continue;
    }
  }
  if (w->in_fence) return close_fence(w, n); /* an unterminated last fence still counts */
  return EC_OK;
}

static ec_error_code no_edit(walker *w) {
  ec_rp_scan *s = w->s;
  ec_ctx *ctx = w->ctx;
  static const char FORMS[] =
      "editcore reads SEARCH/REPLACE blocks ('<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE', or Cline's '------- SEARCH' / "
      "'=======' / '+++++++ REPLACE', each marker at the start of its line, the file's path alone on the line before the block "
      "or its fence), unified diffs ('--- a/path' and '+++ b/path' lines then '@@' hunks, bare or in a ```diff fence), Codex "
      "patches ('*** Begin Patch' ... '*** End Patch'), Cline's <write_to_file> calls and, with edit.dialect \"whole_file\", whole "
      "files in fences named by the line before them. Code in other fences is read as prose.";
  /* What came close, so the model can fix it. */
  for (size_t i = 0; i < s->n_lines; i++) {
    ec_str t = ec_rp_trim(s->lines[i]);
    if (ec_sr_is_search_start(t) && !is_search(s->lines[i])) {
      ec_fail(ctx, EC_MALFORMED_EDIT, "no edit was found in the reply: line %zu holds a SEARCH marker with white space before it; "
              "markers must start their line. %s", i + 1, FORMS);
      ec_last_error(ctx)->line = (uint32_t)i + 1;
      return EC_MALFORMED_EDIT;
    }
  }
  if (s->n_named_fences) {
    ec_str a = s->named_fences[0];
    return ec_fail(ctx, EC_MALFORMED_EDIT, "no edit was found in the reply: it holds %zu fenced block%s naming a file ('%.*s'%s) "
                   "but no edit markers. To write such blocks as whole files, send edit.dialect \"whole_file\". %s",
                   s->n_named_fences, s->n_named_fences == 1 ? "" : "s", ec_echo_len(a), a.ptr, s->n_named_fences > 1 ? ", ..." : "",
                   FORMS);
  }
  return ec_fail(ctx, EC_MALFORMED_EDIT, "no edit was found in the reply. %s", FORMS);
}

/* A diff hunk outside every edit found (no ---/+++ header, not in a ```diff fence): it would be
 * left out while the rest applies, so the reply is refused instead. */
static ec_error_code stray_hunks(ec_ctx *ctx, const ec_rp_scan *s) {
  size_t r = 0;
  for (size_t i = 0; i + 1 < s->n_lines; i++) {
    while (r < s->n_regions && s->regions[r].end <= i) r++;
    if (r < s->n_regions && s->regions[r].first <= i) { i = s->regions[r].end - 1; continue; }
    ec_str l = s->lines[i], next = s->lines[i + 1];
    if (!ec_str_starts_with(l, "@@") || !next.len || !strchr("+- ", next.ptr[0])) continue;
    ec_fail(ctx, EC_MALFORMED_EDIT, "line %zu of the reply holds a diff hunk ('%.*s%s') outside any diff, so it names no file; "
            "nothing was changed. Give it '--- a/path' and '+++ b/path' lines, or send it alone in a ```diff fence named by the "
            "line before it.", i + 1, ec_echo_len(l), l.ptr, ec_echo_more(l));
    ec_last_error(ctx)->line = (uint32_t)i + 1;
    return EC_MALFORMED_EDIT;
  }
  return EC_OK;
}

static const char *mode_name(ec_rp_mode m) {
  switch (m) {
    case EC_RP_ONLY_SEARCH_REPLACE: return "search_replace";
    case EC_RP_ONLY_UNIFIED_DIFF: return "unified_diff";
    case EC_RP_ONLY_CODEX_PATCH: return "codex_patch";
    case EC_RP_ONLY_WHOLE_FILE: return "whole_file";
    default: return "auto";
  }
}

static ec_format mode_format(ec_rp_mode m) {
  switch (m) {
    case EC_RP_ONLY_SEARCH_REPLACE: return EC_FORMAT_SEARCH_REPLACE;
    case EC_RP_ONLY_UNIFIED_DIFF: return EC_FORMAT_UNIFIED_DIFF;
    case EC_RP_ONLY_CODEX_PATCH: return EC_FORMAT_CODEX_PATCH;
    default: return EC_FORMAT_WHOLE_FILE;
  }
}

ec_error_code ec_rp_detect(ec_ctx *ctx, ec_rp_mode mode, ec_rp_scan *out) {
  memset(out, 0, sizeof *out);
  ec_str text = ec_text_normalize_eol(ctx->arena, ctx->req->edit.text);
  if (!text.ptr) return ec_fail_oom(ctx);
  out->text = text;
  size_t n = 1;
  for (size_t i = 0; i < text.len; i++) n += text.ptr[i] == '\n';
  if (text.len && text.ptr[text.len - 1] == '\n') n--; /* no empty line after the last LF */
  out->lines = ec_arena_alloc(ctx->arena, (n + 1) * sizeof *out->lines);
  if (!out->lines) return ec_fail_oom(ctx);
  size_t k = 0, start = 0;
  for (size_t i = 0; i < text.len && k < n; i++)
    if (text.ptr[i] == '\n') { out->lines[k++] = ec_str_make(text.ptr + start, i - start); start = i + 1; }
  if (k < n) out->lines[k++] = ec_str_make(text.ptr + start, text.len - start);
  out->n_lines = k;
  walker w;
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.s = out;
  w.mode = mode;
  w.mbox = out->n_lines && is_mail_separator(out->lines[0]);
  ec_error_code rc = walk(&w);
  if (rc) return rc;
  if ((rc = stray_hunks(ctx, out))) return rc;
  if (!out->n_regions) return no_edit(&w);
  if (mode == EC_RP_AUTO) return EC_OK;
  for (size_t i = 0; mode == EC_RP_ONLY_WHOLE_FILE && i < out->n_regions; i++)
    for (size_t j = 0; j < i; j++) {
      const ec_rp_region *a = &out->regions[j], *b = &out->regions[i];
      if (a->dialect != EC_FORMAT_WHOLE_FILE || b->dialect != EC_FORMAT_WHOLE_FILE || !ec_str_eq(a->name, b->name)) continue;
      rc = ec_fail(ctx, EC_MALFORMED_EDIT, "the reply holds two whole files for '%.*s' (the fences at lines %zu and %zu), so it is "
                   "not clear which one is meant; nothing was changed. Send one block per file.",
                   ec_echo_len(a->name), a->name.ptr, a->first, b->first);
      ec_last_error(ctx)->line = (uint32_t)b->first;
      return rc;
    }
  for (size_t i = 0; i < out->n_regions; i++) {
    const ec_rp_region *r = &out->regions[i];
    if (r->dialect == mode_format(mode)) continue;
    rc = ec_fail(ctx, EC_MALFORMED_EDIT, "edit.dialect is \"%s\", but line %zu of the reply starts a %s; nothing was changed. "
                 "Send the reply with edit.dialect \"auto\" to read every kind of edit in it, or leave that part out.",
                 mode_name(mode), r->first + 1, dialect_words(r->dialect));
    ec_last_error(ctx)->line = (uint32_t)r->first + 1;
    return rc;
  }
  return EC_OK;
}
