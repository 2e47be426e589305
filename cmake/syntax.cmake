# The tree-sitter runtime and grammars (issue 32, docs/syntax.md), from the npm tarballs listed in
# cmake/syntax-packages.txt: each is checked against its SHA-256 and unpacked into the build
# tree; nothing of theirs is in the repository. A missing tarball is fetched with
# scripts/fetch-syntax-sources.sh (npm pack), as scripts/install-deps.sh does.
#
# Defines:
#   editcore_ts_runtime            static library: the runtime (lib.c, one translation unit)
#   editcore_grammar_<language>    object library per grammar (parser.c, scanner.c)
#   EDITCORE_SYNTAX_LANGUAGES      the languages, in the list's order
#   EDITCORE_SYNTAX_CNAME_<lang>   the suffix of tree_sitter_<c name>()
#   EDITCORE_TS_INCLUDE            the runtime's public include directory
#   editcore_grammars.h            X(name, c_name) rows, in ${CMAKE_BINARY_DIR}/deps/syntax
#
# Optimisation: grammars are mostly tables; their code is one lexer function each. They build
# at -O1 on every target (-Oz under Emscripten's global flags is kept there), which parses as
# fast as -O2 and compiles faster (docs/syntax.md, "Build"). The runtime is hot code: -O2, or the
# target's size flags in the browser. Sanitizers and fuzzing coverage are off in both: they are
# others' code, and the fuzz preset's coverage map would fill with parse-table branches.

set(EDITCORE_NPM_SOURCE "${PROJECT_SOURCE_DIR}/third_party/src/npm" CACHE PATH
    "Folder holding the npm tarballs of cmake/syntax-packages.txt")
set(_syntax_unpack "${CMAKE_BINARY_DIR}/deps/npm")
set(_syntax_gen "${CMAKE_BINARY_DIR}/deps/syntax")
file(MAKE_DIRECTORY "${_syntax_unpack}" "${_syntax_gen}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/cmake/syntax-packages.txt")

file(STRINGS "${PROJECT_SOURCE_DIR}/cmake/syntax-packages.txt" _syntax_lines REGEX "^[^#]")
set(EDITCORE_SYNTAX_LANGUAGES "")
set(_syntax_rows "")
set(_syntax_fetched OFF)
set(_syntax_plain_flags -w)
if(CMAKE_C_FLAGS MATCHES "sanitize")
  list(APPEND _syntax_plain_flags -fno-sanitize=all)
endif()
if(EDITCORE_TARGET STREQUAL "emscripten")
  # Plain objects, not LTO bitcode: the grammars' tables gain nothing from link-time
  # optimisation, and each per-language module would redo it (wasm/CMakeLists.txt).
  list(APPEND _syntax_plain_flags -fno-lto)
endif()
if(CMAKE_C_FLAGS MATCHES "fuzzer")
  list(APPEND _syntax_plain_flags -fno-sanitize-coverage=trace-pc-guard,trace-cmp,pc-table,inline-8bit-counters,indirect-calls)
endif()

