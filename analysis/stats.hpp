// Small order statistics used by every feature (pure C++).
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

namespace archbench {

// Linear-interpolated percentile p in [0, 100]; NaN for an empty sample.
inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * double(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

inline double median(std::vector<double> v) { return percentile(std::move(v), 50.0); }

// Arithmetic mean; NaN for an empty sample.
inline double mean(const std::vector<double>& v) {
  if (v.empty()) return std::nan("");
  double sum = 0;
  for (double x : v) sum += x;
  return sum / double(v.size());
}

// Sample standard deviation (n - 1); 0 for fewer than two values.
inline double sample_sd(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double m = mean(v);
  double var = 0;
  for (double x : v) var += (x - m) * (x - m);
  return std::sqrt(var / double(v.size() - 1));
}

// Median over a list of measurements of one quantity of each: median_of(runs, [](auto& m) { ... }).
template <class Runs, class Field>
double median_of(const Runs& runs, Field field) {
  std::vector<double> v;
  for (const auto& m : runs) v.push_back(double(field(m)));
  return median(std::move(v));
}

}  // namespace archbench
