// Barrier and fence loops of the Sync feature: every warp runs `iterations` x kBody steps of one
// synchronisation primitive between two clock reads, as inline PTX (the SASS test checks the
// instruction). The mbarrier loop counts its completed phases, which the host checks.
#include "kernels/sync.hpp"

#include <cooperative_groups.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/enum_names.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/pinned_launch.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench {
namespace dev::sync {

// Waits for the mbarrier's phase of parity `phase` to complete, then flips it and counts it:
// try_wait (sm_90, may suspend the thread) or a spin on test_wait (sm_80, never suspends).
template <bool kTestWait>
__device__ __forceinline__ void wait_phase(std::uint32_t mbar, std::uint32_t& phase, std::uint32_t& value) {
  std::uint32_t done = 0;
  while (!done) {
    if constexpr (kTestWait)
      asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done)
                   : "r"(mbar), "r"(phase)
                   : "memory");
    else
      ARCHBENCH_IF_ARCH_BELOW(
          90, __trap(),
          asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                       : "=r"(done)
                       : "r"(mbar), "r"(phase)
                       : "memory"));
  }
  phase ^= 1u;
  ++value;
}

template <SyncStep S>
__device__ __forceinline__ void step(std::uint32_t warp, std::uint32_t warps, std::uint32_t* global_slot,
                                     std::uint32_t mbar, std::uint32_t& phase, std::uint32_t& value) {
  if constexpr (S == SyncStep::bar_sync) {
    asm volatile("bar.sync 0;" ::: "memory");
  } else if constexpr (S == SyncStep::bar_named_half) {
    const std::uint32_t half = warps / 2 * 32;
    if (warp < warps / 2)
      asm volatile("bar.sync 1, %0;" ::"r"(half) : "memory");
    else
      asm volatile("bar.sync 2, %0;" ::"r"(half) : "memory");
  } else if constexpr (S == SyncStep::bar_arrive_sync) {
    // A handshake on two barriers: producers signal "full" (1) and wait for "empty" (2),
    // consumers wait for "full" and signal "empty"; no warp arrives twice at one barrier phase.
    const std::uint32_t all = warps * 32;
    if (warp < warps / 2) {
      asm volatile("bar.arrive 1, %0;" ::"r"(all) : "memory");
      asm volatile("bar.sync 2, %0;" ::"r"(all) : "memory");
    } else {
      asm volatile("bar.sync 1, %0;" ::"r"(all) : "memory");
      asm volatile("bar.arrive 2, %0;" ::"r"(all) : "memory");
    }
  } else if constexpr (S == SyncStep::mbarrier_phase) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {  // try_wait is sm_90
      std::uint64_t state;
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(mbar) : "memory");
      wait_phase<false>(mbar, phase, value);
    });
  } else if constexpr (S == SyncStep::mbarrier_expect_tx) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), {
      std::uint64_t state;
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], 4;" : "=l"(state) : "r"(mbar) : "memory");
      asm volatile("mbarrier.complete_tx.shared::cta.b64 [%0], 4;" ::"r"(mbar) : "memory");
      wait_phase<false>(mbar, phase, value);
    });
  } else if constexpr (S == SyncStep::mbarrier_test_wait) {
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(), {
      std::uint64_t state;
      asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(mbar) : "memory");
      wait_phase<true>(mbar, phase, value);
    });
  } else if constexpr (S == SyncStep::fence_sc_cta) {
    asm volatile("fence.sc.cta;" ::: "memory");
  } else if constexpr (S == SyncStep::fence_acq_rel_gpu) {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  } else if constexpr (S == SyncStep::fence_sc_gpu) {
    asm volatile("fence.sc.gpu;" ::: "memory");
  } else if constexpr (S == SyncStep::fence_sc_sys) {
    asm volatile("fence.sc.sys;" ::: "memory");
  } else if constexpr (S == SyncStep::fence_proxy_async) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), asm volatile("fence.proxy.async;" ::: "memory"));
  } else if constexpr (S == SyncStep::store_fence_gpu) {
    asm volatile("st.global.u32 [%0], %1;\n\tfence.sc.gpu;" ::"l"(global_slot), "r"(value) : "memory");
    ++value;
  } else if constexpr (S == SyncStep::cluster_barrier) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                            asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::
                                             : "memory"));
  } else if constexpr (S == SyncStep::grid_sync) {
    cooperative_groups::this_grid().sync();
  }
}

