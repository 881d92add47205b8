#include "analysis/l2_sides.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/bimodal.hpp"
#include "analysis/stats.hpp"

namespace archbench {
namespace {

// Two latency groups by Otsu's threshold (the split that maximises the between-group variance),
// on winsorised samples: unlike the widest gap, a few slow outliers (a probe queued behind
// another SM's atomics) do not move it. Two groups when
// each holds >= 5 % of the samples and their medians lie >= 4 robust standard deviations apart
// (1.4826 x the larger group's median absolute deviation, at least 1 cycle).
struct Split {
  double threshold = 0, low_fraction = 0, separation = 0;
  bool two_groups = false;
};
Split otsu_split(std::vector<double> v) {
  Split r;
  if (v.size() < 4) return r;
  // Chains that queued behind others on one line say nothing (queued_probe_cap).
  const double cap = queued_probe_cap(v);
  std::sort(v.begin(), v.end());
  v.erase(std::upper_bound(v.begin(), v.end(), cap), v.end());
  if (v.size() < 4) return r;
  // Winsorised at the 2nd and 98th percentiles: a few extreme outliers would otherwise be the
  // split that maximises the variance between groups.
  const double lo = v[v.size() * 2 / 100], hi = v[v.size() * 98 / 100];
  for (double& x : v) x = std::clamp(x, lo, hi);
  const double n = double(v.size());
  double total = 0;
  for (double x : v) total += x;
  double below = 0, best = -1;
  std::size_t cut = v.size() / 2;
  for (std::size_t i = 1; i < v.size(); ++i) {
    below += v[i - 1];
    if (v[i] == v[i - 1]) continue;
    const double w0 = double(i) / n, m0 = below / double(i), m1 = (total - below) / (n - double(i));
    const double between = w0 * (1 - w0) * (m0 - m1) * (m0 - m1);
    if (between > best) best = between, cut = i;
  }
  r.threshold = 0.5 * (v[cut - 1] + v[cut]);
  r.low_fraction = double(cut) / n;
  const std::vector<double> low(v.begin(), v.begin() + std::ptrdiff_t(cut)),
      high(v.begin() + std::ptrdiff_t(cut), v.end());
  auto mad = [](const std::vector<double>& g) {
    const double m = median(g);
    std::vector<double> d;
    for (double x : g) d.push_back(std::abs(x - m));
    return median(d);
  };
  const double sd = std::max(1.0, 1.4826 * std::max(mad(low), mad(high)));
  r.separation = (median(high) - median(low)) / sd;
  r.two_groups = r.low_fraction >= 0.05 && r.low_fraction <= 0.95 && r.separation >= 4;
  return r;
}

}  // namespace

L2SidesResult assign_l2_sides(const std::vector<double>& map_cycles,
                              const std::vector<std::vector<double>>& sample_cycles, std::size_t sample_step,
                              double min_agreement) {
  L2SidesResult r;
  if (map_cycles.size() < 64 || sample_step == 0) {
    r.why_not = "too few lines to split into partitions";
    return r;
  }
  const Split ref = otsu_split(map_cycles);
  if (!ref.two_groups) {
    r.why_not = "the reference SM's atomic latencies form one group: no near and far partition";
    return r;
  }
  L2Sides s;
  s.threshold_cycles = ref.threshold;
  s.separation = ref.separation;
  s.line_side.resize(map_cycles.size());
  std::size_t near = 0;
  for (std::size_t l = 0; l < map_cycles.size(); ++l) {
    s.line_side[l] = map_cycles[l] <= ref.threshold ? 0 : 1;
    near += s.line_side[l] == 0;
  }
  s.near_fraction = double(near) / double(map_cycles.size());
  s.sm_side.assign(sample_cycles.size(), -1);
  for (std::size_t sm = 0; sm < sample_cycles.size(); ++sm) {
    const auto& c = sample_cycles[sm];
    if (c.empty()) continue;
    if (c.size() < 4 || (c.size() - 1) * sample_step >= map_cycles.size()) {
      r.why_not = "SM " + std::to_string(sm) + ": samples beyond the mapped lines";
      return r;
    }
    const Split own = otsu_split(c);
    const double cap = queued_probe_cap(c);  // as otsu_split: queued chains say nothing
    std::size_t agree = 0, counted = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] > cap) continue;
      ++counted;
      agree += (c[i] <= own.threshold) == (s.line_side[i * sample_step] == 0);
    }
    const double a = counted ? double(agree) / double(counted) : 0.5;
    const double best = std::max(a, 1 - a);
    if (!own.two_groups || best < min_agreement) {
      r.why_not = "SM " + std::to_string(sm) + (own.two_groups ? "" : ": its samples form one latency group;") +
                  " agrees with neither partition (" + std::to_string(int(100 * best)) + " % of its samples)";
      return r;
    }
    s.sm_side[sm] = a >= 0.5 ? 0 : 1;
    s.min_sm_agreement = std::min(s.min_sm_agreement, best);
  }
  for (int side : {0, 1})
    if (std::count(s.sm_side.begin(), s.sm_side.end(), side) == 0) {
      r.why_not = "no SM on partition " + std::to_string(side);
      return r;
    }
  r.sides = std::move(s);
  return r;
}

