#include "analysis/l2_slice_map.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "analysis/stats.hpp"

namespace archbench {
namespace {

// RMS difference of two equally long rows.
template <class Row>
double rms_between(const Row& a, const Row& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  return std::sqrt(s / double(a.size()));
}

// Two sides by 2-means over the SMs' rows (each SM's mean taken out), seeded by the first SM and
// the SM farthest from it; side[s] = -1 for an SM not in `ran`. Returns the separation: the
// centroids' distance over the mean distance of an SM to its own centroid (RMS cycles).
double split_sides(const std::vector<std::vector<double>>& rows, const std::vector<std::size_t>& ran,
                   std::vector<int>& side) {
  std::vector<std::vector<double>> c(2);
  c[0] = rows[ran.front()];
  std::size_t far = ran.front();
  for (std::size_t s : ran)
    if (rms_between(rows[s], c[0]) > rms_between(rows[far], c[0])) far = s;
  c[1] = rows[far];
  for (int iter = 0; iter < 32; ++iter) {
    bool moved = false;
    for (std::size_t s : ran) {
      const int k = rms_between(rows[s], c[0]) <= rms_between(rows[s], c[1]) ? 0 : 1;
      moved |= side[s] != k;
      side[s] = k;
    }
    for (int k = 0; k < 2; ++k) {
      std::vector<double> sum(rows[ran.front()].size(), 0.0);
      std::size_t n = 0;
      for (std::size_t s : ran)
        if (side[s] == k) {
          for (std::size_t g = 0; g < sum.size(); ++g) sum[g] += rows[s][g];
          ++n;
        }
      if (n == 0) return 0;
      for (double& x : sum) x /= double(n);
      c[std::size_t(k)] = sum;
    }
    if (!moved) break;
  }
  double within = 0;
  for (std::size_t s : ran) within += rms_between(rows[s], c[std::size_t(side[s])]);
  within /= double(ran.size());
  return within > 0 ? rms_between(c[0], c[1]) / within : 0;
}

// The additive fit with the SMs on `side` (terms per side), written into m; returns R^2.
double fit_additive(L2SliceMap& m, const std::vector<std::size_t>& ran, const std::vector<int>& side,
                    std::size_t sides) {
  std::vector<double> all;
  for (std::size_t s : ran) all.insert(all.end(), m.cycles[s].begin(), m.cycles[s].end());
  m.grand = mean(all);
  m.sm_term.assign(m.sms, 0.0);
  m.group_term.assign(sides, std::vector<double>(m.groups, 0.0));
  for (std::size_t k = 0; k < sides; ++k) {
    std::vector<std::size_t> mine;
    for (std::size_t s : ran)
      if (side[s] == int(k)) mine.push_back(s);
    if (mine.empty()) continue;
    double side_mean = 0;
    for (std::size_t s : mine) side_mean += mean(m.cycles[s]) / double(mine.size());
    for (std::size_t s : mine) m.sm_term[s] = mean(m.cycles[s]) - side_mean;
    for (std::size_t g = 0; g < m.groups; ++g) {
      double c = 0;
      for (std::size_t s : mine) c += m.cycles[s][g];
      m.group_term[k][g] = c / double(mine.size()) - m.grand;
    }
  }
  double ss_tot = 0, ss_res = 0;
  for (std::size_t s : ran)
    for (std::size_t g = 0; g < m.groups; ++g) {
      const double v = m.cycles[s][g], fit = m.grand + m.sm_term[s] + m.group_term[std::size_t(side[s])][g];
      ss_tot += (v - m.grand) * (v - m.grand);
      ss_res += (v - fit) * (v - fit);
    }
  m.residual_sd_cycles = std::sqrt(ss_res / double(all.size()));
  return ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
}

}  // namespace

L2SliceMap group_l2_slices(const std::vector<float>& map, std::size_t sms, std::size_t lines, double radius_cycles,
                           std::size_t min_lines, double min_side_separation) {
  if (sms == 0 || lines == 0 || map.size() != sms * lines)
    throw std::invalid_argument("L2 slice map: the map is not sms x lines");
  std::vector<std::size_t> ran;
  for (std::size_t s = 0; s < sms; ++s)
    if (std::any_of(map.begin() + std::ptrdiff_t(s * lines), map.begin() + std::ptrdiff_t((s + 1) * lines),
                    [](float v) { return v > 0; }))
      ran.push_back(s);
  if (ran.empty()) throw std::invalid_argument("L2 slice map: no SM ran");
  // Each line's signature: its latency from every SM that ran, that SM's mean taken out.
  std::vector<std::vector<float>> sig(lines, std::vector<float>(ran.size()));
  for (std::size_t k = 0; k < ran.size(); ++k) {
    const float* row = map.data() + ran[k] * lines;
    const double m = std::accumulate(row, row + lines, 0.0) / double(lines);
    for (std::size_t l = 0; l < lines; ++l) sig[l][k] = float(row[l] - m);
  }
  // Leaders: every line not yet within the radius of one starts a group.
  std::vector<int> leader_of(lines, -1);
  std::vector<std::size_t> leaders;
  for (std::size_t l = 0; l < lines; ++l) {
    if (leader_of[l] >= 0) continue;
    for (std::size_t j = l; j < lines; ++j)
      if (leader_of[j] < 0 && rms_between(sig[l], sig[j]) < radius_cycles) leader_of[j] = int(leaders.size());
    leaders.push_back(l);
  }
  // Groups large enough to be slices: their centroids; every line then joins the nearest.
  std::vector<std::size_t> size(leaders.size(), 0);
  for (int g : leader_of) ++size[std::size_t(g)];
  std::vector<std::vector<float>> centroid;
  for (std::size_t g = 0; g < leaders.size(); ++g) {
    if (size[g] < min_lines) continue;
    std::vector<double> c(ran.size(), 0.0);
    for (std::size_t l = 0; l < lines; ++l)
      if (leader_of[l] == int(g))
        for (std::size_t k = 0; k < ran.size(); ++k) c[k] += sig[l][k];
    centroid.emplace_back(ran.size());
    for (std::size_t k = 0; k < ran.size(); ++k) centroid.back()[k] = float(c[k] / double(size[g]));
  }
  if (centroid.empty()) throw std::invalid_argument("L2 slice map: no group of at least min_lines lines");
  L2SliceMap out;
  out.sms = sms;
  out.groups = centroid.size();
  out.line_group.assign(lines, 0);
  out.group_lines.assign(out.groups, 0);
  for (std::size_t l = 0; l < lines; ++l) {
    std::size_t best = 0;
    double best_d = INFINITY;
    for (std::size_t g = 0; g < centroid.size(); ++g)
      if (const double d = rms_between(sig[l], centroid[g]); d < best_d) best_d = d, best = g;
    out.line_group[l] = std::uint32_t(best);
    ++out.group_lines[best];
  }
  // The SM x group matrix, and the additive fit over the SMs that ran (a full matrix: the
  // least-squares terms are row and column means).
  out.cycles.assign(sms, std::vector<double>(out.groups, 0.0));
  for (std::size_t s : ran)
    for (std::size_t l = 0; l < lines; ++l) out.cycles[s][out.line_group[l]] += map[s * lines + l];
  for (std::size_t s : ran)
    for (std::size_t g = 0; g < out.groups; ++g) out.cycles[s][g] /= double(out.group_lines[g]);
  std::vector<double> all, nearest, farthest;
  for (std::size_t s : ran) {
    all.insert(all.end(), out.cycles[s].begin(), out.cycles[s].end());
    nearest.push_back(*std::min_element(out.cycles[s].begin(), out.cycles[s].end()));
    farthest.push_back(*std::max_element(out.cycles[s].begin(), out.cycles[s].end()));
  }
  // One side first (the plain additive model), then two where the SMs' rows split clearly.
  std::vector<int> one(sms, -1);
  for (std::size_t s : ran) one[s] = 0;
  out.r_squared_one_side = fit_additive(out, ran, one, 1);
  std::vector<std::vector<double>> rows(sms);
  for (std::size_t s : ran) {
    const double m = mean(out.cycles[s]);
    for (double c : out.cycles[s]) rows[s].push_back(c - m);
  }
  std::vector<int> two(sms, -1);
  out.side_separation = ran.size() >= 4 ? split_sides(rows, ran, two) : 0;
  if (out.side_separation >= min_side_separation) {
    out.sides = 2;
    out.sm_side = two;
    out.r_squared = fit_additive(out, ran, two, 2);
  } else {
    out.sm_side = one;
    out.r_squared = fit_additive(out, ran, one, 1);
  }
  out.min_cycles = *std::min_element(all.begin(), all.end());
  out.max_cycles = *std::max_element(all.begin(), all.end());
  out.median_cycles = median(all);
  out.nearest_median_cycles = median(nearest);
  out.farthest_median_cycles = median(farthest);
  return out;
}

GpcGroups group_gpcs(std::size_t sms, const std::vector<std::vector<std::uint32_t>>& cluster_sms, std::size_t small) {
  std::vector<std::size_t> parent(sms);
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<bool> seen(sms, false);
  for (const auto& c : cluster_sms) {
    std::size_t first = sms;
    for (std::uint32_t s : c)
      if (s < sms) {
        seen[s] = true;
        if (first == sms) first = s;
        parent[find(s)] = find(first);
      }
  }
  std::vector<std::size_t> members(sms, 0);
  for (std::size_t s = 0; s < sms; ++s)
    if (seen[s]) ++members[find(s)];
  GpcGroups out;
  out.gpc.assign(sms, -1);
  std::vector<std::size_t> roots;
  for (std::size_t s = 0; s < sms; ++s) {
    if (!seen[s]) continue;
    if (members[find(s)] <= small) {
      ++out.unknown;
      continue;
    }
    const std::size_t r = find(s);
    auto it = std::find(roots.begin(), roots.end(), r);
    if (it == roots.end()) it = roots.insert(roots.end(), r);
    out.gpc[s] = int(it - roots.begin());
    ++out.by_cluster;
  }
  out.count = roots.size();
  return out;
}

TpcPairs pair_tpcs(std::size_t sms, const std::vector<std::vector<std::uint32_t>>& clusters_of_two) {
  TpcPairs out;
  out.partner.assign(sms, -1);
  std::vector<bool> conflict(sms, false);
  for (const auto& c : clusters_of_two) {
    if (c.size() != 2 || c[0] == c[1] || c[0] >= sms || c[1] >= sms) continue;
    for (int k = 0; k < 2; ++k) {
      const std::uint32_t a = c[std::size_t(k)], b = c[std::size_t(1 - k)];
      if (out.partner[a] >= 0 && out.partner[a] != int(b)) conflict[a] = true;
      out.partner[a] = int(b);
    }
  }
  for (std::size_t s = 0; s < sms; ++s)
    if (conflict[s]) out.partner[s] = -1, ++out.conflicts;
  for (std::size_t s = 0; s < sms; ++s)
    if (out.partner[s] > int(s) && out.partner[std::size_t(out.partner[s])] == int(s)) ++out.pairs;
  return out;
}

}  // namespace archbench
