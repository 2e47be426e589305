/*
 * Lazy snippets (SPEC §3 `lazy`): the model's new version of a file or of a region of it, with
 * unchanged code left out behind marker lines (`// ... existing code ...`). The pieces:
 *   marker.c   — is this line a marker? (any comment syntax, the usual wordings, a bare `...`)
 *   table.c    — a side (file or snippet) as trimmed-line hashes, indentation and a key map
 *   snippet.c  — the snippet's lines: fences stripped, markers found, segments, diff-style `+`/`-`
 *   anchor.c   — where each segment's lines sit in the file (unique lines, structure, runs)
 *   merge.c    — the merged text, edge rules, re-indentation, and the decline rules
 *   verify.c   — the merge checks itself before it answers: the result must read as a faithful
 *                merge of the snippet (segments in order, markers as unchanged runs, removals
 *                only inside what the snippet spans), else a decline naming segment and place
 *   diffstyle.c — snippets written as `+`/`-` lines
 *   indent.c   — bracket depth of a line, indent units (tabs/spaces, columns per level)
 *   owners.c   — the block each line belongs to, by indentation (what verify.c asks of blocks
 *                closed by keywords or by indentation alone)
 * Everything is near-linear: lines are compared by hashes of their trimmed text, never rescanned
 * per candidate, and every loop that could grow with file size × snippet size has a work budget.
 */
#ifndef EC_LAZY_LAZY_H
#define EC_LAZY_LAZY_H
#include "../request/ctx.h"
#include "../base/buf.h"
#include "../base/str.h"

/* Line flags. */
enum { LZ_BLANK = 1, LZ_WEAK = 2, LZ_MARKER = 4, LZ_INFERRED = 8 /* diff style: a `+` the snippet left off, inferred */ };
/* How a snippet line found its file line. */
enum { LZ_NONE = 0, LZ_UNIQUE, LZ_RUN, LZ_STRUCT, LZ_COUNTERPART, LZ_EDGE };

typedef struct ec_lz_side {
  size_t n;
  ec_str *line;      /* the raw line, no LF */
  uint64_t *key;     /* hash of the trimmed line; never 0 */
  uint32_t *indent;  /* bytes of leading whitespace */
  uint8_t *flags;
  char *op;          /* snippet in diff style: ' ', '+', '-' (NULL otherwise) */
  /* key map: open addressing over keys; next[] chains lines with the same key in order */
  uint64_t *slot_key;
  uint32_t *slot_first, *slot_count;
  size_t mask;
  uint32_t *next;
  bool restricted;   /* map holds only the keys asked for (ec_lz_side_build_keyed) */
  bool cr;           /* some line lost a CR before its LF (lines are not one contiguous text) */
  bool spaced;       /* some blank line holds spaces or tabs (the side's habit) */
} ec_lz_side;

#define LZ_NIL UINT32_MAX

/** A line trimmed of its whitespace on both ends (not LF: a line holds none). */
static inline ec_str ec_lz_trim(ec_str s) { return ec_str_trim(s, EC_WS_HSPACE); }
/** A line as a message quotes it: trimmed, its first 80 bytes (decline.c). */
ec_str ec_lz_echo(ec_str line);
/** Whether a line is a lazy marker. `above`: the line above it in a snippet (empty at the
 *  snippet's start), which also accepts a line of only `...` and an ellipsis then words in any
 *  language (`// ...autres états`) unless the comment goes on from a comment line above; NULL
 *  for a line of a result. */
bool ec_lz_is_marker(ec_str line, const ec_str *above);
/** Whether a comment line reads like a marker whose wording ec_lz_is_marker does not take: its
 *  text starts or ends with an ellipsis (`// ... helpers`, `# setup ...`), or both at any length.
 *  Such a line written into the file as new code is most likely a marker read as code (verify.c
 *  declines it). */
bool ec_lz_looks_elided(ec_str line);
/** Whether a comment line says the code it is about stays, in at most 12 words (any number after
 *  an opening ellipsis) that need not read as a marker (a JSX comment "Other form fields remain
 *  largely the same", `# stays unchanged`; or, with no ellipsis and no hedge, that the rest goes
 *  on: "Rest of your code continues here"): a note to the answer's reader. A snippet drops such a
 *  note where it stands for nothing (the code it is about written out after it, snippet.c);
 *  elsewhere it is a line like any other, or a marker over code the file has there. Any number
 *  of words when any_length (right above a marker, whose wording it is). */
