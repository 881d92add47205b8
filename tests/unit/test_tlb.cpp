// TLB inference on synthetic latency curves: a two-level TLB with known reach and penalties,
// clean and noisy; the page size from the first level's reach per stride.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "analysis/tlb.hpp"

namespace archbench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0, kGiB = 1024.0 * kMiB;

// Footprints at 4 points per octave (as the suite sweeps them), from `from` to `to`.
std::vector<double> footprints(double from, double to) {
  std::vector<double> out;
  for (double f = from; f <= to * 1.0001; f *= std::pow(2.0, 0.25)) out.push_back(std::round(f / 4096) * 4096);
  return out;
}

struct SyntheticTlb {
  double page = 2 * kMiB;
  double entries[2] = {16, 4096};
  double hit = 300, penalty[2] = {120, 450};

  // Latency of a cyclic chase (LRU: all hits below the reach, all misses above).
  double latency(double footprint, double stride) const {
    const double pages = stride >= page ? footprint / stride : footprint / page;
    double y = hit;
    for (int l = 0; l < 2; ++l)
      if (pages > entries[l]) y += penalty[l];
    return y;
  }
  std::vector<CurvePoint> curve(double stride, double noise, std::uint64_t seed = 1) const {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, noise);
    std::vector<CurvePoint> c;
    for (double f : footprints(2 * stride, 64 * kGiB)) c.push_back({f, latency(f, stride) * (1.0 + jitter(rng))});
    return c;
  }
};

TEST(TlbInference, FindsBothLevelsOfACleanCurve) {
  const SyntheticTlb t;
  const auto levels = find_levels(t.curve(2 * kMiB, 0.0));
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].reach, 32 * kMiB);
  EXPECT_EQ(levels[1].reach, 8 * kGiB);
  EXPECT_DOUBLE_EQ(levels[0].hit_cycles, 300);
  EXPECT_DOUBLE_EQ(levels[0].miss_penalty_cycles, 120);
  EXPECT_DOUBLE_EQ(levels[1].miss_penalty_cycles, 450);
  EXPECT_GT(levels[0].confidence, 0.9);
  EXPECT_GT(levels[1].confidence, 0.9);
}

TEST(TlbInference, FindsBothLevelsOfANoisyCurve) {
  const SyntheticTlb t;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto levels = find_levels(t.curve(2 * kMiB, 0.01, seed));
    ASSERT_EQ(levels.size(), 2u) << "seed " << seed;
    EXPECT_EQ(levels[0].reach, 32 * kMiB) << "seed " << seed;
    EXPECT_EQ(levels[1].reach, 8 * kGiB) << "seed " << seed;
    EXPECT_NEAR(levels[0].miss_penalty_cycles, 120, 12) << "seed " << seed;
    EXPECT_NEAR(levels[1].miss_penalty_cycles, 450, 20) << "seed " << seed;
  }
}

TEST(TlbInference, APointAtTheCapacityLiftedByAFewMissesStaysWithinTheReach) {
  const SyntheticTlb t;
  auto c = t.curve(2 * kMiB, 0.0);
  for (auto& p : c)
    if (p.x == 8 * kGiB) p.y *= 1.08;  // off the plateau's tolerance, but nearer it than the next
  const auto levels = find_levels(c);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[1].reach, 8 * kGiB);
}

TEST(TlbInference, AFlatCurveHasNoLevel) {
  std::vector<CurvePoint> flat;
  for (double f : footprints(kMiB, kGiB)) flat.push_back({f, 250.0});
  EXPECT_TRUE(find_levels(flat).empty());
  EXPECT_THROW(find_plateaus({{2, 1}, {1, 1}}), std::invalid_argument);
}

TEST(TlbInference, ASinglePointSpikeIsNotALevel) {
  const SyntheticTlb t;
  auto c = t.curve(2 * kMiB, 0.0);
  c[5].y *= 1.5;  // one outlier on the first plateau
  const auto levels = find_levels(c);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].reach, 32 * kMiB);
}

TEST(TlbInference, PageSizeFromTheFirstReachPerStride) {
  const SyntheticTlb t;
  std::vector<std::pair<double, double>> reach;
  for (double s = 64 * 1024; s <= 32 * kMiB; s *= 2) {
    const auto levels = find_levels(t.curve(s, 0.005));
    ASSERT_FALSE(levels.empty()) << "stride " << s;
    reach.emplace_back(s, levels.front().reach);
  }
  const PageSizeInference p = infer_page_size(reach);
  EXPECT_EQ(p.page_bytes, 2 * kMiB);
  EXPECT_NEAR(p.first_level_entries, 16, 0.5);
  EXPECT_GT(p.confidence, 0.7);
}

TEST(TlbInference, PageSizeUnknownWhenTheReachNeverGrows) {
  std::vector<std::pair<double, double>> reach;
  for (double s = 64 * 1024; s <= 32 * kMiB; s *= 2) reach.emplace_back(s, 512 * kMiB);
  const PageSizeInference p = infer_page_size(reach);
  EXPECT_EQ(p.page_bytes, 0);
  EXPECT_EQ(p.confidence, 0);
}

TEST(TlbInference, TheMidpointCrossingDoesNotJumpAStepWithAHalfMissedPoint) {
  // Plateaus at 433 and 800 cycles; the point at the reach misses half its accesses, read just
  // above or just below the midpoint: the bracket jumps a whole step, the crossing does not.
  const auto curve = [](double at_reach) {
    std::vector<CurvePoint> c;
    for (int i = 0; i < 17; ++i) {
      const double f = std::pow(2.0, 31 + i / 4.0);
      c.push_back({f, f < 8.0 * (1ull << 30) - 1 ? 433.0 : f > 8.0 * (1ull << 30) + 1 ? 800.0 : at_reach});
    }
    return c;
  };
  const auto below = find_levels(curve(616.4)), above = find_levels(curve(616.8));
  ASSERT_EQ(below.size(), 1u);
  ASSERT_EQ(above.size(), 1u);
  EXPECT_NE(below[0].reach, above[0].reach);
  EXPECT_NEAR(below[0].crossing / above[0].crossing, 1.0, 0.002);
  EXPECT_NEAR(below[0].crossing / (8.0 * (1ull << 30)), 1.0, 0.002);
}

}  // namespace

TEST(TlbEntries, ConfidenceIsTheBestReadingOfTheSameCount) {
  using archbench::LevelReading;
  // 8192 entries: a coin toss at 1 MiB (a point on the midpoint), clear at 2 MiB; 4096 at 4 MiB
  // (set conflicts) is another count and does not count.
  const std::vector<LevelReading> r = {{1 << 20, 8192, 0.59}, {2 << 20, 8192, 0.97}, {4 << 20, 4096, 1.0}};
  EXPECT_DOUBLE_EQ(archbench::entries_confidence(8192, r), 0.97);
  EXPECT_DOUBLE_EQ(archbench::entries_confidence(4096, r), 1.0);
  EXPECT_DOUBLE_EQ(archbench::entries_confidence(2048, r), 0.0);
}

}  // namespace archbench
