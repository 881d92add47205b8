// The L2 partition assignment (analysis/l2_sides.hpp) on synthetic atomic latencies.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "analysis/l2_sides.hpp"
#include "analysis/throughput.hpp"

namespace archbench {
namespace {

// Lines homed on partition (line / 64) % 2 (runs of 64 lines, as an H100's hash mostly gives);
// SM s sits on partition s % 2 (s < sms); near 400 cycles, far 600, Gaussian noise.
struct Synthetic {
  std::vector<double> map;
  std::vector<std::vector<double>> samples;
};
Synthetic synthetic(std::size_t lines, int sms, std::size_t step, double noise, int reference_sm = 0) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0, noise);
  auto cycles = [&](std::size_t line, int sm) { return ((line / 64) % 2 == std::size_t(sm % 2) ? 400 : 600) + n(rng); };
  Synthetic s;
  for (std::size_t l = 0; l < lines; ++l) s.map.push_back(cycles(l, reference_sm));
  s.samples.resize(std::size_t(2 * sms));
  for (int sm = 0; sm < sms; ++sm)
    for (std::size_t i = 0; i * step < lines; ++i) s.samples[std::size_t(sm)].push_back(cycles(i * step, sm));
  // A few slow outliers per SM (a probe preempted or queued behind another SM's atomics): the
  // widest gap between sorted latencies lies above them, so a gap split would see one group.
  // And as on an H100 with every SM probing: 18 % of an SM's samples queued, 1,000-25,000 cycles.
  for (auto& c : s.samples)
    for (std::size_t i = 5; i < c.size(); i += 97) c[i] += 3000;
  for (auto& c : s.samples)
    for (std::size_t i = 2; i < c.size(); i += 6) c[i] += 1000 + 20 * double(i % 1000);
  for (std::size_t i = 11; i < s.map.size(); i += 997) s.map[i] += 3000;
  return s;
}

TEST(L2Sides, AssignsEveryLineAndEverySmToItsPartition) {
  const Synthetic s = synthetic(64 * 1024, 132, 127, 20, 1);  // an odd step: samples on both partitions
  const L2SidesResult r = assign_l2_sides(s.map, s.samples, 127);
  ASSERT_TRUE(r.sides) << r.why_not;
  const L2Sides& sides = *r.sides;
  // Side 0 is the reference SM's (SM 1: odd lines-runs are near to it).
  // Every line but the planted outliers (a slow line reads as far, whatever its home).
  for (std::size_t l = 0; l < s.map.size(); ++l)
    if (l < 11 || (l - 11) % 997 != 0) {
      ASSERT_EQ(sides.line_side[l], (l / 64) % 2 == 1 ? 0 : 1) << l;
    }
  for (int sm = 0; sm < 132; ++sm) EXPECT_EQ(sides.sm_side[std::size_t(sm)], sm % 2 == 1 ? 0 : 1) << sm;
  for (std::size_t sm = 132; sm < s.samples.size(); ++sm) EXPECT_EQ(sides.sm_side[sm], -1);
  EXPECT_NEAR(sides.near_fraction, 0.5, 0.002);  // the outliers read as far
  EXPECT_GT(sides.separation, 4.0);
  EXPECT_GE(sides.min_sm_agreement, 0.97);  // all but the outliers
}

TEST(L2Sides, OneLatencyGroupOrAnUndecidedSmIsRefusedWithAReason) {
  Synthetic s = synthetic(8192, 8, 63, 20);
  for (double& c : s.map) c = 500;  // one partition
  EXPECT_FALSE(assign_l2_sides(s.map, s.samples, 63).sides);
  s = synthetic(8192, 8, 63, 20);
  for (std::size_t i = 0; i < s.samples[3].size(); ++i)
    s.samples[3][i] = (i / 3) % 2 ? 400 : 600;  // agrees with neither
  const L2SidesResult r = assign_l2_sides(s.map, s.samples, 63);
  EXPECT_FALSE(r.sides);
  EXPECT_NE(r.why_not.find("SM 3"), std::string::npos) << r.why_not;
}

TEST(L2Sides, NearAndFarListsGiveEachLineToOneSmOfTheRightSide) {
  const Synthetic s = synthetic(16 * 1024, 10, 63, 10);
  const L2Sides sides = *assign_l2_sides(s.map, s.samples, 63).sides;
  for (bool far : {false, true}) {
    const LineLists lists = partition_line_lists(sides, far, 4);
    std::vector<int> seen(s.map.size(), 0);
    for (std::size_t sm = 0; sm + 1 < lists.offsets.size(); ++sm) {
      EXPECT_EQ((lists.offsets[sm + 1] - lists.offsets[sm]) % 4, 0u);
      for (std::uint32_t i = lists.offsets[sm]; i < lists.offsets[sm + 1]; ++i) {
        const std::uint32_t line = lists.lines[i];
        ++seen[line];
        const bool homed_near = sides.line_side[line] == sides.sm_side[sm];
        EXPECT_EQ(homed_near, !far) << "line " << line << " SM " << sm;
      }
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n <= 1; }));
    EXPECT_GE(lists.lines.size(), s.map.size() - 10 * 4);  // at most 3 lines cut per SM
    EXPECT_LE(lists.max_per_sm - lists.min_per_sm, 8u);
  }
}

TEST(L2Sides, WeightedListsGiveEachSmARunInProportionToItsWeight) {
  // SMs 0 and 2 weigh 1 and 3, SM 1 is not used: 1000 lines in runs of whole groups of 4.
  const LineLists lists = weighted_line_lists({1.0, 0.0, 3.0}, 1000, 4);
  ASSERT_EQ(lists.offsets.size(), 4u);
  EXPECT_EQ(lists.offsets[1] - lists.offsets[0], 248u);  // 250 cut to a multiple of 4
  EXPECT_EQ(lists.offsets[2], lists.offsets[1]);          // SM 1: nothing
  EXPECT_EQ(lists.offsets[3] - lists.offsets[2], 752u);   // the rest up to line 1000
  for (std::size_t i = 0; i < lists.lines.size(); ++i) EXPECT_EQ(lists.lines[i], i);  // contiguous, each once
  EXPECT_EQ(lists.min_per_sm, 248u);
  EXPECT_EQ(lists.max_per_sm, 752u);
  EXPECT_THROW(weighted_line_lists({0.0, 0.0}, 100, 4), std::invalid_argument);
}

TEST(Throughput, WarpsThatClaimedDifferentWorkGetTheirOwnShare) {
  // Two SMs over 1000 cycles each: SM 0's two warps did 3000 units, SM 1's one warp 1000.
  std::vector<WarpTiming> w(3);
  for (auto& t : w) t.end_cycles = 1000, t.end_ns = 1000;
  w[2].smid = 1;
  const ThroughputSummary s = summarize_throughput(w, std::vector<double>{1000, 2000, 1000});
  EXPECT_DOUBLE_EQ(s.total_work, 4000);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_max, 3.0);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_min, 1.0);
  EXPECT_DOUBLE_EQ(s.per_sm_rate_median, 2.0);
  EXPECT_DOUBLE_EQ(s.work_per_second(), 4000 * 1e9 / 1000);
  EXPECT_THROW(summarize_throughput(w, std::vector<double>{1, 2}), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
