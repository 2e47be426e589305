/*
 * Strategy `indent`: whole lines equal once leading and trailing whitespace is ignored. The
 * replacement is re-indented into the matched block (ec_reindent): every line keeps its
 * indentation relative to the block's least-indented line, in the file's own characters.
 */
#include "lineutil.h"

ec_error_code ec_line_strategy_trimmed(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);

ec_error_code ec_strategy_indent(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  return ec_line_strategy_trimmed(env, old_text, new_text, out);
}
