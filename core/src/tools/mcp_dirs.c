/*
 * The MCP filesystem reference's directory tools (peers/mcp_filesystem.md), same names,
 * parameters, answers and errors, over what the host listed:
 *   create_directory           mkdir -p ("Successfully created directory <path>")
 *   list_directory             "[DIR] name" / "[FILE] name" lines
 *   list_directory_with_sizes  the same with sizes, sorted by name (as localeCompare) or size, and totals
 *   directory_tree             the recursive JSON tree, exclude patterns as the reference applies them
 *   search_files               every path under a directory matching a glob, depth first
 *   move_file                  a rename that never replaces ("Destination already exists: ...")
 * Entries come in any order and are taken in byte order, as Node's readdir gives them. The walks
 * ask for one level of directories per round (ec_tool_obs_or_read).
 */
#include "mcp_common.h"
#include "glob.h"
#include "../base/sort.h"
#include "../base/str.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_mcp_create_directory, ec_tool_mcp_list_directory, ec_tool_mcp_list_directory_with_sizes,
    ec_tool_mcp_directory_tree, ec_tool_mcp_search_files, ec_tool_mcp_move_file;

static const mcp_field PATH_ONLY[] = {{"path", MCP_STRING, true, 0, NULL}, {0}};

/* Section - entries */

typedef struct entry_list {
  ec_tool_entry *v;
  size_t n, cap;
} entry_list;

static int by_bytes(const void *x, const void *y) {
  const ec_tool_entry *a = x, *b = y;
  size_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
  int d = memcmp(a->name.ptr, b->name.ptr, n);
  return d ? d : (a->name.len > b->name.len) - (a->name.len < b->name.len);
}

/* The entries of a listed directory, in byte order. false on OOM. */
static bool entries_of(ec_tool_call *c, const ec_obs *o, entry_list *out) {
  out->n = 0;
  for (const cJSON *it = o->entries ? o->entries->child : NULL; it; it = it->next) {
    ec_tool_entry e;
    if (!ec_tool_entry_at(c, it, &e)) continue;
    if (!EC_ARENA_RESERVE(c->a, out->v, out->n, out->cap, 16)) { c->oom = true; return false; }
    out->v[out->n++] = e;
  }
  ec_sort(out->v, out->n, sizeof *out->v, by_bytes);
  return true;
}

static ec_str join(ec_tool_call *c, ec_str dir, ec_str name) {
  ec_str s = ec_arena_printf(c->a, "%.*s%s%.*s", (int)dir.len, dir.ptr, dir.len && dir.ptr[dir.len - 1] == '/' ? "" : "/",
                             (int)name.len, name.ptr);
  if (!s.ptr) c->oom = true;
  return s;
}

/* A listed directory at abs, or NULL after answering as Node's readdir fails ("ENOENT: ...,
 * scandir '<path>'", "ENOTDIR: ..."). */
static const ec_obs *listed(ec_tool_call *c, const ec_tool *t, ec_str abs) {
  const ec_obs *o = mcp_observed(c, t, abs, "scandir", NULL);
  if (!o) return NULL;
  if (o->kind == EC_OBS_FILE) {
    ec_str at = mcp_shown(o, abs);
    ec_tool_failf(c, t, "IO_ERROR", "ENOTDIR: not a directory, scandir '%.*s'", (int)at.len, at.ptr);
    return NULL;
  }
  return o;
}

/* Section - create_directory */

static void mkdir_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_create_directory, PATH_ONLY, MCP_READ_KIND, &abs);
}

static void mkdir_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_create_directory;
  ec_str abs;
  if (!mcp_path_args(c, t, PATH_ONLY, MCP_READ_KIND, &abs)) return;
  const ec_obs *o = mcp_observed(c, t, abs, NULL, NULL);
  if (!o) return;
  if (o->kind == EC_OBS_FILE) {
    ec_str at = mcp_shown(o, abs);
    ec_tool_failf(c, t, "FILE_EXISTS", "EEXIST: file already exists, mkdir '%.*s'", (int)at.len, at.ptr);
    return;
  }
  ec_str path = mcp_arg_str(c, "path");
  mcp_textf(c, "Successfully created directory %.*s", (int)path.len, path.ptr);
  if (o->kind == EC_OBS_MISSING) ec_tool_make_dir(c, abs);
  else c->done = true;
}

