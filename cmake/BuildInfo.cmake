# Build information recorded in every result file's context: version, git sha, flags.
# ARCHBENCH_GIT_SHA can be passed in where the tree has no .git (a copied working tree).
set(ARCHBENCH_GIT_SHA "" CACHE STRING "git sha to record when the source tree has no .git")
if(NOT ARCHBENCH_GIT_SHA)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} RESULT_VARIABLE _rc
                    OUTPUT_VARIABLE _sha OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_rc EQUAL 0)
      execute_process(COMMAND ${GIT_EXECUTABLE} status --porcelain --untracked-files=no
                      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                      OUTPUT_VARIABLE _dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(_dirty)
        set(_sha "${_sha}-dirty")
      endif()
      set(_git_sha_detected "${_sha}")
    endif()
  endif()
endif()
if(ARCHBENCH_GIT_SHA)
  set(_git_sha_detected "${ARCHBENCH_GIT_SHA}")
elseif(NOT _git_sha_detected)
  set(_git_sha_detected "unknown")
endif()
string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
set(ARCHBENCH_BUILD_FLAGS_CUDA "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${_bt}} archs=${CMAKE_CUDA_ARCHITECTURES}")
string(STRIP "${ARCHBENCH_BUILD_FLAGS_CUDA}" ARCHBENCH_BUILD_FLAGS_CUDA)
set(ARCHBENCH_GIT_SHA_VALUE "${_git_sha_detected}")
configure_file(${PROJECT_SOURCE_DIR}/benchmarks/shell/build_info.hpp.in
               ${PROJECT_BINARY_DIR}/generated/archbench/build_info.hpp @ONLY)
