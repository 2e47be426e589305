# PCRE2 10.42 and cJSON 1.7.15.
# Native builds link the system's (Debian: libpcre2-dev, libcjson-dev; PCRE2 for a test only) unless
# EDITCORE_DEPS_FROM_SOURCE is on; wasm builds compile cJSON from source:
#   EDITCORE_PCRE2_SOURCE / EDITCORE_CJSON_SOURCE: a local tarball or unpacked directory
#   (default: third_party/src/, where scripts/install-deps.sh puts Debian's source packages,
#   whose orig tarballs are byte-identical to upstream's); otherwise FetchContent downloads the
#   upstream tarballs. Either way the SHA-256 below is checked.
include(FetchContent)
if(POLICY CMP0135)
  cmake_policy(SET CMP0135 NEW) # extracted files get the extraction time
endif()

set(EDITCORE_PCRE2_SHA256 c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f)
set(EDITCORE_CJSON_SHA256 5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2)
set(EDITCORE_PCRE2_URL https://github.com/PCRE2Project/pcre2/releases/download/pcre2-10.42/pcre2-10.42.tar.gz)
set(EDITCORE_CJSON_URL https://github.com/DaveGamble/cJSON/archive/refs/tags/v1.7.15.tar.gz)

set(_default_pcre2 "")
set(_default_cjson "")
if(EXISTS "${PROJECT_SOURCE_DIR}/third_party/src/pcre2_10.42.orig.tar.gz")
  set(_default_pcre2 "${PROJECT_SOURCE_DIR}/third_party/src/pcre2_10.42.orig.tar.gz")
endif()
if(EXISTS "${PROJECT_SOURCE_DIR}/third_party/src/cjson_1.7.15.orig.tar.gz")
  set(_default_cjson "${PROJECT_SOURCE_DIR}/third_party/src/cjson_1.7.15.orig.tar.gz")
endif()
set(EDITCORE_PCRE2_SOURCE "${_default_pcre2}" CACHE STRING "PCRE2 10.42 tarball or directory (empty: download)")
set(EDITCORE_CJSON_SOURCE "${_default_cjson}" CACHE STRING "cJSON 1.7.15 tarball or directory (empty: download)")
option(EDITCORE_DEPS_FROM_SOURCE "Build PCRE2 and cJSON from source even natively" OFF)

# Declares and populates one dependency; sets <name>_SOURCE_DIR.
function(editcore_fetch name source url sha)
  if(source AND IS_DIRECTORY "${source}")
    set(${name}_SOURCE_DIR "${source}" PARENT_SCOPE)
    return()
  endif()
  if(source)
    file(SHA256 "${source}" _sum)
    if(NOT _sum STREQUAL sha)
      message(FATAL_ERROR "${source}: SHA-256 ${_sum}, expected ${sha}")
    endif()
    FetchContent_Declare(${name} URL "${source}" URL_HASH SHA256=${sha})
  else()
    FetchContent_Declare(${name} URL "${url}" URL_HASH SHA256=${sha})
  endif()
  FetchContent_GetProperties(${name})
  if(NOT ${name}_POPULATED)
    FetchContent_Populate(${name})
  endif()
  set(${name}_SOURCE_DIR "${${name}_SOURCE_DIR}" PARENT_SCOPE)
endfunction()

if(EDITCORE_NATIVE AND NOT EDITCORE_DEPS_FROM_SOURCE)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
  pkg_check_modules(CJSON REQUIRED IMPORTED_TARGET libcjson)
  add_library(editcore_pcre2 INTERFACE)
  target_link_libraries(editcore_pcre2 INTERFACE PkgConfig::PCRE2)
  target_compile_definitions(editcore_pcre2 INTERFACE PCRE2_CODE_UNIT_WIDTH=8)
  add_library(editcore_cjson INTERFACE)
  target_link_libraries(editcore_cjson INTERFACE PkgConfig::CJSON)
  # Debian puts cJSON.h in /usr/include/cjson; the code includes <cjson/cJSON.h>.
  target_include_directories(editcore_cjson INTERFACE /usr/include)
  return()
endif()

editcore_fetch(cjson "${EDITCORE_CJSON_SOURCE}" "${EDITCORE_CJSON_URL}" "${EDITCORE_CJSON_SHA256}")

# PCRE2 is no longer part of the engine (core/src/match/regex.c matches its one regex shape
# directly); native builds keep it as the oracle of tests/unit/token_regex_test.c, wasm builds
# do not build it.
if(EDITCORE_NATIVE)
editcore_fetch(pcre2 "${EDITCORE_PCRE2_SOURCE}" "${EDITCORE_PCRE2_URL}" "${EDITCORE_PCRE2_SHA256}")
# PCRE2: the generic config, 8-bit, no JIT (wasm has none), and no Unicode support: editcore
# compiles its patterns in byte mode (no PCRE2_UTF/UCP; see core/src/match/regex.c), where
# matching is the same with or without it, so the ~120 KB of Unicode tables would only weigh
# down the browser build. Native builds on Debian's library match identically.
set(_pcre2_gen "${CMAKE_BINARY_DIR}/deps/pcre2")
configure_file("${pcre2_SOURCE_DIR}/src/pcre2.h.generic" "${_pcre2_gen}/pcre2.h" COPYONLY)
configure_file("${pcre2_SOURCE_DIR}/src/config.h.generic" "${_pcre2_gen}/config.h" COPYONLY)
configure_file("${pcre2_SOURCE_DIR}/src/pcre2_chartables.c.dist" "${_pcre2_gen}/pcre2_chartables.c" COPYONLY)
# Only what pcre2_compile and pcre2_match (the interpreter, no DFA, no JIT) reach: no convert,
# DFA, serialize, substitute, substring or table-making code is built.
set(_pcre2_srcs auto_possess compile context extuni find_bracket match match_data newline
    ord2utf script_run string_utils study tables ucd valid_utf xclass)
list(TRANSFORM _pcre2_srcs PREPEND "${pcre2_SOURCE_DIR}/src/pcre2_")
list(TRANSFORM _pcre2_srcs APPEND ".c")
add_library(editcore_pcre2 STATIC ${_pcre2_srcs} "${_pcre2_gen}/pcre2_chartables.c")
target_include_directories(editcore_pcre2 PUBLIC "${_pcre2_gen}" PRIVATE "${pcre2_SOURCE_DIR}/src")
target_compile_definitions(editcore_pcre2 PUBLIC PCRE2_CODE_UNIT_WIDTH=8 PCRE2_STATIC
                           PRIVATE HAVE_CONFIG_H HAVE_MEMMOVE HAVE_STDINT_H HAVE_INTTYPES_H)
target_compile_options(editcore_pcre2 PRIVATE -w)
endif()

# cJSON with Debian's patches, when their tarball sits next to the orig one (scripts/install-deps.sh
# fetches both): the wasm builds then compile the very cJSON the native build links (1.7.15 plus
# Debian's security fixes: numbers longer than 63 characters, CVE-2023-26819; a read past a
# trailing comma; CVE-2025-57052), not the bare release.
file(GLOB _cjson_debian "${PROJECT_SOURCE_DIR}/third_party/src/cjson_1.7.15-*.debian.tar.xz")
if(_cjson_debian)
  list(SORT _cjson_debian COMPARE NATURAL)
  list(GET _cjson_debian -1 _cjson_debian)
  get_filename_component(_cjson_rev "${_cjson_debian}" NAME)
  set(_cjson_patched "${CMAKE_BINARY_DIR}/deps/cjson-debian")
  set(_cjson_applied "")
  if(EXISTS "${_cjson_patched}/.applied")
    file(READ "${_cjson_patched}/.applied" _cjson_applied)
  endif()
  if(NOT _cjson_applied STREQUAL _cjson_rev)
    find_program(EDITCORE_PATCH patch) # scripts/install-deps.sh installs it
    file(REMOVE_RECURSE "${_cjson_patched}")
    file(COPY "${cjson_SOURCE_DIR}/" DESTINATION "${_cjson_patched}")
    file(ARCHIVE_EXTRACT INPUT "${_cjson_debian}" DESTINATION "${_cjson_patched}")
    file(STRINGS "${_cjson_patched}/debian/patches/series" _cjson_series REGEX "^[^#]")
    foreach(_p IN LISTS _cjson_series)
      string(STRIP "${_p}" _p)
      if(NOT EDITCORE_PATCH)
        message(FATAL_ERROR "cJSON: applying Debian's patches needs the patch program (apt-get install patch)")
      endif()
      execute_process(COMMAND "${EDITCORE_PATCH}" -p1 --batch -i "debian/patches/${_p}" WORKING_DIRECTORY "${_cjson_patched}" RESULT_VARIABLE _r OUTPUT_QUIET ERROR_VARIABLE _e)
      if(NOT _r EQUAL 0)
        message(FATAL_ERROR "cJSON: Debian's patch ${_p} (${_cjson_rev}) did not apply: ${_e}")
      endif()
    endforeach()
    file(WRITE "${_cjson_patched}/.applied" "${_cjson_rev}")
  endif()
  set(cjson_SOURCE_DIR "${_cjson_patched}")
endif()

# cJSON, reachable as <cjson/cJSON.h> like Debian's package.
set(_cjson_inc "${CMAKE_BINARY_DIR}/deps/cjson-include")
configure_file("${cjson_SOURCE_DIR}/cJSON.h" "${_cjson_inc}/cjson/cJSON.h" COPYONLY)
add_library(editcore_cjson STATIC "${cjson_SOURCE_DIR}/cJSON.c")
target_include_directories(editcore_cjson PUBLIC "${_cjson_inc}")
target_compile_options(editcore_cjson PRIVATE -w)
