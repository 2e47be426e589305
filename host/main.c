/* Command-line parsing, help texts and dispatch: the one program behind both builds. */
#include "host.h"
#include "cli.h"
#include "sys.h"
#include "fixer.h"
#include "recover.h"
#include "sandbox.h"
#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: editcore <command> [options]\n"
    "\n"
    "commands:\n"
    "  apply [FILE|-]        apply a model's reply (SEARCH/REPLACE blocks, diffs, patches) to the files it names\n"
    "  replace FILE ...      replace one snippet of FILE (--old/--old-file, --new/--new-file, [--all])\n"
    "  diff A B              unified diff of two files (diff -u output)\n"
    "  json                  one JSON request on stdin, the JSON response on stdout\n"
    "  batch                 JSON Lines: one request per line in, one response per line out\n"
    "  tool NAME             one agent tool call (Edit, Read, Write, ...): arguments on stdin, result on stdout\n"
    "  capabilities          the formats and profiles this build implements, as JSON\n"
    "  version               the version\n"
    "\n"
    "common options:\n"
    "  --root DIR            the directory edits may touch (default: the current directory)\n"
    "  --dry-run             show what would change, write nothing\n"
    "  --json                print the response envelope (JSON) instead of text\n"
    "  --profile NAME        whose matching rules to use (default editcore)\n"
    "  --expect-hash [PATH=]sha256:HEX   refuse (CONFLICT) unless the file is exactly this\n"
    "  --quiet, -q           print nothing on success\n"
    "  --color=auto|always|never         colour diffs (auto: when stdout is a terminal)\n"
    "  --fixer CMD           apply, replace, json --files: when the edit fails with an error a model\n"
    "                        can repair, run CMD (sh -c) with the correction prompt as JSON\n"
    "                        {system, user, schema} on stdin; its stdout, the model's reply, is\n"
    "                        checked and applied like any edit (docs/correction.md). Native only\n"
    "\n"
    "exit status: 0 applied, 1 the edit did not apply, 2 usage or I/O error.\n"
    "`editcore <command> --help` tells more.\n";

static const char HELP_APPLY[] =
    "usage: editcore apply [--format NAME] [--path FILE] [options] [FILE|-]\n"
    "\n"
    "Reads a model's reply (FILE, or stdin when FILE is - or absent) and applies every edit in it\n"
    "to the files it names under the root: SEARCH/REPLACE blocks, ```diff fences, unified diffs,\n"
    "*** Begin Patch envelopes, with file names as models write them. New files and deletions are\n"
    "made where the dialect has them. All files change or none does.\n"
    "  --format NAME   read the reply as this dialect only: auto (default), search_replace,\n"
    "                  unified_diff, codex_patch, or whole_file (fenced code that names a file is\n"
    "                  that file's new content; never guessed in auto)\n"
    "  --path FILE     the file for edits that name none (Cline's and Roo's blocks)\n"
    "  --dry-run       print the diff, write nothing (try this first)\n"
    "Patches as patch(1) and git apply take them (docs/cli.md, Patches):\n"
    "  -p N, --strip=N drop N leading components of the diff's paths (default: git's a/ b/ and\n"
    "                  diff -r's old/ new/ dropped, other paths as written)\n"
    "  -R, --reverse   apply the diff backwards: undoes it (editcore apply -R fix.patch)\n"
    "  --check         only say whether it applies: exit 0 or 1, nothing written or printed\n"
    "                  on success\n"
    "  -i FILE         the patch file (as FILE)\n"
    "  An mbox from git format-patch applies its patches in order, all or nothing.\n"
    "  plus the common options (editcore --help).\n";

static const char HELP_REPLACE[] =
    "usage: editcore replace FILE (--old TEXT|--old-file F) (--new TEXT|--new-file F) [--all] [options]\n"
    "\n"
    "Replaces the one occurrence of the old text in FILE with the new text (every occurrence with\n"
    "--all), through editcore's matching ladder (line endings, indentation, escapes forgiven; an\n"
    "ambiguous or missing match is refused with the nearest candidates). --old-file/--new-file read\n"
    "the texts from files (- for stdin).\n"
    "  plus the common options (editcore --help).\n";

