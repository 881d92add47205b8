// Instruction-cache levels: the loop overhead comes off, the knees of synthetic curves (clean
// and noisy) are found at their capacities, and an H100's measured curve gives its two levels.
#include <gtest/gtest.h>

#include <random>

#include "analysis/icache.hpp"

namespace archbench {
namespace {

constexpr double kBytes = 16;  // per SASS instruction

// Bodies of 2 per octave from 128 instructions; cycles per pass = S x c(S) + 28.
std::vector<IcacheSample> synthetic(double l0_bytes, double l1_bytes, double noise_sd, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, noise_sd);
  std::vector<IcacheSample> s;
  for (double octave = 128; octave <= 32768; octave *= 2)
    for (double n : {octave, 1.5 * octave}) {
      if (n > 32768) break;
      const double bytes = n * kBytes;
      const double c = bytes <= l0_bytes ? 1.0 : bytes <= l1_bytes ? 2.0 : 5.5;
      s.push_back({n, (n * c + 28) / n * (1 + noise(rng))});
    }
  return s;
}

TEST(Icache, LoopOverheadComesOffAndTwoKneesAppear) {
  const IcacheLevels r = infer_icache_levels(synthetic(32 * 1024, 128 * 1024, 0.0, 1), kBytes);
  EXPECT_NEAR(r.loop_overhead_cycles, 28, 1e-6);
  EXPECT_NEAR(r.net.front().y, 1.0, 1e-9);
  ASSERT_EQ(r.levels.size(), 2u);
  EXPECT_EQ(r.levels[0].reach, 32 * 1024);
  EXPECT_EQ(r.levels[0].next_footprint, 48 * 1024);
  EXPECT_NEAR(r.levels[0].hit_cycles, 1.0, 1e-9);
  EXPECT_EQ(r.levels[1].reach, 128 * 1024);
  EXPECT_NEAR(r.levels[1].hit_cycles + r.levels[1].miss_penalty_cycles, 5.5, 1e-9);
  for (const auto& l : r.levels) EXPECT_GT(l.confidence, 0.9);
}

TEST(Icache, NoisyCurvesKeepTheirKnees) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const IcacheLevels r = infer_icache_levels(synthetic(16 * 1024, 96 * 1024, 0.005, seed), kBytes);
    ASSERT_EQ(r.levels.size(), 2u) << "seed " << seed;
    EXPECT_EQ(r.levels[0].reach, 16 * 1024) << "seed " << seed;
    EXPECT_EQ(r.levels[1].reach, 96 * 1024) << "seed " << seed;
  }
}

TEST(Icache, AFlatCurveHasNoLevel) {
  const IcacheLevels r = infer_icache_levels(synthetic(1e12, 1e12, 0.003, 3), kBytes);
  EXPECT_TRUE(r.levels.empty());
}

TEST(Icache, AnH100CurveShowsL0AndL1) {
  // Scheduling/icache/ffma/instructions:S/warps_per_sm:1 on an H100 SXM (commit 92d5cbb22412).
  const std::vector<IcacheSample> h100 = {
      {128, 1.2189},  {192, 1.1459},   {256, 1.1096},   {384, 1.0991},  {512, 1.0744},  {768, 1.0496},
      {1024, 1.0373}, {1536, 1.0249},  {2048, 1.1299},  {3072, 2.0245}, {4096, 2.0203}, {6144, 2.0123},
      {8192, 2.3887}, {12288, 5.5633}, {16384, 5.5612}, {24576, 5.554}, {32768, 5.539}};
  const IcacheLevels r = infer_icache_levels(h100, kBytes);
  ASSERT_EQ(r.levels.size(), 2u);
  EXPECT_EQ(r.levels[0].reach, 32 * 1024);
  EXPECT_EQ(r.levels[1].reach, 128 * 1024);
  EXPECT_NEAR(r.loop_overhead_cycles, 28, 1);
  for (const auto& l : r.levels) EXPECT_GT(l.confidence, 0.5);
}

TEST(Icache, BadInputIsRefused) {
  EXPECT_THROW(infer_icache_levels({{128, 1}, {192, 1}}, kBytes), std::invalid_argument);
  EXPECT_THROW(infer_icache_levels({{128, 1}, {128, 1}, {256, 1}}, kBytes), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
