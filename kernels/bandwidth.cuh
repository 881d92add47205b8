// Bandwidth kernels: each block of a persistent grid streams over its own contiguous slice of the
// footprint (consecutive lanes on consecutive elements), `passes` times, with one PTX cache
// operator per load and per store. Each pass touches the same addresses from the same threads, so
// a footprint whose share per SM fits in L1 stays there (for operators that cache in L1), one that
// fits in L2 stays in L2, and a larger one streams from DRAM. Contiguous slices, not a grid-wide
// stride: with a grid stride, a thread's accesses lie a multiple of 128 KiB apart and alias to the
// same L1 sets, which costs a quarter of the L1 bandwidth at small footprints on an H100.
#pragma once
#include <cstdint>

#include "analysis/warp_timing.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/bandwidth.hpp"
#include "kernels/clock.cuh"
#include "kernels/vec_access.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench::dev::bw {

// Loads and stores of 4, 8 and 16 bytes per thread as inline PTX: the cache operator is exactly
// the one named (the SASS test checks its LDG/STG hint), and `volatile` keeps every pass's
// accesses: the compiler may neither drop them nor hoist them out of the pass loop.
#define ARCHBENCH_BW_LOAD(Name, QUAL)                                                           \
  struct Name {                                                                                 \
    __device__ __forceinline__ static std::uint32_t load(const std::uint32_t* p) {              \
      std::uint32_t v;                                                                          \
      asm volatile("ld.global" QUAL ".u32 %0, [%1];" : "=r"(v) : "l"(p));                       \
      return v;                                                                                 \
    }                                                                                           \
    __device__ __forceinline__ static uint2 load(const uint2* p) {                              \
      uint2 v;                                                                                  \
      asm volatile("ld.global" QUAL ".v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p)); \
      return v;                                                                                 \
    }                                                                                           \
    __device__ __forceinline__ static uint4 load(const uint4* p) {                              \
      uint4 v;                                                                                  \
      asm volatile("ld.global" QUAL ".v4.u32 {%0, %1, %2, %3}, [%4];"                           \
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)                                 \
                   : "l"(p));                                                                   \
      return v;                                                                                 \
    }                                                                                           \
  }
#define ARCHBENCH_BW_STORE(Name, QUAL)                                                                                 \
  struct Name {                                                                                                        \
    __device__ __forceinline__ static void store(std::uint32_t* p, std::uint32_t v) {                                  \
      asm volatile("st.global" QUAL ".u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");                                     \
    }                                                                                                                  \
    __device__ __forceinline__ static void store(uint2* p, uint2 v) {                                                  \
      asm volatile("st.global" QUAL ".v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v.x), "r"(v.y) : "memory");                \
    }                                                                                                                  \
    __device__ __forceinline__ static void store(uint4* p, uint4 v) {                                                  \
      asm volatile("st.global" QUAL ".v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) \
                   : "memory");                                                                                        \
    }                                                                                                                  \
  }

ARCHBENCH_BW_LOAD(LdDefault, "");  // no operator: what plain C++ loads compile to
ARCHBENCH_BW_LOAD(LdCa, ".ca");
ARCHBENCH_BW_LOAD(LdCg, ".cg");
ARCHBENCH_BW_LOAD(LdCs, ".cs");
ARCHBENCH_BW_LOAD(LdLu, ".lu");
ARCHBENCH_BW_LOAD(LdCv, ".cv");
ARCHBENCH_BW_LOAD(LdNc, ".nc");
ARCHBENCH_BW_LOAD(LdNa, ".L1::no_allocate");  // a weak load that does not allocate in L1
// A plain load with an L2 cache policy of evict_last for every line (fraction 1.0): ld.global
// with .L2::cache_hint, the policy from createpolicy (the SASS builds it into the load's
// descriptor; the opcode stays LDG.E). A DRAM copy with it keeps the DRAM busier (90.2-90.7 %
// against 89.2-89.5 % of its cycles, the same bytes): the L2 presumably gives up the copy's dirty
// lines before its clean source lines (docs/bandwidth.md).
struct LdEvictLast {
  // createpolicy and .L2::cache_hint are sm_80: below it the load traps, and the runner refuses the
  // variant as unsupported before any launch.
  __device__ __forceinline__ static std::uint64_t policy() {
    std::uint64_t p = 0;
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                            asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;"
                                         : "=l"(p)));
    return p;
  }
  __device__ __forceinline__ static std::uint32_t load(const std::uint32_t* p) {
    std::uint32_t v = 0;
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                            asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;"
                                         : "=r"(v)
                                         : "l"(p), "l"(policy())));
    return v;
  }
  __device__ __forceinline__ static uint2 load(const uint2* p) {
    uint2 v{0, 0};
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                            asm volatile("ld.global.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
                                         : "=r"(v.x), "=r"(v.y)
                                         : "l"(p), "l"(policy())));
    return v;
  }
  __device__ __forceinline__ static uint4 load(const uint4* p) {
    uint4 v{0, 0, 0, 0};
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                            asm volatile("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                                         : "l"(p), "l"(policy())));
    return v;
  }
};
ARCHBENCH_BW_STORE(StDefault, "");
ARCHBENCH_BW_STORE(StWb, ".wb");
ARCHBENCH_BW_STORE(StCg, ".cg");
ARCHBENCH_BW_STORE(StCs, ".cs");
ARCHBENCH_BW_STORE(StWt, ".wt");
ARCHBENCH_BW_STORE(StNa, ".L1::no_allocate");

