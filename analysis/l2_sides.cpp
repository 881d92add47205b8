#include "analysis/l2_sides.hpp"

#include <algorithm>
#include <limits>

#include "analysis/bimodal.hpp"

namespace archbench {

L2SidesResult assign_l2_sides(const std::vector<double>& map_cycles,
                              const std::vector<std::vector<double>>& sample_cycles, std::size_t sample_step,
                              double min_agreement) {
  L2SidesResult r;
  if (map_cycles.size() < 64 || sample_step == 0) {
    r.why_not = "too few lines to split into partitions";
    return r;
  }
  const BimodalSplit ref = split_bimodal(map_cycles);
  if (ref.confidence <= 0) {
    r.why_not = "the reference SM's atomic latencies form one group: no near and far partition";
    return r;
  }
  L2Sides s;
  s.threshold_cycles = ref.threshold;
  s.split_confidence = ref.confidence;
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
    const BimodalSplit own = split_bimodal(c);
    std::size_t agree = 0;
    for (std::size_t i = 0; i < c.size(); ++i) agree += (c[i] <= own.threshold) == (s.line_side[i * sample_step] == 0);
    const double a = double(agree) / double(c.size());
    const double best = std::max(a, 1 - a);
    if (own.confidence <= 0 || best < min_agreement) {
      r.why_not = "SM " + std::to_string(sm) + " agrees with neither partition (" + std::to_string(int(100 * best)) +
                  " % of its samples)";
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

}  // namespace archbench
