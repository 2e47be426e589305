#define _GNU_SOURCE 1
/*
 * Marker recognition. A marker is a line that stands for unchanged code: a comment in any
 * syntax (`//`, `#`, C block comments, `<!-- -->`, `--`, `;`, `%`, `(* *)`, `'`, JSX `{` + block comment + `}`) whose
 * text is an ellipsis with an optional wording ("... existing code ...", "... rest of the
 * file ...", any few words between two ellipses: "... helpers ...") or one of the usual wordings without dots ("existing code", "rest of the file",
 * "unchanged"), or a bare `...`/`…` line. The comment syntax need not be the file's language:
 * models put `//` markers in Python. Callers treat a marker-looking line that the file itself
 * holds as literal text (a real comment), which keeps real code from being mistaken for one.
 */
#include "lazy.h"
#include "../base/str.h"
#include <ctype.h>




/* Substring search in a short body already lowercased (the words are lowercase). */
static bool has_word(ec_str lower_body, const char *w) {
  return memmem(lower_body.ptr, lower_body.len, w, strlen(w)) != NULL;
}

/* Whether any word of a NULL-ended list is in the lowercased body. */
static bool has_any_word(ec_str lower_body, const char *const *words) {
  for (size_t i = 0; words[i]; i++)
    if (has_word(lower_body, words[i])) return true;
  return false;
}

/* A comment's body lowercased into low (the body is within a line of at most 200 bytes). */
static ec_str lowered(ec_str body, char low[200]) {
  for (size_t i = 0; i < body.len; i++) low[i] = (char)tolower((unsigned char)body.ptr[i]);
  return (ec_str){low, body.len};
}

/* Dots: "..." or the Unicode ellipsis "…" (E2 80 A6). */
static size_t dots_at(ec_str s, size_t i) {
  if (i + 3 <= s.len && !memcmp(s.ptr + i, "...", 3)) {
    size_t k = i;
    while (k < s.len && s.ptr[k] == '.') k++;
    return k - i;
  }
  if (i + 3 <= s.len && !memcmp(s.ptr + i, "\xE2\x80\xA6", 3)) return 3;
  return 0;
}

static bool only_dots(ec_str s) {
  bool any = false;
  size_t i = 0;
  while (i < s.len) {
    size_t d = dots_at(s, i);
    if (d) { any = true; i += d; continue; }
    if (s.ptr[i] == ' ' || s.ptr[i] == '.') { i++; continue; }
    return false;
  }
  return any;
}

bool ec_lz_has_ellipsis(ec_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (dots_at(s, i)) return true;
  return false;
}

/* Whether s ends with "..." or "…". */
static bool ends_with_dots(ec_str s) {
  return ec_str_ends_with(s, "...") || ec_str_ends_with(s, "\xE2\x80\xA6");
}

/* Wordings that name omitted code, with dots around them; the last ones French, Spanish, Portuguese
 * and Chinese (`Reste de l'UI identique...`, `... mantidos ...`, 保持不变: the wild set's markers,
 * written into the file as comments before issue 30's twentieth pass). */
static const char *const DOT_WORDS[] = {"existing", "rest of", "unchanged", "same", "remaining", "remainder", "previous",
                                        "other ", "omitted", "keep", "kept", "as before", "original", "more ", "code",
                                        "lines", "method", "function", "import", "etc", "here", "above", "below",
                                        "existant", "reste", "identique", "inchang", "igual", "resto", "demás", "mantid",
                                        "\xE4\xBF\x9D\xE6\x8C\x81\xE4\xB8\x8D\xE5\x8F\x98", NULL};
/* Words that hedge a note or a marker's wording: the code it speaks of is not quite as it was. */
static const char *const HEDGE[] = {"but ", "mais", "pero", "except", "quasi", "almost", "similar", "should", "mostly", "largely", NULL};

/* Wordings strong enough without dots. */
static const char *const BARE_WORDS[] = {"existing code", "rest of the", "rest of code", "rest of file", "unchanged",
                                         "remains the same", "same as before", "existing imports", "existing methods",
                                         "existing functions", "existing implementation", NULL};

