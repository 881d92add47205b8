// Fault injection for the reliability tests (registered only when ARCHBENCH_FAULT is set): a
// kernel that traps (a sticky CUDA error) and one that never returns.
#include "kernels/fault.hpp"

#include "kernels/shared/cuda_check.hpp"

namespace archbench {
namespace {

__device__ volatile int g_never_set = 0;

__global__ void trap_kernel() { __trap(); }
__global__ void hang_kernel() {
  while (g_never_set == 0) {
  }
}
__global__ void empty_kernel() {}

}  // namespace

void launch_fault(FaultKind kind) {
  switch (kind) {
    case FaultKind::trap:
      trap_kernel<<<1, 1>>>();
      break;
    case FaultKind::hang:
      hang_kernel<<<1, 1>>>();
      break;
    case FaultKind::none:
      empty_kernel<<<1, 1>>>();
      break;
  }
  cuda_check_launch("fault_kernel");
}

}  // namespace archbench
