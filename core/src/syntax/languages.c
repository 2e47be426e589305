/*
 * Which language a file is in: from its name alone (an extension or a well-known file name),
 * or from the name a host or model gives (ec_edit.language). Nothing is guessed from the
 * content: a path this table does not know is "unknown" and is not checked.
 * The table is the same in every build; whether a grammar is there to parse it is the
 * backend's answer (all of them natively and under WASI, on demand in the browser).
 */
#include "syntax.h"
#include "../base/str.h"

typedef struct lang_row {
  ec_syn_lang lang;
  const char *suffixes; /* ".py .pyi": file name endings, space-separated, compared exactly */
  const char *names;    /* "Gemfile Rakefile": whole file names */
  const char *aliases;  /* other names a host may give (VS Code language ids) */
} lang_row;

/* .h is C++: its grammar is a superset of C's, so C headers parse too, and C++ headers (classes,
 * templates, namespaces) do not fail for the wrong grammar. */
static const lang_row LANGS[] = {
    {{"python", "function_definition class_definition"}, ".py .pyi .pyw", "", "py"},
    {{"javascript", "function_declaration generator_function_declaration class_declaration method_definition"},
     ".js .mjs .cjs .jsx", "", "js javascriptreact jsx"},
    {{"typescript", "function_declaration generator_function_declaration class_declaration abstract_class_declaration "
                    "method_definition interface_declaration enum_declaration internal_module"},
     ".ts .mts .cts", "", "ts"},
    {{"tsx", "function_declaration generator_function_declaration class_declaration abstract_class_declaration "
             "method_definition interface_declaration enum_declaration internal_module"},
     ".tsx", "", "typescriptreact"},
    {{"go", "function_declaration method_declaration type_declaration"}, ".go", "", "golang"},
    {{"rust", "function_item impl_item trait_item struct_item enum_item mod_item"}, ".rs", "", "rs"},
    {{"c", "function_definition", true}, ".c", "", ""},
    {{"cpp", "function_definition class_specifier namespace_definition", true},
     ".cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .h .inl .ipp", "", "c++"},
    {{"java", "class_declaration interface_declaration enum_declaration record_declaration method_declaration "
              "constructor_declaration"},
     ".java", "", ""},
    {{"json", ""}, ".json .jsonc", ".babelrc .eslintrc", "jsonc"},
    {{"ruby", "method singleton_method class module"}, ".rb .rake .gemspec .ru", "Gemfile Rakefile", "rb"},
    {{"lua", "function_declaration"}, ".lua", "", ""},
    {{"bash", "function_definition"}, ".sh .bash", ".bashrc .bash_profile", "sh shellscript shell"},
    {{"html", ""}, ".html .htm", "", ""},
    {{"css", ""}, ".css", "", ""},
    {{"scala", "class_definition object_definition trait_definition function_definition"}, ".scala .sc", "", ""},
    {{"php", "function_definition class_declaration method_declaration interface_declaration trait_declaration"},
     ".php", "", ""},
    {{"csharp", "class_declaration struct_declaration interface_declaration record_declaration enum_declaration "
                "method_declaration constructor_declaration namespace_declaration"},
     ".cs", "", "c#"},
    {{"yaml", ""}, ".yml .yaml", "", "yml"},
    {{"toml", ""}, ".toml", "", ""},
    {{"kotlin", "class_declaration object_declaration function_declaration"}, ".kt .kts", "", ""},
};

/* Whether `word` is one of the space-separated words of `list`; with `suffix`, whether `s` ends in one. */
static bool in_list(const char *list, ec_str s, bool suffix) {
  while (*list) {
    while (*list == ' ') list++;
    size_t n = 0;
    while (list[n] && list[n] != ' ') n++;
    if (n && (suffix ? s.len > n && !memcmp(s.ptr + s.len - n, list, n) : s.len == n && !memcmp(s.ptr, list, n)))
      return true;
    list += n;
  }
  return false;
}

const ec_syn_lang *ec_syn_lang_for(ec_str path, ec_str named, ec_str *name) {
  const size_t n = sizeof LANGS / sizeof LANGS[0];
  if (named.len) {
    *name = named;
    for (size_t i = 0; i < n; i++)
      if (ec_str_eq_cstr(named, LANGS[i].lang.name) || in_list(LANGS[i].aliases, named, false)) {
        *name = ec_cstr(LANGS[i].lang.name);
        return &LANGS[i].lang;
      }
    return NULL;
  }
  size_t cut = path.len;
  while (cut > 0 && path.ptr[cut - 1] != '/') cut--;
  ec_str base = ec_str_make(path.ptr + cut, path.len - cut);
  for (size_t i = 0; i < n; i++)
    if (in_list(LANGS[i].names, base, false) || in_list(LANGS[i].suffixes, base, true)) {
      *name = ec_cstr(LANGS[i].lang.name);
      return &LANGS[i].lang;
    }
  *name = ec_cstr("unknown");
  return NULL;
}
