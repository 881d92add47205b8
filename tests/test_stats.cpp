#include <gtest/gtest.h>

#include <cmath>

#include "analysis/placement.hpp"
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

TEST(Stats, ReferenceSmIsTheMedianOfTheSmsThatRan) {
  // Per-SM L2 latencies as on an H100 board: pairs of SMs of one TPC read alike; 0 = no block ran.
  EXPECT_EQ(median_latency_sm({272.3, 272.3, 0, 279.3, 266.4, 288.4, 276.9, 281.0}), 6u);  // 266 272 272 [277] 279 281 288
  EXPECT_EQ(median_latency_sm({272.3, 272.3, 0, 279.3, 266.4, 288.4, 276.9}), 1u);  // even: lower median, 272.3 on SM 0 and 1 -> 1
  EXPECT_EQ(median_latency_sm({5, 4, 3, 2}), 2u);  // lower median: 2 3 | 4 5 -> 3, on SM 2
  EXPECT_EQ(median_latency_sm({7, 7, 7}), 1u);     // ties: the SM number decides, the same every run
  EXPECT_FALSE(median_latency_sm({0, 0}).has_value());
  EXPECT_FALSE(median_latency_sm({}).has_value());
  // Which SM number sits where differs by board; the SM chosen is the one at the median wherever it is.
  EXPECT_EQ(median_latency_sm({279.3, 272.3, 276.9, 266.4, 288.4}), 2u);
}
