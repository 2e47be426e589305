/*
 * Counterparts: a changed line the model wrote in place of a file line. Two lines are
 * counterparts when their heads agree (the text before the first `( = : { [ < ,`, e.g.
 * `def read_landing_page`, `const limit`, `divide`) and the head says more than a keyword, or
 * when one line extends the other at a token boundary (`from x import A` -> `from x import A, B`).
 */
#include "lazy.h"
#include "../base/str.h"

static bool ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         (unsigned char)c >= 0x80;
}

ec_str ec_lz_head(ec_str line) {
  ec_str t = ec_lz_trim(line);
  size_t k = 0;
  while (k < t.len && !strchr("(=:{[<,", t.ptr[k])) k++;
  ec_str h = ec_lz_trim(ec_str_make(t.ptr, k));
  /* Compound assignment operators: `x += 1` has head `x`. */
  while (h.len && strchr("+-*/%|&^!?.", h.ptr[h.len - 1])) h.len--;
  h = ec_lz_trim(h);
  bool alnum = false;
  for (size_t i = 0; i < h.len; i++)
    if (ident(h.ptr[i])) alnum = true;
  if (!alnum || h.len < 3) return ec_str_make(NULL, 0);
  static const char *const KW[] = {"return", "if", "else", "elif", "else if", "for", "while", "switch", "case", "throw", "raise",
                                   "yield", "await", "print", "assert", "import", "from", "export", "const", "let", "var",
                                   "def", "function", "class", "try", "catch", "except", "with", "do", "new", "delete",
                                   "echo", "puts", "local", "static", "public", "private", "protected", "async", "pub",
                                   "fn", "func", "self", "this", "super", "console.log", "printf", "println!", "print!",
                                   "fmt.Println", "fmt.Printf", "log", "require", "include", "#include", "@app.get",
                                   "@app.post", "@pytest.mark.parametrize", "@property", "elseif", "foreach", "until",
                                   "unless", "defer", "go", "emit", "type", "interface", "struct", "enum", "module", NULL};
  for (size_t i = 0; KW[i]; i++)
    if (ec_str_eq_cstr(h, KW[i])) return ec_str_make(NULL, 0);
  return h;
}

bool ec_lz_counterparts(ec_str a, ec_str b) {
  ec_str ta = ec_lz_trim(a), tb = ec_lz_trim(b);
  if (!ta.len || !tb.len || ec_str_eq(ta, tb)) return false;
  ec_str ha = ec_lz_head(a), hb = ec_lz_head(b);
  if (ha.len && ec_str_eq(ha, hb)) return true;
  ec_str s = ta.len < tb.len ? ta : tb, l = ta.len < tb.len ? tb : ta;
  if (s.len >= 12 && !memcmp(s.ptr, l.ptr, s.len) && !ident(l.ptr[s.len]) && ident(s.ptr[s.len - 1])) return true;
  return false;
}