const ec_tool ec_tool_mcp_create_directory = {"mcp/create_directory", mkdir_plan, mkdir_run, mcp_fail, true};

/* Section - list_directory */

static void ls_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_list_directory, PATH_ONLY, MCP_READ_LIST, &abs);
}

static void ls_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_list_directory;
  ec_str abs;
  entry_list es = {NULL, 0, 0};
  if (!mcp_path_args(c, t, PATH_ONLY, MCP_READ_LIST, &abs)) return;
  const ec_obs *o = listed(c, t, abs);
  if (!o || !entries_of(c, o, &es)) return;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  for (size_t i = 0; i < es.n; i++)
    ec_buf_printf(&b, "%s%s %.*s", i ? "\n" : "", es.v[i].type == EC_ENTRY_DIRECTORY ? "[DIR]" : "[FILE]", (int)es.v[i].name.len,
                  es.v[i].name.ptr);
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_list_directory = {"mcp/list_directory", ls_plan, ls_run, mcp_fail, true};

/* Section - list_directory_with_sizes */

/*
 * String.prototype.localeCompare in Node's default (ICU root) collation, for the names it sorts:
 * ASCII exactly (punctuation, then digits, then letters; case only when all else is equal, lower
 * first; other control characters ignored); Latin-1 letters as their base letter with an accent
 * that counts after the letters; any other character after every letter, by code point.
 */
static const char ROOT_ORDER[] = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

typedef struct coll_key {
  uint32_t primary[260], secondary[260];
  uint8_t tertiary[260];
  size_t n;
} coll_key;

static void coll_push(coll_key *k, uint32_t p, uint32_t s, uint8_t t) {
  if (k->n >= sizeof k->primary / sizeof k->primary[0]) return;
  k->primary[k->n] = p;
  k->secondary[k->n] = s;
  k->tertiary[k->n++] = t;
}

static uint32_t ascii_primary(unsigned char ch) {
  if (ch >= 9 && ch <= 13) return ch - 8; /* TAB LF VT FF CR come first */
  if (ch >= 'A' && ch <= 'Z') ch = (unsigned char)(ch + 32);
  const char *at = strchr(ROOT_ORDER, ch);
  return ch && at ? (uint32_t)(at - ROOT_ORDER) + 6 : 0;
}

/* Latin-1 letters U+00C0..U+00FF: base letters and accent (0: a character of its own). */
static const char *const LATIN1_BASE[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", "d", "n", "o", "o", "o", "o", "o", NULL,
    "o", "u", "u", "u", "u", "y", NULL, "ss", "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", NULL, "o", "u", "u", "u", "u", "y", NULL, "y"};
static const uint8_t LATIN1_ACCENT[32] = {2, 1, 4, 9, 7, 6, 0, 12, 2, 1, 4, 7, 2, 1, 4, 7,
                                          14, 9, 2, 1, 4, 9, 7, 0, 14, 2, 1, 4, 7, 1, 0, 0};

static void coll_key_of(ec_str s, coll_key *k) {
  k->n = 0;
  const unsigned char *u = (const unsigned char *)s.ptr;
  for (size_t i = 0; i < s.len;) {
    uint32_t cp = u[i];
    size_t n = 1;
    if (cp >= 0xC0 && cp < 0xE0 && i + 1 < s.len) { cp = ((cp & 0x1F) << 6) | (u[i + 1] & 0x3F); n = 2; }
    else if (cp >= 0xE0 && cp < 0xF0 && i + 2 < s.len) { cp = ((cp & 0x0F) << 12) | ((u[i + 1] & 0x3Fu) << 6) | (u[i + 2] & 0x3F); n = 3; }
    else if (cp >= 0xF0 && i + 3 < s.len) {
      cp = ((cp & 0x07) << 18) | ((u[i + 1] & 0x3Fu) << 12) | ((u[i + 2] & 0x3Fu) << 6) | (u[i + 3] & 0x3F);
      n = 4;
    }
    i += n;
    if (cp < 0x80) {
      uint32_t p = ascii_primary((unsigned char)cp);
      if (p) coll_push(k, p, 0, cp >= 'A' && cp <= 'Z');
    } else if (cp >= 0xC0 && cp <= 0xFF && LATIN1_BASE[cp - 0xC0]) {
      const char *base = LATIN1_BASE[cp - 0xC0];
      uint8_t upper = cp < 0xE0 && cp != 0xDF;
      for (size_t j = 0; base[j]; j++) coll_push(k, ascii_primary((unsigned char)base[j]), j ? 0 : LATIN1_ACCENT[(cp - 0xC0) & 31], upper);
    } else coll_push(k, 0x1000 + cp, 0, 0);
  }
}