static const char HELP_DIFF[] =
    "usage: editcore diff A B\n"
    "\n"
    "Prints the unified diff that turns A into B (headers \"--- A\" / \"+++ B\", 3 lines of context),\n"
    "which `patch` and `git apply` read. Exit status as diff's: 0 the same, 1 different, 2 trouble.\n"
    "  --root DIR, --color=WHEN as everywhere.\n";

static const char HELP_JSON[] =
    "usage: editcore json [--diff] [--files [--dry-run]] [options] < request.json\n"
    "\n"
    "Runs one request of the JSON protocol (SPEC.md section 1) and prints the response.\n"
    "  --diff    print the summary (stderr) and the diffs (stdout) instead of JSON\n"
    "  --files   the request names its files (\"files\": [\"a.py\"], or only edit.path) and editcore\n"
    "            reads them from the root, then writes what changed (unless --dry-run)\n"
    "  --ceiling NAME=VALUE  the most options.limits.NAME a request may ask for (docs/limits.md)\n"
    "  --profile, --expect-hash and --root as everywhere.\n";

static const char HELP_BATCH[] =
    "usage: editcore batch [--files [--dry-run]] [--root DIR] < requests.jsonl\n"
    "\n"
    "JSON Lines: one request per line in, one response per line out, in order. A line that is not\n"
    "a valid request gets an error line and the rest still run; blank lines are skipped. With\n"
    "--files each request's files are read from (and written to) the root, as `json --files`.\n"
    "Exit status: the worst of the lines (0 all applied, 1 some did not, 2 I/O).\n"
    "Split a big batch across cores with GNU parallel:\n"
    "  parallel --pipepart -a requests.jsonl --block -1 -k -j2 editcore batch > responses.jsonl\n";

static int print_capabilities(void) {
  printf("{\"version\":\"%s\",\"supports\":{", ec_version());
  for (int p = 0; p < EC_PROFILE__COUNT; p++) {
    printf("%s\"%s\":[", p ? "," : "", ec_profile_name((ec_profile)p));
    int first = 1;
    for (int f = 0; f < EC_FORMAT__COUNT; f++) {
      if (!ec_supports((ec_format)f, (ec_profile)p)) continue;
      printf("%s\"%s\"", first ? "" : ",", ec_format_name((ec_format)f));
      first = 0;
    }
    printf("]");
  }
  printf("}}\n");
  return fflush(stdout) == 0 ? 0 : 2;
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "editcore: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(editcore --help for usage)\n");
  return 2;
}

/* --name=value or --name value; *i advances past what was used. NULL when missing. */
static const char *value_of(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (a[n] == '=') return a + n + 1;
  if (*i + 1 < argc) return argv[++*i];
  return NULL;
}

static const char HELP_TOOL[] =
    "usage: editcore tool NAME [--root DIR] [--dry-run] [--state FILE] < args.json\n"
    "\n"
    "Runs one agent tool call inside the root: the arguments (a JSON object, as the model sent them)\n"
    "on stdin, the tool's result (JSON, in the tool's own shape) on stdout. NAME is a tool id:\n"
    "Edit, Read, Write, str_replace_based_edit_tool, str_replace_editor, openhands/str_replace_editor,\n"
    "gemini/replace, gemini/write_file, mcp/edit_file, mcp/read_text_file, mcp/write_file, ...\n"
    "(`echo '{\"tool_definitions\":\"raw\"}' | editcore json` lists them with their schemas).\n"
    "--state FILE keeps the history undo_edit needs between calls.\n"
    "exit status: 0 success or partial, 1 an error result, 2 usage or I/O error.\n";

