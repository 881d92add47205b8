// Where single-SM measurements run (analysis/placement.hpp): the reference SM, the typical SM of two
// latencies, the walk SM.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "analysis/line_placement.hpp"
#include "analysis/placement.hpp"

using namespace archbench;

TEST(Placement, ReferenceSmIsTheMedianOfTheSmsThatRan) {
  // Per-SM L2 latencies as on an H100 board: pairs of SMs of one TPC read alike; 0 = no block ran.
  EXPECT_EQ(median_latency_sm({272.3, 272.3, 0, 279.3, 266.4, 288.4, 276.9, 281.0}),
            6u);  // 266 272 272 [277] 279 281 288
  EXPECT_EQ(median_latency_sm({272.3, 272.3, 0, 279.3, 266.4, 288.4, 276.9}),
            1u);                                   // even: lower median, 272.3 on SM 0 and 1 -> 1
  EXPECT_EQ(median_latency_sm({5, 4, 3, 2}), 2u);  // lower median: 2 3 | 4 5 -> 3, on SM 2
  EXPECT_EQ(median_latency_sm({7, 7, 7}), 1u);     // ties: the SM number decides, the same every run
  EXPECT_FALSE(median_latency_sm({0, 0}).has_value());
  EXPECT_FALSE(median_latency_sm({}).has_value());
  // Which SM number sits where differs by board; the SM chosen is the one at the median wherever it is.
  EXPECT_EQ(median_latency_sm({279.3, 272.3, 276.9, 266.4, 288.4}), 2u);
}

TEST(Placement, TypicalSmSitsNearTheMedianOfBothLatencies) {
  // SM:            0    1    2    3    4    5    6
  const std::vector<double> l2 = {270, 272, 276, 277, 279, 288, 0};
  const std::vector<double> walk = {380, 457, 441, 430, 377, 445, 420};
  // SMs 0-5 ran both (mid rank 2.5). L2 ranks: SM s has rank s. Walk ranks: SM 4:0, 0:1, 3:2,
  // 2:3, 5:4, 1:5. SMs 2 and 3 are both 0.5 from the middle in each ranking: the lower number.
  // SM 1 (L2 rank 1, walk rank 5) is typical of neither.
  EXPECT_EQ(typical_sm(l2, walk), 2u);
  EXPECT_EQ(typical_sm(walk, l2), 2u);  // symmetric in the two latencies
  // A planted change: SM 2 given the slowest walk is no longer typical of both; the choice moves
  // to SM 3 (a selection that read the L2 ranking alone would stay on SM 2).
  std::vector<double> walk2 = walk;
  walk2[2] = 500;  // SM 2 now the slowest walk
  EXPECT_EQ(typical_sm(l2, walk2), 3u);
  // SM 6 has no L2 figure and is left out; with no SM in both, none.
  EXPECT_FALSE(typical_sm({0, 0}, {1, 2}).has_value());
  // One latency flat: the other decides (median walk among equals: SM 1 of 380 < 400 < 420).
  EXPECT_EQ(typical_sm({5, 5, 5}, {380, 400, 420}), 1u);
}

// The walk SM where the SMs' walks fall in two groups (page tables near or far): the typical SM
// of the faster group, whichever SMs the groups hold; one group: typical_sm of all.
TEST(Placement, WalkSmIsTypicalOfTheFasterGroupOfWalks) {
  std::vector<double> l2(16), walk(16);
  for (std::size_t s = 0; s < 16; ++s) {
    l2[s] = 280 + 0.5 * double(s);                        // SM s has L2 rank s
    walk[s] = (s % 2 ? 434 : 395) + 0.1 * double(s % 5);  // odd SMs far from the page tables
  }
  const auto sm = walk_sm_of(l2, walk);
  ASSERT_TRUE(sm.has_value());
  EXPECT_EQ(*sm % 2, 0u) << "chose SM " << *sm << " of the slower group";
  // The groups swapped (another process: the page tables in the other partition): still the faster.
  for (std::size_t s = 0; s < 16; ++s) walk[s] = (s % 2 ? 395 : 434) + 0.1 * double(s % 5);
  EXPECT_EQ(*walk_sm_of(l2, walk) % 2, 1u);
  // One group: the SM typical of all, as typical_sm chooses.
  std::vector<double> one(16);
  for (std::size_t s = 0; s < 16; ++s) one[s] = 400 + 0.3 * double((s * 7) % 16);
  EXPECT_EQ(walk_sm_of(l2, one), typical_sm(l2, one));
  EXPECT_FALSE(walk_sm_of({}, {}).has_value());
}

