/* The names of the public enums, as JSON spells them. */
#include "editcore.h"
#include <string.h>

static const char *const FORMATS[EC_FORMAT__COUNT] = {"replace", "search_replace", "unified_diff", "codex_patch",
                                                      "whole_file", "insert", "lazy", "reply"};
static const char *const PROFILES[EC_PROFILE__COUNT] = {"editcore", "gemini", "cline", "aider",
                                                        "roo", "codex", "claude", "openhands"};
static const char *const STRATEGIES[EC_STRATEGY__COUNT] = {"exact", "unescape", "trim_end", "indent", "unicode",
                                                           "elision", "anchor", "regex", "fuzzy"};
static const char *const ERRORS[EC_ERROR__COUNT] = {
    "OK", "INVALID_PARAM", "MALFORMED_EDIT", "NO_MATCH", "AMBIGUOUS", "COUNT_MISMATCH", "NOOP", "NOT_FOUND",
    "FILE_EXISTS", "BINARY_FILE", "CONFLICT", "TOO_LARGE", "ACCESS_DENIED", "IO_ERROR", "OUT_OF_MEMORY",
    "INVALID_REPLY", "SYNTAX_ERROR", "ENCODING"};
static const char *const ACTIONS[] = {"update", "add", "delete", "move"};

const char *ec_version(void) { return EDITCORE_VERSION_STRING; }

const char *ec_format_name(ec_format f) {
  return (unsigned)f < EC_FORMAT__COUNT ? FORMATS[f] : "unknown";
}
const char *ec_profile_name(ec_profile p) { return (unsigned)p < EC_PROFILE__COUNT ? PROFILES[p] : "unknown"; }
const char *ec_strategy_name(ec_strategy s) {
  return (unsigned)s < EC_STRATEGY__COUNT ? STRATEGIES[s] : s == EC_STRATEGY_LLM ? "llm" : "unknown";
}
const char *ec_error_code_name(ec_error_code c) { return (unsigned)c < EC_ERROR__COUNT ? ERRORS[c] : "UNKNOWN"; }
const char *ec_action_name(ec_action a) { return (unsigned)a <= EC_ACTION_MOVE ? ACTIONS[a] : "unknown"; }

static bool lookup(ec_str name, const char *const *table, int n, int *out) {
  for (int i = 0; i < n; i++) {
    if (strlen(table[i]) == name.len && (name.len == 0 || !memcmp(table[i], name.ptr, name.len))) {
      *out = i;
      return true;
    }
  }
  return false;
}

bool ec_format_from_name(ec_str name, ec_format *out) {
  int i;
  if (!lookup(name, FORMATS, EC_FORMAT__COUNT, &i)) return false;
  *out = (ec_format)i;
  return true;
}
bool ec_profile_from_name(ec_str name, ec_profile *out) {
  int i;
  if (!lookup(name, PROFILES, EC_PROFILE__COUNT, &i)) return false;
  *out = (ec_profile)i;
  return true;
}
bool ec_strategy_from_name(ec_str name, ec_strategy *out) {
  int i;
  if (!lookup(name, STRATEGIES, EC_STRATEGY__COUNT, &i)) return false;
  *out = (ec_strategy)i;
  return true;
}
