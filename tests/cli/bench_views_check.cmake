# SPDX-License-Identifier: Apache-2.0
# bench_views_cli: runs `hsdp-bench views --json --scenario SCENARIO` and checks
# the figures it prints, not only their names: every one a finite number
# (JSON has no NaN or infinity: nlohmann writes them as null) below a minute,
# positive for the work timed (GUI gaps may be 0); the counts match the
# scenario (ranks = the mesh's size, params = its params, tree rows at least
# one per param); the goals name timed figures only; the exit code says
# whether the goals were met (0) or not (1) and agrees with the figures; and
# the medians fit in the time the command took (at least half of a figure's
# rounds take its median or longer).
# Usage: cmake -DBENCH=hsdp-bench -DSCENARIO=FILE -P bench_views_check.cmake
cmake_minimum_required(VERSION 3.25)

function(fail)
  list(JOIN ARGN "" text)
  message(FATAL_ERROR "bench_views_cli: ${text}\n--- output ---\n${out}\n--- stderr ---\n${err}")
endfunction()

# A millisecond figure as whole microseconds (rounded down), for sums: math()
# is integer only.
function(ms_to_us number result)
  if(NOT number MATCHES "^([0-9]+)(\\.([0-9]*))?([eE]([-+]?[0-9]+))?$")
    fail("not a plain non-negative number: ${number}")
  endif()
  set(int "${CMAKE_MATCH_1}")
  set(frac "${CMAKE_MATCH_3}")
  set(exp "${CMAKE_MATCH_5}")
  if(exp STREQUAL "")
    set(exp 0)
  endif()
  string(LENGTH "${int}" point)
  math(EXPR point "${point} + ${exp} + 3")
  if(point LESS_EQUAL 0)
    set(${result} 0 PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${int}${frac}000000000000000000000000" 0 ${point} whole)
  string(REGEX REPLACE "^0+([0-9])" "\\1" whole "${whole}")
  set(${result} ${whole} PARENT_SCOPE)
endfunction()

string(TIMESTAMP started "%s" UTC)
execute_process(COMMAND ${BENCH} views --json --scenario ${SCENARIO}
  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP finished "%s" UTC)
math(EXPR wall_us "(${finished} - ${started} + 1) * 1000000")
if(NOT code MATCHES "^[01]$")
  fail("exit code ${code} (0: goals met, 1: not met)")
endif()
string(JSON benchmark ERROR_VARIABLE json_error GET "${out}" benchmark)
if(json_error)
  fail("the output is not the JSON object expected: ${json_error}")
endif()
if(NOT benchmark STREQUAL "views")
  fail("benchmark is '${benchmark}', not 'views'")
endif()

# The counts against the scenario itself.
file(READ "${SCENARIO}" scenario)
string(JSON dims LENGTH "${scenario}" mesh shape)
set(world 1)
math(EXPR last "${dims} - 1")
foreach(i RANGE ${last})
  string(JSON extent GET "${scenario}" mesh shape ${i})
  math(EXPR world "${world} * ${extent}")
endforeach()
foreach(key ranks params tree_rows rounds step_change_steps)
  string(JSON type TYPE "${out}" ${key})
  string(JSON ${key} GET "${out}" ${key})
  if(NOT type STREQUAL "NUMBER" OR NOT ${key} MATCHES "^[1-9][0-9]*$")
    fail("${key} is ${${key}} (${type}), not a positive whole number")
  endif()
endforeach()
if(NOT ranks EQUAL world)
  fail("ranks ${ranks}, but the scenario's mesh has ${world}")
endif()
string(JSON scenario_params LENGTH "${scenario}" params)
if(NOT params EQUAL scenario_params)
  fail("params ${params}, but the scenario has ${scenario_params}")
endif()
if(tree_rows LESS params)
  fail("tree_rows ${tree_rows}: fewer than the ${params} params")
endif()
get_filename_component(scenario_name "${SCENARIO}" NAME)
string(JSON edit_scenario GET "${out}" edit_scenario)
if(NOT edit_scenario STREQUAL scenario_name)
  fail("edit_scenario is '${edit_scenario}', not the given '${scenario_name}'")
endif()

# Every timed figure (and the peak memory, in MiB): a number below a minute; the work timed (paints, builds,
# edits, step changes) takes some time, while the longest GUI gaps may be 0
# (a small plan can finish between two ticks of the 1 ms timer).
set(work_figures mesh_paint_ms chart_paint_ms tree_model_build_ms tree_rows_build_ms
    edit_to_repaint_ms trace_paint_overview_ms trace_paint_zoomed_ms step_change_ms
    studio_peak_mib)
set(gap_figures plan_gui_stall_ms idle_gui_gap_ms edit_gui_stall_ms run_gui_stall_ms)
set(figures ${work_figures} ${gap_figures})
foreach(key ${figures})
  string(JSON type ERROR_VARIABLE missing TYPE "${out}" ${key})
  if(missing OR NOT type STREQUAL "NUMBER")
    fail("${key} is not a number (JSON ${type})")
  endif()
  string(JSON ${key} GET "${out}" ${key})
  if(${key} LESS 0 OR NOT ${key} LESS 60000)
    fail("${key} = ${${key}} ms: not in [0, 60000)")
  endif()
  if(key IN_LIST work_figures AND NOT ${key} GREATER 0)
    fail("${key} = ${${key}} ms: the work it times took no time")
  endif()
  ms_to_us(${${key}} ${key}_us)
endforeach()

# The goals name timed figures only, each a positive number; the exit code
# agrees with them.
string(JSON goal_count LENGTH "${out}" goals)
if(goal_count LESS 1)
  fail("no goals")
endif()
set(met TRUE)
math(EXPR last "${goal_count} - 1")
foreach(i RANGE ${last})
  string(JSON key MEMBER "${out}" goals ${i})
  string(JSON goal GET "${out}" goals ${key})
  if(NOT key IN_LIST figures)
    fail("goal for '${key}', which is not a timed figure")
  endif()
  if(NOT goal GREATER 0)
    fail("goal ${key} = ${goal}")
  endif()
  if(${key} GREATER goal)
    set(met FALSE)
  endif()
endforeach()
if(met AND NOT code EQUAL 0)
  fail("every goal met but exit code ${code}")
elseif(NOT met AND NOT code EQUAL 1)
  fail("a goal missed but exit code ${code}")
endif()

# The medians fit in the run: of `rounds` interleaved rounds of the paint and
# the two tree builds, and of the edits, at least half took the median or
# longer; of the three planning waits and the three runs, at least two.
math(EXPR half "(${rounds} + 1) / 2")
math(EXPR lower_us "${half} * (${mesh_paint_ms_us} + ${tree_model_build_ms_us} + ${tree_rows_build_ms_us} + ${edit_to_repaint_ms_us}) + 2 * (${plan_gui_stall_ms_us} + ${run_gui_stall_ms_us})")
if(lower_us GREATER wall_us)
  fail("the medians add up to at least ${lower_us} us, more than the ${wall_us} us the command took")
endif()
message(STATUS "bench_views_cli: ${ranks} ranks, ${params} params, ${tree_rows} tree rows, "
               "figures in [0, 60000) ms, exit ${code} agrees with the goals, "
               "medians need >= ${lower_us} us of ${wall_us} us")
