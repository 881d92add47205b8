// Splits samples that fall into two groups (near and far L2 partition latencies, for example)
// at the widest gap between sorted values (pure C++, unit-tested on synthetic data).
#pragma once
#include <vector>

namespace archbench {

struct BimodalSplit {
  double threshold = 0;             // samples above it are "high"
  double low_median = 0, high_median = 0;
  double low_fraction = 0;          // share of samples below the threshold
  // Confidence in the split: the gap between the groups over the larger group's spread
  // (interquartile range); above 3 the groups are cleanly separated. 0 when there is one group.
  double separation = 0;
};

// Throws std::invalid_argument for fewer than 4 samples.
BimodalSplit split_bimodal(std::vector<double> samples);

}  // namespace archbench
