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
static const bool SUPPORTED[EC_PROFILE__COUNT][EC_FORMAT__COUNT] = {
    [EC_PROFILE_EDITCORE] = {
        [R] = true,
        [SR] = false,
        [UD] = false,
        [CP] = false,
        [WF] = true,
        [IN] = false,
        [LZ] = false,
    },
    [EC_PROFILE_GEMINI] = {
        [R] = false,
    },
    [EC_PROFILE_CLINE] = {
        [SR] = false,
    },
    [EC_PROFILE_AIDER] = {
        [R] = false,
        [SR] = false,
        [UD] = false,
        [WF] = false,
    },
    [EC_PROFILE_ROO] = {
        [SR] = false,
    },
    [EC_PROFILE_CODEX] = {
        [CP] = false,
    },
    [EC_PROFILE_CLAUDE] = {
        [R] = false,
        [IN] = false,
    },
    [EC_PROFILE_OPENHANDS] = {
        [R] = false,
        [IN] = false,
    },
};
#undef R
#undef SR
#undef UD
#undef CP
#undef WF
#undef IN
#undef LZ

bool ec_supports(ec_format f, ec_profile p) { return ec_profile_supports(p, f); }

bool ec_profile_supports(ec_profile p, ec_format f) {
  return (unsigned)p < EC_PROFILE__COUNT && (unsigned)f < EC_FORMAT__COUNT && SUPPORTED[p][f];
}

size_t ec_profile_strategies(ec_profile p, ec_strategy out[EC_STRATEGY__COUNT]) {
  (void)p;
  out[0] = EC_STRATEGY_EXACT;
  return 1;
}
