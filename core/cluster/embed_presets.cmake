# SPDX-License-Identifier: Apache-2.0
# Writes OUTPUT: one C++ initializer {"name", R"delim(text)delim"} per
# PRESET_DIR/*.json, in file-name order, for core/cluster/detail/embedded_presets.cpp.
# Run by the build (core/CMakeLists.txt) whenever a preset file changes.
file(GLOB presets ${PRESET_DIR}/*.json)
list(SORT presets)
set(delimiter "hsdp_preset")
set(out "// Generated from resources/clusters/ by core/cluster/embed_presets.cmake: do not edit.\n")
foreach(preset ${presets})
  get_filename_component(name ${preset} NAME_WE)
  file(READ ${preset} text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${preset} contains the raw-string delimiter )${delimiter}\"")
  endif()
  string(APPEND out "{\"${name}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
file(WRITE ${OUTPUT} "${out}")