LineLists partition_line_lists(const L2Sides& sides, bool far, std::size_t group) {
  std::vector<int> sms_of[2];
  for (std::size_t sm = 0; sm < sides.sm_side.size(); ++sm)
    if (sides.sm_side[sm] >= 0) sms_of[sides.sm_side[sm]].push_back(int(sm));
  std::vector<std::vector<std::uint32_t>> per(sides.sm_side.size());
  std::size_t next[2] = {0, 0};
  for (std::size_t l = 0; l < sides.line_side.size(); ++l) {
    const int reader = far ? 1 - sides.line_side[l] : sides.line_side[l];
    const auto& group_sms = sms_of[reader];
    if (group_sms.empty()) continue;
    per[group_sms[next[reader]++ % group_sms.size()]].push_back(std::uint32_t(l));
  }
  LineLists out;
  out.offsets.push_back(0);
  out.min_per_sm = std::numeric_limits<std::size_t>::max();
  for (std::size_t sm = 0; sm < per.size(); ++sm) {
    auto& p = per[sm];
    if (group > 0) p.resize(p.size() / group * group);
    out.lines.insert(out.lines.end(), p.begin(), p.end());
    out.offsets.push_back(std::uint32_t(out.lines.size()));
    if (sides.sm_side[sm] >= 0) {
      out.min_per_sm = std::min(out.min_per_sm, p.size());
      out.max_per_sm = std::max(out.max_per_sm, p.size());
    }
  }
  if (out.min_per_sm == std::numeric_limits<std::size_t>::max()) out.min_per_sm = 0;
  return out;
}

LineLists weighted_line_lists(const std::vector<double>& weight_by_sm, std::size_t lines, std::size_t group) {
  double total = 0;
  for (double w : weight_by_sm) total += w > 0 ? w : 0;
  if (!(total > 0)) throw std::invalid_argument("weighted_line_lists: no SM has a weight");
  group = std::max<std::size_t>(group, 1);
  LineLists out;
  out.offsets.push_back(0);
  out.min_per_sm = std::numeric_limits<std::size_t>::max();
  double before = 0;  // the weight of the SMs before this one: runs end where their share ends
  std::size_t next = 0;
  for (double w : weight_by_sm) {
    if (w > 0) {
      before += w;
      const std::size_t end = std::min(lines, std::size_t(double(lines) * (before / total) + 0.5));
      const std::size_t n = (end > next ? end - next : 0) / group * group;
      for (std::size_t l = next; l < next + n; ++l) out.lines.push_back(std::uint32_t(l));
      next += n;
      out.min_per_sm = std::min(out.min_per_sm, n);
      out.max_per_sm = std::max(out.max_per_sm, n);
    }
    out.offsets.push_back(std::uint32_t(out.lines.size()));
  }
  return out;
}

}  // namespace archbench
