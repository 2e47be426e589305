/* A side of the merge (the file or the snippet) as line keys, indentation, flags and a key map. */
#include "lazy.h"
#include "../base/hash.h"
#include "../base/str.h"

uint64_t ec_lz_key(ec_str line) {
  ec_str t = ec_lz_trim(line);
  uint64_t h = ec_hash_bytes(t.ptr ? t.ptr : "", t.len);
  return h ? h : 1;
}

/* A line that says nothing on its own: blank, or only brackets/punctuation, or a block keyword. */
static bool is_weak(ec_str t) {
  if (!t.len) return true;
  bool punct = true;
  for (size_t i = 0; i < t.len; i++) {
    char c = t.ptr[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80) {
      punct = false;
      break;
    }
  }
  if (punct) return true;
  if (t.len > 9) return false; /* longer than every keyword below */
  static const char *const KW[] = {"end", "end;", "end)", "end,", "fi", "done", "esac", "else", "else:", "} else {",
                                   "try:", "finally:", "break;", "break", "continue;", "continue", "return;",
                                   "return", "pass", "endif", "endfor", "endwhile", "default:", NULL};
  for (size_t i = 0; KW[i]; i++)
    if (ec_str_eq_cstr(t, KW[i])) return true;
  return false;
}

/* The key map over the lines whose key is among qkeys, or over every line (qkeys NULL). Each
 * asked-for key gets its slot first, with no lines; then one pass over the lines chains each line
 * whose key has a slot (over every line, a key gets its slot there: one pass), in order. */
static ec_error_code build_map(ec_arena *a, ec_lz_side *s, const uint64_t *qkeys, size_t nq) {
  size_t cap = 16;
  while (cap < nq * 2 + 16) cap <<= 1;
  s->mask = cap - 1;
  s->slot_key = ec_arena_calloc(a, cap, sizeof *s->slot_key);
  s->slot_first = ec_arena_alloc(a, cap * sizeof *s->slot_first);
  s->slot_count = ec_arena_calloc(a, cap, sizeof *s->slot_count);
  s->next = ec_arena_alloc(a, (s->n + 1) * sizeof *s->next);
  uint32_t *last = ec_arena_alloc(a, cap * sizeof *last);
  if (!s->slot_key || !s->slot_first || !s->slot_count || !s->next || !last) return EC_OUT_OF_MEMORY;
  for (size_t q = 0; qkeys && q < nq; q++) {
    uint64_t k = qkeys[q];
    size_t h = (size_t)(k ^ (k >> 32)) & s->mask;
    while (s->slot_key[h] && s->slot_key[h] != k) h = (h + 1) & s->mask;
    if (!s->slot_key[h]) {
      s->slot_key[h] = k;
      s->slot_first[h] = LZ_NIL;
    }
  }
  for (size_t i = 0; i < s->n; i++) {
    uint64_t k = s->key[i];
    size_t h = (size_t)(k ^ (k >> 32)) & s->mask;
    while (s->slot_key[h] && s->slot_key[h] != k) h = (h + 1) & s->mask;
    if (!s->slot_key[h] && qkeys) continue;
    if (!s->slot_key[h]) s->slot_key[h] = k, s->slot_first[h] = LZ_NIL;
    s->next[i] = LZ_NIL;
    if (s->slot_first[h] == LZ_NIL) s->slot_first[h] = (uint32_t)i;
    else s->next[last[h]] = (uint32_t)i;
    last[h] = (uint32_t)i;
    s->slot_count[h]++;
  }
  /* Asked-for keys the lines lack stay in the table with no lines, so lookups of them are quick. */
  return EC_OK;
}

uint32_t ec_lz_side_first(const ec_lz_side *s, uint64_t key, uint32_t *count) {
  *count = 0;
  if (!s->slot_key) return LZ_NIL;
  size_t h = (size_t)(key ^ (key >> 32)) & s->mask;
  while (s->slot_key[h]) {
    if (s->slot_key[h] == key) {
      *count = s->slot_count[h];
      return s->slot_first[h];
    }
    h = (h + 1) & s->mask;
  }
  if (s->restricted) {
    /* A key outside the query set: counted by a scan, its chain linked on the way (those lines'
     * `next` is set by no one else), so a walk over it is sound; many such lines are asked for
     * after ec_lz_side_map_all, not here (a scan of the file each). */
    uint32_t first = LZ_NIL;
    for (size_t i = s->n; i-- > 0;)
      if (s->key[i] == key) { s->next[i] = first; first = (uint32_t)i; (*count)++; }
    return first;
  }
  return LZ_NIL;
}

