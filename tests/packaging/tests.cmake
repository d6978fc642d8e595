# SPDX-License-Identifier: Apache-2.0
# The version: each kind of build named as packaging/version.cmake says, and printed by every program.
add_test(NAME package_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DWORK=${CMAKE_BINARY_DIR}/version-describe -DEXPECTED=${HSDP_PACKAGE_VERSION}
          "-DPROGRAMS=$<TARGET_FILE:hsdp-inspect>|$<TARGET_FILE:hsdp-inspect-report>|$<TARGET_FILE:hsdp-studio>"
          -P ${CMAKE_CURRENT_LIST_DIR}/version_describe.cmake)
set_tests_properties(package_version PROPERTIES LABELS install TIMEOUT 300)
