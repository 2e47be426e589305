/*
 * Profiles (SPEC §5): whose semantics a request reproduces. This table says which formats each
 * profile speaks in this build and which ladder it climbs by default.
 */
#ifndef EC_REQUEST_PROFILES_H
#define EC_REQUEST_PROFILES_H
#include "editcore.h"

/** Whether this build implements `format` under `profile`. */
bool ec_profile_supports(ec_profile p, ec_format f);
/** The profile's default ladder for the replace-like formats; returns its length. */
size_t ec_profile_strategies(ec_profile p, ec_strategy out[EC_STRATEGY__COUNT]);

#endif
