// Choosing the reference SM from every SM's latency to one L2-resident chase (pure C++).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace archbench {

// The SM whose latency is the (lower) median of those that ran (latency > 0), ties to the lower
// SM number; nullopt when none ran. The median SM is the one place every board of a model has:
// the SMs' distribution is the same on each (median 277.0 and 277.1 cycles on two H100 boards),
// while any fixed SM number sits elsewhere on each die.
inline std::optional<std::uint32_t> median_latency_sm(const std::vector<double>& cycles_per_sm) {
  std::vector<std::pair<double, std::uint32_t>> ran;
  for (std::size_t s = 0; s < cycles_per_sm.size(); ++s)
    if (cycles_per_sm[s] > 0) ran.emplace_back(cycles_per_sm[s], std::uint32_t(s));
  if (ran.empty()) return std::nullopt;
  std::sort(ran.begin(), ran.end());
  return ran[(ran.size() - 1) / 2].second;
}

}  // namespace archbench
