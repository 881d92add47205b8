// Bandwidth on a real GPU: L1 > L2 > DRAM for reads at footprints that fit each level, DRAM read
// reaches 85 % of the theoretical peak, shared memory is not slower than L1.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "fixtures/bandwidth_runner.hpp"

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
  EXPECT_EQ(l1.level, MemLevel::l1);
  EXPECT_EQ(l2.level, MemLevel::l2);
  EXPECT_EQ(dram.level, MemLevel::dram);
  EXPECT_GT(l1.bytes_per_second, 1.2 * l2.bytes_per_second);
  EXPECT_GT(l2.bytes_per_second, 1.2 * dram.bytes_per_second);
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
