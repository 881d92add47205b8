// Splits samples that fall into two groups (near and far L2 partition latencies, for example)
// at the widest gap between sorted values (pure C++, unit-tested on synthetic data).
#pragma once
#include <vector>

namespace archbench {

struct BimodalSplit {
  double threshold = 0;  // samples above it are "high"
  double low_median = 0, high_median = 0;
  double low_fraction = 0;  // share of samples below the threshold
  // The gap between the groups' medians over the larger group's spread (interquartile range).
  double separation = 0;
  // The same over 1.4826 x the larger group's median absolute deviation: two groups from 4 up.
  double robust_separation = 0;
  // The probability that a sample is in its right group: 1 - the expected share of samples on
  // the wrong side of the threshold, with each group Gaussian (median, spread from its IQR).
  // 0 when the samples are one group: the medians lie less than 4 robust standard deviations
  // (1.4826 x the larger group's MAD) apart, or a group holds fewer than 2 % of them.
  double confidence = 0;
};

// Throws std::invalid_argument for fewer than 4 samples.
BimodalSplit split_bimodal(std::vector<double> samples);

// L2 partition probes (atomic chains from many SMs at once): a chain that queued behind other
// SMs' probes of the same line reads 2-60x slower than any partition's latency (18 % of an H100
// SM's samples above 1,000 cycles, against 350-670) and says nothing about the line's home.
// Samples above this cap (twice the 10th percentile) are to be left out of a split.
double queued_probe_cap(std::vector<double> samples);

}  // namespace archbench