__device__ __forceinline__ void bump(std::uint32_t& v) { v += 1; }
__device__ __forceinline__ void bump(uint2& v) { v.x += 1; }
__device__ __forceinline__ void bump(uint4& v) { v.x += 1; }

enum class Kind { read, write, copy, rmw };

// An access of element i in two halves, so that an unrolled group issues all its loads before
// the first store or fold waits for one: fetch() loads (or makes the value to write), consume()
// consumes it (folds it into acc, or stores it). src and dst are the same array for rmw.
template <Kind K, class Ld, class V>
__device__ __forceinline__ V fetch(const V* src, V* dst, std::size_t i, std::uint32_t pass) {
  V v;
  if constexpr (K == Kind::read || K == Kind::copy) {
    v = Ld::load(src + i);
  } else if constexpr (K == Kind::rmw) {
    v = Ld::load(dst + i);
  } else {
    make(v, static_cast<std::uint32_t>(i) ^ pass);
  }
  return v;
}
template <Kind K, class St, class V>
__device__ __forceinline__ void consume(V v, V* dst, std::size_t i, std::uint32_t& acc) {
  if constexpr (K == Kind::read) {
    acc ^= fold(v);
  } else {
    if constexpr (K == Kind::rmw) bump(v);
    St::store(dst + i, v);
  }
}