bool ec_lz_stays_note(ec_str line, bool any_length);
/** Whether a comment line is a note to the answer's reader, never a line of the file (verify.c
 *  declines writing one the file lacks): in plain words of any length, that the rest of the code
 *  goes on as it is ("Rest of your code continues here"), hedged or not ("Rest of the form fields
 *  remain the same, but use ..."); or words about the reader's copy or the answer ("same as your
 *  original", "for brevity in this snippet"), or that code is kept as is ("Keep the data as is"). */
bool ec_lz_reader_note(ec_str line);
/** Whether a line holds an ellipsis: `...` or `…` (marker.c). */
bool ec_lz_has_ellipsis(ec_str s);
/** Whether a marker names what it stands for in words of its own, none of the elision wordings
 * (`// ... Step generation helpers ...`, not `// ... existing code ...`): it reads as a section's
 * label as well (invariant i, headings.c). */
bool ec_lz_marker_label(ec_str line);
/** Whether a marker names code in words of its own: a word of 4 letters or more that no elision
 *  wording uses (`Configuration remains the same`, `(Existing Store Code: Stats, Action Bar)`;
 *  not `// ... existing code ...`; headings.c). */
bool ec_lz_names_code(ec_str marker);
/** Whether a line names an import, in any language (a loose yes or no; imports.c parses the names
 *  JavaScript and Python imports bind): `import`, `require`, `include`, or it opens with `use `
 *  (Rust, PHP) or `using ` (C#); headings.c. */
bool ec_lz_names_import(ec_str l);
/** Whether a lowercase word (its first 4 letters read) is one of the elision wordings' own (`existing`,
 *  `rest`, `unchanged`, `remains`) or the filler around them (`your`, `this`, `still`), not a name
 *  of the code a marker stands for (invariant i, headings.c). */
bool ec_lz_elision_word(const char *w);
/** Whether a code line holds a marker comment after its code (a block comment `... your existing
 * code ...` as a one-line body `() => { ... };`, `x(); // ... rest ...`): written as code, the
 * code it stands for is taken for removed. */
bool ec_lz_holds_marker(ec_str line);
/** Whether text (LF or CRLF) holds a comment marker line not present in `file` (may be empty). */
bool ec_lz_text_has_markers(ec_arena *a, ec_str text, ec_str file);

/** A side's lines, keys, indentation and flags from LF text, with no key map (a side read once,
 * never looked up in: 40 bytes a line less). */
ec_error_code ec_lz_side_lines(ec_arena *a, ec_str text, ec_lz_side *out);
/** Builds a side from LF text (lines split on LF; a final LF adds no empty line). */
ec_error_code ec_lz_side_build(ec_arena *a, ec_str text, ec_lz_side *out);
/** Builds a side whose key map holds only the given keys (a file, looked up with a snippet's
 * keys): one pass, no table as large as the file. A lookup of another key scans the file.
 * `n_lf`: the text's LF count when known, else SIZE_MAX. */
ec_error_code ec_lz_side_build_keyed(ec_arena *a, ec_str text, size_t n_lf, const uint64_t *qkeys, size_t nq, ec_lz_side *out);
/** Widens a keyed side's map to every line (one pass), before lines the snippet did not write
 * are asked for: a note read as the file's heading (snippet.c). */
ec_error_code ec_lz_side_map_all(ec_arena *a, ec_lz_side *s);
/** Builds a side from given lines. */
ec_error_code ec_lz_side_from_lines(ec_arena *a, const ec_str *lines, size_t n, ec_lz_side *out);
/** First line with this key (LZ_NIL when none) and the number of such lines. */
uint32_t ec_lz_side_first(const ec_lz_side *s, uint64_t key, uint32_t *count);
/** Hash of a trimmed line as stored in key[]. */
uint64_t ec_lz_key(ec_str line);

