#include <gtest/gtest.h>

#include "fixtures/harness/calibrate.hpp"

using archbench::count_for_target;
using archbench::CountLimits;

TEST(Calibrate, ScalesATrialToTheTarget) {
  // 8 iterations in 0.1 ms: 2 ms needs 160.
  EXPECT_EQ(count_for_target(8, 1e5, 2e6), 160u);
  // A trial that took "no time" (a clock glitch) is read as 1 ns, then capped.
  EXPECT_EQ(count_for_target(8, 0, 2e6), 10000000u);
  EXPECT_EQ(count_for_target(8, 0, 2e6, {1, 4096}), 4096u);
}

TEST(Calibrate, StaysInsideItsLimits) {
  // A trial already longer than the target: never below the floor.
  EXPECT_EQ(count_for_target(2, 1e9, 1e6), 1u);
  EXPECT_EQ(count_for_target(2, 1e9, 1e6, {3, 100}), 3u);
  // An atomics' cap (a 32-bit counter's range).
  EXPECT_EQ(count_for_target(8, 1.0, 1e6, {1, 65536}), 65536u);
}

TEST(Calibrate, RoundsDownToAMultiple) {
  // An unrolled body of 16: 1000 becomes 992, and never less than one body.
  EXPECT_EQ(count_for_target(1024, 1024e3, 1000e3, {1, 1e8, 16}), 992u);
  EXPECT_EQ(count_for_target(1024, 1e12, 1e3, {1, 1e8, 16}), 16u);
  const CountLimits l{1, 1e8, 32};
  for (double ns : {1e3, 3.3e4, 7.7e5, 1e7}) EXPECT_EQ(count_for_target(64, ns, 5e5, l) % 32, 0u) << ns;
}
