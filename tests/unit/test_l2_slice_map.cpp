// The L2 as a map (analysis/l2_slice_map.hpp): slices found from synthetic SM x line latencies
// with noise, the additive fit, GPCs from clusters and from the map.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "analysis/l2_slice_map.hpp"

using namespace archbench;

namespace {

// sms SMs in gpcs GPCs, `slices` slices, lines in 256 B granules (pairs of lines) spread over the
// slices by a fixed shuffle; latency = 280 + SM term + slice term + a GPC-slice distance (0-12
// cycles, drawn once per pair: what tells slices apart, and what no additive model holds) + noise.
struct Synthetic {
  std::size_t sms, lines, slices;
  std::vector<float> map;
  std::vector<std::uint32_t> slice_of_line;
  std::vector<int> gpc_of_sm;
};

Synthetic synthetic(std::size_t sms, std::size_t gpcs, std::size_t slices, std::size_t lines, double noise,
                    std::uint32_t seed) {
  Synthetic s{sms, lines, slices, std::vector<float>(sms * lines), {}, {}};
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, noise);
  std::uniform_real_distribution<double> u(-6.0, 6.0);
  std::vector<double> sm_term(sms), slice_term(slices);
  for (auto& t : sm_term) t = u(rng);
  for (auto& t : slice_term) t = u(rng);
  for (std::size_t m = 0; m < sms; ++m) s.gpc_of_sm.push_back(int(m / 2 % gpcs));  // TPC pairs, GPCs interleaved
  for (std::size_t l = 0; l < lines; ++l) s.slice_of_line.push_back(std::uint32_t((l / 2 * 7919) % slices));
  std::uniform_real_distribution<double> d(0.0, 12.0);
  std::vector<double> distance(gpcs * slices);
  for (auto& x : distance) x = d(rng);
  for (std::size_t m = 0; m < sms; ++m)
    for (std::size_t l = 0; l < lines; ++l) {
      const std::uint32_t sl = s.slice_of_line[l];
      const double far = distance[std::size_t(s.gpc_of_sm[m]) * slices + sl];
      s.map[m * lines + l] = float(280 + sm_term[m] + slice_term[sl] + far + n(rng));
    }
  return s;
}

}  // namespace

TEST(L2SliceMap, FindsEverySliceAndGroupsItsLines) {
  const Synthetic s = synthetic(32, 8, 12, 1536, 0.5, 1);
  const L2SliceMap m = group_l2_slices(s.map, s.sms, s.lines, 2.0, 3);
  ASSERT_EQ(m.groups, 12u);
  // Lines of one slice share a group, and no group holds two slices.
  std::vector<int> group_of_slice(12, -1);
  for (std::size_t l = 0; l < s.lines; ++l) {
    int& g = group_of_slice[s.slice_of_line[l]];
    if (g < 0) g = int(m.line_group[l]);
    EXPECT_EQ(int(m.line_group[l]), g) << "line " << l;
  }
  std::vector<int> seen(12, 0);
  for (int g : group_of_slice) EXPECT_EQ(++seen[std::size_t(g)], 1);
  // The additive part explains most; the GPC-slice distances (about a third of the variance
  // here) are what the fit leaves.
  EXPECT_GT(m.r_squared, 0.5);
  EXPECT_LT(m.r_squared, 0.95);
  EXPECT_LE(m.min_cycles, m.nearest_median_cycles);
  EXPECT_LT(m.nearest_median_cycles, m.median_cycles);
  EXPECT_LT(m.median_cycles, m.farthest_median_cycles);
  EXPECT_LE(m.farthest_median_cycles, m.max_cycles);
}

TEST(L2SliceMap, AnSmThatDidNotRunIsLeftOut) {
  Synthetic s = synthetic(16, 8, 6, 768, 0.3, 2);
  for (std::size_t l = 0; l < s.lines; ++l) s.map[3 * s.lines + l] = 0;  // SM 3: no block reached it
  const L2SliceMap m = group_l2_slices(s.map, s.sms, s.lines, 2.0, 3);
  EXPECT_EQ(m.groups, 6u);
  EXPECT_EQ(m.sm_term[3], 0.0);
  EXPECT_EQ(m.cycles[3][0], 0.0);
  EXPECT_THROW(group_l2_slices(std::vector<float>(10, 0.f), 2, 5, 3.0, 1), std::invalid_argument);
  EXPECT_THROW(group_l2_slices(s.map, s.sms, s.lines + 1, 3.0, 3), std::invalid_argument);
}

TEST(L2SliceMap, GpcsFromClusters) {
  const Synthetic s = synthetic(16, 2, 8, 1024, 0.3, 3);
  const L2SliceMap m = group_l2_slices(s.map, s.sms, s.lines, 2.0, 3);
  // GPC 0 holds SMs 0,1,4,5,8,9,12,13; GPC 1 the others. Clusters saw all but SMs 12 and 13,
  // which only ever shared a cluster with each other: their GPC stays unknown.
  const std::vector<std::vector<std::uint32_t>> clusters = {
      {0, 1, 4, 5}, {4, 5, 8, 9}, {2, 3, 6, 7}, {6, 7, 10, 11, 14, 15}, {12, 13}};
  const GpcGroups g = group_gpcs(s.sms, clusters, 2);
  ASSERT_EQ(g.count, 2u);
  EXPECT_EQ(g.by_cluster, 14u);
  EXPECT_EQ(g.unknown, 2u);
  EXPECT_EQ(g.gpc[12], -1);
  EXPECT_EQ(g.gpc[13], -1);
  for (std::size_t a = 0; a < 12; ++a)
    for (std::size_t b = 0; b < 12; ++b)
      EXPECT_EQ(g.gpc[a] == g.gpc[b], s.gpc_of_sm[a] == s.gpc_of_sm[b]) << a << " " << b;
  // An SM in no cluster at all has no GPC either.
  const GpcGroups one = group_gpcs(s.sms, {{0, 1, 4}}, 2);
  EXPECT_EQ(one.count, 1u);
  EXPECT_EQ(one.gpc[2], -1);
  EXPECT_EQ(one.unknown, 0u);  // SM 2 was seen in no cluster
}

TEST(L2SliceMap, TpcPairsFromClustersOfTwo) {
  // Clusters of two, one block per SM, as an H200 places them: on SMs 2k and 2k+1.
  const TpcPairs t = pair_tpcs(8, {{0, 1}, {3, 2}, {0, 1}, {6, 7}, {4, 4}, {9, 1}});
  EXPECT_EQ(t.pairs, 3u);
  EXPECT_EQ(t.partner[0], 1);
  EXPECT_EQ(t.partner[1], 0);
  EXPECT_EQ(t.partner[2], 3);
  EXPECT_EQ(t.partner[4], -1);  // both blocks on one SM: no pair; SM 9 does not exist
  EXPECT_EQ(t.conflicts, 0u);
  // An SM paired with two different SMs has no partner.
  const TpcPairs c = pair_tpcs(4, {{0, 1}, {0, 2}});
  EXPECT_EQ(c.partner[0], -1);
  EXPECT_EQ(c.conflicts, 1u);
  EXPECT_EQ(c.pairs, 0u);
}
