/* `patch -pN` and `-R` over a parsed diff (udiff_parse.h: ec_udiff_orient), and diff -ruN's tree
 * names. Its own file: the lite module (wasm/lite_deferred.c) leaves it to the full one. */
#include "udiff_parse.h"
#include "../base/str.h"
#include <string.h>

/* Drops n leading components (the smallest prefix holding n slashes, runs of slashes counting as
 * one, as patch -pN does); false when the path has too few. */
static bool strip_components(ec_str *p, int n) {
  ec_str s = *p;
  for (int k = 0; k < n; k++) {
    const char *slash = memchr(s.ptr, '/', s.len);
    if (!slash) return false;
    s = ec_str_drop(s, (size_t)(slash - s.ptr) + 1);
    while (s.len && s.ptr[0] == '/') s = ec_str_drop(s, 1);
  }
  if (!s.len) return false;
  *p = s;
  return true;
}

static ec_str first_component(ec_str s) {
  const char *slash = memchr(s.ptr, '/', s.len);
  return slash ? ec_str_make(s.ptr, (size_t)(slash - s.ptr)) : ec_str_make(s.ptr, 0);
}

ec_error_code ec_udiff_orient(ec_arena *a, ec_ud_patch *patch, bool has_strip, int strip, bool reverse, ec_ud_error *err) {
  for (size_t k = 0; k < patch->n_files; k++) {
    ec_ud_file *f = &patch->files[k];
    if (!f->has_header) continue;
    if (has_strip) {
      ec_str *sides[2] = {f->old_null ? NULL : &f->old_path, f->new_null ? NULL : &f->new_path};
      for (int i = 0; i < 2; i++) {
        if (!sides[i] || !sides[i]->len) continue;
        if (!strip_components(sides[i], strip)) {
          err->line = f->line;
          err->message = ec_arena_printf(a, "the header path '%.*s' at line %u has no %d leading components to strip (-p%d, "
                                            "options.strip); nothing was changed. Give a smaller strip level.",
                                         ec_echo_len(*sides[i]), sides[i]->ptr, f->line, strip, strip);
          return err->message.ptr ? EC_MALFORMED_EDIT : EC_OUT_OF_MEMORY;
        }
      }
      /* git writes rename from / rename to without a/ b/: git apply strips them one less. */
      if (strip > 0) {
        if (f->rename_from.len) strip_components(&f->rename_from, strip - 1);
        if (f->rename_to.len) strip_components(&f->rename_to, strip - 1);
      }
      f->exact_paths = true;
    } else if (!f->git && f->timestamped && !f->old_null && !f->new_null && f->old_path.len && f->new_path.len) {
      /* `diff -ruN old new`: both sides under their tree's top directory (old/x, new/x), each
       * with its time after a tab, as diff writes them. The top component is dropped when the
       * two differ and the rest is the same, as -p1 would. A model's `--- lib/a.py` / `+++
       * src/a.py` (no times) is left as written. */
      ec_str o = first_component(f->old_path), n = first_component(f->new_path);
      if (o.len && n.len && !ec_str_eq(o, n) && ec_str_eq(ec_str_drop(f->old_path, o.len), ec_str_drop(f->new_path, n.len))) {
        strip_components(&f->old_path, 1);
        strip_components(&f->new_path, 1);
        f->exact_paths = true;
      }
    } else if (!f->git && f->timestamped && (f->old_null != f->new_null)) {
      /* One side absent (a diff -ruN creation or deletion): its name still tells the tree. */
      ec_str named = f->old_null ? f->new_path : f->old_path, other = f->old_null ? f->old_path : f->new_path;
      ec_str o = first_component(named), n = first_component(other);
      if (o.len && n.len && !ec_str_eq(o, n) && ec_str_eq(ec_str_drop(named, o.len), ec_str_drop(other, n.len))) {
        strip_components(f->old_null ? &f->new_path : &f->old_path, 1);
        f->exact_paths = true;
      }
    }
    if (!reverse) continue;
    ec_str t = f->old_path; f->old_path = f->new_path; f->new_path = t;
    bool b = f->old_null; f->old_null = f->new_null; f->new_null = b;
    b = f->old_epoch; f->old_epoch = f->new_epoch; f->new_epoch = b;
    b = f->new_file; f->new_file = f->deleted_file; f->deleted_file = b;
    t = f->rename_from; f->rename_from = f->rename_to; f->rename_to = t;
    for (size_t h = 0; h < f->n_hunks; h++) {
      ec_ud_hunk *u = &f->hunks[h];
      for (size_t i = 0; i < u->n_lines; i++)
        if (u->lines[i].kind != ' ') u->lines[i].kind = u->lines[i].kind == '-' ? '+' : '-';
      uint32_t x = u->n_remove; u->n_remove = u->n_add; u->n_add = x;
      x = u->old_start; u->old_start = u->new_start; u->new_start = x;
      x = u->old_count; u->old_count = u->new_count; u->new_count = x;
      b = u->old_no_eol; u->old_no_eol = u->new_no_eol; u->new_no_eol = b;
    }
  }
  return EC_OK;
}