// A one-block step runs on SM pin_sm (kernels/pinned_launch.cuh): the first block there claims the
// run (claim[0]), every other block counts itself out (claim[1]) and returns, and the chosen block
// starts once all of them have, so no other block shares its SM while it is timed.
__device__ __forceinline__ bool pinned_block_runs(std::uint32_t pin_sm, std::uint32_t* claim) {
  __shared__ bool chosen;
  if (threadIdx.x == 0) {
    chosen = dev::claim_pinned_sm(pin_sm, claim);
    if (!chosen) {
      atomicAdd(&claim[1], 1u);
    } else {
      while (*static_cast<volatile std::uint32_t*>(&claim[1]) < gridDim.x - 1) {
      }
    }
  }
  __syncthreads();
  return chosen;
}

template <SyncStep S, int kBody>
__global__ void __launch_bounds__(1024)
    sync_kernel(std::uint32_t iterations, std::uint32_t* slots, WarpTiming* __restrict__ out, std::uint32_t pin_sm,
                std::uint32_t* claim) {
  __shared__ __align__(8) std::uint64_t mbar_storage;
  if (pin_sm != kAnySm && !pinned_block_runs(pin_sm, claim)) return;
  const std::uint32_t block = pin_sm != kAnySm ? 0 : blockIdx.x;
  const std::uint32_t warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const auto mbar = static_cast<std::uint32_t>(__cvta_generic_to_shared(&mbar_storage));
  constexpr bool kMbarrier =
      S == SyncStep::mbarrier_phase || S == SyncStep::mbarrier_expect_tx || S == SyncStep::mbarrier_test_wait;
  if constexpr (kMbarrier) {
    ARCHBENCH_IF_ARCH_BELOW(80, __trap(), {
      if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(mbar), "r"(blockDim.x) : "memory");
    });
  }
  std::uint32_t* slot = slots + std::size_t(block * blockDim.x + threadIdx.x) * kSyncSlotStrideWords;
  std::uint32_t phase = 0, value = 0;
  WarpTiming* mine = &out[block * warps + warp];
  __syncthreads();
  const WarpClock clock = warp_clock_start();
#pragma unroll 1
  for (std::uint32_t i = 0; i < iterations; ++i) {
    // Fences leave the warps free-running, and a contended fence's cost depends on the warps'
    // relative phase: 32 warps fencing at once settle into one interleaving per launch, from 84
    // to 121 cycles per step on an H100. A block barrier starts every iteration at one phase
    // (49.8 cycles, launches within 0.07 %); it costs the same in both bodies, so the slope removes it.
    if constexpr (sync_step_is_fence(S)) __syncthreads();
#pragma unroll
    for (int k = 0; k < kBody; ++k) step<S>(warp, warps, slot, mbar, phase, value);
  }
  const std::uint64_t check = kMbarrier || S == SyncStep::store_fence_gpu ? value : std::uint64_t(iterations) * kBody;
  warp_clock_stop(mine, clock, check);
}

}  // namespace dev::sync