/* One line's fields. */
static void fill_line(ec_lz_side *s, size_t i, ec_str l) {
  s->line[i] = l;
  size_t k = 0;
  while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
  s->indent[i] = (uint32_t)k;
  ec_str t = ec_lz_trim(ec_str_make(l.ptr + k, l.len - k));
  uint64_t h = ec_hash_bytes(t.ptr ? t.ptr : "", t.len);
  s->key[i] = h ? h : 1;
  s->flags[i] = !t.len ? (uint8_t)(LZ_BLANK | LZ_WEAK) : is_weak(t) ? (uint8_t)LZ_WEAK : 0;
  s->spaced |= !t.len && l.len;
}

/* An empty side of n lines: every per-line field allocated (flags zeroed), no map. */
static ec_error_code alloc_lines(ec_arena *a, ec_lz_side *s, size_t n) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->line = ec_arena_alloc(a, (n + 1) * sizeof *s->line);
  s->key = ec_arena_alloc(a, (n + 1) * sizeof *s->key);
  s->indent = ec_arena_alloc(a, (n + 1) * sizeof *s->indent);
  s->flags = ec_arena_calloc(a, n + 1, 1);
  return !s->line || !s->key || !s->indent || !s->flags ? EC_OUT_OF_MEMORY : EC_OK;
}

/* Splits LF text into lines (a CR before the LF is left out) and fills every field but the map. */
static ec_error_code split(ec_arena *a, ec_str text, size_t n_lf, ec_lz_side *s) {
  size_t n = n_lf != SIZE_MAX ? n_lf : text.len ? ec_count_lf(text.ptr, text.len) : 0;
  if (text.len && text.ptr[text.len - 1] != '\n') n++;
  if (alloc_lines(a, s, n)) return EC_OUT_OF_MEMORY;
  size_t k = 0, i = 0;
  while (i < text.len) {
    if (k >= n) return split(a, text, SIZE_MAX, s); /* a wrong hint (a true count never gets here): count */
    const char *lf = memchr(text.ptr + i, '\n', text.len - i);
    size_t e = lf ? (size_t)(lf - text.ptr) : text.len, le = e;
    if (le > i && text.ptr[le - 1] == '\r') { le--; s->cr = true; }
    fill_line(s, k++, ec_str_make(text.ptr + i, le - i));
    i = e + 1;
  }
  s->n = k;
  return EC_OK;
}

ec_error_code ec_lz_side_build_keyed(ec_arena *a, ec_str text, size_t n_lf, const uint64_t *qkeys, size_t nq, ec_lz_side *s) {
  ec_error_code rc = split(a, text, n_lf, s);
  if (rc) return rc;
  s->restricted = true;
  return build_map(a, s, qkeys, nq);
}

ec_error_code ec_lz_side_map_all(ec_arena *a, ec_lz_side *s) {
  if (!s->restricted) return EC_OK;
  s->restricted = false;
  return build_map(a, s, NULL, s->n);
}

ec_error_code ec_lz_side_from_lines(ec_arena *a, const ec_str *lines, size_t n, ec_lz_side *s) {
  if (alloc_lines(a, s, n)) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < n; i++) fill_line(s, i, lines[i]);
  return build_map(a, s, NULL, s->n);
}

ec_error_code ec_lz_side_lines(ec_arena *a, ec_str text, ec_lz_side *out) { return split(a, text, SIZE_MAX, out); }

ec_error_code ec_lz_side_build(ec_arena *a, ec_str text, ec_lz_side *out) {
  ec_error_code rc = split(a, text, SIZE_MAX, out);
  return rc ? rc : build_map(a, out, NULL, out->n);
}
