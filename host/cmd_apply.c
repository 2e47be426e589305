/* `editcore apply [--format NAME] [FILE|-]`: a model's reply applied to the files it names. */
#include "cli.h"

int eh_cmd_apply(const eh_opts *o) {
  (void)o;
  fprintf(stderr, "editcore: apply is not built yet\n");
  return 2;
}
