// Which level a bandwidth footprint targets, and the L1 peak table.
#include <gtest/gtest.h>

#include "analysis/memory_levels.hpp"

using namespace archbench;

TEST(MemoryLevels, FootprintLevelBySharePerSmAndL2) {
  // A GPU of 100 SMs, 200 KiB of shared memory per SM, 80 MiB of L2 (synthetic numbers).
  const std::size_t smem = 200 << 10, l2 = 80u << 20;
  const auto level = [&](std::size_t f, bool via_l1, int sms = 100) {
    return footprint_level(f, sms, via_l1, false, smem, l2);
  };
  EXPECT_EQ(level(100 * (100 << 10), true), MemLevel::l1);  // 100 KiB per SM
  EXPECT_EQ(level(100 * smem, true), MemLevel::l1);         // the bound itself
  EXPECT_EQ(level(100 * smem + 4096, true), MemLevel::l1_l2);
  EXPECT_EQ(level(100 * 2 * smem + 4096, true), MemLevel::l2);  // twice the bound per SM
  EXPECT_EQ(level(100 * (100 << 10), false), MemLevel::l2);     // not via L1: L2 from the start
  EXPECT_EQ(level(l2, false), MemLevel::l2);
  EXPECT_EQ(level(l2 + 4096, false), MemLevel::l2_dram);
  EXPECT_EQ(level(4 * l2 - 4096, true), MemLevel::l2_dram);
  EXPECT_EQ(level(4 * l2, true), MemLevel::dram);
  // Evict-first loads keep part of any footprint in L2.
  EXPECT_EQ(footprint_level(16 * l2, 100, true, true, smem, l2), MemLevel::l2_dram);
  EXPECT_EQ(footprint_level(100 * (300 << 10), 100, true, true, smem, l2), MemLevel::l1_l2);
  // The same footprint on one SM no longer fits that SM's L1.
  EXPECT_EQ(level(100 * (100 << 10), true, 1), MemLevel::l2);
  EXPECT_STREQ(mem_level_name(MemLevel::l2_dram), "L2-DRAM");
  EXPECT_DOUBLE_EQ(mem_level_value(MemLevel::l1_l2), 1.5);
  EXPECT_LT(mem_level_value(MemLevel::l2), mem_level_value(MemLevel::dram));
}

TEST(MemoryLevels, L1PeakKnownFromVoltaOn) {
  EXPECT_EQ(l1_bytes_per_clk_per_sm(90), 128.0);
  EXPECT_EQ(l1_bytes_per_clk_per_sm(70), 128.0);
  EXPECT_FALSE(l1_bytes_per_clk_per_sm(61).has_value());
  EXPECT_FALSE(l1_bytes_per_clk_per_sm(100).has_value());
}
