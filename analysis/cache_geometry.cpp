#include "analysis/cache_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/stats.hpp"

namespace archbench {

ReplacementEvidence classify_replacement(double m) {
  ReplacementEvidence e;
  e.miss_fraction_at_1_5x = m;
  // LRU-like: >= 0.95 (a hashed index leaves a few sets under W); random: about 0.58.
  if (m >= 0.95) {
    e.policy = "LRU-like";
    e.confidence = std::clamp((m - 0.75) / 0.2, 0.0, 1.0);
  } else if (m <= 0.75) {
    e.policy = "random-like";
    e.confidence = std::clamp((0.95 - m) / 0.2, 0.0, 1.0);
  } else {
    e.policy = "undetermined";
  }
  return e;
}

LatencyAt median_of_runs(LatencyAt f, int runs) {
  return [f = std::move(f), runs](std::size_t x) {
    std::vector<double> v;
    for (int i = 0; i < runs; ++i) v.push_back(f(x));
    return median(v);
  };
}

double miss_fraction(double cycles, double hit, double miss) {
  if (!(miss > hit)) return 0;
  return std::clamp((cycles - hit) / (miss - hit), 0.0, 1.0);
}

double hashed_miss_fraction(double n, double c, int ways) {
  if (c <= 0) return 1;
  const double lambda = double(ways) * n / c;
  // P(Poisson(lambda) >= ways) = 1 - sum_{k < ways} e^-lambda lambda^k / k!, in log space.
  double below = 0, log_term = -lambda;
  for (int k = 0; k < ways; ++k) {
    below += std::exp(log_term);
    log_term += std::log(lambda) - std::log(double(k + 1));
  }
  return std::clamp(1.0 - below, 0.0, 1.0);
}

TransitionFit fit_transition(const std::vector<std::pair<double, double>>& pts, double line) {
  TransitionFit best;
  if (pts.size() < 3 || line <= 0) return best;
  double lo = 1e300, hi = 0;
  for (const auto& [f, m] : pts) lo = std::min(lo, f), hi = std::max(hi, f);
  best.rms_error = 1e300;
  for (int w = 1; w <= 1024; w *= 2)
    for (double c = 0.7 * lo; c <= 1.3 * hi; c *= 1.002) {
      double err = 0;
      for (const auto& [f, m] : pts) err += std::pow(hashed_miss_fraction(f / line, c / line, w) - m, 2);
      err = std::sqrt(err / double(pts.size()));
      if (err < best.rms_error) best = {c, w, err, 0};
    }
  best.capacity = std::round(best.capacity / line) * line;
  best.confidence = std::clamp(1.0 - best.rms_error / 0.08, 0.0, 1.0);
  return best;
}

std::size_t plateau_start(const LatencyAt& latency, std::size_t from, std::size_t limit, std::size_t step,
                          double noise_cycles) {
  const auto aligned = [step](double x) { return std::max(step, std::size_t(x) / step * step); };
  for (std::size_t x = aligned(double(from)); x < limit;) {
    const std::size_t next = std::max(x + step, aligned(1.1 * double(x)));
    if (next > limit) break;
    const double a = latency(x), b = latency(next);
    if (std::abs(b - a) <= std::max(3 * noise_cycles, 0.02 * a)) return x;
    x = next;
  }
  return limit;
}

CapacityResult find_capacity(const LatencyAt& latency, std::size_t start, std::size_t limit, std::size_t step,
                             double noise_cycles, int transition_points) {
  if (step == 0 || start == 0 || start % step || limit < start)
    throw std::invalid_argument("find_capacity: start and limit must be positive multiples of step, start <= limit");
  CapacityResult r;
  const auto measure = [&](std::size_t f) {
    const double v = latency(f);
    r.points.emplace_back(f, v);
    return v;
  };
  r.hit_cycles = measure(start);
  // A miss shows once the average rises by 4 noise widths, at least 1 % of the hit latency (small
  // drifts of a flat level, a TLB or DRAM-page effect, stay below it): the first misses of a
  // set-associative cache, a few lines in thousands, cost more than that.
  const double onset = std::max({4 * noise_cycles, 0.25, 0.01 * r.hit_cycles});
  const auto misses = [&](double v) { return v > r.hit_cycles + onset; };
  // Coarse: double until some access misses.
  std::size_t lo = start, hi = 0;
  for (std::size_t f = start * 2;; f *= 2) {
    const std::size_t g = std::min(f, limit);
    if (misses(measure(g))) {
      hi = g;
      break;
    }
    lo = g;
    if (g == limit) return r;  // never left the hit level
  }
  // The miss level: half again the first footprint with misses (on the next plateau, not past
  // it when levels are close, as an L2's two partitions are), or the limit.
  const std::size_t above = std::min(hi + hi / 2, limit);
  r.miss_cycles = measure(above - above % step);
  // Fine: bisection to one step between the last footprint without misses and the first with.
  while (hi - lo > step) {
    std::size_t m = lo + (hi - lo) / 2;
    m -= m % step;
    if (m <= lo) m = lo + step;
    if (misses(measure(m))) hi = m;
    else lo = m;
  }
  r.capacity = r.onset = lo;
  double at_hi = 0;
  for (const auto& [f, v] : r.points)
    if (f == hi) at_hi = v;
  r.next_miss_fraction = miss_fraction(at_hi, r.hit_cycles, r.miss_cycles);
  r.sharp = r.next_miss_fraction > 0.9;
  // Confidence: the jump to the miss level in noise widths, times the share of measurements that
  // agree with one edge between lo and hi.
  std::size_t disagreeing = 0;
  for (const auto& [f, v] : r.points)
    if ((f <= lo && misses(v)) || (f >= hi && !misses(v))) ++disagreeing;
  const double jump = 1.0 - std::exp(-(r.miss_cycles - r.hit_cycles) / (20.0 * std::max(noise_cycles, 0.05)));
  r.confidence = std::max(0.0, jump * (1.0 - 4.0 * double(disagreeing) / double(r.points.size())));
  if (transition_points <= 0) return r;
  // The transition: footprints 3 % apart from the onset, then the fit.
  std::vector<std::pair<double, double>> t;
  for (int i = 0; i <= transition_points; ++i) {
    std::size_t f = std::min(std::size_t(double(lo) * (1.0 + 0.03 * i)), limit);
    f -= f % step;
    if (!t.empty() && double(f) <= t.back().first) continue;
    t.emplace_back(double(f), miss_fraction(measure(f), r.hit_cycles, r.miss_cycles));
  }
  r.transition = t;
  const TransitionFit fit = fit_transition(t, double(step));
  r.fit_rms = fit.rms_error;
  if (fit.capacity > 0 && fit.confidence > 0) {
    r.capacity = std::size_t(fit.capacity);
    r.ways_fit = fit.ways;
    r.confidence *= fit.confidence;
  } else {
    r.confidence *= 0.5;  // no model fits the transition: the onset stands, with less weight
  }
  return r;
}

namespace {

// Average latency of a chase of stride s under fill granularities g1 <= g2 (g1 = 0: one level).
double staircase(double s, int g1, int g2, double near, double middle, double far) {
  const double f2 = std::min(1.0, s / g2);                 // accesses that start a new outer fill
  const double f1 = g1 > 0 ? std::min(1.0, s / g1) : f2;   // ... a new inner fill
  return near * (1 - f1) + middle * (f1 - f2) + far * f2;
}

}  // namespace

FetchFit fit_fetch_granularity(const std::vector<std::pair<double, double>>& curve, double near, double far,
                               bool two_levels) {
  if (curve.size() < 3) throw std::invalid_argument("fit_fetch_granularity: at least 3 strides");
  struct Candidate {
    int g1, g2;
    double middle, rms;
  };
  std::vector<Candidate> all;
  for (int g2 = 4; g2 <= 1024; g2 *= 2)
    for (int g1 = two_levels ? 4 : 0; g1 <= (two_levels ? g2 : 0); g1 = g1 ? g1 * 2 : 1) {
      // The middle level's latency enters linearly: least squares, or the near level (one level).
      double middle = near;
      if (two_levels) {
        double num = 0, den = 0;
        for (const auto& [s, y] : curve) {
          const double f2 = std::min(1.0, s / g2), f1 = std::min(1.0, s / g1);
          const double w = f1 - f2, rest = y - near * (1 - f1) - far * f2;
          num += w * rest, den += w * w;
        }
        middle = den > 0 ? std::clamp(num / den, near, far) : (near + far) / 2;
      }
      double err = 0;
      for (const auto& [s, y] : curve) err += std::pow(y - staircase(s, g1, g2, near, middle, far), 2);
      all.push_back({g1, g2, middle, std::sqrt(err / double(curve.size()))});
      if (!two_levels) break;
    }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.rms < b.rms; });
  FetchFit f;
  f.inner_bytes = all[0].g1;
  f.outer_bytes = all[0].g2;
  f.middle_cycles = all[0].middle;
  f.rms_error = all[0].rms;
  const double span = std::max(far - near, 1.0);
  const double runner_up = all.size() > 1 ? all[1].rms : span;
  // Good when the best fit is within a few % of the span and clearly better than the next.
  f.confidence = std::clamp(1.0 - f.rms_error / (0.05 * span), 0.0, 1.0) *
                 std::clamp((runner_up - f.rms_error) / std::max(runner_up, 1e-9) * 2.0, 0.0, 1.0);
  return f;
}

