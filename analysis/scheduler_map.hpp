// Which warps of a block share an issue scheduler (Jia et al.): two warps that can each issue
// every cycle slow each other down when they share a scheduler, and not otherwise (pure C++,
// unit-tested on synthetic pair slowdowns).
#pragma once
#include <vector>

namespace archbench {

struct PairSlowdown {
  int a = 0, b = 0;     // warp indices in the block
  double slowdown = 1;  // time of the pair / time of one warp alone
};

struct SchedulerMap {
  std::vector<int> group_of_warp;  // scheduler group per warp index (0-based, in order of first warp)
  int groups = 0;
  int modulus = 0;               // k when group = warp % k for every warp, else 0
  double sharing_slowdown = 0;   // median over pairs in one group
  double separate_slowdown = 0;  // median over pairs in different groups
  // The probability that every pair is on its right side of the threshold (one pair on the
  // wrong side joins two groups or splits one), each pair Gaussian about its kind with the
  // kinds' robust spread.
  double confidence = 0;
};

// Pairs whose slowdown is above the midpoint of the largest gap between sorted slowdowns share
// a scheduler; groups are the connected components. `warps`: the block's warp count.
// Throws std::invalid_argument when a pair names a warp outside 0..warps-1 or nothing was measured.
SchedulerMap infer_scheduler_map(const std::vector<PairSlowdown>& pairs, int warps);

}  // namespace archbench
