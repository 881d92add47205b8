# The features, from the one table (benchmarks/features.json): ARCHBENCH_FEATURES holds each row's
# index; archbench_feature(<i> <field> <var>) reads a field ("" where it is null or absent).
# ARCHBENCH_FEATURE_SOURCES lists the files that register benchmarks, in the table's order, and
# generated/archbench/feature_table.hpp gives the registry (fixtures/harness/registry.cpp) each
# row's name and how it runs: the C++ side writes no feature list of its own.
file(READ ${PROJECT_SOURCE_DIR}/benchmarks/features.json ARCHBENCH_FEATURE_TABLE)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/benchmarks/features.json)
string(JSON _count LENGTH "${ARCHBENCH_FEATURE_TABLE}" features)
math(EXPR _last "${_count} - 1")
set(ARCHBENCH_FEATURES "")
foreach(_i RANGE ${_last})
  list(APPEND ARCHBENCH_FEATURES ${_i})
endforeach()

function(archbench_feature index field var)
  string(JSON _type ERROR_VARIABLE _missing TYPE "${ARCHBENCH_FEATURE_TABLE}" features ${index} ${field})
  if(_missing OR _type STREQUAL "NULL")
    set(${var} "" PARENT_SCOPE)
  elseif(_type STREQUAL "ARRAY")
    string(JSON _n LENGTH "${ARCHBENCH_FEATURE_TABLE}" features ${index} ${field})
    set(_items "")
    if(_n GREATER 0)
      math(EXPR _m "${_n} - 1")
      foreach(_j RANGE ${_m})
        string(JSON _item GET "${ARCHBENCH_FEATURE_TABLE}" features ${index} ${field} ${_j})
        list(APPEND _items ${_item})
      endforeach()
    endif()
    set(${var} "${_items}" PARENT_SCOPE)
  else()
    string(JSON _value GET "${ARCHBENCH_FEATURE_TABLE}" features ${index} ${field})
    set(${var} "${_value}" PARENT_SCOPE)
  endif()
endfunction()

set(ARCHBENCH_FEATURE_SOURCES "")
set(_rows "")
foreach(_i IN LISTS ARCHBENCH_FEATURES)
  archbench_feature(${_i} name _name)
  archbench_feature(${_i} source _source)
  archbench_feature(${_i} run _run)
  if(NOT _source)
    message(FATAL_ERROR "benchmarks/features.json: feature ${_name} has no source file")
  endif()
  list(APPEND ARCHBENCH_FEATURE_SOURCES ${_source})
  string(APPEND _rows "    {\"${_name}\", \"${_run}\"},\n")
endforeach()
file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/generated/archbench/feature_table.hpp CONTENT
"// Written by cmake/FeatureTable.cmake from benchmarks/features.json: edit the table, not this file.
#pragma once

namespace archbench {

struct FeatureTableRow {
  const char* name;
  const char* run;  // default, apart, on_request, fault_injection
};

inline constexpr FeatureTableRow kFeatureTable[] = {
${_rows}};

}  // namespace archbench
" @ONLY)
