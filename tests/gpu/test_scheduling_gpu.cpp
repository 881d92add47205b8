// Scheduling on a real GPU: the sustained-load clock trace is sampled through the run and is a
// real clock (above 30 % and at most 5 % above the maximum the driver reports); pairs of warps
// show the issue schedulers; a 3-wave timeline records every warp within the occupancy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "analysis/clock_trace.hpp"
#include "analysis/scheduler_map.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/sustained_run.hpp"
#include "analysis/icache.hpp"
#include "kernels/icache.hpp"
#include "kernels/scheduling.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

TEST(Scheduling, ThreeSecondsOfFfmaKeepAPlausibleClock) {
  const GpuInfo& g = Gpu::current().info();
  const SustainedRun run = sustained_ffma_with_nvml(3.0, 100.0, g.sm_count * 2, 1024);
  ASSERT_GE(run.samples.size(), 20u);
  std::vector<ClockPoint> points;
  for (const auto& s : run.samples) points.push_back({s.ns, s.cycles});
  const ClockTrace t = summarize_clock(points);
  std::printf("initial %.0f MHz, sustained %.0f MHz, min %.0f MHz, %.1f TFLOP/s, %zu NVML samples\n", t.initial_mhz,
              t.sustained_mhz, t.min_mhz, run.flop / run.kernel_seconds / 1e12, run.nvml.size());
  EXPECT_GT(t.sustained_mhz, 0.3 * g.max_sm_clock_mhz);
  EXPECT_LE(t.max_mhz, 1.05 * g.max_sm_clock_mhz);
  EXPECT_NEAR(t.seconds, 3.0, 0.3);
  EXPECT_GT(run.flop, 0);
}

TEST(Scheduling, PairsOfWarpsRevealFourSchedulersByWarpModFour) {
  std::vector<PairSlowdown> pairs;
  std::vector<double> alone(8);
  for (int w = 0; w < 8; ++w) alone[w] = run_ffma_pair(8, w, w, 8).cycles_a;
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b) {
      const WarpPairTiming t = run_ffma_pair(8, a, b, 8);
      pairs.push_back({a, b, std::max(t.cycles_a / alone[a], t.cycles_b / alone[b])});
    }
  const SchedulerMap m = infer_scheduler_map(pairs, 8);
  std::printf("%d scheduler groups, modulus %d, sharing %.2fx, separate %.2fx, confidence %.2f\n", m.groups, m.modulus,
              m.sharing_slowdown, m.separate_slowdown, m.confidence);
  if (Gpu::current().info().cc() >= 70) {  // four sub-partitions per SM since Volta (reference value)
    EXPECT_EQ(m.groups, 4);
    EXPECT_EQ(m.modulus, 4);
  }
  EXPECT_GT(m.sharing_slowdown, 1.5);
  EXPECT_LT(m.separate_slowdown, 1.2);
}

TEST(Scheduling, ATimelineOfThreeWavesRecordsEveryWarpAtTheOccupancy) {
  const GpuInfo& g = Gpu::current().info();
  const int resident = ffma_timeline_resident_blocks(256);
  ASSERT_GT(resident, 0);
  const int blocks = 3 * resident * g.sm_count;
  const auto warps = run_ffma_timeline(blocks, 256, 16);
  ASSERT_EQ(warps.size(), std::size_t(blocks) * 8);
  for (const WarpRecord& w : warps)
    ASSERT_GT(w.end_ns, w.start_ns) << "block " << w.block << " warp " << w.warp_in_block;
  const TimelineSummary t = summarize_timeline(warps);
  std::printf("%d blocks: makespan %.0f us, %d co-resident per SM (occupancy %d), %.2f waves, SM start skew %.0f ns\n",
              blocks, t.makespan_ns / 1e3, t.max_coresident_blocks_per_sm, resident, t.waves, t.sm_start_skew_ns);
  EXPECT_EQ(t.sms_used, g.sm_count);
  EXPECT_LE(t.max_coresident_blocks_per_sm, resident);
  EXPECT_GE(t.max_coresident_blocks_per_sm, 1);
}

// One warp over bodies from 2 KiB to 512 KiB: about one instruction per cycle while the body fits
// the first instruction cache, and at least one knee beyond which every pass costs more.
TEST(Scheduling, StraightLineCodeShowsAnInstructionCacheKnee) {
  std::vector<IcacheSample> samples;
  for (int n : kIcacheInstructions) {
    const auto iterations = std::uint32_t(std::max(4, 1 + 400000 / n));
    const auto w = run_icache(n, 1, iterations, test_sm());
    ASSERT_EQ(w.size(), 1u);
    samples.push_back({double(n), double(w[0].end_cycles - w[0].start_cycles) / (double(iterations - 1) * n)});
  }
  const IcacheLevels r = infer_icache_levels(samples, kSassInstructionBytes);
  std::printf("loop overhead %.1f cycles, %zu levels", r.loop_overhead_cycles, r.levels.size());
  for (const auto& l : r.levels)
    std::printf(", %.0f KiB (%.2f -> %.2f cycles/instruction, confidence %.2f)", l.reach / 1024, l.hit_cycles,
                l.hit_cycles + l.miss_penalty_cycles, l.confidence);
  std::printf("\n");
  EXPECT_NEAR(r.net.front().y, 1.0, 0.1);  // one warp issues about one FFMA per cycle from the L0
  ASSERT_GE(r.levels.size(), 1u);
  EXPECT_GT(r.net.back().y, 1.5 * r.net.front().y);
}

}  // namespace
}  // namespace archbench
