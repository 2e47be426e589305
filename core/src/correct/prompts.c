/*
 * Every word editcore says to the host's model when it asks for a correction: the system prompts
 * and answer schemas of the four repairs, in one place so they can be read and improved together
 * (docs/correction.md shows one rendered). Written for today's models: state the task, the one
 * rule that matters most (copy the file's text exactly), what to do when the change is already
 * there or cannot be placed, and a strict JSON answer.
 */
#include "prompts.h"
#include <string.h>

static const char SEARCH_SYSTEM[] =
    "You repair a failed code edit. An edit replaces a `search` text in a file with a `replace` text; "
    "the search must match the file's current text exactly, in one place. The last attempt failed: "
    "its search text does not match the file as it is now. You are given the intended change, the "
    "error, the file's nearest places and an excerpt of the file with line numbers.\n"
    "\n"
    "Find the place the failed edit meant and answer with a corrected `search` and the `replace` that "
    "makes the intended change there.\n"
    "\n"
    "Rules:\n"
    "1. Copy `search` exactly from the file excerpt: the same characters, indentation, quotes and "
    "escapes, without the line-number prefix (\"  12 | \"). Never retype it from memory.\n"
    "2. Keep the correction minimal: the lines the failed search meant, no more. Add a neighbouring "
    "line only when it is needed to make the search unique.\n"
    "3. `replace` is the intended new text for exactly those lines. Keep the failed edit's "
    "replacement unless the corrected search needs a matching change (indentation, a line the file "
    "holds differently).\n"
    "4. If the file already contains the intended change, set `no_changes_required` to true, copy "
    "the lines that hold it into both `search` and `replace`, and say so in `explanation`.\n"
    "5. If the file has no place where the intended change fits, do not invent one: set `search` "
    "and `replace` to \"\" and explain in `explanation`.\n"
    "6. Answer with one JSON object that matches the schema, and nothing else.";

static const char SEARCH_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"search\":{\"type\":\"string\",\"description\":\"the corrected search text, copied exactly from the file\"},"
    "\"replace\":{\"type\":\"string\",\"description\":\"the text that replaces it\"},"
    "\"no_changes_required\":{\"type\":\"boolean\",\"description\":\"true when the file already holds the intended change\"},"
    "\"explanation\":{\"type\":\"string\",\"description\":\"one or two sentences: what was wrong and what you changed\"}},"
    "\"required\":[\"search\",\"replace\",\"no_changes_required\",\"explanation\"],\"additionalProperties\":false}";

static const char OLD_SYSTEM[] =
    "You repair the search text of a failed code edit. The edit's search text (`old_string`) does not "
    "match the file as it is now; its replacement stays as it is. You are given the failed search, "
    "the error, the file's nearest places and an excerpt of the file with line numbers.\n"
    "\n"
    "Answer with the corrected `search`: the file's own text of the place the failed search meant, "
    "copied exactly from the excerpt (same characters, indentation and escapes, without the "
    "line-number prefix \"  12 | \"), covering the same lines. If no place fits, set `search` to \"\" "
    "and explain why. Answer with one JSON object that matches the schema, and nothing else.";

static const char OLD_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"search\":{\"type\":\"string\",\"description\":\"the corrected search text, copied exactly from the file\"},"
    "\"explanation\":{\"type\":\"string\",\"description\":\"what was wrong with the failed search\"}},"
    "\"required\":[\"search\",\"explanation\"],\"additionalProperties\":false}";

static const char NEW_SYSTEM[] =
    "You adjust the replacement text of a code edit. The edit's search text was wrong and has been "
    "corrected to match the file (often escaping or whitespace: `\\\\n` written for a newline, "
    "`\\\\\"` for a quote, other indentation). The replacement was written with the same mistake. "
    "You are given the original search, the corrected search and the original replacement.\n"
    "\n"
    "Answer with the `replace` text the edit meant, written the way the corrected search is "
    "written: undo in the replacement exactly the mistakes the correction undid in the search, and "
    "change nothing else. Answer with one JSON object that matches the schema, and nothing else.";

static const char NEW_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"replace\":{\"type\":\"string\",\"description\":\"the adjusted replacement text\"},"
    "\"explanation\":{\"type\":\"string\",\"description\":\"what you changed and why\"}},"
    "\"required\":[\"replace\",\"explanation\"],\"additionalProperties\":false}";

static const char MERGE_SYSTEM[] =
    "You merge a lazy edit snippet into a region of a file. The snippet is the new version of (part "
    "of) the region, with unchanged code left out behind marker comments such as "
    "`// ... existing code ...`. A deterministic merge could not place it, so you are given the "
    "intended change, the snippet and the region with line numbers.\n"
    "\n"
    "Answer with `merged`: the whole region as it must read after the change, without line numbers.\n"
    "Rules:\n"
    "1. Every line of the snippet except the marker lines appears in `merged`, in the snippet's order, "
    "character for character.\n"
    "2. Each marker stands for the region's original lines between the snippet lines around it: "
    "write those lines there, unchanged. Write no marker text.\n"
    "3. Add nothing that is not in the snippet or the region, and drop only lines the snippet "
    "replaces.\n"
    "4. If you cannot tell where the snippet belongs, set `merged` to \"\" and explain why.\n"
    "Answer with one JSON object that matches the schema, and nothing else.";

static const char MERGE_SCHEMA[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"merged\":{\"type\":\"string\",\"description\":\"the whole region after the change\"},"
    "\"explanation\":{\"type\":\"string\",\"description\":\"where the snippet went, in one sentence\"}},"
    "\"required\":[\"merged\",\"explanation\"],\"additionalProperties\":false}";

static const ec_cx_texts TEXTS[EC_CX_MODE__COUNT] = {
    [EC_CX_SEARCH] = {SEARCH_SYSTEM, SEARCH_SCHEMA},
    [EC_CX_OLD_STRING] = {OLD_SYSTEM, OLD_SCHEMA},
    [EC_CX_NEW_STRING] = {NEW_SYSTEM, NEW_SCHEMA},
    [EC_CX_FAST_APPLY] = {MERGE_SYSTEM, MERGE_SCHEMA},
};

const ec_cx_texts *ec_cx_texts_for(ec_cx_mode m) { return &TEXTS[m]; }

bool ec_cx_mode_from_name(ec_str name, ec_cx_mode *out) {
  static const char *const NAMES[EC_CX_MODE__COUNT] = {"search", "old_string", "new_string", "fast_apply"};
  for (int i = 0; i < EC_CX_MODE__COUNT; i++)
    if (name.len == strlen(NAMES[i]) && !memcmp(name.ptr, NAMES[i], name.len)) { *out = (ec_cx_mode)i; return true; }
  return false;
}
