/* The correction prompts' fixed texts: one system prompt and one answer schema per repair. */
#ifndef EC_CORRECT_PROMPTS_H
#define EC_CORRECT_PROMPTS_H
#include "editcore.h"

typedef enum ec_cx_mode {
  EC_CX_SEARCH,     /* repair search and replace together (replace, a block, a hunk) */
  EC_CX_OLD_STRING, /* repair the search text only; the replacement stays */
  EC_CX_NEW_STRING, /* adjust the replacement after the search was corrected */
  EC_CX_FAST_APPLY, /* merge a declined lazy snippet into its region */
  EC_CX_MODE__COUNT
} ec_cx_mode;

typedef struct ec_cx_texts {
  const char *system;
  const char *schema; /* JSON Schema of the answer, as JSON text */
} ec_cx_texts;

const ec_cx_texts *ec_cx_texts_for(ec_cx_mode m);
/** "search", "old_string", "new_string", "fast_apply"; false for another name. */
bool ec_cx_mode_from_name(ec_str name, ec_cx_mode *out);

#endif
