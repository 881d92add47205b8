// What a throughput kernel records per warp (lane 0), shared by device code and the pure-C++
// analysis: the warp's clock64 and %globaltimer at start and end of its timed loop, its SM, and a
// fold of its results for the self-check.
#pragma once
#include <cstdint>

namespace archbench {

struct WarpTiming {
  std::uint64_t start_cycles = 0, end_cycles = 0;  // clock64 of the warp's SM
  std::uint64_t start_ns = 0, end_ns = 0;          // %globaltimer (comparable across SMs)
  std::uint64_t check = 0;                         // xor of the bit patterns of every chain's result
  std::uint32_t smid = 0;
  std::uint32_t work_units = 0;  // kernels whose warps claim work (dynamic distribution): units done
};

}  // namespace archbench
