// Bandwidth on a real GPU: L1 > L2 > DRAM for reads at footprints that fit each level, DRAM read
// reaches 85 % of the theoretical peak, shared memory is not slower than L1, and a launch on
// chosen SMs runs there and nowhere else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "fixtures/bandwidth_runner.hpp"
#include "fixtures/device_buffer.hpp"
#include "kernels/bandwidth.hpp"

namespace archbench {
namespace {

BwMeasurement measure(BwLoad op, std::size_t footprint) {
  static BandwidthRunner runner;
  const BwVariant v{BwKind::read, op, BwStore::none};
  const BwShape shape = runner.default_shape();
  const BwMeasurement m = runner.measure(v, 16, footprint, shape, runner.calibrate(v, 16, footprint, shape));
  std::printf("%-6s %10zu B: %8.1f GB/s, %6.1f B/clk/SM (%s, %.1f %% of peak)\n", bw_load_name(op), footprint,
              m.bytes_per_second / 1e9, m.bytes_per_clk_per_sm, mem_level_name(m.level), m.pct_of_peak);
  return m;
}

TEST(Bandwidth, LevelsAreOrderedL1AboveL2AboveDram) {
  const GpuInfo& g = Gpu::current().info();
  const BwMeasurement l1 = measure(BwLoad::ca, g.smem_per_sm_bytes / 2 * g.sm_count / 4096 * 4096);
  const BwMeasurement l2 = measure(BwLoad::cg, g.l2_bytes * 7 / 16 / 4096 * 4096);
  const BwMeasurement dram = measure(BwLoad::def, 8 * g.l2_bytes);
  EXPECT_GT(l1.bytes_per_second, 1.2 * l2.bytes_per_second);
  EXPECT_GT(l2.bytes_per_second, 1.2 * dram.bytes_per_second);
}

TEST(Bandwidth, APinnedLaunchRunsOnItsChosenSmsOnly) {
  const GpuInfo& g = Gpu::current().info();
  const int chosen = std::max(1, g.sm_count / 16);
  DeviceBuffer<std::uint8_t> src(std::size_t(8) << 20);
  BwLaunch l;
  l.variant = {BwKind::read, BwLoad::cg, BwStore::none};
  l.width = 16;
  l.src = src.get();
  l.footprint_bytes = src.bytes();
  l.passes = 2;
  l.blocks = chosen;
  l.threads_per_block = 1024;
  l.spread_sms = chosen;
  const std::vector<WarpTiming> warps = run_bandwidth(l);
  ASSERT_EQ(warps.size(), std::size_t(chosen) * 32);
  std::vector<int> warps_on(std::size_t(chosen), 0);
  for (const WarpTiming& w : warps) {
    const int r = spread_rank(w.smid, std::uint32_t(chosen), std::uint32_t(g.sm_count));
    ASSERT_GE(r, 0) << "a warp ran on SM " << w.smid << ", which was not chosen";
    ++warps_on[std::size_t(r)];
    EXPECT_GT(w.end_cycles, w.start_cycles);
  }
  for (int r = 0; r < chosen; ++r) EXPECT_EQ(warps_on[std::size_t(r)], 32) << "chosen SM of rank " << r;
  // A variant without a pinned kernel says so.
  l.variant = {BwKind::copy, BwLoad::def, BwStore::def};
  l.dst = src.get();
  EXPECT_THROW(run_bandwidth(l), std::invalid_argument);
}

TEST(Bandwidth, DramReadReachesEightyFivePercentOfTheoretical) {
  const GpuInfo& g = Gpu::current().info();
  const BwMeasurement dram = measure(BwLoad::def, 8 * g.l2_bytes);
  ASSERT_TRUE(dram.peak_bytes_per_second.has_value());
  EXPECT_GE(dram.pct_of_peak, 85.0);
  EXPECT_LE(dram.pct_of_peak, 100.5) << "above the theoretical peak: the footprint was not read from DRAM";
}

TEST(Bandwidth, FootprintAboveFreeMemoryIsRefusedWithAReason) {
  static BandwidthRunner runner;
  const GpuInfo& g = Gpu::current().info();
  const BwVariant v{BwKind::read, BwLoad::def, BwStore::none};
  const std::size_t too_big = (g.total_mem_bytes + (1u << 30)) / 4096 * 4096;
  try {
    runner.calibrate(v, 16, too_big, runner.default_shape());
    ADD_FAILURE() << "a footprint above the device memory was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit"), std::string::npos) << e.what();
  }
  // The runner is still usable afterwards.
  EXPECT_NO_THROW(runner.calibrate(v, 16, 64u << 20, runner.default_shape()));
}

TEST(Bandwidth, SharedMemoryIsAtLeastHalfTheL1Peak) {
  static BandwidthRunner runner;
  const BwShape shape{1, 32, Gpu::current().info().sm_count};
  const BwMeasurement m = runner.measure_smem(16, 32u << 10, shape, runner.calibrate_smem(16, 32u << 10, shape));
  std::printf("shared memory, 16 B: %.1f B/clk/SM (%.1f %% of peak)\n", m.bytes_per_clk_per_sm, m.pct_of_peak);
  EXPECT_GT(m.pct_of_peak, 50.0);
  EXPECT_LE(m.pct_of_peak, 100.5);
}

}  // namespace
}  // namespace archbench
