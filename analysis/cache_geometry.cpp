#include "analysis/cache_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "analysis/confidence.hpp"
#include "analysis/stats.hpp"

namespace archbench {

ReplacementEvidence classify_replacement(double m, double sd) {
  ReplacementEvidence e;
  e.miss_fraction_at_1_5x = m;
  // LRU-like: 0.9-1 (1 under a modulo index; a hashed index leaves a few sets under W, more
  // of them the fewer the ways and sets: 0.9 at 8 ways of 32 sets); random: 0.5-0.7.
  struct Model {
    const char* name;
    double mean, spread;
  };
  const Model models[2] = {{"LRU-like", 0.965, 0.035}, {"random-like", 0.6, 0.05}};
  double log_l[2], z[2];
  for (int k = 0; k < 2; ++k) {
    const double s = std::hypot(models[k].spread, sd);
    z[k] = (m - models[k].mean) / s;
    log_l[k] = -0.5 * z[k] * z[k] - std::log(s);
  }
  const int pick = log_l[0] >= log_l[1] ? 0 : 1;
  if (std::abs(z[pick]) > 3) {
    e.policy = "undetermined";
    return e;
  }
  e.policy = models[pick].name;
  e.confidence = 1.0 / (1.0 + std::exp(log_l[1 - pick] - log_l[pick]));
  return e;
}

SharingVerdict decide_shared_store(const std::vector<double>& alone, const std::vector<double>& together) {
  if (alone.empty() || together.empty()) throw std::invalid_argument("decide_shared_store: no measurements");
  const auto sd_of_median = [](const std::vector<double>& v) {
    double m = mean(v), var = 0;
    for (double x : v) var += (x - m) * (x - m);
    // sqrt(pi/2) x the mean's standard error; at least 0.2 % of the level (a repeat that reads
    // the same cycles again does not make the noise 0).
    const double sd = v.size() > 1 ? std::sqrt(var / double(v.size() - 1)) : 0.0;
    return std::max(1.2533 * sd / std::sqrt(double(v.size())), 0.002 * m);
  };
  SharingVerdict r;
  const double a = median(alone), t = median(together);
  r.rise_cycles = t - a;
  const double threshold = 0.25 * a;
  r.shared = r.rise_cycles > threshold;
  r.confidence = side_probability(r.rise_cycles, threshold, std::hypot(sd_of_median(alone), sd_of_median(together)));
  return r;
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
  if (n <= 0) return 0;
  const double lambda = double(ways) * n / c;
  // P(Poisson(lambda) >= ways), summing the smaller tail from the mode outwards in log space;
  // terms past 1e-17 of the sum are dropped (the fit calls this millions of times).
  double sum = 0;
  if (double(ways) > lambda) {  // the upper tail, k >= ways, falls from k = ways on
    double t = std::exp(-lambda + ways * std::log(lambda) - std::lgamma(double(ways) + 1));
    for (int k = ways; t > 1e-17 * sum && t > 0; ++k) sum += t, t *= lambda / double(k + 1);
    return std::clamp(sum, 0.0, 1.0);
  }
  // The lower tail, k < ways, falls from k = ways - 1 down.
  double t = std::exp(-lambda + (ways - 1) * std::log(lambda) - std::lgamma(double(ways)));
  for (int k = ways - 1; k >= 0 && t > 1e-17 * sum && t > 0; --k) sum += t, t *= double(k) / lambda;
  return std::clamp(1.0 - sum, 0.0, 1.0);
}

double modulo_miss_fraction(double n, double c, int ways) {
  if (n <= c) return 0;
  return std::min(1.0, (n - c) * double(ways + 1) / n);
}

TransitionFit fit_transition(const std::vector<std::pair<double, double>>& pts, double line, double point_sd) {
  TransitionFit best;
  if (pts.size() < 3 || line <= 0) return best;
  double lo = 1e300, hi = 0;
  for (const auto& [f, m] : pts) lo = std::min(lo, f), hi = std::max(hi, f);
  // Every model on a grid: capacities 0.2 % apart (a flat prior in log C) by index (hashed or
  // modulo) by W (4 to 1024 ways: no GPU cache has fewer than 4).
  struct Cell {
    double c;
    int ways;
    bool modulo;
    double sse;
  };
  const auto model = [line](const Cell& m, double f) {
    return m.modulo ? modulo_miss_fraction(f / line, m.c / line, m.ways)
                    : hashed_miss_fraction(f / line, m.c / line, m.ways);
  };
  std::vector<Cell> cells;
  for (double c = 0.7 * lo; c <= 1.3 * hi; c *= 1.002)
    for (int index = 0; index < 2; ++index)
      for (int w = 4; w <= 1024; w *= 2) {
        Cell m{c, w, index == 1, 0};
        for (const auto& [f, y] : pts) m.sse += (model(m, f) - y) * (model(m, f) - y);
        cells.push_back(m);
      }
  const Cell& b =
      *std::min_element(cells.begin(), cells.end(), [](const Cell& x, const Cell& y) { return x.sse < y.sse; });
  best.capacity = std::round(b.c / line) * line;
  best.ways = b.ways;
  best.modulo_index = b.modulo;
  best.rms_error = std::sqrt(b.sse / double(pts.size()));
  // A best C on the grid's edge says the transition measured does not hold the capacity.
  if (b.c <= 0.7 * lo * 1.002 || b.c * 1.002 > 1.3 * hi) return best;
  // The posterior over every model (C marginalised over index and W), with the residuals'
  // variance (misfit included). Residuals that run in one direction from point to point (a
  // cache's own sets, filled one way by its hash, not measurement noise) are fewer independent
  // errors than points: the variance is widened by (1 + r) / (1 - r), r the lag-1
  // autocorrelation of the residuals. The confidence is the posterior mass within
  // kCapacityTolerance of the best C.
  double num = 0, den = 0, previous = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const double res = pts[i].second - model(b, pts[i].first);
    den += res * res;
    if (i > 0) num += res * previous;
    previous = res;
  }
  const double r = den > 0 ? std::clamp(num / den, 0.0, 0.9) : 0.0;
  const double variance = residual_variance(b.sse, pts.size(), 2, point_sd) * (1 + r) / (1 - r);
  std::vector<double> sse;
  for (const Cell& m : cells) sse.push_back(m.sse);
  const std::vector<double> w = posterior_from_sse(sse, variance);
  for (std::size_t k = 0; k < cells.size(); ++k)
    if (std::abs(cells[k].c / b.c - 1.0) <= kCapacityTolerance) best.confidence += w[k];
  best.confidence = std::clamp(best.confidence, 0.0, 1.0);
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
                             double noise_cycles, int transition_points, int miss_level_steps) {
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
  const double threshold = r.hit_cycles + onset;
  const auto misses = [threshold](double v) { return v > threshold; };
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
  // it when levels are close, as an L2's two partitions are), or the limit; at most
  // miss_level_steps 10 % steps further while the latency still rises, by less each step (the
  // end of a hashed index's ramp: 32 ways miss 80 % at 1.14x their capacity). Not further: the
  // next level's own rise (DRAM's, with TLB misses at wide strides) would pass for this one's.
  const auto aligned = [step, limit](double x) {
    const std::size_t v = std::min(std::size_t(x), limit);
    return std::max(step, v - v % step);
  };
  std::size_t above = aligned(1.5 * double(hi));
  double at_above = measure(above), previous_rise = 1e300;
  for (int k = 0; k < miss_level_steps; ++k) {
    const std::size_t next = std::max(above + step, aligned(1.1 * double(above)));
    if (next > limit) break;
    const double at_next = measure(next), rise = at_next - at_above;
    if (rise <= std::max(3 * noise_cycles, 0.02 * at_above) || rise > previous_rise) break;
    previous_rise = rise;
    above = next, at_above = at_next;
  }
  r.miss_cycles = at_above;
  // Fine: bisection to one step between the last footprint without misses and the first with.
  while (hi - lo > step) {
    std::size_t m = lo + (hi - lo) / 2;
    m -= m % step;
    if (m <= lo) m = lo + step;
    if (misses(measure(m)))
      hi = m;
    else
      lo = m;
  }
  r.capacity = r.onset = lo;
  // The levels the miss fractions are read between: the hit level from every footprint read as
  // no miss, the miss level from three reads (one noisy read of either shifts every fraction
  // alike, and the fit's C with them).
  {
    std::vector<double> hits;
    for (const auto& [f, v] : r.points)
      if (f <= lo) hits.push_back(v);
    r.hit_cycles = median(hits);
    r.miss_cycles = median({r.miss_cycles, measure(above), measure(above)});
  }
  double at_hi = 0;
  for (const auto& [f, v] : r.points)
    if (f == hi) at_hi = v;
  r.next_miss_fraction = miss_fraction(at_hi, r.hit_cycles, r.miss_cycles);
  r.sharp = r.next_miss_fraction > 0.9;
  r.noise_cycles = noise_cycles;
  // Without a transition to fit, the onset is the capacity (a modulo index, or a fully
  // associative cache): it is right when the two footprints that bracket it were read on the
  // right side of the miss threshold.
  double at_lo = r.hit_cycles;
  for (const auto& [f, v] : r.points)
    if (f == lo) at_lo = v;
  const double bracket =
      side_probability(at_lo, threshold, noise_cycles) * side_probability(at_hi, threshold, noise_cycles);
  if (transition_points <= 0) {
    r.confidence = bracket;
    return r;
  }
  // The transition: footprints 3 % apart up to the onset and on until two in a row miss 80 % (past
  // the half-miss point, which pins C for any W: a hashed index of 16 ways starts missing at
  // 0.55 C), at most transition_points of them; then the fit.
  std::vector<std::pair<double, double>> t;
  int past = 0;
  // It starts five steps below the onset: under noise the onset is read late, and the fit needs
  // the foot of the transition to place C.
  for (int i = -5; i < transition_points && past < 2; ++i) {
    std::size_t f = std::min(std::size_t(double(lo) * std::pow(1.03, i)), limit);
    if (f < start) continue;
    f -= f % step;
    if (!t.empty() && double(f) <= t.back().first) {
      if (f >= limit - limit % step) break;
      continue;
    }
    // Unclamped: clamping noisy fractions at 0 and 1 would bias the fit.
    t.emplace_back(double(f), (measure(f) - r.hit_cycles) / std::max(r.miss_cycles - r.hit_cycles, 1e-9));
    past = t.back().second >= 0.8 && t.size() >= 4 ? past + 1 : 0;
  }
  r.transition = t;
  // Is the miss level the whole of it? It should lie on a plateau: 10 % below or 10 % above it
  // (the next level's rise can begin right after it: an L2's far partition ends in DRAM's) the
  // latency should differ by little. A ramp that goes on through it (a hashed index of few
  // ways, whose misses start at half its capacity) leaves every fraction scaled too high, and
  // the fit cannot be trusted.
  const double span = std::max(r.miss_cycles - r.hit_cycles, 1e-9);
  const std::size_t below = std::max(step, std::size_t(double(above) / 1.1) / step * step);
  const std::size_t further = std::min(above + above / 10, limit) / step * step;
  const double rise_below = below < above && below > lo ? std::abs(r.miss_cycles - measure(below)) / span : 1.0;
  const double rise_above = further > above ? std::abs(measure(further) - r.miss_cycles) / span : 1.0;
  const double still_rising = std::min(rise_below, rise_above);
  const TransitionFit fit = fit_transition(t, double(step), noise_cycles / span);
  r.fit_rms = fit.rms_error;
  if (fit.capacity > 0 && fit.confidence > 0) {
    r.capacity = std::size_t(fit.capacity);
    r.ways_fit = fit.ways;
    r.confidence = still_rising > 0.1 ? 0.0 : fit.confidence;
  } else {
    r.confidence = 0;  // no model fits the transition: the onset stands, but it is not the capacity
  }
  return r;
}

