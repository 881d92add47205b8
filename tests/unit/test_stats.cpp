// The statistics every inference uses (analysis/stats.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/stats.hpp"

using namespace archbench;

TEST(Stats, MedianAndPercentiles) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5}, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile({1, 2, 3, 4, 5}, 100), 5.0);
  EXPECT_DOUBLE_EQ(percentile({0, 10}, 95), 9.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Stats, SampleSdDividesByNMinusOne) {
  EXPECT_DOUBLE_EQ(sample_sd({2, 4, 4, 4, 5, 5, 7, 9}), std::sqrt(32.0 / 7.0));
  EXPECT_DOUBLE_EQ(sample_sd({5}), 0.0);
  EXPECT_DOUBLE_EQ(sample_sd({}), 0.0);
}