// kPinned: the blocks run on chosen SMs (BwPin); a separate instantiation, because the claim in
// the prologue made the compiler re-check the unrolled loop's bound on every pass, which cost a
// quarter of the L1 rate at 8 KiB per SM (one element per thread per pass).
// kUnroll: independent accesses in flight per thread. The slice's last group is predicated, not a
// loop of single accesses, so no phase of a pass runs with one access in flight.
template <Kind K, class Ld, class St, int kBytes, int kUnroll = 4, bool kPinned = false>
__global__ void __launch_bounds__(1024)
    bandwidth_kernel(const typename VecOf<kBytes>::T* src, typename VecOf<kBytes>::T* dst, std::size_t n,
                     std::uint32_t passes, WarpTiming* __restrict__ out, BwPin pin) {
  using V = typename VecOf<kBytes>::T;
  // The block's place in the work: its index, or with pinning the ticket it took on a chosen SM.
  std::uint32_t block = blockIdx.x, blocks = gridDim.x;
  if constexpr (kPinned) {
    __shared__ std::uint32_t claimed;
    if (threadIdx.x == 0) {
      const int r = spread_rank(smid(), pin.spread_sms, pin.sm_count);
      const std::uint32_t t = r < 0 ? pin.blocks_per_sm : atomicAdd(&pin.tickets[r], 1u);
      claimed = t < pin.blocks_per_sm ? std::uint32_t(r) * pin.blocks_per_sm + t : ~0u;
    }
    __syncthreads();
    if (claimed == ~0u) return;  // not a chosen SM, or one that has its blocks
    block = claimed;
    blocks = pin.spread_sms * pin.blocks_per_sm;
  }
  // This block's slice, warp-aligned: [begin, end).
  const std::size_t begin = (std::size_t(block) * n / blocks) & ~std::size_t(31);
  const std::size_t end = block + 1 == blocks ? n : (std::size_t(block + 1) * n / blocks) & ~std::size_t(31);
  // The threads that stream it: all, or at small slices just enough for kUnroll accesses each.
  const std::size_t stride = bw_streaming_threads(end - begin, kUnroll, blockDim.x);
  const std::size_t first = begin + threadIdx.x;
  // This thread's accesses, the same in every pass, counted once: `groups` full groups of
  // kUnroll, then `rest` (< kUnroll) predicated ones; none (no pass loop) for an idle thread.
  const std::size_t elements = threadIdx.x < stride && first < end ? (end - first + stride - 1) / stride : 0;
  const std::uint32_t groups = static_cast<std::uint32_t>(elements / kUnroll);
  const std::uint32_t rest = static_cast<std::uint32_t>(elements % kUnroll);
  const std::size_t tail = first + std::size_t(groups) * kUnroll * stride;
  const std::uint32_t my_passes = elements ? passes : 0;
  WarpTiming* mine = &out[block * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0;
  __syncthreads();
  const WarpClock clock = warp_clock_start();
#pragma unroll 1
  for (std::uint32_t pass = 0; pass < my_passes; ++pass) {
    std::size_t i = first;
#pragma unroll 1  // one group per iteration: kUnroll accesses in flight, as the name says
    for (std::uint32_t g = 0; g < groups; ++g, i += kUnroll * stride) {
      V v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) v[u] = fetch<K, Ld>(src, dst, i + u * stride, pass);
        // The last access first: a consumer of an earlier one would be scheduled between the
        // loads (ptxas put one before the 4th load at 4 and 8 B, which cost DRAM reads a quarter).
#pragma unroll
      for (int u = kUnroll - 1; u >= 0; --u) consume<K, St>(v[u], dst, i + u * stride, acc);
    }
    if (rest) {  // the last, partial group: every access that exists issues before the first use
      V v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (u < int(rest)) v[u] = fetch<K, Ld>(src, dst, tail + u * stride, pass);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (u < int(rest)) consume<K, St>(v[u], dst, tail + u * stride, acc);
    }
  }
  if constexpr (K != Kind::read) __threadfence();  // stores performed (at L2) before the end clock
  warp_clock_stop(mine, clock, acc);
}

// One claimed chunk [base, base + chunk), read by threads first, first + stride, ... (a warp's
// lanes, or a block's threads), kUnroll accesses in flight each.
template <Kind K, class Ld, class St, int kUnroll, class V>
__device__ __forceinline__ void stream_chunk(const V* src, V* dst, std::size_t base, std::size_t chunk,
                                             std::size_t first, std::size_t stride, std::uint32_t pass,
                                             std::uint32_t& acc) {
  for (std::size_t i = base + first; i < base + chunk; i += kUnroll * stride) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = fetch<K, Ld>(src, dst, i + u * stride, pass);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) consume<K, St>(v[u], dst, i + u * stride, acc);
  }
}

// Dynamic distribution: each warp claims chunks of `chunk` elements from a global ticket (lane 0,
// one atomic per chunk, the next claimed while the current chunk's accesses are in flight); ticket
// k is chunk k % chunks of pass k / chunks. Fast SMs take more chunks than slow ones, so the
// GPU-wide rate is the SMs' summed rate, not the slowest SM's times the SM count. The host keeps
// chunks per pass >= 4 x the warps, so no two warps hold one chunk at a time (which would make
// the second read an L2 hit). work_units = chunks this warp did. chunk: a multiple of 32 x kUnroll.
template <Kind K, class Ld, class St, int kBytes, int kUnroll>
__global__ void __launch_bounds__(1024)
    bandwidth_dynamic_kernel(const typename VecOf<kBytes>::T* src, typename VecOf<kBytes>::T* dst, std::size_t n,
                             std::uint32_t passes, std::uint32_t chunk, std::uint32_t* __restrict__ ticket,
                             WarpTiming* __restrict__ out) {
  const std::uint32_t lane = threadIdx.x % 32;
  const std::size_t chunks = n / chunk, total = chunks * passes;
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0, done = 0;
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  std::uint32_t next = lane == 0 ? atomicAdd(ticket, 1u) : 0u;
  next = __shfl_sync(~0u, next, 0);
  while (next < total) {
    const std::size_t k = next;
    if (lane == 0) next = atomicAdd(ticket, 1u);
    stream_chunk<K, Ld, St, kUnroll>(src, dst, (k % chunks) * chunk, chunk, lane, 32,
                                     static_cast<std::uint32_t>(k / chunks), acc);
    ++done;
    next = __shfl_sync(~0u, next, 0);
  }
  if constexpr (K != Kind::read) __threadfence();
  if (lane == 0) mine->work_units = done;
  warp_clock_stop(mine, clock, acc);
}

