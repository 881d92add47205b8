// Scheduler map on synthetic pair slowdowns: 32 warps on 4 schedulers (warp % 4), sharing pairs
// 2x slower, noisy.
#include <gtest/gtest.h>

#include <random>

#include "analysis/scheduler_map.hpp"

namespace archbench {
namespace {

std::vector<PairSlowdown> pairs(int warps, int schedulers, double noise) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> jitter(0.0, noise);
  std::vector<PairSlowdown> p;
  for (int a = 0; a < warps; ++a)
    for (int b = a + 1; b < warps; ++b)
      p.push_back({a, b, (a % schedulers == b % schedulers ? 2.0 : 1.0) + jitter(rng)});
  return p;
}

TEST(SchedulerMap, FindsWarpModFour) {
  const SchedulerMap m = infer_scheduler_map(pairs(32, 4, 0.02), 32);
  EXPECT_EQ(m.groups, 4);
  EXPECT_EQ(m.modulus, 4);
  EXPECT_NEAR(m.sharing_slowdown, 2.0, 0.05);
  EXPECT_NEAR(m.separate_slowdown, 1.0, 0.05);
  EXPECT_GT(m.confidence, 0.9);
}

TEST(SchedulerMap, ANonModularMappingHasNoModulus) {
  std::vector<PairSlowdown> p;
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b) p.push_back({a, b, (a / 4 == b / 4) ? 2.0 : 1.0});  // warps 0-3 and 4-7 together
  const SchedulerMap m = infer_scheduler_map(p, 8);
  EXPECT_EQ(m.groups, 2);
  EXPECT_EQ(m.modulus, 0);
  EXPECT_EQ(m.group_of_warp[3], m.group_of_warp[0]);
  EXPECT_NE(m.group_of_warp[4], m.group_of_warp[0]);
}

TEST(SchedulerMap, RejectsBadPairs) {
  EXPECT_THROW(infer_scheduler_map({}, 4), std::invalid_argument);
  EXPECT_THROW(infer_scheduler_map({{0, 9, 1.0}}, 4), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
