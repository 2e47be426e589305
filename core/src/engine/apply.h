/* ec_apply for the JSON layer, which keeps the request it parsed alive with the result. */
#ifndef EC_ENGINE_APPLY_H
#define EC_ENGINE_APPLY_H
#include "editcore.h"

/** ec_apply for a caller that keeps the request's edit strings alive, unchanged, until the result
 *  is freed (the JSON entry points: the parsed request's arena goes with the result, and an edit
 *  string lent in place, EC_FILES_BESIDE_IN_PLACE, is the caller's promise): the result points
 *  into them instead of copying them (whole_file's content: no second copy of the new text). What
 *  points into the files is still copied. */
ec_result *ec_apply_kept(const ec_request *req, const ec_host *host);

#endif
