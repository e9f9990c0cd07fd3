# SPDX-License-Identifier: BSL-1.0
# FindSTXXL.cmake: locate Debian's STXXL 1.4.1 (headers in /usr/include/stxxl, libstxxl.so),
# which ships no CMake or pkg-config file.
#
# Defines STXXL_FOUND, STXXL_INCLUDE_DIR, STXXL_LIBRARY, STXXL_VERSION and the imported target
# STXXL::stxxl. Debian built STXXL with STXXL_PARALLEL_MODE_EXPLICIT, so its headers need OpenMP;
# its priority_queue generator needs a deep template instantiation limit.

find_path(STXXL_INCLUDE_DIR NAMES stxxl/bits/config.h)
find_library(STXXL_LIBRARY NAMES stxxl)

if(STXXL_INCLUDE_DIR AND EXISTS "${STXXL_INCLUDE_DIR}/stxxl/bits/config.h")
  file(STRINGS "${STXXL_INCLUDE_DIR}/stxxl/bits/config.h" _stxxl_version_line
       REGEX "^#define STXXL_VERSION_STRING \"[^\"]*\"")
  string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" STXXL_VERSION "${_stxxl_version_line}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(STXXL
  REQUIRED_VARS STXXL_LIBRARY STXXL_INCLUDE_DIR
  VERSION_VAR STXXL_VERSION)

if(STXXL_FOUND AND NOT TARGET STXXL::stxxl)
  find_package(OpenMP REQUIRED)
  find_package(Threads REQUIRED)
  add_library(STXXL::stxxl UNKNOWN IMPORTED)
  set_target_properties(STXXL::stxxl PROPERTIES
    IMPORTED_LOCATION "${STXXL_LIBRARY}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${STXXL_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "OpenMP::OpenMP_CXX;Threads::Threads"
    INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:-ftemplate-depth=2048>")
endif()

mark_as_advanced(STXXL_INCLUDE_DIR STXXL_LIBRARY)
