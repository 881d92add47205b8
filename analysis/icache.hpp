// Instruction-cache levels from cycles per instruction against the size of a straight-line loop
// body (Scheduling/icache; pure C++, unit-tested on synthetic curves and an H100 curve).
//
// A pass over a body of S instructions costs S x c + o cycles: c per instruction while the body
// fits a cache, o for the loop around it (the taken branch and its refetch, about 28 cycles on an
// H100). o is taken from the two smallest bodies, which fit every cache, so the net cost per
// instruction, (cycles per pass - o) / S, is flat while the body fits and steps up where it
// outgrows a cache: each step is a level, its capacity the largest body still on the plateau.
#pragma once
#include <vector>

#include "analysis/tlb.hpp"

namespace archbench {

struct IcacheSample {
  double instructions = 0;            // body size (ascending)
  double cycles_per_instruction = 0;  // per pass, loop included
};

struct IcacheLevels {
  double loop_overhead_cycles = 0;     // o, per pass
  std::vector<CurvePoint> net;         // x = body bytes, y = net cycles per instruction
  std::vector<CacheLevelStep> levels;  // reach = capacity in bytes of SASS
};

// Throws std::invalid_argument with fewer than 3 samples or sizes not ascending.
IcacheLevels infer_icache_levels(const std::vector<IcacheSample>& samples, double bytes_per_instruction);

}  // namespace archbench
