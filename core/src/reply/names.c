/*
 * File names in a reply (reply.h). Models name the file an edit is for on the line before the
 * block (Aider's habit: the path alone, or `# path`, `**path**:`, "Update `path`:"), or in the
 * fence's info string (```src/a.py, ```python src/a.py, ```python:src/a.py). A name is only
 * taken when it reads as a path (precision before recall: a word of prose taken for a file would
 * send an edit to the wrong place); the rules never look at which files the request holds, so a
 * host that asks for the paths first (parse_only) and the apply that follows read the same names.
 * Cline's and Roo's tool calls name it in a tag: <path>src/a.ts</path>, then <diff> or <content>.
 */
#include "reply.h"
#include "../base/str.h"

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

bool ec_rp_path_like(ec_str s) {
  if (!s.len || s.len > 1024) return false;
  bool sep = false, letter = false;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if (c <= 0x20 || c == 0x7f || c == '`' || c == '*' || c == '<' || c == '>' || c == '|' || c == '"' || c == '\'' ||
        c == '\\')
      return false;
    sep |= c == '.' || c == '/';
    letter |= is_alpha((char)c) || c >= 0x80;
  }
  if (!sep || !letter) return false;
  if (strchr("-+=@([{#", s.ptr[0])) return false;
  if (strchr(".:,;!?)]}/", s.ptr[s.len - 1])) return false; /* the end of a sentence, or a directory */
  for (size_t i = 0; i + 2 < s.len; i++)
    if (s.ptr[i] == ':' && s.ptr[i + 1] == '/' && s.ptr[i + 2] == '/') return false; /* a URL */
  return true;
}

ec_str ec_rp_clean_path(ec_str s) {
  while (s.len > 2 && s.ptr[0] == '.' && s.ptr[1] == '/') s = ec_str_drop(s, 2);
  return s;
}

static ec_str strip_chars(ec_str s, const char *lead, const char *trail) {
  while (s.len && s.ptr[0] && memchr(lead, s.ptr[0], strlen(lead))) s = ec_str_drop(s, 1);
  while (s.len && s.ptr[s.len - 1] && memchr(trail, s.ptr[s.len - 1], strlen(trail))) s.len--;
  return s;
}

static bool starts_with_nocase(ec_str s, const char *p) {
  size_t n = strlen(p);
  if (s.len < n) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s.ptr[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != p[i]) return false;
  }
  return true;
}

/* The decorations around a name on its own line: `# `, `**`, backticks, a trailing colon, and a
 * "File:" label. */
static ec_str undecorate(ec_str s) {
  static const char *const LABELS[] = {"file:", "filename:", "file name:", "path:"};
  for (int round = 0; round < 4; round++) {
    s = ec_rp_trim(strip_chars(ec_rp_trim(s), "#", ":"));
    s = ec_rp_trim(strip_chars(s, "*`", "*`:"));
    for (size_t k = 0; k < sizeof LABELS / sizeof *LABELS; k++)
      if (starts_with_nocase(s, LABELS[k])) s = ec_str_drop(s, strlen(LABELS[k]));
  }
  return ec_rp_trim(s);
}

ec_str ec_rp_xml_path(ec_str line) {
  ec_str none = {NULL, 0};
  ec_str t = ec_rp_trim(line);
  if (t.len < 14 || !ec_str_starts_with(t, "<path>") || memcmp(t.ptr + t.len - 7, "</path>", 7)) return none;
  ec_str p = ec_rp_trim(ec_str_make(t.ptr + 6, t.len - 13));
  return p.len && !memchr(p.ptr, '<', p.len) ? ec_rp_clean_path(p) : none;
}

ec_str ec_rp_line_name(ec_str line) {
  ec_str none = {NULL, 0};
  ec_str t = ec_rp_trim(line);
  if (!t.len || ec_str_starts_with(t, "```") || ec_str_starts_with(t, "~~~")) return none;
  ec_str xml = ec_rp_xml_path(t); /* Cline's and Roo's tool calls: <path>src/a.ts</path> */
  if (xml.len) return xml;
  ec_str bare = undecorate(t);
  if (ec_rp_path_like(bare)) return ec_rp_clean_path(bare);
  /* "Update `src/a.py`:" / "### Changes to `a.py`": one code span that reads as a path, on a line
   * that introduces what follows (a colon at its end, or a heading). */
  ec_str span = none;
  size_t spans = 0;
  for (size_t i = 0; i < t.len; i++) {
    if (t.ptr[i] != '`') continue;
    size_t j = i + 1;
    while (j < t.len && t.ptr[j] != '`') j++;
    if (j >= t.len) break;
    spans++;
    span = ec_str_make(t.ptr + i + 1, j - i - 1);
    i = j;
  }
  if (spans != 1 || !ec_rp_path_like(span)) return none;
  ec_str tail = strip_chars(t, "", "* ");
  bool introduces = (tail.len && tail.ptr[tail.len - 1] == ':') || t.ptr[0] == '#';
  return introduces ? ec_rp_clean_path(span) : none;
}

ec_str ec_rp_fence_name(const ec_rp_fence *f) {
  ec_str none = {NULL, 0};
  ec_str info = f->info;
  if (!info.len) return none;
  if (ec_rp_path_like(info) && !memchr(info.ptr, ':', info.len)) return ec_rp_clean_path(info);
  /* "python src/a.py", "python title=src/a.py" */
  for (size_t i = 0; i < info.len; i++) {
    if (info.ptr[i] != ' ' && info.ptr[i] != '\t') continue;
    ec_str rest = ec_rp_trim(ec_str_drop(info, i));
    const char *eq = memchr(rest.ptr, '=', rest.len);
    if (eq) rest = strip_chars(ec_str_drop(rest, (size_t)(eq - rest.ptr) + 1), "\"'", "\"'");
    return ec_rp_path_like(rest) ? ec_rp_clean_path(rest) : none;
  }
  /* "python:src/a.py", "12:15:src/a.py" */
  const char *colon = NULL;
  for (size_t i = 0; i < info.len; i++)
    if (info.ptr[i] == ':') colon = info.ptr + i;
  if (colon) {
    ec_str after = ec_str_drop(info, (size_t)(colon - info.ptr) + 1);
    if (ec_rp_path_like(after)) return ec_rp_clean_path(after);
  }
  return none;
}
