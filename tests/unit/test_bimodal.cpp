// Splitting near and far latencies.
#include <gtest/gtest.h>

#include <random>

#include "analysis/bimodal.hpp"

using namespace archbench;

TEST(Bimodal, SplitsTwoNoisyGroupsAtTheGap) {
  std::mt19937 rng(7);
  std::normal_distribution<double> near(280, 6), far(530, 10);
  std::vector<double> s;
  for (int i = 0; i < 600; ++i) s.push_back(near(rng));
  for (int i = 0; i < 400; ++i) s.push_back(far(rng));
  s.push_back(2000);  // an outlier must not become the split
  const BimodalSplit b = split_bimodal(s);
  EXPECT_GT(b.threshold, 320);
  EXPECT_LT(b.threshold, 490);
  EXPECT_NEAR(b.low_median, 280, 3);
  EXPECT_NEAR(b.high_median, 530, 4);
  EXPECT_NEAR(b.low_fraction, 0.6, 0.01);
  EXPECT_GT(b.separation, 10);
}

TEST(Bimodal, OneGroupHasLowSeparation) {
  std::mt19937 rng(3);
  std::normal_distribution<double> one(300, 8);
  std::vector<double> s;
  for (int i = 0; i < 500; ++i) s.push_back(one(rng));
  EXPECT_LT(split_bimodal(s).separation, 3);
  EXPECT_THROW(split_bimodal({1, 2}), std::invalid_argument);
}
