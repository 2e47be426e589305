/* ec_result -> JSON response text (SPEC §1), written by hand so every build prints the same bytes. */
#ifndef EC_PROTOCOL_JSON_RESPONSE_H
#define EC_PROTOCOL_JSON_RESPONSE_H
#include "json_write.h"

void ec_json_write_result(ec_buf *b, const ec_result *r);
/** ec_json_write_result, or (splices) each file's content left out and its splices given instead
 *  (ec_result_to_json_splices). */
void ec_json_write_result_as(ec_buf *b, const ec_result *r, bool splices);
#endif
