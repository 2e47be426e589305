/*
 * The block each line belongs to, read from indentation alone, the same way on every side (the
 * file, the snippet, the merged result), so that the self-check can ask whether a line kept from
 * the file still belongs to the block it belonged to (issue 21: blocks closed by keywords — Lua's
 * and Ruby's `end`, shell's `fi`/`done`/`esac` — and Python's indentation-only blocks, which the
 * bracket count cannot see).
 *
 * A line's owner is the line that opens its block:
 *   - for a closing line (`}`, `end`, `fi`, `done`, `esac`, `until`, a closing tag `</div>`, and continuations such as
 *     `} else {`, `else`, `elif x:`, `rescue`, `except E:`): the nearest line above at its
 *     indentation or shallower — the line it closes or continues;
 *   - for any other line: the nearest line above that is shallower — its opener;
 * and a continuation stands for the block it continues (its own owner is that block's opener), so
 * a body line under `} else {` belongs to the `if`. Blank and comment-only lines take no part, nor
 * do the lines of a multi-line string (a Lua `[[`, a `"""` docstring, a template literal, a
 * heredoc), whose columns are text.
 * One pass with a stack of open lines: linear.
 */
#include "lazy.h"
#include <ctype.h>

static bool word_at(ec_str t, const char *w) {
  size_t n = 0;
  while (w[n]) {
    if (n >= t.len || t.ptr[n] != w[n]) return false;
    n++;
  }
  return t.len == n || !(isalnum((unsigned char)t.ptr[n]) || t.ptr[n] == '_');
}

/* ec_lz_owner_skip on a trimmed line. */
static bool skip_trimmed(ec_str t) {
  if (!t.len) return true;
  char c = t.ptr[0];
  if (c != '#' && c != '/' && c != '*' && c != '-') return false;
  if (ec_lz_comment_only(t)) return true;
  /* `--` comments (Lua, SQL, Haskell) and the `*` lines of a block comment. */
  if (t.ptr[0] == '*' && (t.len == 1 || t.ptr[1] == ' ' || t.ptr[1] == '/')) return true;
  return t.len >= 2 && t.ptr[0] == '-' && t.ptr[1] == '-' && (t.len == 2 || t.ptr[2] == ' ' || t.ptr[2] == '[' || t.ptr[2] == '-');
}

bool ec_lz_owner_skip(ec_str line) { return skip_trimmed(ec_lz_trim(line)); }

bool ec_lz_comment_line(ec_str line) {
  ec_str t = ec_lz_trim(line);
  if (t.len && t.ptr[0] == '#') return t.len == 1 || t.ptr[1] == ' ' || t.ptr[1] == '#';
  return skip_trimmed(t);
}


/* 1: a closing line; 2: a continuation (closes, and opens the block's next part). */
static int closing_kind_t(ec_str t) {
  /* A line that starts by closing a bracket (`}`, `})`, `) {`, `} else {`); one that closes a
   * bracket later (`2)` ending a call's hanging arguments) is a line of that call's block. */
  if (t.len && (t.ptr[0] == '}' || t.ptr[0] == ')' || t.ptr[0] == ']')) {
    int32_t lowest, net = ec_lz_bracket_scan(t, &lowest);
    return net > lowest ? 2 : 1;
  }
  /* A closing tag (`</section>`, `</div>`): markup's `}`. */
  if (t.len > 1 && t.ptr[0] == '<' && t.ptr[1] == '/') return 1;
  /* Every word below starts with one of these letters: most lines are out after one test. */
  if (!t.len || !strchr("efdurc", t.ptr[0])) return 0;
  static const char *const END[] = {"end", "fi", "done", "esac", "until", NULL};
  static const char *const CONT[] = {"else", "elif", "elsif", "elseif", "rescue", "ensure", "except", "finally", NULL};
  for (size_t k = 0; END[k]; k++)
    if (word_at(t, END[k])) return 1;
  for (size_t k = 0; CONT[k]; k++)
    if (word_at(t, CONT[k])) return 2;
  return 0;
}

