// The L2 as a map: every SM's hit latency to every line, grouped into the slices that hold them,
// an additive model (SM term + slice term) fitted to it, and the SMs grouped into GPCs (pure C++,
// unit-tested on synthetic maps).
//
// A line's latency vector over the SMs is the slice's signature: lines of one slice read alike
// from every SM (within the map's noise), lines of two slices differ from some SM. Lines whose
// vectors lie within `radius` (RMS over SMs, after each SM's mean is taken out) of a leader's join
// its group; groups of fewer than min_lines lines are noise and join the nearest large group. Two
// slices that read alike from every SM stay one group: the count is of what the latency can tell
// apart, at most the slices.
//
// A two-partition L2 (Hopper) serves an ld.cg hit from the copy in the SM's own partition, so a
// line's slice is one per partition and the SMs fall in two sides that see the slices
// differently. The additive model is fitted per side: cycles[s][g] ~ grand + sm_term[s] +
// side_group_term[side(s)][g]. On an H200 it explains 84-86 % of the variance within each side (one
// additive model over both sides: 12 %); an L40's single-partition L2 read R^2 0.87 (arXiv
// 2606.22588).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace archbench {

struct L2SliceMap {
  std::size_t sms = 0, groups = 0;
  std::vector<std::uint32_t> line_group;    // per line
  std::vector<std::size_t> group_lines;     // lines per group
  std::vector<std::vector<double>> cycles;  // [sm][group]: mean latency (0 for an SM that did not run)
  // The SMs' sides (-1 for an SM that did not run) and the additive fit per side.
  std::size_t sides = 1;
  std::vector<int> sm_side;
  double side_separation = 0;                   // between the sides' centroids / within a side (RMS cycles)
  std::vector<double> sm_term;                  // per SM, within its side
  std::vector<std::vector<double>> group_term;  // [side][group]
  double grand = 0, r_squared = 0, residual_sd_cycles = 0;
  double r_squared_one_side = 0;                                 // the same model with every SM on one side
  double min_cycles = 0, median_cycles = 0, max_cycles = 0;      // over SM x group
  double nearest_median_cycles = 0, farthest_median_cycles = 0;  // median over SMs of each SM's nearest, farthest group
};

// map[s * lines + l]: cycles of SM s to line l (an SM row of zeros: it did not run). The SMs are
// split in two sides when two groups of their rows (each SM's mean taken out) lie more than
// min_side_separation times their own spread apart (an H200: 4.5). Throws std::invalid_argument on
// a bad shape or when no SM ran.
L2SliceMap group_l2_slices(const std::vector<float>& map, std::size_t sms, std::size_t lines, double radius_cycles,
                           std::size_t min_lines, double min_side_separation = 2.0);

// SMs grouped into GPCs: blocks of one cluster run in one GPC, so SMs seen in one cluster share
// it (the union of every launch's clusters: cluster_sms[c] lists the SMs of one cluster). A group
// of at most `small` SMs (a TPC that only ever shared a cluster with itself) is no GPC: its SMs
// get -1 and count in `unknown`. The map cannot place them: the GPC explains a fraction of a cycle
// of an SM's L2 latency (H200: the GPCs' mean SM terms spread 0.5-0.7 cycles, the SMs' 5.7), and
// placing them by their map rows put 6 of 8 SMs into a GPC that then held 24.
struct GpcGroups {
  std::vector<int> gpc;  // per SM, -1 where unknown
  std::size_t count = 0, by_cluster = 0, unknown = 0;
};
GpcGroups group_gpcs(std::size_t sms, const std::vector<std::vector<std::uint32_t>>& cluster_sms, std::size_t small);

// TPCs from clusters of two blocks, one block per SM: such a cluster lands on the two SMs of one
// TPC (on an H200 every one of 8241 clusters of 2-16 blocks held whole pairs 2k, 2k+1, and the
// clusters of two the 66 pairs). partner[s] = the SM every such cluster paired s with, -1 where s
// was never paired or paired with two different SMs (`conflicts` counts those SMs).
struct TpcPairs {
  std::vector<int> partner;
  std::size_t pairs = 0, conflicts = 0;
};
TpcPairs pair_tpcs(std::size_t sms, const std::vector<std::vector<std::uint32_t>>& clusters_of_two);

}  // namespace archbench
