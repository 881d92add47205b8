#include "analysis/scheduler_map.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "analysis/confidence.hpp"
#include "analysis/stats.hpp"

namespace archbench {

SchedulerMap infer_scheduler_map(const std::vector<PairSlowdown>& pairs, int warps) {
  if (pairs.empty() || warps < 2) throw std::invalid_argument("scheduler map: no pairs measured");
  for (const PairSlowdown& p : pairs)
    if (p.a < 0 || p.b < 0 || p.a >= warps || p.b >= warps || p.a == p.b)
      throw std::invalid_argument("scheduler map: a pair names a warp outside the block");
  std::vector<double> sorted;
  for (const PairSlowdown& p : pairs) sorted.push_back(p.slowdown);
  std::sort(sorted.begin(), sorted.end());
  // The threshold: the middle of the widest gap between consecutive slowdowns.
  double threshold = sorted.back() + 1, gap = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] - sorted[i - 1] > gap) {
      gap = sorted[i] - sorted[i - 1];
      threshold = 0.5 * (sorted[i] + sorted[i - 1]);
    }
  // Union-find over the sharing pairs.
  std::vector<int> parent(warps);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<double> sharing, separate;
  for (const PairSlowdown& p : pairs) {
    if (p.slowdown > threshold) {
      parent[find(p.a)] = find(p.b);
      sharing.push_back(p.slowdown);
    } else {
      separate.push_back(p.slowdown);
    }
  }
  SchedulerMap m;
  m.group_of_warp.assign(warps, -1);
  std::vector<int> label_of_root(warps, -1);
  for (int w = 0; w < warps; ++w) {
    int& label = label_of_root[find(w)];
    if (label < 0) label = m.groups++;
    m.group_of_warp[w] = label;
  }
  for (int k = 1; k <= warps; ++k) {
    bool fits = m.groups == k;
    for (int w = 0; w < warps && fits; ++w) fits = m.group_of_warp[w] == w % k;
    if (fits) {
      m.modulus = k;
      break;
    }
  }
  if (!sharing.empty()) m.sharing_slowdown = median(sharing);
  if (!separate.empty()) m.separate_slowdown = median(separate);
  if (!sharing.empty() && !separate.empty()) {
    // One pair on the wrong side joins two groups or splits one: the map is right when every
    // pair is. Each pair's slowdown is Gaussian about its kind with the kinds' robust spread
    // (1.4826 x MAD, at least 0.1 % of the threshold).
    const auto robust_sd = [](const std::vector<double>& v) {
      const double c = median(v);
      std::vector<double> d;
      for (double x : v) d.push_back(std::abs(x - c));
      return 1.4826 * median(d);
    };
    const double sd = std::max({robust_sd(sharing), robust_sd(separate), 1e-3 * threshold});
    double log_right = 0;
    for (const PairSlowdown& p : pairs) log_right += std::log(side_probability(p.slowdown, threshold, sd));
    m.confidence = std::exp(log_right);
  }
  return m;
}

}  // namespace archbench