/* The words of the two lists above by their first 4 letters (`exis`, `rest`, `unch`, `rema`,
 * `func`, `impl`...), then the filler models wrap them in (`your`, `this`, `still`, `left`,
 * `snip`): read by ec_lz_elision_word. Kept beside the lists: a wording added there adds its
 * words here. (Derived from the lists at run time it cost 83 B of editcore.wasm's budget.) */
static const char ELISION_HEADS[] = "exiscoderestunchsameremaprevotheomitkeepkeptbefoorigmorelinemethfuncimpo"
                                    "hereabovbelofileimplchanyourthisthatthesthoswithfromwerestilstaycont"
                                    "partleftalresectlogigoestheythersnipideninchiguamant";

bool ec_lz_elision_word(const char *w) {
  for (size_t i = 0; i + 4 < sizeof ELISION_HEADS; i += 4)
    if (!memcmp(w, ELISION_HEADS + i, 4)) return true;
  return false;
}

static size_t word_count(ec_str s) {
  size_t n = 0;
  bool in = false;
  for (size_t i = 0; i < s.len; i++) {
    bool w = !ec_is_ws(s.ptr[i], EC_WS_HSPACE);
    if (w && !in) n++;
    in = w;
  }
  return n;
}

/* The text of a comment line between its opener and closer (`// x`, a block comment, `<!-- x -->`, `# x`,
 * `-- x`, ...), trimmed; false when the line does not open with a comment. Repeated opener
 * characters (`///`, `##`) are folded. */
static bool comment_body(ec_str t, ec_str *body) {
  if (!t.len) return false;
  /* Every opener below starts with one of these bytes: most code lines stop here. */
  switch (t.ptr[0]) {
    case '{': case '/': case '<': case '-': case '#': case ';': case '%': case '(': case '\'': break;
    default: return false;
  }
  /* Comment openers, longest first. */
  static const char *const OPEN[] = {"{/*", "/*", "//", "<!--", "--", "#", ";", "%", "(*", "'", NULL};
  static const char *const CLOSE[] = {"*/}", "*/", "-->", "*)", "--", NULL};
  bool opened = false;
  for (size_t i = 0; OPEN[i]; i++) {
    if (ec_str_starts_with(t, OPEN[i])) {
      size_t n = strlen(OPEN[i]);
      t.ptr += n;
      t.len -= n;
      char c = OPEN[i][n - 1];
      bool star = memchr(OPEN[i], '*', n) != NULL;
      while (t.len && (t.ptr[0] == c || (star && t.ptr[0] == '*'))) {
        t.ptr++;
        t.len--;
      }
      opened = true;
      break;
    }
  }
  if (!opened) return false;
  for (size_t i = 0; CLOSE[i]; i++)
    if (ec_str_ends_with(t, CLOSE[i])) { t.len -= strlen(CLOSE[i]); break; }
  *body = ec_lz_trim(t);
  return true;
}

/* The text of a comment line of at most 200 bytes (the notes' and labels' readings below). */
static bool comment_text(ec_str line, ec_str *body) {
  ec_str t = ec_lz_trim(line);
  return t.len <= 200 && comment_body(t, body);
}

/* Dots in brackets: `[...]`, `(...)`, `{…}`, `<...>`. */
static bool bracketed_dots(ec_str s) {
  if (s.len < 5) return false;
  char o = s.ptr[0], c = s.ptr[s.len - 1];
  if (!((o == '[' && c == ']') || (o == '(' && c == ')') || (o == '{' && c == '}') || (o == '<' && c == '>'))) return false;
  return only_dots(ec_lz_trim(ec_str_make(s.ptr + 1, s.len - 2)));
}

/* A line past its indentation, no-break spaces (U+00A0) among it: code pasted from a web page is
 * indented with them, and a model answering over such a file indents its markers the same way
 * (issue 30, twenty-fourth pass: read as code, the marker was written into the file in place of
 * the lines it stands for). */
