// The toy feature's kernel (tests/scripts/test_toy_feature.py copies it into kernels/ of a copy of
// the tree): one store per thread, its launcher declared in toy.hpp.
#include "kernels/toy.hpp"

#include "kernels/shared/cuda_check.hpp"

namespace archbench {

__global__ void toy_kernel(unsigned* out, unsigned value) { out[threadIdx.x] = value + threadIdx.x; }

void launch_toy(unsigned* out, unsigned value) {
  toy_kernel<<<1, 32>>>(out, value);
  ARCHBENCH_CUDA(cudaGetLastError());
}

}  // namespace archbench
