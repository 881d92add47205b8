// The sustained-clock summary on synthetic samples: a clock that drops from 1980 to 1755 MHz
// after 5 s of a 20 s run.
#include <gtest/gtest.h>

#include "analysis/clock_trace.hpp"

namespace archbench {
namespace {

std::vector<ClockPoint> trace() {
  std::vector<ClockPoint> s;
  std::uint64_t ns = 0, cycles = 0;
  for (int i = 0; i <= 200; ++i) {  // every 100 ms
    s.push_back({ns, cycles});
    const double mhz = ns < 5'000'000'000ull ? 1980 : 1755;
    ns += 100'000'000;
    cycles += static_cast<std::uint64_t>(mhz * 1e5);  // 100 ms x MHz
  }
  return s;
}

TEST(ClockTrace, InitialSustainedAndMinimum) {
  const ClockTrace t = summarize_clock(trace());
  EXPECT_NEAR(t.initial_mhz, 1980, 0.01);
  EXPECT_NEAR(t.sustained_mhz, 1755, 0.01);
  EXPECT_NEAR(t.min_mhz, 1755, 0.01);
  EXPECT_NEAR(t.max_mhz, 1980, 0.01);
  EXPECT_NEAR(t.drop_pct, 100.0 * (1 - 1755.0 / 1980.0), 1e-6);
  EXPECT_NEAR(t.seconds, 20.0, 1e-9);
  EXPECT_EQ(t.intervals, 200);
}

TEST(ClockTrace, RejectsTooFewOrBackwardSamples) {
  EXPECT_THROW(summarize_clock({{0, 0}, {1, 1}}), std::invalid_argument);
  EXPECT_THROW(summarize_clock({{0, 0}, {2, 5}, {1, 9}}), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