// Dynamic distribution by blocks: thread 0 claims chunks of `chunk` elements for the whole block
// (the next one while the current one's accesses are in flight, double-buffered in shared
// memory), and every warp of the block streams its part: a block reads one contiguous region at
// a time, as a grid of many short blocks does. The host keeps chunks per pass >= 4 x the blocks.
// work_units = chunks the block did. chunk: a multiple of blockDim.x x kUnroll.
template <Kind K, class Ld, class St, int kBytes, int kUnroll>
__global__ void __launch_bounds__(1024)
    bandwidth_block_dynamic_kernel(const typename VecOf<kBytes>::T* src, typename VecOf<kBytes>::T* dst, std::size_t n,
                                   std::uint32_t passes, std::uint32_t chunk, std::uint32_t* __restrict__ ticket,
                                   WarpTiming* __restrict__ out) {
  __shared__ std::uint32_t claimed[2];
  const std::size_t chunks = n / chunk, total = chunks * passes, stride = blockDim.x;
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0, done = 0, slot = 0;
  if (threadIdx.x == 0) claimed[0] = atomicAdd(ticket, 1u);
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  std::uint32_t k = claimed[0];
  while (k < total) {
    if (threadIdx.x == 0) claimed[slot ^ 1] = atomicAdd(ticket, 1u);
    stream_chunk<K, Ld, St, kUnroll>(src, dst, (k % chunks) * chunk, chunk, threadIdx.x, stride,
                                     static_cast<std::uint32_t>(k / chunks), acc);
    ++done;
    __syncthreads();  // the next claim is visible; every thread has read this one
    slot ^= 1;
    k = claimed[slot];
  }
  if constexpr (K != Kind::read) __threadfence();
  if (threadIdx.x % 32 == 0) mine->work_units = done;
  warp_clock_stop(mine, clock, acc);
}

// Grid order: the access order of a plain elementwise kernel (PyTorch's copy_, gpu-stream's
// kernels). Each thread makes kUnroll accesses once and its block ends; there are far more blocks
// than fit at once, and the hardware dispatches them in index order, so the GPU sweeps the arrays
// as one moving window. Block b does group b % groups of pass b / groups: the passes are folded
// into one grid, with no launch gap between them. Only the first and the last `edge` blocks time
// themselves, into their SM's record (atomic minimum of the start, maximum of the end): an atomic
// pair in every block cost an H200's copy 3.5 %. The host keeps groups >= 4 x the blocks resident
// at once, so a group's next pass comes long after this one (no L2 hit in a DRAM figure). A read's
// fold is consumed by a store that only a fold equal to `marker` (which the fill never gives) makes.
template <Kind K, class Ld, class St, int kBytes, int kUnroll>
__global__ void __launch_bounds__(1024)
    bandwidth_grid_kernel(const typename VecOf<kBytes>::T* src, typename VecOf<kBytes>::T* dst, std::size_t n,
                          std::uint32_t groups, std::uint32_t pieces, std::uint32_t edge, std::uint32_t marker,
                          WarpTiming* __restrict__ per_sm) {
  using V = typename VecOf<kBytes>::T;
  using U64 = unsigned long long;
  const std::uint32_t pass = blockIdx.x / groups;
  std::uint32_t group = blockIdx.x % groups;
  // In pieces (pieces > 1): consecutive blocks read groups 1/pieces of the array apart, so the
  // resident blocks stream `pieces` separate windows at once where plain grid order streams one
  // (the last groups % pieces groups in order).
  const std::uint32_t body = groups - groups % pieces;
  if (pieces > 1 && group < body) group = (group % pieces) * (body / pieces) + group / pieces;
  WarpTiming* mine = &per_sm[smid()];
  if (blockIdx.x < edge && threadIdx.x == 0) {
    atomicMin(reinterpret_cast<U64*>(&mine->start_ns), U64(globaltimer_ns()));
    atomicMin(reinterpret_cast<U64*>(&mine->start_cycles), U64(clock64_ordered()));
  }
  const std::size_t first = std::size_t(group) * blockDim.x * kUnroll + threadIdx.x;
  std::uint32_t acc = 0;
  V v[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    if (first + std::size_t(u) * blockDim.x < n)
      v[u] = fetch<K, Ld>(src, dst, first + std::size_t(u) * blockDim.x, pass);
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    if (first + std::size_t(u) * blockDim.x < n) consume<K, St>(v[u], dst, first + std::size_t(u) * blockDim.x, acc);
  if constexpr (K == Kind::read) {
    if (acc == marker) mine->check = acc;
  }
  if (blockIdx.x >= gridDim.x - edge) {
    if constexpr (K != Kind::read) __threadfence();  // stores performed (at L2) before the end clock
    __syncthreads();
    if (threadIdx.x == 0) {
      atomicMax(reinterpret_cast<U64*>(&mine->end_cycles), U64(clock64_ordered()));
      atomicMax(reinterpret_cast<U64*>(&mine->end_ns), U64(globaltimer_ns()));
    }
  }
}

// Data shared by every SM: each block reads the whole footprint every pass, from its own starting
// point (block b at b / blocks of the way, wrapping), so at any moment the SMs read different
// lines, and every line is read by every SM once per pass.
template <class Ld, int kBytes, int kUnroll>
__global__ void __launch_bounds__(1024) bandwidth_shared_kernel(const typename VecOf<kBytes>::T* src, std::size_t n,
                                                                std::uint32_t passes, WarpTiming* __restrict__ out) {
  using V = typename VecOf<kBytes>::T;
  const std::size_t start = (std::size_t(blockIdx.x) * n / gridDim.x) & ~std::size_t(31);
  const std::size_t stride = blockDim.x;
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0;
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    for (std::size_t i = threadIdx.x; i < n; i += kUnroll * stride) {
      V v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        std::size_t j = i + u * stride + start;
        j = j >= n ? j - n : j;
        if (i + u * stride < n) v[u] = Ld::load(src + j);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (i + u * stride < n) acc ^= fold(v[u]);
    }
  }
  warp_clock_stop(mine, clock, acc);
}