foreach(_line IN LISTS _syntax_lines)
  string(REGEX REPLACE "[ \t]+" ";" _fields "${_line}")
  list(POP_FRONT _fields _spec _sha)
  if(NOT _spec)
    continue()
  endif()
  # npm pack's file name: '@' dropped, '/' as '-', then -VERSION.tgz
  string(REGEX REPLACE "@([^@]*)$" ";\\1" _nv "${_spec}")
  list(GET _nv 0 _pkg)
  list(GET _nv 1 _ver)
  string(REGEX REPLACE "^@" "" _file "${_pkg}")
  string(REPLACE "/" "-" _file "${_file}")
  set(_tgz "${EDITCORE_NPM_SOURCE}/${_file}-${_ver}.tgz")
  if(NOT EXISTS "${_tgz}" AND NOT _syntax_fetched)
    message(STATUS "syntax: fetching the npm tarballs (scripts/fetch-syntax-sources.sh)")
    execute_process(COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/fetch-syntax-sources.sh" "${EDITCORE_NPM_SOURCE}"
                    RESULT_VARIABLE _rc)
    set(_syntax_fetched ON)
  endif()
  if(NOT EXISTS "${_tgz}")
    message(FATAL_ERROR "syntax: ${_tgz} is missing; run scripts/install-deps.sh (or scripts/fetch-syntax-sources.sh)")
  endif()
  set(_dir "${_syntax_unpack}/${_file}-${_ver}")
  if(NOT EXISTS "${_dir}/.sha256" OR NOT EXISTS "${_dir}/package")
    file(SHA256 "${_tgz}" _sum)
    if(NOT _sum STREQUAL _sha)
      message(FATAL_ERROR "syntax: ${_tgz}: SHA-256 ${_sum}, expected ${_sha} (cmake/syntax-packages.txt)")
    endif()
    file(REMOVE_RECURSE "${_dir}")
    file(ARCHIVE_EXTRACT INPUT "${_tgz}" DESTINATION "${_dir}")
    file(WRITE "${_dir}/.sha256" "${_sha}\n")
  else()
    file(READ "${_dir}/.sha256" _was)
    string(STRIP "${_was}" _was)
    if(NOT _was STREQUAL _sha)
      message(FATAL_ERROR "syntax: ${_dir} was unpacked from another version; remove it and configure again")
    endif()
  endif()

  foreach(_g IN LISTS _fields)
    string(REGEX MATCH "^([a-z_+]+)(:([a-z_]+))?=(.+)$" _m "${_g}")
    if(NOT _m)
      message(FATAL_ERROR "syntax: cannot read '${_g}' in cmake/syntax-packages.txt")
    endif()
    set(_lang "${CMAKE_MATCH_1}")
    set(_cname "${CMAKE_MATCH_3}")
    set(_src "${_dir}/package/${CMAKE_MATCH_4}")
    if(_lang STREQUAL "runtime")
      set(EDITCORE_TS_INCLUDE "${_src}/include")
      add_library(editcore_ts_runtime STATIC "${_src}/src/lib.c")
      target_include_directories(editcore_ts_runtime PUBLIC "${_src}/include" PRIVATE "${_src}/src")
      target_compile_options(editcore_ts_runtime PRIVATE ${_syntax_plain_flags})
      if(NOT EDITCORE_TARGET STREQUAL "emscripten")
        target_compile_options(editcore_ts_runtime PRIVATE -O2)
      endif()
      # lib.c wants POSIX's fdopen/dup for its debugging graph output, which editcore never calls.
      target_compile_definitions(editcore_ts_runtime PRIVATE _POSIX_C_SOURCE=200809L _DEFAULT_SOURCE)
      set_target_properties(editcore_ts_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 11)
      continue()
    endif()
    if(NOT _cname)
      set(_cname "${_lang}")
    endif()
    file(STRINGS "${_src}/parser.c" _abi REGEX "^#define LANGUAGE_VERSION [0-9]+" LIMIT_COUNT 1)
    string(REGEX REPLACE "[^0-9]" "" _abi "${_abi}")
    if(NOT _abi OR _abi LESS 13 OR _abi GREATER 15)
      message(FATAL_ERROR "syntax: ${_lang}'s parser.c has ABI '${_abi}'; the runtime reads 13 to 15")
    endif()
    set(_srcs "${_src}/parser.c")
    if(EXISTS "${_src}/scanner.c")
      list(APPEND _srcs "${_src}/scanner.c")
    endif()
    add_library(editcore_grammar_${_lang} OBJECT ${_srcs})
    target_include_directories(editcore_grammar_${_lang} PRIVATE "${_src}")
    target_compile_options(editcore_grammar_${_lang} PRIVATE ${_syntax_plain_flags})
    if(NOT EDITCORE_TARGET STREQUAL "emscripten")
      target_compile_options(editcore_grammar_${_lang} PRIVATE -O1 -g0)
    endif()
    set_target_properties(editcore_grammar_${_lang} PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 11)
    list(APPEND EDITCORE_SYNTAX_LANGUAGES "${_lang}")
    set(EDITCORE_SYNTAX_CNAME_${_lang} "${_cname}")
    string(APPEND _syntax_rows "  X(${_lang}, ${_cname}) \\\n")
  endforeach()
endforeach()
if(NOT TARGET editcore_ts_runtime)
  message(FATAL_ERROR "syntax: cmake/syntax-packages.txt names no runtime")
endif()

file(WRITE "${_syntax_gen}/editcore_grammars.h.new"
     "/* Generated by cmake/syntax.cmake from cmake/syntax-packages.txt: one X(name, c_name) per grammar. */\n"
     "#define EC_TS_GRAMMARS(X) \\\n${_syntax_rows}\n")
configure_file("${_syntax_gen}/editcore_grammars.h.new" "${_syntax_gen}/editcore_grammars.h" COPYONLY)
set(EDITCORE_SYNTAX_GENERATED "${_syntax_gen}")