namespace {

using KernelFn = void (*)(std::uint32_t, std::uint32_t*, WarpTiming*, std::uint32_t, std::uint32_t*);

__device__ std::uint32_t g_sync_claim[2];  // the pinned launch's claim and the count of blocks that returned
__device__ std::uint32_t g_sync_one_block_slots[1024 * kSyncSlotStrideWords];  // a block of up to 1024 threads

template <SyncStep S>
KernelFn kernel_for(int body) {
  if (body == kSyncShortBody) return dev::sync::sync_kernel<S, kSyncShortBody>;
  if (body == kSyncLongBody) return dev::sync::sync_kernel<S, kSyncLongBody>;
  throw std::invalid_argument("sync: no kernel for a body of " + std::to_string(body));
}

KernelFn kernel_for(SyncStep s, int body) {
  switch (s) {
    case SyncStep::bar_sync:
      return kernel_for<SyncStep::bar_sync>(body);
    case SyncStep::bar_named_half:
      return kernel_for<SyncStep::bar_named_half>(body);
    case SyncStep::bar_arrive_sync:
      return kernel_for<SyncStep::bar_arrive_sync>(body);
    case SyncStep::mbarrier_phase:
      return kernel_for<SyncStep::mbarrier_phase>(body);
    case SyncStep::fence_sc_cta:
      return kernel_for<SyncStep::fence_sc_cta>(body);
    case SyncStep::fence_acq_rel_gpu:
      return kernel_for<SyncStep::fence_acq_rel_gpu>(body);
    case SyncStep::fence_sc_gpu:
      return kernel_for<SyncStep::fence_sc_gpu>(body);
    case SyncStep::fence_sc_sys:
      return kernel_for<SyncStep::fence_sc_sys>(body);
    case SyncStep::fence_proxy_async:
      return kernel_for<SyncStep::fence_proxy_async>(body);
    case SyncStep::store_fence_gpu:
      return kernel_for<SyncStep::store_fence_gpu>(body);
    case SyncStep::cluster_barrier:
      return kernel_for<SyncStep::cluster_barrier>(body);
    case SyncStep::grid_sync:
      return kernel_for<SyncStep::grid_sync>(body);
    case SyncStep::mbarrier_expect_tx:
      return kernel_for<SyncStep::mbarrier_expect_tx>(body);
    case SyncStep::mbarrier_test_wait:
      return kernel_for<SyncStep::mbarrier_test_wait>(body);
  }
  throw std::invalid_argument("sync: unknown step");
}

const std::vector<SyncStepInfo> kSteps = {
    {SyncStep::bar_sync, "bar_sync", "bar", "bar.sync 0", 0, false},
    {SyncStep::bar_named_half, "bar_named_half", "bar", "bar.sync 1|2, half the block", 0, true},
    {SyncStep::bar_arrive_sync, "bar_arrive_sync", "bar",
     "producers bar.arrive 1 + bar.sync 2, consumers bar.sync 1 + bar.arrive 2", 0, true},
    {SyncStep::mbarrier_phase, "mbarrier_phase", "mbarrier", "mbarrier.arrive + try_wait.parity", 90, false},
    {SyncStep::fence_sc_cta, "fence_sc_cta", "fence", "fence.sc.cta", 70, false},
    {SyncStep::fence_acq_rel_gpu, "fence_acq_rel_gpu", "fence", "fence.acq_rel.gpu", 70, false},
    {SyncStep::fence_sc_gpu, "fence_sc_gpu", "fence", "fence.sc.gpu", 70, false},
    {SyncStep::fence_sc_sys, "fence_sc_sys", "fence", "fence.sc.sys", 70, false},
    {SyncStep::fence_proxy_async, "fence_proxy_async", "fence", "fence.proxy.async", 90, false},
    {SyncStep::store_fence_gpu, "store_fence_gpu", "fence", "st.global + fence.sc.gpu", 70, false},
    {SyncStep::cluster_barrier, "cluster_barrier", "cluster", "barrier.cluster.arrive + wait (aligned)", 90, false},
    {SyncStep::grid_sync, "grid_sync", "grid", "cooperative_groups::this_grid().sync()", 70, false},
    {SyncStep::mbarrier_expect_tx, "mbarrier_expect_tx", "mbarrier",
     "mbarrier.arrive.expect_tx + complete_tx + try_wait.parity", 90, false},
    {SyncStep::mbarrier_test_wait, "mbarrier_test_wait", "mbarrier", "mbarrier.arrive + test_wait.parity spin", 80,
     false},
};

}  // namespace

const std::vector<SyncStepInfo>& sync_steps() { return kSteps; }

const SyncStepInfo& sync_step_info(SyncStep s) { return row_of(kSteps, &SyncStepInfo::step, s, "sync: unknown step"); }

