// Placement is a parameter, not luck: a single-thread measurement (a pointer chase, an atomic
// chain) runs on one chosen SM, because the L2 partition that homes its data is near to some SMs
// and far from others (DESIGN.md 3b). The launch puts a few one-thread blocks on every SM; the
// first block that finds itself on the chosen SM claims the run, every other block returns at
// once. The prime launch and the timed launch of one measurement then run on the same SM.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/clock.cuh"

namespace archbench {

namespace dev {
// True in the one block that runs the measurement.
__device__ __forceinline__ bool claim_pinned_sm(std::uint32_t pin_sm, std::uint32_t* claim) {
  return smid() == pin_sm && atomicExch(claim, 1u) == 0u;
}
}  // namespace dev

// Calls launch(blocks, sm) until a block has run on SM `sm` (the caller's choice: the run's
// reference SM, fixtures/harness/placement.hpp, unless it spreads chases over several SMs); the
// kernel must claim that SM (claim_pinned_sm). 2 blocks per SM, then more if the block scheduler
// left that SM out. `claim` is a device word of the caller's translation unit.
template <class Launch>
void launch_pinned(const char* what, std::uint32_t* claim, Launch launch, std::uint32_t sm) {
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (sm >= std::uint32_t(sms))
    throw std::invalid_argument(std::string(what) + ": SM " + std::to_string(sm) + " does not exist (" +
                                std::to_string(sms) + " SMs)");
  for (int blocks = 2 * sms; blocks <= 32 * sms; blocks *= 4) {
    ARCHBENCH_CUDA(cudaMemset(claim, 0, sizeof *claim));
    launch(blocks, sm);
    cuda_check_launch(what);
    std::uint32_t claimed = 0;
    ARCHBENCH_CUDA(cudaMemcpy(&claimed, claim, sizeof claimed, cudaMemcpyDeviceToHost));
    if (claimed) return;
  }
  throw std::runtime_error(std::string(what) + ": no block was scheduled on SM " + std::to_string(sm));
}

}  // namespace archbench
