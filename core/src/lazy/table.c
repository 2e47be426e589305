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
  static const char *const KW[] = {"end", "end;", "end)", "end,", "fi", "done", "esac", "else", "else:", "} else {",
                                   "try:", "finally:", "break;", "break", "continue;", "continue", "return;",
                                   "return", "pass", "endif", "endfor", "endwhile", "default:", NULL};
  for (size_t i = 0; KW[i]; i++)
    if (ec_str_eq_cstr(t, KW[i])) return true;
  return false;
}

static ec_error_code build_map(ec_arena *a, ec_lz_side *s) {
  size_t cap = 16;
  while (cap < s->n * 2 + 16) cap <<= 1;
  s->mask = cap - 1;
  s->slot_key = ec_arena_calloc(a, cap, sizeof *s->slot_key);
  s->slot_first = ec_arena_alloc(a, cap * sizeof *s->slot_first);
  s->slot_count = ec_arena_calloc(a, cap, sizeof *s->slot_count);
  s->next = ec_arena_alloc(a, (s->n + 1) * sizeof *s->next);
  uint32_t *last = ec_arena_alloc(a, cap * sizeof *last);
  if (!s->slot_key || !s->slot_first || !s->slot_count || !s->next || !last) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < s->n; i++) {
    s->next[i] = LZ_NIL;
    uint64_t k = s->key[i];
    size_t h = (size_t)(k ^ (k >> 32)) & s->mask;
    while (s->slot_key[h] && s->slot_key[h] != k) h = (h + 1) & s->mask;
    if (!s->slot_key[h]) {
      s->slot_key[h] = k;
      s->slot_first[h] = (uint32_t)i;
    } else {
      s->next[last[h]] = (uint32_t)i;
    }
    last[h] = (uint32_t)i;
    s->slot_count[h]++;
  }
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
  return LZ_NIL;
}

ec_error_code ec_lz_side_from_lines(ec_arena *a, const ec_str *lines, size_t n, ec_lz_side *s) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->line = ec_arena_alloc(a, (n + 1) * sizeof *s->line);
  s->key = ec_arena_alloc(a, (n + 1) * sizeof *s->key);
  s->indent = ec_arena_alloc(a, (n + 1) * sizeof *s->indent);
  s->flags = ec_arena_calloc(a, n + 1, 1);
  if (!s->line || !s->key || !s->indent || !s->flags) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < n; i++) {
    ec_str l = lines[i];
    s->line[i] = l;
    size_t k = 0;
    while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
    s->indent[i] = (uint32_t)k;
    ec_str t = ec_lz_trim(l);
    s->key[i] = ec_lz_key(l);
    if (!t.len) s->flags[i] |= LZ_BLANK | LZ_WEAK;
    else if (is_weak(t)) s->flags[i] |= LZ_WEAK;
  }
  return build_map(a, s);
}

ec_error_code ec_lz_side_build(ec_arena *a, ec_str text, ec_lz_side *out) {
  size_t n = 0;
  for (size_t i = 0; i < text.len; i++)
    if (text.ptr[i] == '\n') n++;
  if (text.len && text.ptr[text.len - 1] != '\n') n++;
  ec_str *lines = ec_arena_alloc(a, (n + 1) * sizeof *lines);
  if (!lines) return EC_OUT_OF_MEMORY;
  size_t k = 0, i = 0;
  while (i < text.len) {
    const char *nl = memchr(text.ptr + i, '\n', text.len - i);
    size_t e = nl ? (size_t)(nl - text.ptr) : text.len;
    size_t le = e;
    if (le > i && text.ptr[le - 1] == '\r') le--;
    lines[k].ptr = text.ptr + i;
    lines[k].len = le - i;
    k++;
    i = e + 1;
  }
  return ec_lz_side_from_lines(a, lines, k, out);
}