/** Indentation of a side: tabs or spaces, columns per level (0: unknown), tab width. */
typedef struct ec_lz_indent {
  bool tabs;
  uint32_t unit, tab;
  bool rescale;     /* snippet side, both in spaces: its levels are converted to the file's unit */
} ec_lz_indent;
/** Infers a side's indentation from its lines (markers and blank lines left out). */
void ec_lz_indent_infer(const ec_lz_side *s, ec_lz_indent *out);
/** Columns of a line's leading whitespace, tabs `tab` wide. */
uint32_t ec_lz_cols(ec_str line, uint32_t tab);
/** A snippet column delta in file columns (levels converted between tabs and spaces, or between
 *  space units when `rescale`). */
long ec_lz_map_delta(long delta, const ec_lz_indent *si, const ec_lz_indent *fi);
/** Appends `target` columns of indentation, in tabs (`tab` wide) and spaces or in spaces. */
void ec_lz_put_indent(ec_buf *b, long target, bool tabs, uint32_t tab);
/** The snippet's columns per level from its anchored lines, between a tab side and a space side;
 *  between two space sides of different units, whether to rescale (see indent.c). */
void ec_lz_refine_unit(const ec_lz_side *S, const ec_lz_side *F, const int32_t *am, ec_lz_indent *si, const ec_lz_indent *fi);
/** Net bracket depth change of a line (strings and comments left out). */
int32_t ec_lz_bracket_net(ec_str line);
/** The same, and in *lowest the lowest depth reached inside the line (below 0: the line closes
 *  a bracket opened on a line above it, `) -> T {`, `} else {`). */
int32_t ec_lz_bracket_scan(ec_str line, int32_t *lowest);
/** How many whole blocks file lines [from, to) are at the level of line `next` (the kept line
 * after them), 0 when they are not whole blocks: the first non-blank one at `next`'s indentation,
 * none shallower, brackets balanced and never below zero; each paragraph (after a blank line)
 * that starts at that indentation with a line that is no comment, `end` or `else` counts as a
 * block (at least one is counted for whole blocks). One such block can go when a snippet shows
 * its neighbours next to each other (a function removed by leaving it out); several left out at
 * once are more often code the model did not know was there (it writes "add these new
 * functions" over a file that has them, leaving out the others between them), so they are
 * declined as any large deletion is (owners.c). */
size_t ec_lz_whole_blocks(const ec_lz_side *F, size_t from, size_t to, size_t next);
/** Whether a line opens a class-like body (`class X {`, `struct S {`, `impl T {`, `class P(Base):`):
 * its members are declarations (indent.c). */
bool ec_lz_class_opener(ec_str line);
/** Whether a line holds only a comment (`#`, `//`, a block comment's line). */
bool ec_lz_comment_only(ec_str line);

/** Merge of a parsed snippet into file text; writes *out (LF text) or records an error. */
typedef struct ec_lz_seg {
  uint32_t j0, j1;           /* snippet lines [j0, j1) */
  bool marker_before, marker_after;
  uint32_t marker_after_indent;
  uint32_t drop_j, drop_i, drop_fo; /* a unique line let go: in another block in the file (LZ_NIL: none) */
} ec_lz_seg;

typedef struct ec_lz_report {
  uint32_t start_line, end_line; /* 1-based in the original file */
  ec_strategy strategy;
  double confidence;
} ec_lz_report;

