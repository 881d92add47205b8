// Device code of the AsyncCopy kernels, shared by kernels/async_copy.cu (every architecture) and
// kernels/async_multicast.cu (the multicast load, built for sm_90a: ptxas wants the "a" target for
// .multicast::cluster). Every copy is inline PTX (the SASS test checks each instruction).
#pragma once
#include <cuda.h>  // CUtensorMap (the type only: the runner encodes maps through the runtime's driver entry point)

#include <cstdint>

#include "kernels/arch_guard.cuh"
#include "kernels/async_copy.hpp"
#include "kernels/pinned_launch.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench {
namespace dev::acopy {

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// --- mbarrier (sm_80; expect_tx and cluster scope sm_90)
__device__ __forceinline__ void mbar_init(std::uint32_t bar, std::uint32_t count) {
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                          asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
                                       : "memory"));
}
__device__ __forceinline__ void mbar_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                          asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                                       : "memory"));
}
// try_wait.parity is sm_90 (test_wait is sm_80); every caller is a TMA path.
__device__ __forceinline__ void mbar_wait(std::uint32_t bar, std::uint32_t parity) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
    std::uint32_t done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done)
                   : "r"(bar), "r"(parity)
                   : "memory");
  });
}
// An arrival on the barrier at the same offset in block `rank` of the cluster.
__device__ __forceinline__ void mbar_arrive_remote(std::uint32_t bar, std::uint32_t rank) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
    std::uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(rank));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
  });
}
__device__ __forceinline__ void cluster_sync() {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                          asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::
                                           : "memory"));
}
__device__ __forceinline__ std::uint32_t cluster_rank() {
  std::uint32_t r = 0;
  ARCHBENCH_IF_ARCH_BELOW(90, (void)0, asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)));
  return r;
}

// --- per-thread copies
template <int W>
__device__ __forceinline__ void cp_async(std::uint32_t dst, const void* src, bool cg) {
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(), {
    if (cg)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(W) : "memory");
  });
}
__device__ __forceinline__ void cp_async_commit() {
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(), asm volatile("cp.async.commit_group;" ::: "memory"));
}
// Every commit group of this thread complete (the thread kernels wait for S-1 with the depth as
// a template argument: the count is an immediate in PTX).
__device__ __forceinline__ void cp_async_wait_all() {
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(), asm volatile("cp.async.wait_group 0;" ::: "memory"));
}

template <int W>
struct Vec;
template <>
struct Vec<4> {
  std::uint32_t x;
};
template <>
struct Vec<8> {
  std::uint32_t x, y;
};
template <>
struct Vec<16> {
  std::uint32_t x, y, z, w;
};

