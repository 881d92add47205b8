// Timeline summary on a synthetic grid: 2 SMs, 2 blocks at a time per SM, 8 blocks (2 waves),
// 2 warps per block, the second warp of each block finishing 10 ns after the first.
#include <gtest/gtest.h>

#include "analysis/timeline.hpp"

namespace archbench {
namespace {

std::vector<WarpRecord> grid() {
  std::vector<WarpRecord> w;
  for (std::uint32_t b = 0; b < 8; ++b) {
    const std::uint32_t sm = b % 2, wave = b / 4;
    const std::uint64_t start = 1000 + wave * 200 + sm * 5;  // SM 1 starts 5 ns late
    for (std::uint32_t k = 0; k < 2; ++k) w.push_back({start, start + 190 + 10 * k, 0, 0, sm, k, b, k});
  }
  return w;
}

TEST(Timeline, WavesCoResidencyAndSpreads) {
  const TimelineSummary s = summarize_timeline(grid());
  EXPECT_EQ(s.sms_used, 2);
  EXPECT_EQ(s.max_coresident_blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(s.waves, 2.0);
  EXPECT_DOUBLE_EQ(s.sm_start_skew_ns, 5.0);
  EXPECT_DOUBLE_EQ(s.block_finish_spread_ns, 10.0);
  EXPECT_DOUBLE_EQ(s.makespan_ns, 1405.0 - 1000.0);
  EXPECT_DOUBLE_EQ(s.last_warp_finish_spread_ns, 1405.0 - 1190.0);
}

TEST(Timeline, RejectsEmptyOrBackwardWarps) {
  EXPECT_THROW(summarize_timeline({}), std::invalid_argument);
  EXPECT_THROW(summarize_timeline({{10, 5, 0, 0, 0, 0, 0, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
