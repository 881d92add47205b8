// Which level a bandwidth footprint targets, and the L1 peak table.
#include <gtest/gtest.h>

#include "analysis/memory_levels.hpp"

using namespace archbench;

TEST(MemoryLevels, FootprintLevelBySharePerSmAndL2) {
  // A GPU of 100 SMs, 200 KiB of shared memory per SM, 40 MiB of L2 (synthetic numbers).
  const std::size_t smem = 200 << 10, l2 = 40u << 20;
  EXPECT_EQ(footprint_level(100 * (100 << 10), 100, smem, l2), MemLevel::l1);  // 100 KiB per SM
  EXPECT_EQ(footprint_level(100 * smem, 100, smem, l2), MemLevel::l1);          // the bound itself
  EXPECT_EQ(footprint_level(100 * smem + 4096, 100, smem, l2), MemLevel::l2);   // just past it, within L2
  EXPECT_EQ(footprint_level(l2, 100, smem, l2), MemLevel::l2);
  EXPECT_EQ(footprint_level(l2 + l2 / 2, 100, smem, l2), MemLevel::between);
  EXPECT_EQ(footprint_level(2 * l2, 100, smem, l2), MemLevel::dram);
  // The same footprint on one SM no longer fits that SM's L1.
  EXPECT_EQ(footprint_level(100 * (100 << 10), 1, smem, l2), MemLevel::l2);
  EXPECT_STREQ(mem_level_name(MemLevel::between), "L2-DRAM");
}

TEST(MemoryLevels, L1PeakKnownFromVoltaOn) {
  EXPECT_EQ(l1_bytes_per_clk_per_sm(90), 128.0);
  EXPECT_EQ(l1_bytes_per_clk_per_sm(70), 128.0);
  EXPECT_FALSE(l1_bytes_per_clk_per_sm(61).has_value());
  EXPECT_FALSE(l1_bytes_per_clk_per_sm(100).has_value());
}
