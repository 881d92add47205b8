#include "analysis/clock_trace.hpp"

#include <algorithm>
#include <stdexcept>

namespace archbench {

ClockTrace summarize_clock(const std::vector<ClockPoint>& s, double initial_seconds, double sustained_fraction) {
  if (s.size() < 3) throw std::invalid_argument("clock trace: needs at least 3 samples");
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i].ns <= s[i - 1].ns || s[i].cycles < s[i - 1].cycles)
      throw std::invalid_argument("clock trace: samples must move forward in time and cycles");
  ClockTrace t;
  t.seconds = double(s.back().ns - s.front().ns) * 1e-9;
  t.intervals = int(s.size()) - 1;
  // MHz over [a, b] = cycles / ns x 1e3.
  auto rate = [&](std::size_t a, std::size_t b) {
    return double(s[b].cycles - s[a].cycles) * 1e3 / double(s[b].ns - s[a].ns);
  };
  t.min_mhz = 1e300;
  for (std::size_t i = 1; i < s.size(); ++i) {
    t.min_mhz = std::min(t.min_mhz, rate(i - 1, i));
    t.max_mhz = std::max(t.max_mhz, rate(i - 1, i));
  }
  const auto initial_end = s.front().ns + static_cast<std::uint64_t>(initial_seconds * 1e9);
  std::size_t a = 1;
  while (a + 1 < s.size() && s[a].ns < initial_end) ++a;
  t.initial_mhz = rate(0, a);
  const auto sustained_start =
      s.back().ns - static_cast<std::uint64_t>(sustained_fraction * double(s.back().ns - s.front().ns));
  std::size_t b = s.size() - 2;
  while (b > 0 && s[b].ns > sustained_start) --b;
  t.sustained_mhz = rate(b, s.size() - 1);
  t.drop_pct = t.initial_mhz > 0 ? 100.0 * (1.0 - t.sustained_mhz / t.initial_mhz) : 0;
  return t;
}

}  // namespace archbench