/* Multi-line string state: what ends the string the next line is in. */
typedef struct strstate {
  int kind;           /* 0 none, 1 `]]` (Lua long string), 2 `"""`, 3 `'''`, 4 backtick, 5 heredoc */
  ec_str word;        /* the heredoc's end word */
} strstate;

/* Quotes and heredoc starts of one line, in one pass. */
typedef struct lineq {
  size_t dq3, sq3, ticks; /* triple double quotes, triple single quotes, unescaped backticks */
  const char *lt2;        /* the first `<<` */
  bool close2;            /* `]]` */
} lineq;

static lineq scan_quotes(ec_str t) {
  lineq q = {0, 0, 0, NULL, false};
  for (size_t i = 0; i < t.len; i++) {
    char c = t.ptr[i];
    if (c != '"' && c != '\'' && c != '`' && c != '<' && c != ']') continue;
    if ((c == '"' || c == '\'') && i + 2 < t.len && t.ptr[i + 1] == c && t.ptr[i + 2] == c) {
      if (c == '"') q.dq3++;
      else q.sq3++;
      i += 2;
    } else if (c == '`' && (!i || t.ptr[i - 1] != '\\')) q.ticks++;
    else if (c == '<' && !q.lt2 && i + 1 < t.len && t.ptr[i + 1] == '<') q.lt2 = t.ptr + i;
    else if (c == ']' && i + 1 < t.len && t.ptr[i + 1] == ']') q.close2 = true;
  }
  return q;
}

/* Whether line t (in no string at its start) leaves a multi-line string open, and which. */
static void string_opened(ec_str t, strstate *st) {
  /* A Lua long string opened at the line's end (`usage = [[`, `write([[`); `[[` inside a line is
   * as often a nested list. */
  if (t.len >= 2 && t.ptr[t.len - 1] == '[' && (t.ptr[t.len - 2] == '[' || t.ptr[t.len - 2] == '=')) { st->kind = 1; return; }
  lineq q = scan_quotes(t);
  if (q.dq3 % 2) { st->kind = 2; return; }
  if (q.sq3 % 2) { st->kind = 3; return; }
  if (q.ticks % 2) { st->kind = 4; return; }
  /* A heredoc: `<<EOF`, `<<-'END'`, `<<~SQL` — an upper-case word. */
  if (q.lt2) {
    const char *p = q.lt2 + 2, *e = t.ptr + t.len;
    if (p < e && (*p == '-' || *p == '~')) p++;
    if (p < e && (*p == '\'' || *p == '"')) p++;
    const char *w = p;
    while (p < e && (isupper((unsigned char)*p) || *p == '_')) p++;
    if (p - w >= 2) { st->kind = 5; st->word = ec_str_make(w, (size_t)(p - w)); }
  }
}

/* Whether line t closes the open string. */
static bool string_closed(ec_str t, const strstate *st) {
  if (st->kind == 5) {
    ec_str x = ec_lz_trim(t);
    return x.len == st->word.len && !memcmp(x.ptr, st->word.ptr, x.len);
  }
  lineq q = scan_quotes(t);
  switch (st->kind) {
  case 1: return q.close2;
  case 2: return q.dq3 % 2 == 1;
  case 3: return q.sq3 % 2 == 1;
  case 4: return q.ticks % 2 == 1;
  default: return true;
  }
}

