# SPDX-License-Identifier: Apache-2.0
# Read by CPack before it packages (CPACK_PROJECT_CONFIG_FILE). The man pages
# name the folders the package installs into, and a Debian package installs
# into /usr: a build folder configured for another prefix cannot make it.
if(NOT CPACK_PACKAGING_INSTALL_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR "the hsdp-studio package installs into /usr, but this build folder was "
                      "configured for CMAKE_INSTALL_PREFIX ${CPACK_PACKAGING_INSTALL_PREFIX}: "
                      "make the package with scripts/package (the package preset)")
endif()