namespace {

// Average latency of a chase of stride s under fill granularities g1 <= g2 (g1 = 0: one level).
double staircase(double s, int g1, int g2, double near, double middle, double far) {
  const double f2 = std::min(1.0, s / g2);                // accesses that start a new outer fill
  const double f1 = g1 > 0 ? std::min(1.0, s / g1) : f2;  // ... a new inner fill
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
        // A middle level is a level of its own: at least a tenth of the span from either end
        // (at an end, every g1 below g2 would draw the one-level curve, and none could win).
        const double margin = 0.1 * (far - near);
        middle = den > 0 ? std::clamp(num / den, near + margin, far - margin) : (near + far) / 2;
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
  // The posterior over the candidate staircases from their residuals (noise: the best fit's
  // residual variance, at least 0.2 % of the span: the chase's own resolution).
  const double span = std::max(far - near, 1.0);
  const std::size_t n = curve.size(), params = two_levels ? 3 : 1;
  std::vector<double> sse;
  for (const Candidate& c : all) sse.push_back(c.rms * c.rms * double(n));
  f.confidence = posterior_from_sse(sse, residual_variance(sse[0], n, params, 0.002 * span))[0];
  return f;
}

LineFit infer_line_bytes(std::size_t base_stride, std::size_t base,
                         const std::vector<std::pair<std::size_t, std::size_t>>& apparent) {
  LineFit r;
  if (base == 0 || base_stride == 0 || apparent.empty()) return r;
  std::size_t largest = base_stride;
  for (const auto& [stride, cap] : apparent) {
    if (cap == 0) return r;
    largest = std::max(largest, stride);
    if (double(cap) > 1.1 * double(base)) r.estimates.push_back(double(stride) * double(base) / double(cap));
  }
  // Log capacities against the stride, the base among them.
  std::vector<std::pair<double, double>> points{{double(base_stride), std::log(double(base))}};
  for (const auto& [stride, cap] : apparent) points.emplace_back(double(stride), std::log(double(cap)));
  // Candidates: powers of two from the base stride (which stands for every line up to it: they
  // predict the same) to the first at or above the largest stride (every larger one predicts no
  // growth at all).
  std::vector<double> lines, sse;
  for (double line = double(base_stride);; line *= 2) {
    const auto predicted = [&](double s) { return std::log(std::max(1.0, s / line)); };
    double offset = 0;
    for (const auto& [s, y] : points) offset += y - predicted(s);
    offset /= double(points.size());
    double e2 = 0;
    for (const auto& [s, y] : points) e2 += std::pow(y - offset - predicted(s), 2);
    lines.push_back(line);
    sse.push_back(e2);
    if (line >= double(largest)) break;
  }
  // 3 % per capacity (the capacity searches' tolerance) at the least.
  const std::size_t best = std::size_t(std::min_element(sse.begin(), sse.end()) - sse.begin());
  const std::vector<double> post = posterior_from_sse(sse, residual_variance(sse[best], points.size(), 1, 0.03));
  const bool at_edge = best == 0 || best + 1 == lines.size();
  r.line_bytes = best + 1 == lines.size() ? 0 : int(lines[best]);
  r.confidence = at_edge ? 0 : post[best];
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
  // The readings' relative noise: the spread of the descent's readings x spacing / capacity (their
  // common factor is the capacity's own error, not noise), at least 0.1 %.
  std::vector<double> rel;
  for (std::size_t i = 0; i < first_on_floor; ++i)
    rel.push_back(double(h[i].second) * double(h[i].first) / double(capacity));
  const double m = mean(rel);
  double var = 0;
  for (double x : rel) var += (x - m) * (x - m);
  const double sigma = std::max(0.001, std::sqrt(var / double(rel.size() - 1)));
  // Right: the ways (the floor's count, read on_floor times) and the sets (the knee: the last
  // descent reading, 2 W, and the first floor reading, W, each on its side of 1.5 W).
  const double ways_right = 2 * normal_cdf(0.5 * std::sqrt(double(on_floor)) / (sigma * double(floor_n))) - 1;
  const double knee_right = normal_cdf(0.25 / sigma) * normal_cdf(0.5 / sigma);
  r.confidence = ways_right * knee_right;
  return r;
}

double student_t_within(double t, int dof) {
  t = std::abs(t);
  if (dof < 1 || !(t > 0)) return 0;
  if (!std::isfinite(t)) return 1;
  // With t = sqrt(nu) tan(theta) the density becomes c cos^(nu - 1)(theta) over a bounded range:
  // Simpson's rule there, with no tail to cut off.
  const double nu = dof;
  const double c = std::exp(std::lgamma((nu + 1) / 2) - std::lgamma(nu / 2)) / std::sqrt(M_PI);
  const double upper = std::atan(t / std::sqrt(nu));
  constexpr int kSteps = 2000;
  const double h = upper / kSteps;
  const auto f = [&](double theta) { return std::pow(std::cos(theta), nu - 1); };
  double sum = f(0) + f(upper);
  for (int i = 1; i < kSteps; ++i) sum += f(i * h) * (i % 2 ? 4 : 2);
  return std::min(1.0, 2 * c * sum * h / 3);
}

ZigzagCapacity capacity_from_zigzag(const std::vector<std::pair<double, double>>& points, double hit_cycles,
                                    double hit_noise_cycles) {
  ZigzagCapacity z;
  const std::size_t k = points.size();
  if (k < 3) return z;
  // Least squares of T = a + b n, T = cycles per step x n (the cycles of one pass).
  double sn = 0, st = 0;
  for (const auto& [n, c] : points) sn += n, st += n * c;
  const double mn = sn / double(k), mt = st / double(k);
  double sxx = 0, sxy = 0;
  for (const auto& [n, c] : points) sxx += (n - mn) * (n - mn), sxy += (n - mn) * (n * c - mt);
  if (!(sxx > 0)) return z;
  const double b = sxy / sxx, a = mt - b * mn;
  double sse = 0, sse_per_step = 0;
  for (const auto& [n, c] : points) {
    const double e = n * c - a - b * double(n);
    sse += e * e;
    sse_per_step += (e / n) * (e / n);
  }
  z.miss_cycles = b;
  z.rms_cycles = std::sqrt(sse_per_step / double(k));
  const double gap = hit_cycles - b;  // negative: a miss costs more than a hit
  if (!(gap < 0)) return z;
  z.lines = a / gap;
  // Standard errors of a and b (residual variance with k - 2 degrees of freedom) and their
  // covariance, carried into H = a / (hit - b) with the hit level's own noise.
  const double s2 = sse / double(k - 2);
  const double var_b = s2 / sxx, var_a = s2 * (1.0 / double(k) + mn * mn / sxx), cov_ab = -mn * s2 / sxx;
  const double da = 1 / gap, db = a / (gap * gap), dh = -a / (gap * gap);
  const double var_h =
      da * da * var_a + db * db * var_b + 2 * da * db * cov_ab + dh * dh * hit_noise_cycles * hit_noise_cycles;
  z.sd_lines = std::sqrt(std::max(var_h, 0.0));
  if (!(z.lines > 0)) return z;
  z.confidence = z.sd_lines > 0 ? student_t_within(kCapacityTolerance * z.lines / z.sd_lines, int(k - 2)) : 1.0;
  return z;
}

}  // namespace archbench