static bool is_flag(const char *a, const char *name) {
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

/* Parses everything after the command. Returns 0, or the exit status of a usage error. */
static int parse(int argc, char **argv, eh_opts *o) {
  bool only_pos = false;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || !strcmp(a, "-")) {
      if (o->n_pos == sizeof o->pos / sizeof *o->pos) return usage_error("too many arguments (%s)", a);
      o->pos[o->n_pos++] = a;
      continue;
    }
    if (!strcmp(a, "--")) { only_pos = true; continue; }
    const char *v;
#define TAKES(name, field)                                                   \
  if (is_flag(a, name)) {                                                    \
    if (!(v = value_of(argc, argv, &i, name))) return usage_error("%s needs a value", name); \
    o->field = v;                                                            \
    continue;                                                                \
  }
    TAKES("--root", root)
    TAKES("--old", old_text)
    TAKES("--old-file", old_file)
    TAKES("--new", new_text)
    TAKES("--new-file", new_file)
    TAKES("--format", format)
    TAKES("--state", state_file)
    TAKES("--path", path)
    TAKES("--fixer", fixer)
#undef TAKES
    if (!strcmp(a, "--dry-run")) { o->dry_run = true; continue; }
    /* patch's and git apply's spellings: -p1, -p 1, --strip=1, --strip 1; -R, --reverse; --check; -i FILE */
    if (!strncmp(a, "-p", 2) || is_flag(a, "--strip")) {
      const char *n = a[1] == 'p' && a[2] ? a + 2 : a[1] == 'p' ? NULL : strchr(a, '=') ? strchr(a, '=') + 1 : NULL;
      if (!n && !(n = i + 1 < argc ? argv[++i] : NULL)) return usage_error("%s needs a number", a);
      char *end;
      long level = strtol(n, &end, 10);
      if (!*n || *end || level < 0 || level > 4096) return usage_error("-p/--strip takes a number of path components (0 to 4096), not '%s'", n);
      o->has_strip = true;
      o->strip = (int)level;
      continue;
    }
    if (!strcmp(a, "-R") || !strcmp(a, "--reverse")) { o->reverse = true; continue; }
    if (!strcmp(a, "--check")) { o->check = o->dry_run = o->quiet = true; continue; }
    if (!strcmp(a, "-i")) {
      if (i + 1 >= argc) return usage_error("%s needs a value", a);
      if (o->n_pos == sizeof o->pos / sizeof *o->pos) return usage_error("too many arguments (%s)", argv[i + 1]);
      o->pos[o->n_pos++] = argv[++i];
      continue;
    }
    if (!strcmp(a, "--json")) { o->json = true; continue; }
    if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) { o->quiet = true; continue; }
    if (!strcmp(a, "--files")) { o->files = true; continue; }
    if (!strcmp(a, "--all")) { o->all = true; continue; }
    if (!strcmp(a, "--diff")) { o->diff_human = true; continue; }
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { o->help = true; continue; }
    if (is_flag(a, "--color") || is_flag(a, "--colour")) {
      const char *w = strchr(a, '=') ? strchr(a, '=') + 1 : "always";
      if (!strcmp(w, "auto")) o->color = -1;
      else if (!strcmp(w, "always")) o->color = 1;
      else if (!strcmp(w, "never")) o->color = 0;
      else return usage_error("--color takes auto, always or never, not '%s'", w);
      continue;
    }
    if (is_flag(a, "--profile")) {
      if (!(v = value_of(argc, argv, &i, "--profile"))) return usage_error("%s needs a value", "--profile");
      if (!ec_profile_from_name((ec_str){v, strlen(v)}, &o->profile)) return usage_error("unknown profile '%s'", v);
      o->has_profile = true;
      continue;
    }
    if (is_flag(a, "--ceiling")) {
      /* NAME=VALUE: the most options.limits.NAME a request may ask for (docs/limits.md) */
      if (!(v = value_of(argc, argv, &i, "--ceiling"))) return usage_error("%s needs a value", "--ceiling");
      const char *eq = strchr(v, '=');
      char name[64], *end = NULL;
      if (!eq || (size_t)(eq - v) >= sizeof name) return usage_error("--ceiling takes NAME=VALUE, not '%s'", v);
      memcpy(name, v, (size_t)(eq - v));
      name[eq - v] = 0;
      unsigned long long n = strtoull(eq + 1, &end, 10);
      if (!eq[1] || *end || eq[1] == '-' || !ec_limits_set(eh_ceilings(), name, n))
        return usage_error("--ceiling %s: not a limit (docs/limits.md), or not a positive integer", v);
      continue;
    }
    if (is_flag(a, "--expect-hash")) {
      if (!(v = value_of(argc, argv, &i, "--expect-hash"))) return usage_error("%s needs a value", "--expect-hash");
      if (o->n_hashes == sizeof o->hashes / sizeof *o->hashes) return usage_error("too many %s", "--expect-hash");
      /* PATH=HASH, or HASH alone; a hash has no '=' so the last '=' splits. */
      const char *eq = strrchr(v, '=');
      eh_hash_arg h = {NULL, 0, v};
      if (eq) {
        h.path = v;
        h.path_len = (size_t)(eq - v);
        h.hash = eq + 1;
      }
      o->hashes[o->n_hashes++] = h;
      continue;
    }
    return usage_error("unknown option '%s'", a);
  }
  return 0;
}

