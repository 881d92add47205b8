// Which L2 partition ("side") homes each 128 B line of a buffer and which side each SM sits on,
// from atomic latencies (pure C++, unit-tested on synthetic latencies). Hopper's L2 is two
// partitions: an atomic on a line homed in the SM's own partition returns faster than one that
// crosses to the other. One SM times every line (the reference map); every SM times a sample of
// the lines, and an SM whose near/far verdicts on the sample agree with the reference's sits on
// the reference SM's side, one whose verdicts are the opposite on the other side.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace archbench {

struct L2Sides {
  std::vector<std::uint8_t> line_side;  // per line: 0 = the reference SM's partition, 1 = the other
  std::vector<int> sm_side;             // per SM id: 0, 1, or -1 (not probed)
  double threshold_cycles = 0;          // reference map's near/far split
  double near_fraction = 0;             // share of lines homed on side 0
  double separation = 0;                // reference map: median gap / robust sd of the groups
  double min_sm_agreement = 1;          // worst SM's share of samples that agree with its side
};

// map_cycles[line]: cycles per atomic from the reference SM. sample_cycles[sm][i]: cycles from
// SM `sm` on line i * sample_step (empty for an SM not probed). Returns the assignment, or a
// one-line reason when the latencies do not show two partitions (one group; an SM whose samples
// agree with neither side, below min_agreement).
struct L2SidesResult {
  std::optional<L2Sides> sides;
  std::string why_not;
};
L2SidesResult assign_l2_sides(const std::vector<double>& map_cycles,
                              const std::vector<std::vector<double>>& sample_cycles, std::size_t sample_step,
                              double min_agreement = 0.75);

// Line lists for the partition-local read cases: with `far` false, every line homed on side s is
// given to the SMs on side s (round robin over them, in line order); with `far` true, to the
// SMs on the other side. Lists are cut to a multiple of `group` lines (a warp reads `group` lines
// per access). offsets has sm_side.size() + 1 entries: SM s reads lines[offsets[s] .. offsets[s+1]).
struct LineLists {
  std::vector<std::uint32_t> lines, offsets;
  std::size_t min_per_sm = 0, max_per_sm = 0;  // over the SMs with a side
};
LineLists partition_line_lists(const L2Sides& sides, bool far, std::size_t group);

// Lines 0 .. lines - 1 in contiguous runs, one per SM with a weight > 0 (in SM order), each run's
// length in proportion to its SM's weight, cut to a multiple of `group` lines. offsets has
// weight_by_sm.size() + 1 entries. Throws std::invalid_argument when no SM has a weight.
LineLists weighted_line_lists(const std::vector<double>& weight_by_sm, std::size_t lines, std::size_t group);

}  // namespace archbench