static int locale_compare(ec_str x, ec_str y) {
  coll_key a, b;
  coll_key_of(x, &a);
  coll_key_of(y, &b);
  for (int level = 0; level < 3; level++)
    for (size_t i = 0;; i++) {
      if (i == a.n || i == b.n) {
        if (a.n != b.n) return a.n < b.n ? -1 : 1;
        break;
      }
      uint32_t p = level == 0 ? a.primary[i] : level == 1 ? a.secondary[i] : a.tertiary[i];
      uint32_t q = level == 0 ? b.primary[i] : level == 1 ? b.secondary[i] : b.tertiary[i];
      if (p != q) return p < q ? -1 : 1;
    }
  return 0;
}

/* formatSize: "0 B", "N B", or the value in KB..TB with toFixed(2) (ties round up, as JavaScript). */
static void format_size(char *out, size_t cap, double bytes) {
  static const char *const UNITS[] = {"B", "KB", "MB", "GB", "TB"};
  if (!(bytes > 0)) { snprintf(out, cap, "0 B"); return; }
  uint64_t v = bytes < 9.0e15 ? (uint64_t)bytes : 9000000000000000ull;
  int i = 0;
  while (i < 4 && v >= (1ull << (10 * (i + 1)))) i++;
  if (!i) { snprintf(out, cap, "%llu B", (unsigned long long)v); return; }
  uint64_t den = 1ull << (10 * i), hundredths = (v * 200 + den) / (den * 2);
  snprintf(out, cap, "%llu.%02llu %s", (unsigned long long)(hundredths / 100), (unsigned long long)(hundredths % 100), UNITS[i]);
}

/* UTF-16 code units of s, as padEnd/padStart count them. */
static size_t utf16_len(ec_str s) {
  size_t n = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char ch = (unsigned char)s.ptr[i];
    if ((ch & 0xC0) != 0x80) n += ch >= 0xF0 ? 2 : 1;
  }
  return n;
}

static const char *const SORT_OPTIONS[] = {"name", "size", NULL};
static const mcp_field SIZES_FIELDS[] = {{"path", MCP_STRING, true, 0, NULL}, {"sortBy", MCP_ENUM, false, 0, SORT_OPTIONS}, {0}};

static void sizes_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_list_directory_with_sizes, SIZES_FIELDS, MCP_READ_LIST, &abs);
}

static int by_name(const void *x, const void *y) {
  const ec_tool_entry *a = x, *b = y;
  int d = locale_compare(a->name, b->name);
  return d ? d : by_bytes(x, y); /* a stable sort keeps readdir's order between equals */
}

static int by_size(const void *x, const void *y) {
  const ec_tool_entry *a = x, *b = y;
  double sa = a->size > 0 ? a->size : 0, sb = b->size > 0 ? b->size : 0;
  return sa != sb ? (sa < sb ? 1 : -1) : by_bytes(x, y);
}

