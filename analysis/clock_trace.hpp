// The SM clock over a long run, from in-kernel (%globaltimer, clock64) samples (pure C++,
// unit-tested): the clock at the start, sustained at the end, and the lowest, each the mean rate
// over the sample intervals of its window.
#pragma once
#include <cstdint>
#include <vector>

namespace archbench {

struct ClockPoint {
  std::uint64_t ns = 0, cycles = 0;
};

struct ClockTrace {
  double initial_mhz = 0;           // over the first `initial_seconds`
  double sustained_mhz = 0;         // over the last `sustained_fraction` of the run
  double min_mhz = 0, max_mhz = 0;  // over single intervals
  double drop_pct = 0;              // 100 x (1 - sustained / initial)
  double seconds = 0;
  int intervals = 0;
};

// Throws std::invalid_argument with fewer than 3 samples or time or cycles running backwards.
ClockTrace summarize_clock(const std::vector<ClockPoint>& samples, double initial_seconds = 1.0,
                           double sustained_fraction = 0.25);

}  // namespace archbench
