# SPDX-License-Identifier: Apache-2.0
# packaging/version.cmake names each kind of build as it says, in throwaway
# git repositories: before the release tag, on it, after it, with changes not
# committed, and outside git (a source tarball); and the programs print it.
# Usage: cmake -DSOURCE_DIR=DIR -DWORK=DIR -DEXPECTED=VERSION
#              "-DPROGRAMS=prog1|prog2|..." -P version_describe.cmake
cmake_minimum_required(VERSION 3.25)
include(${SOURCE_DIR}/packaging/version.cmake)
find_package(Git REQUIRED)
set(PROJECT_VERSION 1.2.0)

function(git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -c user.name=t -c user.email=t@example.org ${ARGN}
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} RESULT_VARIABLE failed
                  OUTPUT_QUIET ERROR_VARIABLE errors)
  if(failed)
    message(FATAL_ERROR "git ${ARGN}: ${errors}")
  endif()
endfunction()

function(expect pattern what)
  hsdp_describe_version(version epoch)
  if(NOT version MATCHES "^${pattern}$")
    message(FATAL_ERROR "${what}: version ${version}, expected ${pattern}")
  endif()
  message(STATUS "${what}: ${version}")
endfunction()

function(commit n)
  file(WRITE ${PROJECT_SOURCE_DIR}/file "${n}\n")
  git(add file)
  git(commit -q -m "commit ${n}")
endfunction()

set(PROJECT_SOURCE_DIR ${WORK}/tarball)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${PROJECT_SOURCE_DIR})
expect("1\\.2\\.0" "a source tree outside git")

set(PROJECT_SOURCE_DIR ${WORK}/checkout)
file(MAKE_DIRECTORY ${PROJECT_SOURCE_DIR})
git(init -q)
commit(1)
git(tag v1.1.0)
commit(2)
commit(3)
expect("1\\.2\\.0~3\\.g[0-9a-f]+" "3 commits, no tag v1.2.0 yet (sorts before 1.2.0)")
git(tag v1.2.0)
expect("1\\.2\\.0" "the commit tagged v1.2.0")
file(WRITE ${PROJECT_SOURCE_DIR}/file "changed\n")
expect("1\\.2\\.0\\+0\\.g[0-9a-f]+\\.dirty" "v1.2.0 with uncommitted changes")
commit(4)
commit(5)
expect("1\\.2\\.0\\+2\\.g[0-9a-f]+" "2 commits after v1.2.0")

# Debian orders them as meant: before the release < release < after it.
execute_process(COMMAND dpkg --compare-versions 1.2.0~3.g1234abcd lt 1.2.0
                RESULT_VARIABLE before)
execute_process(COMMAND dpkg --compare-versions 1.2.0+2.g1234abcd gt 1.2.0 RESULT_VARIABLE after)
if(NOT before EQUAL 0 OR NOT after EQUAL 0)
  message(FATAL_ERROR "dpkg does not order ~ before and + after the release")
endif()
file(REMOVE_RECURSE ${WORK})

# Every program prints the version this build was configured with.
string(REPLACE "|" ";" PROGRAMS "${PROGRAMS}")
foreach(program ${PROGRAMS})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${program} --version
                  RESULT_VARIABLE failed OUTPUT_VARIABLE said ERROR_VARIABLE errors)
  get_filename_component(name ${program} NAME)
  if(failed OR NOT said STREQUAL "${name} ${EXPECTED}\n")
    message(FATAL_ERROR "${name} --version printed '${said}' (${failed}: ${errors}), "
                        "expected '${name} ${EXPECTED}'")
  endif()
  message(STATUS "${name} --version: ${said}")
endforeach()