static void sizes_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_list_directory_with_sizes;
  ec_str abs;
  entry_list es = {NULL, 0, 0};
  if (!mcp_path_args(c, t, SIZES_FIELDS, MCP_READ_LIST, &abs)) return;
  const ec_obs *o = listed(c, t, abs);
  if (!o || !entries_of(c, o, &es)) return;
  double total = 0;
  size_t n_files = 0, n_dirs = 0;
  for (size_t i = 0; i < es.n; i++) {
    if (es.v[i].type == EC_ENTRY_DIRECTORY) n_dirs++;
    else { n_files++; total += es.v[i].size > 0 ? es.v[i].size : 0; }
  }
  ec_sort(es.v, es.n, sizeof *es.v, ec_str_eq_cstr(mcp_arg_str(c, "sortBy"), "size") ? by_size : by_name);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  for (size_t i = 0; i < es.n; i++) {
    const ec_tool_entry *e = &es.v[i];
    bool dir = e->type == EC_ENTRY_DIRECTORY;
    ec_buf_printf(&b, "%s %.*s", dir ? "[DIR]" : "[FILE]", (int)e->name.len, e->name.ptr);
    for (size_t w = utf16_len(e->name); w < 30; w++) ec_buf_append_char(&b, ' ');
    char size[48] = "";
    if (!dir) format_size(size, sizeof size, e->size);
    ec_buf_printf(&b, " %*s\n", dir ? 0 : 10, size);
  }
  char sum[48];
  format_size(sum, sizeof sum, total);
  ec_buf_printf(&b, "\nTotal: %zu files, %zu directories\nCombined size: %s", n_files, n_dirs, sum);
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_list_directory_with_sizes = {"mcp/list_directory_with_sizes", sizes_plan, sizes_run, mcp_fail, true};

/* Section - the walks (directory_tree, search_files) */

static bool glob(ec_tool_call *c, ec_str pattern, ec_str path) { return ec_glob_match(c->a, pattern, path); }

static bool any_pattern(ec_tool_call *c, const cJSON *patterns, ec_str rel, bool tree) {
  for (const cJSON *p = patterns ? patterns->child : NULL; p; p = p->next) {
    ec_str pat = ec_json_reader_string(c->reader, p->valuestring);
    if (glob(c, pat, rel)) return true;
    /* directory_tree: a pattern without '*' also matches the name anywhere, and what is under it */
    if (!tree || memchr(pat.ptr, '*', pat.len)) continue;
    ec_str any = ec_arena_printf(c->a, "**/%.*s", (int)pat.len, pat.ptr), under = ec_arena_printf(c->a, "**/%.*s/**", (int)pat.len, pat.ptr);
    if (!any.ptr || !under.ptr) { c->oom = true; return false; }
    if (glob(c, any, rel) || glob(c, under, rel)) return true;
  }
  return false;
}

typedef struct walk {
  const ec_tool *t;
  const cJSON *exclude;
  ec_str pattern;     /* search_files */
  ec_buf out;
  bool pending;       /* some directory is not observed yet: asked for (the walk goes on, to ask for
                       * every directory of the next level at once; its output is then dropped) */
  bool failed;        /* answered */
  size_t found;
} walk;

static void indent(ec_buf *b, size_t n) {
  for (size_t i = 0; i < n; i++) ec_buf_append_char(b, ' ');
}

/* How deep a walk goes (a real file system's PATH_MAX allows about 2,000 levels at most; this
 * keeps the recursion far inside the 1 MiB stack of the wasm builds). */
#define WALK_MAX_DEPTH 1000

static bool too_deep(ec_tool_call *c, walk *w, size_t level) {
  if (level <= WALK_MAX_DEPTH) return false;
  if (!w->failed) ec_tool_failf(c, w->t, "TOO_LARGE", "The directory tree is deeper than %d levels; start lower down.", WALK_MAX_DEPTH);
  w->failed = true;
  return true;
}