template <int W>
__device__ __forceinline__ Vec<W> ld_cg(const void* p) {
  Vec<W> v;
  if constexpr (W == 4)
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v.x) : "l"(p) : "memory");
  else if constexpr (W == 8)
    asm volatile("ld.global.cg.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p) : "memory");
  else
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
  return v;
}
template <int W>
__device__ __forceinline__ void st_shared(std::uint32_t a, const Vec<W>& v) {
  if constexpr (W == 4)
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v.x) : "memory");
  else if constexpr (W == 8)
    asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v.x), "r"(v.y) : "memory");
  else
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
__device__ __forceinline__ std::uint32_t ld_shared_u32(std::uint32_t a) {
  std::uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

// --- TMA (sm_90)
__device__ __forceinline__ void bulk_load(std::uint32_t dst, const void* src, std::uint32_t bytes, std::uint32_t bar) {
  ARCHBENCH_IF_ARCH_BELOW(
      90, __trap(),
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                   "l"(src), "r"(bytes), "r"(bar)
                   : "memory"));
}
__device__ __forceinline__ void bulk_load_multicast(std::uint32_t dst, const void* src, std::uint32_t bytes,
                                                    std::uint32_t bar, std::uint16_t mask) {
  ARCHBENCH_IF_ARCH_BELOW(
      90, __trap(),
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
                   "[%0], [%1], %2, [%3], %4;" ::"r"(dst),
                   "l"(src), "r"(bytes), "r"(bar), "h"(mask)
                   : "memory"));
}
__device__ __forceinline__ void tensor_load(std::uint32_t dst, const CUtensorMap* map, int dims, const int* c,
                                            std::uint32_t bar) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
    const auto m = reinterpret_cast<std::uint64_t>(map);
    switch (dims) {
      case 1:
        asm volatile(
            "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::
                "r"(dst),
            "l"(m), "r"(c[0]), "r"(bar)
            : "memory");
        break;
      case 2:
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                "r"(dst),
            "l"(m), "r"(c[0]), "r"(c[1]), "r"(bar)
            : "memory");
        break;
      case 3:
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::
                "r"(dst),
            "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar)
            : "memory");
        break;
      case 4:
        asm volatile(
            "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];" ::
                "r"(dst),
            "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar)
            : "memory");
        break;
      default:
        asm volatile(
            "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::
                "r"(dst),
            "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar)
            : "memory");
        break;
    }
  });
}
__device__ __forceinline__ void tensor_store(const CUtensorMap* map, int dims, const int* c, std::uint32_t src) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
    const auto m = reinterpret_cast<std::uint64_t>(map);
    switch (dims) {
      case 1:
        asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%2}], [%1];" ::"l"(m), "r"(src),
                     "r"(c[0])
                     : "memory");
        break;
      case 2:
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(m), "r"(src),
                     "r"(c[0]), "r"(c[1])
                     : "memory");
        break;
      case 3:
        asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(m),
                     "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2])
                     : "memory");
        break;
      case 4:
        asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];" ::"l"(m),
                     "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
                     : "memory");
        break;
      default:
        asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(m),
                     "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
                     : "memory");
        break;
    }
  });
}
__device__ __forceinline__ void bulk_store(void* dst, std::uint32_t src, std::uint32_t bytes) {
  ARCHBENCH_IF_ARCH_BELOW(
      90, __trap(),
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src), "r"(bytes)
                   : "memory"));
}
__device__ __forceinline__ void bulk_reduce_add(void* dst, std::uint32_t src, std::uint32_t bytes) {
  ARCHBENCH_IF_ARCH_BELOW(
      90, __trap(),
      asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;" ::"l"(dst), "r"(src),
                   "r"(bytes)
                   : "memory"));
}
__device__ __forceinline__ void bulk_commit() {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("cp.async.bulk.commit_group;" ::: "memory"));
}
// At most `pending` bulk groups still reading shared memory (immediate: stages are powers of two).
__device__ __forceinline__ void bulk_wait_read(int pending) {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
    switch (pending) {
      case 0:
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
        break;
      case 1:
        asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
        break;
      case 3:
        asm volatile("cp.async.bulk.wait_group.read 3;" ::: "memory");
        break;
      case 7:
        asm volatile("cp.async.bulk.wait_group.read 7;" ::: "memory");
        break;
      case 15:
        asm volatile("cp.async.bulk.wait_group.read 15;" ::: "memory");
        break;
      default:
        asm volatile("cp.async.bulk.wait_group.read 31;" ::: "memory");
        break;
    }
  });
}
// Every bulk group complete: the writes done, not only the shared memory read.
__device__ __forceinline__ void bulk_wait_all() {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"));
}
__device__ __forceinline__ void fence_proxy_async_smem() {
  ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("fence.proxy.async.shared::cta;" ::: "memory"));
}

// --- where a chunk's words live
// The box's origin of chunk c (TensorBox: dim 0 by c % inner_boxes, the last dim by the rest).
__device__ __forceinline__ void box_origin(const TensorBox& b, std::uint64_t c, int* coord) {
  for (int i = 0; i < kAsyncMaxDims; ++i) coord[i] = 0;
  if (b.dims == 1) {
    coord[0] = int(c * b.box[0]);
  } else {
    coord[0] = int((c % b.inner_boxes) * b.box[0]);
    coord[b.dims - 1] = int((c / b.inner_boxes) * b.box[b.dims - 1]);
  }
}
// The global word that logical word k of chunk c's box holds (row-major, dim 0 contiguous).
__device__ __forceinline__ std::uint64_t box_global_word(const TensorBox& b, std::uint64_t c, std::uint32_t k) {
  int origin[kAsyncMaxDims];
  box_origin(b, c, origin);
  std::uint64_t index = 0, stride = 1;
  for (int i = 0; i < b.dims; ++i) {
    const std::uint32_t e = k % b.box[i];
    k /= b.box[i];
    index += (std::uint64_t(origin[i]) + e) * stride;
    stride *= i == 0 ? std::uint64_t(b.box[0]) * (b.dims == 1 ? 1 : b.inner_boxes) : b.box[i];
  }
  return index;
}
// The logical byte a swizzled box keeps at physical byte p (the 16-byte unit within each 128-byte
// row is xor-ed with the row's index; the xor is its own inverse).
__device__ __forceinline__ std::uint32_t unswizzle(std::uint32_t p, int swizzle_bytes) {
  if (swizzle_bytes == 0) return p;
  const std::uint32_t mask = std::uint32_t(swizzle_bytes / 16 - 1);
  return p ^ (((p >> 7) & mask) << 4);
}

