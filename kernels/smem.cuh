// Shared-memory kernels: bank conflicts (one SM) and distributed shared memory (a cluster).
#pragma once
#include <cstdint>

#include "analysis/warp_timing.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/clock.cuh"
#include "kernels/smem.hpp"
#include "kernels/vec_access.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench::dev::smem {

// Every 32-bit word holds its own byte offset: a load at offset o returns o in its first word.
__device__ __forceinline__ void fill_with_offsets(std::uint32_t* words, std::uint32_t bytes) {
  for (std::uint32_t i = threadIdx.x; i < bytes / 4; i += blockDim.x) words[i] = 4 * i;
}

__device__ __forceinline__ std::uint32_t first_word(std::uint32_t v) { return v; }
__device__ __forceinline__ std::uint32_t first_word(uint2 v) { return v.x; }
__device__ __forceinline__ std::uint32_t first_word(uint4 v) { return v.x; }
// What fold() of a load at offset o must give when every word holds its own offset.
template <int kBytes>
__device__ __forceinline__ std::uint32_t fold_of_offsets(std::uint32_t o) {
  std::uint32_t f = 0;
#pragma unroll
  for (int j = 0; j < kBytes / 4; ++j) f ^= o + 4u * j;
  return f;
}

// Bank latency: one warp, each lane chases at its pattern offset (every load returns the offset
// it was made at, so the next load waits for it). Every word of a wide load is checked (off the
// chain's critical path), so all of them are used.
template <int kBytes>
__global__ void __launch_bounds__(32)
    bank_chase_kernel(const std::uint32_t* __restrict__ lane_offsets, std::uint32_t bytes, std::uint32_t steps,
                      WarpTiming* __restrict__ out) {
  extern __shared__ __align__(16) std::uint32_t words[];
  fill_with_offsets(words, bytes);
  const std::uint32_t start = lane_offsets[threadIdx.x % 32];
  const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(words));
  __syncwarp();
  std::uint32_t p = start, bad = 0;
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t s = 0; s < steps; s += kSmemChaseUnroll) {
#pragma unroll
    for (int u = 0; u < kSmemChaseUnroll; ++u) {
      const auto v = lds<kBytes>(base + p);
      p = first_word(v);
      bad |= fold(v) ^ fold_of_offsets<kBytes>(p);
    }
  }
  const std::uint32_t wrong = __ballot_sync(0xffffffffu, p != start || bad != 0);
  warp_clock_stop(out, clock, wrong);
}

// Bank throughput: every warp loads at the pattern's offsets, kSmemLoadsPerIteration independent
// PTX-volatile loads of the same address per iteration (ptxas may not merge them; the SASS test
// counts them), summed so that every load counts in the check.
template <int kBytes>
__global__ void __launch_bounds__(1024)
    bank_throughput_kernel(const std::uint32_t* __restrict__ lane_offsets, std::uint32_t bytes,
                           std::uint32_t iterations, WarpTiming* __restrict__ out) {
  extern __shared__ __align__(16) std::uint32_t words[];
  fill_with_offsets(words, bytes);
  const std::uint32_t a = static_cast<std::uint32_t>(__cvta_generic_to_shared(words)) + lane_offsets[threadIdx.x % 32];
  __syncthreads();
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0;
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t i = 0; i < iterations; ++i) {
    typename VecOf<kBytes>::T v[kSmemLoadsPerIteration];
#pragma unroll
    for (int u = 0; u < kSmemLoadsPerIteration; ++u) v[u] = lds<kBytes>(a);
#pragma unroll
    for (int u = 0; u < kSmemLoadsPerIteration; ++u) acc += sum_words(v[u]);
  }
  warp_clock_stop(mine, clock, acc);
}

// --- Distributed shared memory. Addresses in the cluster's shared window are 32-bit; mapa turns
// an address in this block's shared memory into the same address in block `rank` of the cluster.
__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r = 0;
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)));
  return r;
}
__device__ __forceinline__ std::uint32_t cluster_size() {
  std::uint32_t n = 1;
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n)));
  return n;
}
__device__ __forceinline__ std::uint32_t map_to_rank(std::uint32_t shared_addr, std::uint32_t rank) {
  std::uint32_t r = 0;
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                          asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                                       : "=r"(r)
                                       : "r"(shared_addr), "r"(rank)));
  return r;
}
// Every thread of every block of the cluster: writes before it are visible to reads after it.
__device__ __forceinline__ void cluster_sync() {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                          asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
                                       "barrier.cluster.wait.acquire.aligned;" ::
                                           : "memory"));
}
__device__ __forceinline__ std::uint32_t ld_cluster_u32(std::uint32_t a) {
  std::uint32_t v = 0;
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("ld.volatile.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a)));
  return v;
}
// kVolatile: ld.volatile (LD.E.STRONG.SYS in SASS); otherwise a weak ld (LD.E), what a C++
// dereference of a cluster.map_shared_rank() pointer compiles to.
template <bool kVolatile>
__device__ __forceinline__ uint4 ld_cluster_v4(std::uint32_t a) {
  uint4 v{};
  if constexpr (kVolatile) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                            asm volatile("ld.volatile.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                                         : "r"(a)));
  } else {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                            asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                                         : "r"(a)));
  }
  return v;
}