typedef struct ec_lz_job {
  ec_ctx *ctx;
  ec_ws_file *f;
  ec_arena *a;
  ec_lz_side F, S;
  ec_lz_seg *seg;
  size_t nseg;
  size_t nseg_parsed;        /* segments as parsed (the diff-style path counts its hunks in nseg) */
  bool lead_marker, trail_marker;
  uint32_t lead_blanks;      /* blank lines the snippet starts with (dropped as padding; 0 under a fence) */
  bool marker_dropped;       /* snippet.c dropped a marker that stands for nothing where it is put:
                              * a block left out elsewhere is then not read as deleted (merge.c) */
  bool label_dropped;        /* ... and one of them names code in words of its own (ec_lz_names_code):
                              * the snippet writes its markers as labels (headings.c) */
  bool diff_style;           /* the snippet is written as `+`/`-` lines (S.op says each line's role) */
  bool offside;              /* the file's indentation is syntax (Python): a line's depth is its block */
  uint8_t *py_start;         /* merge.c: file line -> begins a logical line (ec_lz_python_scan; built on first need) */
  int32_t *am;               /* snippet line -> file line, -1 */
  uint8_t *how;
  uint32_t *seg_of;          /* snippet line -> segment index */
  uint32_t *src;             /* snippet line -> its number in the snippet as sent (1-based: a fence,
                              * blank edges and dropped markers counted), for messages */
  uint32_t *order;           /* segments in file order, when the snippet lists them out of it and
                              * each can be placed on its own (anchor.c); NULL otherwise */
  uint64_t work, work_cap;
  uint32_t *block_last1, *block_distinct1; /* rewrite.c: file opener -> ec_lz_block_last + 1 and its block's
                                            * distinctive lines + 1 (0: not yet known) */
  struct ec_lz_cpindex *cpindex; /* counterpart_index.c: the file's strong lines by head and by start (built on first need) */
  struct ec_lz_sblocks *sblocks;
  uint32_t *head_len[2];     /* heads.c: [snippet, file] line -> its head's length + 1 (0: not yet read) */
  uint32_t *enclosing[2][2]; /* enclosing.c: [snippet, file][less, no deeper] -> line (built on first need) */ /* snippet_blocks.c: the snippet's bracket depths and openers (built on first need) */
  ec_lz_report *rep;         /* one per segment */
  bool parse_lines;          /* invariant (d) reads the result's lines (Python's indentation): false
                              * where the syntax layer parses it after the splice instead
                              * (lazy_syntax_guard) or options.syntax is "off" (nothing is parsed) */
  bool file_final_lf;
  ec_lz_indent fi, si;       /* indentation of the file and of the snippet */
  size_t file_len;           /* bytes of the file text the F side was built from */
  size_t out_head, out_tail; /* ec_lz_merge: the result is file[0, out_head) + *out + file[out_tail, end) */
} ec_lz_job;

/** The file line closing the block file line o opens (indentation and bracket depth agree),
 * F.n when none (anchor.c). */
size_t ec_lz_file_closer(ec_lz_job *job, size_t o);
/** The snippet line that opens the block closing snippet line j ends: the nearest literal line
 * above at j's indentation (no shallower literal line between) that opens a block and whose
 * bracket depth j brings back, the lines between keeping it open; LZ_NIL if none
 * (snippet_blocks.c: O(log n) a question after an O(n log n) build, each answer kept). */
uint32_t ec_lz_snippet_opener(ec_lz_job *job, size_t j);
/** Whether a literal snippet line in (j, end), at j's indentation, closes the block line j opens
 * (by bracket depth, the lines between keeping it open): one pass, stopping where it closes. */
bool ec_lz_snippet_block_shown(ec_lz_job *job, size_t j, size_t end);
/** The line enclosing line i of the snippet (file false) or the file by indentation: the nearest
 * line above it, neither blank nor only a comment, indented less (`or_equal`: no deeper); LZ_NIL
 * when none. O(1) after one pass per side and kind (enclosing.c). */
uint32_t ec_lz_enclosing(ec_lz_job *job, bool file, size_t i, bool or_equal);
/** The same for the lines idx[0, n) of side s (all its lines when idx is NULL), as positions in
 * that list: up[p] = the enclosing position or LZ_NIL. `st` holds n entries of scratch. Linear
 * but for a binary search a line. */
void ec_lz_enclosing_of(const ec_lz_side *s, const uint32_t *idx, size_t n, bool or_equal, uint32_t *up, uint32_t *st);
/** Whether file lines [from, to) lie inside a block whose opener and closing line are both
 * lines of segment `si` anchored in the file (the snippet shows the whole block: its body may
 * be rewritten at any length). */
bool ec_lz_in_shown_block(ec_lz_job *job, size_t si, size_t from, size_t to);

/** Distinctive lines (trimmed, EC_LZ_DISTINCT_LEN characters or more) a renamed block must share
 * with the file's block to be taken for it (rewrite.c, verify.c). Swept (bench/threshold_sweep.mjs;
 * ACCURACY.md, "Thresholds"): 2-4 lines and 1-16 characters give the same results; with no rename
 * taken, 4 cases of the set decline (rossler_attractor) and 2 conformance vectors fail. 3 and 12 sit
 * inside that plateau; what keeps a sibling from being taken for a rename is the share (rewrite.c). */