size_t ec_lz_owners(const void *base, size_t stride, size_t n, size_t from, size_t until, uint32_t tab, uint32_t *owner, uint32_t *stack,
                    size_t *seed) {
#define LINE(i) (*(const ec_str *)((const char *)base + (size_t)(i) * stride))
  /* stack: open lines as (index, columns) pairs, their columns strictly rising; an index's top
   * bit says the line continues a block (`} else {`). */
  const uint32_t CONT = 0x80000000u;
  size_t top = 0;
  strstate st = {0, {NULL, 0}};
  /* The open lines above `from`: the nearest line, the nearest shallower one above it, and so on
   * (what the pass from line 0 would hold there), looked for up to 4000 lines up. */
  uint32_t up = UINT32_MAX;
  for (size_t i = from, steps = 0; i-- > 0 && steps < 4000 && up; steps++) {
    if (ec_lz_owner_skip(LINE(i))) continue;
    uint32_t c = ec_lz_cols(LINE(i), tab);
    if (c >= up) continue;
    up = c;
    stack[2 * top] = (uint32_t)i;
    stack[2 * top + 1] = c;
    top++;
  }
  *seed = top ? stack[2 * (top - 1)] : from;
  for (size_t a = 0, b = top; a + 1 < b; a++, b--) { /* nearest last */
    uint32_t t0 = stack[2 * a], t1 = stack[2 * a + 1];
    stack[2 * a] = stack[2 * (b - 1)], stack[2 * a + 1] = stack[2 * (b - 1) + 1];
    stack[2 * (b - 1)] = t0, stack[2 * (b - 1) + 1] = t1;
  }
  for (size_t i = from; i < n; i++) {
    owner[i] = EC_LZ_SKIP;
    /* The lines of a multi-line string (a Lua long string, a docstring, a template literal, a
     * heredoc), its closing line too, are text, not code: their columns say nothing. */
    if (st.kind) {
      if (string_closed(LINE(i), &st)) st.kind = 0;
      continue;
    }
    ec_str l = LINE(i), t = ec_lz_trim(l);
    if (skip_trimmed(t)) continue;
    string_opened(t, &st);
    uint32_t c = 0;
    for (const char *p = l.ptr; p < t.ptr; p++) c = *p == '\t' ? c + tab - c % tab : c + 1;
    int kind = closing_kind_t(t);
    /* A closing line: the nearest line at its depth or shallower; else the nearest shallower. */
    while (top && stack[2 * top - 1] > c) top--;
    if (!kind)
      while (top && stack[2 * top - 1] >= c) top--;
    uint32_t par = EC_LZ_NONE;
    if (top) {
      uint32_t near = stack[2 * top - 2] & ~CONT;
      par = (stack[2 * top - 2] & CONT) && near >= from && owner[near] < EC_LZ_SKIP ? owner[near] : near;
    }
    owner[i] = par;
    while (top && stack[2 * top - 1] >= c) top--;
    stack[2 * top] = (uint32_t)i | (kind == 2 ? CONT : 0);
    stack[2 * top + 1] = c;
    top++;
    /* Past `until`, a line that closes every open block: the lines after it belong to it or below it. */
    if (i >= until && top == 1) return i + 1;
  }
  return n;
#undef LINE
}

bool ec_lz_is_closing(ec_str line) { return closing_kind_t(ec_lz_trim(line)) != 0; }

bool ec_lz_is_continuation(ec_str line) { return closing_kind_t(ec_lz_trim(line)) == 2; }

/* Whole blocks left out between two lines a snippet shows side by side (lazy.h). */
size_t ec_lz_whole_blocks(const ec_lz_side *F, size_t from, size_t to, size_t next) {
  if (next >= F->n || from >= to) return 0;
  size_t first = from;
  while (first < to && (F->flags[first] & LZ_BLANK)) first++;
  if (first >= to || F->indent[first] != F->indent[next] || ec_lz_bracket_net(F->line[first]) < 0) return 0;
  int32_t depth = 0;
  size_t last = first, blocks = 0;
  for (size_t i = first; i < to; i++) {
    if (F->flags[i] & LZ_BLANK) continue;
    if (F->indent[i] < F->indent[first]) return 0;
    /* A block starts a paragraph at the blocks' indentation (a body's blank lines are followed by
     * deeper lines, a decorator by its definition), and is no comment and no `end` or `else`. */
    blocks += F->indent[i] == F->indent[first] && (i == first || (F->flags[i - 1] & LZ_BLANK)) &&
              !ec_lz_comment_only(F->line[i]) && !ec_lz_is_closing(F->line[i]);
    depth += ec_lz_bracket_net(F->line[i]);
    if (depth < 0) return 0;
    last = i;
  }
  /* A block closed at its opener's indentation (`}`, `end`), or an indented body ended by the
   * next line at the opener's indentation (Python). */
  return depth == 0 && (F->indent[last] == F->indent[first] || F->indent[last] > F->indent[first]) ? blocks + !blocks : 0;
}