// DSM latency: every block fills its memory with a chase (the word at offset o holds
// (o + stride) % bytes); in each cluster c, rank 0's thread 0 then chases through every rank's
// memory in turn, and through its own with plain ld.shared. Per cluster, (size + 1) slots from
// c * (size + 1): cycles[rank] and ns[rank], [size] for ld.shared; the same for final[];
// smids[c * size + rank] = the SM of each rank. Ranks of a 1-D grid are consecutive blocks.
__global__ void __launch_bounds__(32)
    dsm_chase_kernel(std::uint32_t bytes, std::uint32_t stride, std::uint32_t steps, std::uint64_t* __restrict__ cycles,
                     std::uint64_t* __restrict__ ns, std::uint32_t* __restrict__ final_offset,
                     std::uint32_t* __restrict__ smids) {
  extern __shared__ __align__(16) std::uint32_t words[];
  for (std::uint32_t i = threadIdx.x; i < bytes / 4; i += blockDim.x) words[i] = (4 * i + stride) % bytes;
  const std::uint32_t rank = cluster_rank(), size = cluster_size();
  const std::uint32_t cluster = blockIdx.x / size, slot = cluster * (size + 1);
  if (threadIdx.x == 0) smids[cluster * size + rank] = smid();
  cluster_sync();
  if (rank == 0 && threadIdx.x == 0) {
    const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(words));
    for (std::uint32_t target = 0; target <= size; ++target) {
      const bool plain = target == size;
      const std::uint32_t window = plain ? base : map_to_rank(base, target);
      std::uint32_t p = 0;
      for (int w = 0; w < 64; ++w) p = plain ? lds<4>(window + p) : ld_cluster_u32(window + p);  // warm-up
      p = 0;
      const std::uint64_t n0 = globaltimer_ns();
      const std::uint64_t t0 = clock64_ordered();
      for (std::uint32_t s = 0; s < steps; s += kSmemChaseUnroll) {
#pragma unroll
        for (int u = 0; u < kSmemChaseUnroll; ++u) p = plain ? lds<4>(window + p) : ld_cluster_u32(window + p);
      }
      st_global_u32(&final_offset[slot + target], p);  // the clock waits for the last load
      const std::uint64_t t1 = clock64_ordered();
      const std::uint64_t n1 = globaltimer_ns();
      cycles[slot + target] = t1 - t0;
      ns[slot + target] = n1 - n0;
    }
  }
  cluster_sync();  // no block leaves while another may still read its memory
}

// DSM bandwidth: every block fills its first src_bytes with offsets; each reading warp loads
// 16 B per thread from its source rank, kSmemLoadsPerIteration loads in flight, consecutive
// threads on consecutive 16-byte words (conflict-free). ptxas merges weak loads of one address
// across unrolled iterations, so each address is xor-ed with (iteration & salt): salt is 0 at run
// time, which ptxas cannot know.
template <bool kVolatile>
__global__ void __launch_bounds__(1024)
    dsm_bandwidth_kernel(int pattern, std::uint32_t src_bytes, std::uint32_t iterations, std::uint32_t salt,
                         WarpTiming* __restrict__ out) {
  extern __shared__ __align__(16) std::uint32_t words[];
  fill_with_offsets(words, src_bytes);
  const std::uint32_t rank = cluster_rank(), size = cluster_size();
  const int warp = static_cast<int>(threadIdx.x / 32);
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + warp];
  const int source =
      dsm_source_rank(static_cast<DsmPattern>(pattern), static_cast<int>(rank), warp, static_cast<int>(size));
  cluster_sync();
  if (source >= 0) {
    const std::uint32_t window = map_to_rank(static_cast<std::uint32_t>(__cvta_generic_to_shared(words)), source);
    std::uint32_t a[kSmemLoadsPerIteration];
#pragma unroll
    for (int u = 0; u < kSmemLoadsPerIteration; ++u) a[u] = window + ((threadIdx.x + u * blockDim.x) * 16u) % src_bytes;
    std::uint32_t acc = 0;
    const WarpClock clock = warp_clock_start();
    for (std::uint32_t i = 0; i < iterations; ++i) {
      uint4 v[kSmemLoadsPerIteration];
#pragma unroll
      for (int u = 0; u < kSmemLoadsPerIteration; ++u) v[u] = ld_cluster_v4<kVolatile>(a[u] ^ (i & salt));
#pragma unroll
      for (int u = 0; u < kSmemLoadsPerIteration; ++u) acc += sum_words(v[u]);
    }
    warp_clock_stop(mine, clock, acc);
  } else if (threadIdx.x % 32 == 0) {
    const std::uint64_t now = clock64_ordered(), now_ns = globaltimer_ns();
    *mine = WarpTiming{now, now, now_ns, now_ns, 0, smid(), 0};
  }
  cluster_sync();
}

}  // namespace archbench::dev::smem