int eh_main(int argc, char **argv, int no_command_is_json) {
  eh_opts o;
  memset(&o, 0, sizeof o);
  o.root = ".";
  o.color = -1;
  eh_sandbox_before_look(eh_settle); /* every path resolved first settles a killed writer's leftovers */
  if (argc < 2) {
    if (no_command_is_json) return eh_cmd_json(&o);
    fputs(USAGE, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) { fputs(USAGE, stdout); return 0; }
  if (!strcmp(cmd, "--version")) cmd = "version";
  int rc = parse(argc, argv, &o);
  if (rc) return rc;
  struct {
    const char *name;
    int (*run)(const eh_opts *);
    const char *help;
  } const cmds[] = {
      {"apply", eh_cmd_apply, HELP_APPLY}, {"replace", eh_cmd_replace, HELP_REPLACE}, {"diff", eh_cmd_diff, HELP_DIFF},
      {"json", eh_cmd_json, HELP_JSON},    {"batch", eh_cmd_batch, HELP_BATCH},
      {"tool", eh_cmd_tool, HELP_TOOL},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    if (strcmp(cmd, cmds[i].name)) continue;
    if (o.help) { fputs(cmds[i].help, stdout); return 0; }
    if (!strcmp(cmd, "json") && o.n_pos) return usage_error("json takes its request on stdin, not '%s'", o.pos[0]);
    if ((o.has_strip || o.reverse) && o.fixer)
      return usage_error("--fixer corrects an edit as the model wrote it, not one read with -p or -R (%s)", o.fixer);
    if ((o.has_strip || o.reverse || o.check) && strcmp(cmd, "apply"))
      return usage_error("-p/--strip, -R/--reverse and --check read patches: they are options of apply, not %s", cmd);
    if (o.fixer && !eh_fixer_supported())
      return usage_error("--fixer runs a command (%s), which a WASI program cannot do; use the native editcore for --fixer", o.fixer);
    if (o.fixer && (!strcmp(cmd, "batch") || (!strcmp(cmd, "json") && !o.files)))
      return usage_error("--fixer is for commands that apply edits to files: apply, replace, json --files (not %s)", cmd);
    return cmds[i].run(&o);
  }
  if (!strcmp(cmd, "capabilities") || !strcmp(cmd, "version")) {
    if (o.help) { printf("usage: editcore %s\n", cmd); return 0; }
    if (argc != 2) return usage_error("%s takes no arguments", cmd);
    if (cmd[0] == 'c') return print_capabilities();
    printf("%s\n", ec_version());
    return fflush(stdout) == 0 ? 0 : 2;
  }
  return usage_error("unknown command '%s'", cmd);
}
