# Google Benchmark, nlohmann/json and GoogleTest: the installed packages (scripts/setup.sh puts
# them there). A missing one stops the configure at once with the package to install; with
# -DARCHBENCH_FETCH_DEPENDENCIES=ON, FetchContent downloads the pinned release instead (needs a
# network: without one it would spend minutes retrying).
option(ARCHBENCH_FETCH_DEPENDENCIES "Download Google Benchmark, nlohmann/json and GoogleTest where they are not installed" OFF)
include(FetchContent)

# archbench_dependency(<find name> <min version> <apt package> <FetchContent_Declare args...>)
macro(archbench_dependency name version package)
  if(ARCHBENCH_FETCH_DEPENDENCIES)
    FetchContent_Declare(${name} ${ARGN} FIND_PACKAGE_ARGS ${version} CONFIG)
    FetchContent_MakeAvailable(${name})
  else()
    find_package(${name} ${version} QUIET)  # a Find module where CMake has one (GTest), else the package's config
    if(NOT ${name}_FOUND)
      message(FATAL_ERROR "archbench: ${name} >= ${version} is not installed: run scripts/setup.sh, or apt-get install ${package} (or configure with -DARCHBENCH_FETCH_DEPENDENCIES=ON to download it)")
    endif()
  endif()
  if(${name}_FOUND)
    message(STATUS "archbench: ${name} ${${name}_VERSION} found")
  else()
    message(STATUS "archbench: ${name} not installed: fetched")
  endif()
endmacro()

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
archbench_dependency(benchmark 1.7 libbenchmark-dev GIT_REPOSITORY https://github.com/google/benchmark.git GIT_TAG v1.8.3)
# nlohmann/json for reading result files in C++.
archbench_dependency(nlohmann_json 3.10 nlohmann-json3-dev URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz)
if(ARCHBENCH_BUILD_TESTS)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  archbench_dependency(GTest 1.12 libgtest-dev GIT_REPOSITORY https://github.com/google/googletest.git GIT_TAG v1.14.0)
endif()
