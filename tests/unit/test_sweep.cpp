#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fixtures/harness/sweep.hpp"
#include "kernels/bandwidth.hpp"

using namespace archbench;

TEST(LogSweep, EndpointsSortedUniqueAligned) {
  const auto v = log_sweep(1024, 200u << 20, 2, {}, 128);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.front(), 1024u);
  EXPECT_EQ(v.back(), 200u << 20);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(std::adjacent_find(v.begin(), v.end()), v.end());
  for (auto x : v) EXPECT_EQ(x % 128, 0u);
  // ~2 points per octave over log2(200 Mi / 1 Ki) = 17.6 octaves
  EXPECT_GE(v.size(), 35u);
  EXPECT_LE(v.size(), 38u);
}

TEST(LogSweep, DenserInsideDenseRegions) {
  const std::size_t l2 = 50u << 20;
  const auto v = log_sweep(1024, 4 * l2, 2, {{l2 / 4, 2 * l2, 8}}, 128);
  const auto in = [&](std::size_t lo, std::size_t hi) {
    return std::count_if(v.begin(), v.end(), [&](std::size_t x) { return x >= lo && x <= hi; });
  };
  EXPECT_GE(in(l2 / 4, 2 * l2), 3 * 8);  // three octaves at 8 per octave
  EXPECT_LE(in(1024, 8192), 3 * 2 + 1);  // three octaves at 2 per octave
}

TEST(LogSweep, RejectsBadInput) {
  EXPECT_THROW(log_sweep(0, 10, 1, {}, 4), std::invalid_argument);
  EXPECT_THROW(log_sweep(100, 10, 1, {}, 4), std::invalid_argument);
  EXPECT_THROW(log_sweep(4, 1024, 0, {}, 4), std::invalid_argument);
}

TEST(Pow2Sweep, FourBytesToTwoMiB) {
  const auto v = pow2_sweep(4, 2u << 20);
  EXPECT_EQ(v.size(), 20u);
  EXPECT_EQ(v.front(), 4u);
  EXPECT_EQ(v.back(), 2u << 20);
}

TEST(HumanBytes, Units) {
  EXPECT_EQ(human_bytes(512), "512 B");
  EXPECT_EQ(human_bytes(16384), "16 KiB");
  EXPECT_EQ(human_bytes(50u << 20), "50 MiB");
  EXPECT_EQ(human_bytes(1536u << 10), "1.5 MiB");
  EXPECT_EQ(human_bytes(std::size_t(1) << 50), "1 PiB");
}

TEST(Sweep, NoPointSitsInACachesTransition) {
  const std::size_t l2 = 50u << 20;
  const auto in = log_sweep(1024, 4 * l2, 2, {{l2 / 4, 2 * l2, 4}}, 128);
  const auto v = off_the_cliffs(in, {l2}, 0.2, 0.1, 128);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(std::adjacent_find(v.begin(), v.end()), v.end());
  const std::size_t lo_edge = std::size_t(0.8 * double(l2)) / 128 * 128;
  const std::size_t hi_edge = (std::size_t(std::ceil(1.1 * double(l2))) + 127) / 128 * 128;
  for (std::size_t f : v) {
    EXPECT_TRUE(f <= lo_edge || f >= hi_edge) << f;
    EXPECT_EQ(f % 128, 0u) << f;
  }
  // 50 MiB itself was in the sweep: it went to the nearer end (above), 0.85x to the lower end;
  // points outside the transition stay where they were.
  ASSERT_NE(std::find(in.begin(), in.end(), l2), in.end());
  EXPECT_NE(std::find(v.begin(), v.end(), hi_edge), v.end());
  EXPECT_NE(std::find(v.begin(), v.end(), lo_edge), v.end());
  for (std::size_t f : in) {
    if (double(f) < 0.8 * double(l2) || double(f) > 1.1 * double(l2)) {
      EXPECT_NE(std::find(v.begin(), v.end(), f), v.end()) << f;
    }
  }
  EXPECT_THROW(off_the_cliffs(v, {l2}, 0.0, 0.1, 128), std::invalid_argument);
  EXPECT_THROW(off_the_cliffs(v, {l2}, 0.2, 0.0, 128), std::invalid_argument);
}

TEST(SpreadRank, ChoosesSmsEvenlyAndFindsTheirRank) {
  // 8 of 132 SMs: SM floor(r * 132 / 8).
  const std::vector<std::uint32_t> chosen = {0, 16, 33, 49, 66, 82, 99, 115};
  std::vector<std::uint32_t> found;
  for (std::uint32_t s = 0; s < 132; ++s)
    if (const int r = archbench::spread_rank(s, 8, 132); r >= 0) {
      EXPECT_EQ(std::size_t(r), found.size()) << s;
      found.push_back(s);
    }
  EXPECT_EQ(found, chosen);
  // Every n from 1 to the SM count chooses exactly n distinct SMs; n = all chooses every SM.
  for (std::uint32_t n = 1; n <= 132; ++n) {
    int count = 0;
    for (std::uint32_t s = 0; s < 132; ++s) count += archbench::spread_rank(s, n, 132) >= 0;
    EXPECT_EQ(count, int(n)) << n;
  }
  EXPECT_EQ(archbench::spread_rank(132, 8, 132), -1);
  EXPECT_EQ(archbench::spread_rank(0, 0, 132), -1);
}