struct LoadArgs {
  const std::uint8_t* src;
  std::uint32_t stage_bytes;
  int stages;                     // TMA: per pipeline (warp)
  std::uint32_t chunks;           // per pass (footprint / stage_bytes)
  std::uint32_t chunks_per_unit;  // static: per pipeline (per-thread paths: per block), per pass
  std::uint32_t units;            // static: pipelines of the grid (multicast: of one cluster rank)
  std::uint32_t passes;
  int cluster;
  bool dynamic;  // TMA: each warp claims groups of `stages` chunks from *ticket
  std::uint32_t* ticket;
  TensorBox box;
  bool verify;
  std::uint32_t* mismatches;
  WarpTiming* out;  // one per warp
};

__device__ __forceinline__ std::uint8_t* aligned_stages(std::uint8_t* raw) {
  return reinterpret_cast<std::uint8_t*>((reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t(1023));
}

// The global word that landed at byte `offset` of a stage holding chunk c (loads).
template <AsyncOp Op>
__device__ __forceinline__ std::uint64_t landed_word(const LoadArgs& a, std::uint64_t c, std::uint32_t offset) {
  if constexpr (Op == AsyncOp::tensor)
    return box_global_word(a.box, c, unswizzle(offset, a.box.swizzle_bytes) / 4);
  else
    return (c * a.stage_bytes + offset) / 4;
}

// Verify: every word at `first`, `first + step`, ... of a stage against the source pattern.
template <AsyncOp Op>
__device__ __forceinline__ void check_stage(const LoadArgs& a, std::uint32_t base, std::uint64_t c, std::uint32_t first,
                                            std::uint32_t step, std::uint32_t words_per_access) {
  for (std::uint32_t o = first; o < a.stage_bytes; o += step)
    for (std::uint32_t b = 0; b < words_per_access * 4; b += 4)
      if (ld_shared_u32(base + o + b) != async_pattern(landed_word<Op>(a, c, o + b))) atomicAdd(a.mismatches, 1u);
}

// Global -> shared by every thread: each thread copies, and later reads, only its own W-byte
// words of each stage (stage = threads x W x U for ld_st, threads x W for cp.async), so its own
// wait orders them. D: ld_st, U loads in flight in registers; cp.async, U commit groups in flight
// (a compile-time wait depth). The block copies every units-th chunk.
template <AsyncOp Op, int W, int U>
__global__ void __launch_bounds__(1024) thread_load_kernel(LoadArgs a) {
  extern __shared__ std::uint8_t smem_raw[];
  std::uint8_t* stages = aligned_stages(smem_raw);
  const std::uint32_t tid = threadIdx.x, threads = blockDim.x;
  constexpr int kStages = Op == AsyncOp::ld_st ? 1 : U;
  const std::uint32_t total = a.chunks_per_unit * a.passes;
  // The chunk of iteration i, kept incrementally: blockIdx.x + (i % chunks_per_unit) x units. Each
  // SM reads its own chunks every pass (private slices, as Bandwidth/l2/private): a pass that
  // read other SMs' recent lines would be served partly by merged requests (the L2 slices count
  // two thirds of the bytes on an H100) and measure something else.
  std::uint32_t issue_k = 0, consume_k = 0;
  auto next = [&](std::uint32_t& k) {
    const std::uint64_t c = blockIdx.x + std::uint64_t(k) * a.units;
    k = k + 1 == a.chunks_per_unit ? 0 : k + 1;
    return c;
  };
  auto stage_addr = [&](std::uint32_t i) { return smem_u32(stages + std::size_t(i % kStages) * a.stage_bytes); };
  std::uint32_t fold = 0;
  auto consume = [&](std::uint32_t i) {
    const std::uint64_t c = next(consume_k);
    if (a.verify)
      check_stage<Op>(a, stage_addr(i), c, tid * W, threads * W, W / 4);
    else
      fold ^= ld_shared_u32(stage_addr(i) + tid * W);
  };
  auto issue = [&](std::uint32_t i) {
    const std::uint8_t* src = a.src + next(issue_k) * a.stage_bytes;
    const std::uint32_t dst = stage_addr(i);
    if constexpr (Op == AsyncOp::ld_st) {
      Vec<W> v[U];
#pragma unroll
      for (int j = 0; j < U; ++j) v[j] = ld_cg<W>(src + (std::size_t(j) * threads + tid) * W);
#pragma unroll
      for (int j = 0; j < U; ++j) st_shared<W>(dst + (std::uint32_t(j) * threads + tid) * W, v[j]);
    } else {
      cp_async<W>(dst + tid * W, src + tid * W, Op == AsyncOp::cp_async_cg);
      cp_async_commit();
    }
  };
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  if constexpr (Op == AsyncOp::ld_st) {
    for (std::uint32_t i = 0; i < total; ++i) {
      issue(i);
      consume(i);
    }
  } else {
    for (std::uint32_t k = 0; k < kStages; ++k) {
      if (k < total)
        issue(k);
      else
        cp_async_commit();  // an empty group keeps the count of groups in flight
    }
    for (std::uint32_t i = 0; i < total; ++i) {
      ARCHBENCH_IF_ARCH_BELOW(80, __trap(), asm volatile("cp.async.wait_group %0;" ::"n"(kStages - 1) : "memory"));
      consume(i);
      if (i + kStages < total)
        issue(i + kStages);
      else
        cp_async_commit();
    }
  }
  __syncthreads();
  const std::uint32_t warp = tid / 32, warps = threads / 32;
  if (tid % 32 == 0) a.out[blockIdx.x * warps + warp].work_units = total;
  warp_clock_stop(&a.out[blockIdx.x * warps + warp], clock, (std::uint64_t(fold) << 32) | total);
}

// Global -> shared by the TMA: every warp of the block is a pipeline of its own `stages` stages
// (lane 0 issues, the warp waits on each stage's mbarrier and reads it, lane 0 issues the next
// copy into it). One issuing thread sustains one copy per ~300 cycles when it also waits, so the
// warps, not the stages, are what scale small copies. Static: pipeline u of the grid copies
// every units-th chunk; dynamic: each pipeline claims groups of `stages` consecutive chunks from
// a ticket, one group ahead (fast SMs take more). Multicast: warp w of every block of a cluster
// runs the same chunk sequence, each block fetching 1/C of each stage for all of them; a stage is
// refilled once warp w of every block of the cluster has read it (empty barrier, C arrivals).
template <AsyncOp Op>
__global__ void __launch_bounds__(1024) tma_load_kernel(LoadArgs a, const __grid_constant__ CUtensorMap map) {
  extern __shared__ std::uint8_t smem_raw[];
  __shared__ __align__(8) std::uint64_t full[kAsyncMaxStages], empty[kAsyncMaxStages];
  __shared__ std::uint32_t stage_chunk[kAsyncMaxStages];
  std::uint8_t* stages = aligned_stages(smem_raw);
  constexpr bool kMulticast = Op == AsyncOp::bulk_multicast;
  const std::uint32_t lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const std::uint32_t S = std::uint32_t(a.stages), first_stage = warp * S;
  const std::uint32_t rank = kMulticast ? cluster_rank() : 0;
  const std::uint32_t unit = (kMulticast ? blockIdx.x / a.cluster : blockIdx.x) * warps + warp;
  if (lane == 0)
    for (std::uint32_t s = first_stage; s < first_stage + S; ++s) {
      mbar_init(smem_u32(&full[s]), 1);
      if constexpr (kMulticast) mbar_init(smem_u32(&empty[s]), a.cluster);
    }
  if constexpr (kMulticast) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"));
    cluster_sync();  // no block's copy lands in a peer's barrier before the peer set it up
  }
  __syncthreads();
  auto stage_addr = [&](std::uint32_t s) { return smem_u32(stages + std::size_t(s) * a.stage_bytes); };

  // Lane 0's producer state: the chunk sequence (static) or the claimed groups (dynamic).
  const std::uint32_t static_total = a.chunks_per_unit * a.passes;
  const std::uint32_t groups = a.dynamic ? a.passes * (a.chunks / S) : 0;
  std::uint32_t issued = 0, static_k = 0, group = 0, next_group = 0;
  if (a.dynamic && lane == 0) {
    group = atomicAdd(a.ticket, 1u);
    next_group = atomicAdd(a.ticket, 1u);
  }
  // Issue copy number `issued` (lane 0), if there is one; returns whether it did.
  auto issue = [&]() -> bool {
    std::uint64_t c;
    if (a.dynamic) {
      if (issued > 0 && issued % S == 0) {
        group = next_group;
        next_group = atomicAdd(a.ticket, 1u);  // one group ahead: its latency hides behind S copies
      }
      if (group >= groups) return false;
      c = (std::uint64_t(group) * S + issued % S) % a.chunks;
    } else {
      if (issued >= static_total) return false;
      c = unit + std::uint64_t(static_k) * a.units;  // its own chunks every pass, as the per-thread kernels
      static_k = static_k + 1 == a.chunks_per_unit ? 0 : static_k + 1;
    }
    const std::uint32_t s = first_stage + issued % S;
    const std::uint32_t bar = smem_u32(&full[s]);
    if constexpr (kMulticast) {
      if (issued >= S) mbar_wait(smem_u32(&empty[s]), ((issued / S) - 1) & 1u);  // every block read it
    }
    stage_chunk[s] = std::uint32_t(c);  // for the readers: released by the arrive, acquired by their wait
    mbar_expect_tx(bar, a.stage_bytes);
    if constexpr (kMulticast) {
      const std::uint32_t piece = a.stage_bytes / a.cluster;
      bulk_load_multicast(stage_addr(s) + rank * piece, a.src + c * a.stage_bytes + rank * piece, piece, bar,
                          std::uint16_t((1u << a.cluster) - 1));
    } else if constexpr (Op == AsyncOp::bulk) {
      bulk_load(stage_addr(s), a.src + c * a.stage_bytes, a.stage_bytes, bar);
    } else {
      int coord[kAsyncMaxDims];
      box_origin(a.box, c, coord);
      tensor_load(stage_addr(s), &map, a.box.dims, coord, bar);
    }
    ++issued;
    return true;
  };

  std::uint32_t fold = 0, done = 0;
  const WarpClock clock = warp_clock_start();
  if (lane == 0)
    for (std::uint32_t k = 0; k < S && issue(); ++k) {
    }
  for (std::uint32_t i = 0;; ++i) {
    if (i >= __shfl_sync(0xffffffffu, issued, 0)) break;  // lane 0 issued no copy i: the pipeline is done
    const std::uint32_t s = first_stage + i % S;
    mbar_wait(smem_u32(&full[s]), (i / S) & 1u);
    const std::uint32_t c = stage_chunk[s];
    if (a.verify)
      check_stage<Op>(a, stage_addr(s), c, lane * 4, 32 * 4, 1);
    else if (lane == 0)
      fold ^= ld_shared_u32(stage_addr(s));
    __syncwarp();  // the warp is done with stage s
    if (lane == 0) {
      if constexpr (kMulticast)
        for (int r = 0; r < a.cluster; ++r) mbar_arrive_remote(smem_u32(&empty[s]), std::uint32_t(r));
      issue();
    }
    ++done;
  }
  if (lane == 0) a.out[blockIdx.x * warps + warp].work_units = done;
  warp_clock_stop(&a.out[blockIdx.x * warps + warp], clock, (std::uint64_t(fold) << 32) | done);
  if constexpr (kMulticast) {
    __syncthreads();
    cluster_sync();  // no block leaves while a peer may still arrive on its barriers
  }
}

