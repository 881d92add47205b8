// The Energy feature's own kernels: the rest kernel (an occupied GPU doing nothing that counts)
// and shared-memory stores at the shared memory's rate.
#include "kernels/energy.hpp"

#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/self_check.hpp"
#include "kernels/clock.cuh"
#include "kernels/vec_access.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench {
namespace dev::energy {

// One thread per block sleeps until hold_ns has passed on %globaltimer; every other thread waits
// at the barrier, so no warp issues more than a sleep every 10 us.
__global__ void __launch_bounds__(1024)
    resident_rest_kernel(std::uint64_t hold_ns, std::uint32_t* __restrict__ blocks_done) {
  if (threadIdx.x == 0) {
    const std::uint64_t start = globaltimer_ns();
    while (globaltimer_ns() - start < hold_ns) __nanosleep(10000);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(blocks_done, 1u);
}

template <int kBytes>
__device__ __forceinline__ void sts(std::uint32_t a, const typename VecOf<kBytes>::T& v) {
  if constexpr (kBytes == 4) {
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  } else if constexpr (kBytes == 8) {
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v.x), "r"(v.y) : "memory");
  } else {
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
  }
}

__device__ __forceinline__ bool same(std::uint32_t a, std::uint32_t b) { return a == b; }
__device__ __forceinline__ bool same(uint2 a, uint2 b) { return a.x == b.x && a.y == b.y; }
__device__ __forceinline__ bool same(uint4 a, uint4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

// Each pass stores kSmemWritesPerThreadPerPass elements of a value that changes with the pass
// (one integer op per pass beside the stores). Addresses are computed once.
template <int kBytes>
__global__ void __launch_bounds__(1024) smem_write_kernel(std::uint32_t passes, WarpTiming* __restrict__ out) {
  using V = typename VecOf<kBytes>::T;
  constexpr int kUnroll = kSmemWritesPerThreadPerPass;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  V* smem = reinterpret_cast<V*>(smem_raw);
  std::uint32_t addr[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    addr[u] = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem + threadIdx.x + u * blockDim.x));
  const std::uint32_t salt = threadIdx.x << 20;
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    V v;
    make(v, pass ^ salt);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sts<kBytes>(addr[u], v);
  }
  V expected;
  make(expected, (passes - 1) ^ salt);
  bool lost = false;
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) lost |= !same(lds<kBytes>(addr[u]), expected);
  warp_clock_stop(mine, clock, __any_sync(0xffffffffu, lost) ? 1u : 0u);
}

}  // namespace dev::energy

namespace {
using RawKernel = const void*;

RawKernel smem_write_kernel(int width) {
  switch (width) {
    case 4:
      return reinterpret_cast<RawKernel>(dev::energy::smem_write_kernel<4>);
    case 8:
      return reinterpret_cast<RawKernel>(dev::energy::smem_write_kernel<8>);
    case 16:
      return reinterpret_cast<RawKernel>(dev::energy::smem_write_kernel<16>);
    default:
      throw std::invalid_argument("smem write: width must be 4, 8 or 16");
  }
}

void check_shape(int blocks, int threads_per_block) {
  if (blocks <= 0 || threads_per_block <= 0 || threads_per_block % 32 != 0 || threads_per_block > 1024)
    throw std::invalid_argument("energy kernels: blocks > 0 and threads per block a multiple of 32 in 32..1024");
}

std::uint32_t smem_write_bytes_needed(int width, int threads_per_block) {
  return std::uint32_t(width) * threads_per_block * kSmemWritesPerThreadPerPass;
}
}  // namespace

void run_resident_rest(int blocks, int threads_per_block, std::uint64_t hold_ns) {
  check_shape(blocks, threads_per_block);
  DeviceBuffer<std::uint32_t> done(1);
  ARCHBENCH_CUDA(cudaMemset(done.get(), 0, sizeof(std::uint32_t)));
  dev::energy::resident_rest_kernel<<<blocks, threads_per_block>>>(hold_ns, done.get());
  cuda_check_launch("resident_rest_kernel");
  const std::uint32_t ran = done.download()[0];
  if (ran != std::uint32_t(blocks))
    throw SelfCheckError("rest kernel: " + std::to_string(ran) + " of " + std::to_string(blocks) + " blocks ran");
}

std::vector<WarpTiming> run_smem_write(int width, std::uint32_t bytes, std::uint32_t passes, int blocks,
                                       int threads_per_block) {
  check_shape(blocks, threads_per_block);
  if (passes == 0) throw std::invalid_argument("smem write: passes > 0");
  if (bytes < smem_write_bytes_needed(width, threads_per_block))
    throw std::invalid_argument("smem write: " + std::to_string(bytes) + " bytes per block cannot hold " +
                                std::to_string(smem_write_bytes_needed(width, threads_per_block)) +
                                " distinct elements' bytes");
  const RawKernel k = smem_write_kernel(width);
  ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  const std::size_t warps = std::size_t(blocks) * (threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  WarpTiming* out_ptr = out.get();
  void* args[] = {&passes, &out_ptr};
  ARCHBENCH_CUDA(cudaLaunchKernel(k, dim3(blocks), dim3(threads_per_block), args, bytes, nullptr));
  cuda_check_launch("smem_write_kernel");
  std::vector<WarpTiming> w = out.download();
  for (const WarpTiming& t : w)
    if (t.check != 0) throw SelfCheckError("smem write: a warp read back other values than its last pass stored");
  return w;
}

int smem_write_max_blocks_per_sm(int width, int threads_per_block, std::uint32_t bytes) {
  const RawKernel k = smem_write_kernel(width);
  ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads_per_block, bytes));
  return blocks;
}

}  // namespace archbench
