// What a confidence means in archbench (pure C++).
//
// Every `confidence` the suite reports is a probability: the chance that the reported value is
// the right one (within the tolerance its inference states), under that inference's noise model
// fed with the noise measured in the same run. tests/unit/test_confidence.cpp holds each inference
// to it on simulated caches, TLBs and banks at several noise levels: of the cases reported at
// >= 0.9, at least 95 % are right, and the confidence falls as the noise rises.
//
// The building blocks below turn evidence into such probabilities: which side of a decision
// threshold a noisy measurement truly lies on, and how much of a posterior (from the residuals
// of a least-squares fit) lies near its best value.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace archbench {

inline double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// The probability that a quantity measured at x with Gaussian noise sigma truly lies on x's side
// of threshold t (1 when sigma is 0 and x is not on the threshold).
inline double side_probability(double x, double threshold, double sigma) {
  if (!(sigma > 0)) return x == threshold ? 0.5 : 1.0;
  return normal_cdf(std::abs(x - threshold) / sigma);
}

// A posterior over candidate models from their least-squares residuals: model k has sum of
// squared residuals sse[k] over the same points, with Gaussian noise of variance sigma2, so its
// likelihood is exp(-sse[k] / (2 sigma2)); equal priors. Returns the normalised weights.
inline std::vector<double> posterior_from_sse(const std::vector<double>& sse, double sigma2) {
  std::vector<double> w(sse.size(), 0.0);
  if (sse.empty() || !(sigma2 > 0)) return w;
  const double best = *std::min_element(sse.begin(), sse.end());
  double sum = 0;
  for (std::size_t k = 0; k < sse.size(); ++k) sum += w[k] = std::exp(-(sse[k] - best) / (2 * sigma2));
  for (double& x : w) x /= sum;
  return w;
}

// The noise variance to put in a posterior: the best fit's residual variance (n points, p
// parameters; it includes any misfit of the model, which must widen the posterior), at least
// the measured noise's.
inline double residual_variance(double best_sse, std::size_t points, std::size_t parameters, double measured_sd) {
  const double dof = double(points > parameters ? points - parameters : 1);
  return std::max(best_sse / dof, measured_sd * measured_sd);
}

// Probability that a value estimated as x (in units where the right answer is an integer, such
// as log2 of a power of two) with standard error se rounds to the right integer.
inline double rounding_probability(double x, double se) {
  const double d = x - std::round(x);
  if (!(se > 0)) return std::abs(d) < 0.5 ? 1.0 : 0.5;
  return normal_cdf((0.5 - d) / se) - normal_cdf((-0.5 - d) / se);
}

}  // namespace archbench
