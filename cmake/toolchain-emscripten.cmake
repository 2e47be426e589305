# Finds Emscripten's own toolchain file wherever the emscripten package put it.
find_program(EDITCORE_EMCC emcc REQUIRED)
get_filename_component(_emcc_real "${EDITCORE_EMCC}" REALPATH)
get_filename_component(_em_root "${_emcc_real}" DIRECTORY)
foreach(_cand "${_em_root}/cmake/Modules/Platform/Emscripten.cmake"
              "/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake"
              "$ENV{EMSDK}/upstream/emscripten/cmake/Modules/Platform/Emscripten.cmake")
  if(EXISTS "${_cand}")
    include("${_cand}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "Emscripten.cmake not found next to ${_emcc_real}")
