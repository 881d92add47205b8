// Sync on a real GPU: every warp collective's chain checks itself (every warp's result against
// the host's replay), its latency is a few tens of cycles with the loop overhead removed, and the
// shuffles' throughput approaches the Programming Guide's 32 results per clock per SM.
#include <gtest/gtest.h>

#include <cstdio>

#include "fixtures/gpu.hpp"
#include "fixtures/pipeline_runner.hpp"

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

TEST(Sync, ShufflesReachEightyPercentOfTheGuidesRate) {
  const GpuInfo& gpu = Gpu::current().info();
  for (PipeOp op : {PipeOp::shfl_idx, PipeOp::shfl_bfly, PipeOp::shfl_up, PipeOp::shfl_down}) {
    const PipeOpInfo& info = pipe_op_info(op);
    if (pipe_op_unsupported(info, gpu) || !peak_results_per_clk_per_sm(info.peak_class, gpu.cc())) continue;
    const PipelineShape shape{8, 32, 1};
    const ThroughputMeasurement m = measure_throughput(op, shape, calibrate_throughput_iterations(op, shape));
    std::printf("%-10s ilp 8, 32 warps, one SM: %.2f results/clk/SM = %.1f %% of %.0f\n", info.name,
                m.results_per_clk_per_sm, m.pct_of_peak, *m.peak_results_per_clk_per_sm);
    EXPECT_GE(m.pct_of_peak, 80.0) << info.name;
    EXPECT_LE(m.pct_of_peak, 101.0) << info.name << ": above the peak means the work was folded";
  }
}

TEST(Sync, EveryWarpCollectiveChecksItselfOnEverySm) {
  const GpuInfo& gpu = Gpu::current().info();
  for (const PipeOpInfo& op : pipe_ops()) {
    if (!is_warp_collective(op) || pipe_op_unsupported(op, gpu)) continue;
    EXPECT_NO_THROW(measure_throughput(op.op, PipelineShape{4, 32, gpu.sm_count}, 4)) << op.name;
  }
}

}  // namespace
}  // namespace archbench
