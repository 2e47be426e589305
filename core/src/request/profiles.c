#include "profiles.h"
#include <string.h>

/* Rows: profiles; columns: formats. Flip an entry when a format lands for a profile.
 * (One line per profile and format so parallel work on different dialects never collides.) */
#define R EC_FORMAT_REPLACE
#define SR EC_FORMAT_SEARCH_REPLACE
#define UD EC_FORMAT_UNIFIED_DIFF
#define CP EC_FORMAT_CODEX_PATCH
#define WF EC_FORMAT_WHOLE_FILE
#define IN EC_FORMAT_INSERT
#define LZ EC_FORMAT_LAZY
#define RP EC_FORMAT_REPLY
static const bool SUPPORTED[EC_PROFILE__COUNT][EC_FORMAT__COUNT] = {
    [EC_PROFILE_EDITCORE] = {
        [R] = true,
        [SR] = true,
        [UD] = true,
        [CP] = true,
        [WF] = true,
        [IN] = true,
        [LZ] = true,
        [RP] = true,
    },
    [EC_PROFILE_GEMINI] = {
        [R] = true,
    },
    [EC_PROFILE_CLINE] = {
        [SR] = true,
    },
    [EC_PROFILE_AIDER] = {
        [R] = true,
        [SR] = true,
        [UD] = true,
        [WF] = true,
        [RP] = true,
    },
    [EC_PROFILE_ROO] = {
        [SR] = true,
    },
    [EC_PROFILE_CODEX] = {
        [CP] = true,
    },
    [EC_PROFILE_CLAUDE] = {
        [R] = true,
        [IN] = true,
    },
    [EC_PROFILE_OPENHANDS] = {
        [R] = true,
        [IN] = true,
    },
};
#undef R
#undef SR
#undef UD
#undef CP
#undef WF
#undef IN
#undef LZ
#undef RP

bool ec_supports(ec_format f, ec_profile p) { return ec_profile_supports(p, f); }

bool ec_profile_supports(ec_profile p, ec_format f) {
  return (unsigned)p < EC_PROFILE__COUNT && (unsigned)f < EC_FORMAT__COUNT && SUPPORTED[p][f];
}

size_t ec_profile_strategies(ec_profile p, ec_strategy out[EC_STRATEGY__COUNT]) {
  /* Default ladders (SPEC §4-5). editcore: everything but fuzzy (which only ranks NO_MATCH
   * candidates unless options.strategies names it). Peers: the steps they take, in their order
   * (gemini's own code in peers/gemini/gemini.c follows exact -> flexible -> regex -> fuzzy itself). */
  static const ec_strategy EDITCORE[] = {EC_STRATEGY_EXACT, EC_STRATEGY_UNESCAPE, EC_STRATEGY_TRIM_END, EC_STRATEGY_INDENT,
                                         EC_STRATEGY_UNICODE, EC_STRATEGY_ELISION, EC_STRATEGY_ANCHOR, EC_STRATEGY_REGEX};
  static const ec_strategy GEMINI[] = {EC_STRATEGY_EXACT, EC_STRATEGY_INDENT, EC_STRATEGY_REGEX, EC_STRATEGY_FUZZY};
  static const ec_strategy CLINE[] = {EC_STRATEGY_EXACT, EC_STRATEGY_TRIM_END, EC_STRATEGY_ANCHOR};
  static const ec_strategy AIDER[] = {EC_STRATEGY_EXACT, EC_STRATEGY_INDENT, EC_STRATEGY_ELISION};
  static const ec_strategy ROO[] = {EC_STRATEGY_EXACT, EC_STRATEGY_FUZZY};
  static const ec_strategy CODEX[] = {EC_STRATEGY_EXACT, EC_STRATEGY_TRIM_END, EC_STRATEGY_INDENT, EC_STRATEGY_UNICODE};
  static const ec_strategy EXACT_ONLY[] = {EC_STRATEGY_EXACT};
  const ec_strategy *l;
  size_t n;
#define PICK(a) (l = (a), n = sizeof(a) / sizeof(a)[0])
  switch (p) {
    case EC_PROFILE_EDITCORE: PICK(EDITCORE); break;
    case EC_PROFILE_GEMINI: PICK(GEMINI); break;
    case EC_PROFILE_CLINE: PICK(CLINE); break;
    case EC_PROFILE_AIDER: PICK(AIDER); break;
    case EC_PROFILE_ROO: PICK(ROO); break;
    case EC_PROFILE_CODEX: PICK(CODEX); break;
    default: PICK(EXACT_ONLY); break;
  }
#undef PICK
  memcpy(out, l, n * sizeof *l);
  return n;
}
