/* `editcore diff A B`: a unified diff of two files under the root, as `diff -u` prints it. Exit
 * status as diff's: 0 the same, 1 different, 2 trouble. */
#include "cli.h"
#include "sys.h"
#include <stdlib.h>
#include <string.h>

int eh_cmd_diff(const eh_opts *o) {
  if (o->n_pos != 2) {
    fprintf(stderr, "usage: editcore diff A B   (editcore diff --help for more)\n");
    return 2;
  }
  eh_err err = {0};
  eh_root root;
  eh_inputs in = {0};
  size_t ia = 0, ib = 0;
  int status;
  eh_opts eo = *o;
  eo.json = false;
  if (eh_root_open(&root, o->root, &err) || eh_inputs_add(&in, &root, o->pos[0], strlen(o->pos[0]), true, &ia, &err) ||
      eh_inputs_add(&in, &root, o->pos[1], strlen(o->pos[1]), true, &ib, &err)) {
    status = eh_report_err(&err, &eo);
  } else {
    size_t n = 0;
    char *d = ec_diff_text((ec_str){in.data[ia], in.len[ia]}, (ec_str){in.data[ib], in.len[ib]},
                           (ec_str){o->pos[0], strlen(o->pos[0])}, (ec_str){o->pos[1], strlen(o->pos[1])}, 3,
                           eh_core_host(), &n);
    if (!d) {
      fprintf(stderr, "editcore: the diff could not be made (out of memory or past its limits)\n");
      status = 2;
    } else {
      eh_print_diff(d, n, o);
      ec_free(eh_core_host(), d);
      status = n ? 1 : 0;
      if (fflush(stdout) != 0) status = 2;
    }
  }
  eh_inputs_free(&in);
  eh_root_close(&root);
  return status;
}
