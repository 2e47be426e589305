/*
 * A file as the engine edits it. Matching sees `text`: the content with its BOM stripped and
 * every CRLF folded to LF. What was folded is remembered per line (`cr`), so rendering gives back
 * the file's own bytes: unchanged lines keep their own endings even in a mixed file, and lines an
 * edit writes take the file's dominant ending. A CRLF file stays CRLF after any edit.
 */
#ifndef EC_TEXT_DOC_H
#define EC_TEXT_DOC_H
#include "../base/arena.h"
#include <stddef.h>

typedef enum ec_eol_style { EC_EOL_NONE, EC_EOL_LF, EC_EOL_CRLF, EC_EOL_MIXED } ec_eol_style;

/** One changed stretch of a doc: its bytes [old_start, old_end) in the doc the log starts from
 *  became [new_start, new_end) in the doc that carries the log (normalised coordinates). */
typedef struct ec_doc_region {
  size_t old_start, old_end, new_start, new_end;
} ec_doc_region;

/**
 * What a chain of ec_doc_splice calls changed since a doc was loaded: sorted regions that
 * neither overlap nor touch; outside them the two docs hold the same bytes. `root` names the
 * loaded doc the chain started from (the log ec_doc_log_start made), so the workspace can tell
 * whether a doc still descends from its file's original. Lives in the arena; shared by the docs of a chain.
 */
typedef struct ec_doc_log {
  const void *root;
  const ec_doc_region *regions;
  size_t n;
  size_t work;          /* regions copied along the chain so far (tracking stops past a budget) */
} ec_doc_log;

struct ec_doc_pending;

typedef struct ec_doc {
  char *text;          /* LF-normalised, no BOM; a block of its own (ec_arena_own), NUL-terminated,
                          except in a doc ec_doc_view made: then maybe the content's own bytes
                          (read text[0, len) only; nobody writes a doc's text in place).
                          NULL while `pending`: the text is not built yet */
  size_t len;
  uint8_t *cr;         /* cr[i] != 0: the i-th LF of text was a CRLF; NULL when eol is LF or NONE */
  size_t n_lf;
  size_t longest_line; /* bytes of the longest line (without its ending): 0 until ec_doc_measure_lines */
  bool bom;
  bool crlf_dominant;  /* new lines are written with CRLF */
  ec_eol_style eol;
  const ec_doc_log *log; /* changes since the loaded doc its root names; NULL = not tracked */
  const struct ec_doc_pending *pending; /* a deferred doc (ec_doc_builder_defer): text NULL, every
                          other member as if built. Only the workspace holds one (f->doc):
                          ec_ws_doc settles it before any edit reads it */
} ec_doc;

/** One replacement in a doc's normalised coordinates; text is LF-only. */
typedef struct ec_splice {
  size_t start, end;
  ec_str text;
} ec_splice;

/**
 * A doc whose text is not built: `from`'s text with the splices applied. Why: the npm package
 * builds a file's new content itself, from the string it gave and the splices' new bytes
 * (options.content_as_splices); building it in wasm memory as well would hold the file a second
 * time (issue 28: peak memory) and copy it for nobody. `from` is a loaded doc without CRLF
 * (its text is the file's bytes: they live as long as the request). Lives in the arena.
 */
typedef struct ec_doc_pending {
  ec_doc from;
  const ec_splice *sp;  /* sorted, apart, in from's coordinates; texts owned by the arena */
  const size_t *at;     /* at[i]: where sp[i]'s text starts in the new text */
  size_t n;
} ec_doc_pending;

/** Sets doc->longest_line (a pass over the text; loading leaves it 0). */
void ec_doc_measure_lines(ec_doc *doc);
/** EC_BINARY_FILE when content holds a NUL byte; EC_OUT_OF_MEMORY; else EC_OK. The doc's text is
 *  a copy (the content may go at once). */
ec_error_code ec_doc_load(ec_arena *a, ec_str content, ec_doc *out);
/** ec_doc_load without the copy when there is no CRLF to fold: the doc's text is then `content`
 *  (behind its BOM), which must outlive the doc unchanged, and is not NUL-terminated. For a
 *  file's original as the workspace loads it (the request's bytes, or their decoding): the
 *  1 MB replace of issue 28 copied the whole file only to read it. */
ec_error_code ec_doc_view(ec_arena *a, ec_str content, ec_doc *out);
/** Starts tracking doc's changes: its log is empty and is its own root. false when out of
 *  memory (then doc is simply not tracked). */
bool ec_doc_log_start(ec_arena *a, ec_doc *doc);
/** Applies sorted, non-overlapping splices, producing a new doc in *out (may alias doc). A
 *  tracked doc's log is carried over with the splices added (ec_doc_log), until a budget of
 *  work, past which *out is untracked (its changes are then found by a whole diff). */
ec_error_code ec_doc_splice(ec_arena *a, const ec_doc *doc, const ec_splice *sp, size_t n, ec_doc *out);

