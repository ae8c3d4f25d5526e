# grove_subsystem(NAME PREFIX <prefix> [USES <subsystem>...] [SOURCES <file>...] [LINKS <target>...])
#
# One folder, one target: <prefix>_<NAME> (grove_core_graph, grove_editor_canvas). USES names the
# sibling subsystems this one may include and link, and is the only place that rule is written:
# tests/layering/check-layering.py reads these calls and fails the build's tests when an #include
# crosses a line the USES lists do not allow. A folder with no .cpp is an INTERFACE target.
function(grove_subsystem name)
  cmake_parse_arguments(S "" "PREFIX" "USES;SOURCES;LINKS" ${ARGN})
  set(target ${S_PREFIX}_${name})
  set(cpp ${S_SOURCES})
  list(FILTER cpp INCLUDE REGEX "\\.cpp$")
  if(cpp)
    add_library(${target} STATIC ${S_SOURCES})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  foreach(used IN LISTS S_USES)
    target_link_libraries(${target} ${scope} ${S_PREFIX}_${used})
  endforeach()
  if(S_LINKS)
    target_link_libraries(${target} ${scope} ${S_LINKS})
  endif()
endfunction()