static ec_str past_indent(ec_str l) {
  size_t k = 0;
  for (;;) {
    if (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
    else if (k + 1 < l.len && (unsigned char)l.ptr[k] == 0xC2 && (unsigned char)l.ptr[k + 1] == 0xA0) k += 2;
    else return ec_str_make(l.ptr + k, l.len - k);
  }
}

bool ec_lz_is_marker(ec_str line, const ec_str *above) {
  ec_str t = ec_lz_trim(past_indent(line));
  if (!t.len || t.len > 200) return false;
  if (only_dots(t)) return above;
  ec_str body;
  if (!comment_body(t, &body) || !body.len) return false;
  if (only_dots(body) || bracketed_dots(body)) return true;
  /* Words count the dots too. 12, swept (bench/threshold_sweep.mjs; ACCURACY.md, "Thresholds"):
   * 8-12 give the same results; at 16 the 15-word `// ... a long sentence that explains ... ...`
   * (a comment, lazy_test) becomes a marker. */
  if (word_count(body) > 12) return false;
  /* In a snippet, an ellipsis then words in any language (`// ...autres états`, `# ... le reste de
   * la fonction`; issue 30, eighth pass), unless the comment goes on from a comment line right
   * above it in the same syntax (`// ...and the bar still counts`; a `#` line or a closed block
   * comment above a `//` line is another comment), or words right after the dots end as code
   * does (commented-out code spreading an object: `//   ...options,`, `// ...load(id)`). */
  size_t d = dots_at(body, 0);
  if (d && above) {
    ec_str a = ec_lz_trim(*above);
    bool code = a.len >= 2 && !memcmp(a.ptr, t.ptr, 2) && comment_body(a, &a);
    code |= body.ptr[d] != ' ' && strchr(",;)}]", body.ptr[body.len - 1]);
    if (!code) return true;
  }
  /* Text between two ellipses says it is left out, whatever its words (`// ... helpers and
   * setup ...`, `// ... (snip) ...`): read as code, it is written into the file, and the code it
   * stands for is taken for removed between the lines around it. At most 8 words, swept: 6-12 give
   * the same results; at 4 the 5-word `// ... helpers and setup ...` is no marker (135 variants of
   * the set lost, lazy_test fails), at 0 270 variants, a conformance vector and 3 unit checks. 8
   * keeps room over the longest wording seen, under the 12-word cap above. */
  if (d && word_count(body) <= 8 && ends_with_dots(body)) return true;
  /* With dots ("... existing code ...", "...rest of the file", "(keep) ...") a light wording
   * will do; without, a short comment must say it plainly. */
  bool dots = ec_lz_has_ellipsis(body);
  /* 7 words, swept (ACCURACY.md, "Thresholds"): 5-9 the same; no bare wording at all loses 136
   * variants of the set, 34 of them merged WRONG (`// existing code unchanged` read as code). */
  if (!dots && word_count(body) > 7) return false;
  char low[200];
  ec_str lower = lowered(body, low);
  /* Hedged, plain words are a label over code the answer writes, not an elision (`// Maintenance
   * logic (mostly unchanged)` over the effect written out: dropped as a marker, it lost the line
   * and a blank line; issue 30, twenty-third pass). */
  return has_any_word(lower, dots ? DOT_WORDS : BARE_WORDS) && (dots || !has_any_word(lower, HEDGE));
}

/* In plain words (no ellipsis: with one, a comment that says code is left out is a marker or
 * refused, ec_lz_looks_elided), that the rest of the code goes on as it is ("Rest of your code
 * continues here (commit, history entry, etc.)", "O resto do seu código continua igual, ...";
 * issue 30, twenty-first pass), unless it hedges ("reste quasiment identique mais ...") and
 * `hedged` is false: a hedged one is no marker, but still a note to the reader (twenty-second
 * pass). The body lowercased. */
static bool rest_goes_on(ec_str body, ec_str lower, bool hedged) {
  static const char *const REST[] = {"rest of", "resto", "reste", NULL},
                           *const GOES[] = {"remain", "stay", "same", "unchanged", "continu", "igual", "identique", "inchang", NULL};
  return !ec_lz_has_ellipsis(body) && has_any_word(lower, REST) && has_any_word(lower, GOES) && (hedged || !has_any_word(lower, HEDGE));
}

bool ec_lz_stays_note(ec_str line, bool any_length) {
  ec_str body;
  /* Opening with an ellipsis it says what is left out, however long (`// ... handleCopy,
   * handleDownload remain the same but are not shown here for brevity if not changing`). */
  if (!comment_text(line, &body) || (word_count(body) > 12 && !dots_at(body, 0) && !any_length)) return false;
  static const char *const STAY[] = {"remain", "stay", NULL}, *const SAME[] = {"same", "unchanged", NULL};
  char low[200];
  ec_str lower = lowered(body, low);
  return (has_any_word(lower, STAY) && has_any_word(lower, SAME)) || rest_goes_on(body, lower, false);
}

bool ec_lz_reader_note(ec_str line) {
  ec_str body;
  if (!comment_text(line, &body)) return false;
  char low[200];
  ec_str lower = lowered(body, low);
  /* Words that speak of the answer or of the reader's own copy of the code, not of the code: a
   * comparison with it ("same as your original", "as in your existing code"), the answer itself
   * ("for brevity in this snippet", "from previous message"), or a request to keep code as it is
   * ("Keep the data as is"; not "as-is" or "keep it" alone: "This function as-is works for ...",
   * "keep it simple" are comments about code). Issue 30, twenty-third pass. */
  static const char *const READER[] = {"your original", "your existing", "your previous", "same as your", "for brevity",
                                       "this snippet", "previous message", NULL},
                           *const KEEP[] = {"keep", "kept", "leave", NULL}, *const AS_IS[] = {"as is", "as-is", NULL};
  return rest_goes_on(body, lower, true) || has_any_word(lower, READER) || (has_any_word(lower, KEEP) && has_any_word(lower, AS_IS));
}

bool ec_lz_marker_label(ec_str line) {
  ec_str body;
  if (!comment_text(line, &body) || !ec_lz_has_ellipsis(body)) return false;
  char low[200];
  ec_str lower = lowered(body, low);
  if (has_any_word(lower, DOT_WORDS)) return false;
  for (size_t i = 0; i < lower.len; i++)
    if (lower.ptr[i] >= 'a' && lower.ptr[i] <= 'z') return true;
  return false;
}

bool ec_lz_holds_marker(ec_str line) {
  ec_str t = ec_lz_trim(line);
  for (size_t i = 1; i + 1 < t.len; i++) {
    if (t.ptr[i] != '/' || t.ptr[i - 1] != ' ') continue;
    /* The rest of the line from there: a block comment's text still starts with its dots. */
    if (ec_lz_looks_elided(ec_str_make(t.ptr + i, t.len - i))) return true;
  }
  return false;
}

bool ec_lz_looks_elided(ec_str line) {
  ec_str body;
  if (!comment_text(line, &body)) return false;
  /* Between two ellipses, any number of words says code is left out (a JSX comment `... Resto de
   * tus inputs (...) se quedan igual ...`: 13 words, no marker, written as code it lost a form's
   * fields); one of them, at most 12 words (the markers' cap); an opening one and a plain elision
   * wording, any number (`// ... rest of the logic remains for UI display but won't execute
   * transactions`, 14 words, written as code it lost a handler's body: issue 30, nineteenth pass;
   * not `// ...which is why the second attempt waits ...`, prose). */
  size_t open = dots_at(body, 0);
  bool close = ends_with_dots(body);
  char low[200];
  if ((open && close) || ((open || close) && word_count(body) <= 12) || (open && has_any_word(lowered(body, low), BARE_WORDS))) return true;
  /* Dots and then a parenthesis open an aside about code left out, however long (`// ... (el resto
   * de las rutas no necesita cambios, ya que llaman a controladores`, going on below). */
  size_t k = open;
  while (k < body.len && body.ptr[k] == ' ') k++;
  return open && k < body.len && body.ptr[k] == '(';
}

bool ec_lz_text_has_markers(ec_arena *a, ec_str text, ec_str file) {
  ec_lz_side fs = {0};
  bool have_file = false;
  size_t i = 0;
  while (i < text.len) {
    const char *nl = memchr(text.ptr + i, '\n', text.len - i);
    size_t e = nl ? (size_t)(nl - text.ptr) : text.len;
    ec_str ln = {text.ptr + i, e - i};
    if (ec_lz_is_marker(ln, NULL)) {
      if (!file.len) return true;
      if (!have_file) {
        if (ec_lz_side_build(a, file, &fs)) return true; /* out of memory: err on the safe side */
        have_file = true;
      }
      uint32_t cnt = 0;
      ec_lz_side_first(&fs, ec_lz_key(ln), &cnt);
      if (!cnt) return true;
    }
    i = e + 1;
  }
  return false;
}