/**
 * A new doc made from an old one and splices handed over one at a time, in order, so an edit of a
 * million places needs no array of them: only the new text is held. ec_doc_splice is this with
 * the exact size known. Buffers come from the arena's allocator; finish hands them to the arena
 * as blocks of their own (released early by ec_ws_replace_doc), drop frees them.
 */
typedef struct ec_doc_builder {
  const ec_doc *from;
  char *text;             /* allocated on the first write: `hint` + 1 bytes or more */
  uint8_t *cr;            /* with_cr only */
  size_t len, cap, hint, cr_cap;
  size_t n_lf;            /* with_cr: LFs written (each with its ending) */
  ptrdiff_t lf_delta;     /* without: LFs the splices added less those they removed */
  size_t r, line_r;       /* how far `from` is read: bytes, LFs */
  const ec_allocator *alc;
  bool with_cr;           /* `from` has CRLF endings to carry */
  bool oom;
  ec_splice *logged;      /* for a tracked doc's change log (texts' lengths only) */
  size_t n_logged, cap_logged;
  bool log_lost;          /* past the log's budget: the new doc is untracked */
  bool defer;             /* ec_doc_builder_defer: splices recorded, nothing copied */
  ec_splice *deferred;    /* with defer: every splice (the log reads them too), its text an offset into `texts` until finish */
  size_t n_deferred, cap_deferred;
  char *texts;
  size_t texts_len, texts_cap;
} ec_doc_builder;
/** `size_hint`: the new text's length when known (exact: no reallocation), else a guess. */
void ec_doc_builder_init(ec_doc_builder *b, ec_arena *a, const ec_doc *from, size_t size_hint);
/** A better size_hint, known before the first write (then the buffer is sized once); later, ignored. */
void ec_doc_builder_size(ec_doc_builder *b, size_t size_hint);
/** Copies `from` up to sp->start, then sp->text; sp->start is at or after the previous splice's end. */
void ec_doc_builder_put(ec_doc_builder *b, const ec_splice *sp);
/** Bytes of new text so far. */
static inline size_t ec_doc_builder_len(const ec_doc_builder *b) { return b->len; }
/** The rest of `from`, then the doc in *out (may alias b->from). OUT_OF_MEMORY frees everything. */
ec_error_code ec_doc_builder_finish(ec_doc_builder *b, ec_arena *a, ec_doc *out);
/**
 * Records the splices instead of building (before the first put): finish then gives a pending
 * doc (ec_doc_pending) with its change log, length and LF count; the splices' texts are copied
 * (they may live in a scratch arena). Only for a `from` without CRLF endings to carry; otherwise,
 * or when `from` is itself pending, the builder builds as usual. Returns whether it defers.
 */
bool ec_doc_builder_defer(ec_doc_builder *b);
/** Frees what was built (an edit that fails after all). */
void ec_doc_builder_drop(ec_doc_builder *b);
/** The doc with its whole text replaced by `text` (LF-only, no BOM): ec_doc_splice of [0, len),
 *  except that where no line ending needs carrying (no CRLF) the new doc reads `text` itself, not
 *  a copy — so `text` must outlive it unchanged (whole_file's content: a second copy of a 10 MB
 *  file otherwise). */
ec_error_code ec_doc_with_text(ec_arena *a, const ec_doc *doc, ec_str text, ec_doc *out);
/**
 * Replaces doc bytes [start, end) (start at a line start) by `text`, splicing only from the first
 * to the last line that differs, so every unchanged line keeps its own line ending and the diff
 * has less to look at. *out may alias doc; equal text leaves it as it is.
 */
ec_error_code ec_doc_replace_lines(ec_arena *a, const ec_doc *doc, size_t start, size_t end, ec_str text, ec_doc *out);
/** Builds a pending doc's text in place (doc->pending cleared; log, length, LFs unchanged);
 *  EC_OK at once for a built doc. EC_OUT_OF_MEMORY leaves it pending. */
ec_error_code ec_doc_settle(ec_arena *a, ec_doc *doc);
/** Copies doc text bytes [start, end) to dst, built or pending (a pending doc's pieces are found
 *  by a binary search: a read costs its length plus log(splices)). */
void ec_doc_read(const ec_doc *doc, size_t start, size_t end, char *dst);
/** The bytes to write: BOM and line endings restored; doc->text itself when there is nothing to
 *  restore (a pending doc is built first, into a new block). ptr NULL on OOM. */
ec_str ec_doc_render(ec_arena *a, const ec_doc *doc);
/** Folds CRLF to LF in an edit string (old/new text). Returns s itself when it holds no CR. */
ec_str ec_text_normalize_eol(ec_arena *a, ec_str s);
/** 1-based line number of a byte offset in LF text (counts LFs before it). */
uint32_t ec_text_line_of(const char *text, size_t off);

#endif
