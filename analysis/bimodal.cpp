#include "analysis/bimodal.hpp"

#include <algorithm>
#include <stdexcept>

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
  const double spread = std::max(percentile(low, 75) - percentile(low, 25), percentile(high, 75) - percentile(high, 25));
  r.separation = (r.high_median - r.low_median) / std::max(spread, 1.0);
  return r;
}

}  // namespace archbench