/* The tree under abs as JSON.stringify(tree, null, 2) writes it, at `depth` spaces of indent. */
static void tree_of(ec_tool_call *c, walk *w, ec_str abs, ec_str rel, size_t depth) {
  if (too_deep(c, w, depth / 4)) return;
  const ec_obs *o = ec_tool_obs_or_read(c, abs, true);
  if (!o) { w->pending = true; return; }
  if (w->failed) return;
  if (!(o = listed(c, w->t, abs))) { w->failed = true; return; }
  entry_list es = {NULL, 0, 0};
  if (!entries_of(c, o, &es)) { w->failed = true; return; }
  size_t shown = 0;
  for (size_t i = 0; i < es.n && !w->failed; i++) {
    const ec_tool_entry *e = &es.v[i];
    ec_str child_rel = rel.len ? join(c, rel, e->name) : e->name;
    if (!child_rel.ptr || any_pattern(c, w->exclude, child_rel, true)) continue;
    ec_buf_append_cstr(&w->out, shown++ ? ",\n" : "[\n");
    indent(&w->out, depth + 2);
    ec_buf_append_cstr(&w->out, "{\n");
    indent(&w->out, depth + 4);
    ec_buf_append_cstr(&w->out, "\"name\": ");
    ec_jstr(&w->out, e->name);
    ec_buf_append_cstr(&w->out, ",\n");
    indent(&w->out, depth + 4);
    if (e->type == EC_ENTRY_DIRECTORY) {
      ec_buf_append_cstr(&w->out, "\"type\": \"directory\",\n");
      indent(&w->out, depth + 4);
      ec_buf_append_cstr(&w->out, "\"children\": ");
      ec_str child = join(c, abs, e->name);
      if (child.ptr) tree_of(c, w, child, child_rel, depth + 4);
    } else ec_buf_append_cstr(&w->out, "\"type\": \"file\"");
    ec_buf_append_char(&w->out, '\n');
    indent(&w->out, depth + 2);
    ec_buf_append_char(&w->out, '}');
  }
  if (!shown) ec_buf_append_cstr(&w->out, "[]");
  else {
    ec_buf_append_char(&w->out, '\n');
    indent(&w->out, depth);
    ec_buf_append_char(&w->out, ']');
  }
}

static const mcp_field TREE_FIELDS[] = {{"path", MCP_STRING, true, 0, NULL}, {"excludePatterns", MCP_STRINGS, false, 0, NULL}, {0}};

static void tree_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_directory_tree, TREE_FIELDS, MCP_READ_LIST, &abs);
}

static void tree_run(ec_tool_call *c) {
  ec_str abs;
  if (!mcp_path_args(c, &ec_tool_mcp_directory_tree, TREE_FIELDS, MCP_READ_LIST, &abs)) return;
  walk w = {&ec_tool_mcp_directory_tree, mcp_arg(c, "excludePatterns"), {0, 0}, {0}, false, false, 0};
  ec_buf_init(&w.out, ec_arena_allocator(c->a));
  tree_of(c, &w, abs, ec_cstr(""), 0);
  ec_str text = ec_buf_finish(&w.out, c->a);
  if (w.failed || w.pending || c->oom) return;
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_directory_tree = {"mcp/directory_tree", tree_plan, tree_run, mcp_fail, true};

/* Depth first, as the reference searches: each entry that is (or leads to) a path inside the
 * allowed directories, unless excluded; matched, then descended when it is a directory. `shown`
 * is the directory's real path, which the answers are built on. */
static void search_in(ec_tool_call *c, walk *w, ec_str abs, ec_str shown, ec_str rel, size_t level) {
  bool top = level == 0;
  if (too_deep(c, w, level)) return;
  const ec_obs *o = ec_tool_obs_or_read(c, abs, true);
  if (!o) { w->pending = true; return; }
  if (w->failed) return;
  if (top) {
    if (!(o = listed(c, w->t, abs))) { w->failed = true; return; }
    shown = mcp_shown(o, abs);
  } else if (o->kind != EC_OBS_DIRECTORY) return; /* a subdirectory that cannot be listed is skipped */
  entry_list es = {NULL, 0, 0};
  if (!entries_of(c, o, &es)) { w->failed = true; return; }
  for (size_t i = 0; i < es.n && !w->failed; i++) {
    const ec_tool_entry *e = &es.v[i];
    if (e->type == EC_ENTRY_SYMLINK) { /* validated as the reference does: a link must resolve inside */
      ec_str real;
      if (!e->real_path.len || !ec_tool_resolve_in_roots(c, e->real_path, &real)) continue;
    }
    ec_str child_rel = rel.len ? join(c, rel, e->name) : e->name, full = join(c, shown, e->name);
    if (!child_rel.ptr || !full.ptr || any_pattern(c, w->exclude, child_rel, false)) continue;
    if (glob(c, w->pattern, child_rel)) ec_buf_printf(&w->out, "%s%.*s", w->found++ ? "\n" : "", (int)full.len, full.ptr);
    if (e->type == EC_ENTRY_DIRECTORY) {
      ec_str child = join(c, abs, e->name);
      if (child.ptr) search_in(c, w, child, full, child_rel, level + 1);
    }
  }
}

static const mcp_field SEARCH_FIELDS[] = {
    {"path", MCP_STRING, true, 0, NULL}, {"pattern", MCP_STRING, true, 0, NULL}, {"excludePatterns", MCP_STRINGS, false, 0, NULL}, {0}};

static void search_plan(ec_tool_call *c) {
  ec_str abs;
  mcp_path_args(c, &ec_tool_mcp_search_files, SEARCH_FIELDS, MCP_READ_LIST, &abs);
}

static void search_run(ec_tool_call *c) {
  ec_str abs;
  if (!mcp_path_args(c, &ec_tool_mcp_search_files, SEARCH_FIELDS, MCP_READ_LIST, &abs)) return;
  walk w = {&ec_tool_mcp_search_files, mcp_arg(c, "excludePatterns"), mcp_arg_str(c, "pattern"), {0}, false, false, 0};
  ec_buf_init(&w.out, ec_arena_allocator(c->a));
  search_in(c, &w, abs, abs, ec_cstr(""), 0);
  ec_str text = ec_buf_finish(&w.out, c->a);
  if (w.failed || w.pending || c->oom) return;
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, w.found ? text : ec_cstr("No matches found"), false);
  c->done = true;
}

