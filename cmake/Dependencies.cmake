# Google Benchmark and GoogleTest: the installed packages (find_package, with a minimum version)
# first; FetchContent fetches the pinned release only where they are missing (needs a network).
include(FetchContent)

set(BENCHMARK_ENABLE_TESTING OFF CACHE BOOL "" FORCE)
set(BENCHMARK_ENABLE_GTEST_TESTS OFF CACHE BOOL "" FORCE)
FetchContent_Declare(benchmark
  GIT_REPOSITORY https://github.com/google/benchmark.git GIT_TAG v1.8.3
  FIND_PACKAGE_ARGS 1.7 CONFIG)
FetchContent_MakeAvailable(benchmark)
if(benchmark_FOUND)
  message(STATUS "archbench: Google Benchmark ${benchmark_VERSION} found")
else()
  message(STATUS "archbench: Google Benchmark not installed: fetched v1.8.3")
endif()

# nlohmann/json for reading result files in C++ (Debian/Ubuntu: nlohmann-json3-dev).
FetchContent_Declare(nlohmann_json
  URL https://github.com/nlohmann/json/releases/download/v3.11.3/json.tar.xz
  FIND_PACKAGE_ARGS 3.10 CONFIG)
FetchContent_MakeAvailable(nlohmann_json)

if(ARCHBENCH_BUILD_TESTS)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  FetchContent_Declare(GTest
    GIT_REPOSITORY https://github.com/google/googletest.git GIT_TAG v1.14.0
    FIND_PACKAGE_ARGS 1.12)
  FetchContent_MakeAvailable(GTest)
  if(GTest_FOUND)
    message(STATUS "archbench: GoogleTest ${GTest_VERSION} found")
  else()
    message(STATUS "archbench: GoogleTest not installed: fetched v1.14.0")
  endif()
endif()
