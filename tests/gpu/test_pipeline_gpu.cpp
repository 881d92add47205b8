// Pipeline on a real GPU: dependent-chain latencies are whole cycles (and the known ones on
// architectures the test knows), and FP32/FP64 reach 90 % of the clock-scaled peak.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/pipeline_runner.hpp"

namespace archbench {
namespace {

double latency(PipeOp op) {
  const LatencyMeasurement m = measure_latency(op, calibrate_latency_iterations(op));
  std::printf("%-12s latency %.3f cycles (raw %.3f, loop overhead %.2f per iteration)\n", pipe_op_info(op).name,
              m.slope.latency_cycles, m.slope.raw_cycles, m.slope.loop_overhead_cycles);
  return m.slope.latency_cycles;
}

// Published latencies (DESIGN.md), per compute capability: reference values for tests only.
// HFMA2 is the packed chain kept on the FMA pipe (.oob); the scalar f16 chain is HFMA2 too.
const std::map<int, std::map<PipeOp, double>> kKnownLatency = {
    {90, {{PipeOp::ffma, 4}, {PipeOp::dfma, 8}, {PipeOp::hfma2_oob, 4}, {PipeOp::hfma, 4}, {PipeOp::imad, 4}}},
};

TEST(Pipeline, FmaAndImadLatenciesAreWholeCycles) {
  const GpuInfo& gpu = Gpu::current().info();
  for (PipeOp op : {PipeOp::ffma, PipeOp::dfma, PipeOp::hfma, PipeOp::hfma2, PipeOp::hfma2_oob, PipeOp::imad}) {
    if (pipe_op_unsupported(pipe_op_info(op), gpu)) continue;
    const double l = latency(op);
    EXPECT_NEAR(l, std::round(l), 0.2) << pipe_op_info(op).name;
    if (auto known = kKnownLatency.find(gpu.cc()); known != kKnownLatency.end() && known->second.count(op)) {
      EXPECT_NEAR(l, known->second.at(op), 0.2) << pipe_op_info(op).name << " on sm_" << gpu.cc();
    }
  }
}

TEST(Pipeline, Fp32AndFp64ReachNinetyPercentOfPeak) {
  const GpuInfo& gpu = Gpu::current().info();
  for (PipeOp op : {PipeOp::ffma, PipeOp::dfma}) {
    if (!peak_results_per_clk_per_sm(pipe_op_info(op).peak_class, gpu.cc())) {
      std::printf("%s: no peak known for sm_%d, not asserted\n", pipe_op_info(op).name, gpu.cc());
      continue;
    }
    double best = 0;
    for (int ilp : {4, 8}) {
      const PipelineShape shape{ilp, 32, gpu.sm_count};
      const ThroughputMeasurement m = measure_throughput(op, shape, calibrate_throughput_iterations(op, shape));
      std::printf("%-5s ilp %d, 32 warps/SM, %d SMs: %.1f results/clk/SM = %.1f %% of peak at %.0f MHz\n",
                  pipe_op_info(op).name, ilp, m.summary.sms_used, m.results_per_clk_per_sm, m.pct_of_peak,
                  m.summary.sm_clock_mhz);
      best = std::max(best, m.pct_of_peak);
    }
    EXPECT_GE(best, 90.0) << pipe_op_info(op).name;
    RecordProperty(std::string(pipe_op_info(op).name) + "_pct_of_peak", std::to_string(best));
    EXPECT_LE(best, 101.0) << pipe_op_info(op).name << ": above the peak means the work was folded";
  }
}

TEST(Pipeline, EveryOpChecksItselfOnOneSm) {
  for (const PipeOpInfo& op : pipe_ops()) {
    if (pipe_op_unsupported(op, Gpu::current().info())) continue;
    const PipelineShape shape{is_dpx_table(op.op) ? kDpxTableIlp : 2, 4, 1};
    EXPECT_NO_THROW(measure_throughput(op.op, shape, 4)) << op.name;  // SelfCheckError on a wrong result
  }
}

}  // namespace
}  // namespace archbench
