# yaml-cpp for the aarch64 cross build: Debian's libyaml-cpp-dev cannot be installed for two
# architectures at once (it is not Multi-Arch: same), so the build machine's package gives the
# headers (/usr/include/yaml-cpp, the same for every architecture) and the arm64 runtime package
# libyaml-cpp0.7:arm64 (Multi-Arch: same) the library. The target is named as yaml-cpp 0.7 names it.
set(_grove_yaml_lib /usr/lib/aarch64-linux-gnu/libyaml-cpp.so.0.7)
if(NOT EXISTS "${_grove_yaml_lib}")
  set(yaml-cpp_FOUND FALSE)
  set(yaml-cpp_NOT_FOUND_MESSAGE "${_grove_yaml_lib} is missing: apt-get install libyaml-cpp0.7:arm64")
  return()
endif()
if(NOT TARGET yaml-cpp)
  add_library(yaml-cpp SHARED IMPORTED)
  set_target_properties(yaml-cpp PROPERTIES IMPORTED_LOCATION "${_grove_yaml_lib}")
endif()
set(yaml-cpp_FOUND TRUE)