#define EC_LZ_RENAME_MIN_LINES 3
#define EC_LZ_DISTINCT_LEN 12
/** Whether snippet line so and file line fo can be one definition renamed: neither blank nor weak
 * nor a comment, the snippet's line absent from the file and the file's from the snippet, the
 * same first word and the same bracket balance (`UpdateFn makeRossler…(){`, `UpdateFn makeLorenz…(){`). */
bool ec_lz_rename_pair(ec_lz_job *job, uint32_t so, uint32_t fo);
/** The last line of the file block line fo opens (the last non-blank, non-comment line indented
 * deeper before one that is not), fo when none (rewrite.c). */
size_t ec_lz_block_last(ec_lz_job *job, size_t fo);
/** Whether a block renamed from file opener fo keeps enough of the old block: `shared` distinctive
 * lines aligned, EC_LZ_RENAME_MIN_LINES or more and at least a third of the old block's (rewrite.c). */
bool ec_lz_renamed_block_kept(ec_lz_job *job, size_t fo, size_t shared);
/** A section rewritten in place under new names (rewrite.c): for each segment whose unique pairs
 * (pj/pi, np of them, in snippet order) include pairs taken for copied code (suspect[k], inside
 * snippet opener so[k] that disagrees with file opener fo[k]) and that, with the renamed openers,
 * align densely in order with one region of the file, anchors each renamed opener (and an edited
 * header line above the region) as a counterpart. Returns whether it anchored any. */
bool ec_lz_renamed_sections(ec_lz_job *job, const uint32_t *pj, const uint32_t *pi, size_t np, uint8_t *suspect,
                            const uint32_t *so, const uint32_t *fo);

/** A line with its escapes before quotes and backslashes undone (`\\"` -> `"`); false when it
 * has none (snippet.c). */
bool ec_lz_unescape(ec_arena *a, ec_str line, ec_str *out);

/** The snippet with each literal `\\n` turned into a line break where the text before it is a whole
 * line of the file (`io.stderr:write([[\\ncsvtool ...`: the model's JSON escaping of a line break
 * leaked into the code), and each one-line body holding only a marker comment after an opener that
 * is a whole line of the file (`const f = () => { ... };`, the dots in a block comment) as the opener, a
 * marker line and the closing line (issue 30, eighth pass). Returns the snippet itself when there
 * is neither (snippet.c). */
ec_str ec_lz_split_escaped_newlines(ec_arena *a, ec_str snippet, ec_str file);

/** Parses snippet text into job->S and segments. Diff-style snippets set *diff_style. */
ec_error_code ec_lz_parse(ec_lz_job *job, ec_str snippet, bool *diff_style);
/** Finds anchors (am/how) for every segment; records NO_MATCH/AMBIGUOUS on a decline. */
ec_error_code ec_lz_anchor(ec_lz_job *job);
/** Builds the merged text from the anchors; records a decline when a rule says so. The result
 * is the file's bytes [0, out_head), then *out, then the file's bytes from out_tail on. */
ec_error_code ec_lz_merge(ec_lz_job *job, ec_str *out);
/** The diff-style path: parse, anchor and merge in one. */
ec_error_code ec_lz_merge_diff(ec_lz_job *job, ec_str *out);

/** Checks the merged text (as ec_lz_merge hands it back, job->out_head/out_tail set) against
 * the snippet before success is reported (verify.c); records a decline when it fails. */
ec_error_code ec_lz_verify(ec_lz_job *job, ec_str merged);
/** Records the self-check's decline: segment `seg` (0-based), the file lines in question
 * (1-based, 0: none), why, and the line it concerns (decline.c). */
ec_error_code ec_lz_fail_check(ec_lz_job *job, ec_error_code code, size_t seg, uint32_t from, uint32_t to, const char *why, ec_str line);

/* The merged result R as the self-check reads it (verify.c builds it): R = G0 B1 G1 ... Bk Gk,
 * each Bi segment i's lines in order (blank lines aside), each gap Gi an unchanged run of the
 * file. The invariants (invariants.c) are stated on it. */
