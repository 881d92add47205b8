// Per-warp timelines (pure C++, unit-tested): when each warp of a grid started and finished, on
// which SM, and what that says about block scheduling (van Stigt et al.).
#pragma once
#include <cstdint>
#include <vector>

namespace archbench {

struct WarpRecord {
  std::uint64_t start_ns = 0, end_ns = 0;          // %globaltimer
  std::uint64_t start_cycles = 0, end_cycles = 0;  // clock64 of the warp's SM
  std::uint32_t smid = 0, warpid = 0;              // %smid, %warpid (the warp's slot on the SM)
  std::uint32_t block = 0, warp_in_block = 0;
};

struct TimelineSummary {
  double makespan_ns = 0;             // first warp start to last warp end
  double sm_start_skew_ns = 0;        // first start of the last SM to start - of the first
  double block_finish_spread_ns = 0;  // median over blocks of (last warp end - first warp end)
  double block_finish_spread_max_ns = 0;
  double last_warp_finish_spread_ns = 0;  // first to last warp end, whole grid
  int max_coresident_blocks_per_sm = 0;   // most blocks running on one SM at one time
  int sms_used = 0;
  double waves = 0;  // blocks / (SMs used x max co-resident blocks)
};

// Throws std::invalid_argument on an empty list or a warp that ends before it starts.
TimelineSummary summarize_timeline(const std::vector<WarpRecord>& warps);

}  // namespace archbench
