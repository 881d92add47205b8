#include "analysis/tlb.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/confidence.hpp"
#include "analysis/stats.hpp"

namespace archbench {
namespace {

double tolerance(double level, double rel_tol, double abs_tol) { return std::max(abs_tol, rel_tol * std::abs(level)); }

std::vector<double> ys(const std::vector<CurvePoint>& c, std::size_t first, std::size_t last) {
  std::vector<double> v;
  for (std::size_t i = first; i <= last; ++i) v.push_back(c[i].y);
  return v;
}

Plateau make_plateau(const std::vector<CurvePoint>& c, std::size_t first, std::size_t last) {
  const std::vector<double> v = ys(c, first, last);
  const double level = median(v);
  std::vector<double> dev;
  for (double y : v) dev.push_back(std::abs(y - level));
  return {first, last, level, median(dev)};
}

}  // namespace

std::vector<Plateau> find_plateaus(const std::vector<CurvePoint>& curve, double rel_tol, double abs_tol,
                                   std::size_t min_points) {
  for (std::size_t i = 1; i < curve.size(); ++i)
    if (!(curve[i].x > curve[i - 1].x)) throw std::invalid_argument("plateaus: footprints must be strictly ascending");
  // Runs within the tolerance of their running median.
  std::vector<Plateau> runs;
  std::size_t start = 0;
  for (std::size_t j = 1; j <= curve.size(); ++j) {
    const bool ends = j == curve.size() || std::abs(curve[j].y - median(ys(curve, start, j - 1))) >
                                               tolerance(median(ys(curve, start, j - 1)), rel_tol, abs_tol);
    if (!ends) continue;
    if (j - start >= min_points) runs.push_back(make_plateau(curve, start, j - 1));
    start = j;
  }
  // Neighbouring runs at the same level are one plateau that a noisy point interrupted.
  std::vector<Plateau> merged;
  for (const Plateau& r : runs) {
    if (!merged.empty() && std::abs(r.level - merged.back().level) <= tolerance(merged.back().level, rel_tol, abs_tol))
      merged.back() = make_plateau(curve, merged.back().first, r.last);
    else
      merged.push_back(r);
  }
  return merged;
}

std::vector<CacheLevelStep> find_levels(const std::vector<CurvePoint>& curve, const LevelTolerance& tol) {
  const std::vector<Plateau> plateaus = find_plateaus(curve, tol.rel_tol, tol.abs_tol, tol.min_points);
  std::vector<CacheLevelStep> steps;
  if (plateaus.empty()) return steps;
  // The curve's relative point-to-point noise: the median of |y_i / y_i-1 - 1| over the curve
  // (steps are few, so the median ignores them), as a standard deviation of one point.
  std::vector<double> ratio;
  for (std::size_t i = 1; i < curve.size(); ++i)
    if (curve[i - 1].y > 0) ratio.push_back(std::abs(curve[i].y / curve[i - 1].y - 1));
  const double relative_noise = ratio.empty() ? 0.0 : 1.4826 * median(ratio) / std::sqrt(2.0);
  Plateau base = plateaus.front();
  for (std::size_t k = 1; k < plateaus.size(); ++k) {
    const Plateau& up = plateaus[k];
    if (up.level <= base.level + tolerance(base.level, tol.rel_tol, tol.abs_tol)) continue;
    CacheLevelStep s;
    s.hit_cycles = base.level;
    s.miss_penalty_cycles = up.level - base.level;
    // The reach: the last footprint whose latency is nearer the lower plateau than the upper
    // one. A point at the exact capacity that a few misses lift off the plateau still counts.
    std::size_t last_hit = base.last;
    for (std::size_t i = base.last + 1; i < up.first; ++i)
      if (curve[i].y < base.level + s.miss_penalty_cycles / 2) last_hit = i;
    s.reach = curve[last_hit].x;
    s.next_footprint = curve[last_hit + 1].x;
    {
      const double mid = base.level + s.miss_penalty_cycles / 2;
      const double y0 = curve[last_hit].y, y1 = curve[last_hit + 1].y;
      const double t = y1 > y0 ? std::clamp((mid - y0) / (y1 - y0), 0.0, 1.0) : 0.5;
      s.crossing = std::exp(std::log(s.reach) + t * (std::log(s.next_footprint) - std::log(s.reach)));
    }
    // Noise: the plateaus' spread as a standard deviation (MAD x 1.4826), at least the curve's
    // point-to-point noise at this level and the floor (a plateau is cut to points within the
    // tolerance, which makes its own spread small).
    const double noise =
        std::max({base.spread * 1.4826, up.spread * 1.4826, relative_noise * up.level, tol.noise_floor});
    const double n_base = double(base.last - base.first + 1), n_up = double(up.last - up.first + 1);
    // The step is real when it stands out of the noise by more than the 3 standard errors that
    // noise alone reaches among the plateau pairs of a curve (calibrated in test_calibration).
    const double real = normal_cdf(s.miss_penalty_cycles / (noise * std::sqrt(1 / n_base + 1 / n_up)) - 3.0);
    const double mid = base.level + s.miss_penalty_cycles / 2;
    s.confidence =
        real * side_probability(curve[last_hit].y, mid, noise) * side_probability(curve[last_hit + 1].y, mid, noise);
    steps.push_back(s);
    base = up;
  }
  return steps;
}

PageSizeInference infer_page_size(const std::vector<std::pair<double, double>>& reach_per_stride,
                                  const std::vector<double>& reach_confidence) {
  PageSizeInference r;
  if (reach_per_stride.size() < 2) return r;
  if (!reach_confidence.empty() && reach_confidence.size() != reach_per_stride.size())
    throw std::invalid_argument("infer_page_size: one confidence per stride");
  const double flat = reach_per_stride.front().second;
  if (!(flat > 0)) return r;
  // The page: the largest stride whose first reach has not grown to 1.5x the flat reach (it
  // doubles one stride past the page).
  std::size_t page_index = reach_per_stride.size();
  for (std::size_t i = 1; i < reach_per_stride.size(); ++i)
    if (reach_per_stride[i].second >= 1.5 * flat) {
      page_index = i - 1;
      break;
    }
  if (page_index == reach_per_stride.size()) return r;  // never grew: the page is at least the largest stride
  if (page_index == 0) {
    // Grown from the smallest stride on: any page up to that stride reads the same.
    r.at_most_bytes = reach_per_stride.front().first;
    return r;
  }
  r.page_bytes = reach_per_stride[page_index].first;
  r.first_level_entries = flat / r.page_bytes;
  // Fit of reach(s) = entries x max(s, page) over every stride, in log units; a footprint sweep
  // at 4 points per octave resolves a reach to about 0.17: a mean error past 0.35 is no fit.
  double err = 0;
  for (const auto& [stride, reach] : reach_per_stride)
    err += std::abs(std::log(reach / (r.first_level_entries * std::max(stride, r.page_bytes))));
  err /= double(reach_per_stride.size());
  if (err > 0.35) return r;
  const auto conf = [&](std::size_t i) { return reach_confidence.empty() ? 1.0 : reach_confidence[i]; };
  r.confidence = conf(page_index) * conf(page_index + 1);
  return r;
}

double entries_confidence(double entries, const std::vector<LevelReading>& readings) {
  double best = 0;
  for (const LevelReading& r : readings)
    if (std::llround(r.entries) == std::llround(entries)) best = std::max(best, r.confidence);
  return best;
}

}  // namespace archbench
