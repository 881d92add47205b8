// Rates from per-warp timings, on synthetic timings with known answers.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analysis/throughput.hpp"

using namespace archbench;

namespace {
// A warp on SM `sm` over cycles c0..c1 of its SM's clock and n0..n1 ns of the global timer.
WarpTiming warp(std::uint32_t sm, std::uint64_t c0, std::uint64_t c1, std::uint64_t n0, std::uint64_t n1) {
  return WarpTiming{c0, c1, n0, n1, /*check=*/0, sm};
}
}  // namespace

TEST(Throughput, PerSmWindowsIgnoreSkewBetweenSms) {
  // SM 0: two warps over cycles 100..1100; SM 1 starts 500 ns later on its own clock.
  // Each warp does 500 units: 1000 units / 1000 cycles = 1 per clock on each SM.
  const std::vector<WarpTiming> w = {warp(0, 100, 1100, 0, 500), warp(0, 100, 1100, 0, 500),
                                     warp(1, 9000, 10000, 500, 1000), warp(1, 9000, 10000, 500, 1000)};
  const ThroughputSummary s = summarize_throughput(w, 500);
  EXPECT_EQ(s.sms_used, 2);
  EXPECT_EQ(s.max_warps_per_sm, 2);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_mean, 1.0);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_min, 1.0);
  EXPECT_DOUBLE_EQ(s.total_work, 2000);
  EXPECT_DOUBLE_EQ(s.gpu_window_ns, 1000);  // first start .. last end across SMs
  EXPECT_DOUBLE_EQ(s.sm_clock_mhz, 2000);   // 1000 cycles in 500 ns
  EXPECT_DOUBLE_EQ(s.work_per_second(), 2000 * 1e9 / 1000);
}

TEST(Throughput, SlowSmShowsInMinimum) {
  const std::vector<WarpTiming> w = {warp(0, 0, 1000, 0, 500), warp(3, 0, 2000, 0, 1000)};
  const ThroughputSummary s = summarize_throughput(w, 1000);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_max, 1.0);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_min, 0.5);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_mean, 0.75);
}

TEST(Throughput, RateBySmIsEachSmsWorkOverItsOwnWindow) {
  const std::vector<WarpTiming> w = {warp(0, 0, 1000, 0, 500), warp(2, 100, 600, 0, 250), warp(2, 100, 1100, 0, 500)};
  const std::vector<double> rates = rate_by_sm(w, {1000, 500, 1500}, 4);
  ASSERT_EQ(rates.size(), 4u);
  EXPECT_DOUBLE_EQ(rates[0], 1.0);
  EXPECT_DOUBLE_EQ(rates[1], 0.0);  // no warp ran there
  EXPECT_DOUBLE_EQ(rates[2], 2.0);  // 2000 units over cycles 100..1100
  EXPECT_EQ(rate_by_sm(w, {1000, 500, 1500}, 2).size(), 2u);  // SM 2 left out
}

TEST(Throughput, RejectsEmptyAndBackwardTimings) {
  EXPECT_THROW(summarize_throughput({}, 1), std::invalid_argument);
  EXPECT_THROW(summarize_throughput({warp(0, 10, 5, 0, 1)}, 1), std::invalid_argument);
}

TEST(Throughput, SlopeLatencyCancelsLoopOverhead) {
  // latency 4 cycles per step, 7 cycles of loop overhead per iteration, 100 iterations.
  const double iters = 100;
  const double short_cycles = iters * (256 * 4 + 7), long_cycles = iters * (512 * 4 + 7);
  const SlopeLatency l = slope_latency(short_cycles, 256, long_cycles, 512, iters);
  EXPECT_DOUBLE_EQ(l.latency_cycles, 4.0);
  EXPECT_DOUBLE_EQ(l.loop_overhead_cycles, 7.0);
  EXPECT_NEAR(l.raw_cycles, 4.0 + 7.0 / 512, 1e-12);
  EXPECT_THROW(slope_latency(1, 512, 2, 256, 1), std::invalid_argument);
}
