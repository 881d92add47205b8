// Host side of the Sync feature's barrier and fence kernels (kernels/sync.cu): a loop of one
// synchronisation step, timed per warp. The warp collectives run on the Pipeline kernel instead
// (kernels/shared/pipeline_ops.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/host_device.hpp"

namespace archbench {

enum class SyncStep {
  bar_sync,           // bar.sync 0: every thread of the block
  bar_named_half,     // bar.sync 1 / 2, each half of the block's warps on its own named barrier
  bar_arrive_sync,    // producer/consumer handshake: the first half arrives on 1 and waits on 2, the second the reverse
  mbarrier_phase,     // every thread: mbarrier.arrive, then mbarrier.try_wait.parity until the phase flips
  fence_sc_cta,       // fence.sc.cta (membar.cta)
  fence_acq_rel_gpu,  // fence.acq_rel.gpu
  fence_sc_gpu,       // fence.sc.gpu (membar.gl)
  fence_sc_sys,       // fence.sc.sys (membar.sys)
  fence_proxy_async,  // fence.proxy.async (sm_90)
  store_fence_gpu,    // st.global then fence.sc.gpu: a fence with outstanding stores (a line per thread)
  cluster_barrier,    // barrier.cluster.arrive + barrier.cluster.wait, every thread of a cluster (sm_90)
  grid_sync,          // cooperative_groups grid sync of a cooperative launch, every thread of the grid
  mbarrier_expect_tx,  // every thread: mbarrier.arrive.expect_tx of 4 bytes, mbarrier.complete_tx of them, then
                       // try_wait.parity: the transaction count's path, which the TMA's copies complete (sm_90)
  mbarrier_test_wait,  // every thread: mbarrier.arrive, then a spin on mbarrier.test_wait.parity (never suspends)
};

// Fences do not synchronise the warps that issue them.
ARCHBENCH_HOST_DEVICE constexpr bool sync_step_is_fence(SyncStep s) {
  return s == SyncStep::fence_sc_cta || s == SyncStep::fence_acq_rel_gpu || s == SyncStep::fence_sc_gpu ||
         s == SyncStep::fence_sc_sys || s == SyncStep::fence_proxy_async || s == SyncStep::store_fence_gpu;
}

// Steps whose cost depends on where the block's SM sits: GPU- and system-scope fences wait on the
// memory system outside the SM. One H100 read fence.sc.gpu from one warp at 634-675 cycles on
// eight SMs, another at 617-683 over all 132 (each SM's own cost repeating within 0.1), where
// bar.sync cost the same on every SM. These steps are measured on every SM in turn (fixtures/runners/sync_runner.hpp).
ARCHBENCH_HOST_DEVICE constexpr bool sync_step_depends_on_sm(SyncStep s) {
  return s == SyncStep::fence_acq_rel_gpu || s == SyncStep::fence_sc_gpu || s == SyncStep::fence_sc_sys ||
         s == SyncStep::fence_proxy_async || s == SyncStep::store_fence_gpu;
}

// SyncLaunch::pin_sm of a launch left to the block scheduler.
inline constexpr std::uint32_t kAnySm = 0xfffffffeu;

struct SyncStepInfo {
  SyncStep step;
  const char* name;    // Sync/<family>/<name>
  const char* family;  // "bar", "mbarrier", "fence", "cluster", "grid"
  const char* ptx;
  int min_cc;
  bool needs_two_warps;  // named halves, producer/consumer
};
const std::vector<SyncStepInfo>& sync_steps();
const SyncStepInfo& sync_step_info(SyncStep s);

// The latency slope's two loop bodies.
inline constexpr int kSyncShortBody = 16;
inline constexpr int kSyncLongBody =
    256;  // 240 steps between the bodies: a contended step (32 warps fencing at once) scatters less

// store_fence_gpu: every thread stores to a line of its own, so a warp's fence waits on 32
// lines homed in both L2 partitions. A warp's 32 stores into one line made the fence's cost follow
// that line's partition against the block's SM, which changes from launch to launch (an H200 read
// 551.7 or 556.5 cycles from one warp between runs).
inline constexpr int kSyncSlotStrideWords = 32;

struct SyncLaunch {
  SyncStep step = SyncStep::bar_sync;
  int body = kSyncLongBody;  // kSyncShortBody or kSyncLongBody steps per iteration
  int blocks = 1;            // cluster_barrier: the cluster size (one cluster); grid_sync: the grid
  int threads_per_block = 32;
  std::uint32_t iterations = 1;
  // A one-block launch runs where the block scheduler puts it (kAnySm), or alone on this SM
  // (kernels/pinned_launch.cuh; the run's reference SM where a benchmark asks for it).
  std::uint32_t pin_sm = kAnySm;
};

// One timing per warp; WarpTiming::check holds the mbarrier's completed phases (mbarrier_*),
// else the steps the warp ran. A cluster or cooperative grid that cannot run at once on this GPU
// is refused (std::invalid_argument). Throws std::invalid_argument, CudaError.
std::vector<WarpTiming> run_sync(const SyncLaunch& l);

}  // namespace archbench