struct StoreArgs {
  std::uint8_t* dst;
  std::uint32_t stage_bytes;
  int stages;
  std::uint32_t chunks_per_unit;
  std::uint32_t units;
  std::uint32_t passes;
  TensorBox box;
  WarpTiming* out;
};

// Shared -> global: every stage holds word k = async_pattern(k) (for a tensor store, logical word
// k of the box); chunk i is written from stage i % stages, with at most `stages` bulk groups
// still reading shared memory.
template <AsyncOp Op>
__global__ void __launch_bounds__(1024) async_store_kernel(StoreArgs a, const __grid_constant__ CUtensorMap map) {
  extern __shared__ std::uint8_t smem_raw[];
  std::uint8_t* stages = aligned_stages(smem_raw);
  const std::uint32_t tid = threadIdx.x, threads = blockDim.x;
  const std::uint32_t words = a.stage_bytes / 4;
  for (std::uint32_t w = tid; w < words * std::uint32_t(a.stages); w += threads)
    reinterpret_cast<std::uint32_t*>(stages)[w] = async_pattern(w % words);
  if constexpr (Op != AsyncOp::st_global) fence_proxy_async_smem();  // generic writes, then the TMA reads them
  __syncthreads();
  const std::uint32_t total = a.chunks_per_unit * a.passes;
  auto chunk_of = [&](std::uint32_t i) {
    return std::uint64_t(blockIdx.x) + std::uint64_t(i % a.chunks_per_unit) * a.units;
  };
  const WarpClock clock = warp_clock_start();
  if constexpr (Op == AsyncOp::st_global) {
    for (std::uint32_t i = 0; i < total; ++i) {
      const std::uint32_t src = smem_u32(stages + std::size_t(i % std::uint32_t(a.stages)) * a.stage_bytes);
      std::uint8_t* dst = a.dst + chunk_of(i) * a.stage_bytes;
#pragma unroll 4
      for (std::uint32_t o = tid * 16; o < a.stage_bytes; o += threads * 16) {
        std::uint32_t x, y, z, w;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                     : "r"(src + o)
                     : "memory");
        asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(dst + o), "r"(x), "r"(y), "r"(z), "r"(w)
                     : "memory");
      }
    }
  } else if (tid == 0) {
    for (std::uint32_t i = 0; i < total; ++i) {
      const std::uint32_t src = smem_u32(stages + std::size_t(i % std::uint32_t(a.stages)) * a.stage_bytes);
      const std::uint64_t c = chunk_of(i);
      if constexpr (Op == AsyncOp::bulk_store) {
        bulk_store(a.dst + c * a.stage_bytes, src, a.stage_bytes);
      } else if constexpr (Op == AsyncOp::bulk_reduce_add) {
        bulk_reduce_add(a.dst + c * a.stage_bytes, src, a.stage_bytes);
      } else {
        int coord[kAsyncMaxDims];
        box_origin(a.box, c, coord);
        tensor_store(&map, a.box.dims, coord, src);
      }
      bulk_commit();
      bulk_wait_read(a.stages - 1);
    }
    bulk_wait_all();  // the last writes done before the clock stops
  }
  __syncthreads();
  const std::uint32_t warp = tid / 32;
  if (tid % 32 == 0) a.out[blockIdx.x * (threads / 32) + warp].work_units = total;
  warp_clock_stop(&a.out[blockIdx.x * (threads / 32) + warp], clock, total);
}