typedef struct ec_lz_rline {
  ec_str line;
  uint64_t key;
  bool blank;
  bool written;  /* from the merged middle (not the file's untouched head or tail) */
} ec_lz_rline;
typedef struct ec_lz_rview {
  const ec_lz_rline *r;
  size_t nr;
  const uint32_t *rfile;     /* R line -> the file line it is (a gap's, or a block line aligned with it), EC_LZ_NONE */
  const uint32_t *rblk;      /* R line -> its index into nl (a block line), EC_LZ_NONE */
  const uint32_t *nl, *nl0;  /* the snippet's block lines, segment by segment: nl[nl0[s], nl0[s + 1]) */
  const size_t *rb, *re;     /* segment -> R index of its first and last block line (SIZE_MAX: no block) */
  const size_t *gx, *gy;     /* gap g (before segment g; g = nseg: after the last) -> file run [gx, gy), SIZE_MAX: empty */
  const uint32_t *rup;       /* R line -> the R line enclosing it (ec_lz_enclosing_of over R), LZ_NIL at the top */
} ec_lz_rview;
/** The lazy merge's invariants (invariants.c; docs/lazy.md), checked on every result before it
 * is reported: (a) between two consecutive snippet lines no line of the file survives, (b) no
 * name defined twice in one scope where the file defined it once, (c) a new block between two
 * markers only where its place is unique, (d) a file that parsed still parses. Records a decline
 * naming the invariant when one fails. */
ec_error_code ec_lz_check_invariants(ec_lz_job *job, const ec_lz_rview *v);
/** Invariants (f) and (g), what a snippet leaves out (left_out.c; docs/lazy.md): (f) comments
 * between two of its lines the file has, removed by a segment that writes no comment; (g) the old
 * copy of code moved into a helper the snippet defines, kept by a marker right after the new call.
 * Declines (AMBIGUOUS) when R removes the one or keeps the other. */
ec_error_code ec_lz_check_left_out(ec_lz_job *job, const ec_lz_rview *v);
/** Invariant (i), a comment stays over the line it heads (headings.c): a marker named in its own
 * words standing only for the comment that heads the next segment's first line, or new lines at
 * the snippet's unmarked end written under a file comment whose code stays after them, declined
 * (AMBIGUOUS). */
ec_error_code ec_lz_check_headings(ec_lz_job *job, const ec_lz_rview *v);
/** Whether comment line `heading` (the file's, right above the code a note is about) has words of
 * 4 letters or more and the note repeats every one of them ("Contact Teacher Dialog remains same"
 * over "Contact Teacher Dialog"; as invariant (i) reads a marker naming a heading). */
bool ec_lz_note_restates(ec_str note, ec_str heading);

/** Whether a line can be a note's: a comment line (ec_lz_comment_line), or JSX's or HTML's comment
 * (a block comment in braces, `<!-- ... -->`: notes and placeholders in markup come so; notes.c). */
bool ec_lz_note_line(ec_str line);
/** Invariant (e), words do not stand for lines (notes.c): a comment paragraph the snippet writes on
 * its own that names a definition R keeps where no snippet line shows it is declined (NO_MATCH,
 * naming the definition's line). */
ec_error_code ec_lz_check_notes(ec_lz_job *job, const ec_lz_rview *v);
/** Invariant (h), an import goes with its uses (imports.c): R binding a name by two import lines
 * where the file bound it at most once, or removing a file import whose name R's code still uses
 * and no import of R binds, is declined (NO_MATCH). JavaScript, TypeScript and Python imports. */
ec_error_code ec_lz_check_imports(ec_lz_job *job, const ec_lz_rview *v);
/** Invariant (j), a definition goes with its uses (definitions.c): a top-level definition of the
 * file that R removes and defines nowhere while a line of R still uses its name is declined
 * (NO_MATCH, naming the definition's line). */
ec_error_code ec_lz_check_definitions(ec_lz_job *job, const ec_lz_rview *v);
/** Invariant (d) after the syntax guard passed, for a file a grammar reads: Python's indentation
 * read over `text` (the spliced result) as Python reads it, declined (NO_MATCH, naming the
 * invariant) when it no longer parses where the file did. EC_OK for other languages. */
ec_error_code ec_lz_python_after_guard(ec_lz_job *job, ec_str text);
/** The definition a line makes (invariant b's reading, by the file's language: a function, type,
 * constant or variable, or macro, its kind and name hashed into *key), false when none.
 * `in_class`: the line sits directly in a class-like body (a bare `f(x) {` is a method there). */
