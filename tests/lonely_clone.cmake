# SPDX-License-Identifier: Apache-2.0
# A clone with nothing beside it must pass its own test suite. Two cheap checks:
# 1. No file of the repository points outside it: README, docs, code, tests,
#    scripts and samples never name the upstream folder or its spec pages.
#    Only tests/CMakeLists.txt may, for the optional drift check of the examples.
# 2. Every test executable that may look at that upstream folder (those built
#    with HSDP_SHARED_DIR) passes, and says it skipped, when the folder is absent.
# Usage: cmake -DSOURCE_DIR=DIR -DMISSING_DIR=DIR -DEXECUTABLES="a|b" -P lonely_clone.cmake
cmake_minimum_required(VERSION 3.25)

set(outside_patterns "\\.\\./shared" "shared/spec" "shared/seeds" "SCENARIO\\.md" "PLAN\\.md"
    "RUN\\.md")
set(allowed "tests/CMakeLists.txt" "tests/lonely_clone.cmake")

file(GLOB_RECURSE candidates RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/README.md" "${SOURCE_DIR}/CMakeLists.txt" "${SOURCE_DIR}/.ci/*"
     "${SOURCE_DIR}/docs/*" "${SOURCE_DIR}/core/*" "${SOURCE_DIR}/app/*" "${SOURCE_DIR}/bench/*"
     "${SOURCE_DIR}/tests/*" "${SOURCE_DIR}/scripts/*" "${SOURCE_DIR}/samples/*")
set(offenders "")
foreach(file IN LISTS candidates)
  if(file IN_LIST allowed OR file MATCHES "__pycache__")
    continue()
  endif()
  file(READ "${SOURCE_DIR}/${file}" text)
  foreach(pattern IN LISTS outside_patterns)
    if(text MATCHES "${pattern}")
      list(APPEND offenders "${file} (matches ${pattern})")
    endif()
  endforeach()
endforeach()
list(LENGTH candidates scanned)
if(scanned LESS 50)
  message(FATAL_ERROR "scanned only ${scanned} files under ${SOURCE_DIR}: wrong SOURCE_DIR?")
endif()
if(offenders)
  list(JOIN offenders "\n  " text)
  message(FATAL_ERROR "files pointing outside the repository (use docs/ instead):\n  ${text}")
endif()
message(STATUS "${scanned} files scanned: none points outside the repository")

if(EXISTS "${MISSING_DIR}")
  message(FATAL_ERROR "${MISSING_DIR} exists; it must stand for a missing folder")
endif()
string(REPLACE "|" ";" executables "${EXECUTABLES}")
foreach(exe IN LISTS executables)
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E env "HSDP_SHARED_DIR=${MISSING_DIR}" QT_QPA_PLATFORM=offscreen
            "${exe}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} fails without the upstream folder (exit ${rc}):\n${out}")
  endif()
  if(NOT out MATCHES "SKIP")
    message(FATAL_ERROR "${exe} did not skip its upstream check; did it read another folder?\n${out}")
  endif()
  message(STATUS "${exe}: passes without the upstream folder (its drift check skipped)")
endforeach()
