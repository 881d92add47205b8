// FullClock (fixtures/harness/full_clock.hpp) on synthetic windows: a window in a dip is measured
// again, one at the full clock is kept, and a GPU held at a lower clock is its own full clock.
#include "fixtures/harness/full_clock.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace archbench {
namespace {

struct Window {
  double mhz;
};

// Windows handed out in order; the last repeats.
struct Clocks {
  std::vector<double> mhz;
  std::size_t next = 0;
  Window operator()() { return Window{mhz[std::min(next++, mhz.size() - 1)]}; }
};

double clock_of(const Window& w) { return w.mhz; }

TEST(FullClock, MeasuresAgainInADipAndKeepsAFullWindow) {
  FullClock c;
  Clocks seq{{1980, 1967, 1967, 1979.5}};
  EXPECT_EQ(c.at_full_clock(seq, clock_of).mhz, 1980);
  EXPECT_EQ(c.at_full_clock(seq, clock_of).mhz, 1979.5);  // two dipped windows measured again
  EXPECT_EQ(c.retries(), 2);
}

TEST(FullClock, GivesUpAfterItsTries) {
  FullClock c;
  Clocks seq{{1980, 1960}};
  c.at_full_clock(seq, clock_of);
  EXPECT_EQ(c.at_full_clock(seq, clock_of).mhz, 1960);  // a lasting dip: the last window stands
  EXPECT_EQ(c.retries(), kFullClockTries);
}

TEST(FullClock, ALowerHeldClockIsItsOwnFullClock) {
  FullClock c;
  Clocks seq{{1410, 1409, 1410.5}};
  for (int i = 0; i < 3; ++i) c.at_full_clock(seq, clock_of);
  EXPECT_EQ(c.retries(), 0);
}

TEST(FullClock, AnUnknownClockIsNeverADip) {
  FullClock c;
  Clocks seq{{1980, 0}};
  c.at_full_clock(seq, clock_of);
  EXPECT_EQ(c.at_full_clock(seq, clock_of).mhz, 0);
  EXPECT_EQ(c.retries(), 0);
}

}  // namespace
}  // namespace archbench