const ec_tool ec_tool_mcp_search_files = {"mcp/search_files", search_plan, search_run, mcp_fail, true};

/* Section - move_file */

static const mcp_field MOVE_FIELDS[] = {{"source", MCP_STRING, true, 0, NULL}, {"destination", MCP_STRING, true, 0, NULL}, {0}};

static bool move_args(ec_tool_call *c, ec_str *from, ec_str *to) {
  const ec_tool *t = &ec_tool_mcp_move_file;
  return mcp_check_args(c, t, MOVE_FIELDS) && mcp_path(c, t, mcp_arg_str(c, "source"), from, MCP_READ_KIND) &&
         mcp_path(c, t, mcp_arg_str(c, "destination"), to, MCP_READ_KIND);
}

static void move_plan(ec_tool_call *c) {
  ec_str from, to;
  move_args(c, &from, &to);
}

static void move_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_move_file;
  ec_str from, to;
  if (!move_args(c, &from, &to)) return;
  const ec_obs *src = mcp_observed(c, t, from, NULL, NULL), *dst = src ? mcp_observed(c, t, to, NULL, NULL) : NULL;
  if (!src || !dst) return;
  ec_str a = mcp_shown(src, from), b = mcp_shown(dst, to);
  if (dst->kind != EC_OBS_MISSING) {
    ec_tool_failf(c, t, "FILE_EXISTS", "Destination already exists: %.*s", (int)b.len, b.ptr);
    return;
  }
  if (src->kind == EC_OBS_MISSING || ec_str_eq_cstr(dst->message, "parent missing")) {
    ec_tool_failf(c, t, "NOT_FOUND", "ENOENT: no such file or directory, rename '%.*s' -> '%.*s'", (int)a.len, a.ptr, (int)b.len,
                  b.ptr);
    return;
  }
  ec_str s = mcp_arg_str(c, "source"), d = mcp_arg_str(c, "destination");
  mcp_textf(c, "Successfully moved %.*s to %.*s", (int)s.len, s.ptr, (int)d.len, d.ptr);
  ec_tool_move(c, from, to);
}

const ec_tool ec_tool_mcp_move_file = {"mcp/move_file", move_plan, move_run, mcp_fail, true};