// Lines chosen per SM (analysis/l2_sides.hpp: homed in its own L2 partition, or in the other):
// the block on SM s copies its list lines[offsets[s] .. offsets[s+1]) of 128 B line indices to
// shared memory, then each warp reads 4 lines per access (8 lanes x 16 B each), kUnroll accesses
// in flight. One block per SM (the host asks for more than half the SM's shared memory).
template <class Ld, int kUnroll>
__global__ void __launch_bounds__(1024)
    bandwidth_lines_kernel(const uint4* src, const std::uint32_t* lines, const std::uint32_t* offsets,
                           std::uint32_t passes, WarpTiming* __restrict__ out) {
  extern __shared__ std::uint32_t line_list[];
  const std::uint32_t sm = smid();
  const std::uint32_t first = offsets[sm], count = offsets[sm + 1] - first;
  for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x) line_list[i] = lines[first + i];
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const std::uint32_t groups = count / 4;
  WarpTiming* mine = &out[blockIdx.x * warps + warp];
  std::uint32_t acc = 0, done = 0;
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    for (std::uint32_t g = warp; g < groups; g += kUnroll * warps) {
      uint4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const std::uint32_t gu = g + u * warps;
        if (gu < groups) v[u] = Ld::load(src + std::size_t(line_list[gu * 4 + lane / 8]) * 8 + lane % 8);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (g + u * warps < groups) {
          acc ^= fold(v[u]);
          ++done;
        }
    }
  }
  if (lane == 0) mine->work_units = done;  // accesses of 512 B
  warp_clock_stop(mine, clock, acc);
}