struct LatencyArgs {
  const std::uint8_t* src;
  std::uint64_t src_word;  // the pattern's word index at src (a placement's shift / 4)
  std::uint32_t bytes;
  std::uint64_t step;  // bytes from one copy's source to the next (a tensor's: whole boxes)
  std::uint32_t copies;
  TensorBox box;
  std::uint32_t* cycles;
  std::uint32_t* mismatches;
  std::uint64_t* window;  // clock64 and %globaltimer around the whole loop: start, end
  std::uint32_t pin_sm;   // the SM that runs the measurement (kernels/pinned_launch.cuh)
  std::uint32_t* claim;
};

// One warp, one copy at a time: lane 0's clock from before the copy is issued to after the data
// is in shared memory (TMA: the mbarrier completed; cp.async: wait_group 0; ld_st: the last
// shared store issued, which needs every load's value). Then every landed word is checked.
template <AsyncOp Op>
__global__ void __launch_bounds__(32) async_latency_kernel(LatencyArgs a, const __grid_constant__ CUtensorMap map) {
  extern __shared__ std::uint8_t smem_raw[];
  __shared__ __align__(8) std::uint64_t full;
  std::uint8_t* buf = aligned_stages(smem_raw);
  // The shared addresses once, in registers (else each use re-derives them, inside the window).
  std::uint32_t dst, bar;
  asm volatile("mov.u32 %0, %1;" : "=r"(dst) : "r"(smem_u32(buf)));
  asm volatile("mov.u32 %0, %1;" : "=r"(bar) : "r"(smem_u32(&full)));
  const std::uint32_t lane = threadIdx.x;
  // One block, on the pinned SM (the reference SM): where the SM sits decides how far the data's
  // L2 slices are, and the block scheduler's SM 0 lies elsewhere on each board.
  __shared__ std::uint32_t runs_here;
  if (lane == 0) runs_here = claim_pinned_sm(a.pin_sm, a.claim);
  __syncthreads();
  if (!runs_here) return;
  constexpr bool kTma = Op == AsyncOp::bulk || Op == AsyncOp::tensor;
  if constexpr (kTma) {
    if (lane == 0) mbar_init(bar, 1);
  }
  __syncwarp();
  const WarpClock clock = warp_clock_start();
  for (std::uint32_t k = 0; k < a.copies; ++k) {
    // Everything the copy needs is computed before the first clock read (the empty asm needs it).
    const std::uint64_t offset = std::uint64_t(k) * a.step;
    const std::uint8_t* src = a.src + offset;
    int coord[kAsyncMaxDims];
    box_origin(a.box, offset / a.bytes, coord);
    asm volatile("" ::"l"(src), "r"(coord[0]), "r"(coord[1]), "r"(coord[2]), "r"(coord[3]), "r"(coord[4]));
    __syncwarp();
    const std::uint64_t t0 = clock64_ordered();
    if constexpr (kTma) {
      if (lane == 0) {
        mbar_expect_tx(bar, a.bytes);
        if constexpr (Op == AsyncOp::bulk)
          bulk_load(dst, src, a.bytes, bar);
        else
          tensor_load(dst, &map, a.box.dims, coord, bar);
      }
      mbar_wait(bar, k & 1u);
    } else if constexpr (Op == AsyncOp::cp_async_cg) {
      for (std::uint32_t o = lane * 16; o < a.bytes; o += 32 * 16) cp_async<16>(dst + o, src + o, true);
      cp_async_commit();
      cp_async_wait_all();
    } else {
      // Eight 16-byte loads per lane in flight, then their stores.
      for (std::uint32_t base = 0; base < a.bytes; base += 8 * 32 * 16) {
        Vec<16> v[8] = {};
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const std::uint32_t o = base + (std::uint32_t(j) * 32 + lane) * 16;
          if (o < a.bytes) v[j] = ld_cg<16>(src + o);
        }
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const std::uint32_t o = base + (std::uint32_t(j) * 32 + lane) * 16;
          if (o < a.bytes) st_shared<16>(dst + o, v[j]);
        }
      }
    }
    __syncwarp();
    const std::uint64_t t1 = clock64_ordered();
    if (lane == 0) a.cycles[k] = std::uint32_t(t1 - t0);
    for (std::uint32_t o = lane * 4; o < a.bytes; o += 32 * 4) {
      const std::uint64_t word =
          a.src_word + (Op == AsyncOp::tensor
                            ? box_global_word(a.box, offset / a.bytes, unswizzle(o, a.box.swizzle_bytes) / 4)
                            : (offset + o) / 4);
      if (ld_shared_u32(dst + o) != async_pattern(word)) atomicAdd(a.mismatches, 1u);
    }
    __syncwarp();
  }
  const std::uint64_t end_cycles = clock64_ordered(), end_ns = globaltimer_ns();
  if (lane == 0) {
    a.window[0] = clock.start_cycles;
    a.window[1] = end_cycles;
    a.window[2] = clock.start_ns;
    a.window[3] = end_ns;
  }
}

}  // namespace dev::acopy

// The multicast load kernel (kernels/async_multicast.cu), or null where the build has no sm_90a.
const void* async_multicast_load_kernel();

}  // namespace archbench
