# SPDX-License-Identifier: Apache-2.0
# `cmake --install` into a fresh prefix gives working tools: the installed
# hsdp-inspect plans an installed sample and writes a report through the
# installed hsdp-inspect-report (it is started from hsdp-inspect's folder),
# and the installed studio given no scenario opens the installed default sample.
# Usage: cmake -DBINARY_DIR=DIR -DPREFIX=DIR -P installed_tools.cmake
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BINARY_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE installed OUTPUT_QUIET)
if(NOT installed EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${installed})")
endif()

set(sample "${PREFIX}/share/hsdp-studio/samples/teaching_2x2.json")
foreach(path "${PREFIX}/bin/hsdp-inspect" "${PREFIX}/bin/hsdp-inspect-report"
             "${PREFIX}/bin/hsdp-studio" "${sample}")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "not installed: ${path}")
  endif()
endforeach()

execute_process(COMMAND "${PREFIX}/bin/hsdp-inspect" plan "${sample}" --json
                RESULT_VARIABLE planned OUTPUT_VARIABLE plan ERROR_VARIABLE errors)
if(NOT planned EQUAL 0 OR NOT plan MATCHES "\"world_size\"")
  message(FATAL_ERROR "installed hsdp-inspect plan failed (${planned}): ${errors}")
endif()

set(report "${PREFIX}/report.html")
execute_process(COMMAND "${PREFIX}/bin/hsdp-inspect" report "${sample}" -o "${report}"
                RESULT_VARIABLE reported ERROR_VARIABLE errors)
if(NOT reported EQUAL 0 OR NOT EXISTS "${report}")
  message(FATAL_ERROR "installed hsdp-inspect report failed (${reported}): ${errors}")
endif()
file(READ "${report}" html)
if(NOT html MATCHES "teaching")
  message(FATAL_ERROR "the installed tools' report does not name the sample's scenario")
endif()

# Given no scenario, the installed studio opens the installed default sample.
set(shots "${PREFIX}/shots")
execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
                        "${PREFIX}/bin/hsdp-studio" --screenshot "${shots}"
                RESULT_VARIABLE shot OUTPUT_VARIABLE said ERROR_VARIABLE errors)
if(NOT shot EQUAL 0 OR NOT EXISTS "${shots}/window.png" OR NOT EXISTS "${shots}/owner-balance.png")
  message(FATAL_ERROR "installed hsdp-studio --screenshot with no scenario failed (${shot}): "
                      "${said} ${errors}")
endif()
if(NOT said MATCHES "opening the installed sample [^\n]*/share/hsdp-studio/samples/llama3_8b_hsdp_2x4.json")
  message(FATAL_ERROR "the studio given no scenario did not open the installed default sample: ${said}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
