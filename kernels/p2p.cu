#include "kernels/p2p.hpp"

#include "fixtures/cuda_check.hpp"

namespace archbench {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void keep_awake_kernel(const volatile int* stop, unsigned long long max_ns) {
  const unsigned long long t0 = global_ns();
  while (*stop == 0 && global_ns() - t0 < max_ns) __nanosleep(20000);
}

}  // namespace

void launch_keep_awake(const volatile int* stop, unsigned long long max_ns, cudaStream_t stream) {
  keep_awake_kernel<<<1, 32, 0, stream>>>(stop, max_ns);
  cuda_check(cudaGetLastError(), "keep_awake_kernel");
}

}  // namespace archbench
