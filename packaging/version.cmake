# SPDX-License-Identifier: Apache-2.0
# The version every program prints and the package carries comes from one
# place, project(VERSION) in the top CMakeLists.txt. A build of the commit
# tagged v<version> is that release; any other build says where it stands
# (git describe), so packages of two commits never share a version:
#   0.1.0               the commit tagged v0.1.0
#   0.1.0+12.g1a2b3c4d  12 commits after the tag v0.1.0
#   0.1.0~414.g2bd95f0c no tag v0.1.0 yet: commit 414 on the way to 0.1.0
#                       (Debian sorts "~" before the release, "+" after it)
# ".dirty" ends the version of a tree with uncommitted changes. A tree that is
# not a git checkout of this project (a source tarball) is the project version.
# It is read when CMake configures: a build folder keeps the version it was
# configured with (scripts/package always configures a fresh one), and no
# compile command carries it, so a new commit recompiles one file at most.

# Runs git in the source tree; sets `out` to its output, or to "" when it fails.
function(hsdp_git out)
  execute_process(COMMAND ${GIT_EXECUTABLE} ${ARGN}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    RESULT_VARIABLE failed OUTPUT_VARIABLE text ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(failed)
    set(text "")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Sets `version` to this build's version and `epoch` to its commit's time
# (seconds since 1970; without git, SOURCE_DATE_EPOCH or now): the date of the
# man pages, the changelog entry and the AppStream release.
function(hsdp_describe_version version epoch)
  set(release ${PROJECT_VERSION})
  string(TIMESTAMP now "%s" UTC)  # honours SOURCE_DATE_EPOCH
  set(${version} ${release} PARENT_SCOPE)
  set(${epoch} ${now} PARENT_SCOPE)
  find_package(Git QUIET)
  if(NOT GIT_FOUND)
    return()
  endif()
  # Only this project's own history: a tarball unpacked inside some other
  # checkout must not take that checkout's commits.
  hsdp_git(top rev-parse --show-toplevel)
  if(NOT top OR NOT top STREQUAL PROJECT_SOURCE_DIR)
    return()
  endif()
  hsdp_git(commit_time log -1 --format=%ct)
  if(commit_time)
    set(${epoch} ${commit_time} PARENT_SCOPE)
  endif()

  hsdp_git(described describe --tags --long --dirty --abbrev=8 --match v${release})
  if(described MATCHES "^v.+-([0-9]+)-g([0-9a-f]+)(-dirty)?$")
    set(commits ${CMAKE_MATCH_1})
    set(hash ${CMAKE_MATCH_2})
    set(dirty "${CMAKE_MATCH_3}")
    set(separator "+")
  else()
    hsdp_git(commits rev-list --count HEAD)
    hsdp_git(described describe --always --dirty --abbrev=8 --exclude=*)
    if(NOT commits OR NOT described MATCHES "^([0-9a-f]+)(-dirty)?$")
      return()
    endif()
    set(hash ${CMAKE_MATCH_1})
    set(dirty "${CMAKE_MATCH_2}")
    set(separator "~")
  endif()
  if(separator STREQUAL "+" AND commits EQUAL 0 AND NOT dirty)
    return()  # the release itself
  endif()
  if(dirty)
    set(dirty ".dirty")
  endif()
  set(${version} "${release}${separator}${commits}.g${hash}${dirty}" PARENT_SCOPE)
endfunction()

# Sets `out` to the time `epoch` in `format` (string(TIMESTAMP)'s, in UTC).
function(hsdp_format_time out epoch format)
  set(saved "$ENV{SOURCE_DATE_EPOCH}")
  set(ENV{SOURCE_DATE_EPOCH} ${epoch})
  string(TIMESTAMP text "${format}" UTC)
  if(saved)
    set(ENV{SOURCE_DATE_EPOCH} "${saved}")
  else()
    unset(ENV{SOURCE_DATE_EPOCH})
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
