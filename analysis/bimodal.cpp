#include "analysis/bimodal.hpp"

#include <algorithm>
#include <stdexcept>

#include "analysis/confidence.hpp"
#include "analysis/stats.hpp"

namespace archbench {

BimodalSplit split_bimodal(std::vector<double> s) {
  if (s.size() < 4) throw std::invalid_argument("split_bimodal: needs at least 4 samples");
  std::sort(s.begin(), s.end());
  // The widest gap, ignoring the outer 1 % on each side (outliers make a gap of their own).
  const std::size_t skip = s.size() / 100;
  std::size_t at = skip + 1;
  double widest = -1;
  for (std::size_t i = skip + 1; i + skip < s.size(); ++i)
    if (s[i] - s[i - 1] > widest) {
      widest = s[i] - s[i - 1];
      at = i;
    }
  const std::vector<double> low(s.begin(), s.begin() + at), high(s.begin() + at, s.end());
  BimodalSplit r;
  r.threshold = (s[at - 1] + s[at]) / 2;
  r.low_median = median(low);
  r.high_median = median(high);
  r.low_fraction = double(low.size()) / double(s.size());
  const double spread =
      std::max(percentile(low, 75) - percentile(low, 25), percentile(high, 75) - percentile(high, 25));
  r.separation = (r.high_median - r.low_median) / std::max(spread, 1.0);
  // Each group's standard deviation from its IQR (at least a thousandth of the scale, so that
  // identical samples do not make it 0).
  const double floor = 1e-3 * std::max(std::abs(r.high_median), 1.0);
  const double sd_low = std::max((percentile(low, 75) - percentile(low, 25)) / 1.349, floor);
  const double sd_high = std::max((percentile(high, 75) - percentile(high, 25)) / 1.349, floor);
  // Two groups: their medians lie at least 4 robust standard deviations (1.4826 x the larger
  // group's median absolute deviation) apart. One Gaussian group cut at its widest gap reads
  // about 2 (halves) or less (a tail cut off); a few samples between two groups, as contention
  // puts between an L2's near and far latencies, move neither median nor MAD.
  const auto mad = [](const std::vector<double>& v) {
    const double m = median(v);
    std::vector<double> d;
    for (double x : v) d.push_back(std::abs(x - m));
    return 1.4826 * median(d);
  };
  const double robust_sd = std::max({mad(low), mad(high), floor});
  r.robust_separation = (r.high_median - r.low_median) / robust_sd;
  const bool two_groups = r.robust_separation >= 4 && r.low_fraction >= 0.02 && r.low_fraction <= 0.98;
  if (two_groups) {
    const double wrong = r.low_fraction * (1 - normal_cdf((r.threshold - r.low_median) / sd_low)) +
                         (1 - r.low_fraction) * (1 - normal_cdf((r.high_median - r.threshold) / sd_high));
    r.confidence = std::clamp(1 - wrong, 0.0, 1.0);
  }
  return r;
}

double queued_probe_cap(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::nth_element(samples.begin(), samples.begin() + std::ptrdiff_t(samples.size() / 10), samples.end());
  return 2 * samples[samples.size() / 10];
}

}  // namespace archbench