bool ec_lz_definition(ec_lz_job *job, ec_str line, bool in_class, ec_str *name, uint64_t *key);
/** Invariant (d)'s Python reading: indentation as Python's tokenizer checks it (logical lines, a
 * stack of columns; brackets, strings, continuations and comments accounted for). The lines are
 * at base + i * stride (an ec_str each). Returns the first line that does not fit (0-based),
 * SIZE_MAX when every line does. */
size_t ec_lz_python_unparsed(const void *base, size_t stride, size_t n, ec_arena *a);
/** The same reading that also marks, in `starts` (n entries, zeroed), each line beginning a
 * logical line with code (not inside brackets, a string or a `\` continuation), up to the first
 * line that does not fit. */
size_t ec_lz_python_scan(const void *base, size_t stride, size_t n, ec_arena *a, uint8_t *starts);

/* Block owners by indentation (owners.c): the self-check's view of keyword- and indentation-
 * closed blocks. */
#define EC_LZ_NONE UINT32_MAX
#define EC_LZ_SKIP (UINT32_MAX - 1)
/** For lines from `from` on (line i is the ec_str at base + i * stride), the line opening the block each belongs to (EC_LZ_NONE at the top;
 * EC_LZ_SKIP for a blank or comment line or a line of a multi-line string): a closing line (`}`,
 * `end`, `fi`, `else`) the nearest line above at its depth or shallower, any other line the
 * nearest shallower one, a continuation (`} else {`, `elif x:`) standing for the block it
 * continues. The open lines above `from` are looked for up to 4000 lines up; the pass ends, past
 * `until`, at the first line that closes every open block; returns the line after the last one
 * given an owner (owner[] elsewhere is left as it was) and sets *seed to the topmost open line
 * above `from` it found (`from` when none). `stack` holds 2n + 2 entries of scratch. Linear in the lines passed. */
size_t ec_lz_owners(const void *base, size_t stride, size_t n, size_t from, size_t until, uint32_t tab, uint32_t *owner, uint32_t *stack,
                    size_t *seed);
/** Whether a line takes no part in block ownership (blank, or a comment only, `--` ones too). */
bool ec_lz_owner_skip(ec_str line);
/** Whether a line is a comment line of code (invariants e and f; owners.c): `#` alone or before a space or
 * another `#` (not `#include`, `#[derive]`, `#!`: code), or what block owners skip (`//`, a block
 * comment's lines, `--`). */
bool ec_lz_comment_line(ec_str line);
/** Whether a line closes or continues a block (`}`, `end`, `fi`, `done`, `esac`, `else`, `elif`). */
bool ec_lz_is_closing(ec_str line);
/** Whether a line closes a block's part and opens the next (`} else {`, `elif x:`, `rescue`). */
bool ec_lz_is_continuation(ec_str line);

/** Records a decline on segment `seg` (0-based; EC_LZ_WHOLE: the merge as a whole) with a
 * candidate range (0 = none). */
