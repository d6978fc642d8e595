# SPDX-License-Identifier: Apache-2.0
# What the Debian package is made of, checked in the build tree as the build
# made it (scripts/test-package checks the package itself, installed). Label
# "install": not under the sanitizers, whose builds make only test executables.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(made ${CMAKE_BINARY_DIR}/packaging/made)
# One page per program and command, each with every line of its --help.
add_test(NAME package_man_pages
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_man_pages.py
          $<TARGET_FILE:hsdp-inspect> $<TARGET_FILE:hsdp-studio> ${made}/man)
# Commands, options (all the help lists, none the parser refuses), files, folders, presets.
add_test(NAME package_bash_completion
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_bash_completion.py
          $<TARGET_FILE:hsdp-inspect> ${made}/completions/hsdp-inspect
          ${CMAKE_SOURCE_DIR}/resources/clusters)
# The usual hicolor sizes, drawn from the SVG.
add_test(NAME package_icons
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/check_icons.py ${made}/icons
          16 22 24 32 48 64 128 256)
add_test(NAME package_metainfo
  COMMAND appstreamcli validate --no-net ${made}/hsdp-studio.metainfo.xml)
# The version: each kind of build named as docs/packaging.md says, and printed by every program.
add_test(NAME package_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DWORK=${CMAKE_BINARY_DIR}/version-describe -DEXPECTED=${HSDP_PACKAGE_VERSION}
          "-DPROGRAMS=$<TARGET_FILE:hsdp-inspect>|$<TARGET_FILE:hsdp-inspect-report>|$<TARGET_FILE:hsdp-studio>"
          -P ${CMAKE_CURRENT_LIST_DIR}/version_describe.cmake)
set_tests_properties(package_man_pages package_bash_completion package_icons package_metainfo
  package_version PROPERTIES LABELS install TIMEOUT 300)
