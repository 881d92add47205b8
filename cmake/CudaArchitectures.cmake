# Default CUDA architectures: the visible GPU's ("native") when there is one, else a list that
# covers Turing..Hopper (CUDA 13 no longer builds for Volta: pass -DCMAKE_CUDA_ARCHITECTURES=70
# with an older toolkit). -DCMAKE_CUDA_ARCHITECTURES=... always wins. Hopper-only code (wgmma) is
# guarded in the sources by __CUDA_ARCH_FEAT_SM90_ALL, so builds without sm_90a still work.
function(archbench_default_cuda_architectures)
  if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
    return()
  endif()
  set(_archs "75;80;89;90")
  find_program(_nvidia_smi nvidia-smi)
  if(_nvidia_smi)
    execute_process(COMMAND ${_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _caps ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 20)
    if(_rc EQUAL 0 AND _caps MATCHES "^[0-9]+\\.[0-9]+")
      set(_archs native)
    endif()
  endif()
  message(STATUS "archbench: CMAKE_CUDA_ARCHITECTURES defaulted to '${_archs}'")
  set(CMAKE_CUDA_ARCHITECTURES "${_archs}" CACHE STRING "CUDA architectures to build for")
endfunction()