ec_error_code ec_lz_decline(ec_lz_job *job, ec_error_code code, size_t seg, uint32_t cand_from, uint32_t cand_to,
                            const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/** Whether the file's language makes indentation syntax (Python), by its name (invariants.c). */
bool ec_lz_offside(ec_str path);
/** A check of the whole result, not of one segment (invariants d, h, j): no `block` in the error. */
#define EC_LZ_WHOLE SIZE_MAX
/** How a message names segment `seg`: "segment N of the lazy snippet (snippet lines A-B)", A-B
 * counted in the snippet as sent; "the lazy snippet" for EC_LZ_WHOLE; a diff-style snippet's
 * parts by number only (its segments are its hunks, reordered). The text lives in the job's arena. */
const char *ec_lz_seg_name(const ec_lz_job *job, size_t seg);
/** Adds one more candidate (1-based inclusive file lines) to the last error. */
void ec_lz_add_candidate(ec_lz_job *job, uint32_t from, uint32_t to);

/* Small helpers shared by the pieces. */
/** A character of a name (identifier): letters, digits, `_`, `$` and any byte of a multi-byte
 * UTF-8 character. One definition for the heads, the rename rule and the self-check. */
static inline bool ec_lz_name_char(unsigned char c) {
  return c == '_' || c == '$' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/** Whether `name` occurs in `hay` as a whole word (not inside a longer name, ec_lz_name_char);
 * *scanned (when given) grows by the bytes looked at (heads.c). */
bool ec_lz_has_word(ec_str hay, ec_str name, uint64_t *scanned);
/** Whether code line l uses name w (invariants h and j): a whole word not after a `.` (a property
 * is no use), in the code before any comment (`//`, `/ *`, and ` # `, ` -- ` with spaces around:
 * Python's, shell's, Lua's and SQL's after code); *work grows by the bytes read (heads.c). */
bool ec_lz_code_names(ec_str l, ec_str w, uint64_t *work);
/** Head of a line: its trimmed text up to the first `( = : { [ < ,`, or empty when too generic. */
ec_str ec_lz_head(ec_str line);
/** Characters a line must have (trimmed) for a longer line starting with it to be its counterpart
 * (`from x import A` -> `from x import A, B`). */
#define EC_LZ_EXTEND_MIN 12
/** Whether snippet line and file line are a changed pair (same head, or one extends the other
 * at a token boundary, the shorter EC_LZ_EXTEND_MIN characters or more). */
bool ec_lz_counterparts(ec_str a, ec_str b);
/** The same, with both heads (ec_lz_head) given: lines asked about many times. */
bool ec_lz_counterparts_head(ec_str a, ec_str ha, ec_str b, ec_str hb);
/** The head of snippet line j (file line i when `file`), read once per job and kept: the
 * anchoring asks about one line once per place it could go. */
ec_str ec_lz_job_head(ec_lz_job *job, bool file, size_t i);
/** ec_lz_counterparts of snippet line j and file line i, with the job's kept heads. */
bool ec_lz_job_counterparts(ec_lz_job *job, size_t j, size_t i);
/** The file lines in (lo, hi) that may be counterparts of a line (counterpart_index.c): a superset
 * (same head hash, or the same first EC_LZ_EXTEND_MIN characters), in file order, without a scan. */
typedef struct ec_lz_cp_iter {
  const struct ec_lz_cpindex *x;
  size_t a, b;       /* positions in the index under the head's key and under the start's */
  uint64_t ka, kb, hi;
} ec_lz_cp_iter;
/** Starts the walk; false when out of memory. */
bool ec_lz_counterpart_iter_init(ec_lz_job *job, ec_str line, int64_t lo, int64_t hi, ec_lz_cp_iter *it);
/** The next candidate file line, LZ_NIL at the end. */
uint32_t ec_lz_counterpart_next(ec_lz_cp_iter *it);
/** Whether a line looks like an edited version of another: counterparts, one extending the
 * other's identifiers, or (loose) a shared start and end covering 60 % of the longer line. */
bool ec_lz_similar(ec_str a, ec_str b, bool loose);
/** Whether one line extends the other: the shorter's identifiers, in order, among the longer's,
 * the first one the same (`import { a } from "./a"` and `import { a, c } from "./a"`). */
bool ec_lz_extends(ec_str a, ec_str b);
/** Whether new line a rewrites file line b: ec_lz_extends, except a call of the same function with
 * another first argument and an overload's signature; two imports rewrite each other when they
 * name one module, or a module and one inside it. */
bool ec_lz_rewrites_line(ec_str a, ec_str b);
/** Whether one line is the other with a small edit: the same words but a number changed (`x = a +
 *  10`, `x = a + 1`), or the shorter's words, the first the same, among the longer's (`<H1 big />`,
 *  `<H1 />`), where ec_lz_extends asks two words of each. Looser than ec_lz_rewrites_line: read
 *  only to decline. */
bool ec_lz_small_edit(ec_str a, ec_str b);
/** Whether a line looks like an edited version of another: ec_lz_similar, the other with a `;`
 * added at its end (`};` for `}`: the same closing line ended as a statement; issue 30, eighth
 * pass), and loosely (a shared start and end) for lines of 16 characters or more (`) -> list[X]:`
 * made `) -> List[X]:`, `// --- Lorenz System ---` and `// --- Rössler System ---`). */
bool ec_lz_edited(ec_str a, ec_str b);
/** The lengths of the common start (*pre) and, in what is left, the common end (*suf) of two
 *  trimmed lines; returns the longer line's length (heads.c). */
size_t ec_lz_common_ends(ec_str ta, ec_str tb, size_t *pre, size_t *suf);
/** Whether two lines start with the same identifier (`<p>` and `<p className="x">`). */
bool ec_lz_same_first_token(ec_str a, ec_str b);

#endif