// L2 partition probe (analysis/l2_sides.hpp): lane 0 of each warp times a chain of 4 dependent
// atomics on the first word of a 128 B line, after one that brings the line to its home; one
// block of `blockDim.x / 32` warps maps lines warp, warp + warps, ... (cycles[line]); with
// `samples` > 0 every block (one per SM, a few warps) times lines i * step, i < samples, each
// block from its own starting sample so that few chains share a line at a time (chains queued
// behind each other on one line read as slow outliers), into cycles[sm * samples + i].
__global__ void l2_side_probe_kernel(std::uint32_t* lines, std::uint32_t n_lines, std::uint32_t samples,
                                     std::uint32_t step, std::uint32_t zero, std::uint32_t* cycles,
                                     std::uint32_t* reference_sm) {
  if (threadIdx.x % 32 != 0) return;
  const std::uint32_t warp = threadIdx.x / 32, warps = blockDim.x / 32, sm = smid();
  const std::uint32_t count = samples > 0 ? samples : n_lines;
  for (std::uint32_t k = warp; k < count; k += warps) {
    const std::uint32_t i = samples > 0 ? (k + blockIdx.x * warps) % samples : k;
    const std::uint32_t line = samples > 0 ? i * step : i;
    std::uint32_t* p = lines + std::size_t(line) * 32;
    std::uint32_t dep = atomicAdd(p, 1u);
    const std::uint64_t t0 = clock64_ordered();
#pragma unroll 1
    for (int c = 0; c < 4; ++c) dep = atomicAdd(p + (dep & zero), 1u);
    st_global_u32(reference_sm + 1, dep);  // the clock waits for the chain
    const std::uint64_t t1 = clock64_ordered();
    cycles[samples > 0 ? std::size_t(sm) * samples + i : line] = static_cast<std::uint32_t>((t1 - t0) / 4);
  }
  if (threadIdx.x == 0 && samples == 0) reference_sm[0] = sm;
}

// L1 reads, as smem_read_kernel reads shared memory: each block reads its own `bytes` (a multiple
// of kUnroll x 32 elements) of global memory (block b at b x bytes) again and again; warp w's
// pass reads the kUnroll x 32 consecutive elements at (w x kUnroll x 32) mod n, lane l the ones at
// l, l + 32, ...: every access of a pass a different address at an immediate offset from one
// pointer (else ptxas keeps one load of each address, and address arithmetic per access made
// 4-byte reads issue-bound at 60 B/clk/SM). A pass's pointer depends on the last pass's fold
// (zero is 0 at run time): without it ptxas unrolled the pass loop and kept one load per address
// for 4 passes (the L1 read 499 B/clk/SM). One untimed pass first brings the block's bytes into
// its SM's L1; the folds are consumed by the timing record (warp_clock_stop).
template <class Ld, int kBytes>
__global__ void __launch_bounds__(1024)
    l1_read_kernel(const typename VecOf<kBytes>::T* src, std::uint32_t bytes, std::uint32_t passes, std::uint32_t zero,
                   WarpTiming* __restrict__ out) {
  using V = typename VecOf<kBytes>::T;
  constexpr int kUnroll = kSmemReadsPerThreadPerPass;
  const std::uint32_t n = bytes / kBytes;
  const V* block_data = src + std::size_t(blockIdx.x) * n;
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const V* mine_first = block_data + (warp * kUnroll * 32) % n + lane;
  std::uint32_t acc = 0;
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) acc ^= fold(Ld::load(block_data + i));
  __syncthreads();
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  const WarpClock clock = warp_clock_start();
#pragma unroll 1  // one pass per iteration: the SASS test counts its loads
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    const V* p = mine_first + (acc & zero);
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = Ld::load(p + u * 32);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= fold(v[u]);
  }
  warp_clock_stop(mine, clock, acc);
}

// Shared memory: each block fills `bytes` of dynamic shared memory, then every pass reads kUnroll
// elements per thread, consecutive lanes on consecutive elements (conflict-free at every width).
// The addresses are computed once, so a pass is kUnroll wide loads (lds, PTX-volatile) and their
// folds.
template <int kBytes>
__global__ void __launch_bounds__(1024)
    smem_read_kernel(std::uint32_t bytes, std::uint32_t passes, WarpTiming* __restrict__ out) {
  using V = typename VecOf<kBytes>::T;
  constexpr int kUnroll = kSmemReadsPerThreadPerPass;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  V* smem = reinterpret_cast<V*>(smem_raw);
  const std::uint32_t n = bytes / kBytes;
  for (std::uint32_t i = threadIdx.x; i < n; i += blockDim.x) make(smem[i], i);
  std::uint32_t addr[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u)
    addr[u] = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem + (threadIdx.x + u * blockDim.x) % n));
  __syncthreads();
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  std::uint32_t acc = 0;
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t pass = 0; pass < passes; ++pass) {
    V v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = lds<kBytes>(addr[u]);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= fold(v[u]);
  }
  warp_clock_stop(mine, clock, acc);
}

}  // namespace archbench::dev::bw