TEST(Placement, ShortChaseSitsAtTheSmsAverageDistance) {
  // One SM's latency per line, in pairs of lines (an H200's 256 B slice granule), four slices at
  // 270, 290, 300 and 340 cycles over and over: the SM's average is 300.
  std::vector<float> per_line;
  for (int g = 0; g < 64; ++g) {
    const float v = g % 4 == 0 ? 270.f : g % 4 == 1 ? 290.f : g % 4 == 2 ? 300.f : 340.f;
    per_line.push_back(v);
    per_line.push_back(v);
  }
  // Two lines at offset 0 read the nearest slice (270): the placement moves the chase to the first
  // offset whose two lines read the average (offsets 1-3 read 280, 290, 295).
  const LinePlacement two = place_lines(per_line, 1, 2, 16, 300.0);
  EXPECT_EQ(two.offset_lines, 4u);
  EXPECT_DOUBLE_EQ(two.mean_cycles, 300.0);
  // Eight lines cover the four slices from offset 0, which stays.
  EXPECT_EQ(place_lines(per_line, 1, 8, 16, 300.0).offset_lines, 0u);
  // A stride of 2 lines (one per granule): offset 0 reads 270, 290, 300, 340 -> 300.
  EXPECT_DOUBLE_EQ(place_lines(per_line, 2, 4, 8, 300.0).mean_cycles, 300.0);
  // Candidates stop where the chase would leave the mapped region.
  EXPECT_LE(place_lines(per_line, 1, 127, 1000, 0.0).offset_lines, 1u);
  EXPECT_THROW(place_lines(per_line, 1, 129, 4, 300.0), std::invalid_argument);
  EXPECT_THROW(place_lines(per_line, 0, 2, 4, 300.0), std::invalid_argument);
}

TEST(Placement, CopiesSitWhereTheirSlowestLinesTypicallyAreMovedByTheSmsShift) {
  // Slices of 270, 290, 300, 340 cycles, two lines each, repeating every 8 lines (128 lines).
  std::vector<float> per_line;
  for (int g = 0; g < 64; ++g)
    for (int twice = 0; twice < 2; ++twice)
      per_line.push_back(g % 4 == 0 ? 270.f : g % 4 == 1 ? 290.f : g % 4 == 2 ? 300.f : 340.f);
  // Copies of one line, 8 lines apart, see one slice per offset: 270 270 290 290 300 300 340 340
  // over offsets 0-7. Their typical slowest line is the map's mean, 300: offset 4.
  const CopyPlacement one = place_copies(per_line, {{0}, {8}, {16}}, 8, 0.0);
  EXPECT_DOUBLE_EQ(one.target_cycles, 300.0);
  EXPECT_EQ(one.offset_lines, 4u);
  // Moved by the SM's shift: a target of 300 - 25 = 275 lands on the 270s, ties to the first.
  const CopyPlacement nearer = place_copies(per_line, {{0}, {8}, {16}}, 8, -25.0);
  EXPECT_EQ(nearer.offset_lines, 0u);
  EXPECT_DOUBLE_EQ(nearer.slowest_mean_cycles, 270.0);
  // Copies of two lines 2 apart (lines o, o + 2): their slowest line by position 0-7 is 290 290
  // 300 300 340 340 340 340, over the map's 126 positions 39960 / 126 = 317.14 (their lines' mean
  // would be 300 anywhere: the slowest line counts). The nearest candidate: 300, at offset 2.
  const CopyPlacement two = place_copies(per_line, {{0, 2}, {8, 10}}, 8, 0.0);
  EXPECT_NEAR(two.target_cycles, 39960.0 / 126.0, 1e-9);
  EXPECT_EQ(two.offset_lines, 2u);
  EXPECT_DOUBLE_EQ(two.slowest_mean_cycles, 300.0);
  // Copies of other shapes each bring their own typical line: one line (300) and two (317.14).
  EXPECT_NEAR(place_copies(per_line, {{0}, {8, 10}}, 8, 0.0).target_cycles, (300.0 + 39960.0 / 126.0) / 2, 1e-9);
  // Candidates stop where a line would leave the mapped region; none fitting is an error, and so
  // is a copy of no lines.
  EXPECT_LE(place_copies(per_line, {{0, 126}}, 1000, 0.0).offset_lines, 1u);
  EXPECT_THROW(place_copies(per_line, {{0, 128}}, 4, 0.0), std::invalid_argument);
  EXPECT_THROW(place_copies(per_line, {}, 4, 0.0), std::invalid_argument);
  EXPECT_THROW(place_copies(per_line, {{0}, {}}, 4, 0.0), std::invalid_argument);
}

TEST(Placement, ElementsOnLinesWhoseMeanIsTheAverage) {
  // Three elements, four candidate lines each (candidates[k * 4 + j]); the SM's average is 300.
  // No candidate of element 0 reads 300: it takes 290 (nearest), element 1 makes up with 310, and
  // element 2 takes 301, the one that keeps the mean nearest.
  const std::vector<float> c = {270, 330, 290, 320,  //
                                310, 299, 260, 350,  //
                                280, 301, 282, 340};
  const LineChoice l = lines_for_mean(c, 4, 3, 300.0);
  ASSERT_EQ(l.choice.size(), 3u);
  EXPECT_EQ(l.choice[0], 2u);
  EXPECT_EQ(l.choice[1], 0u);
  EXPECT_EQ(l.choice[2], 1u);
  EXPECT_NEAR(l.mean_cycles, 300.33, 0.01);
  // Each element's own nearest (290, 299, 301) would read 296.7.
  EXPECT_THROW(lines_for_mean(c, 4, 4, 300.0), std::invalid_argument);
  EXPECT_THROW(lines_for_mean(c, 0, 3, 300.0), std::invalid_argument);
}
