/* The JSON protocol: any bytes as a request; the response is always valid JSON, with a status
 * (an edit's envelope), a phase (an agent tool call's) or a tools list (tool definitions; docs/tools.md);
 * a request whose first member is "commit" is the hosts' write protocol (editcore_commit.h), whose
 * answers are objects of their own: an error there is {"error": {"code", "message"}}. */
#include "fuzz_common.h"
#include "editcore_commit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = 0;
  char *out = ec_run_json((const char *)data, size, NULL, &n);
  FUZZ_CHECK(out != NULL, "ec_run_json answers");
  cJSON *parsed = cJSON_ParseWithLength(out, n);
  FUZZ_CHECK(parsed != NULL, "the response is valid JSON");
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(parsed, "status");
  const cJSON *phase = cJSON_GetObjectItemCaseSensitive(parsed, "phase");
  const cJSON *tools = cJSON_GetObjectItemCaseSensitive(parsed, "tools");
  if (ec_json_is_commit((const char *)data, size)) {
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(parsed, "error");
    FUZZ_CHECK(cJSON_IsObject(parsed), "a write-protocol answer is an object");
    FUZZ_CHECK(!error || cJSON_IsString(cJSON_GetObjectItemCaseSensitive(error, "code")), "a write-protocol error has a code");
    cJSON_Delete(parsed);
    ec_free(NULL, out);
    return 0;
  }
  FUZZ_CHECK(cJSON_IsString(status) || cJSON_IsString(phase) || cJSON_IsArray(tools),
             "the response has a status (or a tool call's phase, or the tool definitions)");
  cJSON_Delete(parsed);
  ec_free(NULL, out);
  return 0;
}
