// Choosing the reference SM from every SM's latency to one L2-resident chase (pure C++).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/bimodal.hpp"

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

// The SM typical of two per-SM latencies at once (an L2 hit and a page walk): of the SMs that ran
// both (> 0), the one whose larger distance from the median rank, over the two rankings, is the
// smallest; ties to the smaller sum of the two distances, then to the lower SM number. A walk's
// cost does not follow the SM's L2 latency (twelve SMs of one H100: 377-457 cycles), and the SM
// of median walk alone read L2-bound chases 2.2 % apart on two boards.
inline std::optional<std::uint32_t> typical_sm(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::uint32_t> ran;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s)
    if (a[s] > 0 && b[s] > 0) ran.push_back(std::uint32_t(s));
  if (ran.empty()) return std::nullopt;
  const auto ranks = [&](const std::vector<double>& v) {
    std::vector<std::uint32_t> order = ran;
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return v[x] != v[y] ? v[x] < v[y] : x < y; });
    std::vector<double> rank(v.size(), 0.0);
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = double(i);
    return rank;
  };
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double mid = double(ran.size() - 1) / 2;
  std::uint32_t best = ran.front();
  double best_max = 1e300, best_sum = 1e300;
  for (std::uint32_t s : ran) {
    const double da = std::abs(ra[s] - mid), db = std::abs(rb[s] - mid);
    const double mx = std::max(da, db), sum = da + db;
    if (mx < best_max || (mx == best_max && sum < best_sum)) {
      best = s;
      best_max = mx;
      best_sum = sum;
    }
  }
  return best;
}

// The SM typical of the L2 latencies and of the faster group of walks: where the walks fall in
// two groups (the page tables' L2 partition near or far from the SM; split_bimodal finds them), an
// SM typical of all of them lands in either group from one process to the next, and its walk with
// it (two H200 runs: SM 127 and SM 4, both miss levels 40 cycles apart). Else typical_sm of all.
inline std::optional<std::uint32_t> walk_sm_of(const std::vector<double>& l2, std::vector<double> walk) {
  std::vector<double> ran;
  for (double w : walk)
    if (w > 0) ran.push_back(w);
  if (ran.size() >= 4) {
    const BimodalSplit groups = split_bimodal(ran);
    if (groups.confidence > 0)
      for (double& w : walk)
        if (w > groups.threshold) w = 0;  // typical_sm leaves out what is not positive
  }
  if (l2.size() == walk.size())
    if (const auto sm = typical_sm(l2, walk)) return sm;
  return median_latency_sm(walk);
}

}  // namespace archbench