LineFit infer_line_bytes(std::size_t base, const std::vector<std::pair<std::size_t, std::size_t>>& apparent) {
  LineFit r;
  if (base == 0) return r;
  for (const auto& [stride, cap] : apparent)
    if (double(cap) > 1.1 * double(base)) r.estimates.push_back(double(stride) * double(base) / double(cap));
  if (r.estimates.empty()) return r;
  const double est = median(r.estimates);
  const int line = 1 << int(std::lround(std::log2(est)));
  r.line_bytes = line;
  // Every estimate within 10 % of the power of two: confidence 1; worse agreement lowers it.
  double worst = 0;
  for (double e : r.estimates) worst = std::max(worst, std::abs(e / line - 1.0));
  r.confidence = std::clamp(1.0 - worst / 0.25, 0.0, 1.0) * std::min(1.0, double(r.estimates.size()) / 2.0);
  return r;
}

SetsWays infer_sets_ways(const std::vector<std::pair<std::size_t, std::size_t>>& max_hits, std::size_t capacity,
                         int line_bytes) {
  SetsWays r;
  if (max_hits.size() < 3 || capacity == 0 || line_bytes <= 0) {
    r.note = "too few spacings";
    return r;
  }
  // The floor: the element count of the largest spacings, if at least two agree and it is below
  // the capacity in lines divided by the largest spacing's sets.
  std::vector<std::pair<std::size_t, std::size_t>> h = max_hits;
  std::sort(h.begin(), h.end());
  const std::size_t floor_n = h.back().second;
  std::size_t first_on_floor = h.size() - 1;
  while (first_on_floor > 0 && h[first_on_floor - 1].second == floor_n) --first_on_floor;
  const std::size_t on_floor = h.size() - first_on_floor;
  const double expected_at_largest = double(capacity) / double(h.back().first);
  if (on_floor < 2 || double(floor_n) < 0.9 * expected_at_largest || floor_n == 0) {
    r.note = "no floor in the element count against spacing (hashed set index, or spacings too small)";
    return r;
  }
  // Below the floor's first spacing the count must follow capacity / D (modulo indexing).
  double worst = 0;
  for (std::size_t i = 0; i < first_on_floor; ++i) {
    const double expect = std::max(double(floor_n), double(capacity) / double(h[i].first));
    worst = std::max(worst, std::abs(double(h[i].second) / expect - 1.0));
  }
  if (first_on_floor < 2) {
    r.note = "the element count does not fall as capacity / spacing before a floor (hashed set index?)";
    return r;
  }
  const std::size_t set_span = h[first_on_floor].first;  // sets x line
  r.ways = int(floor_n);
  r.sets = int(set_span / std::size_t(line_bytes));
  const double product = double(r.ways) * double(set_span);
  const double consistent = std::abs(product / double(capacity) - 1.0);
  if (consistent > 0.1 || worst > 0.25) {
    r.note = "no modulo-indexed set structure fits: ways x sets x line is " + std::to_string(int(product)) +
             " B against a capacity of " + std::to_string(capacity) + " B";
    r.ways = r.sets = 0;
    return r;
  }
  r.confidence = std::clamp(1.0 - worst / 0.2, 0.0, 1.0) * std::min(1.0, double(on_floor) / 3.0);
  return r;
}

}  // namespace archbench
