// Sync on a real GPU: every warp collective's chain checks itself (every warp's result against
// the host's replay), its latency is a few tens of cycles with the loop overhead removed, and the
// shuffles issue at one rate, a ballot no slower.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "kernels/shared/device_buffer.hpp"
#include "fixtures/harness/driver_api.hpp"
#include "fixtures/harness/fresh_context.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/pipeline_runner.hpp"
#include "fixtures/runners/sync_runner.hpp"

namespace archbench {
namespace {

TEST(Sync, WarpCollectiveLatencyIsTensOfCyclesWithTheLoopRemoved) {
  for (const PipeOpInfo& op : pipe_ops()) {
    if (!is_warp_collective(op) || pipe_op_unsupported(op, Gpu::current().info())) continue;
    const LatencyMeasurement m = measure_latency(op.op, calibrate_latency_iterations(op.op));
    std::printf("%-12s latency %6.2f cycles (raw %6.2f, loop %5.2f per iteration) at %.0f MHz\n", op.name,
                m.slope.latency_cycles, m.slope.raw_cycles, m.slope.loop_overhead_cycles, m.sm_clock_mhz);
    EXPECT_GE(m.slope.latency_cycles, 4.0) << op.name << ": faster than an FFMA, so not a dependent chain";
    EXPECT_LE(m.slope.latency_cycles, 100.0) << op.name;
    EXPECT_LE(m.slope.latency_cycles, m.slope.raw_cycles + 0.5) << op.name << ": the slope removes the loop, not adds";
  }
}

// elect.sync has no data input, so its chain runs through a compare and a branch; the same step
// around a shuffle is its reference. Checked: the step holds the election (it costs more than the
// compare and branch alone), the branch costs something (the reference is slower than the bare
// shuffle), and the difference repeats to within a cycle over three measurements.
TEST(Sync, ElectLatencyStandsOutOfItsControlChainAndRepeats) {
  const PipeOpInfo& elect = pipe_op_info(PipeOp::elect);
  if (const auto why = pipe_op_unsupported(elect, Gpu::current().info())) GTEST_SKIP() << *why;
  const LatencyReference ref = *latency_reference(PipeOp::elect);
  auto step = [](PipeOp op) { return measure_latency(op, calibrate_latency_iterations(op)).slope.latency_cycles; };
  std::vector<double> latency;
  for (int k = 0; k < 3; ++k) {
    const double e = step(PipeOp::elect), r = step(ref.reference), b = step(ref.base);
    std::printf("elect step %.2f, compare+branch+shuffle %.2f, shuffle %.2f: elect %.2f cycles, branch %.2f\n", e, r, b,
                e - r + b, r - b);
    EXPECT_GE(r - b, 2.0) << "the compare and branch cost nothing: the chain does not wait on them";
    EXPECT_GE(e - (r - b), 2.0) << "the step holds no election";
    latency.push_back(e - r + b);
  }
  for (double l : latency) {
    EXPECT_GE(l, 2.0);
    EXPECT_LE(l, 100.0);
  }
  EXPECT_LE(*std::max_element(latency.begin(), latency.end()) - *std::min_element(latency.begin(), latency.end()), 1.0);
}

// The four shuffles issue at one rate, a fixed share of the Programming Guide's 32 results per
// clock per SM (an H100 sustains 16: half the table's figure, at ILP 8 and 32 warps, where 28
// cycles of latency need only 14 shuffles in flight per SM), and a ballot at least as fast.
TEST(Sync, ShufflesIssueAtOneRateAndBallotsNoSlower) {
  const GpuInfo& gpu = Gpu::current().info();
  const PipelineShape shape{8, 32, 1};
  auto rate = [&](PipeOp op) {
    const ThroughputMeasurement m = measure_throughput(op, shape, calibrate_throughput_iterations(op, shape));
    std::printf("%-11s ilp 8, 32 warps, one SM: %.2f results/clk/SM (%.1f %% of the guide's %s)\n",
                pipe_op_info(op).name, m.results_per_clk_per_sm, m.pct_of_peak,
                m.peak_results_per_clk_per_sm ? std::to_string(*m.peak_results_per_clk_per_sm).c_str() : "none");
    return m;
  };
  if (pipe_op_unsupported(pipe_op_info(PipeOp::shfl_idx), gpu)) GTEST_SKIP() << "no shfl.sync on this GPU";
  const ThroughputMeasurement idx = rate(PipeOp::shfl_idx);
  for (PipeOp op : {PipeOp::shfl_bfly, PipeOp::shfl_up, PipeOp::shfl_down})
    EXPECT_NEAR(rate(op).results_per_clk_per_sm, idx.results_per_clk_per_sm, 0.02 * idx.results_per_clk_per_sm)
        << pipe_op_info(op).name;
  if (idx.peak_results_per_clk_per_sm) {
    EXPECT_GE(idx.pct_of_peak, 40.0);
    EXPECT_LE(idx.pct_of_peak, 101.0) << "above the peak means the work was folded";
  }
  EXPECT_GE(rate(PipeOp::vote_ballot).results_per_clk_per_sm, 0.98 * idx.results_per_clk_per_sm);
}

TEST(Sync, EveryWarpCollectiveChecksItselfOnEverySm) {
  const GpuInfo& gpu = Gpu::current().info();
  for (const PipeOpInfo& op : pipe_ops()) {
    if (!is_warp_collective(op) || pipe_op_unsupported(op, gpu)) continue;
    EXPECT_NO_THROW(measure_throughput(op.op, PipelineShape{4, 32, gpu.sm_count}, 4)) << op.name;
  }
}

double step_cycles(SyncStep s, int warps) {
  const SyncMeasurement m = measure_sync(s, warps, calibrate_sync_iterations(s, warps));
  std::printf("%-18s %2d warps: %7.1f cycles per step (raw %7.1f) at %.0f MHz\n", sync_step_info(s).name, warps,
              m.slope.latency_cycles, m.slope.raw_cycles, m.sm_clock_mhz);
  return m.slope.latency_cycles;
}

// Every barrier and fence step runs with 2 and 32 warps and checks itself (every warp's step
// count; the mbarrier's completed phases); a barrier of a full block costs at least one of a
// warp pair; a wider fence costs at least a narrower one, and an outstanding store makes it dearer.
TEST(Sync, BarriersAndFencesRunCheckThemselvesAndOrderAsTheirScopes) {
  const GpuInfo& gpu = Gpu::current().info();
  std::map<SyncStep, std::map<int, double>> c;
  for (const SyncStepInfo& i : sync_steps()) {
    if (sync_step_unsupported(i, gpu)) continue;
    for (int w : {2, 32}) {
      c[i.step][w] = step_cycles(i.step, w);
      EXPECT_GT(c[i.step][w], 1.0) << i.name << ": cheaper than an issue slot";
      EXPECT_LT(c[i.step][w], 20000.0) << i.name;
    }
  }
  EXPECT_GE(c[SyncStep::bar_sync][32], 0.95 * c[SyncStep::bar_sync][2]);
  EXPECT_GE(c[SyncStep::fence_sc_gpu][2], c[SyncStep::fence_sc_cta][2]);
  EXPECT_GE(c[SyncStep::fence_sc_sys][2], 0.95 * c[SyncStep::fence_sc_gpu][2]);
  EXPECT_GE(c[SyncStep::store_fence_gpu][2], c[SyncStep::fence_sc_gpu][2]);
  // A phase completed through the transaction count (arrive.expect_tx + complete_tx) does what a
  // plain phase does and more.
  if (c.count(SyncStep::mbarrier_expect_tx)) {
    EXPECT_GE(c[SyncStep::mbarrier_expect_tx][2], 0.95 * c[SyncStep::mbarrier_phase][2]);
  }
}

// A GPU-scope fence is measured alone on every SM in turn: each launch ran on the SM it was pinned
// to (measure_sync_every_sm checks), each SM's cost repeats between two sweeps, and so does the
// mean over SMs, the figure the benchmark reports.
TEST(Sync, GpuScopeFenceSweepCoversEverySmAndRepeats) {
  const GpuInfo& gpu = Gpu::current().info();
  const SyncSmSweep a = measure_sync_every_sm(SyncStep::fence_sc_gpu, 1),
                    b = measure_sync_every_sm(SyncStep::fence_sc_gpu, 1);
  ASSERT_EQ(a.latency_cycles.size(), std::size_t(gpu.sm_count));
  ASSERT_EQ(b.latency_cycles.size(), std::size_t(gpu.sm_count));
  int moved = 0;
  for (int sm = 0; sm < gpu.sm_count; ++sm) moved += std::abs(a.latency_cycles[sm] - b.latency_cycles[sm]) > 1.0;
  const auto [lo, hi] = std::minmax_element(a.latency_cycles.begin(), a.latency_cycles.end());
  std::printf("fence.sc.gpu, one warp: mean over SMs %.2f / %.2f cycles, SMs %.2f-%.2f, %d SMs moved > 1 cycle\n",
              a.mean_cycles, b.mean_cycles, *lo, *hi, moved);
  EXPECT_LE(moved, gpu.sm_count / 20) << "an SM's own cost should repeat";
  EXPECT_NEAR(a.mean_cycles, b.mean_cycles, 1.0);
  EXPECT_GE(*lo, step_cycles(SyncStep::fence_sc_cta, 2)) << "a GPU-scope fence cheaper than a CTA-scope one";
}

// A cluster barrier runs for clusters of 2 and 8 blocks, a grid sync for 2 blocks and one block
// per SM (each self-checked), and neither gets cheaper with more blocks to wait for.
TEST(Sync, ClusterBarrierAndGridSyncGrowWithWhatTheyWaitFor) {
  const GpuInfo& gpu = Gpu::current().info();
  auto cycles = [&](SyncStep s, int blocks) {
    const SyncMeasurement m = measure_sync(s, 4, calibrate_sync_iterations(s, 4, blocks), blocks);
    std::printf("%-16s %3d blocks of 4 warps: %8.1f cycles per step\n", sync_step_info(s).name, blocks,
                m.slope.latency_cycles);
    return m.slope.latency_cycles;
  };
  if (!sync_step_unsupported(sync_step_info(SyncStep::cluster_barrier), gpu)) {
    const double two = cycles(SyncStep::cluster_barrier, 2), eight = cycles(SyncStep::cluster_barrier, 8);
    EXPECT_GT(two, 1.0);
    EXPECT_GE(eight, 0.95 * two);
  }
  const double pair = cycles(SyncStep::grid_sync, 2), all = cycles(SyncStep::grid_sync, gpu.sm_count);
  EXPECT_GT(pair, 1.0);
  EXPECT_GE(all, 0.95 * pair);
}

// Steps that may depend on the context are measured again in fresh contexts (benchmarks/sync.cpp).
// While a FreshContext::Current lives, runtime calls use it: the current context is another one, and a
// pinned fence step and a grid sync run and check themselves there. Afterwards the primary context
// is current again, and what was allocated in it before is intact.
TEST(Sync, AFreshContextRunsStepsAndGivesThePrimaryBack) {
  auto current = [] {
    CUcontext c = nullptr;
    driver_check(driver_function<CUresult (*)(CUcontext*)>("cuCtxGetCurrent")(&c), "cuCtxGetCurrent");
    return c;
  };
  DeviceBuffer<std::uint32_t> kept(std::vector<std::uint32_t>(64, 0x5a5a5a5au));
  const CUcontext primary = current();
  {
    const FreshContext fresh;
    EXPECT_EQ(current(), primary);  // created, not yet current
    const FreshContext::Current made_current(fresh);
    EXPECT_NE(current(), primary);
    const SyncSmSweep sweep = measure_sync_every_sm(SyncStep::fence_sc_gpu, 1);
    const SyncMeasurement grid =
        measure_sync(SyncStep::grid_sync, 4, calibrate_sync_iterations(SyncStep::grid_sync, 4, 2), 2);
    std::printf("in a fresh context: fence.sc.gpu mean over SMs %.2f cycles, grid sync over 2 blocks %.2f\n",
                sweep.mean_cycles, grid.slope.latency_cycles);
    EXPECT_GE(sweep.mean_cycles, step_cycles(SyncStep::fence_sc_cta, 1));
    EXPECT_GT(grid.slope.latency_cycles, 1.0);
  }
  EXPECT_EQ(current(), primary);
  for (std::uint32_t v : kept.download()) ASSERT_EQ(v, 0x5a5a5a5au);
}

}  // namespace
}  // namespace archbench
