# SPDX-License-Identifier: Apache-2.0
# ccache as the compiler launcher when it is installed, for the main build and
# the fuzz build (tests/fuzz/) alike. Both use precompiled headers, which
# ccache caches only when told to.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${CCACHE_PROGRAM})
endif()