std::vector<WarpTiming> run_sync(const SyncLaunch& l) {
  if (l.threads_per_block <= 0 || l.threads_per_block % 32 != 0 || l.threads_per_block > 1024 || l.blocks <= 0)
    throw std::invalid_argument("sync: threads per block must be a multiple of 32 in 32..1024, blocks > 0");
  if (sync_step_info(l.step).needs_two_warps && (l.threads_per_block / 32) % 2 != 0)
    throw std::invalid_argument(std::string("sync: ") + sync_step_info(l.step).name + " needs an even number of warps");
  const KernelFn kernel = kernel_for(l.step, l.body);
  const std::size_t warps = std::size_t(l.blocks) * (l.threads_per_block / 32);
  // A one-block launch stores into a __device__ array, at one address for the process: every
  // launch stores to the same lines, homed in the same L2 partitions, which a fresh allocation per
  // launch does not promise (the fence's cost follows where its stored lines are homed).
  std::optional<DeviceBuffer<std::uint32_t>> grid_slots;
  std::uint32_t* slot_ptr = nullptr;
  if (l.blocks == 1) {
    ARCHBENCH_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&slot_ptr), g_sync_one_block_slots));
  } else {
    grid_slots.emplace(std::size_t(l.blocks) * l.threads_per_block * kSyncSlotStrideWords);
    slot_ptr = grid_slots->get();
  }
  DeviceBuffer<WarpTiming> out(warps);
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, warps * sizeof(WarpTiming)));
  std::uint32_t iterations = l.iterations;
  WarpTiming* out_ptr = out.get();
  std::uint32_t unpinned = kAnySm, *no_claim = nullptr;
  if (l.step == SyncStep::cluster_barrier) {
    // One cluster of l.blocks blocks; sizes above the portable 8 need the kernel's opt-in.
    if (l.blocks > 8)
      ARCHBENCH_CUDA(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                          cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(l.blocks);
    config.blockDim = dim3(l.threads_per_block);
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(l.blocks);
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    int clusters = 0;
    ARCHBENCH_CUDA(cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<const void*>(kernel), &config));
    if (clusters < 1)
      throw std::invalid_argument("sync: a cluster of " + std::to_string(l.blocks) + " blocks of " +
                                  std::to_string(l.threads_per_block) + " threads cannot run on this GPU");
    ARCHBENCH_CUDA(cudaLaunchKernelEx(&config, kernel, iterations, slot_ptr, out_ptr, unpinned, no_claim));
  } else if (l.step == SyncStep::grid_sync) {
    // A cooperative launch: every block resident at once, or the launch is refused.
    int device = 0, per_sm = 0, sms = 0;
    ARCHBENCH_CUDA(cudaGetDevice(&device));
    ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(kernel),
                                                                 l.threads_per_block, 0));
    if (l.blocks > per_sm * sms)
      throw std::invalid_argument("sync: a cooperative grid of " + std::to_string(l.blocks) + " blocks does not fit (" +
                                  std::to_string(per_sm * sms) + " at once)");
    void* args[] = {&iterations, &slot_ptr, &out_ptr, &unpinned, &no_claim};
    ARCHBENCH_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), dim3(l.blocks),
                                               dim3(l.threads_per_block), args, 0, nullptr));
  } else if (l.blocks == 1 && l.pin_sm != kAnySm) {
    std::uint32_t* claim = nullptr;
    ARCHBENCH_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&claim), g_sync_claim));
    launch_pinned(
        "sync_kernel", claim,
        [&](int blocks, std::uint32_t sm) {
          ARCHBENCH_CUDA(cudaMemset(claim, 0, 2 * sizeof *claim));
          kernel<<<blocks, l.threads_per_block>>>(iterations, slot_ptr, out_ptr, sm, claim);
        },
        l.pin_sm);
  } else {
    kernel<<<l.blocks, l.threads_per_block>>>(iterations, slot_ptr, out_ptr, unpinned, no_claim);
  }
  cuda_check_launch("sync_kernel");
  return out.download();
}

}  // namespace archbench
